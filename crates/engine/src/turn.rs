//! The turn's life cycle every timing model shares (seed 000 §1, §5, §7.1): what resets when a
//! turn starts, the upkeep (breath recharge, death saves, the AI thinking), and what ends with a
//! turn. The models decide *when* turns start and end; this is *what* happens then. The mechanics
//! acting at those moments (legendary actions, Regeneration, statuses, auras, recharge) are each
//! a [`TurnHook`] in their own module, listed once in [`hooks!`]: a new one is its module and one
//! line there.

use crate::ctx::Ctx;
use crate::state::combatant::Controller;
use crate::state::event::Event;
use crate::state::ids::{CombatantId, Side};
use crate::state::resources::TurnResources;
use crate::state::step::Step;
use crate::state::violation::RuleViolation;

/// A mechanic acting at the start or the end of a combatant's turn, in every timing model (a
/// timeline cycle of its own counts as a turn). Its module implements the moments it acts at.
pub trait TurnHook: Sync {
    /// As the turn's slots reset, before `TurnStarted`.
    fn refresh(&self, _ctx: &mut Ctx, _id: CombatantId) {}

    /// Right after `TurnStarted`, while the fight goes on: true when the turn is lost.
    fn at_start(&self, _ctx: &mut Ctx, _id: CombatantId) -> bool {
        false
    }

    /// In the upkeep after the start, before a downed creature's death save.
    fn upkeep(&self, _ctx: &mut Ctx, _id: CombatantId) {}

    /// At the turn's end, before `TurnEnded`.
    fn at_end(&self, _ctx: &mut Ctx, _id: CombatantId) {}
}

/// Lists the turn's mechanics once, each by its module and hook, in the order they act at each
/// moment.
macro_rules! hooks {
    ($( $module:ident => $hook:ident ),* $(,)?) => {
        /// Every turn hook, in the registry's order.
        const HOOKS: &[&dyn TurnHook] = &[$( &crate::$module::$hook ),*];
    };
}

hooks! {
    legendary => LegendaryActions,
    regeneration => Regeneration,
    statuses => Statuses,
    auras => Auras,
    abilities => Recharge,
}

/// Refuses to begin a fight already begun, or one without someone on each side (every model).
pub fn can_begin(ctx: &Ctx) -> Result<(), RuleViolation> {
    let c = &*ctx.combat;
    if c.started {
        return Err(RuleViolation::AlreadyStarted);
    }
    if c.side_alive(Side::Party).next().is_none() || c.side_alive(Side::Enemies).next().is_none() {
        return Err(RuleViolation::NeedBothSides);
    }
    Ok(())
}

/// The part of a turn's start every model shares, before `TurnStarted`: the per-turn slots and
/// turn-long conditions reset, the hooks refresh (legendary actions are regained), an unfired
/// readied action lapses. Returns the feet of movement.
pub fn refresh_for_turn(ctx: &mut Ctx, id: CombatantId) -> i32 {
    let movement = ctx.combat.get(id).speed();
    {
        let c = ctx.combat.get_mut(id);
        c.resources = TurnResources::fresh(movement);
        c.conditions.dodging = false;
        c.conditions.ac_bonus = 0;
        c.conditions.sneak_attack_used = false;
        c.conditions.attacked_this_turn = false;
    }
    for hook in HOOKS {
        hook.refresh(ctx, id);
    }
    if let Some(readied) = ctx.combat.get_mut(id).readied.take()
        && !readied.fired
    {
        ctx.emit(Event::ReadiedActionExpired {
            id,
            action: readied.action.describe(),
        });
    }
    ctx.combat.refresh_readied_hint();
    movement
}

/// The start of `id`'s turn, in whichever model (a timeline cycle of its own included), right
/// after `TurnStarted`: the hooks in order while the fight goes on — Regeneration, statuses, then
/// the auras of the enemies it stands in melee with (after the tick, so an aura's one-turn status
/// lasts until its next turn's start). True when the turn is lost.
pub fn at_start(ctx: &mut Ctx, id: CombatantId) -> bool {
    let mut lost = false;
    for hook in HOOKS {
        if ctx.combat.outcome.is_some() {
            break;
        }
        lost |= hook.at_start(ctx, id);
    }
    lost || ctx.combat.outcome.is_some()
}

/// The hooks' upkeep (area abilities may recharge): the part of [`upkeep`] a timeline cycle runs.
pub fn upkeep_hooks(ctx: &mut Ctx, id: CombatantId) {
    for hook in HOOKS {
        hook.upkeep(ctx, id);
    }
}

/// The hooks' end of `id`'s turn (statuses that end on a save are saved against).
pub fn end_hooks(ctx: &mut Ctx, id: CombatantId) {
    for hook in HOOKS {
        hook.at_end(ctx, id);
    }
}

/// The part of a turn's start every model shares, after `TurnStarted`: the hooks' upkeep (area
/// abilities may recharge), the downed roll their death save or wake (§7.1), and the AI starts
/// thinking.
pub fn upkeep(ctx: &mut Ctx, id: CombatantId) {
    upkeep_hooks(ctx, id);
    let c = ctx.combat.get(id);
    if c.death.dying() {
        crate::death_saves::roll(ctx, id);
        if !ctx.combat.get(id).is_standing() {
            ctx.push_front(vec![Step::EndTurn(id)]);
            return;
        }
    } else if c.is_downed() {
        let c = ctx.combat.get_mut(id);
        c.death.wakes_in = c.death.wakes_in.saturating_sub(1);
        if c.death.wakes_in > 0 {
            ctx.push_front(vec![Step::EndTurn(id)]);
            return;
        }
        c.hp = 1;
        c.death.revive(ctx.now);
        ctx.emit(Event::Woke { id });
    }
    if matches!(ctx.combat.get(id).controller, Controller::Ai(_)) {
        ctx.push_front(vec![Step::Think(id)]);
    }
}

/// The part of a turn's end every model shares: the hooks' end (statuses that end on a save are
/// saved against), turn-long effects end, `TurnEnded`, and the outcome is checked. False when it was not `id`'s turn or the fight is over.
pub fn close_turn(ctx: &mut Ctx, id: CombatantId) -> bool {
    if ctx.combat.current() != Some(id) {
        return false;
    }
    end_hooks(ctx, id);
    // A Disengage lasts the turn it was taken on, the actor's own or (held) another's.
    for c in &mut ctx.combat.combatants {
        c.conditions.disengaged = false;
    }
    ctx.combat.get_mut(id).conditions.cunning_strike = None;
    // Web / Entangled lasts until freed (§3.2): `escape` ends it, not the turn.
    ctx.emit(Event::TurnEnded { id });
    crate::outcome::check_outcome(ctx);
    ctx.combat.outcome.is_none()
}
