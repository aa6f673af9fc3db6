//! Cancel (seed 004 "Reactions": cancel in prep): strike an enemy in reach while it prepares its
//! action; a hit breaks the windup. Only those who can read prep (Perception proficiency) see it.

use super::{Limit, Reaction, ReactionKind, ReactionTrigger, TriggerKind};
use crate::state::combat::Combat;
use crate::state::ids::Ruleset;
use crate::state::combatant::Combatant;
use crate::state::ids::CombatantId;
use crate::ctx::Ctx;
use crate::state::step::Step;

pub struct Cancel;

impl Reaction for Cancel {
    fn label(&self) -> &'static str {
        "Break Their Windup"
    }

    /// The tick timeline gives it, not an ability.
    fn grants(&self, _c: &Combatant, _ruleset: Ruleset) -> bool {
        false
    }

    fn triggers(&self) -> &'static [TriggerKind] {
        &[TriggerKind::Phase]
    }

    fn answers(&self, combat: &Combat, r: &Combatant, trigger: &ReactionTrigger) -> bool {
        matches!(trigger, ReactionTrigger::Phase { actor, phase }
            if crate::timing::ticks::reaction_for(combat, r.id, *actor, *phase) == Some(ReactionKind::Cancel))
    }

    fn take(&self, ctx: &mut Ctx, reactor: CombatantId, trigger: &ReactionTrigger) -> Vec<Step> {
        match trigger {
            ReactionTrigger::Phase { actor, .. } => {
                crate::timing::ticks::reactive_strike(ctx, reactor, ReactionKind::Cancel, *actor)
            }
            _ => vec![],
        }
    }

    fn ai_rank(&self) -> u8 {
        10
    }

    fn interrupt_limit(&self, _c: &Combatant) -> Option<Limit> {
        None
    }

    fn cycle(&self) -> (u32, u32, u32) {
        (0, 1, 4)
    }
}
