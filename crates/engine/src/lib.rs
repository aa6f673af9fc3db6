//! GogoBee's rules engine: GogoBee's action economy, movement, reactions, Ready, multi-attack and
//! death saves (seed 000 §1–§7), pure and deterministic.
//!
//! Everything changes through [`apply`], which returns [`Event`]s or a [`RuleViolation`] and
//! leaves the combat untouched on error. Dice are a seeded [`Dice`] stream and time is passed in:
//! the same seed and the same commands give a byte-identical event log.

pub mod abilities;
pub mod action_economy;
pub mod actions;
pub mod attack;
pub mod auras;
pub mod balance;
pub mod behaviour;
pub mod bonus_actions;
pub mod casting;
pub mod combatant;
pub mod concentration;
pub mod conditions;
pub mod content;
pub mod ctx;
pub mod death_saves;
pub mod defences;
pub mod dice;
pub mod fairness;
pub mod hospital;
pub mod join;
pub mod legendary;
pub mod log;
pub mod movement;
pub mod multiattack;
pub mod opportunity;
pub mod outcome;
pub mod reactions;
pub mod readied;
pub mod regeneration;
pub mod resolve;
pub mod saves;
pub mod state;
pub mod statuses;
pub mod temp_hp;
pub mod timing;
pub mod turn;

pub use action_economy::TurnResources;
pub use combatant::{Combatant, CombatantId, Controller, Side};
pub use dice::{Dice, DicePosition};
pub use movement::{Band, MoveIntent};
pub use reactions::{ReactionKind, ReactionTrigger, ReactionWindow};
pub use resolve::apply;
pub use state::combat::{Combat, Ruleset, Terrain};
pub use state::command::{Actor, BonusAction, Command, CunningMove, ShoveMode};
pub use state::event::{Event, Outcome, Placement};
pub use state::violation::RuleViolation;
pub use state::{combat, command, event, sheet, violation};
