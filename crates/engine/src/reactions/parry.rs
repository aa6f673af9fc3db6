//! Parry (seed 000 §2.3; seed 001 "Interrupts", "Interrupt timing"). A Fighter's from level 5
//! (TDGS: from level 1), or a parrying monster's.
//!
//! - *GogoBee, CTB, ticks* (§2.3): hit by a melee attack — reduce the damage by 1d8 + DEX.
//! - *TDGS* (seed 001: "Enemy declares Melee Attack → You declare Parry → Parry resolves (you
//!   roll) → Success: attack deflected → Failure: attack continues"): declared at the interrupt
//!   check of a melee attack on you, before it is rolled. The roll is TDGS's resolution, "d20 +
//!   modifiers vs threshold": d20 + DEX modifier + proficiency bonus against 10 + the attack's
//!   own bonus to hit ([`dc`]). Success deflects the attack — it is never rolled and deals
//!   nothing; failure lets it go on as declared. 1/round (2/round from level 5).

use super::{reduce_pending, Limit, Reaction, ReactionTrigger, TriggerKind};
use crate::state::combat::Combat;
use crate::state::ids::Ruleset;
use crate::state::combatant::Combatant;
use crate::state::ids::CombatantId;
use crate::state::sheet::Sheet;
use crate::content::Ability;
use crate::content::data::Feature;
use crate::dice::{DiceExpr, RollMode};
use crate::state::event::Event;
use crate::ctx::Ctx;
use crate::state::step::{Step, Swing};

pub struct Parry;

/// The threshold a TDGS Parry rolls against: 10 + the declared attack's bonus to hit.
pub fn dc(combat: &Combat, swing: &Swing) -> i32 {
    10 + crate::attack::to_hit(combat.get(swing.attacker), swing.strike)
}

/// The TDGS Parry roll's modifiers: DEX modifier + proficiency bonus.
pub fn bonus(parrier: &Combatant) -> i32 {
    parrier.modifier(Ability::Dex) + parrier.proficiency()
}

impl Reaction for Parry {
    fn label(&self) -> &'static str {
        "Parry"
    }

    fn grants(&self, c: &Combatant, ruleset: Ruleset) -> bool {
        self.sheet_grants(&c.sheet, ruleset)
    }

    fn sheet_grants(&self, sheet: &Sheet, ruleset: Ruleset) -> bool {
        sheet.has_feature(Feature::Parry, ruleset)
    }

    fn triggers(&self) -> &'static [TriggerKind] {
        &[TriggerKind::Hit, TriggerKind::AttackDeclared]
    }

    fn target_only(&self) -> bool {
        true
    }

    fn answers(&self, combat: &Combat, r: &Combatant, trigger: &ReactionTrigger) -> bool {
        let answered = if combat.ruleset == Ruleset::Tdgs {
            matches!(trigger, ReactionTrigger::AttackDeclared { target, melee: true, .. } if *target == r.id)
        } else {
            matches!(trigger, ReactionTrigger::Hit { target, melee: true, .. } if *target == r.id)
        };
        answered && self.grants(r, combat.ruleset)
    }

    fn take(&self, ctx: &mut Ctx, reactor: CombatantId, trigger: &ReactionTrigger) -> Vec<Step> {
        match trigger {
            ReactionTrigger::Hit { target, .. } => {
                let dex = ctx.combat.get(reactor).modifier(Ability::Dex);
                let roll = DiceExpr::new(1, 8, dex).roll(ctx.dice, false);
                reduce_pending(ctx, *target, reactor, super::ReactionKind::Parry, |d| d - roll);
            }
            ReactionTrigger::AttackDeclared { attacker, target, .. } => deflect(ctx, reactor, *attacker, *target),
            _ => {}
        }
        vec![]
    }

    fn ai_rank(&self) -> u8 {
        60
    }

    /// TDGS: as often a round as the class table's `tdgs_parries` (a Fighter's once, twice from
    /// level 5); a parrying monster's once.
    fn interrupt_limit(&self, c: &Combatant) -> Option<Limit> {
        match c.class_row().tdgs_parries {
            0 if c.has_feature(Feature::Parry, Ruleset::Tdgs) => Some(Limit::PerRound(1)),
            0 => None,
            n => Some(Limit::PerRound(u32::from(n))),
        }
    }
}

/// TDGS: the Parry roll against the declared swing waiting in the queue; success removes it.
fn deflect(ctx: &mut Ctx, reactor: CombatantId, attacker: CombatantId, target: CombatantId) {
    let declared = |step: &Step| {
        matches!(step, Step::Swing(s) if s.declared && s.attacker == attacker && s.target == target)
    };
    let Some(at) = ctx.combat.queue.iter().position(declared) else {
        return;
    };
    let Step::Swing(swing) = ctx.combat.queue[at] else {
        return;
    };
    let dc = dc(ctx.combat, &swing);
    let roll = ctx.dice.d20(RollMode::Normal).natural as i32 + bonus(ctx.combat.get(reactor));
    let deflected = roll >= dc;
    ctx.emit(Event::ParryRolled {
        by: reactor,
        attacker,
        roll,
        dc,
        deflected,
    });
    if deflected {
        ctx.combat.queue.remove(at);
    }
}
