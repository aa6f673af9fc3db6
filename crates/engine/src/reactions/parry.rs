//! Parry (seed 000 §2.3; seed 001 "Parry (Lv1): 1/round"): hit by a melee attack — reduce the
//! damage by 1d8 + DEX. A Fighter's from level 5 (TDGS: from level 1), or a parrying monster's.

use super::{Limit, Reaction, ReactionTrigger, reduce_pending};
use crate::combat::{Combat, Ruleset};
use crate::combatant::{Combatant, CombatantId};
use crate::content::{Ability, Class};
use crate::dice::DiceExpr;
use crate::resolve::{Ctx, Step};

pub struct Parry;

impl Reaction for Parry {
    fn label(&self) -> &'static str {
        "Parry"
    }

    fn grants(&self, c: &Combatant, ruleset: Ruleset) -> bool {
        let level = if ruleset == Ruleset::Tdgs { 1 } else { 5 };
        c.is_class_at_least(Class::Fighter, level) || c.monster_kind().is_some_and(|m| m.stats().parry)
    }

    fn answers(&self, combat: &Combat, r: &Combatant, trigger: &ReactionTrigger) -> bool {
        matches!(trigger, ReactionTrigger::Hit { target, melee: true, .. } if *target == r.id)
            && self.grants(r, combat.ruleset)
    }

    fn take(&self, ctx: &mut Ctx, reactor: CombatantId, trigger: &ReactionTrigger) -> Vec<Step> {
        let ReactionTrigger::Hit { target, .. } = trigger else {
            return vec![];
        };
        let dex = ctx.combat.get(reactor).modifier(Ability::Dex);
        let roll = DiceExpr::new(1, 8, dex).roll(ctx.dice, false);
        reduce_pending(ctx, *target, reactor, super::ReactionKind::Parry, |d| d - roll);
        vec![]
    }

    fn ai_rank(&self) -> u8 {
        60
    }

    /// TDGS: a Fighter's once a round (twice from level 5); a parrying monster's once.
    fn interrupt_limit(&self, c: &Combatant) -> Option<Limit> {
        match c.class() {
            Some(Class::Fighter) => Some(Limit::PerRound(if c.level() >= 5 { 2 } else { 1 })),
            _ if c.monster_kind().is_some_and(|m| m.stats().parry) => Some(Limit::PerRound(1)),
            _ => None,
        }
    }
}
