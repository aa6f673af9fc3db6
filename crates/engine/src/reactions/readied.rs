//! A readied action firing (seed 000 §5; seed 001 "Readied actions"): the trigger occurred —
//! the held attack, spell or Dodge goes off as a reaction ("The goblin moves. Your readied attack
//! fires."). Parsing triggers and holding the action is `crate::readied`.

use super::{Limit, Reaction, ReactionTrigger, readied_feasible};
use crate::combat::{Combat, Ruleset};
use crate::combatant::{Combatant, CombatantId};
use crate::event::{AttackKind, Event};
use crate::multiattack;
use crate::readied::HeldAction;
use crate::resolve::{Ctx, Step, Swing};

pub struct Readied;

impl Reaction for Readied {
    fn label(&self) -> &'static str {
        "Readied Action"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["readied"]
    }

    /// The timing model gives it (Ready), not an ability.
    fn grants(&self, _c: &Combatant, _ruleset: Ruleset) -> bool {
        false
    }

    fn answers(&self, combat: &Combat, r: &Combatant, trigger: &ReactionTrigger) -> bool {
        let ReactionTrigger::Readied { observed } = trigger else {
            return false;
        };
        r.readied
            .as_ref()
            .is_some_and(|readied| !readied.fired && readied_feasible(combat, r, readied.action, observed.actor()))
    }

    fn take(&self, ctx: &mut Ctx, reactor: CombatantId, trigger: &ReactionTrigger) -> Vec<Step> {
        match trigger {
            ReactionTrigger::Readied { observed } => fire_readied(ctx, reactor, observed.actor()),
            _ => vec![],
        }
    }

    fn ai_rank(&self) -> u8 {
        40
    }

    /// A readied action is the turn's action held back, not an Interrupt ability.
    fn interrupt_limit(&self, _c: &Combatant) -> Option<Limit> {
        None
    }

    /// Its line is the readied action's own (`ReadiedActionTriggered`).
    fn narrated(&self) -> bool {
        false
    }
}

/// A readied action fires (§5): "The goblin moves. Your readied attack fires."
fn fire_readied(ctx: &mut Ctx, reactor: CombatantId, trigger_by: CombatantId) -> Vec<Step> {
    let Some(readied) = ctx.combat.get_mut(reactor).readied.as_mut() else {
        return vec![];
    };
    readied.fired = true;
    let action = readied.action;
    ctx.emit(Event::ReadiedActionTriggered {
        id: reactor,
        trigger_by,
        action: action.describe(),
    });
    match action {
        HeldAction::Attack { target } => {
            let target = target.unwrap_or(trigger_by);
            let r = ctx.combat.get(reactor);
            match multiattack::strike_for(ctx.combat, r, target, 1) {
                Some(strike) => vec![Step::Swing(Swing {
                    attacker: reactor,
                    target,
                    strike,
                    kind: AttackKind::Readied,
                    swing: 1,
                    of: 1,
                    declared: true,
                })],
                None => vec![],
            }
        }
        HeldAction::Cast { spell, target } => {
            let target = if spell.stats().targets_ally {
                target
            } else {
                target.or(Some(trigger_by))
            };
            crate::casting::cast_readied(ctx, reactor, spell, target)
        }
        HeldAction::Dodge => {
            ctx.combat.get_mut(reactor).conditions.dodging = true;
            ctx.emit(Event::Dodging { id: reactor });
            vec![]
        }
    }
}

