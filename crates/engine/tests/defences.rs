//! Resistances, immunities, vulnerabilities, condition immunities, saving throw bonuses, extra
//! damage parts and flying (SRD 5.1 "Damage Resistance and Vulnerability"; docs/content.md), as a
//! server owner writes them in a monster's TOML: each rule's numbers, and the same rules holding
//! in whole fights under every ruleset.

mod common;

use std::sync::Arc;

use common::homebrew as content;
use common::{Fight, any, pc, puppet};
use engine::balance;
use engine::command::ShoveMode;
use engine::content::data::{Content, MonsterDef};
use engine::content::{Ability, Class, Condition, DamageType, Monster, Race};
use engine::state::damage::Defence;
use engine::{Actor, Band, Combat, Combatant, CombatantId, Command, Controller, Dice, Event, Side, Terrain, apply};

/// The problems a homebrew file is refused with.
fn refused(toml: &str) -> Vec<String> {
    common::homebrew_refused(toml)
        .issues
        .iter()
        .map(|i| format!("line {}: {}", i.line, i.message))
        .collect()
}

/// A sturdy practice dummy with `extra` lines added to its stat block.
fn dummy(extra: &str) -> String {
    format!(
        r#"
[[monster]]
name = "Dummy"
tier = 1
xp = 10
hp = "40d10"
ac = 5
abilities = {{ str = 10, dex = 10, con = 10, int = 10, wis = 10, cha = 10 }}
attacks = [{{ name = "Slam", to_hit = 0, damage = "1", type = "bludgeoning" }}]
{extra}
"#
    )
}

fn def(content: &Content, name: &str) -> Arc<MonsterDef> {
    Arc::clone(content.monsters.get(name).expect("the monster loaded"))
}

/// Every `(dealt, defended)` pair on `target`: the damage it took, and what its defences did to
/// it just before.
fn defended_hits(events: &[Event], target: CombatantId) -> Vec<(i32, Option<(Defence, i32)>)> {
    let mut out = Vec::new();
    let mut pending = None;
    for e in events {
        match e {
            Event::Defended {
                target: t,
                defence,
                amount,
                ..
            } if *t == target => pending = Some((*defence, *amount)),
            Event::DamageDealt { target: t, amount, .. } if *t == target => out.push((*amount, pending.take())),
            _ => {}
        }
    }
    out
}

/// Aria (a level-5 fighter) in melee with the dummy, at her turn.
fn fighter_and(dummy: Arc<MonsterDef>) -> (Fight, CombatantId, CombatantId) {
    let mut f = Fight::new(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 5),
        Combatant::of_monster("Dummy", dummy).controlled_by(Controller::Player("gm".into())),
    ]);
    let (aria, target) = (f.id("Aria"), f.id("Dummy"));
    f.melee(aria, target);
    f.turn_of(aria);
    (f, aria, target)
}

fn attack(target: CombatantId) -> Command {
    Command::Attack { target: Some(target) }
}

#[test]
fn a_resistance_halves_each_hit_rounded_down() {
    let c = content(&dummy(r#"resistances = ["slashing"]"#));
    let (mut f, aria, target) = fighter_and(def(&c, "Dummy"));
    let events = f.act_with(aria, attack(target), |e, _| {
        e.iter()
            .any(|e| matches!(e, Event::DamageDealt { amount, .. } if *amount > 0))
    });
    let hits = defended_hits(&events, target);
    assert!(!hits.is_empty());
    for (dealt, defended) in hits {
        let (defence, taken) = defended.expect("each hit is resisted");
        assert_eq!(defence, Defence::Resistance);
        let rolled = dealt + taken;
        assert_eq!(dealt, rolled / 2, "halved, rounded down");
    }
    let lost = f.get(target).max_hp - f.get(target).hp;
    assert_eq!(lost, common::damage_to(&events, target).iter().sum::<i32>());
}

#[test]
fn an_immunity_takes_every_point_and_a_vulnerability_doubles() {
    let c = content(&dummy(r#"immunities = ["slashing"]"#));
    let (mut f, aria, target) = fighter_and(def(&c, "Dummy"));
    let events = f.act_with(aria, attack(target), |e, _| {
        any(e, |e| matches!(e, Event::Defended { .. }))
    });
    for (dealt, defended) in defended_hits(&events, target) {
        assert_eq!(dealt, 0);
        assert!(matches!(defended, Some((Defence::Immunity, n)) if n > 0));
    }
    assert_eq!(f.get(target).hp, f.get(target).max_hp);

    let c = content(&dummy(r#"vulnerabilities = ["slashing"]"#));
    let (mut f, aria, target) = fighter_and(def(&c, "Dummy"));
    let events = f.act_with(aria, attack(target), |e, _| {
        any(e, |e| matches!(e, Event::Defended { .. }))
    });
    for (dealt, defended) in defended_hits(&events, target) {
        let (defence, added) = defended.expect("each hit is doubled");
        assert_eq!(defence, Defence::Vulnerability);
        assert_eq!(dealt, 2 * added);
    }
}

#[test]
fn a_nonmagical_resistance_holds_against_weapons_not_spells() {
    let c = content(&dummy(r#"resistances = ["nonmagical physical"]"#));
    let (mut f, aria, target) = fighter_and(def(&c, "Dummy"));
    let events = f.act_with(aria, attack(target), |e, _| {
        any(e, |e| matches!(e, Event::Defended { .. }))
    });
    assert!(defended_hits(&events, target).iter().all(|(_, d)| d.is_some()));

    // Magic Missile's force darts are not weapons, and force is not in the set either way.
    let mut f = Fight::new(vec![
        pc("Mira", Race::HUMAN, Class::MAGE, 5),
        Combatant::of_monster("Dummy", def(&c, "Dummy")).controlled_by(Controller::Player("gm".into())),
    ]);
    let (mira, target) = (f.id("Mira"), f.id("Dummy"));
    f.turn_of(mira);
    let events = f.act(
        mira,
        Command::Cast {
            spell: engine::content::Spell::MAGIC_MISSILE,
            target: Some(target),
        },
    );
    assert!(!any(&events, |e| matches!(e, Event::Defended { .. })));
    assert!(common::damage_to(&events, target).iter().sum::<i32>() > 0);
}

#[test]
fn an_attack_deals_each_damage_part_through_the_targets_defences() {
    // A fire-breathing biter against a fire-immune dummy on the other side: the bite's piercing
    // lands, its fire is ignored.
    let c = content(&format!(
        r#"{}
[[monster]]
name = "Ember Hound"
tier = 1
xp = 10
hp = "4d8"
ac = 12
abilities = {{ str = 14, dex = 12, con = 12, int = 3, wis = 12, cha = 6 }}
attacks = [{{ name = "Bite", to_hit = 30, damage = "1d8+2", type = "piercing", extra = [{{ damage = "2d6", type = "fire" }}] }}]
"#,
        dummy(r#"immunities = ["fire"]"#)
    ));
    let mut hound = puppet("Hound", Monster::GOBLIN);
    hound = Combatant::of_monster("Hound", def(&c, "Ember Hound")).controlled_by(hound.controller.clone());
    hound.side = Side::Party;
    let target = Combatant::of_monster("Dummy", def(&c, "Dummy")).controlled_by(Controller::Player("gm".into()));
    let mut f = Fight::new(vec![hound, target]);
    let (hound, target) = (f.id("Hound"), f.id("Dummy"));
    f.melee(hound, target);
    f.turn_of(hound);
    let events = f.act_with(hound, attack(target), |e, _| {
        any(e, |e| matches!(e, Event::DamageDealt { .. }))
    });
    let (fire_ignored, dealt, extra) = events
        .iter()
        .find_map(|e| match e {
            Event::DamageDealt { amount, extra, .. } => Some((
                events.iter().find_map(|e| match e {
                    Event::Defended {
                        damage_type: DamageType::Fire,
                        defence: Defence::Immunity,
                        amount,
                        ..
                    } => Some(*amount),
                    _ => None,
                }),
                *amount,
                *extra,
            )),
            _ => None,
        })
        .unwrap();
    let fire = fire_ignored.expect("the fire part met the immunity");
    assert!((2..=12).contains(&fire), "2d6 fire, {fire}");
    assert!((3..=10).contains(&dealt), "1d8+2 piercing alone lands, {dealt}");
    let parts: Vec<_> = extra.iter().collect();
    assert_eq!(parts.len(), 1);
    assert_eq!((parts[0].amount, parts[0].damage_type), (0, DamageType::Fire));
    assert_eq!(f.get(target).max_hp - f.get(target).hp, dealt);
}

#[test]
fn a_condition_immunity_turns_away_the_shove_and_the_grapple() {
    let c = content(&dummy(r#"condition_immunities = ["prone", "grappled"]"#));
    let (mut f, aria, target) = fighter_and(def(&c, "Dummy"));
    let events = f.act_with(
        aria,
        Command::Shove {
            target,
            mode: ShoveMode::Prone,
        },
        |e, _| {
            any(e, |e| {
                matches!(
                    e,
                    Event::ConditionImmune {
                        condition: Condition::Prone,
                        ..
                    }
                )
            })
        },
    );
    assert!(!f.get(target).conditions.prone);
    assert!(!any(&events, |e| matches!(e, Event::Shoved { .. })));

    let (mut f, aria, target) = fighter_and(def(&c, "Dummy"));
    f.act_with(aria, Command::Grapple { target }, |e, _| {
        any(e, |e| matches!(e, Event::ConditionImmune { .. }))
    });
    assert_eq!(f.get(target).conditions.grappled_by, None);
}

#[test]
fn a_stat_blocks_saving_throw_bonus_replaces_its_ability_modifier() {
    let c = content(&dummy("saves = { dex = 9, wis = -1 }"));
    let dummy = Combatant::of_monster("Dummy", def(&c, "Dummy"));
    assert_eq!(dummy.save_bonus(Ability::Dex), 9);
    assert_eq!(dummy.save_bonus(Ability::Wis), -1);
    assert_eq!(dummy.save_bonus(Ability::Con), 0, "DEX 10: +0, not listed");

    // Sacred Flame's DEX save rolls with it.
    let mut f = Fight::new(vec![
        pc("Cleo", Race::HUMAN, Class::CLERIC, 5),
        dummy.controlled_by(Controller::Player("gm".into())),
    ]);
    let (cleo, target) = (f.id("Cleo"), f.id("Dummy"));
    f.turn_of(cleo);
    let events = f.act(
        cleo,
        Command::Cast {
            spell: engine::content::Spell::SACRED_FLAME,
            target: Some(target),
        },
    );
    let (d20, total) = events
        .iter()
        .find_map(|e| match e {
            Event::SavingThrow { d20, total, .. } => Some((d20.natural as i32, *total)),
            _ => None,
        })
        .expect("a saving throw");
    assert_eq!(total, d20 + 9);
}

#[test]
fn a_flyer_crosses_difficult_terrain_at_no_extra_cost() {
    let c = content(&dummy("speed = 10\nspeeds = { fly = 40 }"));
    let flyer = Combatant::of_monster("Dummy", def(&c, "Dummy")).controlled_by(Controller::Player("gm".into()));
    assert_eq!(flyer.base_speed(), 40, "the better of walking and flying");
    let mut f = Fight::in_room(
        vec![pc("Aria", Race::HUMAN, Class::FIGHTER, 5), flyer],
        Terrain {
            difficult: true,
            ..Terrain::default()
        },
    );
    let (aria, target) = (f.id("Aria"), f.id("Dummy"));
    f.set_band(aria, target, Band::Near);
    f.turn_of(target);
    let events = f.act(target, Command::Move(engine::MoveIntent::Melee(aria)));
    let (feet, difficult) = events
        .iter()
        .find_map(|e| match e {
            Event::Moved {
                feet,
                difficult_terrain,
                ..
            } => Some((*feet, *difficult_terrain)),
            _ => None,
        })
        .expect("it moved");
    assert_eq!((feet, difficult), (25, false), "Near → Melee is 25 ft, not doubled");
    assert_eq!(f.band(aria, target), Band::Melee);
}

#[test]
fn bad_defences_are_refused_together_by_line() {
    let problems = refused(&dummy(
        r#"resistances = ["fire", "lava"]
immunities = ["nonmagical sparkles"]
condition_immunities = ["sleepy"]
saves = { dex = 99 }
speeds = { fly = 500 }"#,
    ));
    let all = problems.join("\n");
    for wanted in [
        "unknown resistance `lava`",
        "unknown immunity `nonmagical sparkles`",
        "unknown condition `sleepy`",
        "dex saving throw bonus 99 is out of range",
        "fly speed 500 is out of range",
    ] {
        assert!(all.contains(wanted), "missing {wanted:?} in\n{all}");
    }
    assert_eq!(problems.len(), 5, "{all}");

    let problems = refused(&dummy("").replace(
        r#"type = "bludgeoning" }"#,
        r#"type = "bludgeoning", extra = [{ damage = "1d4", type = "acid" }, { damage = "1d4", type = "thunder" }, { damage = "1d4", type = "psychic" }] }"#,
    ));
    assert!(
        problems[0].contains("3 extra damage parts: allowed 0–2"),
        "{problems:?}"
    );
}

#[test]
fn acid_thunder_and_psychic_are_damage_types() {
    let c = content(&dummy("").replace(
        r#"type = "bludgeoning" }"#,
        r#"type = "acid", extra = [{ damage = "1d4", type = "thunder" }, { damage = "1d4", type = "psychic" }] }"#,
    ));
    let slam = &def(&c, "Dummy").attacks[0];
    assert_eq!(slam.damage_type, DamageType::Acid);
    assert_eq!(
        slam.extra.iter().map(|p| p.damage_type).collect::<Vec<_>>(),
        [DamageType::Thunder, DamageType::Psychic]
    );
}

/// Whole fights, every side the AI's, under each ruleset: a party against a monster with
/// `defences`; every hit on the monster checked against `rule`.
fn in_every_ruleset(defences: &str, rule: impl Fn(i32, Option<(Defence, i32)>) -> bool) {
    let c = content(&dummy(defences).replace(r#"hp = "40d10""#, r#"hp = "6d10""#));
    for ruleset in engine::Ruleset::ALL {
        let mut hits_seen = 0;
        for seed in 0..8 {
            let mut members = balance::side("fighter:5,rogue:5,mage:5,cleric:5", &c, Side::Party, "").unwrap();
            members.extend(balance::group(&def(&c, "Dummy"), 1, Side::Enemies, ""));
            let mut combat = Combat::new(members, Terrain::default()).with_ruleset(ruleset);
            let mut dice = Dice::seeded(seed);
            let events = apply(&mut combat, Actor::Director, Command::Begin, &mut dice, common::now())
                .unwrap_or_else(|e| panic!("{}: {e:?}", ruleset.name()));
            let dummy = combat.combatants.iter().find(|c| c.side == Side::Enemies).unwrap().id;
            for (dealt, defended) in defended_hits(&events, dummy) {
                hits_seen += 1;
                assert!(
                    rule(dealt, defended),
                    "{}: seed {seed}: {dealt} after {defended:?}",
                    ruleset.name()
                );
            }
        }
        assert!(hits_seen > 0, "{}: the party never hit", ruleset.name());
    }
}

#[test]
fn in_every_ruleset_a_resistance_to_everything_halves_every_hit() {
    let all = engine::content::DamageType::ALL
        .iter()
        .map(|t| format!("\"{}\"", t.name()))
        .collect::<Vec<_>>()
        .join(", ");
    in_every_ruleset(&format!("resistances = [{all}]"), |dealt, defended| match defended {
        Some((Defence::Resistance, taken)) => {
            let rolled = dealt + taken;
            dealt == rolled / 2
        }
        // A 1-point hit halves to 0 and takes 1; a 0-point one meets no defence.
        None => dealt == 0,
        _ => false,
    });
}

#[test]
fn in_every_ruleset_an_immunity_to_everything_takes_every_hit() {
    let all = engine::content::DamageType::ALL
        .iter()
        .map(|t| format!("\"{}\"", t.name()))
        .collect::<Vec<_>>()
        .join(", ");
    in_every_ruleset(&format!("immunities = [{all}]"), |dealt, defended| {
        dealt == 0 && matches!(defended, Some((Defence::Immunity, _)) | None)
    });
}

#[test]
fn in_every_ruleset_a_vulnerability_to_everything_doubles_every_hit() {
    let all = engine::content::DamageType::ALL
        .iter()
        .map(|t| format!("\"{}\"", t.name()))
        .collect::<Vec<_>>()
        .join(", ");
    in_every_ruleset(
        &format!("vulnerabilities = [{all}]"),
        |dealt, defended| match defended {
            Some((Defence::Vulnerability, added)) => dealt == 2 * added,
            None => dealt == 0,
            _ => false,
        },
    );
}

#[test]
fn the_srd_example_file_loads_with_every_stat_block_field_and_plays_in_every_ruleset() {
    let c = content(include_str!("../../../examples/homebrew/srd-defences.toml"));
    let shadow = def(&c, "Shadow");
    let d = shadow.defences;
    assert!(d.vulnerabilities.holds(DamageType::Radiant, false));
    assert!(d.resistances.holds(DamageType::Slashing, true), "against a sword");
    assert!(!d.resistances.holds(DamageType::Slashing, false), "not against magic");
    assert!(d.immunities.holds(DamageType::Necrotic, false));
    assert!(d.condition_immunities.contains(Condition::Grappled));
    let wyrmling = def(&c, "Blue Dragon Wyrmling");
    assert_eq!(wyrmling.save(Ability::Con), Some(4));
    assert_eq!((wyrmling.speeds.fly, wyrmling.speeds.burrow), (60, 15));
    let breath = wyrmling.ability(0).unwrap();
    assert!(breath.breath);
    assert_eq!(
        (breath.area, breath.size, breath.recharge),
        (engine::content::data::Area::Line, 30, 5)
    );
    assert_eq!(def(&c, "Hell Hound").attacks[0].extra[0].damage_type, DamageType::Fire);
    for ruleset in engine::Ruleset::ALL {
        for name in ["Shadow", "Gargoyle", "Hell Hound", "Blue Dragon Wyrmling"] {
            let matchup = balance::Matchup {
                party: balance::side("fighter:5,cleric:5,mage:5,rogue:5", &c, Side::Party, "").unwrap(),
                foes: balance::group(&def(&c, name), 1, Side::Enemies, ""),
                ruleset,
            };
            let tally = balance::duel(&matchup, 20, 1, |_| {});
            assert_eq!(tally.halted, 0, "{} {name}: {tally:?}", ruleset.name());
        }
    }
}
