//! The outcome of a fight (seed 000 §7, §8): victory when every enemy is dead, defeat when no
//! party member can fight on, and what ends with the fight. Every timing model ends fights here.

use crate::ctx::Ctx;
use crate::state::event::{Event, Outcome};
use crate::state::ids::{CombatantId, Side};

/// Ends grapples held by `id` (it fell or died).
pub fn release_grapples(ctx: &mut Ctx, id: CombatantId) {
    for i in 0..ctx.combat.combatants.len() {
        if ctx.combat.combatants[i].conditions.grappled_by == Some(id) {
            ctx.combat.combatants[i].conditions.grappled_by = None;
            let freed = ctx.combat.combatants[i].id;
            ctx.emit(Event::ConditionEnded {
                id: freed,
                condition: "grappled".into(),
            });
        }
    }
}

/// Victory when every enemy is dead; defeat when no party member stands and none is still
/// rolling death saves. In a duel ([`crate::Combat::duel`]) the fight ends at 0 HP: victory
/// when no enemy stands, defeat when no party member does — a downed duellist never rolls a
/// death save, so no one dies in the arena.
pub fn check_outcome(ctx: &mut Ctx) {
    if ctx.combat.outcome.is_some() || !ctx.combat.started {
        return;
    }
    let c = &*ctx.combat;
    if c.duel {
        let beaten = |side: Side| !c.combatants.iter().any(|x| x.side == side && x.is_standing());
        if beaten(Side::Enemies) {
            finish(ctx, Outcome::Victory);
        } else if beaten(Side::Party) {
            finish(ctx, Outcome::Defeat);
        }
        return;
    }
    if c.side_alive(Side::Enemies).next().is_none() {
        finish(ctx, Outcome::Victory);
    } else if c.side_alive(Side::Party).all(|p| !p.is_standing() && !p.death.dying()) {
        finish(ctx, Outcome::Defeat);
    }
}

/// Ends the fight: XP is the sum of the slain enemies' XP.
pub fn finish(ctx: &mut Ctx, outcome: Outcome) {
    let xp = ctx
        .combat
        .combatants
        .iter()
        .filter(|c| c.side == Side::Enemies && c.is_dead())
        .filter_map(crate::state::combatant::Combatant::stat_block)
        .map(|m| m.xp)
        .sum();
    ctx.combat.outcome = Some(outcome);
    crate::timing::model(ctx.combat.ruleset).scene_end(ctx.combat);
    ctx.combat.queue.clear();
    ctx.combat.window = None;
    ctx.emit(Event::CombatEnded { outcome, xp });
}
