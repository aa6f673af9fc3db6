//! Opportunity Attack (seed 000 §2.3, §4): an enemy leaves your melee range without Disengaging —
//! one melee attack (an archer strikes unarmed).

use super::{Limit, Reaction, ReactionTrigger, TriggerKind};
use crate::state::combat::Combat;
use crate::state::ids::Ruleset;
use crate::state::combatant::Combatant;
use crate::state::ids::CombatantId;
use crate::state::sheet::Sheet;
use crate::content::data::Feature;
use crate::state::event::AttackKind;
use crate::state::movement::Band;
use crate::multiattack;
use crate::ctx::Ctx;
use crate::state::step::{Step, Swing};

pub struct OpportunityAttack;

impl Reaction for OpportunityAttack {
    fn label(&self) -> &'static str {
        "Opportunity Attack"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["oa"]
    }

    fn grants(&self, c: &Combatant, ruleset: Ruleset) -> bool {
        self.sheet_grants(&c.sheet, ruleset)
    }

    /// Anyone who can attack in melee (every character; a monster with a melee attack).
    fn sheet_grants(&self, sheet: &Sheet, _ruleset: Ruleset) -> bool {
        sheet.has_melee_attack()
    }

    fn triggers(&self) -> &'static [TriggerKind] {
        &[TriggerKind::LeavesMelee]
    }

    fn answers(&self, combat: &Combat, r: &Combatant, trigger: &ReactionTrigger) -> bool {
        let ReactionTrigger::LeavesMelee { mover } = trigger else {
            return false;
        };
        let m = combat.get(*mover);
        m.side != r.side && r.has_melee_attack() && combat.band(r.id, *mover) == Band::Melee && !m.is_dead()
    }

    fn take(&self, ctx: &mut Ctx, reactor: CombatantId, trigger: &ReactionTrigger) -> Vec<Step> {
        let ReactionTrigger::LeavesMelee { mover } = trigger else {
            return vec![];
        };
        let r = ctx.combat.get(reactor);
        multiattack::opportunity_strike(ctx.combat, r, *mover)
            .map(|strike| {
                vec![Step::Swing(Swing {
                    attacker: reactor,
                    target: *mover,
                    strike,
                    kind: AttackKind::Opportunity,
                    swing: 1,
                    of: 1,
                    declared: false,
                })]
            })
            .unwrap_or_default()
    }

    fn ai_rank(&self) -> u8 {
        100
    }

    /// TDGS: the martial classes' and melee monsters' Interrupt, once a round.
    fn interrupt_limit(&self, c: &Combatant) -> Option<Limit> {
        let opportunist = c.has_feature(Feature::Opportunist, Ruleset::Tdgs);
        (opportunist || (c.stat_block().is_some() && c.has_melee_attack())).then_some(Limit::PerRound(1))
    }

    fn cycle(&self) -> (u32, u32, u32) {
        (0, 1, 4)
    }
}
