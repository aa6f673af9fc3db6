//! TDGS's data (seed 001 "Document 6: Action Economy"): a combatant's turn budget, Interrupt
//! uses and declared Instant. The rules are `timing::tdgs`.

use serde::{Deserialize, Serialize};

use crate::state::repertoire::ReactionKind;

/// A combatant's TDGS sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct TdgsSheet {
    /// The turn's one action is spent (use or lose).
    #[serde(default)]
    pub action_used: bool,
    /// The free actions taken this turn, by name: free actions are unlimited, each one's own
    /// limit ("varies") being once a turn.
    #[serde(default)]
    pub free_used: Vec<String>,
    /// The step of this turn is taken.
    pub stepped: bool,
    /// Moves bought with the action (Dash) still to take this turn.
    pub extra_moves: u8,
    /// Interrupt uses counted against their limits.
    pub uses: Vec<InterruptUses>,
    /// The Instant declared for the next Instant phase.
    pub declared: Option<Instant>,
    /// Instants resolved this scene: each is once a scene (seed 001 "Limits: per ability").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instants_used: Vec<Instant>,
}

/// An Instant: a pre-emptive ability declared for the round's Instant phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Instant {
    /// Rogue, Instant REF 12: advantage on the rogue's next attack.
    QuickDraw,
    /// Fighter / Berserker, Instant REF 8: every standing ally's next attack at advantage.
    BattleCry,
    /// Mage, Instant REF 5: the mage is Dodging until its turn.
    Premonition,
    /// Ranger, no Instant REF of its own (the ranger's REF): advantage on its next attack.
    SteadyAim,
}

/// How often an Interrupt has been used this round, this scene and today.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct InterruptUses {
    pub kind: ReactionKind,
    pub round: u32,
    pub scene: u32,
    pub day: u32,
}

/// An Interrupt's limit (seed 001 "Interrupt limits").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Limit {
    PerRound(u32),
    PerScene(u32),
    PerDay(u32),
}

impl Limit {
    /// Whether `uses` leave room for one more.
    pub fn allows(self, counted: Option<&InterruptUses>) -> bool {
        let (spent, max) = match self {
            Limit::PerRound(n) => (counted.map_or(0, |u| u.round), n),
            Limit::PerScene(n) => (counted.map_or(0, |u| u.scene), n),
            Limit::PerDay(n) => (counted.map_or(0, |u| u.day), n),
        };
        spent < max
    }
}

impl Limit {
    /// Uses the limit allows in its period.
    pub fn max(self) -> u32 {
        match self {
            Limit::PerRound(n) | Limit::PerScene(n) | Limit::PerDay(n) => n,
        }
    }

    /// Uses left in the current period, given those `counted`.
    pub fn left(self, counted: Option<&InterruptUses>) -> u32 {
        let spent = counted.map_or(0, |u| match self {
            Limit::PerRound(_) => u.round,
            Limit::PerScene(_) => u.scene,
            Limit::PerDay(_) => u.day,
        });
        self.max().saturating_sub(spent)
    }

    /// The period the limit resets with: "round", "scene" or "day".
    pub fn period(self) -> &'static str {
        match self {
            Limit::PerRound(_) => "round",
            Limit::PerScene(_) => "scene",
            Limit::PerDay(_) => "day",
        }
    }
}
