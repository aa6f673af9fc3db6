//! Magic weapons and armor (SRD 5.1 "Weapon, +1, +2, or +3" and "Armor, +1, +2, or +3"; gear.toml
//! `magic`): the bonus adds to attack and damage rolls, or to armor class, and a magic weapon's
//! hits are magical — no resistance to nonmagical attacks holds against them.

mod common;

use std::sync::Arc;

use common::{Fight, pc};
use engine::content::{Armor, Class, Race, Weapon};
use engine::{Combatant, CombatantId, Command, Controller, Dice};

const STONE_WARDEN: &str = r#"
[[monster]]
name = "Stone Warden"
tier = 2
xp = 200
hp = "20d10"
ac = 10
abilities = { str = 10, dex = 10, con = 10, int = 10, wis = 10, cha = 10 }
attacks = [{ name = "Fist", to_hit = 2, damage = "1d4", type = "bludgeoning" }]
resistances = ["nonmagical physical"]
"#;

fn weapon(name: &str) -> Weapon {
    Weapon::parse(name).expect("a weapon of gear.toml")
}

/// Aria (a level-5 fighter) wielding `wielded` in melee with a Stone Warden the GM plays, at her
/// turn, with the dice of `seed`.
fn aria_with(wielded: Weapon, seed: u64) -> (Fight, CombatantId, CombatantId) {
    let content = common::homebrew(STONE_WARDEN);
    let warden = Arc::clone(content.monsters.get("Stone Warden").unwrap());
    let mut aria = pc("Aria", Race::HUMAN, Class::FIGHTER, 5);
    aria.set_weapon(wielded);
    let mut f = Fight::new(vec![
        aria,
        Combatant::of_monster("Stone Warden", warden).controlled_by(Controller::Player("gm".into())),
    ]);
    let (a, w) = (f.id("Aria"), f.id("Stone Warden"));
    f.melee(a, w);
    f.turn_of(a);
    f.dice = Dice::seeded(seed);
    (f, a, w)
}

/// Aria's first swing with `wielded`: its total, the damage it dealt (0 on a miss) and its d20.
fn first_swing(wielded: Weapon, seed: u64) -> (i32, i32, u32) {
    let (mut f, aria, warden) = aria_with(wielded, seed);
    let events = f.act(aria, Command::Attack { target: Some(warden) });
    let roll = common::rolls(&events)[0].clone();
    let dealt = if roll.hit {
        common::damage_to(&events, warden)[0]
    } else {
        0
    };
    (roll.total, dealt, roll.d20.natural)
}

#[test]
fn the_magic_gear_loads_with_its_bonus() {
    for (name, bonus) in [
        ("+1 Longsword", 1),
        ("+2 Longsword", 2),
        ("+3 Longsword", 3),
        ("+1 Dagger", 1),
    ] {
        assert_eq!(weapon(name).def().magic, bonus, "{name}");
    }
    assert_eq!(weapon("Longsword").def().magic, 0);
    let chain = Armor::parse("+1 Chain mail").expect("magic armor");
    assert_eq!(chain.def().magic, 1);
}

#[test]
fn a_plus_n_weapon_adds_n_to_the_attack_roll_and_to_the_damage() {
    for (name, bonus) in [("+1 Longsword", 1), ("+2 Longsword", 2), ("+3 Longsword", 3)] {
        let mut compared = 0;
        for seed in 0..40 {
            // The same dice: the same d20 and the same damage die.
            let (plain_total, _, _) = first_swing(weapon("Longsword"), seed);
            let (magic_total, _, _) = first_swing(weapon(name), seed);
            assert_eq!(magic_total, plain_total + bonus, "{name}, seed {seed}");
            compared += 1;
        }
        assert_eq!(compared, 40);
    }
}

#[test]
fn a_magic_weapons_hit_is_not_halved_by_resistance_to_nonmagical_attacks() {
    let mut seen = 0;
    for seed in 0..200 {
        let (_, plain, d20) = first_swing(weapon("Longsword"), seed);
        let (_, magic, _) = first_swing(weapon("+1 Longsword"), seed);
        if plain == 0 || magic == 0 || d20 == 20 {
            continue;
        }
        // Longsword 1d8 + STR 3, halved by the resistance; +1 Longsword the same roll + 1, whole.
        let whole = magic - 1;
        assert!((1 + 3..=8 + 3).contains(&whole), "seed {seed}: {magic}");
        assert_eq!(plain, whole / 2, "seed {seed}: the nonmagical hit is halved");
        seen += 1;
    }
    assert!(seen >= 20, "{seen} hits compared");
}

#[test]
fn magic_armor_adds_its_bonus_to_armor_class() {
    let mut aria = pc("Aria", Race::HUMAN, Class::FIGHTER, 5);
    aria.set_armor(Armor::parse("Chain mail").unwrap());
    let plain = aria.armor_class();
    aria.set_armor(Armor::parse("+1 Chain mail").unwrap());
    assert_eq!(aria.armor_class(), plain + 1);
    aria.set_armor(Armor::parse("Plate armor").unwrap());
    let plate = aria.armor_class();
    aria.set_armor(Armor::parse("+2 Plate armor").unwrap());
    assert_eq!(aria.armor_class(), plate + 2);
}
