//! Status effects (seed 003 §1.C "Status Effect Tick"), in every ruleset: a hit's status takes
//! hold after its damage unless the target saves (`afflict`); at the start of its owner's turn —
//! each timing model's own turn: a GogoBee or TDGS turn, a charge-race turn, a tick-timeline
//! cycle — every status applies (damage or healing over time), loses a turn and expires at 0
//! unless permanent, and a stun takes the turn away. A monster's innate statuses (a Troll's
//! Regeneration) take hold at its first turn's start. A status the target already has is not
//! stacked: its duration becomes the longer of the two. A creature immune to the condition a
//! status stands for (`condition = "paralyzed"` on the status) is never given it.

use crate::content::statuses::{Affliction, EndsOnSave, StatusEffect, StatusKind};
use crate::ctx::Ctx;
use crate::state::event::Event;
use crate::state::ids::CombatantId;
use crate::state::step::PendingDamage;

/// A status takes hold of `target`: after a failed save, if the hit calls for one. The dead and
/// the downed are left alone.
pub fn afflict(ctx: &mut Ctx, source: CombatantId, target: CombatantId, affliction: Affliction) {
    if !ctx.combat.get(target).is_standing() {
        return;
    }
    if let Some((ability, dc)) = affliction.save
        && crate::saves::roll(ctx, target, ability, dc, affliction.spell)
    {
        return;
    }
    take_hold(ctx, target, affliction.status, Some(source));
}

/// A status given without a save (a Bless on an ally); the dead and the downed are left alone.
pub fn bestow(ctx: &mut Ctx, source: CombatantId, target: CombatantId, status: StatusEffect) {
    if ctx.combat.get(target).is_standing() {
        take_hold(ctx, target, status, Some(source));
    }
}

/// What `id`'s modifier statuses add to one of its attack rolls (Bless +1d4, Bane −1d4), rolled
/// now; 0 without any.
pub fn attack_modifier(ctx: &mut Ctx, id: CombatantId) -> i32 {
    roll_modifiers(ctx, id, |kind| match kind {
        StatusKind::Modifier { attack, .. } => attack,
        _ => None,
    })
}

/// What `id`'s modifier statuses add to one of its saving throws, rolled now; 0 without any.
pub fn save_modifier(ctx: &mut Ctx, id: CombatantId) -> i32 {
    roll_modifiers(ctx, id, |kind| match kind {
        StatusKind::Modifier { saves, .. } => saves,
        _ => None,
    })
}

fn roll_modifiers(
    ctx: &mut Ctx,
    id: CombatantId,
    part: impl Fn(StatusKind) -> Option<crate::content::data::SignedDice>,
) -> i32 {
    let statuses = &ctx.combat.get(id).statuses;
    if statuses.is_empty() {
        return 0;
    }
    let dice: Vec<_> = statuses.iter().filter_map(|s| part(s.kind)).collect();
    dice.into_iter().map(|d| d.roll(ctx.dice)).sum()
}

/// What a combatant's modifier statuses add to its armor class (Shield of Faith +2).
pub fn armor_class_modifier(statuses: &[StatusEffect]) -> i32 {
    statuses
        .iter()
        .map(|s| match s.kind {
            StatusKind::Modifier { ac, .. } => ac,
            _ => 0,
        })
        .sum()
}

/// Puts `status` on `id` (or refreshes it) and reports it; a creature immune to the condition it
/// stands for shrugs it off.
fn take_hold(ctx: &mut Ctx, id: CombatantId, status: StatusEffect, by: Option<CombatantId>) {
    if let Some(condition) = status.condition
        && crate::defences::shrugs_off(ctx, id, condition)
    {
        return;
    }
    let incapacitating =
        status.kind == StatusKind::Stun || status.condition.is_some_and(crate::conditions::incapacitates);
    let statuses = &mut ctx.combat.get_mut(id).statuses;
    let (turns, permanent) = (status.duration, status.permanent);
    match statuses.iter_mut().find(|s| s.name == status.name) {
        Some(held) => {
            held.duration = held.duration.max(status.duration);
            held.permanent |= status.permanent;
        }
        None => statuses.push(status.clone()),
    }
    ctx.emit(Event::StatusApplied {
        id,
        status: status.name,
        by,
        turns,
        permanent,
    });
    if incapacitating {
        crate::concentration::end(ctx, id);
    }
}

/// A monster's innate statuses take hold if it lacks them.
pub fn innate(ctx: &mut Ctx, id: CombatantId) {
    let c = ctx.combat.get(id);
    let Some(monster) = c.stat_block() else {
        return;
    };
    if c.is_dead() || monster.statuses.is_empty() {
        return;
    }
    let innate: Vec<StatusEffect> = monster.statuses.iter().map(StatusEffect::from).collect();
    for status in innate {
        if !ctx.combat.get(id).statuses.iter().any(|s| s.name == status.name) {
            take_hold(ctx, id, status, None);
        }
    }
}

/// The start of `id`'s turn, in whichever model: innate statuses take hold, then every status
/// ticks. True when the turn is lost: the fight ended, or a stun holds a standing creature
/// (reported as `Stunned`; the model ends the turn its own way).
pub fn at_turn_start(ctx: &mut Ctx, id: CombatantId) -> bool {
    innate(ctx, id);
    if ctx.combat.get(id).statuses.is_empty() {
        return false;
    }
    let stunned = tick(ctx, id);
    if ctx.combat.outcome.is_some() {
        return true;
    }
    if stunned && ctx.combat.get(id).is_standing() {
        ctx.emit(Event::Stunned { id });
        return true;
    }
    false
}

/// The end of `id`'s turn, in whichever model (a turn-based model's turn, a timeline cycle of its
/// own): each status that ends on a save is saved against, and ends on a success. A creature at
/// 0 HP makes no such save.
pub fn at_turn_end(ctx: &mut Ctx, id: CombatantId) {
    let saves: Vec<(String, EndsOnSave)> = ctx
        .combat
        .get(id)
        .statuses
        .iter()
        .filter_map(|s| Some((s.name.clone(), s.ends_on_save?)))
        .collect();
    for (status, save) in saves {
        if !ctx.combat.get(id).is_standing() {
            return;
        }
        if crate::saves::roll(ctx, id, save.ability, save.dc, save.spell) {
            ctx.combat.get_mut(id).statuses.retain(|s| s.name != status);
            ctx.emit(Event::StatusExpired { id, status });
        }
    }
}

/// The upkeep step (seed 003 §1.C): each effect applies, loses a turn and expires at 0 unless
/// permanent. Returns whether a stun was active (a stun of N turns takes N turns away: it counts
/// for the upkeep in which it expires).
fn tick(ctx: &mut Ctx, id: CombatantId) -> bool {
    let statuses = std::mem::take(&mut ctx.combat.get_mut(id).statuses);
    let mut kept = Vec::new();
    let mut stunned = false;
    let mut statuses = statuses.into_iter();
    while let Some(mut status) = statuses.next() {
        let amount = match status.kind {
            StatusKind::Dot { amount, damage_type } => {
                crate::attack::land(ctx, PendingDamage::single(None, id, amount, damage_type));
                if ctx.combat.outcome.is_some() {
                    // The damage ended the fight: nothing follows `CombatEnded`.
                    kept.push(status);
                    kept.extend(statuses);
                    break;
                }
                -amount
            }
            StatusKind::Hot { amount } => {
                // Healing stops at full HP: what it mends is what is reported.
                let c = ctx.combat.get(id);
                let healed = amount.min((c.max_hp - c.hp).max(0)).max(0);
                if healed > 0 {
                    crate::attack::heal(ctx, id, id, healed);
                }
                healed
            }
            StatusKind::Stun => {
                stunned = true;
                0
            }
            StatusKind::Condition => {
                stunned |= status.condition.is_some_and(crate::conditions::incapacitates);
                0
            }
            StatusKind::Modifier { .. } => 0,
        };
        if !status.permanent {
            status.duration = status.duration.saturating_sub(1);
        }
        ctx.emit(Event::StatusTicked {
            id,
            status: status.name.clone(),
            amount,
            remaining: status.duration,
            permanent: status.permanent,
        });
        if status.permanent || status.duration > 0 {
            kept.push(status);
        } else {
            ctx.emit(Event::StatusExpired {
                id,
                status: status.name,
            });
        }
    }
    ctx.combat.get_mut(id).statuses = kept;
    stunned
}

/// Statuses at turns' starts (they take hold and tick; a stun loses the turn) and ends (saves that
/// end them).
pub struct Statuses;

impl crate::turn::TurnHook for Statuses {
    fn at_start(&self, ctx: &mut Ctx, id: CombatantId) -> bool {
        at_turn_start(ctx, id)
    }

    fn at_end(&self, ctx: &mut Ctx, id: CombatantId) {
        at_turn_end(ctx, id);
    }
}
