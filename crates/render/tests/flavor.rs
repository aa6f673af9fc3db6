//! The flavor files load and pass the start-up checks; the checker rejects what it must.

use engine::log::Say;
use render::{Flavor, FlavorFile, FlavorProblem, Key};

/// The embedded files, with `extra` appended to `file`'s text.
fn with_extra(file: FlavorFile, extra: &str) -> Vec<(FlavorFile, String)> {
    FlavorFile::ALL
        .iter()
        .map(|f| {
            let mut text = f.embedded().to_owned();
            if *f == file {
                text.push('\n');
                text.push_str(extra);
                text.push('\n');
            }
            (*f, text)
        })
        .collect()
}

fn load(sources: &[(FlavorFile, String)]) -> Result<Flavor, Vec<FlavorProblem>> {
    Flavor::from_sources(sources.iter().map(|(f, t)| (*f, t.as_str()))).map_err(|e| e.problems)
}

#[test]
fn the_embedded_flavor_files_load_and_pass_every_check() {
    let flavor = Flavor::load().unwrap_or_else(|e| panic!("{e}"));
    for key in &Key::all() {
        assert!(
            flavor.variants(*key) >= 3,
            "{} has {} lines; every key gets at least three",
            key.name(),
            flavor.variants(*key)
        );
    }
}

#[test]
fn the_seed_lines_are_there_word_for_word() {
    let flavor = Flavor::load().unwrap();
    let has = |key: Key, wanted: &str| {
        assert!(
            flavor.raw_lines(key).iter().any(|l| l.contains(wanted)),
            "{} lacks {wanted:?}",
            key.name()
        );
    };
    has(
        Key::ReactionPromptLeavesMelee,
        "It's moving. You have a reaction if you want it.",
    );
    has(
        Key::Say(Say::ReadiedActionTriggered),
        "{mover} moves. Your readied {action} fires.",
    );
    has(Key::HospitalAdmission, "\"Again,\" Thom says, not unkindly.");
    has(
        Key::HospitalAdmission,
        "TwinBee delivers you to the threshold and steps back.",
    );
}

#[test]
fn death_is_narrated_with_complete_respect() {
    let flavor = Flavor::load().unwrap();
    for line in flavor.raw_lines(Key::Say(Say::PlayerDeath)) {
        let lower = line.to_lowercase();
        for mockery in ["told you", "lol", "oops", "should have", "git gud", "haha", "!"] {
            assert!(!lower.contains(mockery), "{line}");
        }
    }
}

#[test]
fn an_unknown_key_is_rejected() {
    let problems = load(&with_extra(
        FlavorFile::TwinbeeCombat,
        "AttackWhiff = [\"{name} whiffs.\"]",
    ))
    .unwrap_err();
    assert_eq!(
        problems,
        vec![FlavorProblem::UnknownKey {
            file: FlavorFile::TwinbeeCombat,
            key: "AttackWhiff".into()
        }]
    );
}

#[test]
fn a_key_in_the_wrong_file_is_unknown_there() {
    let problems = load(&with_extra(FlavorFile::ThomKrooke, "PlayerDeath = [\"{name} died.\"]")).unwrap_err();
    assert!(matches!(
        &problems[..],
        [FlavorProblem::UnknownKey { file: FlavorFile::ThomKrooke, key }] if key == "PlayerDeath"
    ));
}

#[test]
fn a_placeholder_the_key_does_not_provide_is_rejected() {
    let mut sources = with_extra(FlavorFile::TwinbeeGm, "");
    sources[1].1 = sources[1]
        .1
        .replace("[\n    \"{name} has died.", "[\n    \"{name} has died to {killer}.");
    let problems = load(&sources).unwrap_err();
    assert_eq!(
        problems,
        vec![FlavorProblem::UnknownPlaceholder {
            file: FlavorFile::TwinbeeGm,
            key: Key::Say(Say::PlayerDeath),
            line: 1,
            placeholder: "killer".into()
        }]
    );
    assert!(problems[0].to_string().contains("allowed: {name}"), "{}", problems[0]);
}

#[test]
fn a_missing_key_is_rejected() {
    let sources: Vec<(FlavorFile, String)> = with_extra(FlavorFile::ThomKrooke, "")
        .into_iter()
        .map(|(f, t)| {
            if f == FlavorFile::ThomKrooke {
                // Only RestOver's lines go: from its key to the end of its list.
                let start = t.find("RestOver = [").unwrap();
                let end = start + t[start..].find("\n]\n").unwrap() + 3;
                (f, format!("{}{}", &t[..start], &t[end..]))
            } else {
                (f, t)
            }
        })
        .collect();
    assert_eq!(
        load(&sources).unwrap_err(),
        vec![FlavorProblem::MissingKey {
            file: FlavorFile::ThomKrooke,
            key: Key::RestOver
        }]
    );
}

#[test]
fn inline_files_are_checked_line_by_line() {
    let combat = "
        RoundStarted = [\"Round {round}\", \"Round {round} {oops\", 7]
        Downed = []
        Woke = \"not a list\"
        Bogus = [\"x\"]
    ";
    let problems = Flavor::from_sources([(FlavorFile::TwinbeeCombat, combat)])
        .unwrap_err()
        .problems;
    let has = |p: &FlavorProblem| problems.contains(p);
    let file = FlavorFile::TwinbeeCombat;
    assert!(has(&FlavorProblem::Malformed {
        file,
        key: Key::Say(Say::RoundStarted),
        line: 2
    }));
    assert!(has(&FlavorProblem::NotAList {
        file,
        key: Key::Say(Say::RoundStarted)
    }));
    assert!(has(&FlavorProblem::Empty {
        file,
        key: Key::Say(Say::Downed)
    }));
    assert!(has(&FlavorProblem::NotAList {
        file,
        key: Key::Say(Say::Woke)
    }));
    assert!(has(&FlavorProblem::UnknownKey {
        file,
        key: "Bogus".into()
    }));
    // Keys of files not given, and keys absent from the given file, are missing.
    assert!(has(&FlavorProblem::MissingKey {
        file: FlavorFile::ThomKrooke,
        key: Key::HospitalAdmission
    }));
    assert!(has(&FlavorProblem::MissingKey {
        file,
        key: Key::Say(Say::AttackHit)
    }));
    // A key with a bad line is reported for that line, not also as missing.
    assert!(!has(&FlavorProblem::MissingKey {
        file,
        key: Key::Say(Say::RoundStarted)
    }));
}

#[test]
fn invalid_toml_is_reported_with_its_file() {
    let problems = load(&with_extra(FlavorFile::TwinbeeExpedition, "RoomEntry = [")).unwrap_err();
    assert!(matches!(
        &problems[..],
        [FlavorProblem::Parse {
            file: FlavorFile::TwinbeeExpedition,
            ..
        }]
    ));
}

#[test]
fn picks_are_deterministic_and_spread_over_the_variants() {
    let flavor = Flavor::load().unwrap();
    let values = [
        ("name", "Aria"),
        ("target", "Goblin 1"),
        ("weapon", "Shortsword"),
        ("swing", "1"),
        ("of", "1"),
    ];
    let pick = |seed, salt| flavor.pick(Key::Say(Say::AttackHit), seed, salt, &values);
    assert_eq!(pick(1, 2), pick(1, 2));
    let distinct: std::collections::BTreeSet<String> = (0..64).map(|salt| pick(9, salt)).collect();
    assert_eq!(distinct.len(), flavor.variants(Key::Say(Say::AttackHit)));
    assert!(distinct.iter().all(|l| l.contains("Aria") && !l.contains('{')));
}
