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

use serde::{Deserialize, Serialize};

use crate::combat::{Combat, Ruleset};
use crate::combatant::CombatantId;
use crate::command::Command;
use crate::reactions::{ReactionKind, ReactionTrigger};
use crate::resolve::{Ctx, Step};
use crate::violation::RuleViolation;

/// Fight-wide state a timing model keeps besides `Combat.order`, `turn` and `round`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct ModelState {
    /// CTB: ticks elapsed in the charge race.
    #[serde(default)]
    pub tick: u64,
    /// TDGS: the natural order (REF → LUK → d2), fixed at scene start.
    #[serde(default)]
    pub natural_order: Vec<CombatantId>,
    /// TDGS: the (REF, LUK) each combatant had when the order was fixed, to notice a change.
    #[serde(default)]
    pub order_basis: Vec<(CombatantId, i32, i32)>,
    /// The tick timeline's loop position, observations and pre-rolled coin.
    #[serde(default)]
    pub timeline: ticks::TimelineState,
}

/// `Begin`: fixes the order (or starts the race) and starts the first turn.
pub fn begin(ctx: &mut Ctx) -> Result<(), RuleViolation> {
    match ctx.combat.ruleset {
        Ruleset::Gogobee => gogobee::begin(ctx),
        Ruleset::Tdgs => tdgs::begin(ctx),
        Ruleset::Ctb => ctb::begin(ctx),
        Ruleset::Ticks => ticks::begin(ctx),
    }
}

/// A turn starts: the model hands out the turn's budget.
pub fn start_turn(ctx: &mut Ctx, id: CombatantId) {
    match ctx.combat.ruleset {
        Ruleset::Gogobee => gogobee::start_turn(ctx, id),
        // The timeline has no turns: actors choose when their cycle ends.
        Ruleset::Ticks => {}
        Ruleset::Tdgs => tdgs::start_turn(ctx, id),
        Ruleset::Ctb => ctb::start_turn(ctx, id),
    }
}

/// A turn ends: the model picks who acts next.
pub fn end_turn(ctx: &mut Ctx, id: CombatantId) {
    match ctx.combat.ruleset {
        Ruleset::Gogobee => gogobee::end_turn(ctx, id),
        Ruleset::Ticks => ticks::end_turn(ctx, id),
        Ruleset::Tdgs => tdgs::end_turn(ctx, id),
        Ruleset::Ctb => ctb::end_turn(ctx, id),
    }
}

/// Runs `perform` (the shared rules of a command) inside the model's budget: the model refuses
/// what the turn cannot pay for, and charges it only when `perform` succeeds.
pub(crate) fn within_budget(
    ctx: &mut Ctx,
    id: CombatantId,
    command: &Command,
    perform: impl FnOnce(&mut Ctx) -> Result<Vec<Step>, RuleViolation>,
) -> Result<Vec<Step>, RuleViolation> {
    match ctx.combat.ruleset {
        Ruleset::Gogobee => perform(ctx),
        Ruleset::Ticks => ticks::within_budget(ctx, id, command, perform),
        Ruleset::Tdgs => tdgs::within_budget(ctx, id, command, perform),
        Ruleset::Ctb => ctb::within_budget(ctx, id, command, perform),
    }
}

/// Whether `reactor` may take a reaction of `kind` now, as far as timing goes (the trigger's own
/// conditions are checked by `reactions::options`).
pub fn may_react(combat: &Combat, reactor: CombatantId, kind: ReactionKind) -> bool {
    let r = combat.get(reactor);
    if !r.is_standing() {
        return false;
    }
    match combat.ruleset {
        Ruleset::Gogobee | Ruleset::Ctb => kind == ReactionKind::Readied || !r.resources.reaction_used,
        Ruleset::Ticks => ticks::may_react(r),
        Ruleset::Tdgs => tdgs::may_interrupt(r, kind),
    }
}

/// Spends what taking a reaction of `kind` to `trigger` costs under the model.
pub fn spend_reaction(ctx: &mut Ctx, reactor: CombatantId, kind: ReactionKind, trigger: &ReactionTrigger) {
    match ctx.combat.ruleset {
        Ruleset::Gogobee | Ruleset::Ctb => {
            if kind != ReactionKind::Readied {
                ctx.combat
                    .get_mut(reactor)
                    .resources
                    .spend(crate::action_economy::Resource::Reaction);
            }
        }
        Ruleset::Ticks => ticks::begin_reaction_cycle(ctx, reactor, kind, trigger.source()),
        Ruleset::Tdgs => tdgs::spend_interrupt(ctx.combat.get_mut(reactor), kind),
    }
}
