//! Monster traits as data (docs/content.md `traits`, `legendary_resistance`): Pack Tactics'
//! advantage while an ally stands in melee with the target, Magic Resistance's advantage on saves
//! against spells only, and Legendary Resistance turning a fixed number of failed saves into
//! successes.

mod common;

use std::sync::Arc;

use common::{Fight, advantage, any, pc};
use engine::content::data::MonsterDef;
use engine::content::{Class, Item, Race, Spell};
use engine::{Combatant, CombatantId, Command, Controller, Event};

fn monster(extra: &str) -> Arc<MonsterDef> {
    let toml = format!(
        r#"
[[monster]]
name = "Test Beast"
tier = 1
xp = 10
hp = "20d10"
ac = 10
abilities = {{ str = 12, dex = 10, con = 12, int = 3, wis = 10, cha = 3 }}
attacks = [{{ name = "Bite", to_hit = 4, damage = "1d6", type = "piercing" }}]
{extra}
"#
    );
    let c = common::homebrew(&toml);
    Arc::clone(c.monsters.get("Test Beast").unwrap())
}

fn gm(def: &Arc<MonsterDef>, name: &str) -> Combatant {
    Combatant::of_monster(name, Arc::clone(def)).controlled_by(Controller::Player("gm".into()))
}

/// The attack roll's d20 of the first swing in `events`.
fn first_roll(events: &[Event]) -> engine::dice::D20 {
    common::rolls(events)[0].d20
}

#[test]
fn pack_tactics_gives_advantage_while_an_ally_stands_in_melee_with_the_target() {
    let wolf = monster(r#"traits = ["Pack Tactics"]"#);
    let mut f = Fight::new(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 5),
        gm(&wolf, "Wolf 1"),
        gm(&wolf, "Wolf 2"),
    ]);
    let (aria, w1, w2) = (f.id("Aria"), f.id("Wolf 1"), f.id("Wolf 2"));
    f.melee(aria, w1);
    f.turn_of(w1);
    // Alone in melee with her: a plain roll.
    let alone = f.act(w1, Command::Attack { target: Some(aria) });
    assert!(!advantage(&first_roll(&alone)));

    let mut f = Fight::new(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 5),
        gm(&wolf, "Wolf 1"),
        gm(&wolf, "Wolf 2"),
    ]);
    f.melee(aria, w1);
    f.melee(aria, w2);
    f.turn_of(w1);
    let packed = f.act(w1, Command::Attack { target: Some(aria) });
    assert!(advantage(&first_roll(&packed)), "{}", f.transcript());
}

/// Cleo (a level-5 cleric) and `beast` (the GM's), at Cleo's turn.
fn cleric_and(beast: &Arc<MonsterDef>) -> (Fight, CombatantId, CombatantId) {
    let mut f = Fight::new(vec![pc("Cleo", Race::HUMAN, Class::CLERIC, 5), gm(beast, "Beast")]);
    let (cleo, target) = (f.id("Cleo"), f.id("Beast"));
    f.turn_of(cleo);
    (f, cleo, target)
}

fn flame(target: CombatantId) -> Command {
    Command::Cast {
        spell: Spell::SACRED_FLAME,
        target: Some(target),
    }
}

fn save_roll(events: &[Event]) -> Option<(engine::dice::D20, bool)> {
    events.iter().find_map(|e| match e {
        Event::SavingThrow { d20, success, .. } => Some((*d20, *success)),
        _ => None,
    })
}

#[test]
fn magic_resistance_gives_advantage_on_saves_against_spells_only() {
    let golem = monster(r#"traits = ["Magic Resistance"]"#);
    let (mut f, cleo, target) = cleric_and(&golem);
    let events = f.act(cleo, flame(target));
    assert!(advantage(&save_roll(&events).unwrap().0), "against Sacred Flame");

    // A thrown net is no spell: its DEX save is a plain one, trait or not.
    let (mut f, cleo, target) = cleric_and(&golem);
    f.get_mut(cleo).set_items([(Item::NET, 1)].into());
    let events = f.act(
        cleo,
        Command::UseItem {
            item: Item::NET,
            target: Some(target),
        },
    );
    assert!(!advantage(&save_roll(&events).unwrap().0), "against a net");

    // Without the trait: a plain save.
    let plain = monster("");
    let (mut f, cleo, target) = cleric_and(&plain);
    let events = f.act(cleo, flame(target));
    assert!(!advantage(&save_roll(&events).unwrap().0), "no trait, no advantage");
}

#[test]
fn legendary_resistance_turns_that_many_failed_saves_into_successes() {
    let dragon = monster("legendary_resistance = 2\nsaves = { dex = -5 }");
    // A level-20 cleric's DC (8 + 6 + WIS) is past a DEX save of −5 on any d20.
    let mut f = Fight::new(vec![pc("Cleo", Race::HUMAN, Class::CLERIC, 20), gm(&dragon, "Beast")]);
    let (cleo, target) = (f.id("Cleo"), f.id("Beast"));
    assert!(f.get(cleo).spell_save_dc() > 20 - 5);
    let hp = f.get(target).hp;
    let mut left = Vec::new();
    for _ in 0..3 {
        f.turn_of(cleo);
        let events = f.act(cleo, flame(target));
        let (_, success) = save_roll(&events).unwrap();
        // DEX −5 fails this DC: the first two are turned, the third stands.
        let turned = events.iter().find_map(|e| match e {
            Event::LegendaryResistance { left, .. } => Some(*left),
            _ => None,
        });
        left.push(turned);
        assert!(!success, "the roll itself fails");
    }
    assert_eq!(left, vec![Some(1), Some(0), None]);
    assert_eq!(f.get(target).pools.legendary_resistance, 0);
    let lost = hp - f.get(target).hp;
    let dealt: i32 = common::damage_to(&f.log, target).iter().sum();
    assert_eq!(lost, dealt);
    assert!(dealt > 0, "the third flame burns");
}

/// A homebrew file's problems.
fn refused(toml: &str) -> String {
    common::homebrew_refused(toml).to_string()
}

const OWLBEAR: &str = r#"
[[monster]]
name = "Owlbear"
tier = 2
xp = 700
hp = "7d10+21"
ac = 13
abilities = { str = 20, dex = 12, con = 17, int = 3, wis = 12, cha = 7 }
attacks = [
    { name = "Beak", to_hit = 30, damage = "1d10+5", type = "piercing" },
    { name = "Claws", to_hit = 30, damage = "2d8+5", type = "slashing" },
]
pattern = ["Claws", "Beak", "Claws"]
"#;

#[test]
fn a_multiattack_pattern_names_its_mix_swing_by_swing() {
    let c = common::homebrew(OWLBEAR);
    let owlbear = Arc::clone(c.monsters.get("Owlbear").unwrap());
    assert_eq!(owlbear.multiattack, 3, "the pattern sets the count");
    // A level-1 fighter has no reaction to a hit; she stands through all three.
    let mut f = Fight::new(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
        gm(&owlbear, "Owlbear"),
    ]);
    let (aria, bear) = (f.id("Aria"), f.id("Owlbear"));
    (f.get_mut(aria).hp, f.get_mut(aria).max_hp) = (500, 500);
    f.melee(aria, bear);
    f.turn_of(bear);
    let events = f.act(bear, Command::Attack { target: Some(aria) });
    let weapons: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::AttackRolled { weapon, .. } => Some(weapon.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(weapons, ["Claws", "Beak", "Claws"]);
}

#[test]
fn a_pattern_must_name_the_monsters_own_attacks_as_many_as_its_multiattack() {
    let wrong_name = refused(&OWLBEAR.replace(r#"["Claws", "Beak", "Claws"]"#, r#"["Claws", "Tail"]"#));
    assert!(
        wrong_name.contains("the multiattack pattern names `Tail`, not one of the monster's attacks: `Beak`, `Claws`"),
        "{wrong_name}"
    );
    let wrong_count = refused(&OWLBEAR.replace("pattern =", "multiattack = 2\npattern ="));
    assert!(
        wrong_count.contains("the multiattack pattern names 3 attacks but `multiattack` is 2"),
        "{wrong_count}"
    );
}

/// Aria (a level-5 fighter) in melee with a shambler with Undead Fortitude at 5 HP, at her turn.
fn aria_and_shambler() -> (Fight, CombatantId, CombatantId) {
    let shambler = monster(r#"traits = ["Undead Fortitude"]"#);
    let mut f = Fight::new(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 5),
        gm(&shambler, "Shambler"),
    ]);
    let (aria, target) = (f.id("Aria"), f.id("Shambler"));
    (f.get_mut(target).hp, f.get_mut(target).max_hp) = (5, 5);
    f.melee(aria, target);
    f.turn_of(aria);
    (f, aria, target)
}

fn con_save(events: &[Event]) -> Option<(i32, bool)> {
    events.iter().find_map(|e| match e {
        Event::SavingThrow {
            ability: engine::content::Ability::Con,
            dc,
            success,
            ..
        } => Some((*dc, *success)),
        _ => None,
    })
}

#[test]
fn undead_fortitude_keeps_it_at_1_hp_on_a_con_save_against_5_plus_the_damage() {
    let (mut f, aria, target) = aria_and_shambler();
    let events = f.act_with(aria, Command::Attack { target: Some(target) }, |e, _| {
        any(e, |e| matches!(e, Event::UndeadFortitude { .. }))
    });
    let dealt = common::damage_to(&events, target)[0];
    assert!(dealt >= 5, "the blow would have dropped it");
    assert_eq!(con_save(&events), Some((5 + dealt, true)));
    assert!(
        f.get(target).hp >= 1 || f.get(target).is_dead(),
        "a second swing may still finish it"
    );

    // A failed save: it falls.
    let (mut f, aria, target) = aria_and_shambler();
    f.act_with(aria, Command::Attack { target: Some(target) }, |e, c| {
        con_save(e).is_some_and(|(_, success)| !success) && c.get(target).is_dead()
    });
}

#[test]
fn undead_fortitude_never_holds_against_a_critical_hit_or_radiant_damage() {
    let (mut f, aria, target) = aria_and_shambler();
    let events = f.act_with(aria, Command::Attack { target: Some(target) }, |e, _| {
        common::rolls(e).first().is_some_and(|r| r.critical)
    });
    // The critical drops it outright: no CON save, no Fortitude.
    assert!(con_save(&events).is_none());
    assert!(!any(&events, |e| matches!(e, Event::UndeadFortitude { .. })));
    assert!(f.get(target).is_dead());

    let shambler = monster(r#"traits = ["Undead Fortitude"]"#);
    let mut f = Fight::new(vec![
        pc("Cleo", Race::HUMAN, Class::CLERIC, 5),
        gm(&shambler, "Shambler"),
    ]);
    let (cleo, target) = (f.id("Cleo"), f.id("Shambler"));
    (f.get_mut(target).hp, f.get_mut(target).max_hp) = (1, 1);
    f.turn_of(cleo);
    let events = f.act_with(cleo, flame(target), |_, c| c.get(target).is_dead());
    assert!(con_save(&events).is_none(), "radiant: no CON save");
}
