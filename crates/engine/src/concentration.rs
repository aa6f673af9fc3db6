//! Concentration (SRD 5.1 "Spellcasting: Concentration"), in every ruleset: a spell marked
//! `concentration` holds its statuses up only while its caster concentrates on it. A caster
//! concentrates on one spell at a time — casting another such spell ends the first —, and loses
//! its concentration when it is incapacitated or drops to 0 hit points, or fails the
//! Constitution saving throw damage calls for (DC 10 or half the damage, whichever is higher).
//! When it ends, every status it held up ends with it, on whoever holds one.

use crate::content::Ability;
use crate::ctx::Ctx;
use crate::state::event::Event;
use crate::state::ids::CombatantId;

/// `caster` begins concentrating on `spell`, ending the concentration it held.
pub fn begin(ctx: &mut Ctx, caster: CombatantId, spell: &str) {
    end(ctx, caster);
    ctx.combat.get_mut(caster).conditions.concentration = Some(spell.to_owned());
}

/// `id`'s concentration ends, if it holds one: every status it held up ends, on everyone.
pub fn end(ctx: &mut Ctx, id: CombatantId) {
    let Some(spell) = ctx.combat.get_mut(id).conditions.concentration.take() else {
        return;
    };
    ctx.emit(Event::ConcentrationEnded { id, spell });
    let held: Vec<(CombatantId, String)> = ctx
        .combat
        .combatants
        .iter()
        .flat_map(|c| {
            c.statuses
                .iter()
                .filter(|s| s.concentration == Some(id))
                .map(move |s| (c.id, s.name.clone()))
        })
        .collect();
    for (holder, status) in held {
        let statuses = &mut ctx.combat.get_mut(holder).statuses;
        statuses.retain(|s| !(s.name == status && s.concentration == Some(id)));
        ctx.emit(Event::StatusExpired { id: holder, status });
    }
}

/// After `amount` damage landed on `id`: at 0 hit points its concentration ends; otherwise a
/// CON save against the higher of 10 and half the damage keeps it.
pub fn after_damage(ctx: &mut Ctx, id: CombatantId, amount: i32) {
    let c = ctx.combat.get(id);
    if c.conditions.concentration.is_none() || amount <= 0 {
        return;
    }
    if !c.is_standing() || !crate::saves::roll(ctx, id, Ability::Con, (amount / 2).max(10), false) {
        end(ctx, id);
    }
}
