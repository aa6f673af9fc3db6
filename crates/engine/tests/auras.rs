//! Auras (`engine::auras`) in every ruleset: an enemy that starts its turn in melee with the
//! aura's holder suffers it — a stench's CON save or poisoned until its next turn, a heat's fire
//! damage with no save — and nobody else does.

mod common;

use std::sync::Arc;

use common::homebrew as content;
use engine::content::data::MonsterDef;
use engine::content::{Ability, Behaviour, Class, DamageType, Race};
use engine::{Actor, Combat, Combatant, CombatantId, Command, Controller, Dice, Event, Ruleset, Side, Terrain, apply};

const STINKER: &str = r#"
[[status]]
name = "Sickened"
kind = "condition"
condition = "poisoned"
turns = 1

[[monster]]
name = "Reeking Brute"
tier = 2
xp = 450
hp = "20d10"
ac = 12
abilities = { str = 16, dex = 10, con = 16, int = 6, wis = 10, cha = 6 }
attacks = [{ name = "Slam", to_hit = 5, damage = "1d6+3", type = "bludgeoning" }]
auras = [
    { name = "Stench", save = "con", dc = 10, status = "Sickened" },
    { name = "Smoulder", damage = "1d4", type = "fire" },
]
"#;

fn brute() -> Arc<MonsterDef> {
    Arc::clone(content(STINKER).monsters.get("Reeking Brute").unwrap())
}

/// Level-5 fighters named `party` (the AI's) against `foes` under `ruleset`, played out by `Begin`.
fn played(party: &[&str], foes: Vec<Combatant>, ruleset: Ruleset, seed: u64) -> (Combat, Vec<Event>) {
    let mut all: Vec<Combatant> = party
        .iter()
        .map(|name| {
            Combatant::character(
                name,
                Race::HUMAN,
                Class::FIGHTER,
                5,
                Controller::Ai(Behaviour::Aggressive),
            )
        })
        .collect();
    all.extend(foes);
    let mut combat = Combat::new(all, Terrain::default()).with_ruleset(ruleset);
    let mut dice = Dice::seeded(seed);
    let events = apply(&mut combat, Actor::Director, Command::Begin, &mut dice, common::now()).expect("it begins");
    (combat, events)
}

/// Three level-5 fighters (the AI's) against the Reeking Brute and a goblin under `ruleset`.
fn fight(ruleset: Ruleset, seed: u64) -> (Combat, Vec<Event>, CombatantId) {
    let foes = vec![
        Combatant::of_monster("Reeking Brute", brute()),
        Combatant::monster("Goblin", engine::content::Monster::GOBLIN),
    ];
    let (combat, events) = played(&["Aria", "Bo", "Cy"], foes, ruleset, seed);
    let brute = combat.combatants[3].id;
    (combat, events, brute)
}

#[test]
fn an_enemy_starting_its_turn_in_melee_with_the_holder_suffers_its_auras_in_every_ruleset() {
    for ruleset in Ruleset::ALL {
        let (combat, events, brute) = fight(ruleset, 3);
        let mut stench = 0;
        for (i, e) in events.iter().enumerate() {
            let Event::Aura { holder, target, aura } = e else {
                continue;
            };
            assert_eq!(*holder, brute);
            assert_eq!(
                combat.get(*target).side,
                Side::Party,
                "{}: an aura on its own side",
                ruleset.name()
            );
            if ruleset != Ruleset::Ticks {
                // At the very start of the target's turn: nothing of its own since.
                let since_start = events[..i]
                    .iter()
                    .rev()
                    .take_while(|e| !matches!(e, Event::TurnStarted { id, .. } if id == target))
                    .any(|e| matches!(e, Event::AttackRolled { attacker, .. } | Event::Moved { id: attacker, .. } if attacker == target));
                assert!(!since_start, "{}: the aura came after the target acted", ruleset.name());
            }
            match aura.as_str() {
                "Stench" => {
                    stench += 1;
                    let Some(Event::SavingThrow {
                        id,
                        ability: Ability::Con,
                        dc: 10,
                        success,
                        ..
                    }) = events.get(i + 1)
                    else {
                        panic!("{}: no CON save after the stench", ruleset.name());
                    };
                    assert_eq!(id, target);
                    let sickened = matches!(
                        events.get(i + 2),
                        Some(Event::StatusApplied { id, status, .. }) if id == target && status == "Sickened"
                    );
                    assert_eq!(
                        sickened,
                        !success,
                        "{}: a failure sickens, a success does not",
                        ruleset.name()
                    );
                }
                "Smoulder" => {
                    let Some(Event::DamageDealt {
                        source,
                        target: burnt,
                        damage_type: DamageType::Fire,
                        amount,
                        ..
                    }) = events.get(i + 1)
                    else {
                        panic!(
                            "{}: no fire after the smoulder: {:?}",
                            ruleset.name(),
                            events.get(i + 1)
                        );
                    };
                    assert_eq!((*source, burnt), (Some(brute), target));
                    assert!((1..=4).contains(amount));
                }
                other => panic!("unknown aura {other}"),
            }
        }
        assert!(stench >= 2, "{}: the stench acted {stench} times", ruleset.name());
    }
}

#[test]
fn an_aura_must_do_something_and_a_save_needs_its_dc() {
    let refused = common::homebrew_refused(
        &STINKER
            .replace(r#"save = "con", dc = 10, status = "Sickened""#, r#"save = "con""#)
            .replace(r#"damage = "1d4", type = "fire""#, r#"damage = "1d4""#),
    )
    .to_string();
    assert!(
        refused.contains("aura `Stench` needs both `save` and `dc`, or neither"),
        "{refused}"
    );
    assert!(
        refused.contains("aura `Smoulder` needs both `damage` and `type`, or neither"),
        "{refused}"
    );
}

const GHASTLY: &str = r#"
[[status]]
name = "Retching"
kind = "condition"
condition = "poisoned"
turns = 1

[[monster]]
name = "Ghastly Brute"
tier = 2
xp = 450
hp = "20d10"
ac = 12
abilities = { str = 16, dex = 10, con = 16, int = 6, wis = 10, cha = 6 }
attacks = [{ name = "Slam", to_hit = 5, damage = "1d6+3", type = "bludgeoning" }]
auras = [{ name = "Stench", save = "con", dc = 13, status = "Retching", immune_on_save = true }]
"#;

#[test]
fn a_creature_that_saves_against_a_stench_is_immune_to_it_for_the_rest_of_the_fight_in_every_ruleset() {
    let brute = Arc::clone(content(GHASTLY).monsters.get("Ghastly Brute").unwrap());
    for ruleset in Ruleset::ALL {
        let mut saved = 0;
        let mut failed_then_met_again = 0;
        for seed in 0..4 {
            let brute = Combatant::of_monster("Ghastly Brute", Arc::clone(&brute));
            let (combat, events) = played(&["Aria", "Bo"], vec![brute], ruleset, seed);
            let mut immune: Vec<CombatantId> = Vec::new();
            let mut failed: Vec<CombatantId> = Vec::new();
            for (i, e) in events.iter().enumerate() {
                let Event::Aura { target, .. } = e else { continue };
                assert!(
                    !immune.contains(target),
                    "{}: {} met the Stench again after saving against it",
                    ruleset.name(),
                    combat.get(*target).name
                );
                failed_then_met_again += usize::from(failed.contains(target));
                let success = events[i..].iter().find_map(|e| match e {
                    Event::SavingThrow { id, success, .. } if id == target => Some(*success),
                    _ => None,
                });
                match success {
                    Some(true) => {
                        immune.push(*target);
                        saved += 1;
                    }
                    Some(false) => failed.push(*target),
                    None => {}
                }
            }
        }
        assert!(saved > 0, "{}: someone saved", ruleset.name());
        assert!(failed_then_met_again > 0, "{}: a failure is met again", ruleset.name());
    }
}

#[test]
fn immunity_on_a_save_needs_a_save() {
    let why = common::homebrew_refused(&GHASTLY.replace(r#"save = "con", dc = 13, status"#, "status")).to_string();
    assert!(why.contains("`immune_on_save` needs `save` and `dc`"), "{why}");
}
