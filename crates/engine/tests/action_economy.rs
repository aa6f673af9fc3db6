//! The action economy (seed 000 §1): one action, one bonus action, one reaction and movement in
//! feet per turn, reset at the start of the owner's turn; nothing carries over; a command needing
//! a spent resource is refused, and an `Err` never changes the combat or the dice.

mod common;

use common::{Fight, any, pc, puppet};
use engine::action_economy::Resource;
use engine::content::{Class, Monster, Race};
use engine::movement::Direction;
use engine::{Actor, BonusAction, Command, CunningMove, Event, MoveIntent, RuleViolation};

fn rogue_and_ogre() -> (Fight, engine::CombatantId, engine::CombatantId) {
    let mut f = Fight::new(vec![
        pc("Vex", Race::HUMAN, Class::ROGUE, 2),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (vex, ogre) = (f.id("Vex"), f.id("Ogre"));
    f.start_with_order(vec![vex, ogre]);
    (f, vex, ogre)
}

#[test]
fn begin_rolls_d20_plus_dex_initiative_and_starts_the_first_turn_with_fresh_resources() {
    let mut f = Fight::new(vec![
        pc("Vex", Race::HUMAN, Class::ROGUE, 1),
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let events = f.direct(Command::Begin);
    let order = events
        .iter()
        .find_map(|e| match e {
            Event::InitiativeRolled { order } => Some(order.clone()),
            _ => None,
        })
        .unwrap();
    for entry in &order {
        let dex = f.get(entry.id).modifier(engine::content::Ability::Dex);
        assert_eq!(entry.total, entry.roll as i32 + dex);
        assert!((1..=20).contains(&entry.roll));
    }
    assert!(order.windows(2).all(|w| w[0].total >= w[1].total));
    let mut ids: Vec<_> = order.iter().map(|e| e.id).collect();
    ids.sort();
    assert_eq!(ids, (0..3).map(engine::CombatantId).collect::<Vec<_>>());
    let first = order[0].id;
    assert_eq!(f.current(), first);
    let speed = f.get(first).speed();
    assert!(any(
        &events,
        |e| matches!(e, Event::TurnStarted { id, round: 1, movement } if *id == first && *movement == speed)
    ));
    let r = f.get(first).resources;
    assert!(!r.action_used && !r.bonus_used && !r.reaction_used);
    assert_eq!(r.movement_left(), speed);
    assert_eq!(
        f.refused(Actor::Director, Command::Begin),
        RuleViolation::AlreadyStarted
    );
}

#[test]
fn a_fight_needs_both_sides_and_must_begin_before_anyone_acts() {
    let mut f = Fight::new(vec![pc("Vex", Race::HUMAN, Class::ROGUE, 1)]);
    assert_eq!(f.refused(Actor::Director, Command::Begin), RuleViolation::NeedBothSides);
    let mut f = Fight::new(vec![
        pc("Vex", Race::HUMAN, Class::ROGUE, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let vex = f.id("Vex");
    assert_eq!(f.refused_for(vex, Command::Dodge), RuleViolation::NotStarted);
}

#[test]
fn action_bonus_action_and_movement_are_spent_independently_in_one_turn() {
    let (mut f, vex, ogre) = rogue_and_ogre();
    f.act(vex, Command::Move(MoveIntent::Melee(ogre)));
    f.act(vex, Command::Attack { target: Some(ogre) });
    f.act(vex, Command::Bonus(BonusAction::CunningAction(CunningMove::Dash)));
    f.act(vex, Command::Move(MoveIntent::Shift(Direction::East)));
    let r = f.get(vex).resources;
    assert!(r.action_used && r.bonus_used && !r.reaction_used);
    assert_eq!(r.movement_left(), 30 - 25 + 30 - 10);
}

#[test]
fn a_spent_action_bonus_action_or_movement_is_refused_with_a_typed_violation() {
    let (mut f, vex, ogre) = rogue_and_ogre();
    f.act(vex, Command::Dodge);
    assert_eq!(
        f.refused_for(vex, Command::Dash),
        RuleViolation::ResourceSpent {
            resource: Resource::Action
        }
    );
    f.act(vex, Command::Bonus(BonusAction::CunningAction(CunningMove::Dash)));
    assert_eq!(
        f.refused_for(vex, Command::Bonus(BonusAction::CunningAction(CunningMove::Dash))),
        RuleViolation::ResourceSpent {
            resource: Resource::BonusAction
        }
    );
    f.act(vex, Command::Move(MoveIntent::Melee(ogre)));
    f.act(vex, Command::Move(MoveIntent::Shift(Direction::North)));
    f.act(vex, Command::Move(MoveIntent::Shift(Direction::South)));
    assert_eq!(f.get(vex).resources.movement_left(), 60 - 25 - 20);
    f.act(vex, Command::Move(MoveIntent::Shift(Direction::West)));
    assert_eq!(
        f.refused_for(vex, Command::Move(MoveIntent::Shift(Direction::East))),
        RuleViolation::NotEnoughMovement { needed: 10, left: 5 }
    );
}

#[test]
fn resources_reset_at_the_start_of_the_owners_turn_and_unused_ones_do_not_carry_over() {
    let (mut f, vex, ogre) = rogue_and_ogre();
    f.act(vex, Command::Move(MoveIntent::Shift(Direction::North)));
    f.act(vex, Command::Dodge);
    f.act(vex, Command::EndTurn);
    assert!(
        f.get(vex).resources.action_used,
        "nothing resets on someone else's turn"
    );
    let events = f.act(ogre, Command::EndTurn);
    assert!(any(
        &events,
        |e| matches!(e, Event::TurnStarted { id, round: 2, movement: 30 } if *id == vex)
    ));
    let r = f.get(vex).resources;
    assert!(!r.action_used && !r.bonus_used && !r.reaction_used);
    assert_eq!(r.movement_left(), 30, "the unused 20 ft do not carry over");
}

#[test]
fn commands_out_of_turn_are_refused_naming_who_is_acting() {
    let (mut f, _, ogre) = rogue_and_ogre();
    assert_eq!(
        f.refused_for(ogre, Command::Dodge),
        RuleViolation::NotYourTurn { current: "Vex".into() }
    );
    assert_eq!(
        f.refused_for(engine::CombatantId(9), Command::Dodge),
        RuleViolation::NotInCombat
    );
}

#[test]
fn gm_tools_are_the_directors_alone() {
    let (mut f, vex, ogre) = rogue_and_ogre();
    assert!(matches!(
        f.refused_for(
            vex,
            Command::AdjustHp {
                target: ogre,
                delta: -5
            }
        ),
        RuleViolation::NotEligible { .. }
    ));
    assert!(matches!(
        f.refused_for(vex, Command::EndCombat),
        RuleViolation::NotEligible { .. }
    ));
    let events = f.direct(Command::EndCombat);
    assert!(any(&events, |e| matches!(
        e,
        Event::CombatEnded {
            outcome: engine::Outcome::Halted,
            ..
        }
    )));
    assert_eq!(f.refused_for(vex, Command::Dodge), RuleViolation::CombatOver);
}

/// The GM's heal is said as what it restored, up to the maximum, and one on a creature at full
/// hit points is refused, changing nothing.
#[test]
fn a_gm_heal_says_what_it_restored_and_is_refused_at_full_hit_points() {
    let (mut f, vex, _) = rogue_and_ogre();
    f.refused(Actor::Director, Command::AdjustHp { target: vex, delta: 5 });
    let max = f.get(vex).max_hp;
    f.direct(Command::AdjustHp { target: vex, delta: -4 });
    let events = f.direct(Command::AdjustHp {
        target: vex,
        delta: 1000,
    });
    assert!(
        any(
            &events,
            |e| matches!(e, Event::HpAdjusted { id, delta: 4, hp } if *id == vex && *hp == max)
        ),
        "{events:?}"
    );
}

#[test]
fn an_err_never_changes_the_combat_or_the_dice() {
    let (mut f, vex, ogre) = rogue_and_ogre();
    f.melee(vex, ogre);
    let events = f.act(vex, Command::Attack { target: None });
    assert_eq!(common::rolls(&events)[0].target, ogre, "the nearest enemy in reach");
    // `refused` compares a clone of the combat and the dice position before and after.
    for (actor, command) in [
        (Actor::Combatant(vex), Command::Attack { target: Some(ogre) }),
        (Actor::Combatant(vex), Command::Attack { target: Some(vex) }),
        (Actor::Combatant(vex), Command::Grapple { target: ogre }),
        (Actor::Combatant(vex), Command::React(engine::ReactionKind::Parry)),
        (Actor::Combatant(vex), Command::Pass),
        (Actor::Combatant(ogre), Command::EndTurn),
        (
            Actor::Combatant(vex),
            Command::Ready {
                text: "attack when pigs fly".into(),
            },
        ),
        (Actor::Director, Command::AdjustHp { target: ogre, delta: 0 }),
        (Actor::Director, Command::Dodge),
    ] {
        f.refused(actor, command);
    }
}
