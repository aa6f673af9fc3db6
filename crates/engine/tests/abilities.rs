//! Area abilities of stat blocks (`engine::abilities`) in every ruleset: Frightful Presence (a
//! WIS save or frightened, once a fight, with the Attack action), a recharging poison cone, and a
//! legendary Wing Attack; each caught creature saves, a failure takes the damage and the status.

mod common;

use std::sync::Arc;

use common::homebrew as content;
use engine::content::data::MonsterDef;
use engine::content::{Ability, Behaviour, Class, Race};
use engine::event::AttackKind;
use engine::{Actor, Combat, Combatant, CombatantId, Command, Controller, Dice, Event, Ruleset, Terrain, apply};

const TERROR: &str = r#"
[[status]]
name = "Frightened"
kind = "condition"
condition = "frightened"
turns = 10
save_ends = true

[[monster]]
name = "Terror Drake"
tier = 4
xp = 5000
hp = "20d12+60"
ac = 17
abilities = { str = 21, dex = 10, con = 17, int = 12, wis = 13, cha = 15 }
multiattack = 2
attacks = [
    { name = "Claw", to_hit = 9, damage = "2d6+5", type = "slashing" },
    { name = "Tail", to_hit = 9, damage = "2d8+5", type = "bludgeoning" },
]
area_abilities = [
    { name = "Frightful Presence", save = "wis", dc = 16, status = "Frightened", uses = 1, with_attack = true },
    { name = "Poison Spray", damage = "6d8", type = "poison", save = "con", dc = 15, area = "cone", size = 30, recharge = 6 },
    { name = "Wing Attack", damage = "2d6+5", type = "bludgeoning", dc = 19, half = false, legendary_only = true },
]
legendary = { actions = 3, options = [
    { name = "Tail Attack", attack = "Tail" },
    { name = "Wing Attack", ability = "Wing Attack", cost = 2 },
] }
"#;

fn drake() -> Arc<MonsterDef> {
    Arc::clone(content(TERROR).monsters.get("Terror Drake").unwrap())
}

/// Three level-8 fighters (the AI's) against the Terror Drake under `ruleset`, played out.
fn fight(ruleset: Ruleset, seed: u64) -> (Combat, Vec<Event>, CombatantId) {
    let mut all: Vec<Combatant> = ["Aria", "Bo", "Cy"]
        .iter()
        .map(|name| {
            Combatant::character(
                name,
                Race::HUMAN,
                Class::FIGHTER,
                8,
                Controller::Ai(Behaviour::Aggressive),
            )
        })
        .collect();
    all.push(Combatant::of_monster("Terror Drake", drake()));
    let mut combat = Combat::new(all, Terrain::default()).with_ruleset(ruleset);
    let drake = combat.combatants[3].id;
    let mut dice = Dice::seeded(seed);
    let events = apply(&mut combat, Actor::Director, Command::Begin, &mut dice, common::now()).expect("it begins");
    (combat, events, drake)
}

fn used(events: &[Event], drake: CombatantId, name: &str) -> Vec<usize> {
    events
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, Event::AbilityUsed { id, ability } if *id == drake && ability == name))
        .map(|(i, _)| i)
        .collect()
}

#[test]
fn frightful_presence_is_used_once_a_fight_with_the_attack_action_in_every_ruleset() {
    for ruleset in Ruleset::ALL {
        let (_, events, drake) = fight(ruleset, 2);
        let uses = used(&events, drake, "Frightful Presence");
        assert_eq!(uses.len(), 1, "{}: once a fight", ruleset.name());
        let at = uses[0];
        // Each fighter it catches makes a DC 16 WIS save; a failure frightens.
        let saves: Vec<(CombatantId, bool)> = events[at + 1..]
            .iter()
            .take_while(|e| matches!(e, Event::SavingThrow { .. }))
            .filter_map(|e| match e {
                Event::SavingThrow {
                    id,
                    ability: Ability::Wis,
                    dc: 16,
                    success,
                    ..
                } => Some((*id, *success)),
                _ => None,
            })
            .collect();
        assert!(!saves.is_empty(), "{}: nobody saved", ruleset.name());
        for (id, success) in &saves {
            let frightened = events[at + 1 + saves.len()..]
                .iter()
                .take_while(|e| matches!(e, Event::StatusApplied { .. }))
                .any(|e| matches!(e, Event::StatusApplied { id: who, status, .. } if who == id && status == "Frightened"));
            assert_eq!(
                frightened,
                !success,
                "{}: a failed save frightens, a success does not",
                ruleset.name()
            );
        }
        if ruleset != Ruleset::Ticks {
            // It spends no action: the drake still takes its action in the same turn (an
            // attack, or its Poison Spray while that is charged).
            let acts_after = events[at + 1..]
                .iter()
                .take_while(|e| !matches!(e, Event::TurnEnded { id } if *id == drake))
                .any(|e| {
                    matches!(e, Event::AttackRolled { attacker, kind: AttackKind::Action, .. } if *attacker == drake)
                        || matches!(e, Event::AbilityUsed { id, ability } if *id == drake && ability == "Poison Spray")
                });
            assert!(acts_after, "{}: no action after Frightful Presence", ruleset.name());
        }
    }
}

#[test]
fn a_recharge_6_ability_is_spent_and_comes_back_only_on_a_six_in_every_ruleset() {
    for ruleset in Ruleset::ALL {
        let (_, events, drake) = fight(ruleset, 4);
        let sprays = used(&events, drake, "Poison Spray");
        assert!(!sprays.is_empty(), "{}: never sprayed", ruleset.name());
        // Between two sprays it recharged, on a 6.
        for pair in sprays.windows(2) {
            let recharged = events[pair[0]..pair[1]].iter().any(|e| {
                matches!(e, Event::BreathRecharged { id, roll: 6, ability: Some(a) } if *id == drake && a == "Poison Spray")
            });
            assert!(recharged, "{}: sprayed again without recharging", ruleset.name());
        }
        for e in &events {
            if let Event::BreathRecharged {
                roll, ability: Some(a), ..
            } = e
                && a == "Poison Spray"
            {
                assert_eq!(*roll, 6, "{}", ruleset.name());
            }
        }
        // A CON save, and a 30-ft cone holds three.
        let caught = events[sprays[0]..]
            .iter()
            .take_while(|e| !matches!(e, Event::TurnEnded { .. } | Event::AttackRolled { .. }))
            .filter(|e| {
                matches!(
                    e,
                    Event::SavingThrow {
                        ability: Ability::Con,
                        dc: 15,
                        ..
                    }
                )
            })
            .count();
        assert!((1..=3).contains(&caught), "{}: {caught} saves", ruleset.name());
    }
}

#[test]
fn a_legendary_option_may_be_an_area_ability_and_a_success_against_it_takes_nothing_when_it_has_no_half() {
    let mut wing_attacks = 0;
    for ruleset in Ruleset::ALL {
        for seed in 1..=3 {
            let (_, events, drake) = fight(ruleset, seed);
            assert!(
                used(&events, drake, "Wing Attack").is_empty(),
                "{}: a legendary-only ability taken as the turn's action",
                ruleset.name()
            );
            for (i, e) in events.iter().enumerate() {
                let Event::LegendaryAction { id, action, .. } = e else {
                    continue;
                };
                if *id != drake || action != "Wing Attack" {
                    continue;
                }
                wing_attacks += 1;
                // Its DC 19 DEX saves follow at once: a success takes no damage.
                let mut saved = Vec::new();
                for e in &events[i + 1..] {
                    match e {
                        Event::SavingThrow {
                            id,
                            ability: Ability::Dex,
                            dc: 19,
                            success,
                            ..
                        } => saved.push((*id, *success)),
                        Event::DamageDealt { target, amount, .. } => {
                            if let Some((_, success)) = saved.iter().find(|(who, _)| who == target) {
                                assert!(!success || *amount == 0, "{}: a success took {amount}", ruleset.name());
                            }
                        }
                        Event::LegendaryAction { .. } | Event::TurnStarted { .. } => break,
                        _ => {}
                    }
                }
                assert!(!saved.is_empty(), "{}: a Wing Attack caught nobody", ruleset.name());
            }
        }
    }
    assert!(wing_attacks > 0, "the drake never took its Wing Attack");
}

#[test]
fn an_area_ability_must_do_something_and_either_recharge_or_have_uses() {
    let refused = common::homebrew_refused(
        &TERROR
            .replace(r#"status = "Frightened", uses = 1"#, "uses = 1")
            .replace("recharge = 6 }", "recharge = 6, uses = 2 }"),
    )
    .to_string();
    assert!(
        refused.contains(
            "area ability `Frightful Presence` does nothing: give it `damage` and `type`, a `status`, or both"
        ),
        "{refused}"
    );
    assert!(
        refused.contains("an ability either recharges or has uses a fight: give `recharge` or `uses`, not both"),
        "{refused}"
    );
}

#[test]
fn a_stored_fights_breath_weapon_is_read_back_as_the_first_area_ability_spent_or_not() {
    let mut combat = Combat::new(
        vec![
            common::pc("Aria", Race::HUMAN, Class::FIGHTER, 3),
            Combatant::monster("Ember", engine::content::Monster::RED_DRAGON_WYRMLING),
        ],
        Terrain::default(),
    );
    let mut stored = serde_json::to_value(&combat).unwrap();
    // As a fight stored before area abilities: the breath apart, and a spent flag.
    let sheets = stored["combatants"]["sheets"].as_array_mut().unwrap();
    let sheet = sheets
        .iter_mut()
        .find(|s| s["kind"]["Monster"].is_object())
        .expect("the wyrmling's sheet");
    let monster = sheet["kind"]["Monster"].as_object_mut().unwrap();
    let mut breath = monster.remove("area_abilities").unwrap()[0].clone();
    breath.as_object_mut().unwrap().remove("breath");
    monster.insert("breath".into(), breath);
    let list = stored["combatants"]["list"].as_array_mut().unwrap();
    list[1]["pools"]["breath_ready"] = false.into();
    let read: Combat = serde_json::from_value(stored).unwrap();
    let ember = read.combatants[1].id;
    assert_eq!(
        read.get(ember).stat_block().unwrap().ability(0).unwrap().name.as_ref(),
        "Fire Breath"
    );
    assert!(!engine::abilities::ready(read.get(ember), 0), "spent when stored");
    combat.get_mut(ember).pools.ability_uses[0] = 1;
    assert_eq!(read.get(ember).pools.ability_uses, combat.get(ember).pools.ability_uses);
}
