//! Movement's data (seed 000 §3): the distance bands between opponents and a move's intent,
//! outcome and plan. The rules that plan a move are `crate::movement`.

use serde::{Deserialize, Serialize};

use crate::state::ids::CombatantId;
use crate::state::violation::RuleViolation;

/// How far apart two opposing combatants are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Band {
    /// Within reach: 5 ft.
    Melee,
    /// Short ranged distance: 30 ft.
    Near,
    /// Long ranged distance: 60 ft.
    Far,
}

impl Band {
    /// Distance in feet the band stands for.
    pub fn feet(self) -> i32 {
        match self {
            Band::Melee => 5,
            Band::Near => 30,
            Band::Far => 60,
        }
    }

    /// One band closer.
    pub fn closer(self) -> Band {
        match self {
            Band::Far => Band::Near,
            Band::Near | Band::Melee => Band::Melee,
        }
    }

    /// One band farther.
    pub fn farther(self) -> Band {
        match self {
            Band::Melee => Band::Near,
            Band::Near | Band::Far => Band::Far,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Band::Melee => "melee",
            Band::Near => "near",
            Band::Far => "far",
        }
    }
}

/// A compass or relative direction for `move <direction>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Direction {
    North,
    South,
    East,
    West,
    Left,
    Right,
}

/// What a player asks for with `move`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MoveIntent {
    /// Close to melee range with the target.
    Melee(CombatantId),
    /// Fall back to ranged distance (Near) from every enemy.
    Ranged,
    /// One band closer to every enemy.
    Toward,
    /// One band farther from every enemy.
    Away,
    /// A short shift without changing distance bands.
    Shift(Direction),
}

impl MoveIntent {
    /// Parses a direction word: `ranged`, `toward`, `away`, or a compass/relative direction
    /// (`melee` needs a target and is built by the caller).
    pub fn parse_direction(text: &str) -> Result<MoveIntent, RuleViolation> {
        let word = text.trim().to_lowercase();
        Ok(match word.as_str() {
            "ranged" | "range" | "back off" | "fall back" => MoveIntent::Ranged,
            "toward" | "towards" | "forward" | "forwards" | "closer" | "advance" | "in" => MoveIntent::Toward,
            "away" | "back" | "backward" | "backwards" | "retreat" | "out" => MoveIntent::Away,
            "north" | "n" | "up" => MoveIntent::Shift(Direction::North),
            "south" | "s" | "down" => MoveIntent::Shift(Direction::South),
            "east" | "e" => MoveIntent::Shift(Direction::East),
            "west" | "w" => MoveIntent::Shift(Direction::West),
            "left" => MoveIntent::Shift(Direction::Left),
            "right" => MoveIntent::Shift(Direction::Right),
            _ => {
                return Err(RuleViolation::UnknownDirection {
                    direction: text.trim().to_owned(),
                });
            }
        })
    }
}

/// What a move came to, as TwinBee narrates it (§3.3 "TwinBee narrates all movement"): by the
/// bands it changed, not the words the player typed. Entering someone's reach says most, then
/// leaving one, then closing or opening distance, then a shift that changed no band.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum MoveOutcome {
    /// Into melee with this one.
    ClosedIn(CombatantId),
    /// Out of this one's reach (and perhaps others').
    LeftReach(CombatantId),
    /// Closer to this one (far → near), still out of reach.
    Advanced(CombatantId),
    /// Farther from this one (near → far); no reach was left.
    FellBack(CombatantId),
    /// A shift that changed no band, still in this one's reach.
    ShiftedInMelee(CombatantId),
    /// A shift that changed no band, in no one's reach.
    Shifted,
    /// A move logged before outcomes were kept.
    #[default]
    Unrecorded,
}

/// A resolved move: the new band to each enemy whose band changes, and its cost in feet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MovePlan {
    pub changes: Vec<(CombatantId, Band)>,
    pub feet: i32,
    /// Enemies whose melee reach the mover leaves.
    pub leaving: Vec<CombatantId>,
    /// Enemies whose melee reach the mover enters.
    pub entering: Vec<CombatantId>,
    /// Teleportation (Misty Step): provokes no opportunity attacks.
    pub teleport: bool,
    /// What the move comes to, for the narration.
    #[serde(default)]
    pub outcome: MoveOutcome,
    /// Crawled while prone (each foot cost two).
    #[serde(default)]
    pub crawl: bool,
    /// The band to each of `changes` when the move was planned: one that has moved since (a
    /// held Dash away from the mover) is no longer where the move was headed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub from: Vec<(CombatantId, Band)>,
}

/// What a successful shove does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ShoveMode {
    Prone,
    Push,
}
