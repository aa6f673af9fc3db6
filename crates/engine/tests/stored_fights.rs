//! Fights stored by an earlier build still load and play on exactly as they would have: the
//! fixture holds, for each ruleset, a fight serialized mid-way (its combatants carrying the
//! timing models' sheets in the form that build wrote), the dice's position, and the commands
//! that came next with the events the earlier build answered them with.
//!
//! `WRITE_STORED_FIGHTS=1 cargo test -p engine --test stored_fights -- --ignored` writes the
//! fixture from the build at hand (only to record a new form; the committed one is the old form).

mod common;

use common::{monster, now, pc};
use engine::combatant::ModelSheet;
use engine::content::{Class, Monster, Race};
use engine::dice::DicePosition;
use engine::{Actor, Combat, Command, Dice, MoveIntent, Ruleset, Terrain, apply};
use serde::{Deserialize, Serialize};
use serde_json::Value;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/stored_fights.json");

/// One stored fight and what followed it.
#[derive(Serialize, Deserialize)]
struct Stored {
    ruleset: Ruleset,
    /// The fight as the store holds it.
    fight: Value,
    dice: DicePosition,
    /// The commands that came next, each with what the build answered: its events, or the refusal.
    next: Vec<(Actor, Command, Value)>,
}

/// A fight under `ruleset`: two players' characters against a goblin and an orc, begun and
/// played until the characters' sheets carry the model's own state.
fn fight(ruleset: Ruleset) -> (Combat, Dice) {
    let party = vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 3),
        pc("Bram", Race::DWARF, Class::CLERIC, 3),
        monster("Goblin", Monster::GOBLIN),
        monster("Orc", Monster::ORC),
    ];
    let mut combat = Combat::new(party, Terrain::default()).with_ruleset(ruleset);
    let mut dice = Dice::seeded(36);
    apply(&mut combat, Actor::Director, Command::Begin, &mut dice, now()).expect("the fight begins");
    for _ in 0..3 {
        play(&mut combat, &mut dice);
    }
    (combat, dice)
}

/// The command the player whose turn it is gives next: a move into melee with the nearest enemy,
/// an attack, then the end of the turn (a reaction offered is passed).
fn next_command(combat: &Combat) -> Option<(Actor, Command)> {
    if combat.outcome.is_some() {
        return None;
    }
    if let Some(window) = &combat.window {
        return Some((Actor::Combatant(window.reactor), Command::Pass));
    }
    let id = combat.current()?;
    let me = combat.get(id);
    let foe = combat.nearest_opponent(id, |c, _| !c.is_dead());
    let command = match foe {
        Some(foe) if !combat.is_engaged(id) && me.resources.movement_used == 0 => Command::Move(MoveIntent::Melee(foe)),
        Some(_) if !me.resources.action_used => Command::Attack { target: None },
        _ => Command::EndTurn,
    };
    Some((Actor::Combatant(id), command))
}

/// Plays one command (if the fight waits for one): its events or its refusal, as JSON.
fn play(combat: &mut Combat, dice: &mut Dice) -> Option<(Actor, Command, Value)> {
    let (actor, command) = next_command(combat)?;
    let answer = match apply(combat, actor, command.clone(), dice, now()) {
        Ok(events) => serde_json::to_value(events).unwrap(),
        Err(refusal) => {
            // A refused attack: the turn ends instead, as a player would.
            let refused = serde_json::json!({ "refused": refusal.to_string() });
            if command != Command::EndTurn {
                let events = apply(combat, actor, Command::EndTurn, dice, now()).unwrap_or_default();
                return Some((actor, command, serde_json::json!([refused, events])));
            }
            refused
        }
    };
    Some((actor, command, answer))
}

fn record() -> Vec<Stored> {
    Ruleset::ALL
        .into_iter()
        .map(|ruleset| {
            let (mut combat, mut dice) = fight(ruleset);
            let stored = serde_json::to_value(&combat).unwrap();
            let at = dice.position();
            let next = (0..12).filter_map(|_| play(&mut combat, &mut dice)).collect();
            Stored {
                ruleset,
                fight: stored,
                dice: at,
                next,
            }
        })
        .collect()
}

#[test]
#[ignore = "writes the fixture"]
fn write_stored_fights() {
    if std::env::var_os("WRITE_STORED_FIGHTS").is_some() {
        let text = serde_json::to_string_pretty(&record()).unwrap();
        std::fs::create_dir_all(std::path::Path::new(FIXTURE).parent().unwrap()).unwrap();
        std::fs::write(FIXTURE, text + "\n").unwrap();
    }
}

#[test]
fn fights_stored_by_an_earlier_build_load_and_play_on_with_the_same_events_in_every_ruleset() {
    let stored: Vec<Stored> = serde_json::from_str(&std::fs::read_to_string(FIXTURE).unwrap()).unwrap();
    assert_eq!(stored.len(), Ruleset::ALL.len());
    for s in stored {
        let mut combat: Combat = serde_json::from_value(s.fight.clone()).unwrap();
        assert_eq!(combat.ruleset, s.ruleset);
        // Each combatant's sheet is the fight's model's, and a model that kept anything on its
        // combatants still has it.
        for c in &combat.combatants {
            match (&c.model, s.ruleset) {
                (ModelSheet::Gogobee, _)
                | (ModelSheet::Tdgs(_), Ruleset::Tdgs)
                | (ModelSheet::Ctb(_), Ruleset::Ctb)
                | (ModelSheet::Ticks(_), Ruleset::Ticks) => {}
                (sheet, ruleset) => panic!("{}: a {sheet:?} sheet in a {ruleset:?} fight", c.name),
            }
        }
        assert_eq!(
            combat.combatants.iter().any(|c| c.model != ModelSheet::Gogobee),
            s.ruleset != Ruleset::Gogobee,
            "{:?}",
            s.ruleset
        );
        // Written again, the fight names only the model's sheet.
        let written = serde_json::to_value(&combat).unwrap();
        for c in written["combatants"]["list"].as_array().unwrap() {
            for old in ["ctb", "tdgs", "ticks"] {
                assert!(c.get(old).is_none(), "{:?}: {old} written", s.ruleset);
            }
        }
        let mut dice = Dice::at(s.dice);
        assert!(!s.next.is_empty(), "{:?}: the fixture plays on", s.ruleset);
        for (actor, command, answer) in &s.next {
            let (now_actor, now_command, now_answer) = play(&mut combat, &mut dice).expect("the fight waits");
            assert_eq!((now_actor, &now_command), (*actor, command), "{:?}", s.ruleset);
            assert_eq!(&now_answer, answer, "{:?}: {command:?}", s.ruleset);
        }
    }
}

#[test]
fn a_fight_read_back_is_the_fight_that_was_written_in_every_ruleset() {
    for ruleset in Ruleset::ALL {
        let (combat, _) = fight(ruleset);
        let back: Combat = serde_json::from_value(serde_json::to_value(&combat).unwrap()).unwrap();
        assert_eq!(back, combat, "{ruleset:?}");
    }
}
