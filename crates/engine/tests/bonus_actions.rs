//! Bonus actions (seed 000 §2.2): only what a class ability, spell, race or item grants, each row
//! with its gate — refused with a typed violation and no change when the gate is unmet.

mod common;

use common::{Fight, any, damage_to, healed, pc, puppet, rolls};
use engine::action_economy::Resource;
use engine::combatant::CunningStrike;
use engine::content::{Class, Monster, Race, Spell, Weapon};
use engine::{Band, BonusAction, Command, CunningMove, Event, MoveIntent, RuleViolation};

fn not_granted(why: &RuleViolation) -> bool {
    matches!(why, RuleViolation::NoBonusActionGranted { .. })
}

#[test]
fn off_hand_attack_adds_no_ability_modifier_to_damage() {
    let mut f = Fight::new(vec![
        pc("Vex", Race::HUMAN, Class::ROGUE, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (vex, ogre) = (f.id("Vex"), f.id("Ogre"));
    f.melee(vex, ogre);
    f.turn_of(vex);
    let events = f.act_with(
        vex,
        Command::Bonus(BonusAction::OffHandAttack { target: Some(ogre) }),
        |e, _| rolls(e).first().is_some_and(|r| r.hit && !r.critical),
    );
    let r = &rolls(&events)[0];
    assert_eq!(r.kind, engine::event::AttackKind::OffHand);
    // The dagger still hits with DEX (+3) and proficiency (+2)...
    assert_eq!(r.total, r.d20.natural as i32 + 5);
    // ...but damages with the bare 1d4.
    let dealt = damage_to(&events, ogre)[0];
    assert!((1..=4).contains(&dealt), "1d4 with no modifier, got {dealt}");
    assert!(f.get(vex).resources.bonus_used);
    assert!(!f.get(vex).resources.action_used);
}

#[test]
fn off_hand_damage_is_exactly_the_die_rolled() {
    let mut f = Fight::new(vec![
        pc("Vex", Race::HUMAN, Class::ROGUE, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (vex, ogre) = (f.id("Vex"), f.id("Ogre"));
    f.melee(vex, ogre);
    f.turn_of(vex);
    f.dice = engine::Dice::seeded(common::seed_where(|d| (12..20).contains(&d.die(20))));
    let mut next = f.upcoming();
    next.die(20);
    let die = next.die(4) as i32;
    let events = f.act(vex, Command::Bonus(BonusAction::OffHandAttack { target: Some(ogre) }));
    assert!(rolls(&events)[0].hit);
    assert_eq!(damage_to(&events, ogre), vec![die]);
}

#[test]
fn off_hand_attack_needs_a_light_weapon_in_the_off_hand() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        pc("Vex", Race::HUMAN, Class::ROGUE, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (bo, vex, ogre) = (f.id("Bo"), f.id("Vex"), f.id("Ogre"));
    f.melee(bo, ogre);
    f.melee(vex, ogre);
    f.get_mut(vex).set_off_hand(Some(Weapon::LONGSWORD));
    f.start_with_order(vec![bo, vex, ogre]);
    let why = f.refused_for(bo, Command::Bonus(BonusAction::OffHandAttack { target: Some(ogre) }));
    assert!(not_granted(&why), "{why:?}");
    f.act(bo, Command::EndTurn);
    let why = f.refused_for(vex, Command::Bonus(BonusAction::OffHandAttack { target: Some(ogre) }));
    assert!(not_granted(&why), "a longsword is not Light: {why:?}");
}

#[test]
fn second_wind_heals_1d10_plus_fighter_level() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 3),
        puppet("Ogre", Monster::OGRE),
    ]);
    let bo = f.id("Bo");
    f.turn_of(bo);
    assert_eq!(f.get(bo).max_hp, 28);
    f.direct(Command::AdjustHp { target: bo, delta: -20 });
    let mut next = f.upcoming();
    let expected = next.die(10) as i32 + 3;
    let events = f.act(bo, Command::Bonus(BonusAction::SecondWind));
    assert_eq!(healed(&events, bo), vec![expected]);
    assert_eq!(f.get(bo).hp, 8 + expected);
    assert_eq!(f.get(bo).pools.second_wind, 1, "two uses at level 3, one spent");
    assert!(f.get(bo).resources.bonus_used && !f.get(bo).resources.action_used);
}

#[test]
fn second_wind_at_full_hp_heals_the_hp_really_gained() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 3),
        puppet("Ogre", Monster::OGRE),
    ]);
    let bo = f.id("Bo");
    f.turn_of(bo);
    // Full: nothing gained, whatever the 1d10 + 3 rolled.
    let events = f.act(bo, Command::Bonus(BonusAction::SecondWind));
    assert_eq!(healed(&events, bo), vec![0]);
    assert_eq!(f.get(bo).hp, 28);
    // Two short: 2, not the roll.
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 3),
        puppet("Ogre", Monster::OGRE),
    ]);
    let bo = f.id("Bo");
    f.turn_of(bo);
    f.direct(Command::AdjustHp { target: bo, delta: -2 });
    let events = f.act(bo, Command::Bonus(BonusAction::SecondWind));
    assert_eq!(
        healed(&events, bo),
        vec![2],
        "1d10 + 3 is at least 4; only 2 were missing"
    );
    assert_eq!(f.get(bo).hp, 28);
}

#[test]
fn second_wind_is_refused_for_other_classes_and_when_spent() {
    let mut f = Fight::new(vec![
        pc("Vex", Race::HUMAN, Class::ROGUE, 5),
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (vex, bo) = (f.id("Vex"), f.id("Bo"));
    f.get_mut(bo).pools.second_wind = 0;
    f.start_with_order(vec![vex, bo, f.id("Ogre")]);
    assert!(not_granted(
        &f.refused_for(vex, Command::Bonus(BonusAction::SecondWind))
    ));
    f.act(vex, Command::EndTurn);
    assert_eq!(
        f.refused_for(bo, Command::Bonus(BonusAction::SecondWind)),
        RuleViolation::PoolEmpty {
            pool: "Second Wind".into()
        }
    );
}

#[test]
fn cunning_action_dash_disengage_or_hide_as_a_bonus_action_from_rogue_level_two() {
    let mut f = Fight::new(vec![
        pc("Vex", Race::HUMAN, Class::ROGUE, 2),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (vex, ogre) = (f.id("Vex"), f.id("Ogre"));
    f.set_band(vex, ogre, Band::Far);
    f.turn_of(vex);
    let events = f.act(vex, Command::Bonus(BonusAction::CunningAction(CunningMove::Dash)));
    assert!(any(&events, |e| matches!(e, Event::Dashed { movement: 60, .. })));
    let r = f.get(vex).resources;
    assert!(
        r.bonus_used && !r.action_used,
        "Cunning Action: Dash leaves the action free"
    );
    let why = f.refused_for(vex, Command::Bonus(BonusAction::CunningAction(CunningMove::Disengage)));
    assert_eq!(
        why,
        RuleViolation::ResourceSpent {
            resource: Resource::BonusAction
        }
    );
    f.act(vex, Command::Move(MoveIntent::Melee(ogre)));
    f.act(vex, Command::Attack { target: Some(ogre) });
}

#[test]
fn cunning_action_is_refused_below_rogue_level_two_and_for_other_classes() {
    let mut f = Fight::new(vec![
        pc("Vex", Race::HUMAN, Class::ROGUE, 1),
        pc("Bo", Race::HUMAN, Class::FIGHTER, 10),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (vex, bo) = (f.id("Vex"), f.id("Bo"));
    f.start_with_order(vec![vex, bo, f.id("Ogre")]);
    assert_eq!(
        f.refused_for(vex, Command::Bonus(BonusAction::CunningAction(CunningMove::Dash))),
        RuleViolation::NotEligible {
            ability: "Cunning Action".into(),
            requirement: "Rogue level 2".into()
        }
    );
    f.act(vex, Command::EndTurn);
    assert!(not_granted(&f.refused_for(
        bo,
        Command::Bonus(BonusAction::CunningAction(CunningMove::Disengage))
    )));
}

#[test]
fn healing_word_restores_1d4_plus_wis_modifier_as_a_bonus_action() {
    let mut f = Fight::new(vec![
        pc("Mira", Race::HUMAN, Class::CLERIC, 1),
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (mira, bo) = (f.id("Mira"), f.id("Bo"));
    f.turn_of(mira);
    f.direct(Command::AdjustHp { target: bo, delta: -10 });
    let mut next = f.upcoming();
    let expected = next.die(4) as i32 + 3; // WIS 16: +3
    let events = f.act(mira, Command::Bonus(BonusAction::HealingWord { target: bo }));
    assert_eq!(healed(&events, bo), vec![expected]);
    let me = f.get(mira);
    assert!(me.resources.bonus_used && !me.resources.action_used);
    assert_eq!(me.pools.spell_slots[0], 1);
}

#[test]
fn healing_word_is_refused_for_non_clerics() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 5),
        puppet("Ogre", Monster::OGRE),
    ]);
    let bo = f.id("Bo");
    f.turn_of(bo);
    assert!(not_granted(
        &f.refused_for(bo, Command::Bonus(BonusAction::HealingWord { target: bo }))
    ));
}

#[test]
fn hunters_mark_adds_1d6_to_the_rangers_weapon_hits_on_the_marked_target() {
    let mut f = Fight::new(vec![
        pc("Rook", Race::HUMAN, Class::RANGER, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (rook, ogre) = (f.id("Rook"), f.id("Ogre"));
    f.turn_of(rook);
    let events = f.act(rook, Command::Bonus(BonusAction::HuntersMark { target: ogre }));
    assert!(any(&events, |e| matches!(
        e,
        Event::SpellCast {
            spell: Spell::HUNTERS_MARK,
            slot: Some(1),
            ..
        }
    )));
    assert_eq!(f.get(rook).conditions.hunters_mark, Some(ogre));
    assert!(f.get(rook).resources.bonus_used && !f.get(rook).resources.action_used);
    f.dice = engine::Dice::seeded(common::seed_where(|d| (15..20).contains(&d.die(20))));
    let mut next = f.upcoming();
    next.die(20);
    let expected = next.die(8) as i32 + 3 + next.die(6) as i32; // longbow 1d8 + DEX 3, mark 1d6
    let events = f.act(rook, Command::Attack { target: Some(ogre) });
    assert!(rolls(&events)[0].hit);
    assert_eq!(damage_to(&events, ogre), vec![expected]);
}

#[test]
fn hunters_mark_is_refused_for_non_rangers() {
    let mut f = Fight::new(vec![
        pc("Vex", Race::HUMAN, Class::ROGUE, 5),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (vex, ogre) = (f.id("Vex"), f.id("Ogre"));
    f.turn_of(vex);
    assert!(not_granted(&f.refused_for(
        vex,
        Command::Bonus(BonusAction::HuntersMark { target: ogre })
    )));
}

#[test]
fn rage_adds_two_melee_damage_and_halves_physical_damage_taken() {
    let mut f = Fight::new(vec![
        pc("Grom", Race::ORC, Class::FIGHTER, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (grom, ogre) = (f.id("Grom"), f.id("Ogre"));
    f.melee(grom, ogre);
    f.turn_of(grom);
    let events = f.act(grom, Command::Bonus(BonusAction::Rage));
    assert!(any(
        &events,
        |e| matches!(e, Event::ConditionApplied { condition, .. } if condition == "raging")
    ));
    assert!(!f.get(grom).pools.racial_rage, "the Orc's racial rage is spent");
    f.dice = engine::Dice::seeded(common::seed_where(|d| (15..20).contains(&d.die(20))));
    let mut next = f.upcoming();
    next.die(20);
    let expected = next.die(8) as i32 + 3 + 2; // longsword 1d8 + STR 17 (+3) + rage 2
    let events = f.act(grom, Command::Attack { target: Some(ogre) });
    assert_eq!(damage_to(&events, ogre), vec![expected]);
    f.act(grom, Command::EndTurn);
    let events = f.act_with(ogre, Command::Attack { target: Some(grom) }, |e, _| {
        rolls(e).first().is_some_and(|r| r.hit)
    });
    let resisted = events
        .iter()
        .find_map(|e| match e {
            Event::Resisted { amount, .. } => Some(*amount),
            _ => None,
        })
        .expect("rage resists bludgeoning");
    let taken = damage_to(&events, grom)[0];
    let rolled = taken + resisted;
    assert_eq!(taken, rolled / 2, "half of the greatclub's damage, rounded down");
}

#[test]
fn rage_is_refused_without_orc_heritage_or_the_berserker_class() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 20),
        pc("Hild", Race::HUMAN, Class::BERSERKER, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (bo, hild) = (f.id("Bo"), f.id("Hild"));
    f.start_with_order(vec![bo, hild, f.id("Ogre")]);
    assert!(not_granted(&f.refused_for(bo, Command::Bonus(BonusAction::Rage))));
    f.act(bo, Command::EndTurn);
    f.act(hild, Command::Bonus(BonusAction::Rage));
    assert!(f.get(hild).conditions.raging);
    assert_eq!(f.get(hild).pools.rage, 1, "a level-1 berserker rages twice per fight");
}

#[test]
fn tiefling_misty_step_teleports_as_a_bonus_action_once_per_fight() {
    let mut f = Fight::new(vec![
        pc("Zara", Race::TIEFLING, Class::ROGUE, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (zara, ogre) = (f.id("Zara"), f.id("Ogre"));
    f.turn_of(zara);
    let events = f.act(zara, Command::Bonus(BonusAction::MistyStep { target: Some(ogre) }));
    assert!(any(&events, |e| matches!(e, Event::Teleported { .. })));
    assert_eq!(f.band(zara, ogre), Band::Melee);
    let me = f.get(zara);
    assert!(me.resources.bonus_used && !me.resources.action_used);
    assert_eq!(me.resources.movement_left(), 30, "a teleport costs no movement");
    assert!(!me.pools.racial_misty_step);
}

#[test]
fn misty_step_is_refused_without_tiefling_heritage_or_the_spell_and_a_mage_casts_it_with_a_slot() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 5),
        pc("Aria", Race::HUMAN, Class::MAGE, 3),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (bo, aria, ogre) = (f.id("Bo"), f.id("Aria"), f.id("Ogre"));
    f.melee(aria, ogre);
    f.start_with_order(vec![bo, aria, ogre]);
    assert!(not_granted(
        &f.refused_for(bo, Command::Bonus(BonusAction::MistyStep { target: None }))
    ));
    f.act(bo, Command::EndTurn);
    let events = f.act(aria, Command::Bonus(BonusAction::MistyStep { target: None }));
    assert!(any(&events, |e| matches!(
        e,
        Event::SpellCast {
            spell: Spell::MISTY_STEP,
            slot: Some(2),
            ..
        }
    )));
    assert_eq!(f.band(aria, ogre), Band::Near);
    assert_eq!(f.get(aria).pools.spell_slots[1], 1);
    assert!(f.get(aria).resources.bonus_used && !f.get(aria).resources.action_used);
}

#[test]
fn cunning_strike_is_refused_below_rogue_level_five() {
    let mut f = Fight::new(vec![
        pc("Vex", Race::HUMAN, Class::ROGUE, 4),
        puppet("Ogre", Monster::OGRE),
    ]);
    let vex = f.id("Vex");
    f.turn_of(vex);
    assert_eq!(
        f.refused_for(vex, Command::Bonus(BonusAction::CunningStrike(CunningStrike::Trip))),
        RuleViolation::NotEligible {
            ability: "Cunning Strike".into(),
            requirement: "Rogue level 5".into()
        }
    );
}

#[test]
fn cunning_strike_trip_trades_a_sneak_attack_die_for_a_dex_save_or_fall_prone() {
    let mut f = Fight::new(vec![
        pc("Vex", Race::HUMAN, Class::ROGUE, 5),
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (vex, bo, ogre) = (f.id("Vex"), f.id("Bo"), f.id("Ogre"));
    f.melee(vex, ogre);
    f.melee(bo, ogre);
    f.turn_of(vex);
    let events = f.act(vex, Command::Bonus(BonusAction::CunningStrike(CunningStrike::Trip)));
    assert!(any(&events, |e| matches!(e, Event::CunningStrikeReady { .. })));
    let events = f.act_with(vex, Command::Attack { target: Some(ogre) }, |e, _| {
        any(e, |e| matches!(e, Event::SavingThrow { success: false, .. }))
    });
    // Level 5: 3d6 Sneak Attack, one die paid for the rider.
    assert!(any(&events, |e| matches!(e, Event::SneakAttack { dice: 2, .. })));
    let dc = events
        .iter()
        .find_map(|e| match e {
            Event::SavingThrow { dc, .. } => Some(*dc),
            _ => None,
        })
        .unwrap();
    assert_eq!(dc, 8 + 3 + 3, "8 + DEX + proficiency");
    assert!(f.get(ogre).conditions.prone);
}

#[test]
fn a_bonus_action_nothing_grants_is_refused_not_taken_speculatively() {
    let mut f = Fight::new(vec![
        pc("Aria", Race::HUMAN, Class::MAGE, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (aria, ogre) = (f.id("Aria"), f.id("Ogre"));
    f.melee(aria, ogre);
    f.turn_of(aria);
    for bonus in [
        BonusAction::OffHandAttack { target: Some(ogre) },
        BonusAction::SecondWind,
        BonusAction::CunningAction(CunningMove::Hide),
        BonusAction::HealingWord { target: aria },
        BonusAction::HuntersMark { target: ogre },
        BonusAction::Rage,
        BonusAction::MistyStep { target: None },
    ] {
        let why = f.refused_for(aria, Command::Bonus(bonus));
        assert!(not_granted(&why), "{bonus:?}: {why:?}");
    }
    assert!(matches!(
        f.refused_for(aria, Command::Bonus(BonusAction::CunningStrike(CunningStrike::Poison))),
        RuleViolation::NoBonusActionGranted { .. }
    ));
}
