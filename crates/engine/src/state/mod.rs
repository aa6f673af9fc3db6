//! A fight's state (DESIGN "Suspension"; "Timing models"): the fight, its combatants, what goes in
//! and comes out of `apply`, the resolution queue, and what each timing model keeps. Data only,
//! below every rule: nothing here names a rule module (`tests/architecture.rs` checks), and the
//! rules that read and change it name these types from here. This module holds the fight-wide
//! state of the timing models.

pub mod combat;
pub mod combatant;
pub mod command;
pub mod ctb;
pub mod damage;
pub mod death_saves;
pub mod event;
pub mod ids;
pub mod movement;
pub mod reactions;
pub mod readied;
pub mod repertoire;
pub mod resources;
pub mod roster;
pub mod sheet;
pub mod step;
pub mod tdgs;
pub mod ticks;
pub mod violation;

use serde::{Deserialize, Serialize};

use crate::state::ids::CombatantId;

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
