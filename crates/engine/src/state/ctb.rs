//! The charge-meter race's data (seed 003 "Turn Lifecycle Specification"): a unit's charge,
//! AP and cooldowns. The race itself is `timing::ctb`; status effects are `crate::statuses`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// A unit's charge-race sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct CtbSheet {
    /// The charge meter: acts at 100 or more.
    pub charge: i32,
    /// AP left this turn.
    pub ap: u32,
    /// Turns left before an ability may be used again, by ability name (only entries above 0).
    pub cooldowns: BTreeMap<String, u32>,
    /// Status effects as fights stored them when they were the charge race's alone: moved to
    /// `Combatant::statuses` when the fight is read back, so always empty in play.
    pub statuses: Vec<StatusEffect>,
    /// A command paid for in AP is running: the shared rules find the slot they ask for open.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub paid: bool,
}

pub use crate::content::statuses::{StatusEffect, StatusKind};
