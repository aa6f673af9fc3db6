//! Auras (SRD 5.1 stat blocks: the Ghast's Stench, a fire elemental's heat), in every timing
//! model: a stat block's `auras = [{…}]` act on each enemy that starts its turn — each model's own
//! turn, a timeline cycle of its own included — in melee with the aura's standing holder. An
//! aura with a save is resisted by it: a failure takes the damage and the status, a success half
//! the damage (with `half`) or none and never the status; an aura without one always acts. A
//! success against an aura with `immune_on_save` makes the creature immune to that holder's aura
//! for the rest of the fight.

use crate::content::data::{AfflictionDef, AuraDef};
use crate::content::statuses::Affliction;
use crate::ctx::Ctx;
use crate::state::event::Event;
use crate::state::ids::CombatantId;
use crate::state::movement::Band;
use crate::state::step::PendingDamage;

/// `id`'s turn starts: the auras of the standing enemies in melee with it act on it, in id order.
pub fn at_turn_start(ctx: &mut Ctx, id: CombatantId) {
    let me = ctx.combat.get(id);
    if !me.is_standing() {
        return;
    }
    let side = me.side;
    let holders: Vec<(CombatantId, AuraDef)> = ctx
        .combat
        .combatants
        .iter()
        .filter(|h| h.side != side && h.is_standing() && ctx.combat.band(h.id, id) == Band::Melee)
        .filter_map(|h| Some((h.id, h.stat_block()?.auras.clone())))
        .flat_map(|(h, auras)| auras.into_vec().into_iter().map(move |a| (h, a)))
        .filter(|(h, a)| {
            !me.conditions
                .aura_immune
                .iter()
                .any(|(i, name)| i == h && **name == *a.name)
        })
        .collect();
    for (holder, aura) in holders {
        if ctx.combat.outcome.is_some() || !ctx.combat.get(id).is_standing() {
            return;
        }
        suffer(ctx, holder, id, &aura);
    }
}

/// `aura` of `holder` acts on `target`.
fn suffer(ctx: &mut Ctx, holder: CombatantId, target: CombatantId, aura: &AuraDef) {
    ctx.emit(Event::Aura {
        holder,
        target,
        aura: aura.name.to_string(),
    });
    let resisted = aura
        .save
        .is_some_and(|(ability, dc)| crate::saves::roll(ctx, target, ability, dc, false));
    if resisted && aura.immune_on_save {
        let immune = &mut ctx.combat.get_mut(target).conditions.aura_immune;
        immune.push((holder, aura.name.to_string()));
    }
    if let (Some(damage), Some(damage_type)) = (aura.damage, aura.damage_type) {
        let rolled = damage.roll(ctx.dice, false);
        let amount = match (resisted, aura.half) {
            (false, _) => rolled,
            (true, true) => rolled / 2,
            (true, false) => 0,
        };
        if amount > 0 {
            crate::attack::land(ctx, PendingDamage::single(Some(holder), target, amount, damage_type));
        }
    }
    if !resisted && let Some(status) = &aura.status {
        let def = AfflictionDef {
            status: status.clone(),
            save: aura.save,
        };
        let affliction = Affliction {
            save: None,
            ..Affliction::from(&def)
        };
        crate::statuses::afflict(ctx, holder, target, affliction);
    }
}

/// Auras at turns' starts.
pub struct Auras;

impl crate::turn::TurnHook for Auras {
    fn at_start(&self, ctx: &mut Ctx, id: CombatantId) -> bool {
        at_turn_start(ctx, id);
        false
    }
}
