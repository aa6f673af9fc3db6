//! Rendering real fights: every payload within Discord's limits, deterministic by seed,
//! reaction prompts with exactly the offered buttons plus Pass, and a snapshot.

mod common;

use common::{drive, party_vs_goblins, renderer};
use engine::content::Monster;
use engine::{Combatant, Controller, Event, Terrain};
use render::{MessagePayload, ReactionButton, ReactionChoice, RenderContext};

fn assert_sendable(payload: &MessagePayload, context: &str) {
    let problems = payload.limit_violations();
    assert!(problems.is_empty(), "{context}: {problems:?}\n{payload:#?}");
    assert!(payload.components.len() <= 5, "{context}: too many rows");
    for row in &payload.components {
        assert!(
            !row.components.is_empty() && row.components.len() <= 5,
            "{context}: row size"
        );
        for b in &row.components {
            assert!(b.custom_id.chars().count() <= 100, "{context}: {}", b.custom_id);
        }
    }
}

#[test]
fn every_payload_of_many_fights_is_within_discord_limits() {
    let r = renderer();
    for seed in 0..40 {
        let mut combat = party_vs_goblins(3);
        let steps = drive(&mut combat, seed, 400, &r);
        assert!(!steps.is_empty());
        for (i, step) in steps.iter().enumerate() {
            for payload in step.rendered.messages() {
                assert_sendable(payload, &format!("seed {seed} step {i}"));
            }
        }
    }
}

#[test]
fn the_same_seed_renders_byte_identical_json() {
    let r = renderer();
    let json = |seed| {
        let mut combat = party_vs_goblins(3);
        drive(&mut combat, seed, 400, &r)
            .iter()
            .flat_map(|s| {
                s.rendered
                    .messages()
                    .map(|m| serde_json::to_string(m).unwrap())
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(json(7), json(7));
    assert_ne!(json(7), json(8));
}

#[test]
fn the_narration_pings_the_numeric_player_whose_turn_it_is_and_names_the_others() {
    let r = renderer();
    let mut pinged = false;
    let mut named = false;
    for seed in 0..20 {
        let mut combat = party_vs_goblins(2);
        for step in drive(&mut combat, seed, 200, &r) {
            let n = &step.rendered.narration;
            let Some(content) = &n.content else { continue };
            let mentions = n.allowed_mentions.as_ref().unwrap();
            assert!(mentions.parse.is_empty(), "names never parse as mentions");
            if content.contains("<@123456789012345678>") {
                // Pinged when the turn passes to them; a command within their turn pings no one.
                let bo = combat
                    .combatants
                    .iter()
                    .find(|c| c.player_id() == Some("123456789012345678"))
                    .unwrap()
                    .id;
                let passed = step.events.iter().any(|e| match e {
                    engine::Event::TurnStarted { id, .. } => *id == bo,
                    engine::Event::ReactionTaken { reactor, .. } | engine::Event::ReactionPassed { reactor } => {
                        *reactor != bo && combat.get(*reactor).is_player()
                    }
                    _ => false,
                });
                if passed {
                    assert_eq!(mentions.users, vec!["123456789012345678".to_owned()]);
                    pinged = true;
                } else {
                    assert!(mentions.users.is_empty(), "{content}: {:?}", step.events);
                }
            } else {
                assert!(
                    content.contains("**alice**") && content.contains("**Aria**"),
                    "{content}"
                );
                assert!(mentions.users.is_empty());
                named = true;
            }
        }
    }
    assert!(pinged && named);
}

#[test]
fn hp_bars_cover_every_combatant_and_the_embed_says_who_is_up() {
    let r = renderer();
    let mut combat = party_vs_goblins(3);
    let steps = drive(&mut combat, 3, 5, &r);
    let embed = &steps[0].rendered.narration.embeds[0];
    let all: String = embed
        .fields
        .iter()
        .map(|f| f.value.clone())
        .collect::<Vec<_>>()
        .join("\n");
    for c in &combat.combatants {
        assert!(all.contains(&c.name), "{} missing from {all}", c.name);
    }
    assert!(all.contains('█'), "{all}");
    assert!(
        embed
            .fields
            .iter()
            .any(|f| f.name == "Up next" || f.name == "Waiting on a reaction")
    );
}

#[test]
fn a_reaction_window_renders_one_button_per_offered_reaction_plus_pass() {
    let r = renderer();
    let mut prompts = 0;
    for seed in 0..40 {
        let mut combat = party_vs_goblins(3);
        // Replay step by step so each prompt can be checked against the state it was made for.
        let steps = drive(&mut combat, seed, 400, &r);
        let mut replay = party_vs_goblins(3);
        let mut dice = engine::Dice::seeded(seed);
        let now = chrono::DateTime::from_timestamp(0, 0).unwrap();
        let mut actor = engine::Actor::Director;
        for (i, step) in steps.iter().enumerate() {
            let version = i as u64 + 1;
            let events = engine::apply(&mut replay, actor, step.command.clone(), &mut dice, now);
            if events.is_err() {
                break; // the driver's refused-then-EndTurn path; the prompt checks so far stand
            }
            match (&replay.window, &step.rendered.reaction_prompt) {
                (Some(window), Some(prompt)) => {
                    prompts += 1;
                    let buttons: Vec<_> = prompt.components.iter().flat_map(|row| row.components.iter()).collect();
                    let mut labels: Vec<&str> = window.options.iter().map(|k| k.label()).collect();
                    labels.push("Pass");
                    assert_eq!(buttons.iter().map(|b| b.label.as_str()).collect::<Vec<_>>(), labels);
                    for b in &buttons {
                        let id = ReactionButton::parse(&b.custom_id).expect("a reaction button id");
                        assert_eq!(id.to_string(), b.custom_id);
                        assert_eq!(
                            (id.combat_id.as_str(), id.version, id.reactor),
                            ("c-42", version, window.reactor)
                        );
                        assert!(id.is_current("c-42", version, &replay));
                        let owner = replay.get(window.reactor).player_id().unwrap().to_owned();
                        assert!(id.pressed_by(&replay, &owner));
                        assert!(!id.pressed_by(&replay, "someone-else"));
                        assert!(
                            !id.is_current("c-42", version + 1, &replay),
                            "a stale version is refused"
                        );
                        assert!(
                            !id.is_current("c-43", version, &replay),
                            "another combat's id is refused"
                        );
                    }
                    assert_eq!(
                        ReactionButton::parse(&buttons.last().unwrap().custom_id)
                            .unwrap()
                            .choice,
                        ReactionChoice::Pass
                    );
                    let reactor = replay.get(window.reactor);
                    let content = prompt.content.as_deref().unwrap();
                    if reactor.player_id() == Some("123456789012345678") {
                        assert!(content.starts_with("<@123456789012345678> — "), "{content}");
                    } else {
                        assert!(content.starts_with("**alice** — "), "{content}");
                    }
                }
                (None, None) => {}
                (w, p) => panic!("window {w:?} but prompt {p:?}"),
            }
            actor = match &replay.window {
                Some(w) => engine::Actor::Combatant(w.reactor),
                None => replay
                    .current()
                    .map_or(engine::Actor::Director, engine::Actor::Combatant),
            };
        }
    }
    assert!(prompts > 0, "some fight opened a reaction window");
}

#[test]
fn a_forged_or_malformed_button_id_does_not_parse() {
    for bad in [
        "",
        "rx",
        "rx:c:1:0",
        "rx:c:1:0:99", // no such reaction kind
        "rx:c:1:0:pass:extra",
        "xx:c:1:0:pass",
        "rx:c d:1:0:pass",
        "rx:c:-1:0:pass",
        "rx:c:1:x:0",
        "rx::1:0:pass",
    ] {
        assert_eq!(ReactionButton::parse(bad), None, "{bad}");
    }
    let long = format!("rx:{}:1:0:pass", "c".repeat(61));
    assert_eq!(ReactionButton::parse(&long), None);
    assert!(RenderContext::new(&"c".repeat(61), 1, 1).is_err());
    assert!(RenderContext::new("has:colon", 1, 1).is_err());
    let longest = ReactionButton {
        combat_id: "c".repeat(60),
        version: u64::MAX,
        reactor: engine::CombatantId(u32::MAX),
        choice: ReactionChoice::Take(engine::ReactionKind::Readied),
    };
    assert!(longest.to_string().len() <= 100);
    assert_eq!(ReactionButton::parse(&longest.to_string()), Some(longest));
}

#[test]
fn huge_names_and_crowds_are_cut_to_size_without_splitting_characters() {
    let r = renderer();
    let long = "☠é".repeat(300);
    let mut all = vec![Combatant::character(
        &format!("{long}*_~`|"),
        engine::content::Race::DWARF,
        engine::content::Class::FIGHTER,
        5,
        Controller::Player("98765432109876543".into()),
    )];
    all.extend((1..=40).map(|i| Combatant::monster(&format!("{long} Goblin {i}"), Monster::GOBLIN)));
    let mut combat = engine::Combat::new(all, Terrain::default());
    for step in drive(&mut combat, 11, 60, &r) {
        for payload in step.rendered.messages() {
            assert_sendable(payload, "crowd");
            // Round-trips through JSON: valid UTF-8 throughout.
            let json = serde_json::to_string(payload).unwrap();
            let back: MessagePayload = serde_json::from_str(&json).unwrap();
            assert_eq!(&back, payload);
        }
    }
}

#[test]
fn downed_and_dead_players_are_marked_and_death_is_narrated_with_respect() {
    let r = renderer();
    for seed in 0..200 {
        let mut combat = engine::Combat::new(
            vec![
                Combatant::character(
                    "Wren",
                    engine::content::Race::HALFLING,
                    engine::content::Class::MAGE,
                    1,
                    Controller::Player("555".into()),
                ),
                Combatant::monster("Ogre", Monster::OGRE),
            ],
            Terrain::default(),
        );
        let steps = drive(&mut combat, seed, 300, &r);
        let Some(death) = steps
            .iter()
            .find(|s| s.events.iter().any(|e| matches!(e, Event::Died { .. })))
        else {
            continue;
        };
        let embed = &death.rendered.narration.embeds[0];
        let text = embed.description.as_deref().unwrap();
        let lines = r.flavor().raw_lines(render::Key::Say(engine::log::Say::PlayerDeath));
        assert!(
            lines.iter().any(|l| text.contains(&l.replace("{name}", "**Wren**"))),
            "{text}"
        );
        assert!(embed.fields[0].value.contains("~~Wren~~"), "{:?}", embed.fields);
        assert!(embed.fields[0].value.contains("☠ dead"));
        return;
    }
    panic!("no seed killed the mage");
}

#[test]
fn one_fight_renders_as_snapshotted() {
    let r = renderer();
    let mut combat = party_vs_goblins(2);
    let steps = drive(&mut combat, 1, 8, &r);
    let json: Vec<serde_json::Value> = steps
        .iter()
        .flat_map(|s| {
            s.rendered
                .messages()
                .map(|m| serde_json::to_value(m).unwrap())
                .collect::<Vec<_>>()
        })
        .collect();
    insta::assert_json_snapshot!("first_eight_commands_seed_1", json);
}
