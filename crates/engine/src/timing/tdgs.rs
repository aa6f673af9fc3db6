//! TDGS (seed 001, "Document 6: Action Economy"): scene → rounds → Instant phase → Action
//! phase → turns. Initiative is not rolled: REF, then LUK, then d2, fixed at scene start and
//! recomputed only when REF or LUK change. A turn is 1 action (use or lose), 1 step (before or
//! after the action, never both) and free actions. Interrupts come only from abilities, each with
//! its limit per round, scene or day; chains resolve responder first. Ready turns the action
//! into a conditional Interrupt; Delay moves you later this round only. Simultaneous events and
//! mutual destruction resolve by REF → LUK → d2. Scene end resets per-scene abilities.
//!
//! **Mapping from the shared content** (which has no TDGS stats):
//! - *REF* = the DEX score; *LUK* = the CHA score.
//! - *d2 ties*: every tied entity flips a d2 at once, the 2s go before the 1s, and each group
//!   still tied flips again until all are resolved (a tied pair is the same rule: a fair coin).
//! - *Step* = one `Move` (up to your speed in feet); the feet it leaves unused are forfeited, so
//!   there is never a second step. *Dash* spends the action to buy one more move this turn.
//! - *Free actions* = GogoBee's bonus actions (and bonus-action spells): unlimited, each one
//!   once a turn (the seed: "Unlimited FREE ACTIONS", each one's limit "varies"). The budget is
//!   TDGS's own: [`TdgsSheet`] holds the action, the step and the free actions taken.
//! - *Interrupts* ([`interrupt_limit`]): Parry is any Fighter's (1/round, 2/round from level 5)
//!   or a parrying monster's (1/round); Opportunity Attack belongs to the martial classes
//!   (Fighter, Berserker, Ranger) and monsters with a melee attack (1/round); Uncanny Dodge,
//!   Interception, Evasion and Shield of Faith keep their GogoBee gates (1/round); Counterspell is
//!   1/scene. Casters, clerics and rogues below their gates have no Interrupt — "no free
//!   interrupts". Per-day limits: Divine Intervention, a Cleric's, 1/day (seed 001's example);
//!   per-day counts survive scene end, are carried into the day's next fight ([`day_uses`],
//!   [`carry_day_uses`]) and reset on a long rest ([`long_rest`]).
//! - *Instants* ([`Instant`]): Rogues have Quick Draw (Instant REF 12), Fighters and Berserkers
//!   Battle Cry (8), Mages Premonition (5), Rangers Steady Aim (no REF of its own: the ranger's).
//!   Each Instant is once a scene (the seed leaves limits to each ability; an Instant every
//!   round for free outweighed everything the other side had). The AI declares its Instant in
//!   round 1; a player declares with `DeclareInstant` during a round, for the next round's
//!   Instant phase, or before the scene starts (`/instant` before `/combat start`), for round 1's.
//! - *Armor durability*: the shared content has none, so scene end only resets abilities.

use crate::state::combat::{Combat, MAX_ROUNDS};
use crate::state::combatant::{Combatant, Controller};
use crate::state::command::Command;
use crate::state::ids::CombatantId;
use crate::state::ids::Ruleset;
use crate::state::resources::Resource;

use crate::ctx::Ctx;
use crate::dice::Dice;
use crate::state::event::Placement;
use crate::state::event::{Event, Outcome, StatInitiative};
use crate::state::reactions::{ReactionKind, ReactionTrigger};
use crate::state::step::Step;
use crate::state::violation::RuleViolation;

pub use crate::state::tdgs::{Instant, InterruptUses, Limit, TdgsSheet};

/// One Interrupt an entity has, with its limit and the uses left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InterruptLeft {
    pub kind: ReactionKind,
    pub limit: Limit,
    pub left: u32,
}

/// Every Interrupt `c` has (an ability grants it and gives it a limit), with the uses left —
/// "no free interrupts": an entity without such abilities has none.
pub fn interrupts(c: &Combatant) -> Vec<InterruptLeft> {
    ReactionKind::ALL
        .into_iter()
        .filter(|&kind| crate::reactions::grants(c, kind, Ruleset::Tdgs))
        .filter_map(|kind| {
            let limit = interrupt_limit(c, kind)?;
            Some(InterruptLeft {
                kind,
                limit,
                left: limit.left(c.tdgs().uses.iter().find(|u| u.kind == kind)),
            })
        })
        .collect()
}

/// The Instants the next Instant phase will resolve, in order (Instant REF, then the declarer's
/// LUK; entries still tied flip d2 then, and are listed here by id): each standing entity's
/// declared Instant, and for the AI the one its class grants while it has not used it this
/// scene.
pub fn upcoming_instants(combat: &Combat) -> Vec<(CombatantId, Instant, i32)> {
    let mut upcoming: Vec<(CombatantId, Instant, i32)> = combat
        .combatants
        .iter()
        .filter(|c| c.is_standing())
        .filter_map(|c| {
            let instant = c.tdgs().declared.or_else(|| match c.controller {
                Controller::Ai(_) => Instant::ready(c),
                Controller::Player(_) => None,
            })?;
            Some((c.id, instant, instant.reflex_for(c)))
        })
        .collect();
    upcoming.sort_by(|a, b| {
        b.2.cmp(&a.2)
            .then(luck(combat.get(b.0)).cmp(&luck(combat.get(a.0))))
            .then(a.0.cmp(&b.0))
    });
    upcoming
}

/// REF: the DEX score.
pub fn reflex(c: &Combatant) -> i32 {
    c.abilities.dex
}

/// LUK: the CHA score.
pub fn luck(c: &Combatant) -> i32 {
    c.abilities.cha
}

/// The Interrupt of `kind` that `c` has, with its limit; `None` when no ability grants it (each
/// reaction's module states its limit).
pub fn interrupt_limit(c: &Combatant, kind: ReactionKind) -> Option<Limit> {
    kind.reaction().interrupt_limit(c)
}

/// Whether `c` may use an Interrupt of `kind` now (its trigger conditions aside).
pub fn may_interrupt(c: &Combatant, kind: ReactionKind) -> bool {
    if kind == ReactionKind::Readied {
        return true;
    }
    interrupt_limit(c, kind).is_some_and(|limit| limit.allows(c.tdgs().uses.iter().find(|u| u.kind == kind)))
}

/// Counts one use of the Interrupt `kind`.
pub fn spend_interrupt(c: &mut Combatant, kind: ReactionKind) {
    if kind == ReactionKind::Readied {
        return;
    }
    let uses = &mut c.tdgs_mut().uses;
    if let Some(u) = uses.iter_mut().find(|u| u.kind == kind) {
        u.round += 1;
        u.scene += 1;
        u.day += 1;
    } else {
        uses.push(InterruptUses {
            kind,
            round: 1,
            scene: 1,
            day: 1,
        });
    }
}

/// A long rest: per-day Interrupts come back.
pub fn long_rest(c: &mut Combatant) {
    c.tdgs_mut().uses.clear();
}

/// The Interrupt uses `c` has spent today (per-day limits): what the service keeps with the
/// character between the day's fights (round and scene counts are not carried).
pub fn day_uses(c: &Combatant) -> Vec<InterruptUses> {
    c.tdgs()
        .uses
        .iter()
        .filter(|u| u.day > 0)
        .map(|u| InterruptUses {
            round: 0,
            scene: 0,
            ..*u
        })
        .collect()
}

/// Gives a combatant entering the day's next fight the uses it spent earlier today.
pub fn carry_day_uses(c: &mut Combatant, today: &[InterruptUses]) {
    for carried in today.iter().filter(|u| u.day > 0) {
        match c.tdgs_mut().uses.iter_mut().find(|u| u.kind == carried.kind) {
            Some(u) => u.day = u.day.max(carried.day),
            None => c.tdgs_mut().uses.push(InterruptUses {
                round: 0,
                scene: 0,
                ..*carried
            }),
        }
    }
}

impl Instant {
    pub const ALL: [Instant; 4] = [
        Instant::QuickDraw,
        Instant::BattleCry,
        Instant::Premonition,
        Instant::SteadyAim,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Instant::QuickDraw => "Quick Draw",
            Instant::BattleCry => "Battle Cry",
            Instant::Premonition => "Premonition",
            Instant::SteadyAim => "Steady Aim",
        }
    }

    /// Parses a name, case and spaces ignored.
    pub fn parse(text: &str) -> Option<Instant> {
        let wanted = crate::content::normalize(text);
        Self::ALL
            .into_iter()
            .find(|i| crate::content::normalize(i.name()) == wanted)
    }

    /// The Instant's own REF, if it defines one.
    pub fn own_ref(self) -> Option<i32> {
        match self {
            Instant::QuickDraw => Some(12),
            Instant::BattleCry => Some(8),
            Instant::Premonition => Some(5),
            Instant::SteadyAim => None,
        }
    }

    /// The REF it resolves at: its own, or else its user's.
    pub fn reflex_for(self, user: &Combatant) -> i32 {
        self.own_ref().unwrap_or_else(|| reflex(user))
    }

    /// The Instant a combatant's class grants.
    pub fn granted(c: &Combatant) -> Option<Instant> {
        use crate::content::data::Feature;
        [
            (Feature::QuickDraw, Instant::QuickDraw),
            (Feature::BattleCry, Instant::BattleCry),
            (Feature::Premonition, Instant::Premonition),
            (Feature::SteadyAim, Instant::SteadyAim),
        ]
        .into_iter()
        .find(|(feature, _)| c.has_feature(*feature, Ruleset::Tdgs))
        .map(|(_, instant)| instant)
    }

    /// The Instant `c`'s class grants, while it is unused this scene: every Instant is once a
    /// scene, for every side alike (the seed leaves the limit to each ability).
    pub fn ready(c: &Combatant) -> Option<Instant> {
        Instant::granted(c).filter(|i| !c.tdgs().instants_used.contains(i))
    }
}

/// Orders `entries` — (id, primary, LUK) — by primary (REF) then LUK, highest first; ties flip
/// d2 together and again until resolved. Returns each id with the d2 results it flipped.
pub fn order_by_ref_luk_d2(entries: &[(CombatantId, i32, i32)], dice: &mut Dice) -> Vec<(CombatantId, Vec<u32>)> {
    let mut sorted: Vec<(CombatantId, i32, i32)> = entries.to_vec();
    sorted.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.cmp(&a.2)).then(a.0.cmp(&b.0)));
    let mut out = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i + 1;
        while j < sorted.len() && sorted[j].1 == sorted[i].1 && sorted[j].2 == sorted[i].2 {
            j += 1;
        }
        let group: Vec<(CombatantId, Vec<u32>)> = sorted[i..j].iter().map(|e| (e.0, Vec::new())).collect();
        out.extend(flip_until_resolved(group, dice));
        i = j;
    }
    out
}

/// Everyone in a tied group flips a d2 at once; 2s go first; groups still tied flip again.
fn flip_until_resolved(group: Vec<(CombatantId, Vec<u32>)>, dice: &mut Dice) -> Vec<(CombatantId, Vec<u32>)> {
    if group.len() < 2 {
        return group;
    }
    let (mut high, mut low) = (Vec::new(), Vec::new());
    for (id, mut flips) in group {
        let d2 = dice.die(2);
        flips.push(d2);
        if d2 == 2 {
            high.push((id, flips));
        } else {
            low.push((id, flips));
        }
    }
    let mut out = flip_until_resolved(high, dice);
    out.extend(flip_until_resolved(low, dice));
    out
}

/// Which of two simultaneous (or mutually destructive) events resolves first: the faster
/// entity's — REF, then LUK, then d2.
pub fn first_to_resolve(combat: &Combat, a: CombatantId, b: CombatantId, dice: &mut Dice) -> CombatantId {
    let entry = |id: CombatantId| {
        let c = combat.get(id);
        (id, reflex(c), luck(c))
    };
    order_by_ref_luk_d2(&[entry(a), entry(b)], dice)[0].0
}

/// The declared Instants in resolution order: Instant REF, then the declarer's LUK, then d2.
pub fn order_instants(
    combat: &Combat,
    declared: &[(CombatantId, Instant)],
    dice: &mut Dice,
) -> Vec<(CombatantId, Instant)> {
    let entries: Vec<(CombatantId, i32, i32)> = declared
        .iter()
        .map(|&(id, instant)| {
            let c = combat.get(id);
            (id, instant.reflex_for(c), luck(c))
        })
        .collect();
    order_by_ref_luk_d2(&entries, dice)
        .into_iter()
        .filter_map(|(id, _)| declared.iter().find(|(d, _)| *d == id).copied())
        .collect()
}

/// Fixes the natural order from REF and LUK (scene start, or when either changes).
fn fix_order(ctx: &mut Ctx) {
    let entries: Vec<(CombatantId, i32, i32)> = ctx
        .combat
        .combatants
        .iter()
        .filter(|c| !c.is_dead())
        .map(|c| (c.id, reflex(c), luck(c)))
        .collect();
    let order = order_by_ref_luk_d2(&entries, ctx.dice);
    ctx.combat.model.natural_order = order.iter().map(|(id, _)| *id).collect();
    ctx.combat.model.order_basis.clone_from(&entries);
    let order = order
        .into_iter()
        .map(|(id, flips)| {
            let (_, reflex, luck) = entries.iter().find(|e| e.0 == id).copied().unwrap_or((id, 0, 0));
            StatInitiative {
                id,
                reflex,
                luck,
                flips,
            }
        })
        .collect();
    ctx.emit(Event::InitiativeFixed { order });
}

/// Scene start: the order is fixed, round 1 begins with its Instant phase.
pub fn begin(ctx: &mut Ctx) -> Result<(), RuleViolation> {
    crate::turn::can_begin(ctx)?;
    for c in &mut ctx.combat.combatants {
        c.tdgs_mut().stepped = false;
        c.tdgs_mut().extra_moves = 0;
    }
    fix_order(ctx);
    ctx.combat.started = true;
    ctx.combat.round = 1;
    ctx.emit(Event::RoundStarted { round: 1 });
    round_start(ctx);
    first_turn(ctx);
    Ok(())
}

/// A newcomer takes its place in the fixed natural order by REF, then LUK; a tie with those
/// already placed is broken by one d2 (2: before them, 1: after). No initiative is rolled. In the
/// round in progress it acts later if its place comes after the current turn; otherwise its
/// first turn is next round's.
fn place_newcomer(ctx: &mut Ctx, id: CombatantId) -> Placement {
    let me = ctx.combat.get(id);
    let (my_ref, my_luk) = (reflex(me), luck(me));
    let key = |c: &Combatant| (reflex(c), luck(c));
    let natural = ctx.combat.model.natural_order.clone();
    let tied = natural.iter().any(|&o| key(ctx.combat.get(o)) == (my_ref, my_luk));
    let mut flips = Vec::new();
    let before_ties = if tied {
        let d2 = ctx.dice.die(2);
        flips.push(d2);
        d2 == 2
    } else {
        false
    };
    // Before the first entry that ranks below the newcomer (or, with a d2 of 2, level with it).
    let ranks_after_me = |c: &Combatant| {
        let k = key(c);
        k < (my_ref, my_luk) || (before_ties && k == (my_ref, my_luk))
    };
    let at = natural
        .iter()
        .position(|&o| ranks_after_me(ctx.combat.get(o)))
        .unwrap_or(natural.len());
    ctx.combat.model.natural_order.insert(at, id);
    ctx.combat.model.order_basis.push((id, my_ref, my_luk));
    // This round's order (which a Delay may have changed): before the first entry that comes
    // after the newcomer naturally.
    let rank = |o: CombatantId, natural: &[CombatantId]| natural.iter().position(|&n| n == o);
    let natural = ctx.combat.model.natural_order.clone();
    let mine = rank(id, &natural);
    let combat = &mut *ctx.combat;
    let pos = combat
        .order
        .iter()
        .position(|&o| rank(o, &natural) > mine)
        .unwrap_or(combat.order.len());
    combat.order.insert(pos, id);
    let this_round = pos > combat.turn;
    if !this_round {
        combat.turn += 1;
    }
    Placement::NaturalOrder {
        reflex: my_ref,
        luck: my_luk,
        flips,
        this_round,
    }
}

/// TDGS (seed 001): the fixed REF → LUK → d2 order, the Instant phase, 1 action + 1 step +
/// free actions, Interrupts with their limits.
pub struct Tdgs;

impl super::TimingModel for Tdgs {
    /// Simultaneous events resolve by REF → LUK → d2: the natural order fixed at scene start
    /// (newcomers after it).
    fn reaction_order(&self, combat: &Combat) -> Vec<CombatantId> {
        if combat.model.natural_order.is_empty() {
            return combat.initiative_from_current();
        }
        let mut ids = combat.model.natural_order.clone();
        ids.extend(
            combat
                .combatants
                .iter()
                .map(|c| c.id)
                .filter(|id| !combat.model.natural_order.contains(id)),
        );
        ids
    }

    fn has_interrupt_check(&self) -> bool {
        true
    }

    fn delay(&self, ctx: &mut Ctx, id: CombatantId, after: Option<CombatantId>) -> Result<Vec<Step>, RuleViolation> {
        delay(ctx, id, after)
    }

    fn declare_instant(&self, ctx: &mut Ctx, id: CombatantId, instant: Instant) -> Result<(), RuleViolation> {
        declare_instant(ctx, id, instant)
    }

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
            Resource::Action => !c.tdgs().action_used,
            // Free actions are unlimited (each once a turn, checked by `within_budget`); a
            // readied action is an Interrupt of its own, not a reaction slot.
            Resource::BonusAction | Resource::Reaction => true,
            Resource::Movement => c.resources.movement_left() > 0,
        }
    }

    fn spend_slot(&self, c: &mut Combatant, slot: Resource) {
        match slot {
            Resource::Action => c.tdgs_mut().action_used = true,
            Resource::Movement => c.resources.spend(Resource::Movement),
            Resource::BonusAction | Resource::Reaction => {}
        }
    }

    fn may_react(&self, _combat: &Combat, reactor: &Combatant, kind: ReactionKind) -> bool {
        may_interrupt(reactor, kind)
    }

    fn spend_reaction(&self, ctx: &mut Ctx, reactor: CombatantId, kind: ReactionKind, _trigger: &ReactionTrigger) {
        spend_interrupt(ctx.combat.get_mut(reactor), kind);
    }

    fn scene_end(&self, combat: &mut Combat) {
        scene_end(combat);
    }

    /// "MUTUAL DESTRUCTION: If both events would prevent the other, resolve in REF order.
    /// Faster entity's action completes first. If REF and LUK identical: flip d2."
    fn first_of_mutual(
        &self,
        ctx: &mut Ctx,
        actor: CombatantId,
        responder: CombatantId,
    ) -> Option<(CombatantId, Vec<u32>)> {
        let entry = |id: CombatantId| {
            let c = ctx.combat.get(id);
            (id, reflex(c), luck(c))
        };
        let entries = [entry(actor), entry(responder)];
        let order = order_by_ref_luk_d2(&entries, ctx.dice);
        let flips = order.iter().flat_map(|(_, f)| f.iter().copied()).collect();
        Some((order[0].0, flips))
    }
}

/// A round's start: per-round limits reset, Delay undone (the natural order again, refixed only
/// if a REF or LUK changed), then the Instant phase.
fn round_start(ctx: &mut Ctx) {
    for c in &mut ctx.combat.combatants {
        for u in &mut c.tdgs_mut().uses {
            u.round = 0;
        }
    }
    let changed = ctx.combat.model.order_basis.iter().any(|&(id, reflex_was, luck_was)| {
        let c = ctx.combat.get(id);
        !c.is_dead() && (reflex(c) != reflex_was || luck(c) != luck_was)
    });
    if changed {
        fix_order(ctx);
    }
    let natural = ctx.combat.model.natural_order.clone();
    ctx.combat.order = natural;
    instant_phase(ctx);
}

/// The Instant phase: every declared Instant resolves, by Instant REF → LUK → d2.
fn instant_phase(ctx: &mut Ctx) {
    let mut declared = Vec::new();
    for i in 0..ctx.combat.combatants.len() {
        let c = &mut ctx.combat.combatants[i];
        if !c.is_standing() {
            c.tdgs_mut().declared = None;
            continue;
        }
        if matches!(c.controller, Controller::Ai(_)) && c.tdgs().declared.is_none() {
            c.tdgs_mut().declared = Instant::ready(c);
        }
        if let Some(instant) = c.tdgs_mut().declared.take() {
            c.tdgs_mut().instants_used.push(instant);
            declared.push((c.id, instant));
        }
    }
    for (id, instant) in order_instants(ctx.combat, &declared, ctx.dice) {
        let instant_ref = instant.reflex_for(ctx.combat.get(id));
        ctx.emit(Event::InstantResolved {
            id,
            instant,
            instant_ref,
        });
        resolve_instant(ctx, id, instant);
    }
}

fn resolve_instant(ctx: &mut Ctx, id: CombatantId, instant: Instant) {
    match instant {
        Instant::QuickDraw | Instant::SteadyAim => ctx.combat.get_mut(id).conditions.helped = true,
        Instant::Premonition => ctx.combat.get_mut(id).conditions.dodging = true,
        Instant::BattleCry => {
            let side = ctx.combat.get(id).side;
            for c in &mut ctx.combat.combatants {
                if c.side == side && c.id != id && c.is_standing() {
                    c.conditions.helped = true;
                }
            }
        }
    }
}

/// The Action phase opens with the first living entity of the order.
fn first_turn(ctx: &mut Ctx) {
    let Some(i) = ctx.combat.order.iter().position(|&id| !ctx.combat.get(id).is_dead()) else {
        return;
    };
    ctx.combat.turn = i;
    let first = ctx.combat.order[i];
    ctx.push_front(vec![Step::StartTurn(first)]);
}

/// A turn starts: 1 action, 1 step, free actions.
pub fn start_turn(ctx: &mut Ctx, id: CombatantId) {
    let round = ctx.combat.round;
    let movement = crate::turn::refresh_for_turn(ctx, id);
    let sheet = ctx.combat.get_mut(id).tdgs_mut();
    sheet.action_used = false;
    sheet.free_used.clear();
    sheet.stepped = false;
    sheet.extra_moves = 0;
    ctx.emit(Event::TurnStarted { id, round, movement });
    if crate::turn::at_start(ctx, id) {
        if ctx.combat.outcome.is_none() {
            ctx.push_front(vec![Step::EndTurn(id)]);
        }
        return;
    }
    crate::turn::upkeep(ctx, id);
}

/// A turn ends (an unused action is lost); the next in the order acts, or a new round begins.
pub fn end_turn(ctx: &mut Ctx, id: CombatantId) {
    if !crate::turn::close_turn(ctx, id) {
        return;
    }
    let n = ctx.combat.order.len();
    let mut next = ctx.combat.turn + 1;
    while next < n && ctx.combat.get(ctx.combat.order[next]).is_dead() {
        next += 1;
    }
    if next < n {
        ctx.combat.turn = next;
        let who = ctx.combat.order[next];
        ctx.push_front(vec![Step::StartTurn(who)]);
        return;
    }
    ctx.combat.round += 1;
    if ctx.combat.round > MAX_ROUNDS {
        crate::outcome::finish(ctx, Outcome::Halted);
        return;
    }
    let round = ctx.combat.round;
    ctx.emit(Event::RoundStarted { round });
    round_start(ctx);
    first_turn(ctx);
}

/// The turn's budget: the step is one move, after which its unused feet are gone; Dash (the
/// action) buys one more move. Everything else is the action or a free action, as in GogoBee's slots.
pub fn within_budget(
    ctx: &mut Ctx,
    id: CombatantId,
    command: &Command,
    perform: impl FnOnce(&mut Ctx) -> Result<Vec<Step>, RuleViolation>,
) -> Result<Vec<Step>, RuleViolation> {
    match command {
        Command::Move(_) | Command::Crawl(_) => {
            let sheet = ctx.combat.get(id).tdgs();
            if sheet.stepped && sheet.extra_moves == 0 {
                return Err(RuleViolation::StepSpent);
            }
            let steps = perform(ctx)?;
            let c = ctx.combat.get_mut(id);
            if c.tdgs().stepped {
                c.tdgs_mut().extra_moves -= 1;
            } else {
                c.tdgs_mut().stepped = true;
            }
            c.resources.movement_used = c.resources.movement_total;
            Ok(steps)
        }
        Command::Dash => {
            let steps = perform(ctx)?;
            ctx.combat.get_mut(id).tdgs_mut().extra_moves += 1;
            Ok(steps)
        }
        _ if is_free_action(ctx.combat.get(id), command) => {
            let name = super::ctb::describe(command);
            if ctx.combat.get(id).tdgs().free_used.contains(&name) {
                return Err(RuleViolation::OncePerTurn { action: name });
            }
            let steps = perform(ctx)?;
            ctx.combat.get_mut(id).tdgs_mut().free_used.push(name);
            Ok(steps)
        }
        _ => perform(ctx),
    }
}

/// Whether `command` is a free action here: a bonus action, or a spell cast as one.
fn is_free_action(actor: &Combatant, command: &Command) -> bool {
    match command {
        Command::Bonus(_) => true,
        Command::Cast { spell, .. } => actor
            .known_spell(*spell)
            .is_some_and(|s| s.casting_time == crate::content::CastingTime::BonusAction),
        _ => false,
    }
}

/// Delay (a free action): act later this round — right after `after`, or at the end. Only
/// before doing anything this turn, never past the next round's start.
pub fn delay(ctx: &mut Ctx, id: CombatantId, after: Option<CombatantId>) -> Result<Vec<Step>, RuleViolation> {
    if ctx.combat.ruleset != Ruleset::Tdgs {
        return Err(RuleViolation::NotInThisRuleset {
            command: "Delay".into(),
            ruleset: ctx.combat.ruleset.name().into(),
        });
    }
    let me = ctx.combat.get(id);
    if me.tdgs().action_used || !me.tdgs().free_used.is_empty() || me.tdgs().stepped {
        return Err(RuleViolation::CannotDelay {
            reason: "You can only delay when your turn comes, before you act or step.".into(),
        });
    }
    let turn = ctx.combat.turn;
    let last = ctx.combat.order.len() - 1;
    let to = match after {
        Some(other) => {
            ctx.combat.find(other)?;
            match ctx.combat.order.iter().position(|&o| o == other) {
                Some(i) if i > turn && !ctx.combat.get(other).is_dead() => i,
                _ => {
                    return Err(RuleViolation::CannotDelay {
                        reason: format!(
                            "{} doesn't act later this round — you can't delay past the next round's start.",
                            ctx.combat.get(other).name
                        ),
                    });
                }
            }
        }
        None => last,
    };
    if to <= turn {
        return Err(RuleViolation::CannotDelay {
            reason: "You already act last this round.".into(),
        });
    }
    let me = ctx.combat.order.remove(turn);
    ctx.combat.order.insert(to, me);
    ctx.emit(Event::Delayed { id, after });
    // Whoever now stands at this place in the order acts (it is alive: it was after us, and
    // the dead are skipped).
    let mut next = turn;
    while ctx.combat.get(ctx.combat.order[next]).is_dead() {
        next += 1;
    }
    ctx.combat.turn = next;
    Ok(vec![Step::StartTurn(ctx.combat.order[next])])
}

/// `DeclareInstant`: holds `instant` for the next Instant phase (round 1's, before the scene
/// starts).
pub fn declare_instant(ctx: &mut Ctx, id: CombatantId, instant: Instant) -> Result<(), RuleViolation> {
    if ctx.combat.ruleset != Ruleset::Tdgs {
        return Err(RuleViolation::NotInThisRuleset {
            command: "Instants".into(),
            ruleset: ctx.combat.ruleset.name().into(),
        });
    }
    let c = ctx.combat.find(id)?;
    if !c.is_standing() {
        return Err(RuleViolation::Incapacitated);
    }
    if Instant::granted(c) != Some(instant) {
        return Err(RuleViolation::NotEligible {
            ability: instant.name().into(),
            requirement: match instant {
                Instant::QuickDraw => "a Rogue",
                Instant::BattleCry => "a Fighter or Berserker",
                Instant::Premonition => "a Mage",
                Instant::SteadyAim => "a Ranger",
            }
            .into(),
        });
    }
    if c.tdgs().instants_used.contains(&instant) {
        return Err(RuleViolation::SpentThisScene {
            ability: instant.name().into(),
        });
    }
    ctx.combat.get_mut(id).tdgs_mut().declared = Some(instant);
    let round = if ctx.combat.started { ctx.combat.round + 1 } else { 1 };
    ctx.emit(Event::InstantDeclared { id, instant, round });
    Ok(())
}

/// Scene end: per-scene (and per-round) Interrupt uses reset; per-day ones remain.
pub fn scene_end(combat: &mut Combat) {
    for c in &mut combat.combatants {
        for u in &mut c.tdgs_mut().uses {
            u.round = 0;
            u.scene = 0;
        }
        c.tdgs_mut().declared = None;
        c.tdgs_mut().instants_used.clear();
    }
}
