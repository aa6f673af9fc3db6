//! Death saves (seed 000 §7, §7.4 `DeathSaveState`): downed at 0 HP, a d20 at the start of each
//! of the downed player's turns, three successes stabilise, three failures kill, damage while
//! downed adds failures.

use chrono::{DateTime, Utc};

use crate::ctx::Ctx;
use crate::dice::RollMode;
pub use crate::state::death_saves::{DeathSaveOutcome, DeathSaveResult, DeathSaveState};
use crate::state::event::Event;
use crate::state::ids::CombatantId;

impl DeathSaveState {
    /// Dropped to 0 HP: downed, marks clear.
    pub fn down(&mut self, now: DateTime<Utc>) {
        *self = Self {
            downed: true,
            updated_at: Some(now),
            ..Self::default()
        };
    }

    /// Still making death saves.
    pub fn dying(&self) -> bool {
        self.downed && !self.stabilized && !self.dead
    }

    /// Records one death save's outcome (§7.1).
    pub fn record(&mut self, outcome: DeathSaveOutcome, now: DateTime<Utc>) -> DeathSaveResult {
        self.updated_at = Some(now);
        match outcome {
            DeathSaveOutcome::CriticalSuccess => {
                *self = Self {
                    updated_at: Some(now),
                    ..Self::default()
                };
                DeathSaveResult::Revived
            }
            DeathSaveOutcome::Success => {
                self.successes = (self.successes + 1).min(3);
                if self.successes == 3 {
                    DeathSaveResult::Stabilized
                } else {
                    DeathSaveResult::StillDying
                }
            }
            DeathSaveOutcome::Failure => self.add_failures(1),
            DeathSaveOutcome::CriticalFailure => self.add_failures(2),
        }
    }

    /// Adds failure marks (a failed save, or damage while downed: one, two for a critical hit, §7.3).
    pub fn add_failures(&mut self, marks: u8) -> DeathSaveResult {
        self.stabilized = false;
        self.failures = (self.failures + marks).min(3);
        if self.failures == 3 {
            self.dead = true;
            DeathSaveResult::Died
        } else {
            DeathSaveResult::StillDying
        }
    }

    /// Stable: no more death saves; wakes with 1 HP after `wakes_in` turns.
    pub fn stabilize(&mut self, wakes_in: u8, now: DateTime<Utc>) {
        self.stabilized = true;
        self.successes = 0;
        self.failures = 0;
        self.wakes_in = wakes_in;
        self.updated_at = Some(now);
    }

    /// Healed or awake: no longer downed.
    pub fn revive(&mut self, now: DateTime<Utc>) {
        *self = Self {
            updated_at: Some(now),
            ..Self::default()
        };
    }
}

// ---------------------------------------------------------------------------------------------
// Rolling them in a fight (every timing model rolls them the same way)
// ---------------------------------------------------------------------------------------------

/// Rolls one death save for a dying character (§7.1).
pub fn roll(ctx: &mut Ctx, id: CombatantId) {
    let mode = if ctx.combat.get(id).death.advantage_next {
        RollMode::Advantage
    } else {
        RollMode::Normal
    };
    let d20 = ctx.dice.d20(mode);
    record(ctx, id, d20);
}

/// Records a rolled death save and its consequences.
pub fn record(ctx: &mut Ctx, id: CombatantId, d20: crate::dice::D20) {
    let outcome = DeathSaveOutcome::of_roll(d20.natural);
    let now = ctx.now;
    let c = ctx.combat.get_mut(id);
    c.death.advantage_next = false;
    let result = c.death.record(outcome, now);
    let (successes, failures) = (c.death.successes, c.death.failures);
    ctx.emit(Event::DeathSaveRolled {
        id,
        d20,
        outcome,
        result,
        successes,
        failures,
    });
    after_mark(ctx, id, result);
}

/// What follows a death-save mark: stable, up again, or dead.
pub fn after_mark(ctx: &mut Ctx, id: CombatantId, result: DeathSaveResult) {
    match result {
        DeathSaveResult::StillDying => {}
        DeathSaveResult::Stabilized => {
            let wakes_in = ctx.dice.die(4) as u8;
            let now = ctx.now;
            ctx.combat.get_mut(id).death.stabilize(wakes_in, now);
            ctx.emit(Event::Stabilized { id, wakes_in });
        }
        DeathSaveResult::Revived => {
            let c = ctx.combat.get_mut(id);
            c.hp = 1;
            c.conditions.prone = false;
            ctx.emit(Event::Revived {
                id,
                hp: 1,
                prone: false,
            });
        }
        DeathSaveResult::Died => {
            ctx.emit(Event::Died { id });
            crate::outcome::release_grapples(ctx, id);
        }
    }
    crate::outcome::check_outcome(ctx);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t0() -> DateTime<Utc> {
        DateTime::from_timestamp(0, 0).unwrap()
    }

    #[test]
    fn roll_of_ten_or_more_is_a_success_nine_or_less_a_failure() {
        assert_eq!(DeathSaveOutcome::of_roll(10), DeathSaveOutcome::Success);
        assert_eq!(DeathSaveOutcome::of_roll(19), DeathSaveOutcome::Success);
        assert_eq!(DeathSaveOutcome::of_roll(9), DeathSaveOutcome::Failure);
        assert_eq!(DeathSaveOutcome::of_roll(2), DeathSaveOutcome::Failure);
    }

    #[test]
    fn natural_twenty_is_critical_success_and_natural_one_critical_failure() {
        assert_eq!(DeathSaveOutcome::of_roll(20), DeathSaveOutcome::CriticalSuccess);
        assert_eq!(DeathSaveOutcome::of_roll(1), DeathSaveOutcome::CriticalFailure);
    }

    #[test]
    fn three_successes_stabilize() {
        let mut s = DeathSaveState::default();
        s.down(t0());
        assert_eq!(s.record(DeathSaveOutcome::Success, t0()), DeathSaveResult::StillDying);
        assert_eq!(s.record(DeathSaveOutcome::Success, t0()), DeathSaveResult::StillDying);
        assert_eq!(s.record(DeathSaveOutcome::Success, t0()), DeathSaveResult::Stabilized);
    }

    #[test]
    fn three_failures_kill_and_a_natural_one_counts_twice() {
        let mut s = DeathSaveState::default();
        s.down(t0());
        assert_eq!(
            s.record(DeathSaveOutcome::CriticalFailure, t0()),
            DeathSaveResult::StillDying
        );
        assert_eq!(s.failures, 2);
        assert_eq!(s.record(DeathSaveOutcome::Failure, t0()), DeathSaveResult::Died);
        assert!(s.dead);
    }

    #[test]
    fn natural_twenty_clears_all_marks() {
        let mut s = DeathSaveState::default();
        s.down(t0());
        s.record(DeathSaveOutcome::Failure, t0());
        s.record(DeathSaveOutcome::Success, t0());
        assert_eq!(
            s.record(DeathSaveOutcome::CriticalSuccess, t0()),
            DeathSaveResult::Revived
        );
        assert_eq!((s.downed, s.successes, s.failures), (false, 0, 0));
    }

    #[test]
    fn marks_never_exceed_three() {
        let mut s = DeathSaveState::default();
        s.down(t0());
        s.add_failures(2);
        s.add_failures(2);
        assert_eq!(s.failures, 3);
    }
}
