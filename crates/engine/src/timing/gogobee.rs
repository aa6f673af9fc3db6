//! GogoBee's timing model (seed 000 §1, §7.1): initiative d20 + DEX, rounds, turn resources
//! reset at the start of the owner's turn, automatic death saves for the downed, victory and defeat.
//! The other models reuse its shared parts: [`can_begin`], [`refresh_for_turn`], [`upkeep`],
//! [`close_turn`], [`check_outcome`] and [`finish`].

use crate::action_economy::{Resource, TurnResources};
use crate::combat::Combat;
use crate::combat::MAX_ROUNDS;
use crate::combatant::Combatant;
use crate::combatant::{CombatantId, Controller, Side};
use crate::command::Command;
use crate::content::Ability;
use crate::death_saves::{DeathSaveOutcome, DeathSaveResult};
use crate::dice::RollMode;
use crate::event::Placement;
use crate::event::{Event, InitiativeEntry, Outcome};
use crate::reactions::{ReactionKind, ReactionTrigger};
use crate::resolve::{Ctx, Step};
use crate::violation::RuleViolation;

/// Rolls initiative (d20 + DEX modifier; ties: higher DEX score, then party first, then lower id)
/// and starts round 1.
pub fn begin(ctx: &mut Ctx) -> Result<(), RuleViolation> {
    can_begin(ctx)?;
    let mut entries: Vec<(InitiativeEntry, i32, bool)> = Vec::new();
    for i in 0..ctx.combat.combatants.len() {
        let roll = ctx.dice.die(20);
        let c = &mut ctx.combat.combatants[i];
        let total = roll as i32 + c.modifier(Ability::Dex);
        c.initiative = total;
        entries.push((
            InitiativeEntry { id: c.id, roll, total },
            c.abilities.dex,
            c.side == Side::Party,
        ));
    }
    entries.sort_by(|(a, dex_a, party_a), (b, dex_b, party_b)| {
        b.total
            .cmp(&a.total)
            .then(dex_b.cmp(dex_a))
            .then(party_b.cmp(party_a))
            .then(a.id.cmp(&b.id))
    });
    let order: Vec<InitiativeEntry> = entries.into_iter().map(|(e, _, _)| e).collect();
    ctx.combat.order = order
        .iter()
        .map(|e| e.id)
        .filter(|id| !ctx.combat.get(*id).is_dead())
        .collect();
    ctx.combat.started = true;
    ctx.combat.round = 1;
    ctx.combat.turn = 0;
    ctx.emit(Event::InitiativeRolled { order });
    ctx.emit(Event::RoundStarted { round: 1 });
    let first = ctx.combat.order[0];
    ctx.push_front(vec![Step::StartTurn(first)]);
    Ok(())
}

/// Refuses to begin a fight already begun, or one without someone on each side (every model).
pub fn can_begin(ctx: &Ctx) -> Result<(), RuleViolation> {
    let c = &*ctx.combat;
    if c.started {
        return Err(RuleViolation::AlreadyStarted);
    }
    if c.side_alive(Side::Party).next().is_none() || c.side_alive(Side::Enemies).next().is_none() {
        return Err(RuleViolation::NeedBothSides);
    }
    Ok(())
}

/// Start of a turn: resources reset (§1), Dodge ends, an unfired readied action expires (§5),
/// a breath weapon may recharge, and the downed roll their death save (§7.1).
pub fn start_turn(ctx: &mut Ctx, id: CombatantId) {
    let round = ctx.combat.round;
    let movement = refresh_for_turn(ctx, id);
    ctx.emit(Event::TurnStarted { id, round, movement });
    upkeep(ctx, id);
}

/// The part of a turn's start every model shares, before `TurnStarted`: the per-turn slots and
/// turn-long conditions reset, an unfired readied action lapses. Returns the feet of movement.
pub fn refresh_for_turn(ctx: &mut Ctx, id: CombatantId) -> i32 {
    let movement = ctx.combat.get(id).speed();
    {
        let c = ctx.combat.get_mut(id);
        c.resources = TurnResources::fresh(movement);
        c.conditions.dodging = false;
        c.conditions.sneak_attack_used = false;
        c.conditions.attacked_this_turn = false;
    }
    if let Some(readied) = ctx.combat.get_mut(id).readied.take()
        && !readied.fired
    {
        ctx.emit(Event::ReadiedActionExpired {
            id,
            action: readied.action.describe(),
        });
    }
    movement
}

/// The part of a turn's start every model shares, after `TurnStarted`: a breath weapon may
/// recharge, the downed roll their death save or wake (§7.1), and the AI starts thinking.
pub fn upkeep(ctx: &mut Ctx, id: CombatantId) {
    let c = ctx.combat.get(id);
    if c.monster_kind().and_then(|m| m.stats().breath).is_some() && !c.pools.breath_ready {
        let roll = ctx.dice.die(6);
        if roll >= 5 {
            ctx.combat.get_mut(id).pools.breath_ready = true;
            ctx.emit(Event::BreathRecharged { id, roll });
        }
    }
    let c = ctx.combat.get(id);
    if c.death.dying() {
        death_save(ctx, id);
        if !ctx.combat.get(id).is_standing() {
            ctx.push_front(vec![Step::EndTurn(id)]);
            return;
        }
    } else if c.is_downed() {
        let c = ctx.combat.get_mut(id);
        c.death.wakes_in = c.death.wakes_in.saturating_sub(1);
        if c.death.wakes_in > 0 {
            ctx.push_front(vec![Step::EndTurn(id)]);
            return;
        }
        c.hp = 1;
        c.death.revive(ctx.now);
        ctx.emit(Event::Woke { id });
    }
    if matches!(ctx.combat.get(id).controller, Controller::Ai(_)) {
        ctx.push_front(vec![Step::Think(id)]);
    }
}

/// Rolls one death save for a dying character (§7.1).
pub fn death_save(ctx: &mut Ctx, id: CombatantId) {
    let mode = if ctx.combat.get(id).death.advantage_next {
        RollMode::Advantage
    } else {
        RollMode::Normal
    };
    let d20 = ctx.dice.d20(mode);
    record_death_save(ctx, id, d20);
}

/// Records a rolled death save and its consequences.
pub fn record_death_save(ctx: &mut Ctx, id: CombatantId, d20: crate::dice::D20) {
    let outcome = DeathSaveOutcome::of_roll(d20.natural);
    let now = ctx.now;
    let c = ctx.combat.get_mut(id);
    c.death.advantage_next = false;
    let result = c.death.record(outcome, now);
    let (successes, failures) = (c.death.successes, c.death.failures);
    ctx.emit(Event::DeathSaveRolled {
        id,
        d20,
        outcome,
        result,
        successes,
        failures,
    });
    after_death_mark(ctx, id, result);
}

/// What follows a death-save mark: stable, up again, or dead.
pub fn after_death_mark(ctx: &mut Ctx, id: CombatantId, result: DeathSaveResult) {
    match result {
        DeathSaveResult::StillDying => {}
        DeathSaveResult::Stabilized => {
            let wakes_in = ctx.dice.die(4) as u8;
            let now = ctx.now;
            ctx.combat.get_mut(id).death.stabilize(wakes_in, now);
            ctx.emit(Event::Stabilized { id, wakes_in });
        }
        DeathSaveResult::Revived => {
            let c = ctx.combat.get_mut(id);
            c.hp = 1;
            c.conditions.prone = false;
            ctx.emit(Event::Revived { id, hp: 1 });
        }
        DeathSaveResult::Died => {
            ctx.emit(Event::Died { id });
            release_grapples(ctx, id);
        }
    }
    check_outcome(ctx);
}

/// Ends grapples held by `id` (it fell or died).
pub fn release_grapples(ctx: &mut Ctx, id: CombatantId) {
    for i in 0..ctx.combat.combatants.len() {
        if ctx.combat.combatants[i].conditions.grappled_by == Some(id) {
            ctx.combat.combatants[i].conditions.grappled_by = None;
            let freed = ctx.combat.combatants[i].id;
            ctx.emit(Event::ConditionEnded {
                id: freed,
                condition: "grappled".into(),
            });
        }
    }
}

/// End of a turn: turn-long effects end, the next living combatant in initiative order starts.
pub fn end_turn(ctx: &mut Ctx, id: CombatantId) {
    if !close_turn(ctx, id) {
        return;
    }
    advance(ctx);
}

/// The part of a turn's end every model shares: turn-long effects end, `TurnEnded`, and the
/// outcome is checked. False when it was not `id`'s turn or the fight is over.
pub fn close_turn(ctx: &mut Ctx, id: CombatantId) -> bool {
    if ctx.combat.current() != Some(id) {
        return false;
    }
    {
        let c = ctx.combat.get_mut(id);
        c.conditions.disengaged = false;
        c.conditions.cunning_strike = None;
    }
    let c = ctx.combat.get_mut(id);
    if c.conditions.entangled > 0 {
        c.conditions.entangled -= 1;
        if c.conditions.entangled == 0 {
            ctx.emit(Event::ConditionEnded {
                id,
                condition: "entangled".into(),
            });
        }
    }
    ctx.emit(Event::TurnEnded { id });
    check_outcome(ctx);
    ctx.combat.outcome.is_none()
}

/// The next living combatant in initiative order starts; a new round when the order wraps.
fn advance(ctx: &mut Ctx) {
    let n = ctx.combat.order.len();
    let mut next = ctx.combat.turn;
    for _ in 0..n {
        next += 1;
        if next >= n {
            next = 0;
            ctx.combat.round += 1;
            if ctx.combat.round > MAX_ROUNDS {
                finish(ctx, Outcome::Halted);
                return;
            }
            let round = ctx.combat.round;
            ctx.emit(Event::RoundStarted { round });
        }
        if !ctx.combat.get(ctx.combat.order[next]).is_dead() {
            break;
        }
    }
    ctx.combat.turn = next;
    let who = ctx.combat.order[next];
    ctx.push_front(vec![Step::StartTurn(who)]);
}

/// Victory when every enemy is dead; defeat when no party member stands and none is still
/// rolling death saves.
pub fn check_outcome(ctx: &mut Ctx) {
    if ctx.combat.outcome.is_some() || !ctx.combat.started {
        return;
    }
    let c = &*ctx.combat;
    if c.side_alive(Side::Enemies).next().is_none() {
        finish(ctx, Outcome::Victory);
    } else if c.side_alive(Side::Party).all(|p| !p.is_standing() && !p.death.dying()) {
        finish(ctx, Outcome::Defeat);
    }
}

/// Ends the fight: XP is the sum of the slain enemies' XP.
pub fn finish(ctx: &mut Ctx, outcome: Outcome) {
    let xp = ctx
        .combat
        .combatants
        .iter()
        .filter(|c| c.side == Side::Enemies && c.is_dead())
        .filter_map(super::super::combatant::Combatant::monster_kind)
        .map(|m| m.stats().xp)
        .sum();
    ctx.combat.outcome = Some(outcome);
    super::model(ctx.combat.ruleset).scene_end(ctx.combat);
    ctx.combat.queue.clear();
    ctx.combat.window = None;
    ctx.emit(Event::CombatEnded { outcome, xp });
}

/// GogoBee's own model (seed 000): initiative d20 + DEX, rounds, `TurnResources` as the budget.
pub struct Gogobee;

impl super::TimingModel for Gogobee {
    fn begin(&self, ctx: &mut Ctx) -> Result<(), RuleViolation> {
        begin(ctx)
    }

    fn place_newcomer(&self, ctx: &mut Ctx, id: CombatantId) -> Placement {
        place_by_initiative(ctx, id)
    }

    fn start_turn(&self, ctx: &mut Ctx, id: CombatantId) {
        start_turn(ctx, id);
    }

    fn end_turn(&self, ctx: &mut Ctx, id: CombatantId) {
        end_turn(ctx, id);
    }

    fn within_budget(
        &self,
        ctx: &mut Ctx,
        _id: CombatantId,
        _command: &Command,
        perform: &mut dyn FnMut(&mut Ctx) -> Result<Vec<Step>, RuleViolation>,
    ) -> Result<Vec<Step>, RuleViolation> {
        // The shared rules spend the slots themselves (through `spend_slot`).
        perform(ctx)
    }

    fn has_slot(&self, c: &Combatant, slot: Resource) -> bool {
        c.resources.has(slot)
    }

    fn spend_slot(&self, c: &mut Combatant, slot: Resource) {
        c.resources.spend(slot);
    }

    fn may_react(&self, _combat: &Combat, reactor: &Combatant, kind: ReactionKind) -> bool {
        kind == ReactionKind::Readied || !reactor.resources.reaction_used
    }

    fn spend_reaction(&self, ctx: &mut Ctx, reactor: CombatantId, kind: ReactionKind, _trigger: &ReactionTrigger) {
        if kind != ReactionKind::Readied {
            ctx.combat.get_mut(reactor).resources.spend(Resource::Reaction);
        }
    }
}

/// A newcomer rolls initiative (d20 + DEX modifier) and takes its place after everyone with the
/// same total or more, without disturbing whose turn it is: ahead of the current turn it acts
/// from the next round, after it later this round.
pub fn place_by_initiative(ctx: &mut Ctx, id: CombatantId) -> Placement {
    let roll = ctx.dice.die(20);
    let c = ctx.combat.get_mut(id);
    let total = roll as i32 + c.modifier(Ability::Dex);
    c.initiative = total;
    let combat = &mut *ctx.combat;
    let at = combat
        .order
        .iter()
        .position(|o| combat.get(*o).initiative < total)
        .unwrap_or(combat.order.len());
    combat.order.insert(at, id);
    if at <= combat.turn {
        combat.turn += 1;
    }
    Placement::Initiative { roll, total }
}
