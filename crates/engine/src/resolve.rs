//! Resolution: `apply` and the queue of steps an action resolves through (DESIGN "Suspension").
//! A trigger that offers a player a reaction opens a window and stops the queue; `React` or
//! `Pass` closes it and the queue continues. An `Err` leaves the combat and the dice untouched.

use chrono::{DateTime, Utc};

use crate::dice::Dice;
use crate::reactions;
use crate::state::combat::Combat;
use crate::state::combatant::Controller;
use crate::state::command::{Actor, Command};
use crate::state::event::{Event, Outcome};
use crate::state::ids::CombatantId;
use crate::state::reactions::{ReactionTrigger, ReactionWindow};
pub use crate::state::step::{PendingDamage, SpellCast, Step, Strike, Swing};
use crate::state::violation::RuleViolation;
use crate::{actions, attack, behaviour, casting, timing};

pub use crate::ctx::Ctx;

/// Applies `command` from `actor`: returns what happened, or why not — leaving `combat` and
/// `dice` untouched on `Err`.
///
/// Check, then change: every command's handler validates before it writes anything, so a refusal
/// needs no copy of the fight to roll back; only the dice, which a check may have rolled, are put
/// back. Debug builds (every test) keep a copy anyway and assert a refusal changed nothing.
#[allow(clippy::needless_pass_by_value)] // commands are handed over, as in DESIGN's signature
pub fn apply(
    combat: &mut Combat,
    actor: Actor,
    command: Command,
    dice: &mut Dice,
    now: DateTime<Utc>,
) -> Result<Vec<Event>, RuleViolation> {
    #[cfg(debug_assertions)]
    let before = combat.clone();
    let position = dice.position();
    let mut ctx = Ctx {
        combat,
        dice,
        now,
        // Allocated at the first event (room for four: most commands say a few things), or
        // sized for a lone swing by `dispatch`.
        events: Vec::new(),
    };
    if let Err(violation) = dispatch(&mut ctx, actor, &command) {
        ctx.combat.first_swing = None;
        if ctx.dice.position() != position {
            *ctx.dice = Dice::at(position);
        }
        #[cfg(debug_assertions)]
        assert!(
            *ctx.combat == before,
            "refusing {command:?} ({violation:?}) changed the fight: handlers must check, then change"
        );
        return Err(violation);
    }
    run(&mut ctx);
    Ok(ctx.events)
}

fn dispatch(ctx: &mut Ctx, actor: Actor, command: &Command) -> Result<(), RuleViolation> {
    if ctx.combat.outcome.is_some() {
        return Err(RuleViolation::CombatOver);
    }
    if *command == Command::Begin {
        return timing::begin(ctx);
    }
    if let Command::Join { combatant } = command {
        return crate::join::join(ctx, actor, combatant);
    }
    // TDGS: an Instant may be declared before the scene starts, for round 1's Instant phase.
    if let (Command::DeclareInstant(instant), Actor::Combatant(id)) = (command, actor) {
        return timing::model(ctx.combat.ruleset).declare_instant(ctx, id, *instant);
    }
    if !ctx.combat.started {
        return Err(RuleViolation::NotStarted);
    }
    match (command, actor) {
        (Command::React(_) | Command::Pass, _) => {
            return reactions::answer(ctx, actor, command);
        }
        (Command::AdjustHp { target, delta }, Actor::Director) => {
            return actions::adjust_hp(ctx, *target, *delta);
        }
        (Command::EndCombat, Actor::Director) => {
            crate::outcome::finish(ctx, Outcome::Halted);
            return Ok(());
        }
        (Command::AdjustHp { .. } | Command::EndCombat, Actor::Combatant(_)) => {
            return Err(RuleViolation::NotEligible {
                ability: "GM tools".into(),
                requirement: "the Manage Server permission".into(),
            });
        }
        _ => {}
    }
    if let Some(window) = &ctx.combat.window {
        return Err(RuleViolation::AwaitingReaction {
            reactor: ctx.combat.get(window.reactor).name.clone(),
        });
    }
    let Actor::Combatant(id) = actor else {
        return Err(RuleViolation::NotInCombat);
    };
    ctx.combat.find(id)?;
    let current = ctx.combat.current().ok_or(RuleViolation::CombatOver)?;
    if current != id {
        return Err(RuleViolation::NotYourTurn {
            current: ctx.combat.get(current).name.clone(),
        });
    }
    let mut steps = perform_setting_aside(ctx, id, command)?;
    if let Some(swing) = ctx.combat.first_swing.take() {
        if steps.is_empty()
            && ctx.combat.queue.is_empty()
            && ctx.combat.window.is_none()
            && ctx.combat.outcome.is_none()
        {
            // An attack's lone swing runs now, as `run` would run it next (nothing queued, no
            // window, the fight goes on), with no `Vec` or queue for it. Its events: the roll
            // and, on a hit, the damage.
            if ctx.events.capacity() == 0 {
                ctx.events.reserve_exact(2);
            }
            attack::swing(ctx, swing);
            return Ok(());
        }
        steps.insert(0, Step::Swing(swing));
    }
    ctx.push_front(steps);
    Ok(())
}

/// Validates and starts `command` for the combatant whose turn it is; the steps returned run next.
/// Used for players' commands and for AI decisions alike.
pub(crate) fn perform(ctx: &mut Ctx, id: CombatantId, command: &Command) -> Result<Vec<Step>, RuleViolation> {
    let result = perform_setting_aside(ctx, id, command);
    match (ctx.combat.first_swing.take(), result) {
        (Some(swing), Ok(mut steps)) => {
            steps.insert(0, Step::Swing(swing));
            Ok(steps)
        }
        (_, result) => result,
    }
}

/// `perform`, but an Attack action's lone swing may be set aside in `Combat::first_swing`.
fn perform_setting_aside(ctx: &mut Ctx, id: CombatantId, command: &Command) -> Result<Vec<Step>, RuleViolation> {
    debug_assert!(ctx.combat.first_swing.is_none());
    if !ctx.combat.get(id).is_standing() {
        return Err(RuleViolation::Incapacitated);
    }
    match command {
        Command::EndTurn => Ok(vec![Step::EndTurn(id)]),
        Command::Delay { after } => timing::model(ctx.combat.ruleset).delay(ctx, id, *after),
        Command::Move(intent) => timing::within_budget(ctx, id, command, |ctx| actions::move_to(ctx, id, *intent)),
        Command::Crawl(intent) => timing::within_budget(ctx, id, command, |ctx| actions::crawl_to(ctx, id, *intent)),
        Command::Bonus(bonus) => {
            timing::within_budget(ctx, id, command, |ctx| crate::bonus_actions::perform(ctx, id, *bonus))
        }
        Command::Cast { spell, target } => {
            timing::within_budget(ctx, id, command, |ctx| casting::cast(ctx, id, *spell, *target))
        }
        _ => timing::within_budget(ctx, id, command, |ctx| actions::perform(ctx, id, command)),
    }
}

/// Runs queued steps until the queue is empty (a player must act), a window opens, or the fight ends.
pub(crate) fn run(ctx: &mut Ctx) {
    while ctx.combat.window.is_none() && ctx.combat.outcome.is_none() {
        let Some(step) = ctx.combat.queue.pop_front() else {
            // A model whose fight moves on by itself (the tick timeline) runs until a player must
            // commit.
            match timing::model(ctx.combat.ruleset).idle(ctx) {
                timing::Idle::Advanced => continue,
                timing::Idle::Halted => break,
                timing::Idle::AwaitsCommand => {}
            }
            // A combatant who fell on its own turn cannot end it: the turn passes.
            match ctx.combat.current() {
                Some(id) if !ctx.combat.get(id).is_standing() => {
                    ctx.combat.queue.push_back(Step::EndTurn(id));
                    continue;
                }
                _ => break,
            }
        };
        match step {
            Step::StartTurn(id) => timing::start_turn(ctx, id),
            Step::EndTurn(id) => timing::end_turn(ctx, id),
            Step::Think(id) => think(ctx, id),
            Step::Offer { reactor, trigger } => offer(ctx, reactor, trigger),
            Step::Arrive { mover, plan } => actions::arrive(ctx, mover, &plan),
            Step::Swing(swing) => attack::swing(ctx, swing),
            Step::Damage(pending) => attack::land(ctx, pending),
            Step::Spell(cast) => casting::resolve(ctx, cast),
            Step::Counterspell {
                reactor,
                caster,
                spell,
                countered,
            } => {
                reactions::resolve_counterspell(ctx, reactor, caster, spell, countered);
            }
            Step::Ability { monster, ability } => crate::abilities::resolve(ctx, monster, usize::from(ability)),
            Step::Afflict {
                source,
                target,
                affliction,
            } => crate::statuses::afflict(ctx, source, target, affliction),
            own @ Step::BreakWindup { .. } => {
                timing::model(ctx.combat.ruleset).run_own_step(ctx, own);
            }
        }
    }
}

/// An AI-controlled combatant takes its next decision; an illegal choice ends its turn.
fn think(ctx: &mut Ctx, id: CombatantId) {
    if ctx.combat.current() != Some(id) || !ctx.combat.get(id).is_standing() {
        return;
    }
    let command = behaviour::decide(ctx.combat, id);
    let steps = match command {
        behaviour::Choice::Ability(i) => crate::abilities::start(ctx, id, i),
        behaviour::Choice::Do(command) if command != Command::EndTurn => match perform(ctx, id, &command) {
            Ok(mut steps) => {
                steps.push(Step::Think(id));
                steps
            }
            Err(_) => vec![Step::EndTurn(id)],
        },
        behaviour::Choice::Do(_) => vec![Step::EndTurn(id)],
    };
    ctx.push_front(steps);
}

/// Offers reactions: opens a window for a player, lets AI choose at once.
fn offer(ctx: &mut Ctx, reactor: CombatantId, trigger: ReactionTrigger) {
    let options = reactions::options(ctx.combat, reactor, &trigger);
    if options.is_empty() {
        return;
    }
    match ctx.combat.get(reactor).controller {
        Controller::Player(_) => {
            ctx.emit(Event::ReactionOffered {
                reactor,
                trigger: trigger.clone(),
                options: options.clone(),
            });
            ctx.combat.window = Some(ReactionWindow::new(reactor, trigger, options));
        }
        Controller::Ai(_) => {
            if let Some(choice) = behaviour::choose_reaction(ctx.combat, reactor, &trigger, &options) {
                let steps = reactions::take(ctx, reactor, choice, &trigger);
                ctx.push_front(steps);
            }
        }
    }
}
