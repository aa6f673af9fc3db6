//! The charge-meter race (seed 003 "Turn Lifecycle Specification: Activation & Reset"): when
//! nobody is active, every unit adds its speed to its charge meter, tick by tick, until someone
//! reaches 100; the highest charge acts. Start of turn: AP = 3 + ⌊speed / 5⌋ (no roll-over),
//! cooldowns drop by 1, status effects tick (damage or healing over time, duration, expiry) and a stunned unit's
//! turn ends at once. End of turn: charge = max(0, charge − 100), action flags reset.
//!
//! **Mapping from the shared content** (which has no CTB stats):
//! - *Speed* = 10 + ⌊(base speed in feet − 30) / 20⌋ (a human's or a wolf's 30–45 ft → 10, a
//!   dwarf's 25 ft or a zombie's 20 ft → 9, a Quickling's 120 ft → 14), +10 while hasted, never
//!   below 1 (so the race always ends). Feet already buy distance in every model, so they buy
//!   turns only gently here: a Quickling acts 1.4 times as often as a human, not four times.
//!   Grapples, armor and encumbrance slow movement in feet, not the meter.
//! - *Ties*: the highest charge acts; equal charges go to the higher speed, then the higher
//!   initiative (d20 + DEX modifier, rolled once as the race begins or as a unit joins it), then
//!   the higher DEX score, then the lower combatant id — no side goes first by being a side, so
//!   a mirror match is an even game.
//! - *Rounds* are not part of the race; `Combat.round` counts blocks of 10 ticks (one turn of a
//!   speed-10 unit), so `RoundStarted` and the 100-round limit still mean something.
//! - *Budget*: AP, the model's own ([`CtbSheet`]): every command is priced in AP ([`ap_cost`])
//!   and paid only if it succeeds; while it runs, the slot the shared rules ask for is open.
//!   What is an action elsewhere costs [`ACTION_AP`] (3), a move or a bonus action 1, so a
//!   human's 5 AP buy what a GogoBee turn does — an action, a move and a bonus action — and a
//!   hasted unit's 7 a second action. Outside a command, the action slot means 3 AP left and the
//!   bonus slot 1 AP — what the AI plans with. Movement in feet stays a per-turn pool (speed in
//!   feet, Dash adds it again) and each `Move` also costs 1 AP.
//! - *Costs*: see [`ap_cost`]; *cooldowns*: see [`cooldown`] (a leveled spell cools down for its
//!   level in turns; Second Wind and Misty Step for 2).
//! - *Reactions*: one between your turns, as in GogoBee (it comes back at the start of your turn).
//! - *Statuses* tick at the start of each turn (`crate::statuses`, as in every model): the
//!   content that inflicts them (Fire Bolt's Burning, a Ghoul's paralysing Claws, a Troll's
//!   Regeneration) is listed in `content::statuses`. A stun of duration N takes N turns away: it
//!   counts as active for the upkeep in which it expires. Innate statuses take hold for everyone
//!   as the race begins.
//! - A breath weapon is used with the action slot, outside the AP table: it ends the unit's
//!   actions for the turn (the AI may still move).

use crate::content::Spell;
use crate::ctx::Ctx;
use crate::state::combat::{Combat, MAX_ROUNDS};
use crate::state::combatant::Combatant;
use crate::state::command::{BonusAction, Command};
use crate::state::event::Placement;
use crate::state::event::{ChargeEntry, Event, Outcome};
use crate::state::ids::CombatantId;
use crate::state::reactions::{ReactionKind, ReactionTrigger};
use crate::state::resources::Resource;
use crate::state::step::Step;
use crate::state::violation::RuleViolation;

pub use crate::state::ctb::{CtbSheet, StatusEffect, StatusKind};

/// Charge needed to act.
pub const THRESHOLD: i32 = 100;
/// AP every turn starts with before the speed bonus.
pub const BASE_AP: u32 = 3;
/// What an action (an attack, a spell, a Dash, a Dodge …) costs.
pub const ACTION_AP: u32 = 3;
/// Ticks that make one `Combat.round` of the race.
pub const TICKS_PER_ROUND: u64 = 10;

/// The unit's speed in the race: 10 + ⌊(feet − 30) / 20⌋, +10 hasted, at least 1.
pub fn speed(c: &Combatant) -> i32 {
    let haste = if c.conditions.hasted { 10 } else { 0 };
    (10 + (c.base_speed() - 30).div_euclid(20) + haste).max(1)
}

/// AP at the start of each turn: 3 + ⌊speed / 5⌋.
pub fn max_ap(speed: i32) -> u32 {
    BASE_AP + (speed.max(0) / 5).unsigned_abs()
}

/// What `command` costs in AP (`None`: nothing — ending the turn, reacting).
///
/// | command | AP |
/// |---|---|
/// | Attack, Grapple, Shove, Ready, Dash, Disengage, Dodge, Help, Hide, Search, Use Item, Stabilize, Escape | 3 |
/// | a spell cast as an action, cantrip or leveled (a leveled one then cools down) | 3 |
/// | Move, Crawl | 1 |
/// | a bonus action, a spell cast as one | 1 |
pub fn ap_cost(actor: &Combatant, command: &Command) -> Option<u32> {
    Some(match command {
        Command::Attack { .. }
        | Command::Grapple { .. }
        | Command::Shove { .. }
        | Command::Ready { .. }
        | Command::Escape
        | Command::Dash
        | Command::Disengage
        | Command::Dodge
        | Command::Help { .. }
        | Command::Hide
        | Command::Search
        | Command::UseItem { .. }
        | Command::Stabilize { .. } => ACTION_AP,
        Command::Move(_) | Command::Crawl(_) | Command::Bonus(_) => 1,
        Command::Cast { spell, .. } => {
            let bonus = actor
                .known_spell(*spell)
                .is_some_and(|s| s.casting_time == crate::content::CastingTime::BonusAction);
            if bonus { 1 } else { ACTION_AP }
        }
        _ => return None,
    })
}

/// The cooldown `command` starts: (ability name, turns). A skill with a 1-turn cooldown used on
/// one turn is ready again on the next.
pub fn cooldown(actor: &Combatant, command: &Command) -> Option<(String, u32)> {
    let spell_level = |spell: Spell| actor.known_spell(spell).map_or(0, |s| s.level);
    match command {
        Command::Cast { spell, .. } if spell_level(*spell) > 0 => Some((actor.spell_name(*spell), spell_level(*spell))),
        Command::Bonus(BonusAction::SecondWind) => Some(("Second Wind".into(), 2)),
        Command::Bonus(BonusAction::MistyStep { .. }) => Some(("Misty Step".into(), 2)),
        Command::Bonus(BonusAction::HealingWord { .. }) => Some(("Healing Word".into(), 1)),
        _ => None,
    }
}

/// `Begin`: every charge meter starts where it stands (0 for a new fight) and the race runs.
pub fn begin(ctx: &mut Ctx) -> Result<(), RuleViolation> {
    crate::turn::can_begin(ctx)?;
    for i in 0..ctx.combat.combatants.len() {
        // The tiebreak of equal charges and speeds, rolled once per unit.
        super::roll_initiative(ctx, ctx.combat.combatants[i].id);
    }
    let c = &mut *ctx.combat;
    c.order = c.combatants.iter().filter(|x| !x.is_dead()).map(|x| x.id).collect();
    c.started = true;
    c.round = 1;
    c.turn = 0;
    c.model.tick = 0;
    ctx.emit(Event::RoundStarted { round: 1 });
    for i in 0..ctx.combat.combatants.len() {
        let id = ctx.combat.combatants[i].id;
        crate::statuses::innate(ctx, id);
    }
    race(ctx);
    Ok(())
}

/// Who wins a race already run: the highest charge at or above 100, ties broken as documented.
pub fn leader(combat: &crate::state::combat::Combat) -> Option<CombatantId> {
    combat
        .combatants
        .iter()
        .filter(|c| !c.is_dead() && c.ctb().charge >= THRESHOLD)
        .max_by_key(|c| {
            (
                c.ctb().charge,
                speed(c),
                c.initiative,
                c.abilities.dex,
                std::cmp::Reverse(c.id),
            )
        })
        .map(|c| c.id)
}

/// Every living unit as the race stands, for a display: the acting one first, then the fullest
/// meter, the faster, the lower id.
pub fn standings(combat: &crate::state::combat::Combat) -> Vec<&Combatant> {
    let mut units: Vec<&Combatant> = combat.combatants.iter().filter(|c| !c.is_dead()).collect();
    units.sort_by_key(|c| {
        (
            combat.current() != Some(c.id),
            std::cmp::Reverse(c.ctb().charge),
            std::cmp::Reverse(speed(c)),
            c.id,
        )
    });
    units
}

/// Ticks until someone reaches 100: each tick adds every living unit's speed to its meter.
/// Returns how many ticks passed.
pub fn run_ticks(combat: &mut crate::state::combat::Combat) -> u64 {
    let mut ticks = 0;
    while leader(combat).is_none() {
        ticks += 1;
        for c in combat.combatants.iter_mut().filter(|c| !c.is_dead()) {
            c.ctb_mut().charge += speed(c);
        }
    }
    combat.model.tick += ticks;
    ticks
}

/// Who wins the next race, and after how many ticks: the unit acting now pays its 100 first (as
/// its turn's end will), then the meters fill as in [`run_ticks`]. A forecast for the display —
/// it assumes no speed changes meanwhile; the combat is not touched.
pub fn next_to_act(combat: &crate::state::combat::Combat) -> Option<(CombatantId, u64)> {
    if combat.outcome.is_some() || !combat.combatants.iter().any(|c| !c.is_dead()) {
        return None;
    }
    let mut race = combat.clone();
    if let Some(active) = race.current() {
        let c = race.get_mut(active);
        c.ctb_mut().charge = (c.ctb_mut().charge - THRESHOLD).max(0);
    }
    let ticks = run_ticks(&mut race);
    leader(&race).map(|id| (id, ticks))
}

/// The race (seed 003 §3): tick until someone reaches 100, then the highest charge starts its turn.
fn race(ctx: &mut Ctx) {
    let ticks = run_ticks(ctx.combat);
    let round = u32::try_from(ctx.combat.model.tick / TICKS_PER_ROUND + 1).unwrap_or(u32::MAX);
    while ctx.combat.round < round {
        ctx.combat.round += 1;
        if ctx.combat.round > MAX_ROUNDS {
            crate::outcome::finish(ctx, Outcome::Halted);
            return;
        }
        let round = ctx.combat.round;
        ctx.emit(Event::RoundStarted { round });
    }
    let Some(winner) = leader(ctx.combat) else {
        return;
    };
    let charges = ctx
        .combat
        .combatants
        .iter()
        .filter(|c| !c.is_dead())
        .map(|c| ChargeEntry {
            id: c.id,
            charge: c.ctb().charge,
            speed: speed(c),
        })
        .collect();
    ctx.emit(Event::ChargeRace {
        ticks,
        tick: ctx.combat.model.tick,
        winner,
        charges,
    });
    if let Some(i) = ctx.combat.order.iter().position(|&id| id == winner) {
        ctx.combat.turn = i;
    } else {
        ctx.combat.order.push(winner);
        ctx.combat.turn = ctx.combat.order.len() - 1;
    }
    ctx.push_front(vec![Step::StartTurn(winner)]);
}

/// Start of turn (seed 003 §1): AP, cooldowns, status upkeep and the stun check
/// (`crate::statuses`); then GogoBee's
/// shared upkeep (breath recharge, death saves, the AI thinking).
pub fn start_turn(ctx: &mut Ctx, id: CombatantId) {
    let round = ctx.combat.round;
    let movement = crate::turn::refresh_for_turn(ctx, id);
    ctx.emit(Event::TurnStarted { id, round, movement });
    let ap = max_ap(speed(ctx.combat.get(id)));
    let sheet = ctx.combat.get_mut(id).ctb_mut();
    sheet.ap = ap;
    for turns in sheet.cooldowns.values_mut() {
        *turns = turns.saturating_sub(1);
    }
    sheet.cooldowns.retain(|_, turns| *turns > 0);
    ctx.emit(Event::ActionPointsRefreshed { id, ap });
    if crate::turn::at_start(ctx, id) {
        if ctx.combat.outcome.is_none() {
            ctx.push_front(vec![Step::EndTurn(id)]);
        }
        return;
    }
    crate::turn::upkeep(ctx, id);
}

/// End of turn (seed 003 §2): the meter pays 100 (keeping any excess), the action flags and
/// leftover AP go, and the race runs again.
pub fn end_turn(ctx: &mut Ctx, id: CombatantId) {
    if !crate::turn::close_turn(ctx, id) {
        return;
    }
    let c = ctx.combat.get_mut(id);
    c.ctb_mut().charge = (c.ctb_mut().charge - THRESHOLD).max(0);
    c.ctb_mut().ap = 0;
    c.resources.movement_used = 0;
    c.conditions.attacked_this_turn = false;
    race(ctx);
}

/// Pays for `command` in AP (and checks its cooldown); `perform` runs with the action and bonus
/// slots open, and nothing is charged if it fails.
pub fn within_budget(
    ctx: &mut Ctx,
    id: CombatantId,
    command: &Command,
    perform: impl FnOnce(&mut Ctx) -> Result<Vec<Step>, RuleViolation>,
) -> Result<Vec<Step>, RuleViolation> {
    let actor = ctx.combat.get(id);
    let Some(cost) = ap_cost(actor, command) else {
        return perform(ctx);
    };
    let cooling = cooldown(actor, command);
    let sheet = actor.ctb();
    if let Some((ability, _)) = &cooling
        && let Some(&turns) = sheet.cooldowns.get(ability)
    {
        return Err(RuleViolation::OnCooldown {
            ability: ability.clone(),
            turns,
        });
    }
    if sheet.ap < cost {
        return Err(RuleViolation::NotEnoughAp {
            action: describe(command),
            cost,
            left: sheet.ap,
        });
    }
    ctx.combat.get_mut(id).ctb_mut().paid = true;
    let result = perform(ctx);
    ctx.combat.get_mut(id).ctb_mut().paid = false;
    match result {
        Err(e) => Err(e),
        Ok(steps) => {
            let c = ctx.combat.get_mut(id);
            c.ctb_mut().ap -= cost;
            let left = c.ctb().ap;
            ctx.emit(Event::ActionPointsSpent { id, cost, left });
            if let Some((ability, turns)) = cooling {
                ctx.combat
                    .get_mut(id)
                    .ctb_mut()
                    .cooldowns
                    .insert(ability.clone(), turns);
                ctx.emit(Event::CooldownStarted { id, ability, turns });
            }
            Ok(steps)
        }
    }
}

/// A newcomer enters the race with an empty meter; the race picks it when its charge is highest.
fn place_newcomer(ctx: &mut Ctx, id: CombatantId) -> Placement {
    super::roll_initiative(ctx, id);
    let c = ctx.combat.get_mut(id);
    c.ctb_mut().charge = 0;
    c.ctb_mut().ap = 0;
    ctx.combat.order.push(id);
    Placement::Charge { charge: 0 }
}

/// The charge-meter race (seed 003).
pub struct Ctb;

impl super::TimingModel for Ctb {
    fn begin(&self, ctx: &mut Ctx) -> Result<(), RuleViolation> {
        begin(ctx)
    }

    fn place_newcomer(&self, ctx: &mut Ctx, id: CombatantId) -> Placement {
        place_newcomer(ctx, id)
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
        id: CombatantId,
        command: &Command,
        perform: &mut dyn FnMut(&mut Ctx) -> Result<Vec<Step>, RuleViolation>,
    ) -> Result<Vec<Step>, RuleViolation> {
        within_budget(ctx, id, command, perform)
    }

    fn has_slot(&self, c: &Combatant, slot: Resource) -> bool {
        match slot {
            Resource::Action | Resource::BonusAction if c.ctb().paid => true,
            Resource::Action => c.ctb().ap >= ACTION_AP,
            Resource::BonusAction => c.ctb().ap >= 1,
            // One reaction between turns, as in GogoBee.
            Resource::Reaction | Resource::Movement => c.resources.has(slot),
        }
    }

    fn spend_slot(&self, c: &mut Combatant, slot: Resource) {
        match slot {
            // Paid in AP by `within_budget`.
            Resource::Action | Resource::BonusAction if c.ctb().paid => {}
            // An action outside the AP table (a breath weapon) ends the unit's actions: at most
            // the 1 AP of a move is left.
            Resource::Action | Resource::BonusAction => c.ctb_mut().ap = c.ctb_mut().ap.min(1),
            Resource::Reaction | Resource::Movement => c.resources.spend(slot),
        }
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

/// A short name of a command, for messages.
pub fn describe(command: &Command) -> String {
    match command {
        Command::Attack { .. } => "Attack",
        Command::Cast { spell, .. } => return spell.label(),
        Command::Move(_) => "Move",
        Command::Crawl(_) => "Crawl",
        Command::Escape => "Escape",
        Command::Dash => "Dash",
        Command::Disengage => "Disengage",
        Command::Dodge => "Dodge",
        Command::Help { .. } => "Help",
        Command::Hide => "Hide",
        Command::Ready { .. } => "Ready",
        Command::UseItem { item, .. } => return item.label(),
        Command::Search => "Search",
        Command::Grapple { .. } => "Grapple",
        Command::Shove { .. } => "Shove",
        Command::Stabilize { .. } => "Stabilize",
        Command::Bonus(bonus) => match bonus {
            BonusAction::OffHandAttack { .. } => "Off-hand Attack",
            BonusAction::SecondWind => "Second Wind",
            BonusAction::CunningAction(_) => "Cunning Action",
            BonusAction::HealingWord { .. } => "Healing Word",
            BonusAction::HuntersMark { .. } => "Hunter's Mark",
            BonusAction::Rage => "Rage",
            BonusAction::MistyStep { .. } => "Misty Step",
            BonusAction::CunningStrike(_) => "Cunning Strike",
        },
        Command::Delay { .. } => "Delay",
        Command::DeclareInstant(instant) => instant.name(),
        Command::Begin
        | Command::Join { .. }
        | Command::React(_)
        | Command::Pass
        | Command::EndTurn
        | Command::AdjustHp { .. }
        | Command::EndCombat => "That",
    }
    .to_owned()
}
