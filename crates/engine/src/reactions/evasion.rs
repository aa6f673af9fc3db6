//! Evasion (seed 000 §2.3): Rogue or Ranger 7+, failing a DEX save — succeed instead (no damage,
//! or half against a save-for-half).

use super::{reduce_pending, Limit, Reaction, ReactionKind, ReactionTrigger, TriggerKind};
use crate::state::combat::Combat;
use crate::state::ids::Ruleset;
use crate::state::combatant::Combatant;
use crate::state::ids::CombatantId;
use crate::state::sheet::Sheet;
use crate::content::data::Feature;
use crate::ctx::Ctx;
use crate::state::step::Step;

pub struct Evasion;

impl Reaction for Evasion {
    fn label(&self) -> &'static str {
        "Evasion"
    }

    fn grants(&self, c: &Combatant, ruleset: Ruleset) -> bool {
        self.sheet_grants(&c.sheet, ruleset)
    }

    fn sheet_grants(&self, sheet: &Sheet, ruleset: Ruleset) -> bool {
        sheet.has_feature(Feature::Evasion, ruleset)
    }

    fn triggers(&self) -> &'static [TriggerKind] {
        &[TriggerKind::FailedDexSave]
    }

    fn target_only(&self) -> bool {
        true
    }

    fn answers(&self, combat: &Combat, r: &Combatant, trigger: &ReactionTrigger) -> bool {
        matches!(trigger, ReactionTrigger::FailedDexSave { target, .. } if *target == r.id)
            && self.grants(r, combat.ruleset)
    }

    fn take(&self, ctx: &mut Ctx, reactor: CombatantId, trigger: &ReactionTrigger) -> Vec<Step> {
        if let ReactionTrigger::FailedDexSave {
            target, half_on_save, ..
        } = trigger
        {
            let half = *half_on_save;
            reduce_pending(ctx, *target, reactor, ReactionKind::Evasion, |d| if half { d / 2 } else { 0 });
        }
        vec![]
    }

    fn ai_rank(&self) -> u8 {
        90
    }

    fn interrupt_limit(&self, _c: &Combatant) -> Option<Limit> {
        Some(Limit::PerRound(1))
    }
}
