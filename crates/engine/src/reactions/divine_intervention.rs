//! Divine Intervention (seed 001 "Interrupt limits": "Divine Intervention: 1/day"): a TDGS
//! Cleric's Interrupt, once a day. When a hit would drop the cleric or an ally to 0 HP, the
//! cleric calls on their god and the blow is turned aside: its damage becomes 0. The use counts
//! against the day, not the scene: it survives the scene's end (and, carried on the character,
//! the next fight of the day) and comes back with a long rest (`timing::tdgs::long_rest`).

use super::{reduce_pending, Limit, Reaction, ReactionKind, ReactionTrigger, TriggerKind};
use crate::state::combat::Combat;
use crate::state::ids::Ruleset;
use crate::state::combatant::Combatant;
use crate::state::ids::CombatantId;
use crate::state::sheet::Sheet;
use crate::content::data::Feature;
use crate::ctx::Ctx;
use crate::state::step::Step;

pub struct DivineIntervention;

impl Reaction for DivineIntervention {
    fn label(&self) -> &'static str {
        "Divine Intervention"
    }

    /// A TDGS Interrupt: a Cleric's, from level 1 (the class table's "Divine Intervention").
    fn grants(&self, c: &Combatant, ruleset: Ruleset) -> bool {
        self.sheet_grants(&c.sheet, ruleset)
    }

    fn sheet_grants(&self, sheet: &Sheet, ruleset: Ruleset) -> bool {
        ruleset == Ruleset::Tdgs && sheet.has_feature(Feature::DivineIntervention, ruleset)
    }

    fn triggers(&self) -> &'static [TriggerKind] {
        &[TriggerKind::Hit]
    }

    fn answers(&self, combat: &Combat, r: &Combatant, trigger: &ReactionTrigger) -> bool {
        let ReactionTrigger::Hit { target, damage, .. } = trigger else {
            return false;
        };
        // TDGS's alone (the gate's first question, asked first: it is the cheapest).
        if combat.ruleset != Ruleset::Tdgs {
            return false;
        }
        let t = combat.get(*target);
        t.side == r.side && t.is_standing() && *damage >= t.hp && self.grants(r, combat.ruleset)
    }

    fn take(&self, ctx: &mut Ctx, reactor: CombatantId, trigger: &ReactionTrigger) -> Vec<Step> {
        if let ReactionTrigger::Hit { target, .. } = trigger {
            reduce_pending(ctx, *target, reactor, ReactionKind::DivineIntervention, |_| 0);
        }
        vec![]
    }

    fn ai_rank(&self) -> u8 {
        25
    }

    /// Once a day.
    fn interrupt_limit(&self, c: &Combatant) -> Option<Limit> {
        c.has_feature(Feature::DivineIntervention, Ruleset::Tdgs)
            .then_some(Limit::PerDay(1))
    }
}
