//! Opportunity attacks (seed 000 §4): leaving an enemy's melee reach offers it one melee attack as
//! its reaction, resolved before the mover is gone — unless Disengage, Cunning Action: Disengage,
//! Blur or Misty Step suppresses it.

use crate::state::combat::Combat;
use crate::state::ids::CombatantId;
use crate::state::movement::MovePlan;

/// Whether `mover`'s move provokes no opportunity attacks.
pub fn suppressed(combat: &Combat, mover: CombatantId, plan: &MovePlan) -> bool {
    plan.teleport || never_provokes(combat, mover)
}

/// Whether none of `mover`'s moves this turn provoke: it Disengaged, or it has Blur.
fn never_provokes(combat: &Combat, mover: CombatantId) -> bool {
    let m = combat.get(mover);
    m.conditions.disengaged || m.stat_block().is_some_and(|k| k.blur)
}

/// Who would be offered a reaction if `mover` left melee now without Disengaging: the standing
/// opponents in melee with it with a reaction to it now under the fight's timing model (empty
/// when its moves provoke none — Disengage, Blur). Read-only: the status shows it before the move.
pub fn would_strike(combat: &Combat, mover: CombatantId) -> Vec<CombatantId> {
    if never_provokes(combat, mover) {
        return Vec::new();
    }
    let trigger = crate::state::reactions::ReactionTrigger::LeavesMelee { mover };
    combat
        .standing_engaged_with(mover)
        .into_iter()
        .filter(|&r| !crate::reactions::options(combat, r, &trigger).is_empty())
        .collect()
}
