//! Regeneration (SRD 5.1 stat blocks, `engine::regeneration`) in every ruleset: a regenerating
//! monster regains its hit points at the start of each of its turns, except the turn after damage
//! of a type that stops it landed (fire or acid for a troll).

mod common;

use std::sync::Arc;

use engine::content::DamageType;
use engine::content::data::MonsterDef;
use engine::{Actor, Combat, Combatant, Command, Dice, Event, Ruleset, Side, Terrain, apply};

const CONTENT: &str = r#"
[[monster]]
name = "Bog Troll"
tier = 3
xp = 1800
hp = "40d10"
ac = 10
abilities = { str = 18, dex = 13, con = 20, int = 7, wis = 9, cha = 7 }
attacks = [{ name = "Claw", to_hit = -5, damage = "1", type = "slashing" }]
regeneration = { hp = 10, stopped_by = ["acid", "fire"] }

[[monster]]
name = "Fire Imp"
tier = 1
xp = 10
hp = "40d10"
ac = 30
abilities = { str = 10, dex = 10, con = 10, int = 10, wis = 10, cha = 10 }
attacks = [{ name = "Sear", to_hit = 30, damage = "2d6", type = "fire" }]

[[monster]]
name = "Frost Imp"
tier = 1
xp = 10
hp = "40d10"
ac = 30
abilities = { str = 10, dex = 10, con = 10, int = 10, wis = 10, cha = 10 }
attacks = [{ name = "Chill", to_hit = 30, damage = "2d6", type = "cold" }]
"#;

fn def(name: &str) -> Arc<MonsterDef> {
    Arc::clone(common::homebrew(CONTENT).monsters.get(name).unwrap())
}

/// The Bog Troll against an imp on the party's side, both the AI's, for `rounds` rounds or so.
fn fight(imp: &str, ruleset: Ruleset) -> (Vec<Event>, engine::CombatantId) {
    let mut imp = Combatant::of_monster(imp, def(imp));
    imp.side = Side::Party;
    let troll = Combatant::of_monster("Bog Troll", def("Bog Troll"));
    let mut combat = Combat::new(vec![imp, troll], Terrain::default()).with_ruleset(ruleset);
    let troll = combat.combatants[1].id;
    let mut dice = Dice::seeded(5);
    let events = apply(&mut combat, Actor::Director, Command::Begin, &mut dice, common::now()).expect("it begins");
    (events, troll)
}

/// Walks the fight: the troll regains HP only at a turn start with no stopping damage since its
/// last, and is stopped only after such damage. Returns (regenerations, stops).
fn check(events: &[Event], troll: engine::CombatantId, ruleset: Ruleset) -> (usize, usize) {
    let (mut burnt, mut healed, mut stopped) = (false, 0, 0);
    for e in events {
        match e {
            Event::DamageDealt {
                target,
                damage_type,
                amount,
                ..
            } if *target == troll && *amount > 0 => {
                burnt |= matches!(damage_type, DamageType::Fire | DamageType::Acid);
            }
            Event::Healed {
                target, by, amount, hp, ..
            } if *target == troll && *by == troll => {
                assert!(!burnt, "{}: it regenerated after fire", ruleset.name());
                // Ten, or what takes it back to its maximum (40d10 averages 220).
                assert!(
                    *amount == 10 || (*amount < 10 && *hp == 220),
                    "{}: +{amount}",
                    ruleset.name()
                );
                healed += 1;
            }
            Event::RegenerationStopped { id } if *id == troll => {
                assert!(burnt, "{}: stopped with no fire since its last turn", ruleset.name());
                burnt = false;
                stopped += 1;
            }
            _ => {}
        }
    }
    (healed, stopped)
}

#[test]
fn fire_stops_a_trolls_regeneration_for_its_next_turn_in_every_ruleset() {
    for ruleset in Ruleset::ALL {
        let (events, troll) = fight("Fire Imp", ruleset);
        let (_, stopped) = check(&events, troll, ruleset);
        assert!(stopped >= 2, "{}: stopped {stopped} times", ruleset.name());
    }
}

#[test]
fn a_troll_regains_ten_hit_points_at_each_turns_start_after_cold_damage_in_every_ruleset() {
    for ruleset in Ruleset::ALL {
        let (events, troll) = fight("Frost Imp", ruleset);
        let (healed, stopped) = check(&events, troll, ruleset);
        assert!(healed >= 2, "{}: regenerated {healed} times", ruleset.name());
        assert_eq!(stopped, 0, "{}", ruleset.name());
    }
}

#[test]
fn regeneration_takes_damage_types_only() {
    let refused =
        common::homebrew_refused(&CONTENT.replace(r#"["acid", "fire"]"#, r#"["acid", "sunlight"]"#)).to_string();
    assert!(
        refused.contains("unknown damage type that stops regeneration `sunlight`"),
        "{refused}"
    );
}
