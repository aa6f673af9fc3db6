//! Saving throws (SRD 5.1 "Saving Throws"; seed 000 §2.1 Dodge): d20 + the bonus against a DC,
//! with advantage on DEX saves while dodging and, for a creature with Magic Resistance, on saves
//! against spells; a creature with Legendary Resistance left turns a failed save into a success;
//! the conditions' own effects (`crate::conditions`: the helpless fail STR and DEX saves, the
//! restrained roll DEX saves at disadvantage).

use crate::content::Ability;
use crate::ctx::Ctx;
use crate::dice::RollMode;
use crate::state::event::Event;
use crate::state::ids::CombatantId;

/// Rolls `id`'s saving throw of `ability` against `dc` and reports it; `spell` says a spell calls
/// for it. True on a success.
pub fn roll(ctx: &mut Ctx, id: CombatantId, ability: Ability, dc: i32, spell: bool) -> bool {
    let c = ctx.combat.get(id);
    let Some(held_back) = crate::conditions::save(c, ability) else {
        // Helpless: a STR or DEX save fails outright, no roll (and no Legendary Resistance).
        ctx.emit(Event::SaveFailedHelpless { id, ability, dc });
        return false;
    };
    let magic_resistance = spell && c.stat_block().is_some_and(|m| m.magic_resistance);
    let advantage = (ability == Ability::Dex && c.conditions.dodging) || magic_resistance;
    let bonus = c.save_bonus(ability);
    let d20 = ctx.dice.d20(RollMode::from_sources(advantage, held_back));
    let total = d20.natural as i32 + bonus + crate::statuses::save_modifier(ctx, id);
    let success = total >= dc;
    ctx.emit(Event::SavingThrow {
        id,
        ability,
        d20,
        total,
        dc,
        success,
    });
    if !success && ctx.combat.get(id).pools.legendary_resistance > 0 {
        let pools = &mut ctx.combat.get_mut(id).pools;
        pools.legendary_resistance -= 1;
        let left = pools.legendary_resistance;
        ctx.emit(Event::LegendaryResistance { id, left });
        return true;
    }
    success
}
