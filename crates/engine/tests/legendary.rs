//! Legendary actions (SRD 5.1 "Legendary Creatures", `engine::legendary`) in every ruleset: a
//! legendary creature spends its points at the end of other creatures' turns — never its own —
//! one option at a time, each option's attack made at once; the points come back when its own
//! turn starts, and it never spends more than it has.

mod common;

use std::sync::Arc;

use common::homebrew as content;
use engine::content::data::MonsterDef;
use engine::content::{Behaviour, Class, Race};
use engine::event::AttackKind;
use engine::{Actor, Combat, Combatant, CombatantId, Command, Controller, Dice, Event, Ruleset, Terrain, apply};

const DRAKE_LORD: &str = r#"
[[monster]]
name = "Drake Lord"
tier = 4
xp = 5000
hp = "30d12+90"
ac = 17
abilities = { str = 21, dex = 10, con = 17, int = 12, wis = 13, cha = 15 }
multiattack = 2
attacks = [
    { name = "Claw", to_hit = 9, damage = "2d6+5", type = "slashing" },
    { name = "Tail", to_hit = 9, damage = "2d8+5", type = "bludgeoning" },
]
legendary = { actions = 3, options = [
    { name = "Tail Attack", attack = "Tail" },
    { name = "Crushing Claw", attack = "Claw", cost = 2 },
] }
"#;

fn drake_lord() -> Arc<MonsterDef> {
    Arc::clone(content(DRAKE_LORD).monsters.get("Drake Lord").unwrap())
}

/// Three level-10 fighters (the AI's) against the Drake Lord under `ruleset`, played out.
fn fight(ruleset: Ruleset, seed: u64) -> (Combat, Vec<Event>, CombatantId) {
    let mut all: Vec<Combatant> = ["Aria", "Bo", "Cy"]
        .iter()
        .map(|name| {
            Combatant::character(
                name,
                Race::HUMAN,
                Class::FIGHTER,
                10,
                Controller::Ai(Behaviour::Aggressive),
            )
        })
        .collect();
    all.push(Combatant::of_monster("Drake Lord", drake_lord()));
    let mut combat = Combat::new(all, Terrain::default()).with_ruleset(ruleset);
    let lord = combat.combatants[3].id;
    let mut dice = Dice::seeded(seed);
    let events = apply(&mut combat, Actor::Director, Command::Begin, &mut dice, common::now()).expect("it begins");
    (combat, events, lord)
}

fn cost(action: &str) -> u8 {
    if action == "Crushing Claw" { 2 } else { 1 }
}

#[test]
fn a_legendary_creature_spends_its_points_at_the_end_of_other_creatures_turns_in_every_ruleset() {
    for ruleset in Ruleset::ALL {
        let (_, events, lord) = fight(ruleset, 7);
        let taken: Vec<usize> = events
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e, Event::LegendaryAction { id, .. } if *id == lord))
            .map(|(i, _)| i)
            .collect();
        assert!(
            taken.len() >= 2,
            "{}: {} legendary actions",
            ruleset.name(),
            taken.len()
        );
        let mut rolled = 0;
        for &i in &taken {
            // Its attack comes next, outside any action of its own (unless a TDGS Parry
            // deflects it before the roll).
            let next = events[i + 1..].iter().find_map(|e| match e {
                Event::AttackRolled { attacker, kind, .. } if *attacker == lord => Some(Some(*kind)),
                Event::TurnStarted { .. } | Event::LegendaryAction { .. } => Some(None),
                _ => None,
            });
            if let Some(Some(kind)) = next {
                assert_eq!(kind, AttackKind::Legendary, "{}", ruleset.name());
                rolled += 1;
            }
            if ruleset == Ruleset::Ticks {
                continue;
            }
            // Turn-based: right after another creature's turn ended, before the next starts.
            let last_turn = events[..i].iter().rev().find_map(|e| match e {
                Event::TurnEnded { id } => Some(("ended", *id)),
                Event::TurnStarted { id, .. } => Some(("started", *id)),
                _ => None,
            });
            assert!(
                matches!(last_turn, Some(("ended", id)) if id != lord),
                "{}: a legendary action after {last_turn:?}",
                ruleset.name()
            );
        }
        assert!(rolled >= 1, "{}: no legendary attack was rolled", ruleset.name());
    }
}

#[test]
fn legendary_points_are_never_overspent_and_come_back_when_its_turn_starts_in_every_ruleset() {
    for ruleset in Ruleset::ALL {
        for seed in 1..=4 {
            let (_, events, lord) = fight(ruleset, seed);
            let mut points = 3u8;
            for e in &events {
                match e {
                    Event::TurnStarted { id, .. } if *id == lord => points = 3,
                    Event::LegendaryAction { id, action, left } if *id == lord => {
                        assert!(
                            u32::from(*left) + u32::from(cost(action)) <= 3,
                            "{}: {action} leaves {left}",
                            ruleset.name()
                        );
                        if ruleset != Ruleset::Ticks {
                            // Turn-based: counted from its last turn's start.
                            assert!(
                                cost(action) <= points,
                                "{}: {action} with {points} points",
                                ruleset.name()
                            );
                            points -= cost(action);
                            assert_eq!(*left, points, "{}", ruleset.name());
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}

#[test]
fn a_legendary_creature_takes_the_dearest_option_it_can_pay_for() {
    let (_, events, lord) = fight(Ruleset::Gogobee, 7);
    // Fresh from its turn (3 points) it takes Crushing Claw (2), then Tail Attack with the last.
    let after_its_turn: Vec<&str> = events
        .iter()
        .skip_while(|e| !matches!(e, Event::TurnEnded { id } if *id == lord))
        .filter_map(|e| match e {
            Event::LegendaryAction { id, action, .. } if *id == lord => Some(action.as_str()),
            _ => None,
        })
        .take(2)
        .collect();
    assert_eq!(after_its_turn, ["Crushing Claw", "Tail Attack"]);
}

#[test]
fn a_legendary_action_must_name_one_of_the_monsters_attacks_and_cost_what_it_has() {
    let refused = common::homebrew_refused(
        &DRAKE_LORD
            .replace("attack = \"Tail\" }", "attack = \"Wing\" }")
            .replace("cost = 2", "cost = 4"),
    )
    .to_string();
    assert!(
        refused.contains("names the attack `Wing`, not one of the monster's: `Claw`, `Tail`"),
        "{refused}"
    );
    assert!(
        refused.contains("legendary action cost 4 is out of range: allowed 1–3"),
        "{refused}"
    );
}

#[test]
fn the_srd_legends_example_loads_and_its_monsters_play_in_every_ruleset() {
    let c = content(include_str!("../../../examples/homebrew/srd-legends.toml"));
    let dragon = Arc::clone(c.monsters.get("Adult Black Dragon").unwrap());
    assert_eq!(dragon.legendary.as_ref().map(|l| l.actions), Some(3));
    assert!(c.monsters.get("Vampire Spawn").unwrap().regeneration.is_some());
    for ruleset in Ruleset::ALL {
        for name in ["Ghast", "Vampire Spawn", "Adult Black Dragon"] {
            let matchup = engine::balance::Matchup {
                party: engine::balance::side("fighter:12,cleric:12,mage:12,rogue:12", &c, engine::Side::Party, "")
                    .unwrap(),
                foes: engine::balance::group(c.monsters.get(name).unwrap(), 1, engine::Side::Enemies, ""),
                ruleset,
            };
            let tally = engine::balance::duel(&matchup, 10, 1, |_| {});
            assert_eq!(tally.halted, 0, "{} {name}: {tally:?}", ruleset.name());
        }
    }
}
