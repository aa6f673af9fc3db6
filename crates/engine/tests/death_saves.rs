//! Death saves (seed 000 §7): Downed at 0 HP; a d20 at the start of each of the downed player's
//! turns (10+ success, 9− failure, natural 20 up with 1 HP, natural 1 two failures); three
//! successes stabilise (awake with 1 HP after 1d4 turns), three failures kill; damage while
//! downed is a failure, a critical hit two; a potion or an ally's DC 10 Medicine stabilises.

mod common;

use common::{Fight, advantage, any, healed, pc, puppet, rolls};
use engine::content::{Class, Item, Monster, Race};
use engine::death_saves::{DeathSaveOutcome, DeathSaveResult};
use engine::{Actor, CombatantId, Command, Event, RuleViolation};

/// Vex (rogue) acts first, then Bo (fighter, downed), then an ogre the GM drives.
fn bo_downed() -> (Fight, CombatantId, CombatantId, CombatantId) {
    let mut f = Fight::new(vec![
        pc("Vex", Race::HUMAN, Class::ROGUE, 1),
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (vex, bo, ogre) = (f.id("Vex"), f.id("Bo"), f.id("Ogre"));
    f.melee(bo, ogre);
    f.start_with_order(vec![vex, bo, ogre]);
    f.direct(Command::AdjustHp { target: bo, delta: -50 });
    (f, vex, bo, ogre)
}

/// The death save rolled in `events`: (natural, outcome, result, successes, failures).
fn save(events: &[Event]) -> Option<(u32, DeathSaveOutcome, DeathSaveResult, u8, u8)> {
    events.iter().find_map(|e| match e {
        Event::DeathSaveRolled {
            d20,
            outcome,
            result,
            successes,
            failures,
            ..
        } => Some((d20.natural, *outcome, *result, *successes, *failures)),
        _ => None,
    })
}

/// Vex ends the turn; Bo's turn starts with a death save whose natural roll satisfies `pred`.
fn bo_rolls(f: &mut Fight, vex: CombatantId, pred: impl Fn(u32) -> bool) -> Vec<Event> {
    f.act_where(Actor::Combatant(vex), Command::EndTurn, |e, _| {
        save(e).is_some_and(|s| pred(s.0))
    })
}

#[test]
fn dropping_to_zero_hp_downs_a_character_instead_of_killing_it() {
    let (f, _, bo, _) = bo_downed();
    let c = f.get(bo);
    assert_eq!(c.hp, 0);
    assert!(c.is_downed() && !c.is_dead() && !c.is_standing());
    assert!(c.conditions.prone);
    assert_eq!((c.death.successes, c.death.failures), (0, 0));
    assert!(any(&f.log, |e| matches!(e, Event::Downed { id } if *id == bo)));
}

#[test]
fn a_downed_character_rolls_its_death_save_automatically_at_the_start_of_its_turn() {
    let (mut f, vex, bo, ogre) = bo_downed();
    let events = f.act(vex, Command::EndTurn);
    let started = events
        .iter()
        .position(|e| matches!(e, Event::TurnStarted { id, .. } if *id == bo))
        .unwrap();
    let rolled = events
        .iter()
        .position(|e| matches!(e, Event::DeathSaveRolled { id, .. } if *id == bo))
        .unwrap();
    assert!(started < rolled);
    if f.get(bo).is_standing() {
        assert_eq!(f.current(), bo, "a natural 20 keeps the turn");
    } else {
        assert_eq!(f.current(), ogre, "an unconscious character's turn passes at once");
    }
}

#[test]
fn a_death_save_of_ten_to_nineteen_marks_one_success() {
    let (mut f, vex, bo, _) = bo_downed();
    let events = bo_rolls(&mut f, vex, |n| (10..=19).contains(&n));
    let (_, outcome, result, s, fails) = save(&events).unwrap();
    assert_eq!(
        (outcome, result, s, fails),
        (DeathSaveOutcome::Success, DeathSaveResult::StillDying, 1, 0)
    );
    assert!(f.get(bo).is_downed());
}

#[test]
fn a_death_save_of_two_to_nine_marks_one_failure() {
    let (mut f, vex, bo, _) = bo_downed();
    let events = bo_rolls(&mut f, vex, |n| (2..=9).contains(&n));
    let (_, outcome, _, s, fails) = save(&events).unwrap();
    assert_eq!((outcome, s, fails), (DeathSaveOutcome::Failure, 0, 1));
    assert_eq!(f.get(bo).death.failures, 1);
}

#[test]
fn natural_one_on_a_death_save_marks_two_failures() {
    let (mut f, vex, bo, _) = bo_downed();
    let events = bo_rolls(&mut f, vex, |n| n == 1);
    let (_, outcome, result, _, fails) = save(&events).unwrap();
    assert_eq!(
        (outcome, result, fails),
        (DeathSaveOutcome::CriticalFailure, DeathSaveResult::StillDying, 2)
    );
    assert_eq!(f.get(bo).death.failures, 2);
}

#[test]
fn natural_twenty_on_a_death_save_revives_with_one_hp_clears_the_marks_and_keeps_the_turn() {
    let (mut f, vex, bo, ogre) = bo_downed();
    f.get_mut(bo).death.failures = 2;
    f.get_mut(bo).death.successes = 1;
    let events = bo_rolls(&mut f, vex, |n| n == 20);
    let (_, outcome, result, s, fails) = save(&events).unwrap();
    assert_eq!(
        (outcome, result, s, fails),
        (DeathSaveOutcome::CriticalSuccess, DeathSaveResult::Revived, 0, 0)
    );
    assert!(any(
        &events,
        |e| matches!(e, Event::Revived { id, hp: 1, prone: false } if *id == bo)
    ));
    let c = f.get(bo);
    assert_eq!(c.hp, 1);
    assert!(c.is_standing() && !c.conditions.prone, "stands up");
    assert_eq!(f.current(), bo);
    f.act(bo, Command::Attack { target: Some(ogre) });
}

#[test]
fn three_successes_stabilise_and_wake_with_one_hp_after_1d4_turns() {
    let (mut f, vex, bo, ogre) = bo_downed();
    f.get_mut(bo).death.successes = 2;
    let events = bo_rolls(&mut f, vex, |n| (10..=19).contains(&n));
    assert_eq!(save(&events).unwrap().2, DeathSaveResult::Stabilized);
    let wakes_in = events
        .iter()
        .find_map(|e| match e {
            Event::Stabilized { id, wakes_in } if *id == bo => Some(*wakes_in),
            _ => None,
        })
        .expect("stabilised");
    assert!((1..=4).contains(&wakes_in));
    assert!(f.get(bo).death.stabilized && f.get(bo).is_downed());
    let mut turns = 0;
    loop {
        f.act(ogre, Command::EndTurn);
        let events = f.act(vex, Command::EndTurn);
        turns += 1;
        assert!(save(&events).is_none(), "a stable character rolls no more death saves");
        if any(&events, |e| matches!(e, Event::Woke { id } if *id == bo)) {
            break;
        }
        assert!(turns < 4, "{}", f.transcript());
        assert_eq!(f.get(bo).hp, 0);
    }
    assert_eq!(turns, u32::from(wakes_in));
    assert_eq!(f.get(bo).hp, 1);
    assert!(f.get(bo).is_standing());
    assert_eq!(f.current(), bo);
}

#[test]
fn three_failures_kill_the_character() {
    let (mut f, vex, bo, ogre) = bo_downed();
    f.get_mut(bo).death.failures = 2;
    let events = bo_rolls(&mut f, vex, |n| (2..=9).contains(&n));
    assert_eq!(save(&events).unwrap().2, DeathSaveResult::Died);
    assert!(any(&events, |e| matches!(e, Event::Died { id } if *id == bo)));
    assert!(f.get(bo).is_dead());
    assert_eq!(f.get(bo).death.failures, 3);
    // The dead take no more turns.
    f.act(ogre, Command::EndTurn);
    let events = f.act(vex, Command::EndTurn);
    assert!(!any(
        &events,
        |e| matches!(e, Event::TurnStarted { id, .. } if *id == bo)
    ));
    assert_eq!(f.current(), ogre);
}

#[test]
fn damage_while_downed_adds_one_failure_mark() {
    let (mut f, vex, bo, ogre) = bo_downed();
    f.act_where(Actor::Combatant(vex), Command::EndTurn, |e, _| {
        save(e).is_some_and(|s| (10..=19).contains(&s.0))
    });
    let events = f.act_with(ogre, Command::Attack { target: Some(bo) }, |e, _| {
        rolls(e).first().is_some_and(|r| r.hit && !r.critical)
    });
    assert!(
        advantage(&rolls(&events)[0].d20),
        "attacks against the unconscious have advantage"
    );
    assert!(any(
        &events,
        |e| matches!(e, Event::DamagedWhileDowned { id, marks: 1, failures: 1 } if *id == bo)
    ));
    assert_eq!(f.get(bo).hp, 0);
    assert_eq!((f.get(bo).death.successes, f.get(bo).death.failures), (1, 1));
}

#[test]
fn critical_hit_on_a_downed_character_adds_two_failures() {
    let (mut f, vex, bo, ogre) = bo_downed();
    f.act_where(Actor::Combatant(vex), Command::EndTurn, |e, _| {
        save(e).is_some_and(|s| (10..=19).contains(&s.0))
    });
    let events = f.act_with(ogre, Command::Attack { target: Some(bo) }, |e, _| {
        rolls(e).first().is_some_and(|r| r.critical)
    });
    assert!(any(
        &events,
        |e| matches!(e, Event::DamagedWhileDowned { id, marks: 2, failures: 2 } if *id == bo)
    ));
}

#[test]
fn damage_can_kill_a_downed_character_before_the_saves_run_out() {
    let (mut f, vex, bo, ogre) = bo_downed();
    f.get_mut(bo).death.failures = 2;
    f.act_where(Actor::Combatant(vex), Command::EndTurn, |e, _| {
        save(e).is_some_and(|s| (10..=19).contains(&s.0))
    });
    let events = f.act_with(ogre, Command::Attack { target: Some(bo) }, |e, _| {
        rolls(e).first().is_some_and(|r| r.hit)
    });
    assert!(any(&events, |e| matches!(e, Event::Died { id } if *id == bo)));
    assert!(f.get(bo).is_dead());
}

#[test]
fn potion_of_healing_administered_to_a_downed_ally_stabilises_and_heals() {
    let (mut f, vex, bo, _) = bo_downed();
    f.get_mut(bo).death.failures = 2;
    let mut next = f.upcoming();
    let amount = (next.die(4) + next.die(4)) as i32 + 2;
    let events = f.act(
        vex,
        Command::UseItem {
            item: Item::POTION_OF_HEALING,
            target: Some(bo),
        },
    );
    assert_eq!(healed(&events, bo), vec![amount]);
    let c = f.get(bo);
    assert_eq!(c.hp, amount);
    assert!(c.is_standing() && !c.death.dying());
    assert_eq!(c.death.failures, 0);
    assert_eq!(f.get(vex).items.get(&Item::POTION_OF_HEALING), None);
    // Awake, but a potion does not stand them up: still prone, and the event says so.
    assert!(f.get(bo).conditions.prone);
    assert!(any(
        &events,
        |e| matches!(e, Event::Revived { id, hp, prone: true } if *id == bo && *hp == amount)
    ));
    let events = f.act(vex, Command::EndTurn);
    assert!(save(&events).is_none(), "no more death saves");
}

#[test]
fn an_allys_dc_10_medicine_check_stabilises_as_an_action() {
    for succeed in [true, false] {
        let mut f = Fight::new(vec![
            pc("Mira", Race::HUMAN, Class::CLERIC, 1),
            pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
            puppet("Ogre", Monster::OGRE),
        ]);
        let (mira, bo) = (f.id("Mira"), f.id("Bo"));
        f.start_with_order(vec![mira, bo, f.id("Ogre")]);
        f.direct(Command::AdjustHp { target: bo, delta: -50 });
        f.act(mira, Command::Pass); // no Shield of Faith
        f.get_mut(bo).death.failures = 1;
        let events = f.act_with(mira, Command::Stabilize { ally: bo }, |e, _| {
            any(
                e,
                |e| matches!(e, Event::MedicineCheck { success, .. } if *success == succeed),
            )
        });
        let roll = events
            .iter()
            .find_map(|e| match e {
                Event::MedicineCheck { roll, .. } => Some(*roll),
                _ => None,
            })
            .unwrap();
        assert_eq!(roll >= 10, succeed, "DC 10");
        assert!((1 + 5..=20 + 5).contains(&roll), "d20 + WIS 3 + Medicine proficiency 2");
        assert!(f.get(mira).resources.action_used);
        let c = f.get(bo);
        if succeed {
            assert!(c.death.stabilized && !c.death.dying());
            assert!(any(
                &events,
                |e| matches!(e, Event::Stabilized { id, wakes_in } if *id == bo && (1..=4).contains(wakes_in))
            ));
        } else {
            assert!(c.death.dying());
            assert_eq!(c.death.failures, 1);
        }
    }
}

#[test]
fn stabilising_someone_who_is_not_dying_is_refused() {
    let (mut f, vex, bo, ogre) = bo_downed();
    f.get_mut(bo).death.stabilized = true;
    assert!(matches!(
        f.refused_for(vex, Command::Stabilize { ally: bo }),
        RuleViolation::InvalidTarget { .. }
    ));
    assert!(matches!(
        f.refused_for(vex, Command::Stabilize { ally: ogre }),
        RuleViolation::InvalidTarget { .. }
    ));
}

#[test]
fn damage_to_a_stabilised_character_sets_it_dying_again() {
    let (mut f, vex, bo, ogre) = bo_downed();
    f.get_mut(bo).death.stabilized = true;
    f.get_mut(bo).death.wakes_in = 4;
    f.act(vex, Command::EndTurn);
    let events = f.act_with(ogre, Command::Attack { target: Some(bo) }, |e, _| {
        rolls(e).first().is_some_and(|r| r.hit && !r.critical)
    });
    assert!(any(&events, |e| matches!(
        e,
        Event::DamagedWhileDowned { marks: 1, .. }
    )));
    assert!(f.get(bo).death.dying());
    f.act(ogre, Command::EndTurn);
    let events = f.act(vex, Command::EndTurn);
    assert!(save(&events).is_some(), "death saves resume");
}

#[test]
fn the_downed_cannot_act() {
    let (mut f, _, bo, ogre) = bo_downed();
    f.turn_of(bo);
    assert_eq!(
        f.refused_for(bo, Command::Attack { target: Some(ogre) }),
        RuleViolation::Incapacitated
    );
}

#[test]
fn the_fight_is_lost_only_when_no_party_member_stands_or_is_still_dying() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let bo = f.id("Bo");
    f.turn_of(bo);
    f.direct(Command::AdjustHp { target: bo, delta: -50 });
    assert!(f.combat.outcome.is_none(), "a dying character can still be saved");
    f.get_mut(bo).death.failures = 2;
    f.direct(Command::AdjustHp { target: bo, delta: -1 });
    assert_eq!(f.combat.outcome, Some(engine::Outcome::Defeat));
}
