//! The action economy's data (seed 000 §2): what a combatant has left to spend this turn. The
//! rules that spend it are `crate::action_economy`.

use serde::{Deserialize, Serialize};

/// A combatant's resources for the current turn (seed 000 §9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct TurnResources {
    pub action_used: bool,
    pub bonus_used: bool,
    pub reaction_used: bool,
    /// Feet moved this turn.
    pub movement_used: i32,
    /// Feet available this turn (speed after modifiers, doubled by Dash).
    pub movement_total: i32,
}

/// One of the four resources.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Resource {
    Action,
    BonusAction,
    Reaction,
    Movement,
}

impl std::fmt::Display for Resource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Resource::Action => "action",
            Resource::BonusAction => "bonus action",
            Resource::Reaction => "reaction",
            Resource::Movement => "movement",
        })
    }
}
