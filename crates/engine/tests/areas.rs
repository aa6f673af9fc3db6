//! Area effects in the band model (docs/content.md "Areas") and a breath weapon's recharge: a
//! cone holds a creature per 10 ft, a line per 30 ft, filled from the scrum it aims at; a burst
//! catches everyone within Near; a "Recharge 5–6" comes back a third of the time, "Recharge 6" a
//! sixth.

mod common;

use std::sync::Arc;

use common::{now, pc};
use engine::abilities;
use engine::casting::caught;
use engine::content::data::{Area, MonsterDef};
use engine::content::{Class, Monster, Race};
use engine::resolve::Ctx;
use engine::{Band, Combat, Combatant, CombatantId, Dice, Event, Terrain};

fn breather(area: &str, recharge: u32) -> Arc<MonsterDef> {
    let toml = format!(
        r#"
[[monster]]
name = "Test Drake"
tier = 2
xp = 100
hp = "8d10"
ac = 14
abilities = {{ str = 16, dex = 10, con = 14, int = 6, wis = 10, cha = 8 }}
attacks = [{{ name = "Bite", to_hit = 5, damage = "1d10+3", type = "piercing" }}]
behaviour = "breather"
breath = {{ name = "Fire Breath", damage = "4d6", type = "fire", dc = 13, area = "{area}", recharge = {recharge} }}
"#
    );
    Arc::clone(common::homebrew(&toml).monsters.get("Test Drake").unwrap())
}

/// The drake and a goblin against five heroes: Aria, Bo and Eve in melee with the drake, Cy in
/// melee with the goblin, Dee far off.
fn field(shape: &str) -> (Combat, [CombatantId; 7]) {
    let mut combat = Combat::new(
        vec![
            pc("Aria", Race::HUMAN, Class::FIGHTER, 5),
            pc("Bo", Race::HUMAN, Class::FIGHTER, 5),
            pc("Cy", Race::HUMAN, Class::FIGHTER, 5),
            pc("Dee", Race::HUMAN, Class::MAGE, 5),
            pc("Eve", Race::HUMAN, Class::ROGUE, 5),
            Combatant::of_monster("Drake", breather(shape, 5)),
            Combatant::monster("Goblin", Monster::GOBLIN),
        ],
        Terrain::default(),
    );
    let ids: Vec<CombatantId> = combat.combatants.iter().map(|c| c.id).collect();
    let [aria, bo, cy, dee, eve, drake, goblin] = ids[..] else {
        unreachable!()
    };
    for hero in [aria, bo, eve] {
        combat.set_band(hero, drake, Band::Melee);
    }
    combat.set_band(cy, goblin, Band::Melee);
    combat.set_band(dee, drake, Band::Far);
    (combat, [aria, bo, cy, dee, eve, drake, goblin])
}

#[test]
fn a_cone_holds_one_creature_per_10_ft_and_fills_from_the_largest_scrum() {
    let (combat, [aria, bo, cy, _dee, eve, drake, _]) = field("cone");
    assert_eq!(caught(&combat, drake, Area::Cone, 15), vec![aria, bo]);
    assert_eq!(caught(&combat, drake, Area::Cone, 30), vec![aria, bo, eve]);
    // Past the scrum, the rest within Near; never Dee, who is Far.
    assert_eq!(caught(&combat, drake, Area::Cone, 60), vec![aria, bo, cy, eve]);
}

#[test]
fn a_cone_aims_at_the_goblins_scrum_when_it_is_the_largest() {
    let (mut combat, [aria, bo, cy, dee, eve, drake, goblin]) = field("cone");
    for hero in [aria, bo, eve] {
        combat.set_band(hero, drake, Band::Near);
    }
    combat.set_band(dee, drake, Band::Near);
    combat.set_band(dee, goblin, Band::Melee);
    combat.set_band(eve, goblin, Band::Melee);
    // The goblin holds Cy, Dee and Eve: that scrum fills a 30-ft cone.
    assert_eq!(caught(&combat, drake, Area::Cone, 30), vec![cy, dee, eve]);
    // With no one in melee at all, the first enemy is the aim and the next fill in by id.
    for hero in [cy, dee, eve] {
        combat.set_band(hero, goblin, Band::Near);
    }
    assert_eq!(caught(&combat, drake, Area::Cone, 15), vec![aria, bo]);
}

#[test]
fn a_line_holds_one_creature_per_30_ft() {
    let (combat, [aria, bo, ..]) = field("line");
    let drake = combat.by_name("Drake").unwrap().id;
    assert_eq!(caught(&combat, drake, Area::Line, 30), vec![aria]);
    assert_eq!(caught(&combat, drake, Area::Line, 60), vec![aria, bo]);
}

#[test]
fn a_burst_catches_everyone_within_near() {
    let (combat, [aria, bo, cy, _dee, eve, drake, _]) = field("burst");
    assert_eq!(caught(&combat, drake, Area::Burst, 0), vec![aria, bo, cy, eve]);
}

#[test]
fn the_breath_itself_lands_on_the_cone_alone() {
    let (mut combat, [aria, bo, _cy, _dee, _eve, drake, _]) = field("cone");
    let mut dice = Dice::seeded(3);
    let mut ctx = Ctx {
        combat: &mut combat,
        dice: &mut dice,
        now: now(),
        events: Vec::new(),
    };
    engine::abilities::resolve(&mut ctx, drake, 0);
    let saved: Vec<CombatantId> = ctx
        .events
        .iter()
        .filter_map(|e| match e {
            Event::SavingThrow { id, .. } => Some(*id),
            _ => None,
        })
        .collect();
    // A 15-ft cone (the drake's default size): two of the three in melee with it.
    assert_eq!(saved, vec![aria, bo]);
}

/// How often a spent breath recharges over `n` turn starts.
fn recharge_rate(recharge: u32, n: u32) -> f64 {
    let mut combat = Combat::new(
        vec![
            pc("Aria", Race::HUMAN, Class::FIGHTER, 5),
            Combatant::of_monster("Drake", breather("cone", recharge)),
        ],
        Terrain::default(),
    );
    let drake = combat.by_name("Drake").unwrap().id;
    let mut dice = Dice::seeded(11);
    let mut recharged = 0;
    for _ in 0..n {
        combat.get_mut(drake).pools.ability_uses[0] = 1;
        let mut ctx = Ctx {
            combat: &mut combat,
            dice: &mut dice,
            now: now(),
            events: Vec::new(),
        };
        abilities::recharge(&mut ctx, drake);
        if ctx.combat.get(drake).pools.ability_uses[0] == 0 {
            assert!(matches!(ctx.events[..], [Event::BreathRecharged { roll, .. }] if roll >= recharge));
            recharged += 1;
        }
    }
    f64::from(recharged) / f64::from(n)
}

#[test]
fn recharge_5_6_comes_back_a_third_of_the_time() {
    let rate = recharge_rate(5, 100_000);
    assert!((rate - 1.0 / 3.0).abs() < 0.01, "{rate}");
}

#[test]
fn recharge_6_comes_back_a_sixth_and_recharge_4_6_half_of_the_time() {
    let six = recharge_rate(6, 100_000);
    assert!((six - 1.0 / 6.0).abs() < 0.01, "{six}");
    let four = recharge_rate(4, 100_000);
    assert!((four - 0.5).abs() < 0.01, "{four}");
}
