//! Joining a fight (seed 000 §1 "initiative"; seed 001 "Initiative"; seed 003 §3; seed 004
//! "Initiative"): a late joiner or a reinforcement enters through `apply` like every change, so
//! the event log — and a replay — rebuilds it. Bands to its opponents open as a new fight's do;
//! the fight's timing model gives it its place.

use crate::combat::Combat;
use crate::combatant::{Combatant, CombatantId};
use crate::command::Actor;
use crate::event::{Event, Placement};
use crate::resolve::Ctx;
use crate::timing;
use crate::violation::RuleViolation;

/// Most combatants one fight may hold.
pub const MAX_COMBATANTS: usize = 40;

/// `Join`: adds `combatant` (the Director's command) and places it.
pub fn join(ctx: &mut Ctx, actor: Actor, combatant: &Combatant) -> Result<(), RuleViolation> {
    if actor != Actor::Director {
        return Err(RuleViolation::NotEligible {
            ability: "Adding a combatant".into(),
            requirement: "the game or a GM".into(),
        });
    }
    if ctx.combat.combatants.len() >= MAX_COMBATANTS {
        return Err(RuleViolation::FightFull { max: MAX_COMBATANTS });
    }
    let id = CombatantId(ctx.combat.combatants.len() as u32);
    let mut c = combatant.clone();
    c.id = id;
    let opponents: Vec<CombatantId> = ctx
        .combat
        .combatants
        .iter()
        .filter(|o| o.side != c.side)
        .map(|o| o.id)
        .collect();
    ctx.combat.readied.maybe |= c.readied.is_some();
    ctx.combat.combatants.push(c);
    for other in opponents {
        let band = Combat::opening_band(ctx.combat.get(id), ctx.combat.get(other));
        ctx.combat.set_band(id, other, band);
    }
    let placement = if ctx.combat.started {
        timing::model(ctx.combat.ruleset).place_newcomer(ctx, id)
    } else {
        Placement::Waiting
    };
    ctx.emit(Event::Joined { id, placement });
    Ok(())
}
