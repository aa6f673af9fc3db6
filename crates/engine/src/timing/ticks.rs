//! The tick timeline (seed 004 "Resolution, Initiative, and Reactions"): every action runs a
//! prep / exec / recover (PER) cycle measured in ticks. Each tick, actors in initiative order
//! process their action (a player with none chosen halts the game until they commit), then the
//! reactions the tick set off are collected — an actor in its own exec collects none — and
//! resolved in initiative order, each actor using only its best one. A reaction may cancel the
//! target's prep (only for actors who can read it), mitigate its exec, or exploit its recover;
//! reacting pauses or cancels the reactor's own action per that action's interruptibility.
//! Initiative is rolled once, with tiebreakers DEX → level → PCs over monsters → a coin
//! pre-rolled once per combat; it shortens prep and recover, never exec; a small seeded jitter
//! varies each cycle. The whole fight is deterministic and replayable from its seed.
//!
//! **Mapping onto the shared engine**:
//! - *Initiative* = d20 + DEX modifier, rolled once at the start. It takes
//!   ⌊max(0, initiative − 10) / 5⌋ ticks off each cycle — from recover first, then prep.
//! - *Jitter*: each cycle's recover gets d3 − 2 ticks (−1, 0 or +1, never below 0).
//! - *The coin*: one d2 at the start; heads (2) puts the lower id first among fully tied
//!   actors, tails the higher.
//! - *PER table*: [`base_cycle`] (e.g. Attack 3/1/3 pause, a spell 3 + level / 1 / 3 cancel,
//!   Move 1/2/1 pause, a reactive strike 0/1/4, a mitigating reaction 0/0/3).
//! - *Effects* happen when exec starts: the shared rules (`resolve::perform`) run then, with the
//!   action and bonus slots open; a command that has become illegal by then fizzles. Commands
//!   are checked when committed too (a dry run), so a player learns at once that it is illegal.
//! - *Reading prep*: proficiency in Perception (every class but the mage; monsters with a
//!   Perception bonus).
//! - *Cancel* (target in prep) and *Exploit* (target in recover) are reactive strikes against an
//!   enemy in reach; a Cancel that hits breaks the windup, an Exploit strikes with advantage.
//!   *Mitigation* in exec is GogoBee's reactions (Parry, Uncanny Dodge, Interception, Evasion,
//!   Counterspell, Shield of Faith, and Opportunity Attacks on "leaving"), offered while the
//!   action executes. Every reaction runs its own PER; its recover is the throttle.
//! - *Best queued reaction*: a monster ranks by profile (`behaviour::choose_queued`: most
//!   break a windup before exploiting a recover, a skirmisher takes the opening first, a brute
//!   the weakest enemy, a caster a spellcaster's windup; the earlier actor first); a player with several queued is offered the choice — one option per kind, each
//!   answering the best of its kind ([`ReactionWindow::choices`]) — and the rest are discarded.
//! - *Players*: `EndTurn` means "wait a tick". Ready, Delay and Instants belong to other models.
//! - *Rounds*: `Combat.round` counts blocks of 10 ticks; the fight is halted after 100.

use crate::content::data::SpellDef;

use crate::content::Skill;
use crate::ctx::Ctx;
use crate::reactions;
use crate::state::combat::{Combat, MAX_ROUNDS};
use crate::state::combatant::{Combatant, Controller};
use crate::state::command::Command;
use crate::state::event::Placement;
use crate::state::event::{Event, InitiativeEntry, Outcome};
use crate::state::ids::CombatantId;
use crate::state::ids::Ruleset;
use crate::state::reactions::{ReactionKind, ReactionTrigger, ReactionWindow};
use crate::state::resources::Resource;
use crate::state::step::{Step, Swing};
use crate::state::violation::RuleViolation;
use crate::{behaviour, multiattack};

pub use crate::state::ticks::{Activity, Cycle, Interruptibility, Observation, Phase, TicksSheet, TimelineState};

/// Ticks in one `Combat.round`.
pub const TICKS_PER_ROUND: u64 = 10;

impl Activity {
    pub fn describe(&self) -> String {
        match self {
            Activity::Command(command) => super::ctb::describe(command),
            Activity::Wait => "Wait".into(),
            Activity::Breath => "Breath Weapon".into(),
            Activity::Ability { name, .. } => name.clone(),
            Activity::Downed => "Death Save".into(),
            Activity::Stunned => "Stunned".into(),
            Activity::Reaction { kind, .. } => kind.label().into(),
        }
    }
}

/// The PER cycle of an activity before initiative and jitter: (prep, exec, recover,
/// interruptibility). A spell's cycle grows with its level as `spells` (the caster's) define it.
pub fn base_cycle(activity: &Activity, spells: &[SpellDef]) -> (u32, u32, u32, Interruptibility) {
    use Interruptibility::{Cancel, Pause};
    match activity {
        Activity::Command(command) => match command {
            Command::Attack { .. } => (3, 1, 3, Pause),
            Command::Grapple { .. } | Command::Shove { .. } => (2, 1, 3, Pause),
            Command::Cast { spell, .. } => {
                let def = spells.iter().find(|s| spell.names(&s.name));
                let bonus = def.is_some_and(|s| s.casting_time == crate::content::CastingTime::BonusAction);
                (if bonus { 1 } else { 3 } + def.map_or(0, |s| s.level), 1, 3, Cancel)
            }
            Command::Move(_) | Command::Crawl(_) => (1, 2, 1, Pause),
            Command::Dash | Command::Disengage => (0, 1, 1, Pause),
            Command::Dodge => (0, 1, 2, Pause),
            Command::Hide | Command::Stabilize { .. } => (1, 1, 2, Cancel),
            Command::Search => (2, 1, 2, Pause),
            Command::Help { .. } | Command::UseItem { .. } => (1, 1, 2, Pause),
            Command::Bonus(_) => (0, 1, 1, Pause),
            _ => (1, 1, 1, Pause),
        },
        Activity::Wait => (0, 0, 1, Pause),
        Activity::Breath | Activity::Ability { .. } => (2, 1, 4, Cancel),
        Activity::Downed => (0, 1, 5, Pause),
        Activity::Stunned => (3, 1, 3, Pause),
        Activity::Reaction { kind, .. } => {
            let (prep, exec, recover) = kind.reaction().cycle();
            (prep, exec, recover, Pause)
        }
    }
}

/// Ticks initiative takes off a cycle: ⌊max(0, initiative − 10) / 5⌋.
pub fn initiative_bonus(initiative: i32) -> u32 {
    ((initiative - 10).max(0) / 5).unsigned_abs()
}

/// A cycle's durations: initiative shortens recover then prep (never exec); `jitter` (−1..=1)
/// lands on recover, never below 0.
pub fn durations(activity: &Activity, spells: &[SpellDef], initiative: i32, jitter: i32) -> Cycle {
    let (prep, exec, recover, interruptible) = base_cycle(activity, spells);
    let mut cut = initiative_bonus(initiative);
    let off_recover = cut.min(recover);
    cut -= off_recover;
    let prep = prep - cut.min(prep);
    let recover = (i64::from(recover - off_recover) + i64::from(jitter)).max(0);
    Cycle {
        activity: activity.clone(),
        prep,
        exec,
        recover: u32::try_from(recover).unwrap_or(0),
        interruptible,
        elapsed: 0,
        entered: None,
        processed_at: None,
    }
}

/// A new cycle for `id`, with its seeded jitter.
fn cycle_for(ctx: &mut Ctx, id: CombatantId, activity: &Activity) -> Cycle {
    let jitter = ctx.dice.die(3) as i32 - 2;
    let c = ctx.combat.get(id);
    durations(activity, c.known_spells(), c.initiative, jitter)
}

/// Same-tick priority: initiative, then DEX score, then level, then PCs over monsters, then the
/// pre-rolled coin (heads: lower id first).
pub fn initiative_order(combat: &Combat, coin: bool) -> Vec<CombatantId> {
    let mut ids: Vec<&Combatant> = combat.combatants.iter().collect();
    ids.sort_by(|a, b| {
        b.initiative
            .cmp(&a.initiative)
            .then(b.abilities.dex.cmp(&a.abilities.dex))
            .then(b.level().cmp(&a.level()))
            .then(b.is_character().cmp(&a.is_character()))
            .then(if coin { a.id.cmp(&b.id) } else { b.id.cmp(&a.id) })
    });
    ids.into_iter().map(|c| c.id).collect()
}

/// Whether `c` can read an action's prep for what it is (Perception proficiency).
pub fn reads_prep(c: &Combatant) -> bool {
    c.proficient_in(Skill::Perception)
}

/// `Begin`: initiative is rolled once, the coin is pre-rolled, and the timeline starts at tick 0.
pub fn begin(ctx: &mut Ctx) -> Result<(), RuleViolation> {
    crate::turn::can_begin(ctx)?;
    let mut entries = Vec::new();
    for i in 0..ctx.combat.combatants.len() {
        let id = ctx.combat.combatants[i].id;
        entries.push(super::roll_initiative(ctx, id));
        *ctx.combat.get_mut(id).ticks_mut() = TicksSheet::default();
    }
    let coin = ctx.dice.coin();
    let order = initiative_order(ctx.combat, coin);
    let mut rolled = Vec::new();
    for id in &order {
        rolled.extend(entries.iter().find(|e| e.id == *id).copied());
    }
    let c = &mut *ctx.combat;
    c.order = order;
    c.model.tick = 0;
    c.model.timeline = TimelineState {
        coin,
        ..TimelineState::default()
    };
    c.started = true;
    c.round = 1;
    c.turn = 0;
    ctx.emit(Event::InitiativeRolled { order: rolled });
    ctx.emit(Event::RoundStarted { round: 1 });
    Ok(())
}

/// Moves the timeline on by one unit of work; false when it must stop (a player must commit,
/// or the fight is over). Called by `resolve::run` whenever the step queue is empty.
pub fn pump(ctx: &mut Ctx) -> bool {
    if ctx.combat.outcome.is_some() || !ctx.combat.started {
        return false;
    }
    if ctx.combat.model.timeline.reacting {
        if !reaction_pass(ctx) {
            next_tick(ctx);
        }
        return true;
    }
    let cursor = ctx.combat.model.timeline.cursor;
    let Some(&id) = ctx.combat.order.get(cursor) else {
        ctx.combat.model.timeline.reacting = true;
        return true;
    };
    ctx.combat.turn = cursor;
    if ctx.combat.get(id).is_dead() {
        let sheet = ctx.combat.get_mut(id).ticks_mut();
        sheet.current = None;
        sheet.paused.clear();
        ctx.combat.model.timeline.cursor += 1;
        return true;
    }
    let downed = !ctx.combat.get(id).is_standing();
    let busy = ctx
        .combat
        .get(id)
        .ticks()
        .current
        .as_ref()
        .is_some_and(|c| !downed || c.activity == Activity::Downed);
    if !busy && !select(ctx, id) {
        return false;
    }
    process_tick(ctx, id);
    ctx.combat.model.timeline.cursor += 1;
    true
}

/// The next tick: the cursor returns to the first actor; a new round every 10 ticks.
fn next_tick(ctx: &mut Ctx) {
    let t = &mut ctx.combat.model.timeline;
    t.reacting = false;
    t.cursor = 0;
    t.observed.clear();
    ctx.combat.model.tick += 1;
    let round = u32::try_from(ctx.combat.model.tick / TICKS_PER_ROUND + 1).unwrap_or(u32::MAX);
    if round > ctx.combat.round {
        ctx.combat.round = round;
        if round > MAX_ROUNDS {
            crate::outcome::finish(ctx, Outcome::Halted);
            return;
        }
        ctx.emit(Event::RoundStarted { round });
    }
}

/// An actor with nothing in progress chooses: the downed roll for their lives, monsters choose
/// by profile, a player halts the game until they commit (false).
fn select(ctx: &mut Ctx, id: CombatantId) -> bool {
    let c = ctx.combat.get(id);
    if !c.is_standing() {
        let sheet = ctx.combat.get_mut(id).ticks_mut();
        sheet.current = None;
        sheet.paused.clear();
        let cycle = cycle_for(ctx, id, &Activity::Downed);
        ctx.combat.get_mut(id).ticks_mut().current = Some(cycle);
        return true;
    }
    if ctx.combat.model.timeline.awaiting == Some(id) {
        return false;
    }
    crate::turn::refresh_for_turn(ctx, id);
    // A Dash doubles the move it precedes: the player and the AI plan that move with it.
    let c = ctx.combat.get_mut(id);
    if c.ticks().dashed {
        c.resources.movement_total *= 2;
    }
    // A new cycle is this model's turn for status effects: they tick, and a stun spends the
    // cycle (as long as an Attack's) doing nothing.
    let lost = crate::turn::at_start(ctx, id);
    if ctx.combat.outcome.is_some() {
        return false;
    }
    if lost || !ctx.combat.get(id).is_standing() {
        let activity = if lost { Activity::Stunned } else { Activity::Downed };
        ctx.combat.get_mut(id).ticks_mut().paused.clear();
        let cycle = cycle_for(ctx, id, &activity);
        ctx.combat.get_mut(id).ticks_mut().current = Some(cycle);
        return true;
    }
    if let Controller::Player(_) = ctx.combat.get(id).controller {
        ctx.combat.model.timeline.awaiting = Some(id);
        let tick = ctx.combat.model.tick;
        ctx.emit(Event::AwaitingCommand { id, tick });
        return false;
    }
    crate::turn::upkeep_hooks(ctx, id);
    let activity = match behaviour::decide(ctx.combat, id) {
        behaviour::Choice::Ability(i) => Activity::Ability {
            index: u8::try_from(i).unwrap_or(0),
            name: ctx
                .combat
                .get(id)
                .stat_block()
                .and_then(|m| m.ability(i))
                .map_or_else(|| "Special Ability".to_owned(), |a| a.name.to_string()),
        },
        behaviour::Choice::Do(Command::EndTurn) => Activity::Wait,
        behaviour::Choice::Do(command) => {
            if dry_run(ctx, id, &command) {
                Activity::Command(command)
            } else {
                Activity::Wait
            }
        }
    };
    let cycle = cycle_for(ctx, id, &activity);
    ctx.combat.get_mut(id).ticks_mut().current = Some(cycle);
    true
}

/// Whether `command` would be legal for `id` now (nothing changes).
fn dry_run(ctx: &Ctx, id: CombatantId, command: &Command) -> bool {
    let mut combat = ctx.combat.clone();
    let mut dice = ctx.dice.clone();
    let mut probe = Ctx {
        combat: &mut combat,
        dice: &mut dice,
        now: ctx.now,
        events: Vec::new(),
    };
    probe.combat.model.timeline.executing = Some(id);
    crate::resolve::perform(&mut probe, id, command).is_ok()
}

/// A player commits `command`: it is checked now and its cycle starts; its effect comes at exec.
/// During exec (the timeline running the command) the shared rules just run.
pub fn within_budget(
    ctx: &mut Ctx,
    id: CombatantId,
    command: &Command,
    perform: impl FnOnce(&mut Ctx) -> Result<Vec<Step>, RuleViolation>,
) -> Result<Vec<Step>, RuleViolation> {
    if ctx.combat.model.timeline.executing == Some(id) {
        return perform(ctx);
    }
    if matches!(command, Command::Ready { .. }) {
        return Err(RuleViolation::NotInThisRuleset {
            command: "Ready".into(),
            ruleset: Ruleset::Ticks.name().into(),
        });
    }
    if ctx.combat.model.timeline.awaiting != Some(id) {
        return Err(RuleViolation::NotYourTurn {
            current: ctx.combat.get(id).name.clone(),
        });
    }
    {
        let mut combat = ctx.combat.clone();
        let mut dice = ctx.dice.clone();
        let mut probe = Ctx {
            combat: &mut combat,
            dice: &mut dice,
            now: ctx.now,
            events: Vec::new(),
        };
        probe.combat.model.timeline.executing = Some(id);
        perform(&mut probe)?;
    }
    commit(ctx, id, &Activity::Command(command.clone()));
    Ok(vec![])
}

fn commit(ctx: &mut Ctx, id: CombatantId, activity: &Activity) {
    ctx.combat.model.timeline.awaiting = None;
    let cycle = cycle_for(ctx, id, activity);
    ctx.combat.get_mut(id).ticks_mut().current = Some(cycle);
}

/// `EndTurn` on the timeline: the awaited player waits a tick.
pub fn end_turn(ctx: &mut Ctx, id: CombatantId) {
    if ctx.combat.model.timeline.awaiting == Some(id) {
        commit(ctx, id, &Activity::Wait);
    }
}

/// Processes one tick of `id`'s cycle: phases entered this tick (the effect at exec), then the
/// cycle ends when its ticks are used up (a paused action resumes).
fn process_tick(ctx: &mut Ctx, id: CombatantId) {
    let tick = ctx.combat.model.tick;
    let Some(mut cycle) = ctx.combat.get(id).ticks().current.clone() else {
        return;
    };
    if cycle.processed_at == Some(tick) {
        return;
    }
    cycle.processed_at = Some(tick);
    let target = cycle.phase_at(cycle.elapsed);
    let entering: Vec<Phase> = [Phase::Prep, Phase::Exec, Phase::Recover]
        .into_iter()
        .filter(|p| cycle.entered.is_none_or(|e| *p > e) && *p <= target)
        .filter(|p| *p != Phase::Prep || cycle.prep > 0)
        .collect();
    cycle.entered = Some(target);
    cycle.elapsed += 1;
    let done = cycle.elapsed >= cycle.total();
    let activity = cycle.activity.clone();
    let lengths = [cycle.prep, cycle.exec, cycle.recover];
    ctx.combat.get_mut(id).ticks_mut().current = Some(cycle);
    for phase in entering {
        let ticks = lengths[phase as usize];
        let shown = activity != Activity::Wait;
        let reaction = matches!(activity, Activity::Reaction { .. });
        if shown && !(reaction && phase == Phase::Exec) && (phase != Phase::Recover || ticks > 0) {
            ctx.emit(Event::PhaseStarted {
                id,
                action: activity.describe(),
                phase,
                ticks,
                tick,
            });
        }
        if phase == Phase::Exec {
            execute(ctx, id, &activity);
        }
        if shown && activity != Activity::Downed && phase != Phase::Exec {
            observe(ctx, id, phase);
        }
    }
    if done {
        let sheet = ctx.combat.get_mut(id).ticks_mut();
        if let Some(ended) = sheet.current.take_if(|c| c.processed_at == Some(tick)) {
            if ended.recover > 0 {
                sheet.recovered_at = Some(tick);
            }
            sheet.current = sheet.paused.pop();
            // A cycle of its own is this model's turn: it ends here (a reaction's is not).
            if !matches!(ended.activity, Activity::Reaction { .. } | Activity::Downed) {
                crate::turn::end_hooks(ctx, id);
                if ended.activity != Activity::Wait {
                    crate::legendary::after_turn(ctx, id);
                }
            }
        }
    }
}

/// The effect of an activity, when its exec starts.
fn execute(ctx: &mut Ctx, id: CombatantId, activity: &Activity) {
    match activity {
        Activity::Command(command) => {
            let speed = ctx.combat.get(id).speed();
            let c = ctx.combat.get_mut(id);
            let feet = if std::mem::take(&mut c.ticks_mut().dashed) {
                speed * 2
            } else {
                speed
            };
            c.resources.movement_used = 0;
            c.resources.movement_total = feet;
            ctx.combat.model.timeline.executing = Some(id);
            let result = crate::resolve::perform(ctx, id, command);
            ctx.combat.model.timeline.executing = None;
            match result {
                Ok(steps) => {
                    if *command == Command::Dash {
                        ctx.combat.get_mut(id).ticks_mut().dashed = true;
                    }
                    ctx.push_front(steps);
                }
                Err(why) => ctx.emit(Event::ActionFizzled {
                    id,
                    reason: why.to_string(),
                }),
            }
        }
        Activity::Breath | Activity::Ability { .. } => {
            let i = match activity {
                Activity::Ability { index, .. } => usize::from(*index),
                _ => 0,
            };
            let steps = crate::abilities::start(ctx, id, i);
            ctx.push_front(steps);
        }
        Activity::Downed => downed(ctx, id),
        Activity::Wait | Activity::Stunned | Activity::Reaction { .. } => {}
    }
}

/// A downed character's exec: a death save, or a step closer to waking.
fn downed(ctx: &mut Ctx, id: CombatantId) {
    let c = ctx.combat.get(id);
    if c.death.dying() {
        crate::death_saves::roll(ctx, id);
    } else if c.is_downed() {
        let c = ctx.combat.get_mut(id);
        c.death.wakes_in = c.death.wakes_in.saturating_sub(1);
        if c.death.wakes_in == 0 {
            c.hp = 1;
            c.death.revive(ctx.now);
            ctx.emit(Event::Woke { id });
        }
    }
}

/// The reaction `observer` may take on seeing `actor` in `phase`, if any: Cancel on prep (for
/// those who can read it), Exploit on recover — enemies in reach only, and never while the
/// observer is in its own exec.
pub fn reaction_for(combat: &Combat, observer: CombatantId, actor: CombatantId, phase: Phase) -> Option<ReactionKind> {
    let o = combat.get(observer);
    let a = combat.get(actor);
    if observer == actor || o.side == a.side || !o.is_standing() || a.is_dead() {
        return None;
    }
    if !may_react(o) {
        return None;
    }
    let reach = multiattack::strike_for(combat, o, actor, 1).is_some_and(|s| multiattack::reaches(combat, o, actor, s));
    if !reach {
        return None;
    }
    match phase {
        Phase::Prep if reads_prep(o) => Some(ReactionKind::Cancel),
        Phase::Recover => Some(ReactionKind::Exploit),
        _ => None,
    }
}

fn in_exec(c: &Combatant) -> bool {
    c.ticks().current.as_ref().is_some_and(|cy| cy.phase() == Phase::Exec)
}

/// Reaction collection after an actor's processing: every other actor that saw it enter `phase`.
fn observe(ctx: &mut Ctx, actor: CombatantId, phase: Phase) {
    let order = ctx.combat.order.clone();
    for observer in order {
        if reaction_for(ctx.combat, observer, actor, phase).is_some() {
            ctx.combat
                .model
                .timeline
                .observed
                .push(Observation { observer, actor, phase });
        }
    }
}

/// One reactor of the reaction pass: the first in initiative order with something queued uses
/// its best reaction; the rest are discarded. False when no one is left.
///
/// A monster ranks by profile ([`behaviour::choose_queued`]). A player is offered
/// the choice (seed 004: "the player is offered the choice"): one button per kind of reaction
/// they have queued, each answering the best observation of its kind (the earlier actor in
/// initiative order), plus Pass.
fn reaction_pass(ctx: &mut Ctx) -> bool {
    let order = ctx.combat.order.clone();
    let observed = &ctx.combat.model.timeline.observed;
    let Some(reactor) = order.into_iter().find(|id| observed.iter().any(|o| o.observer == *id)) else {
        return false;
    };
    let (mine, rest): (Vec<Observation>, Vec<Observation>) = observed.iter().partition(|o| o.observer == reactor);
    ctx.combat.model.timeline.observed = rest;
    let tick = ctx.combat.model.tick;
    let mut queued: Vec<Observation> = mine
        .into_iter()
        .filter(|o| {
            still_in(ctx.combat.get(o.actor), o.phase, tick)
                && reaction_for(ctx.combat, reactor, o.actor, o.phase).is_some()
        })
        .collect();
    queued.sort_by_key(|o| {
        (
            o.phase != Phase::Prep,
            ctx.combat.order.iter().position(|x| *x == o.actor),
        )
    });
    // The best queued reaction of each kind, best first.
    let mut choices: Vec<(ReactionKind, ReactionTrigger)> = Vec::new();
    for o in &queued {
        let trigger = ReactionTrigger::Phase {
            actor: o.actor,
            phase: o.phase,
        };
        for kind in reactions::options(ctx.combat, reactor, &trigger) {
            if !choices.iter().any(|(k, _)| *k == kind) {
                choices.push((kind, trigger.clone()));
            }
        }
    }
    let Some((_, best)) = choices.first().cloned() else {
        return true;
    };
    match ctx.combat.get(reactor).controller {
        Controller::Player(_) => {
            let options: Vec<ReactionKind> = choices.iter().map(|(k, _)| *k).collect();
            ctx.emit(Event::ReactionOffered {
                reactor,
                trigger: best.clone(),
                options: options.clone(),
            });
            let mut window = ReactionWindow::new(reactor, best, options);
            if choices.len() > 1 {
                window.choices = choices;
            }
            ctx.combat.window = Some(window);
        }
        Controller::Ai(_) => {
            // Every legal (reaction, trigger) queued, the earlier actor first: the profile ranks.
            let mut queued_reactions = Vec::new();
            for o in &queued {
                let trigger = ReactionTrigger::Phase {
                    actor: o.actor,
                    phase: o.phase,
                };
                let casting = ctx
                    .combat
                    .get(o.actor)
                    .ticks()
                    .current
                    .as_ref()
                    .is_some_and(|cy| matches!(cy.activity, Activity::Command(Command::Cast { .. })));
                for kind in reactions::options(ctx.combat, reactor, &trigger) {
                    queued_reactions.push(behaviour::Queued {
                        kind,
                        trigger: trigger.clone(),
                        casting,
                    });
                }
            }
            if let Some((choice, trigger)) = behaviour::choose_queued(ctx.combat, reactor, &queued_reactions) {
                let steps = crate::reactions::take(ctx, reactor, choice, &trigger);
                ctx.push_front(steps);
            }
        }
    }
    true
}

/// Whether `actor` is still in `phase`, which it entered this `tick`: its cycle is in it, or
/// (for recover) its cycle ended this tick in recover and nothing has started since — a
/// one-tick recover lasts the whole tick, so the reaction pass can still exploit it.
fn still_in(actor: &Combatant, phase: Phase, tick: u64) -> bool {
    let sheet = actor.ticks();
    match &sheet.current {
        Some(c) if c.processed_at == Some(tick) => c.phase() == phase,
        current => {
            current.as_ref().is_some_and(|c| c.phase() == phase)
                || (phase == Phase::Recover && sheet.recovered_at == Some(tick))
        }
    }
}

/// Taking any reaction on the timeline: the reactor's own action pauses or is cancelled (per its
/// interruptibility) and the reaction's PER cycle starts, its first tick processed at once (and
/// reported: the reaction's first phase starts at this tick).
pub fn begin_reaction_cycle(ctx: &mut Ctx, reactor: CombatantId, kind: ReactionKind, target: CombatantId) {
    let tick = ctx.combat.model.tick;
    let mut cycle = cycle_for(ctx, reactor, &Activity::Reaction { kind, target });
    let sheet = ctx.combat.get_mut(reactor).ticks_mut();
    if let Some(current) = sheet.current.take() {
        match current.interruptible {
            Interruptibility::Pause => sheet.paused.push(current),
            Interruptibility::Cancel => {
                let action = current.activity.describe();
                ctx.emit(Event::ActionCancelled {
                    id: reactor,
                    action,
                    by: None,
                });
            }
        }
    }
    // Its first tick: prep is 0, so exec (or, with no exec, recover) starts now.
    let phase = cycle.phase_at(0);
    cycle.entered = Some(phase);
    cycle.elapsed = 1;
    cycle.processed_at = Some(tick);
    ctx.emit(Event::PhaseStarted {
        id: reactor,
        action: cycle.activity.describe(),
        phase,
        ticks: if phase == Phase::Exec {
            cycle.exec
        } else {
            cycle.recover
        },
        tick,
    });
    if cycle.elapsed >= cycle.total() {
        let sheet = ctx.combat.get_mut(reactor).ticks_mut();
        sheet.current = sheet.paused.pop();
    } else {
        ctx.combat.get_mut(reactor).ticks_mut().current = Some(cycle);
    }
}

/// The strike of a Cancel or Exploit reaction (Exploit at advantage), then the Cancel's check.
pub fn reactive_strike(ctx: &mut Ctx, reactor: CombatantId, kind: ReactionKind, target: CombatantId) -> Vec<Step> {
    let r = ctx.combat.get(reactor);
    let Some(strike) = multiattack::strike_for(ctx.combat, r, target, 1) else {
        return vec![];
    };
    if kind == ReactionKind::Exploit {
        ctx.combat.get_mut(reactor).conditions.helped = true;
    }
    let mut steps = vec![Step::Swing(Swing {
        attacker: reactor,
        target,
        strike,
        kind: crate::state::event::AttackKind::Opportunity,
        swing: 1,
        of: 1,
        declared: true,
    })];
    if kind == ReactionKind::Cancel {
        steps.push(Step::BreakWindup { reactor, target });
    }
    steps
}

/// A Cancel that hit breaks the target's windup: its action in prep is lost.
pub fn break_windup(ctx: &mut Ctx, reactor: CombatantId, target: CombatantId) {
    if ctx.combat.model.timeline.last_swing != Some((reactor, target, true)) {
        return;
    }
    let sheet = ctx.combat.get_mut(target).ticks_mut();
    if let Some(current) = sheet.current.take_if(|c| c.phase() == Phase::Prep) {
        sheet.current = sheet.paused.pop();
        ctx.emit(Event::ActionCancelled {
            id: target,
            action: current.activity.describe(),
            by: Some(reactor),
        });
    }
}

/// A newcomer rolls initiative once (d20 + DEX), fixed for the fight, and takes its place in the
/// tick order by the same tiebreakers; it is processed from its place on — this tick if the
/// cursor has not passed it, else from the next.
fn place_newcomer(ctx: &mut Ctx, id: CombatantId) -> Placement {
    let InitiativeEntry { roll, total, .. } = super::roll_initiative(ctx, id);
    *ctx.combat.get_mut(id).ticks_mut() = TicksSheet::default();
    let coin = ctx.combat.model.timeline.coin;
    let cursor = ctx.combat.model.timeline.cursor;
    let at_cursor = ctx.combat.order.get(cursor).copied();
    let order = initiative_order(ctx.combat, coin);
    let combat = &mut *ctx.combat;
    combat.order = order;
    let cursor = match at_cursor {
        Some(next) => combat.order.iter().position(|&o| o == next).unwrap_or(0),
        None => combat.order.len(),
    };
    combat.model.timeline.cursor = cursor;
    combat.turn = cursor.min(combat.order.len().saturating_sub(1));
    Placement::Initiative { roll, total }
}

/// The tick timeline (seed 004): PER cycles; the budget is the cycle in progress.
pub struct Ticks;

impl super::TimingModel for Ticks {
    /// The reactions one tick sets off (the opportunity attacks of one move among them) resolve
    /// in initiative order (seed 004 "Reaction pass"): the fixed order, from its start, whoever
    /// is acting.
    fn reaction_order(&self, combat: &Combat) -> Vec<CombatantId> {
        if combat.order.is_empty() {
            return combat.initiative_from_current();
        }
        combat.order.clone()
    }

    fn swung(&self, combat: &mut Combat, attacker: CombatantId, target: CombatantId, hit: bool) {
        combat.model.timeline.last_swing = Some((attacker, target, hit));
    }

    fn idle(&self, ctx: &mut Ctx) -> super::Idle {
        if pump(ctx) {
            super::Idle::Advanced
        } else {
            super::Idle::Halted
        }
    }

    fn run_own_step(&self, ctx: &mut Ctx, step: Step) {
        if let Step::BreakWindup { reactor, target } = step {
            break_windup(ctx, reactor, target);
        }
    }

    fn begin(&self, ctx: &mut Ctx) -> Result<(), RuleViolation> {
        begin(ctx)
    }

    fn place_newcomer(&self, ctx: &mut Ctx, id: CombatantId) -> Placement {
        place_newcomer(ctx, id)
    }

    // The timeline has no turns: actors choose when their cycle ends.
    fn start_turn(&self, _ctx: &mut Ctx, _id: CombatantId) {}

    fn end_turn(&self, ctx: &mut Ctx, id: CombatantId) {
        end_turn(ctx, id);
    }

    fn within_budget(
        &self,
        ctx: &mut Ctx,
        id: CombatantId,
        command: &Command,
        perform: &mut dyn FnMut(&mut Ctx) -> Result<Vec<Step>, RuleViolation>,
    ) -> Result<Vec<Step>, RuleViolation> {
        within_budget(ctx, id, command, perform)
    }

    fn has_slot(&self, c: &Combatant, slot: Resource) -> bool {
        match slot {
            // The committed cycle is the budget: its command runs whole at exec.
            Resource::Action | Resource::BonusAction | Resource::Reaction => true,
            Resource::Movement => c.resources.movement_left() > 0,
        }
    }

    fn spend_slot(&self, c: &mut Combatant, slot: Resource) {
        if slot == Resource::Movement {
            c.resources.spend(slot);
        }
    }

    fn may_react(&self, _combat: &Combat, reactor: &Combatant, _kind: ReactionKind) -> bool {
        may_react(reactor)
    }

    fn spend_reaction(&self, ctx: &mut Ctx, reactor: CombatantId, kind: ReactionKind, trigger: &ReactionTrigger) {
        begin_reaction_cycle(ctx, reactor, kind, trigger.source());
    }
}

/// Whether `c` may react now: standing, not in its own exec (committed), and not already in a
/// reaction's cycle (the reaction's own PER is the throttle: no reacting to reactions mid-cycle).
pub fn may_react(c: &Combatant) -> bool {
    let in_reaction = c
        .ticks()
        .current
        .as_ref()
        .is_some_and(|cy| matches!(cy.activity, Activity::Reaction { .. }));
    c.is_standing() && !in_exec(c) && !in_reaction
}
