//! Timing models (DESIGN "Timing models"): who acts when, what a turn's budget is, what each
//! action costs, and whether a reactor may react now. GogoBee's own model is the default; the
//! combat's [`Ruleset`] picks one, and `resolve` asks this module, which dispatches to it.
//!
//! | model | next actor | budget | reactions |
//! |---|---|---|---|
//! | [`gogobee`] | d20 + DEX, rounds | action, bonus, reaction, feet | one, reset on your turn |
//! | [`tdgs`] | REF → LUK → d2, Instant phase | 1 action + 1 step + free actions | Interrupts by ability, per round/scene/day |
//! | [`ctb`] | charge race to 100 | AP = 3 + ⌊speed / 5⌋, cooldowns | one, reset on your turn |
//! | [`ticks`] | a tick loop in initiative order | one PER cycle at a time | gated by your phase and theirs |

pub mod ctb;
pub mod gogobee;
pub mod tdgs;
pub mod ticks;

use crate::ctx::Ctx;
use crate::state::combat::Combat;
use crate::state::combatant::Combatant;
use crate::state::command::Command;
use crate::state::event::Placement;
use crate::state::ids::CombatantId;
use crate::state::ids::Ruleset;
use crate::state::reactions::{ReactionKind, ReactionTrigger};
use crate::state::resources::Resource;
use crate::state::step::Step;
use crate::state::violation::RuleViolation;

pub use crate::state::ModelState;
use crate::state::tdgs::Instant;

/// What a fight does when no step is queued ([`TimingModel::idle`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Idle {
    /// Turn-based: the combatant whose turn it is must act.
    AwaitsCommand,
    /// The model moved the fight on by itself (one tick's work).
    Advanced,
    /// The model waits until a player commits.
    Halted,
}

fn not_in_this_ruleset(command: &str, combat: &Combat) -> RuleViolation {
    RuleViolation::NotInThisRuleset {
        command: command.into(),
        ruleset: combat.ruleset.name().into(),
    }
}

/// A timing model (DESIGN "Timing models"): one implementation per seed, each owning who acts
/// next, the budget a turn is given and what each command costs from it, whether a reactor may
/// react now, and where a newcomer goes. The shared rules (attack, damage, movement, death saves,
/// the outcome) ask the model through [`check_slot`] and [`spend_slot`] and never name one.
pub trait TimingModel: Sync {
    /// `Begin`: fixes the order (or starts the race) and starts the first turn.
    fn begin(&self, ctx: &mut Ctx) -> Result<(), RuleViolation>;

    /// A combatant joined a fight already begun (`Command::Join`): the model gives it its place
    /// by its seed's rule, without disturbing whose turn it is.
    fn place_newcomer(&self, ctx: &mut Ctx, id: CombatantId) -> Placement;

    /// A turn starts: the model hands out the turn's budget.
    fn start_turn(&self, ctx: &mut Ctx, id: CombatantId);

    /// A turn ends: the model picks who acts next.
    fn end_turn(&self, ctx: &mut Ctx, id: CombatantId);

    /// Runs `perform` (the shared rules of `command`) inside the turn's budget: the model prices
    /// the command, refuses what the budget cannot pay, and charges it only when `perform`
    /// succeeds.
    fn within_budget(
        &self,
        ctx: &mut Ctx,
        id: CombatantId,
        command: &Command,
        perform: &mut dyn FnMut(&mut Ctx) -> Result<Vec<Step>, RuleViolation>,
    ) -> Result<Vec<Step>, RuleViolation>;

    /// Whether `c`'s budget still has the slot a shared rule asks for (seed 000's action or
    /// bonus action; each model reads it in its own terms).
    fn has_slot(&self, c: &Combatant, slot: Resource) -> bool;

    /// Spends the slot a shared rule used.
    fn spend_slot(&self, c: &mut Combatant, slot: Resource);

    /// Whether `reactor` may take a reaction of `kind` now, as far as timing goes.
    fn may_react(&self, combat: &Combat, reactor: &Combatant, kind: ReactionKind) -> bool;

    /// Spends what taking a reaction of `kind` to `trigger` costs.
    fn spend_reaction(&self, ctx: &mut Ctx, reactor: CombatantId, kind: ReactionKind, trigger: &ReactionTrigger);

    /// The scene ends (the fight is over): per-scene effects reset.
    fn scene_end(&self, _combat: &mut Combat) {}

    /// The order simultaneous reactions resolve in: by default initiative order from the current
    /// turn.
    fn reaction_order(&self, combat: &Combat) -> Vec<CombatantId> {
        combat.initiative_from_current()
    }

    /// Before the attack roll (seed 001's interrupt check): whether Interrupts may answer the
    /// declared attack (`ReactionTrigger::AttackDeclared`).
    fn has_interrupt_check(&self) -> bool {
        false
    }

    /// An attack roll was made: a model that keeps the last swing (the timeline, for a Cancel
    /// that hits) records it.
    fn swung(&self, _combat: &mut Combat, _attacker: CombatantId, _target: CombatantId, _hit: bool) {}

    /// `Delay` (TDGS's own): refused by a model without it.
    fn delay(&self, ctx: &mut Ctx, _id: CombatantId, _after: Option<CombatantId>) -> Result<Vec<Step>, RuleViolation> {
        Err(not_in_this_ruleset("Delay", ctx.combat))
    }

    /// `DeclareInstant` (TDGS's own, also before the scene starts): refused by a model without it.
    fn declare_instant(&self, ctx: &mut Ctx, _id: CombatantId, _instant: Instant) -> Result<(), RuleViolation> {
        Err(not_in_this_ruleset("Instants", ctx.combat))
    }

    /// Nothing is queued: a turn-based model awaits a command; a model whose fight moves on by
    /// itself (the tick timeline) advances it, or halts until a player commits.
    fn idle(&self, _ctx: &mut Ctx) -> Idle {
        Idle::AwaitsCommand
    }

    /// Runs a step only this model queues (the timeline's `BreakWindup`).
    fn run_own_step(&self, _ctx: &mut Ctx, _step: Step) {}

    /// Mutual destruction: `responder` answers `actor`'s action with one that would prevent it,
    /// and `actor`'s would prevent the answer. Which completes first (and the d2s flipped to
    /// decide it), or `None` when the model lets the reaction resolve first as any other.
    fn first_of_mutual(
        &self,
        _ctx: &mut Ctx,
        _actor: CombatantId,
        _responder: CombatantId,
    ) -> Option<(CombatantId, Vec<u32>)> {
        None
    }
}

/// The model a fight runs under. The match is the registry: a new [`Ruleset`] does not compile
/// until it names its model here.
pub fn model(ruleset: Ruleset) -> &'static dyn TimingModel {
    match ruleset {
        Ruleset::Gogobee => &gogobee::Gogobee,
        Ruleset::Tdgs => &tdgs::Tdgs,
        Ruleset::Ctb => &ctb::Ctb,
        Ruleset::Ticks => &ticks::Ticks,
    }
}

/// The order simultaneous reactions resolve in under the fight's model.
pub fn reaction_order(combat: &Combat) -> Vec<CombatantId> {
    model(combat.ruleset).reaction_order(combat)
}

/// `Begin` under the fight's model.
pub fn begin(ctx: &mut Ctx) -> Result<(), RuleViolation> {
    model(ctx.combat.ruleset).begin(ctx)
}

/// A turn starts under the fight's model.
pub fn start_turn(ctx: &mut Ctx, id: CombatantId) {
    model(ctx.combat.ruleset).start_turn(ctx, id);
}

/// A turn ends under the fight's model; then other creatures may take legendary actions
/// (`crate::legendary`), before whatever the model queued next.
pub fn end_turn(ctx: &mut Ctx, id: CombatantId) {
    let from = ctx.events.len();
    model(ctx.combat.ruleset).end_turn(ctx, id);
    let ended = ctx.events[from..].contains(&crate::state::event::Event::TurnEnded { id });
    if ended {
        crate::legendary::after_turn(ctx, id);
    }
}

/// Runs `perform` inside the fight's model's budget (see [`TimingModel::within_budget`]).
pub(crate) fn within_budget(
    ctx: &mut Ctx,
    id: CombatantId,
    command: &Command,
    perform: impl FnOnce(&mut Ctx) -> Result<Vec<Step>, RuleViolation>,
) -> Result<Vec<Step>, RuleViolation> {
    let mut perform = Some(perform);
    let mut once = |ctx: &mut Ctx| match perform.take() {
        Some(f) => f(ctx),
        None => Ok(Vec::new()),
    };
    model(ctx.combat.ruleset).within_budget(ctx, id, command, &mut once)
}

/// Refuses unless `id`'s budget has `slot` (the shared rules' one question about the budget).
pub fn check_slot(combat: &Combat, id: CombatantId, slot: Resource) -> Result<(), RuleViolation> {
    if has_slot(combat, id, slot) {
        Ok(())
    } else {
        Err(RuleViolation::ResourceSpent { resource: slot })
    }
}

/// Rolls `id`'s initiative, d20 + DEX modifier, and keeps the total on the combatant (every
/// model that rolls one: GogoBee's order, the tick timeline's, the charge race's tiebreak).
pub fn roll_initiative(ctx: &mut Ctx, id: CombatantId) -> crate::state::event::InitiativeEntry {
    let roll = ctx.dice.die(20);
    let c = ctx.combat.get_mut(id);
    let total = roll as i32 + c.modifier(crate::content::Ability::Dex);
    c.initiative = total;
    crate::state::event::InitiativeEntry { id, roll, total }
}

/// Whether `id`'s budget has `slot`.
pub fn has_slot(combat: &Combat, id: CombatantId, slot: Resource) -> bool {
    model(combat.ruleset).has_slot(combat.get(id), slot)
}

/// Spends `slot` from `id`'s budget.
pub fn spend_slot(combat: &mut Combat, id: CombatantId, slot: Resource) {
    let model = model(combat.ruleset);
    model.spend_slot(combat.get_mut(id), slot);
}

/// Whether `reactor` may take a reaction of `kind` now, as far as timing goes (the trigger's own
/// conditions are checked by `reactions::options`).
pub fn may_react(combat: &Combat, reactor: CombatantId, kind: ReactionKind) -> bool {
    let r = combat.get(reactor);
    r.is_standing() && model(combat.ruleset).may_react(combat, r, kind)
}

/// Mutual destruction under the fight's model (see [`TimingModel::first_of_mutual`]).
pub fn first_of_mutual(ctx: &mut Ctx, actor: CombatantId, responder: CombatantId) -> Option<(CombatantId, Vec<u32>)> {
    model(ctx.combat.ruleset).first_of_mutual(ctx, actor, responder)
}

/// Spends what taking a reaction of `kind` to `trigger` costs under the model.
pub fn spend_reaction(ctx: &mut Ctx, reactor: CombatantId, kind: ReactionKind, trigger: &ReactionTrigger) {
    model(ctx.combat.ruleset).spend_reaction(ctx, reactor, kind, trigger);
}
