//! Rule violations: why a command was refused. A refused command changes nothing; the message
//! says what to do instead.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::state::resources::Resource;

/// Why the rules refused a command.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum RuleViolation {
    /// The combat is over.
    #[error("This combat is over.")]
    CombatOver,
    /// TDGS: a free action may be taken once a turn.
    #[error("You've already used {action} this turn — each free action once a turn.")]
    OncePerTurn { action: String },
    /// The fight holds as many combatants as it may.
    #[error("This fight is full: at most {max} combatants take part in one fight.")]
    FightFull { max: usize },
    /// Names are unique in a fight: every command names its target by them.
    #[error("Someone called {name} is already in this fight — a fight never holds two of a name.")]
    NameTaken { name: String },
    /// The combat has already begun.
    #[error("This combat has already begun.")]
    AlreadyStarted,
    /// The combat has not begun yet.
    #[error("This combat has not begun yet — start it first.")]
    NotStarted,
    /// A combat needs someone on each side.
    #[error("A fight needs at least one combatant on each side.")]
    NeedBothSides,
    /// The acting combatant is not in this combat.
    #[error("You are not in this combat.")]
    NotInCombat,
    /// Someone else is acting.
    #[error("It's not your turn — {current} is acting.")]
    NotYourTurn { current: String },
    /// A reaction window is open and must be answered first.
    #[error("Waiting for {reactor} to react or pass.")]
    AwaitingReaction { reactor: String },
    /// A reaction or pass was sent but no window is open for this combatant.
    #[error("There is nothing to react to right now.")]
    NoReactionPending,
    /// Someone else's reaction window is open.
    #[error("That reaction is {reactor}'s to take, not yours.")]
    NotYourReaction { reactor: String },
    /// The chosen reaction is not among the offered ones.
    #[error("That reaction isn't available now — choose one of: {offered}.")]
    ReactionNotOffered { offered: String },
    /// The resource the command needs is spent this turn.
    #[error("You have no {resource} left this turn — end your turn or do something else.")]
    ResourceSpent { resource: Resource },
    /// Not enough movement left.
    #[error("That move needs {needed} ft but you have {left} ft left — Dash first, or move less.")]
    NotEnoughMovement { needed: i32, left: i32 },
    /// The combatant cannot move at all.
    #[error("You can't move: your speed is 0 ({reason}).")]
    CannotMove { reason: String },
    /// The combatant is downed or dead.
    #[error("You are unconscious and cannot act.")]
    Incapacitated,
    /// No combatant matches the target.
    #[error("There's no one called \"{name}\" in this fight.")]
    UnknownTarget { name: String },
    /// The target is not valid for this command.
    #[error("{reason}")]
    InvalidTarget { reason: String },
    /// A melee command needs the target in melee range.
    #[error("{target} is out of melee reach — /move melee first.")]
    OutOfReach { target: String },
    /// No bonus action is granted by class, race, spell or item.
    #[error("Nothing grants you {ability} as a bonus action ({why}).")]
    NoBonusActionGranted { ability: String, why: String },
    /// A class, level or race gate is not met.
    #[error("{ability} needs {requirement}.")]
    NotEligible { ability: String, requirement: String },
    /// A once-a-scene ability (a TDGS Instant) was used this scene.
    #[error("{ability} is once a scene, and you have used it in this one.")]
    SpentThisScene { ability: String },
    /// The spell is not known.
    #[error("You don't know {spell}. Known spells: {known}.")]
    SpellNotKnown { spell: String, known: String },
    /// No spell slot of a high enough level is left.
    #[error("You have no spell slot of level {level} or higher left.")]
    NoSpellSlot { level: u32 },
    /// An innate spell cast as often as its stat block allows this fight.
    #[error("{spell} is cast {per_day} time(s) a day, and the day's casts are spent.")]
    InnateSpellSpent { spell: String, per_day: u32 },
    /// The spell is cast another way.
    #[error("{spell} is cast {how}.")]
    WrongCastingTime { spell: String, how: String },
    /// A per-combat pool is empty.
    #[error("You have no {pool} left this fight.")]
    PoolEmpty { pool: String },
    /// The item is not carried.
    #[error("You don't have a {item}.")]
    ItemNotCarried { item: String },
    /// The Ready text could not be parsed.
    #[error("I can't read that readied action: {reason}. Try: {forms}")]
    UnparsableReady { reason: String, forms: String },
    /// Hide refused (in melee or already hidden).
    #[error("{reason}")]
    CannotHide { reason: String },
    /// The move direction is not understood.
    #[error("I don't know the direction \"{direction}\" — use melee, ranged, toward, away, or a compass direction.")]
    UnknownDirection { direction: String },
    /// The command belongs to another timing model.
    #[error("{command} is not part of the {ruleset} rules.")]
    NotInThisRuleset { command: String, ruleset: String },
    /// CTB: the action costs more AP than are left this turn.
    #[error("{action} costs {cost} AP but you have {left} AP left — end your turn or do something cheaper.")]
    NotEnoughAp { action: String, cost: u32, left: u32 },
    /// CTB: the ability is cooling down.
    #[error("{ability} is on cooldown for {turns} more turn(s).")]
    OnCooldown { ability: String, turns: u32 },
    /// TDGS: the turn's one step is spent (before or after the action, never both).
    #[error("You have already taken your step this turn — a turn has one step, before or after the action.")]
    StepSpent,
    /// TDGS: Delay only moves you later this round, before you have done anything.
    #[error("{reason}")]
    CannotDelay { reason: String },
    /// The command is meaningless in the current situation.
    #[error("{reason}")]
    Pointless { reason: String },
}
