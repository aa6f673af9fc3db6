//! A command as the combat log stores it ([`Logged`]).

use engine::combatant::Combatant;
use engine::{Actor, Command};
use serde::{Deserialize, Serialize};

/// A command as the combat log stores it: an engine command, several applied in order as one
/// (a spawn of several monsters: one `Join` each), or one the service performs itself.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum Logged {
    Engine {
        actor: Actor,
        command: Command,
    },
    Sequence {
        commands: Vec<(Actor, Command)>,
    },
    /// The GM closed a fight that never began.
    Close,
    /// Written before joins were engine commands: the service added the combatant itself.
    /// Read only, by replay.
    Join {
        combatant: Box<Combatant>,
        character_id: Option<i64>,
        initiative_roll: Option<u32>,
    },
    /// Written before joins were engine commands (see `Join`). Read only, by replay.
    Spawn {
        combatants: Vec<Combatant>,
        initiative_rolls: Vec<Option<u32>>,
    },
}
