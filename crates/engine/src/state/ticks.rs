//! The tick timeline's data (seed 004 "Resolution, Initiative, and Reactions"): PER cycles,
//! a combatant's timeline sheet and the fight's loop position. The loop is `timing::ticks`.

use serde::{Deserialize, Serialize};

use crate::state::command::Command;
use crate::state::ids::CombatantId;
use crate::state::repertoire::ReactionKind;

/// A phase of a PER cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Phase {
    Prep,
    Exec,
    Recover,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Prep => "prep",
            Phase::Exec => "exec",
            Phase::Recover => "recover",
        }
    }
}

/// What happens to an action in progress when its actor reacts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Interruptibility {
    /// Resumes once the reaction fully completes (including its recover).
    Pause,
    /// Deep concentration: lost.
    Cancel,
}

/// What a cycle is doing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Activity {
    /// A chosen action.
    Command(Command),
    /// Nothing chosen (the AI had nothing to do; a player ended their "turn"): one tick idle.
    Wait,
    /// A monster's breath weapon, as a fight stored before area abilities named it: its first.
    Breath,
    /// A monster's area ability (`crate::abilities`): its index and name.
    Ability { index: u8, name: String },
    /// A downed character's death save (or recovery).
    Downed,
    /// A stun (`crate::statuses`) took the cycle: an Attack's whole cycle spent doing nothing.
    Stunned,
    /// A reaction's own cycle.
    Reaction { kind: ReactionKind, target: CombatantId },
}

/// One PER cycle in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cycle {
    pub activity: Activity,
    pub prep: u32,
    pub exec: u32,
    pub recover: u32,
    pub interruptible: Interruptibility,
    /// Ticks processed so far.
    pub elapsed: u32,
    /// The phase last entered (None before the first tick).
    pub entered: Option<Phase>,
    /// The tick last processed (a cycle advances at most once a tick).
    pub processed_at: Option<u64>,
}

impl Cycle {
    /// Ticks the whole cycle takes (at least one).
    pub fn total(&self) -> u32 {
        (self.prep + self.exec + self.recover).max(1)
    }

    /// The phase at `elapsed` ticks in.
    pub fn phase_at(&self, elapsed: u32) -> Phase {
        if elapsed < self.prep {
            Phase::Prep
        } else if elapsed < self.prep + self.exec {
            Phase::Exec
        } else {
            Phase::Recover
        }
    }

    /// The phase an observer sees now.
    pub fn phase(&self) -> Phase {
        self.entered.unwrap_or(Phase::Prep)
    }

    /// How many ticks the phase an observer sees (see [`Cycle::phase`]) still lasts: 0 when its
    /// last tick has been processed (the next tick enters the next phase).
    pub fn left_in_phase(&self) -> u32 {
        let end = match self.phase() {
            Phase::Prep => self.prep,
            Phase::Exec => self.prep + self.exec,
            Phase::Recover => self.total(),
        };
        end.saturating_sub(self.elapsed)
    }
}

/// A combatant's timeline sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct TicksSheet {
    pub current: Option<Cycle>,
    /// Actions paused by reactions, the most recent last.
    pub paused: Vec<Cycle>,
    /// A Dash doubles the feet of the next move.
    pub dashed: bool,
    /// The tick in which the last cycle ended in its recover: for the rest of that tick the
    /// actor is still winding down (a one-tick recover is an exploit window too).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recovered_at: Option<u64>,
}

/// A reaction the tick set off: `observer` saw `actor` enter `phase`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    pub observer: CombatantId,
    pub actor: CombatantId,
    pub phase: Phase,
}

/// The timeline's fight-wide state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct TimelineState {
    /// The coin pre-rolled at the start (true: heads).
    pub coin: bool,
    /// The next actor to process this tick (index into `Combat.order`).
    pub cursor: usize,
    /// The tick's actors are done; its reactions are being resolved.
    pub reacting: bool,
    pub observed: Vec<Observation>,
    /// The player the loop waits for.
    pub awaiting: Option<CombatantId>,
    /// The actor whose exec is running its command now.
    pub executing: Option<CombatantId>,
    /// The last swing: (attacker, target, hit).
    pub last_swing: Option<(CombatantId, CombatantId, bool)>,
}
