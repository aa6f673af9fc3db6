//! Opportunity attacks (seed 000 §4): leaving an enemy's melee reach offers it one melee attack as
//! its reaction, resolved before the mover is gone — unless Disengage, Cunning Action: Disengage,
//! Blur or Misty Step suppresses it.

use crate::combat::Combat;
use crate::combatant::CombatantId;
use crate::movement::MovePlan;

/// Whether `mover`'s move provokes no opportunity attacks.
pub fn suppressed(combat: &Combat, mover: CombatantId, plan: &MovePlan) -> bool {
    let m = combat.get(mover);
    let blur = m.stat_block().is_some_and(|k| k.blur);
    plan.teleport || m.conditions.disengaged || blur
}
