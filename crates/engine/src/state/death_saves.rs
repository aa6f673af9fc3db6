//! Death saves' data (seed 000 §7): the tally a combatant at 0 HP keeps and what a save did. The
//! rules that roll and mark them are `crate::death_saves`.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// A character's death-save state (seed 000 §7.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct DeathSaveState {
    pub downed: bool,
    /// 0–3.
    pub successes: u8,
    /// 0–3.
    pub failures: u8,
    pub stabilized: bool,
    pub dead: bool,
    /// Turns until a stabilised character wakes with 1 HP (1d4 rolled on stabilising).
    pub wakes_in: u8,
    /// Shield of Faith: the next death save is rolled with advantage.
    pub advantage_next: bool,
    pub updated_at: Option<DateTime<Utc>>,
}

/// What one death save did (seed 000 §7.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DeathSaveOutcome {
    /// 10–19: one success mark.
    Success,
    /// 2–9: one failure mark.
    Failure,
    /// Natural 20: regain 1 HP, stand up, all marks clear.
    CriticalSuccess,
    /// Natural 1: two failure marks.
    CriticalFailure,
}

impl DeathSaveOutcome {
    /// The outcome of a natural d20 roll.
    pub fn of_roll(natural: u32) -> Self {
        match natural {
            20 => Self::CriticalSuccess,
            1 => Self::CriticalFailure,
            10.. => Self::Success,
            _ => Self::Failure,
        }
    }
}

/// Where a save left the character.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DeathSaveResult {
    /// Still downed and rolling.
    StillDying,
    /// Three successes: unconscious but stable.
    Stabilized,
    /// Natural 20: up with 1 HP.
    Revived,
    /// Three failures.
    Died,
}
