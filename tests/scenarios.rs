//! Scripted sessions at the terminal table, snapshotted: every `tests/scenarios/*.txt` (and the
//! shipped `examples/first-fight.txt`) is played by the real `gogobee play --script` on an
//! in-memory database, and its output must match the stored snapshot. A script's first
//! `# seed: N` comment sets `--seed`.

use std::path::Path;
use std::process::Command;

fn seed_of(script: &str) -> u64 {
    script
        .lines()
        .find_map(|l| l.trim().strip_prefix("# seed:"))
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(1)
}

/// The binary under test: cargo's, or `GOGOBEE_BIN` (a copy of it, when other builds share the
/// target directory and may replace cargo's in the meantime).
fn gogobee() -> Command {
    Command::new(std::env::var_os("GOGOBEE_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_gogobee").into()))
}

fn play(path: &Path, seed: u64, json: bool) -> String {
    play_on(path, seed, json, None)
}

/// Plays the script on the database at `db` (in memory without one).
fn play_on(path: &Path, seed: u64, json: bool, db: Option<&str>) -> String {
    let mut command = gogobee();
    command
        .args(["play", "--script"])
        .arg(path)
        .args(["--seed", &seed.to_string()]);
    if json {
        command.arg("--json");
    }
    if let Some(db) = db {
        command.args(["--db", db]);
    }
    let output = command
        .env_remove("DATABASE_URL")
        .env("RUST_LOG", "error")
        .output()
        .expect("gogobee runs");
    assert!(
        output.status.success(),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("utf-8 output")
}

fn check(file: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let script = std::fs::read_to_string(&path).expect("the script exists");
    let output = play(&path, seed_of(&script), false);
    let name = path.file_stem().expect("a file name").to_string_lossy().into_owned();
    insta::assert_snapshot!(name, output);
}

#[test]
fn a_server_owner_imports_homebrew_and_the_party_fights_it() {
    check("tests/scenarios/homebrew.txt");
}

#[test]
fn characters_and_their_refusals() {
    check("tests/scenarios/characters.txt");
}

#[test]
fn expeditions_gm_tools_dice_and_their_refusals() {
    check("tests/scenarios/expedition_and_gm.txt");
}

#[test]
fn a_fight_refuses_every_kind_of_bad_input() {
    check("tests/scenarios/combat_refusals.txt");
}

#[test]
fn a_readied_attack_fires_when_the_goblin_closes_in() {
    check("tests/scenarios/ready.txt");
}

#[test]
fn each_fight_runs_under_its_campaigns_ruleset() {
    check("tests/scenarios/rulesets.txt");
}

#[test]
fn each_model_shows_its_state_the_timeline_in_one_running_message() {
    check("tests/scenarios/model_displays.txt");
}

#[test]
fn the_first_fight_example_is_won_with_a_reaction_button() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/first-fight.txt");
    let output = play(&path, 6, false);
    assert!(output.contains("[Opportunity Attack] [Pass]"), "{output}");
    assert!(output.contains("Victory"), "{output}");
    insta::assert_snapshot!("first_fight", output);
}

#[test]
fn json_output_is_one_discord_payload_per_line() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/first-fight.txt");
    let output = play(&path, 6, true);
    for line in output.lines() {
        let value: serde_json::Value = serde_json::from_str(line).expect("each line is JSON");
        assert!(
            value["user"].is_string() && value["ephemeral"].is_boolean() && value["payload"].is_object(),
            "{line}"
        );
    }
    assert!(output.lines().count() >= 8);
}

#[test]
fn the_same_seed_plays_the_same_session() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/first-fight.txt");
    assert_eq!(play(&path, 6, true), play(&path, 6, true));
}

#[test]
fn a_death_goes_to_the_hospital_and_back_after_the_rest() {
    check("tests/scenarios/hospital.txt");
}

#[test]
fn a_party_of_three_joining_before_and_after_the_start_gets_turns_in_every_ruleset() {
    check("tests/scenarios/parties.txt");
}

#[test]
fn ticks_a_dash_doubles_the_move_it_precedes_and_a_late_joiner_is_waited_for() {
    check("tests/scenarios/ticks_dash.txt");
}

#[test]
fn tdgs_an_instant_before_the_start_a_parry_at_the_interrupt_check_and_a_once_a_day_intervention() {
    check("tests/scenarios/tdgs_interrupts.txt");
}

#[test]
fn twinbee_narrates_each_move_by_what_it_came_to_in_every_direction_and_band() {
    check("tests/scenarios/movement.txt");
}

#[test]
fn an_arena_duel_ends_at_zero_hp_and_only_the_challenged_may_answer() {
    check("tests/scenarios/arena.txt");
}

#[test]
fn a_pet_fights_beside_its_owner_and_a_room_keeps_what_they_do_not_carry() {
    check("tests/scenarios/companions.txt");
}

#[test]
fn carry_weight_a_net_that_restrains_until_escaped_and_crawling_at_the_table() {
    check("tests/scenarios/held.txt");
}

#[test]
fn an_idle_players_turn_ends_when_the_turn_timer_runs_out() {
    check("tests/scenarios/turn_timer.txt");
}

#[test]
fn a_script_step_that_cannot_run_stops_it_with_its_line_number() {
    let dir = std::env::temp_dir().join(format!("gogobee-script-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.txt");
    std::fs::write(
        &path,
        "@alice /character create name:Aria race:human class:fighter\n# a comment\n@alice [Opportunity Attack]\n@alice /character sheet\n",
    )
    .unwrap();
    let output = gogobee()
        .args(["play", "--script"])
        .arg(&path)
        .env_remove("DATABASE_URL")
        .env("RUST_LOG", "error")
        .output()
        .expect("gogobee runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("line 3: No [Opportunity Attack] button here (shown: none)."),
        "{stderr}"
    );
    // The steps before it ran; the one after did not.
    assert_eq!(stdout.matches("level 1 Human Fighter").count(), 1, "{stdout}");
    // A refusal from the game is output, not a failure: strict options included.
    std::fs::write(&path, "@alice /attack targt:Goblin\n@alice /attack\n").unwrap();
    let output = gogobee()
        .args(["play", "--script"])
        .arg(&path)
        .env_remove("DATABASE_URL")
        .env("RUST_LOG", "error")
        .output()
        .expect("gogobee runs");
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("/attack has no `targt` option. Usage: /attack [target:<text>]"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_table_logs_only_warnings_unless_rust_log_asks() {
    let dir = std::env::temp_dir().join(format!("gogobee-quiet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("one.txt");
    std::fs::write(&script, "@alice /roll expression:1d20\n").unwrap();
    let run = |db: &str, rust_log: Option<&str>| {
        let mut command = gogobee();
        command
            .args(["play", "--script"])
            .arg(&script)
            .args(["--db", db])
            .env_remove("DATABASE_URL")
            .env_remove("RUST_LOG");
        if let Some(filter) = rust_log {
            command.env("RUST_LOG", filter);
        }
        let output = command.output().expect("gogobee runs");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    // A new database file: every migration runs, and says so only when asked.
    let fresh = format!("sqlite://{}?mode=rwc", dir.join("quiet.db").display());
    let stderr = run(&fresh, None);
    assert!(!stderr.contains("INFO"), "{stderr}");
    assert_eq!(stderr.trim(), "", "{stderr}");
    let loud = format!("sqlite://{}?mode=rwc", dir.join("loud.db").display());
    let stderr = run(&loud, Some("info"));
    assert!(stderr.contains("INFO"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn combat_replay_at_the_table_prints_the_attached_log() {
    let dir = std::env::temp_dir().join(format!("gogobee-replay-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("replay.txt");
    std::fs::write(
        &script,
        "@alice /character create name:Aria race:human class:fighter\n@owner /gm spawn monster:goblin\n\
         @alice /combat start\n@owner /combat end\n@bob /combat replay combat:1\n",
    )
    .unwrap();
    let output = gogobee()
        .args(["play", "--script"])
        .arg(&script)
        .env_remove("DATABASE_URL")
        .env("RUST_LOG", "error")
        .output()
        .expect("gogobee runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let file = stdout
        .split("📎 combat-1.txt\n")
        .nth(1)
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(file.starts_with("│ GogoBee referee log — combat 1 · seed "), "{stdout}");
    assert!(file.contains("│ Aria joins the fight"), "{stdout}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn thoms_shop_sells_buys_and_refuses_what_you_cannot_afford() {
    check("tests/scenarios/shop.txt");
}

#[test]
fn the_inns_rests_and_workbench_and_their_refusals() {
    check("tests/scenarios/inn.txt");
}

#[test]
fn character_life_names_retiring_leaderboards_and_the_guide() {
    check("tests/scenarios/character_life.txt");
}

/// Every scenario plays the same on a SQLite file as in memory. On a file the commands run on the
/// process's own connections (the group commit; the reader; a death's Hospital admission and a
/// fight's settlement in a transaction of their own on the group commit's connection), in memory
/// through sea-orm: two paths for one game.
#[test]
fn every_scenario_plays_the_same_on_a_sqlite_file_as_in_memory() {
    let dir = std::env::temp_dir().join(format!("gogobee-scenario-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let mut scripts: Vec<_> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios"))
        .expect("the scenarios")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .collect();
    scripts.sort();
    assert!(scripts.len() >= 10, "the scenarios are found: {scripts:?}");
    for path in &scripts {
        let seed = seed_of(&std::fs::read_to_string(path).expect("the script"));
        let name = path.file_stem().expect("a file name").to_string_lossy().into_owned();
        let db = format!("sqlite://{}?mode=rwc", dir.join(format!("{name}.db")).display());
        let on_file = play_on(path, seed, false, Some(&db));
        assert_eq!(on_file, play(path, seed, false), "{name} on a SQLite file");
    }
    std::fs::remove_dir_all(&dir).ok();
}
