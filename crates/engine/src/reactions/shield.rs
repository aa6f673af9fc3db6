//! Shield (a Mage's reaction, after 5e's spell): hit by an attack — spend a 1st-level slot for
//! +5 AC against the triggering hit and until the start of your next turn. A hit that no longer
//! beats the raised AC misses; later attacks meet the raised AC too. A critical hit lands
//! whatever the AC, so Shield is not offered against one.

use super::{reduce_pending, Limit, Reaction, ReactionKind, ReactionTrigger, TriggerKind};
use crate::state::combat::Combat;
use crate::state::ids::Ruleset;
use crate::state::combatant::Combatant;
use crate::state::ids::CombatantId;
use crate::state::sheet::Sheet;
use crate::content::data::Feature;
use crate::ctx::Ctx;
use crate::state::step::Step;

/// The AC Shield adds.
pub const BONUS: i32 = 5;

pub struct Shield;

impl Reaction for Shield {
    fn label(&self) -> &'static str {
        "Shield"
    }

    fn grants(&self, c: &Combatant, ruleset: Ruleset) -> bool {
        self.sheet_grants(&c.sheet, ruleset) && c.lowest_slot(1).is_some()
    }

    fn sheet_grants(&self, sheet: &Sheet, ruleset: Ruleset) -> bool {
        sheet.has_feature(Feature::Shield, ruleset)
    }

    fn triggers(&self) -> &'static [TriggerKind] {
        &[TriggerKind::Hit]
    }

    fn target_only(&self) -> bool {
        true
    }

    fn answers(&self, combat: &Combat, r: &Combatant, trigger: &ReactionTrigger) -> bool {
        matches!(trigger, ReactionTrigger::Hit { target, critical: false, .. } if *target == r.id)
            && r.conditions.ac_bonus < BONUS
            && self.grants(r, combat.ruleset)
    }

    fn take(&self, ctx: &mut Ctx, reactor: CombatantId, trigger: &ReactionTrigger) -> Vec<Step> {
        let ReactionTrigger::Hit {
            attacker,
            target,
            total,
            critical,
            ..
        } = trigger
        else {
            return vec![];
        };
        let me = ctx.combat.get_mut(reactor);
        if let Some(level) = me.lowest_slot(1) {
            me.pools.spell_slots[level as usize - 1] -= 1;
        }
        me.conditions.ac_bonus = BONUS;
        if !*critical && *total < me.armor_class() {
            // The hit becomes a miss: no damage, and nothing it would have carried lands.
            reduce_pending(ctx, *target, reactor, ReactionKind::Shield, |_| 0);
            super::drop_riders(ctx, *attacker, *target);
        }
        vec![]
    }

    fn ai_rank(&self) -> u8 {
        55
    }

    /// The AI raises it only when it turns the hit into a miss.
    fn ai_wants(&self, _combat: &Combat, reactor: &Combatant, trigger: &ReactionTrigger) -> bool {
        matches!(trigger, ReactionTrigger::Hit { total, critical: false, .. }
            if *total < reactor.armor_class() + BONUS)
    }

    fn interrupt_limit(&self, _c: &Combatant) -> Option<Limit> {
        Some(Limit::PerRound(1))
    }
}
