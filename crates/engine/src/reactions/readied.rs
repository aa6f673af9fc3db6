//! A readied action firing (seed 000 §5; seed 001 "Readied actions"): the trigger occurred —
//! the held attack, spell or Dodge goes off as a reaction ("The goblin moves. Your readied attack
//! fires."). Parsing triggers and holding the action is `crate::readied`. Under TDGS a readied
//! attack on an attacker who attacks the reactor is mutual destruction: the faster (REF → LUK →
//! d2) completes first, and the loser's swing may never come.

use super::{readied_feasible, Limit, Reaction, ReactionTrigger, TriggerKind};
use crate::state::combat::Combat;
use crate::state::ids::Ruleset;
use crate::state::combatant::Combatant;
use crate::state::ids::CombatantId;
use crate::state::event::{AttackKind, Event};
use crate::multiattack;
use crate::state::readied::{HeldAction, Observed};
use crate::ctx::Ctx;
use crate::state::step::{Step, Swing};

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

    fn triggers(&self) -> &'static [TriggerKind] {
        &[TriggerKind::Readied]
    }

    fn answers(&self, combat: &Combat, r: &Combatant, trigger: &ReactionTrigger) -> bool {
        let ReactionTrigger::Readied { observed } = trigger else {
            return false;
        };
        r.readied
            .as_ref()
            .is_some_and(|readied| !readied.fired && readied_feasible(combat, r, readied.action, observed))
    }

    fn take(&self, ctx: &mut Ctx, reactor: CombatantId, trigger: &ReactionTrigger) -> Vec<Step> {
        match trigger {
            ReactionTrigger::Readied { observed } => fire_readied(ctx, reactor, observed),
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
fn fire_readied(ctx: &mut Ctx, reactor: CombatantId, observed: &Observed) -> Vec<Step> {
    let trigger_by = observed.actor();
    let Some(readied) = ctx.combat.get_mut(reactor).readied.as_mut() else {
        return vec![];
    };
    readied.fired = true;
    let action = readied.action;
    ctx.emit(Event::ReadiedActionTriggered {
        id: reactor,
        trigger_by,
        action: action.describe(),
        observed: Some(observed.clone()),
    });
    match action {
        HeldAction::Attack { target } => {
            let target = target.unwrap_or(trigger_by);
            let r = ctx.combat.get(reactor);
            let Some(strike) = multiattack::strike_for(ctx.combat, r, target, 1) else {
                return vec![];
            };
            let swing = Step::Swing(Swing {
                attacker: reactor,
                target,
                strike,
                kind: AttackKind::Readied,
                swing: 1,
                of: 1,
                declared: true,
            });
            // An attack on the reactor answered by an attack on the attacker: each would prevent
            // the other (seed 001 "Mutual destruction").
            let mutual = target == trigger_by
                && matches!(observed, Observed::Attacks { target: victim, .. } if *victim == reactor);
            match mutual.then(|| crate::timing::first_of_mutual(ctx, trigger_by, reactor)).flatten() {
                Some((first, flips)) => {
                    let second = if first == reactor { trigger_by } else { reactor };
                    ctx.emit(Event::MutualDestruction { first, second, flips });
                    if first == reactor {
                        return vec![swing];
                    }
                    // The attacker's action completes first: the readied swing waits behind its
                    // swings (and does not come if the reactor falls to them).
                    let queue = &ctx.combat.queue;
                    let start = queue
                        .iter()
                        .position(|s| matches!(s, Step::Swing(s) if s.attacker == trigger_by))
                        .unwrap_or(0);
                    let end = queue
                        .iter()
                        .skip(start)
                        .position(|s| !matches!(s, Step::Swing(s) if s.attacker == trigger_by))
                        .map_or(queue.len(), |n| start + n);
                    ctx.combat.queue.insert(end, swing);
                    vec![]
                }
                None => vec![swing],
            }
        }
        HeldAction::Cast { spell, target } => {
            let target = if ctx.combat.get(reactor).spell(spell).is_some_and(crate::content::data::SpellDef::targets_ally) {
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
        HeldAction::Dash | HeldAction::Disengage => {
            // Away at once, as far as one band from every enemy: the held action's move (the
            // turn's own movement is untouched). A Disengage leaves every reach unprovoked.
            let intent = crate::readied::getaway(ctx.combat, reactor, action);
            if action == HeldAction::Disengage {
                ctx.combat.get_mut(reactor).conditions.disengaged = true;
                ctx.emit(Event::Disengaged { id: reactor });
            } else {
                let movement = ctx.combat.get(reactor).speed();
                ctx.emit(Event::Dashed { id: reactor, movement });
            }
            let difficult = ctx.combat.difficult_for(reactor);
            match crate::movement::plan(intent, &ctx.combat.bands_of(reactor), difficult) {
                Ok(plan) => crate::actions::departure(ctx, reactor, plan),
                Err(_) => vec![],
            }
        }
        HeldAction::Help { ally } => {
            let r = ctx.combat.get(reactor);
            if let Some(ally) = crate::readied::helped_ally(ctx.combat, r, ally, observed) {
                ctx.combat.get_mut(ally).conditions.helped = true;
                ctx.emit(Event::Helped { id: reactor, ally });
            }
            vec![]
        }
        HeldAction::Hide => {
            crate::actions::hide(ctx, reactor);
            vec![]
        }
        HeldAction::Shove { target, mode } => {
            crate::actions::shove(ctx, reactor, target.unwrap_or(trigger_by), mode);
            vec![]
        }
        HeldAction::Grapple { target } => {
            crate::actions::grapple(ctx, reactor, target.unwrap_or(trigger_by));
            vec![]
        }
        HeldAction::UseItem { item, target } => {
            crate::actions::item_used(ctx, reactor, item, target, false).unwrap_or_default()
        }
    }
}

