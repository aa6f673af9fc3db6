//! The twelve standard actions of seed 000 §2.1, each with its effect in numbers.

mod common;

use common::{Fight, advantage, any, damage_to, disadvantage, healed, pc, puppet, rolls};
use engine::action_economy::Resource;
use engine::content::{Ability, Class, Item, Monster, Race, Skill, Spell, Weapon};
use engine::{Band, Command, Event, MoveIntent, RuleViolation, ShoveMode};

/// A level-1 human fighter (STR 16: +3, proficiency +2, longsword 1d8) in melee with a goblin.
fn fighter_and_goblin() -> (Fight, engine::CombatantId, engine::CombatantId) {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let (bo, goblin) = (f.id("Bo"), f.id("Goblin"));
    f.melee(bo, goblin);
    f.turn_of(bo);
    (f, bo, goblin)
}

#[test]
fn attack_rolls_d20_plus_proficiency_and_ability_against_armor_class() {
    let (mut f, bo, goblin) = fighter_and_goblin();
    let mut next = f.upcoming();
    let natural = next.die(20);
    let events = f.act(bo, Command::Attack { target: Some(goblin) });
    let r = &rolls(&events)[0];
    assert_eq!(r.d20.natural, natural);
    assert_eq!(r.total, natural as i32 + 3 + 2);
    assert_eq!(r.armor_class, 15);
    assert_eq!(r.hit, natural == 20 || (natural != 1 && r.total >= 15));
    assert!(f.get(bo).resources.action_used);
}

#[test]
fn a_hit_deals_the_weapon_die_plus_the_ability_modifier() {
    let (mut f, bo, goblin) = fighter_and_goblin();
    let events = f.act_with(bo, Command::Attack { target: Some(goblin) }, |e, _| {
        rolls(e).first().is_some_and(|r| r.hit && !r.critical)
    });
    let dealt = damage_to(&events, goblin)[0];
    assert!((1 + 3..=8 + 3).contains(&dealt), "1d8 + 3, got {dealt}");
    assert_eq!(f.get(goblin).hp, (7 - dealt).max(0));
}

#[test]
fn natural_twenty_is_a_critical_hit_that_doubles_the_dice_not_the_modifier() {
    let (mut f, bo, goblin) = fighter_and_goblin();
    f.get_mut(goblin).hp = 100;
    f.dice = engine::Dice::seeded(common::seed_where(|d| d.die(20) == 20));
    let mut next = f.upcoming();
    next.die(20);
    let expected = (next.die(8) + next.die(8)) as i32 + 3;
    let events = f.act(bo, Command::Attack { target: Some(goblin) });
    let r = &rolls(&events)[0];
    assert_eq!(r.d20.natural, 20);
    assert!(r.hit && r.critical);
    assert_eq!(damage_to(&events, goblin), vec![expected], "2d8 + 3");
}

#[test]
fn natural_one_always_misses_even_when_the_total_beats_armor_class() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Zombie", Monster::ZOMBIE),
    ]);
    let (bo, zombie) = (f.id("Bo"), f.id("Zombie"));
    f.get_mut(bo).abilities.str = 20; // +5 and +2 proficiency: a natural 1 totals 8 = the zombie's AC
    f.melee(bo, zombie);
    f.turn_of(bo);
    let events = f.act_with(bo, Command::Attack { target: Some(zombie) }, |e, _| {
        rolls(e).first().is_some_and(|r| r.d20.natural == 1)
    });
    let r = &rolls(&events)[0];
    assert_eq!((r.total, r.armor_class), (8, 8));
    assert!(!r.hit);
    assert!(damage_to(&events, zombie).is_empty());
}

#[test]
fn attacking_out_of_reach_is_refused_and_changes_nothing() {
    let (mut f, bo, goblin) = fighter_and_goblin();
    f.set_band(bo, goblin, Band::Near);
    let why = f.refused_for(bo, Command::Attack { target: Some(goblin) });
    assert_eq!(
        why,
        RuleViolation::OutOfReach {
            target: "Goblin".into()
        }
    );
}

#[test]
fn cast_spell_spends_the_action_and_the_lowest_slot_magic_missile_darts_deal_1d4_plus_1_each() {
    let mut f = Fight::new(vec![
        pc("Aria", Race::HUMAN, Class::MAGE, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (aria, ogre) = (f.id("Aria"), f.id("Ogre"));
    f.turn_of(aria);
    let mut next = f.upcoming();
    let expected: Vec<i32> = (0..3).map(|_| next.die(4) as i32 + 1).collect();
    let events = f.act(
        aria,
        Command::Cast {
            spell: Spell::MAGIC_MISSILE,
            target: Some(ogre),
        },
    );
    assert!(any(&events, |e| matches!(
        e,
        Event::SpellCast {
            spell: Spell::MAGIC_MISSILE,
            slot: Some(1),
            ..
        }
    )));
    assert_eq!(damage_to(&events, ogre), expected);
    let me = f.get(aria);
    assert_eq!(me.pools.spell_slots[0], 1, "two 1st-level slots at level 1, one spent");
    assert!(me.resources.action_used);
    assert!(!me.resources.bonus_used);
    assert_eq!(f.get(ogre).hp, 59 - expected.iter().sum::<i32>());
}

#[test]
fn casting_without_a_slot_left_is_refused() {
    let mut f = Fight::new(vec![
        pc("Aria", Race::HUMAN, Class::MAGE, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (aria, ogre) = (f.id("Aria"), f.id("Ogre"));
    f.get_mut(aria).pools.spell_slots = [0; 9];
    f.turn_of(aria);
    let why = f.refused_for(
        aria,
        Command::Cast {
            spell: Spell::MAGIC_MISSILE,
            target: Some(ogre),
        },
    );
    assert_eq!(why, RuleViolation::NoSpellSlot { level: 1 });
}

#[test]
fn casting_a_spell_you_do_not_know_is_refused() {
    let (mut f, bo, goblin) = fighter_and_goblin();
    let why = f.refused_for(
        bo,
        Command::Cast {
            spell: Spell::FIRE_BOLT,
            target: Some(goblin),
        },
    );
    assert!(matches!(why, RuleViolation::SpellNotKnown { .. }), "{why:?}");
}

#[test]
fn dash_doubles_movement_this_turn() {
    let (mut f, bo, goblin) = fighter_and_goblin();
    f.set_band(bo, goblin, Band::Far);
    let why = f.refused_for(bo, Command::Move(MoveIntent::Melee(goblin)));
    assert_eq!(why, RuleViolation::NotEnoughMovement { needed: 55, left: 30 });
    let events = f.act(bo, Command::Dash);
    assert!(any(&events, |e| matches!(e, Event::Dashed { movement: 60, .. })));
    f.act(bo, Command::Move(MoveIntent::Melee(goblin)));
    assert_eq!(f.band(bo, goblin), Band::Melee);
    assert_eq!(f.get(bo).resources.movement_left(), 5);
    assert!(f.get(bo).resources.action_used, "Dash is the action");
}

#[test]
fn disengage_is_the_action_and_lasts_until_the_end_of_the_turn() {
    let (mut f, bo, goblin) = fighter_and_goblin();
    let events = f.act(bo, Command::Disengage);
    assert!(any(&events, |e| matches!(e, Event::Disengaged { id } if *id == bo)));
    assert!(f.get(bo).conditions.disengaged);
    assert!(f.get(bo).resources.action_used);
    f.act(bo, Command::EndTurn);
    assert!(!f.get(bo).conditions.disengaged);
    assert_eq!(f.current(), goblin);
}

#[test]
fn dodge_gives_attackers_disadvantage_until_the_dodgers_next_turn() {
    let (mut f, bo, goblin) = fighter_and_goblin();
    f.act(bo, Command::Dodge);
    assert!(f.get(bo).resources.action_used);
    f.act(bo, Command::EndTurn);
    let events = f.act(goblin, Command::Attack { target: Some(bo) });
    assert!(disadvantage(&rolls(&events)[0].d20), "{:?}", rolls(&events)[0]);
    f.act(goblin, Command::EndTurn);
    assert_eq!(f.current(), bo);
    assert!(
        !f.get(bo).conditions.dodging,
        "Dodge ends at the start of the dodger's next turn"
    );
    f.act(bo, Command::EndTurn);
    let events = f.act(goblin, Command::Attack { target: Some(bo) });
    assert_eq!(rolls(&events)[0].d20.mode, engine::dice::RollMode::Normal);
}

#[test]
fn dodge_gives_dex_saving_throws_advantage() {
    let mut f = Fight::new(vec![
        pc("Vex", Race::HUMAN, Class::ROGUE, 1),
        puppet("Drow Mage", Monster::DROW_MAGE),
    ]);
    let (vex, drow) = (f.id("Vex"), f.id("Drow Mage"));
    f.turn_of(vex);
    f.act(vex, Command::Dodge);
    f.act(vex, Command::EndTurn);
    let events = f.act(
        drow,
        Command::Cast {
            spell: Spell::FIREBALL,
            target: Some(vex),
        },
    );
    let save = events
        .iter()
        .find_map(|e| match e {
            Event::SavingThrow {
                id,
                ability,
                d20,
                total,
                dc,
                ..
            } if *id == vex => Some((*ability, *d20, *total, *dc)),
            _ => None,
        })
        .expect("a saving throw");
    assert_eq!(save.0, Ability::Dex);
    assert!(advantage(&save.1));
    // Rogue DEX 16 (+3) with DEX save proficiency (+2); the drow's DC is 8 + 3 + 3.
    assert_eq!(save.2, save.1.natural as i32 + 5);
    assert_eq!(save.3, 14);
}

#[test]
fn help_gives_an_ally_advantage_on_their_next_attack_only() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        pc("Vex", Race::HUMAN, Class::ROGUE, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (bo, vex, ogre) = (f.id("Bo"), f.id("Vex"), f.id("Ogre"));
    f.melee(vex, ogre);
    f.start_with_order(vec![bo, vex, ogre]);
    let events = f.act(bo, Command::Help { ally: vex });
    assert!(any(
        &events,
        |e| matches!(e, Event::Helped { id, ally } if *id == bo && *ally == vex)
    ));
    assert!(f.get(bo).resources.action_used);
    f.act(bo, Command::EndTurn);
    let events = f.act(vex, Command::Attack { target: Some(ogre) });
    assert!(advantage(&rolls(&events)[0].d20));
    let events = f.act(
        vex,
        Command::Bonus(engine::BonusAction::OffHandAttack { target: Some(ogre) }),
    );
    assert_eq!(
        rolls(&events)[0].d20.mode,
        engine::dice::RollMode::Normal,
        "Help is spent"
    );
}

#[test]
fn helping_yourself_or_an_enemy_is_refused() {
    let (mut f, bo, goblin) = fighter_and_goblin();
    assert!(matches!(
        f.refused_for(bo, Command::Help { ally: bo }),
        RuleViolation::InvalidTarget { .. }
    ));
    assert!(matches!(
        f.refused_for(bo, Command::Help { ally: goblin }),
        RuleViolation::InvalidTarget { .. }
    ));
}

#[test]
fn hide_rolls_stealth_against_the_highest_passive_perception_and_hidden_attackers_get_advantage() {
    let mut f = Fight::new(vec![
        pc("Vex", Race::HUMAN, Class::ROGUE, 2),
        puppet("Goblin", Monster::GOBLIN),
        puppet("Wolf", Monster::WOLF),
    ]);
    let (vex, goblin, wolf) = (f.id("Vex"), f.id("Goblin"), f.id("Wolf"));
    f.get_mut(vex).set_weapon(Weapon::SHORTBOW);
    f.turn_of(vex);
    assert_eq!(f.get(goblin).passive_perception(), 9);
    assert_eq!(f.get(wolf).passive_perception(), 13);
    let events = f.act_with(
        vex,
        Command::Bonus(engine::BonusAction::CunningAction(engine::CunningMove::Hide)),
        |e, _| any(e, |e| matches!(e, Event::HideAttempted { hidden: true, .. })),
    );
    let (roll, against) = events
        .iter()
        .find_map(|e| match e {
            Event::HideAttempted { roll, against, .. } => Some((*roll, *against)),
            _ => None,
        })
        .unwrap();
    assert_eq!(against, 13, "the wolf's passive Perception is the highest");
    assert!((13..=20 + 5).contains(&roll), "d20 + DEX 3 + proficiency 2");
    assert_eq!(f.get(vex).conditions.hidden, Some(roll));
    let events = f.act(vex, Command::Attack { target: Some(goblin) });
    assert!(advantage(&rolls(&events)[0].d20));
    assert!(any(&events, |e| matches!(e, Event::Revealed { id } if *id == vex)));
    assert_eq!(f.get(vex).conditions.hidden, None);
}

#[test]
fn hide_that_fails_the_check_leaves_you_seen() {
    let mut f = Fight::new(vec![
        pc("Vex", Race::HUMAN, Class::ROGUE, 1),
        puppet("Wolf", Monster::WOLF),
    ]);
    let vex = f.id("Vex");
    f.turn_of(vex);
    let events = f.act_with(vex, Command::Hide, |e, _| {
        any(e, |e| matches!(e, Event::HideAttempted { hidden: false, .. }))
    });
    let roll = events
        .iter()
        .find_map(|e| match e {
            Event::HideAttempted { roll, .. } => Some(*roll),
            _ => None,
        })
        .unwrap();
    assert!(roll < 13);
    assert_eq!(f.get(vex).conditions.hidden, None);
    assert!(f.get(vex).resources.action_used);
}

#[test]
fn hiding_in_melee_is_refused() {
    let (mut f, bo, _) = fighter_and_goblin();
    assert!(matches!(
        f.refused_for(bo, Command::Hide),
        RuleViolation::CannotHide { .. }
    ));
}

#[test]
fn use_item_potion_of_healing_restores_2d4_plus_2_and_is_used_up() {
    let (mut f, bo, _) = fighter_and_goblin();
    f.direct(Command::AdjustHp { target: bo, delta: -10 });
    assert_eq!(f.get(bo).hp, 2);
    let mut next = f.upcoming();
    let expected = (next.die(4) + next.die(4)) as i32 + 2;
    let events = f.act(
        bo,
        Command::UseItem {
            item: Item::POTION_OF_HEALING,
            target: None,
        },
    );
    assert_eq!(healed(&events, bo), vec![expected]);
    assert_eq!(f.get(bo).hp, (2 + expected).min(12));
    assert!(f.get(bo).resources.action_used);
    assert_eq!(f.get(bo).items.get(&Item::POTION_OF_HEALING), None);
}

#[test]
fn using_an_item_you_do_not_carry_is_refused() {
    let (mut f, bo, _) = fighter_and_goblin();
    let why = f.refused_for(
        bo,
        Command::UseItem {
            item: Item::POTION_OF_HASTE,
            target: None,
        },
    );
    assert_eq!(
        why,
        RuleViolation::ItemNotCarried {
            item: "Potion of Haste".into()
        }
    );
}

#[test]
fn search_rolls_the_better_of_perception_and_investigation_and_finds_what_it_beats() {
    let terrain = engine::Terrain {
        hidden_things: vec![("a loose flagstone".into(), 5), ("a sealed vault".into(), 40)],
        ..engine::Terrain::default()
    };
    let mut f = Fight::in_room(
        vec![pc("Aria", Race::HUMAN, Class::MAGE, 1), puppet("Ogre", Monster::OGRE)],
        terrain,
    );
    let aria = f.id("Aria");
    f.turn_of(aria);
    let mut next = f.upcoming();
    let natural = next.die(20) as i32;
    let events = f.act(aria, Command::Search);
    let (skill, roll, found) = events
        .iter()
        .find_map(|e| match e {
            Event::Searched { skill, roll, found, .. } => Some((*skill, *roll, found.clone())),
            _ => None,
        })
        .unwrap();
    // INT 16 (+3) with proficiency (+2) beats WIS 13 (+1) without.
    assert_eq!(skill, Skill::Investigation);
    assert_eq!(roll, natural + 5);
    assert_eq!(found.contains(&"a loose flagstone".to_owned()), roll >= 5);
    assert!(!found.contains(&"a sealed vault".to_owned()));
    assert_eq!(f.combat.terrain.hidden_things.len(), if roll >= 5 { 1 } else { 2 });
    assert!(f.get(aria).resources.action_used);
}

#[test]
fn search_reveals_a_hidden_enemy_whose_stealth_it_meets() {
    let mut f = Fight::new(vec![
        pc("Aria", Race::HUMAN, Class::MAGE, 1),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let (aria, goblin) = (f.id("Aria"), f.id("Goblin"));
    f.get_mut(goblin).conditions.hidden = Some(12);
    f.turn_of(aria);
    let events = f.act_with(aria, Command::Search, |e, _| {
        any(e, |e| matches!(e, Event::Searched { roll, .. } if *roll >= 12))
    });
    assert!(any(&events, |e| matches!(e, Event::Revealed { id } if *id == goblin)));
    assert_eq!(f.get(goblin).conditions.hidden, None);
}

#[test]
fn grapple_is_athletics_against_the_better_of_athletics_and_acrobatics_and_stops_the_target() {
    let (mut f, bo, goblin) = fighter_and_goblin();
    let mut next = f.upcoming();
    let attack = next.die(20) as i32 + 5; // STR +3, Athletics proficiency +2
    let defence = next.die(20) as i32 + 2; // goblin: Acrobatics DEX +2 beats Athletics STR −1 + 2
    let events = f.act(bo, Command::Grapple { target: goblin });
    let contest = events
        .iter()
        .find_map(|e| match e {
            Event::Contest { roll, against, won, .. } => Some((*roll, *against, *won)),
            _ => None,
        })
        .unwrap();
    assert_eq!(contest, (attack, defence, attack > defence));
    assert!(f.get(bo).resources.action_used);
    assert_eq!(f.get(goblin).conditions.grappled_by.is_some(), attack > defence);

    let (mut f, bo, goblin) = fighter_and_goblin();
    f.act_with(bo, Command::Grapple { target: goblin }, |e, _| {
        any(e, |e| matches!(e, Event::Grappled { .. }))
    });
    assert_eq!(f.get(goblin).speed(), 0);
    f.act(bo, Command::EndTurn);
    let why = f.refused_for(goblin, Command::Move(MoveIntent::Ranged));
    assert_eq!(
        why,
        RuleViolation::CannotMove {
            reason: "grappled".into()
        }
    );
}

#[test]
fn grapple_and_shove_need_the_target_in_melee() {
    let (mut f, bo, goblin) = fighter_and_goblin();
    f.set_band(bo, goblin, Band::Near);
    assert!(matches!(
        f.refused_for(bo, Command::Grapple { target: goblin }),
        RuleViolation::OutOfReach { .. }
    ));
    assert!(matches!(
        f.refused_for(
            bo,
            Command::Shove {
                target: goblin,
                mode: ShoveMode::Prone
            }
        ),
        RuleViolation::OutOfReach { .. }
    ));
}

#[test]
fn shove_prone_knocks_the_target_down_and_melee_attacks_against_it_gain_advantage() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        pc("Cal", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (bo, cal, ogre) = (f.id("Bo"), f.id("Cal"), f.id("Ogre"));
    f.melee(bo, ogre);
    f.melee(cal, ogre);
    f.start_with_order(vec![bo, cal, ogre]);
    f.act_with(
        bo,
        Command::Shove {
            target: ogre,
            mode: ShoveMode::Prone,
        },
        |e, _| any(e, |e| matches!(e, Event::Shoved { .. })),
    );
    assert!(f.get(ogre).conditions.prone);
    f.act(bo, Command::EndTurn);
    let events = f.act(cal, Command::Attack { target: Some(ogre) });
    assert!(advantage(&rolls(&events)[0].d20));
}

#[test]
fn shove_push_moves_the_target_out_of_melee() {
    let (mut f, bo, goblin) = fighter_and_goblin();
    let events = f.act_with(
        bo,
        Command::Shove {
            target: goblin,
            mode: ShoveMode::Push,
        },
        |e, _| any(e, |e| matches!(e, Event::Shoved { .. })),
    );
    assert!(any(&events, |e| matches!(e, Event::Contest { won: true, .. })));
    assert_eq!(f.band(bo, goblin), Band::Near);
    assert!(f.get(bo).resources.action_used);
}

#[test]
fn a_second_action_in_a_turn_is_refused_for_every_standard_action() {
    let (mut f, bo, goblin) = fighter_and_goblin();
    f.act(bo, Command::Dodge);
    for command in [
        Command::Attack { target: Some(goblin) },
        Command::Dash,
        Command::Disengage,
        Command::Dodge,
        Command::Search,
        Command::Grapple { target: goblin },
        Command::Shove {
            target: goblin,
            mode: ShoveMode::Prone,
        },
        Command::Ready {
            text: "attack when the goblin moves".into(),
        },
        Command::UseItem {
            item: Item::POTION_OF_HEALING,
            target: None,
        },
    ] {
        let why = f.refused_for(bo, command.clone());
        assert_eq!(
            why,
            RuleViolation::ResourceSpent {
                resource: Resource::Action
            },
            "{command:?}"
        );
    }
}
