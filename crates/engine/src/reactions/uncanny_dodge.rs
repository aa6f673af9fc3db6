//! Uncanny Dodge (seed 000 §2.3): Rogue 5+, hit by an attacker you can see — halve the damage.

use super::{reduce_pending, Limit, Reaction, ReactionKind, ReactionTrigger, TriggerKind};
use crate::state::combat::Combat;
use crate::state::ids::Ruleset;
use crate::state::combatant::Combatant;
use crate::state::ids::CombatantId;
use crate::state::sheet::Sheet;
use crate::content::data::Feature;
use crate::ctx::Ctx;
use crate::state::step::Step;

pub struct UncannyDodge;

impl Reaction for UncannyDodge {
    fn label(&self) -> &'static str {
        "Uncanny Dodge"
    }

    fn grants(&self, c: &Combatant, ruleset: Ruleset) -> bool {
        self.sheet_grants(&c.sheet, ruleset)
    }

    fn sheet_grants(&self, sheet: &Sheet, ruleset: Ruleset) -> bool {
        sheet.has_feature(Feature::UncannyDodge, ruleset)
    }

    fn triggers(&self) -> &'static [TriggerKind] {
        &[TriggerKind::Hit]
    }

    fn target_only(&self) -> bool {
        true
    }

    fn answers(&self, combat: &Combat, r: &Combatant, trigger: &ReactionTrigger) -> bool {
        matches!(trigger, ReactionTrigger::Hit { target, unseen: false, .. } if *target == r.id)
            && self.grants(r, combat.ruleset)
    }

    fn take(&self, ctx: &mut Ctx, reactor: CombatantId, trigger: &ReactionTrigger) -> Vec<Step> {
        if let ReactionTrigger::Hit { target, .. } = trigger {
            reduce_pending(ctx, *target, reactor, ReactionKind::UncannyDodge, |d| d / 2);
        }
        vec![]
    }

    fn ai_rank(&self) -> u8 {
        70
    }

    fn interrupt_limit(&self, _c: &Combatant) -> Option<Limit> {
        Some(Limit::PerRound(1))
    }
}
