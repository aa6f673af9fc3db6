//! Taking a reaction (seed 000 §2.3, §4, §5): what each chosen reaction does to the action it
//! interrupts, and answering an open window with `React` or `Pass`.

use crate::combatant::CombatantId;
use crate::command::{Actor, Command};
use crate::content::{Ability, Spell};
use crate::dice::{DiceExpr, RollMode};
use crate::event::{AttackKind, Event};
use crate::multiattack;
use crate::reactions::{ReactionKind, ReactionTrigger};
use crate::readied::HeldAction;
use crate::resolve::{Ctx, Step, Swing};
use crate::timing::gogobee::record_death_save;
use crate::violation::RuleViolation;

/// Answers the open window: the reactor reacts or passes; the Director may pass on a timeout.
pub fn answer(ctx: &mut Ctx, actor: Actor, command: &Command) -> Result<(), RuleViolation> {
    let Some(window) = ctx.combat.window.clone() else {
        return Err(RuleViolation::NoReactionPending);
    };
    match actor {
        Actor::Combatant(id) if id != window.reactor => {
            ctx.combat.find(id)?;
            return Err(RuleViolation::NotYourReaction {
                reactor: ctx.combat.get(window.reactor).name.clone(),
            });
        }
        Actor::Director if command != &Command::Pass => {
            return Err(RuleViolation::NotYourReaction {
                reactor: ctx.combat.get(window.reactor).name.clone(),
            });
        }
        _ => {}
    }
    if let Command::React(kind) = command {
        if !window.options.contains(kind) {
            let offered: Vec<&str> = window.options.iter().map(|k| k.label()).collect();
            return Err(RuleViolation::ReactionNotOffered {
                offered: offered.join(", "),
            });
        }
        ctx.combat.window = None;
        let steps = take(ctx, window.reactor, *kind, window.trigger_for(*kind));
        ctx.push_front(steps);
    } else {
        ctx.combat.window = None;
        ctx.emit(Event::ReactionPassed {
            reactor: window.reactor,
        });
    }
    Ok(())
}

/// Reduces the next pending damage to `target` by `by` (Parry, Interception) or by a function.
fn reduce_pending(
    ctx: &mut Ctx,
    target: CombatantId,
    reactor: CombatantId,
    kind: ReactionKind,
    reduce: impl FnOnce(i32) -> i32,
) {
    let pending = ctx.combat.queue.iter_mut().find_map(|step| match step {
        Step::Damage(p) if p.target == target => Some(p),
        _ => None,
    });
    if let Some(p) = pending {
        let before = p.amount;
        p.amount = reduce(before).clamp(0, before);
        let (amount, remaining) = (before - p.amount, p.amount);
        ctx.emit(Event::DamageReduced {
            target,
            by: reactor,
            reaction: kind,
            amount,
            remaining,
        });
    }
}

/// Takes reaction `kind`: spends the reaction and returns what resolves before the interrupted action continues.
pub fn take(ctx: &mut Ctx, reactor: CombatantId, kind: ReactionKind, trigger: &ReactionTrigger) -> Vec<Step> {
    // The model's cost first: on the tick timeline the reaction's own cycle starts here.
    crate::timing::spend_reaction(ctx, reactor, kind, trigger);
    ctx.emit(Event::ReactionTaken {
        reactor,
        reaction: kind,
    });
    match (kind, trigger) {
        (ReactionKind::OpportunityAttack, ReactionTrigger::LeavesMelee { mover }) => {
            let r = ctx.combat.get(reactor);
            match multiattack::opportunity_strike(ctx.combat, r, *mover) {
                Some(strike) => vec![Step::Swing(Swing {
                    attacker: reactor,
                    target: *mover,
                    strike,
                    kind: AttackKind::Opportunity,
                    swing: 1,
                    of: 1,
                    declared: false,
                })],
                None => vec![],
            }
        }
        (ReactionKind::Parry, ReactionTrigger::Hit { target, .. }) => {
            let dex = ctx.combat.get(reactor).modifier(Ability::Dex);
            let roll = DiceExpr::new(1, 8, dex).roll(ctx.dice, false);
            reduce_pending(ctx, *target, reactor, kind, |d| d - roll);
            vec![]
        }
        (ReactionKind::UncannyDodge, ReactionTrigger::Hit { target, .. }) => {
            reduce_pending(ctx, *target, reactor, kind, |d| d / 2);
            vec![]
        }
        (ReactionKind::Interception, ReactionTrigger::Hit { target, .. }) => {
            let prof = ctx.combat.get(reactor).proficiency();
            let roll = DiceExpr::new(1, 10, prof).roll(ctx.dice, false);
            reduce_pending(ctx, *target, reactor, kind, |d| d - roll);
            vec![]
        }
        (
            ReactionKind::Evasion,
            ReactionTrigger::FailedDexSave {
                target, half_on_save, ..
            },
        ) => {
            let half = *half_on_save;
            reduce_pending(ctx, *target, reactor, kind, |d| if half { d / 2 } else { 0 });
            vec![]
        }
        (ReactionKind::ShieldOfFaith, ReactionTrigger::DroppedToZero { ally }) => {
            ctx.combat.get_mut(reactor).pools.divine_favor -= 1;
            if ctx.combat.get(*ally).death.dying() {
                let d20 = ctx.dice.d20(RollMode::Advantage);
                record_death_save(ctx, *ally, d20);
            }
            vec![]
        }
        (ReactionKind::Counterspell, ReactionTrigger::CastsSpell { caster, spell }) => {
            let slot = ctx.combat.get(reactor).lowest_slot(3);
            if let Some(level) = slot {
                ctx.combat.get_mut(reactor).pools.spell_slots[level as usize - 1] -= 1;
            }
            ctx.emit(Event::SpellCast {
                caster: reactor,
                spell: Spell::Counterspell,
                slot,
                target: Some(*caster),
            });
            let mut steps = ctx.offers_to_all(&ReactionTrigger::CastsSpell {
                caster: reactor,
                spell: Spell::Counterspell,
            });
            steps.extend(ctx.readied_offers(&crate::readied::Observed::CastsSpell {
                caster: reactor,
                spell: Spell::Counterspell,
            }));
            steps.push(Step::Counterspell {
                reactor,
                caster: *caster,
                spell: *spell,
                countered: false,
            });
            steps
        }
        (ReactionKind::Readied, ReactionTrigger::Readied { observed }) => fire_readied(ctx, reactor, observed.actor()),
        (ReactionKind::Cancel | ReactionKind::Exploit, ReactionTrigger::Phase { actor, .. }) => {
            crate::timing::ticks::reactive_strike(ctx, reactor, kind, *actor)
        }
        _ => vec![],
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

/// A Counterspell's check: INT against DC 10 + the spell's level; success cancels the spell
/// (or, in a chain, the counterspell it answers).
pub fn resolve_counterspell(ctx: &mut Ctx, reactor: CombatantId, caster: CombatantId, spell: Spell, countered: bool) {
    if countered {
        return;
    }
    let dc = 10 + spell.level() as i32;
    let bonus = ctx.combat.get(reactor).modifier(Ability::Int);
    let roll = ctx.dice.d20(RollMode::Normal).natural as i32 + bonus;
    if roll < dc {
        ctx.emit(Event::CounterspellFailed {
            caster,
            by: reactor,
            roll,
            dc,
        });
        return;
    }
    ctx.emit(Event::SpellCountered {
        caster,
        spell,
        by: reactor,
    });
    for step in &mut ctx.combat.queue {
        match step {
            Step::Spell(cast) if cast.caster == caster && cast.spell == spell && !cast.countered => {
                cast.countered = true;
                return;
            }
            Step::Counterspell {
                reactor: r, countered, ..
            } if *r == caster && spell == Spell::Counterspell && !*countered => {
                *countered = true;
                return;
            }
            _ => {}
        }
    }
}
