//! A stat block's own reactions (`reactions = [...]` in content; `engine::reactions`' stat-block
//! reaction) in every ruleset: a parrying captain's +2 AC turns a melee hit that no longer beats
//! it into a miss, and the AI raises it only then; a damage cut lands as rolled; a reaction to a
//! melee hit ignores arrows; one a round; the import refuses what does nothing or too much.

mod common;

use std::sync::Arc;

use common::homebrew as content;
use engine::content::data::MonsterDef;
use engine::content::{Behaviour, Class, Race};
use engine::event::AttackKind;
use engine::{Actor, Combat, Combatant, CombatantId, Command, Controller, Dice, Event, Ruleset, apply};

const CAPTAINS: &str = r#"
[[monster]]
name = "Parrying Captain"
tier = 2
xp = 450
hp = "20d10"
ac = 15
abilities = { str = 14, dex = 16, con = 14, int = 12, wis = 12, cha = 12 }
attacks = [{ name = "Scimitar", to_hit = 5, damage = "1d6+3", type = "slashing" }]
reactions = [{ name = "Parry", on = "melee hit", ac = 2 }]

[[monster]]
name = "Shell Brute"
tier = 2
xp = 450
hp = "20d10"
ac = 12
abilities = { str = 16, dex = 10, con = 16, int = 6, wis = 10, cha = 6 }
attacks = [{ name = "Slam", to_hit = 5, damage = "1d6+3", type = "bludgeoning" }]
reactions = [{ name = "Shell Up", on = "hit", reduce = "1d6" }, { name = "Never", on = "ranged hit", half = true }]
"#;

fn monster(name: &str) -> Arc<MonsterDef> {
    Arc::clone(content(CAPTAINS).monsters.get(name).unwrap())
}

/// Level-5 characters of `class` (the AI's) against `foe` under `ruleset`, played out by `Begin`.
fn played(class: Class, foe: &str, ruleset: Ruleset, seed: u64) -> (Combat, Vec<Event>, CombatantId) {
    let mut all: Vec<Combatant> = ["Aria", "Bo", "Cy"]
        .iter()
        .map(|name| Combatant::character(name, Race::HUMAN, class, 5, Controller::Ai(Behaviour::Aggressive)))
        .collect();
    all.push(Combatant::of_monster(foe, monster(foe)));
    let mut combat = Combat::new(all, engine::Terrain::default()).with_ruleset(ruleset);
    let foe = combat.combatants[3].id;
    let mut dice = Dice::seeded(seed);
    let events = apply(&mut combat, Actor::Director, Command::Begin, &mut dice, common::now()).expect("it begins");
    (combat, events, foe)
}

/// The attack roll the reaction at `i` answered: the last one at `by` before it.
fn answered(events: &[Event], i: usize, by: CombatantId) -> &Event {
    events[..i]
        .iter()
        .rev()
        .find(|e| matches!(e, Event::AttackRolled { target, .. } if *target == by))
        .expect("a reaction answers an attack")
}

#[test]
fn a_parry_adds_two_to_ac_against_one_melee_hit_and_the_ai_takes_it_only_when_the_hit_then_misses_in_every_ruleset() {
    for ruleset in Ruleset::ALL {
        let mut parried = 0;
        let mut landed_anyway = 0;
        for seed in 0..6 {
            let (_, events, captain) = played(Class::FIGHTER, "Parrying Captain", ruleset, seed);
            for (i, e) in events.iter().enumerate() {
                match e {
                    Event::StatBlockReaction {
                        by,
                        attacker,
                        reaction,
                        missed,
                        ..
                    } => {
                        assert_eq!((*by, reaction.as_ref()), (captain, "Parry"));
                        let Event::AttackRolled {
                            attacker: swung,
                            kind,
                            total,
                            hit,
                            critical,
                            ..
                        } = answered(&events, i, captain)
                        else {
                            unreachable!()
                        };
                        assert_eq!(swung, attacker);
                        assert!(*hit && !*critical, "{}: only a hit, never a critical", ruleset.name());
                        assert_ne!(*kind, AttackKind::Spell, "{}: a melee hit only", ruleset.name());
                        assert!(
                            *total < 15 + 2,
                            "{}: the AI parried a hit of {total} that beats 17",
                            ruleset.name()
                        );
                        assert!(*missed, "{}: a hit below 17 misses", ruleset.name());
                        // Nothing of that swing lands on the captain.
                        let dealt = events[i + 1..]
                            .iter()
                            .take_while(|e| !matches!(e, Event::AttackRolled { .. }))
                            .any(|e| matches!(e, Event::DamageDealt { target, source: Some(s), .. } if *target == captain && s == attacker));
                        assert!(
                            !dealt,
                            "{}: a parried hit dealt damage: {:?}",
                            ruleset.name(),
                            &events[i - 3..(i + 6).min(events.len())]
                        );
                        parried += 1;
                    }
                    Event::AttackRolled {
                        target,
                        total,
                        hit: true,
                        ..
                    } if *target == captain && *total >= 17 => landed_anyway += 1,
                    _ => {}
                }
            }
        }
        assert!(parried > 0, "{}: the captain never parried", ruleset.name());
        assert!(landed_anyway > 0, "{}: no hit beat the parry", ruleset.name());
    }
}

#[test]
fn a_damage_cut_reaction_takes_its_roll_off_the_hit_once_a_round_in_every_ruleset() {
    for ruleset in Ruleset::ALL {
        let mut cuts = 0;
        for seed in 0..4 {
            let (_, events, brute) = played(Class::FIGHTER, "Shell Brute", ruleset, seed);
            // The reaction comes back at the start of its own turn.
            let mut reacted = false;
            for e in &events {
                match e {
                    Event::TurnStarted { id, .. } if *id == brute => reacted = false,
                    Event::StatBlockReaction {
                        by,
                        reaction,
                        missed,
                        amount,
                        remaining,
                        ..
                    } => {
                        assert_eq!(*by, brute);
                        assert_eq!(
                            reaction.as_ref(),
                            "Shell Up",
                            "{}: fighters' swings are melee",
                            ruleset.name()
                        );
                        assert!(!missed);
                        assert!(
                            (0..=6).contains(amount) && *remaining >= 0,
                            "{}: cut {amount}",
                            ruleset.name()
                        );
                        if ruleset != Ruleset::Ticks {
                            assert!(!reacted, "{}: two reactions between its turns", ruleset.name());
                        }
                        reacted = true;
                        cuts += 1;
                    }
                    _ => {}
                }
            }
        }
        assert!(cuts > 0, "{}: the brute never shelled up", ruleset.name());
    }
}

#[test]
fn a_reaction_does_exactly_one_thing_and_a_stat_block_lists_at_most_two() {
    let why = common::homebrew_refused(&CAPTAINS.replace("ac = 2 }", "ac = 2, half = true }")).to_string();
    assert!(why.contains("reaction `Parry` must do exactly one thing"), "{why}");
    let why = common::homebrew_refused(&CAPTAINS.replace(r#"on = "melee hit""#, r#"on = "a hit""#)).to_string();
    assert!(why.contains("reaction trigger"), "{why}");
    let three = CAPTAINS.replace(
        r#"{ name = "Never", on = "ranged hit", half = true }"#,
        r#"{ name = "Never", on = "ranged hit", half = true }, { name = "Again", on = "hit", ac = 1 }"#,
    );
    let why = common::homebrew_refused(&three).to_string();
    assert!(why.contains("has 3 reactions: allowed at most 2"), "{why}");
}
