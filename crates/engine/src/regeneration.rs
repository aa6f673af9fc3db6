//! Regeneration (SRD 5.1 stat blocks: the Troll's, the Vampire's), in every timing model: a stat
//! block's `regeneration = { hp = 10, stopped_by = ["acid", "fire"] }` gives back that many hit
//! points at the start of each of its turns (each model's own turn, a timeline cycle included),
//! unless damage of a type that stops it landed on it since its last turn start; then it does
//! nothing that turn (reported as `RegenerationStopped`). Healing stops at its maximum, and the
//! slain regenerate nothing.

use crate::content::DamageType;
use crate::ctx::Ctx;
use crate::state::combat::Combat;
use crate::state::event::Event;
use crate::state::ids::CombatantId;

/// `amount` of `damage_type` landed on `id` (after its defences): damage of a type that stops its
/// Regeneration stops it at its next turn's start.
pub fn wounded(combat: &mut Combat, id: CombatantId, damage_type: DamageType, amount: i32) {
    if amount <= 0 {
        return;
    }
    let c = combat.get(id);
    let stops = c
        .stat_block()
        .and_then(|m| m.regeneration)
        .is_some_and(|r| r.stopped_by.holds(damage_type, false));
    if stops {
        combat.get_mut(id).pools.regeneration_stopped = true;
    }
}

/// The start of `id`'s turn: it regains its Regeneration's hit points, or is reported stopped.
pub fn at_turn_start(ctx: &mut Ctx, id: CombatantId) {
    let c = ctx.combat.get(id);
    let Some(regeneration) = c.stat_block().and_then(|m| m.regeneration) else {
        return;
    };
    if c.is_dead() || c.hp <= 0 {
        return;
    }
    if std::mem::take(&mut ctx.combat.get_mut(id).pools.regeneration_stopped) {
        ctx.emit(Event::RegenerationStopped { id });
        return;
    }
    let c = ctx.combat.get(id);
    if c.hp < c.max_hp {
        crate::attack::heal(ctx, id, id, regeneration.hp);
    }
}

/// Regeneration at turns' starts.
pub struct Regeneration;

impl crate::turn::TurnHook for Regeneration {
    fn at_start(&self, ctx: &mut Ctx, id: CombatantId) -> bool {
        at_turn_start(ctx, id);
        false
    }
}
