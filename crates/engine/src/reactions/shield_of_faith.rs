//! Shield of Faith (seed 000 §2.3): Cleric, an ally drops to 0 HP — spend 1 Divine Favor; the
//! ally makes a death save at once, with advantage.

use super::{Limit, Reaction, ReactionTrigger, TriggerKind};
use crate::state::combat::Combat;
use crate::state::ids::Ruleset;
use crate::state::combatant::Combatant;
use crate::state::ids::CombatantId;
use crate::state::sheet::Sheet;
use crate::content::data::Feature;
use crate::dice::RollMode;
use crate::ctx::Ctx;
use crate::state::step::Step;

pub struct ShieldOfFaith;

impl Reaction for ShieldOfFaith {
    fn label(&self) -> &'static str {
        "Shield of Faith"
    }

    fn grants(&self, c: &Combatant, ruleset: Ruleset) -> bool {
        self.sheet_grants(&c.sheet, ruleset) && c.pools.divine_favor > 0
    }

    fn sheet_grants(&self, sheet: &Sheet, ruleset: Ruleset) -> bool {
        sheet.has_feature(Feature::ShieldOfFaith, ruleset)
    }

    fn triggers(&self) -> &'static [TriggerKind] {
        &[TriggerKind::DroppedToZero]
    }

    fn answers(&self, combat: &Combat, r: &Combatant, trigger: &ReactionTrigger) -> bool {
        let ReactionTrigger::DroppedToZero { ally } = trigger else {
            return false;
        };
        let a = combat.get(*ally);
        *ally != r.id && a.side == r.side && a.is_character() && self.grants(r, combat.ruleset)
    }

    fn take(&self, ctx: &mut Ctx, reactor: CombatantId, trigger: &ReactionTrigger) -> Vec<Step> {
        let ReactionTrigger::DroppedToZero { ally } = trigger else {
            return vec![];
        };
        ctx.combat.get_mut(reactor).pools.divine_favor -= 1;
        if ctx.combat.get(*ally).death.dying() {
            let d20 = ctx.dice.d20(RollMode::Advantage);
            crate::death_saves::record(ctx, *ally, d20);
        }
        vec![]
    }

    fn ai_rank(&self) -> u8 {
        50
    }

    fn interrupt_limit(&self, _c: &Combatant) -> Option<Limit> {
        Some(Limit::PerRound(1))
    }
}
