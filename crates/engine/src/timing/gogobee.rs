//! GogoBee's timing model (seed 000 §1, §7.1): initiative d20 + DEX, rounds, turn resources
//! reset at the start of the owner's turn, automatic death saves for the downed, victory and defeat.
//! The turn's shared life cycle is `crate::turn`, the outcome `crate::outcome`.

use crate::ctx::Ctx;
use crate::state::combat::Combat;
use crate::state::combat::MAX_ROUNDS;
use crate::state::combatant::Combatant;
use crate::state::command::Command;
use crate::state::event::Placement;
use crate::state::event::{Event, InitiativeEntry, Outcome};
use crate::state::ids::{CombatantId, Side};
use crate::state::reactions::{ReactionKind, ReactionTrigger};
use crate::state::resources::Resource;
use crate::state::step::Step;
use crate::state::violation::RuleViolation;

/// Rolls initiative (d20 + DEX modifier; ties: higher DEX score, then party first, then lower id)
/// and starts round 1.
pub fn begin(ctx: &mut Ctx) -> Result<(), RuleViolation> {
    crate::turn::can_begin(ctx)?;
    let mut entries: Vec<(InitiativeEntry, i32, bool)> = Vec::new();
    for i in 0..ctx.combat.combatants.len() {
        let entry = super::roll_initiative(ctx, ctx.combat.combatants[i].id);
        let c = &ctx.combat.combatants[i];
        entries.push((entry, c.abilities.dex, c.side == Side::Party));
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

/// Start of a turn: resources reset (§1), Dodge ends, an unfired readied action expires (§5),
/// a breath weapon may recharge, and the downed roll their death save (§7.1).
pub fn start_turn(ctx: &mut Ctx, id: CombatantId) {
    let round = ctx.combat.round;
    let movement = crate::turn::refresh_for_turn(ctx, id);
    ctx.emit(Event::TurnStarted { id, round, movement });
    if crate::turn::at_start(ctx, id) {
        if ctx.combat.outcome.is_none() {
            ctx.push_front(vec![Step::EndTurn(id)]);
        }
        return;
    }
    crate::turn::upkeep(ctx, id);
}

/// End of a turn: turn-long effects end, the next living combatant in initiative order starts.
pub fn end_turn(ctx: &mut Ctx, id: CombatantId) {
    if !crate::turn::close_turn(ctx, id) {
        return;
    }
    advance(ctx);
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
                crate::outcome::finish(ctx, Outcome::Halted);
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
    let InitiativeEntry { roll, total, .. } = super::roll_initiative(ctx, id);
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
