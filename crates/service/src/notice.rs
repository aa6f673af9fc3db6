//! What the service did around the engine in a command, for the renderer to narrate ([`Notice`]).

use engine::CombatantId;

/// Things the service does around the engine that the renderer should narrate.
#[derive(Debug, Clone, PartialEq)]
pub enum Notice {
    /// A combat was created in the channel (not begun yet unless `Begun` follows).
    CombatCreated,
    /// A character joined the fight; `initiative` once it has begun.
    Joined { id: CombatantId, initiative: Option<i32> },
    /// Monsters entered the fight.
    Spawned { ids: Vec<CombatantId> },
    /// The fight is over and its results were written to the characters.
    Settled(crate::settle::fight::Settled),
    /// A character died and was admitted to the Hospital (seed 000 §8.1), in the same
    /// transaction as the command that killed them.
    Admitted(crate::settle::hospital::Admission),
    /// An arena duel ended: the streaks it changed (`cmd::arena`).
    DuelEnded(crate::settle::duel::DuelEnd),
}
