//! Multi-attack (seed 000 §6): one Attack action resolves the whole sequence — exactly the table's
//! count per class and level — each swing its own `AttackRolled`; spells are not multiplied
//! unless they say so (Eldritch Blast).

mod common;

use common::{Fight, any, pc, puppet, rolls};
use engine::content::{Class, Monster, Race, Spell};
use engine::event::AttackKind;
use engine::{Command, Event};

/// The swings one `attack` command makes for `class` at `level`.
fn swings(class: Class, level: u32) -> Vec<common::Roll> {
    let mut f = Fight::new(vec![
        pc("Hero", Race::HUMAN, class, level),
        puppet("Dragon", Monster::YOUNG_RED_DRAGON),
    ]);
    let (hero, dragon) = (f.id("Hero"), f.id("Dragon"));
    f.melee(hero, dragon);
    f.turn_of(hero);
    let events = f.act(hero, Command::Attack { target: Some(dragon) });
    assert!(f.combat.window.is_none());
    rolls(&events)
}

#[test]
fn attacks_per_action_follow_the_seed_table_for_every_class_and_level() {
    type Attacks = fn(u32) -> u32;
    let table: [(Class, Attacks); 5] = [
        (Class::FIGHTER, |l| match l {
            1..=4 => 1,
            5..=10 => 2,
            11..=19 => 3,
            _ => 4,
        }),
        (Class::RANGER, |l| if l >= 5 { 2 } else { 1 }),
        (Class::ROGUE, |_| 1),
        (Class::MAGE, |_| 1),
        (Class::CLERIC, |l| if l >= 8 { 2 } else { 1 }),
    ];
    for (class, expected) in table {
        for level in 1..=20 {
            let n = expected(level);
            let r = swings(class, level);
            assert_eq!(r.len() as u32, n, "{class:?} level {level}");
            for (i, roll) in r.iter().enumerate() {
                assert_eq!(roll.kind, AttackKind::Action);
                assert_eq!((roll.swing, roll.of), (i as u32 + 1, n), "{class:?} level {level}");
            }
        }
    }
}

#[test]
fn one_attack_command_spends_one_action_for_the_whole_sequence() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 11),
        puppet("Dragon", Monster::YOUNG_RED_DRAGON),
    ]);
    let (bo, dragon) = (f.id("Bo"), f.id("Dragon"));
    f.melee(bo, dragon);
    f.turn_of(bo);
    let events = f.act(bo, Command::Attack { target: Some(dragon) });
    assert_eq!(rolls(&events).len(), 3);
    let hits = rolls(&events).iter().filter(|r| r.hit).count();
    assert_eq!(
        common::damage_to(&events, dragon).len(),
        hits,
        "each hit deals its own damage"
    );
    assert!(f.get(bo).resources.action_used);
    assert!(matches!(
        f.refused_for(bo, Command::Attack { target: Some(dragon) }),
        engine::RuleViolation::ResourceSpent { .. }
    ));
}

#[test]
fn remaining_swings_turn_to_another_enemy_in_reach_when_the_first_target_drops() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 5),
        puppet("Goblin 1", Monster::GOBLIN),
        puppet("Goblin 2", Monster::GOBLIN),
    ]);
    let (bo, g1, g2) = (f.id("Bo"), f.id("Goblin 1"), f.id("Goblin 2"));
    f.melee(bo, g1);
    f.melee(bo, g2);
    f.get_mut(g1).hp = 1;
    f.turn_of(bo);
    let events = f.act_with(bo, Command::Attack { target: Some(g1) }, |e, _| {
        rolls(e).first().is_some_and(|r| r.hit)
    });
    assert!(any(
        &events,
        |e| matches!(e, Event::MonsterSlain { id, .. } if *id == g1)
    ));
    let targets: Vec<_> = rolls(&events).iter().map(|r| r.target).collect();
    assert_eq!(targets, vec![g1, g2]);
}

#[test]
fn multi_attack_does_not_apply_to_spells_fire_bolt_stays_one_attack() {
    let mut f = Fight::new(vec![
        pc("Aria", Race::HUMAN, Class::MAGE, 11),
        puppet("Dragon", Monster::YOUNG_RED_DRAGON),
    ]);
    let (aria, dragon) = (f.id("Aria"), f.id("Dragon"));
    f.get_mut(dragon).pools.spell_slots = [0; 9];
    f.turn_of(aria);
    let events = f.act(
        aria,
        Command::Cast {
            spell: Spell::FIRE_BOLT,
            target: Some(dragon),
        },
    );
    let r = rolls(&events);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].kind, AttackKind::Spell);
}

#[test]
fn eldritch_blast_is_the_spell_exception_with_a_beam_per_tier() {
    for (level, beams) in [(1, 1), (5, 2), (11, 3), (17, 4)] {
        let mut f = Fight::new(vec![
            pc("Aria", Race::HUMAN, Class::MAGE, level),
            puppet("Dragon", Monster::YOUNG_RED_DRAGON),
        ]);
        let (aria, dragon) = (f.id("Aria"), f.id("Dragon"));
        f.turn_of(aria);
        let events = f.act(
            aria,
            Command::Cast {
                spell: Spell::ELDRITCH_BLAST,
                target: Some(dragon),
            },
        );
        let r = rolls(&events);
        assert_eq!(r.len(), beams, "level {level}");
        assert!(r.iter().all(|r| r.kind == AttackKind::Spell && r.of == beams as u32));
    }
}

#[test]
fn monsters_make_their_stat_block_multiattack() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Troll", Monster::TROLL),
    ]);
    let (bo, troll) = (f.id("Bo"), f.id("Troll"));
    f.melee(bo, troll);
    f.get_mut(bo).hp = 500;
    f.get_mut(bo).max_hp = 500;
    f.turn_of(troll);
    let events = f.act(troll, Command::Attack { target: Some(bo) });
    let weapons: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::AttackRolled { weapon, .. } => Some(&**weapon),
            _ => None,
        })
        .collect();
    assert_eq!(weapons, vec!["Bite", "Claw", "Claw"]);
}
