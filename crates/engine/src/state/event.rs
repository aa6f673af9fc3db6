//! Events: the only output of the rules. Narration, persistence and replay all consume them.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::content::{Ability, Condition, DamageType, Item, Skill, Spell};
use crate::dice::D20;
use crate::state::combatant::CunningStrike;
use crate::state::damage::{Defence, ExtraParts};
use crate::state::death_saves::{DeathSaveOutcome, DeathSaveResult};
use crate::state::ids::CombatantId;
use crate::state::movement::Band;
use crate::state::movement::ShoveMode;
use crate::state::reactions::{ReactionKind, ReactionTrigger};

/// How an attack came about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AttackKind {
    /// Part of the Attack action's sequence.
    Action,
    OffHand,
    Opportunity,
    Readied,
    Spell,
    /// A legendary action's attack, outside the attacker's turn.
    Legendary,
}

/// How a fight ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// Every enemy is dead.
    Victory,
    /// No party member can fight on.
    Defeat,
    /// Ended by the GM, or by the round limit.
    Halted,
}

/// One entry of the initiative order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitiativeEntry {
    pub id: CombatantId,
    pub roll: u32,
    pub total: i32,
}

/// One unit's meter when the charge race (CTB) stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChargeEntry {
    pub id: CombatantId,
    pub charge: i32,
    pub speed: i32,
}

/// One entry of TDGS's stat order: REF, LUK and the d2 flips that broke its ties.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatInitiative {
    pub id: CombatantId,
    pub reflex: i32,
    pub luck: i32,
    pub flips: Vec<u32>,
}

/// Where a combatant who joined a fight already begun was placed, by the fight's timing model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Placement {
    /// The fight has not begun: `Begin` places everyone.
    Waiting,
    /// GogoBee / ticks: initiative rolled (d20 + DEX), fixed from now on.
    Initiative { roll: u32, total: i32 },
    /// TDGS: into the fixed REF → LUK order, no initiative roll; `flips` are the d2s that broke
    /// a tie with those it matched (empty when none was needed). `this_round`: its place comes
    /// later in the round in progress.
    NaturalOrder {
        reflex: i32,
        luck: i32,
        flips: Vec<u32>,
        this_round: bool,
    },
    /// CTB: into the charge race with an empty meter.
    Charge { charge: i32 },
}

/// Something that happened in a fight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    InitiativeRolled {
        order: Vec<InitiativeEntry>,
    },
    RoundStarted {
        round: u32,
    },
    /// `id` joined the fight (a late joiner, a reinforcement) and was placed by the timing model.
    Joined {
        id: CombatantId,
        placement: Placement,
    },
    TurnStarted {
        id: CombatantId,
        round: u32,
        movement: i32,
    },
    TurnEnded {
        id: CombatantId,
    },
    /// An unfired readied action lapsed at the start of its owner's turn: action and reaction spent.
    ReadiedActionExpired {
        id: CombatantId,
        action: String,
    },
    Moved {
        id: CombatantId,
        feet: i32,
        to: Vec<(CombatantId, Band)>,
        difficult_terrain: bool,
        /// What the move came to (closed in, left a reach, …), for the narration.
        #[serde(default)]
        outcome: crate::state::movement::MoveOutcome,
        /// Crawled while prone, at half speed.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        crawl: bool,
    },
    /// `escape` (§3.2 "until freed"): a STR or DEX check against what holds it.
    EscapeAttempted {
        id: CombatantId,
        skill: crate::content::Skill,
        roll: i32,
        dc: i32,
        freed: bool,
    },
    MoveAborted {
        id: CombatantId,
    },
    /// `id` spent `feet` closing on `target`, too far to reach this turn; `remaining` feet to go.
    Closing {
        id: CombatantId,
        target: CombatantId,
        feet: i32,
        remaining: i32,
    },
    StoodUp {
        id: CombatantId,
        feet: i32,
    },
    Teleported {
        id: CombatantId,
        to: Vec<(CombatantId, Band)>,
    },
    Dashed {
        id: CombatantId,
        movement: i32,
    },
    Disengaged {
        id: CombatantId,
    },
    Dodging {
        id: CombatantId,
    },
    Helped {
        id: CombatantId,
        ally: CombatantId,
    },
    HideAttempted {
        id: CombatantId,
        roll: i32,
        against: i32,
        hidden: bool,
    },
    Revealed {
        id: CombatantId,
    },
    Searched {
        id: CombatantId,
        skill: Skill,
        roll: i32,
        found: Vec<String>,
    },
    AttackRolled {
        attacker: CombatantId,
        target: CombatantId,
        /// The weapon's, natural attack's or spell's name (shared with the sheet's definition;
        /// serialised as the string it is).
        weapon: Arc<str>,
        kind: AttackKind,
        swing: u32,
        of: u32,
        d20: D20,
        total: i32,
        armor_class: i32,
        hit: bool,
        critical: bool,
    },
    /// A swing of a sequence found no target left in reach.
    SwingLost {
        attacker: CombatantId,
        swing: u32,
    },
    SneakAttack {
        attacker: CombatantId,
        dice: u32,
    },
    DamageDealt {
        source: Option<CombatantId>,
        target: CombatantId,
        /// The whole, every type included.
        amount: i32,
        /// The first part's type.
        damage_type: DamageType,
        critical: bool,
        hp: i32,
        /// The parts of other types in `amount`, as they landed.
        #[serde(default, skip_serializing_if = "ExtraParts::is_empty")]
        extra: ExtraParts,
    },
    /// A stat block's resistance, immunity or vulnerability changed a part of the damage by
    /// `amount` (taken off, or added by a vulnerability).
    Defended {
        target: CombatantId,
        damage_type: DamageType,
        defence: Defence,
        amount: i32,
    },
    /// Undead Fortitude held: the damage left `id` at 1 HP instead of 0.
    UndeadFortitude {
        id: CombatantId,
    },
    /// A helpless creature (stunned, paralyzed, petrified, unconscious) failed a STR or DEX save
    /// without rolling.
    SaveFailedHelpless {
        id: CombatantId,
        ability: Ability,
        dc: i32,
    },
    /// Legendary Resistance turned `id`'s failed saving throw into a success; `left` uses remain.
    LegendaryResistance {
        id: CombatantId,
        left: u8,
    },
    /// `target` starts its turn in `holder`'s aura (`crate::auras`); what it does follows.
    Aura {
        holder: CombatantId,
        target: CombatantId,
        aura: String,
    },
    /// `id` stops concentrating on `spell` (`crate::concentration`): the statuses it held up end.
    ConcentrationEnded {
        id: CombatantId,
        spell: String,
    },
    /// `id`'s Regeneration does not work this turn: damage that stops it landed since its last.
    RegenerationStopped {
        id: CombatantId,
    },
    /// `id` takes a legendary action (`crate::legendary`); `left` points remain until its turn.
    LegendaryAction {
        id: CombatantId,
        action: String,
        left: u8,
    },
    /// A condition did not take hold: the creature is immune to it.
    ConditionImmune {
        id: CombatantId,
        condition: Condition,
    },
    DamageReduced {
        target: CombatantId,
        by: CombatantId,
        reaction: ReactionKind,
        amount: i32,
        remaining: i32,
    },
    /// A stat block's own reaction (`crate::reactions`): `by` took `reaction` against
    /// `attacker`'s hit; `missed` when raised AC turned the hit into a miss, else the damage fell
    /// by `amount` to `remaining`.
    StatBlockReaction {
        by: CombatantId,
        attacker: CombatantId,
        reaction: Box<str>,
        missed: bool,
        amount: i32,
        remaining: i32,
    },
    /// `target` was given `amount` temporary hit points by `by` (`crate::temp_hp`) and now has
    /// `temp_hp`; `kept` when those it had were as many or more, so nothing changed.
    TempHpGained {
        target: CombatantId,
        by: CombatantId,
        amount: i32,
        temp_hp: i32,
        kept: bool,
    },
    /// `id`'s temporary hit points took `amount` of a hit; `left` remain.
    TempHpAbsorbed {
        id: CombatantId,
        amount: i32,
        left: i32,
    },
    Resisted {
        target: CombatantId,
        amount: i32,
    },
    Healed {
        target: CombatantId,
        by: CombatantId,
        amount: i32,
        hp: i32,
    },
    SpellCast {
        caster: CombatantId,
        spell: Spell,
        slot: Option<u32>,
        target: Option<CombatantId>,
    },
    SpellCountered {
        caster: CombatantId,
        spell: Spell,
        by: CombatantId,
        /// The counterspeller's INT check and its DC (10 + the spell's level); 0 in fights
        /// logged before they were kept.
        #[serde(default)]
        roll: i32,
        #[serde(default)]
        dc: i32,
    },
    CounterspellFailed {
        caster: CombatantId,
        by: CombatantId,
        roll: i32,
        dc: i32,
    },
    /// TDGS mutual destruction (seed 001 "Simultaneous events"): `first`'s action and `second`'s
    /// would each prevent the other; `first` (higher REF, then LUK, then the d2s `flips`)
    /// completes first.
    MutualDestruction {
        first: CombatantId,
        second: CombatantId,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        flips: Vec<u32>,
    },
    /// TDGS Parry (seed 001 "Interrupt timing"): `by` rolled `roll` against `dc` at the interrupt
    /// check of `attacker`'s melee attack; on success the attack is deflected (never rolled).
    ParryRolled {
        by: CombatantId,
        attacker: CombatantId,
        roll: i32,
        dc: i32,
        deflected: bool,
    },
    SavingThrow {
        id: CombatantId,
        ability: Ability,
        d20: D20,
        total: i32,
        dc: i32,
        success: bool,
    },
    AbilityUsed {
        id: CombatantId,
        ability: String,
    },
    /// A recharging area ability is ready again (`ability`: its name, unless a breath weapon).
    BreathRecharged {
        id: CombatantId,
        roll: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ability: Option<String>,
    },
    Contest {
        id: CombatantId,
        target: CombatantId,
        roll: i32,
        against: i32,
        won: bool,
    },
    Grappled {
        id: CombatantId,
        target: CombatantId,
    },
    Shoved {
        id: CombatantId,
        target: CombatantId,
        mode: ShoveMode,
    },
    ConditionApplied {
        id: CombatantId,
        condition: String,
    },
    ConditionEnded {
        id: CombatantId,
        condition: String,
    },
    CunningStrikeReady {
        id: CombatantId,
        rider: CunningStrike,
    },
    ItemUsed {
        id: CombatantId,
        item: Item,
        target: CombatantId,
    },
    MedicineCheck {
        id: CombatantId,
        target: CombatantId,
        roll: i32,
        success: bool,
    },
    ReadiedActionSet {
        id: CombatantId,
        action: String,
        trigger: String,
    },
    ReadiedActionTriggered {
        id: CombatantId,
        trigger_by: CombatantId,
        action: String,
        /// What set it off (a move, a spell, an ability, an attack); `None` in fights logged
        /// before it was kept.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        observed: Option<crate::state::readied::Observed>,
    },
    ReactionOffered {
        reactor: CombatantId,
        trigger: ReactionTrigger,
        options: Vec<ReactionKind>,
    },
    ReactionTaken {
        reactor: CombatantId,
        reaction: ReactionKind,
    },
    ReactionPassed {
        reactor: CombatantId,
    },
    Downed {
        id: CombatantId,
    },
    /// Damage while downed: one failure mark, two for a critical hit (§7.3).
    DamagedWhileDowned {
        id: CombatantId,
        marks: u8,
        failures: u8,
    },
    DeathSaveRolled {
        id: CombatantId,
        d20: D20,
        outcome: DeathSaveOutcome,
        result: DeathSaveResult,
        successes: u8,
        failures: u8,
    },
    Stabilized {
        id: CombatantId,
        wakes_in: u8,
    },
    Woke {
        id: CombatantId,
    },
    Revived {
        id: CombatantId,
        hp: i32,
        /// Healed awake but still on the floor (a potion or a spell does not stand them up;
        /// a natural 20 does).
        #[serde(default)]
        prone: bool,
    },
    Died {
        id: CombatantId,
    },
    MonsterSlain {
        id: CombatantId,
        by: Option<CombatantId>,
    },
    HpAdjusted {
        id: CombatantId,
        delta: i32,
        hp: i32,
    },
    CombatEnded {
        outcome: Outcome,
        xp: u32,
    },
    /// CTB: the race ran `ticks` ticks (`tick` in all) until `winner` led with 100 or more.
    ChargeRace {
        ticks: u64,
        tick: u64,
        winner: CombatantId,
        charges: Vec<ChargeEntry>,
    },
    /// CTB: the turn's AP budget.
    ActionPointsRefreshed {
        id: CombatantId,
        ap: u32,
    },
    /// CTB: a command paid `cost` AP.
    ActionPointsSpent {
        id: CombatantId,
        cost: u32,
        left: u32,
    },
    /// CTB: an ability cools down for `turns` turns.
    CooldownStarted {
        id: CombatantId,
        ability: String,
        turns: u32,
    },
    /// CTB: a status effect took hold of `id` — inflicted by `by`'s hit, or innate (`None`) —
    /// for `turns` turns, or for good when `permanent`.
    StatusApplied {
        id: CombatantId,
        status: String,
        by: Option<CombatantId>,
        turns: u32,
        permanent: bool,
    },
    /// CTB: a status effect's upkeep: `amount` HP (negative for damage), turns `remaining`.
    StatusTicked {
        id: CombatantId,
        status: String,
        amount: i32,
        remaining: u32,
        permanent: bool,
    },
    /// CTB: a status effect ran out.
    StatusExpired {
        id: CombatantId,
        status: String,
    },
    /// CTB: stunned — the turn ends at once.
    Stunned {
        id: CombatantId,
    },
    /// TDGS: the order by REF → LUK → d2, fixed at scene start (or when REF or LUK changed).
    InitiativeFixed {
        order: Vec<StatInitiative>,
    },
    /// TDGS: `id` declares `instant` for round `round`'s Instant phase (round 1's when declared
    /// before the scene starts).
    InstantDeclared {
        id: CombatantId,
        instant: crate::state::tdgs::Instant,
        round: u32,
    },
    /// TDGS: an Instant resolves in the Instant phase.
    InstantResolved {
        id: CombatantId,
        instant: crate::state::tdgs::Instant,
        instant_ref: i32,
    },
    /// TDGS: `id` acts later this round — after `after`, or last.
    Delayed {
        id: CombatantId,
        after: Option<CombatantId>,
    },
    /// Ticks: `id`'s `action` enters `phase` at tick `tick`, lasting `ticks` ticks.
    PhaseStarted {
        id: CombatantId,
        action: String,
        phase: crate::state::ticks::Phase,
        ticks: u32,
        #[serde(default)]
        tick: u64,
    },
    /// Ticks: `id`'s action was lost — broken by `by`'s strike, or dropped to react.
    ActionCancelled {
        id: CombatantId,
        action: String,
        by: Option<CombatantId>,
    },
    /// Ticks: at exec the action had become impossible.
    ActionFizzled {
        id: CombatantId,
        reason: String,
    },
    /// Ticks: the timeline waits at `tick` for `id`'s player to choose an action.
    AwaitingCommand {
        id: CombatantId,
        tick: u64,
    },
}
