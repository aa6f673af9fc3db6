//! Interception (seed 000 §2.3): Fighter 3+, an ally is hit by an attacker in your melee range —
//! reduce the damage by 1d10 + proficiency.

use super::{reduce_pending, Limit, Reaction, ReactionKind, ReactionTrigger, TriggerKind};
use crate::state::combat::Combat;
use crate::state::ids::Ruleset;
use crate::state::combatant::Combatant;
use crate::state::ids::CombatantId;
use crate::state::sheet::Sheet;
use crate::content::data::Feature;
use crate::dice::DiceExpr;
use crate::state::movement::Band;
use crate::ctx::Ctx;
use crate::state::step::Step;

pub struct Interception;

impl Reaction for Interception {
    fn label(&self) -> &'static str {
        "Interception"
    }

    fn grants(&self, c: &Combatant, ruleset: Ruleset) -> bool {
        self.sheet_grants(&c.sheet, ruleset)
    }

    fn sheet_grants(&self, sheet: &Sheet, ruleset: Ruleset) -> bool {
        sheet.has_feature(Feature::Interception, ruleset)
    }

    fn triggers(&self) -> &'static [TriggerKind] {
        &[TriggerKind::Hit]
    }

    fn answers(&self, combat: &Combat, r: &Combatant, trigger: &ReactionTrigger) -> bool {
        let ReactionTrigger::Hit { attacker, target, .. } = trigger else {
            return false;
        };
        *target != r.id
            && combat.get(*target).side == r.side
            && self.grants(r, combat.ruleset)
            && combat.band(r.id, *attacker) == Band::Melee
    }

    fn take(&self, ctx: &mut Ctx, reactor: CombatantId, trigger: &ReactionTrigger) -> Vec<Step> {
        if let ReactionTrigger::Hit { target, .. } = trigger {
            let prof = ctx.combat.get(reactor).proficiency();
            let roll = DiceExpr::new(1, 10, prof).roll(ctx.dice, false);
            reduce_pending(ctx, *target, reactor, ReactionKind::Interception, |d| d - roll);
        }
        vec![]
    }

    fn ai_rank(&self) -> u8 {
        80
    }

    fn interrupt_limit(&self, _c: &Combatant) -> Option<Limit> {
        Some(Limit::PerRound(1))
    }
}
