//! What the commands share, below them (no `cmd` module imports another): a death's Hospital
//! admission and a fight's or an arena duel's settlement, written inside the ending command's
//! transaction (the store calls them, [`crate::store`]'s aftermath), and the rules and queries
//! two commands both need — expeditions, names, the Hospital's gate, a character's sheet and pet.
//! Built on `repo`, `access`, `entity`, `convert`, `goods` and the engine: nothing here knows a
//! command or the store.

pub mod duel;
pub mod expedition;
pub mod fight;
pub mod hospital;
pub mod names;
pub mod pets;
pub mod sheet;

use engine::{Combat, Dice};

/// The fight a settlement reads, as the command that ended it (or killed in it) left it.
pub(crate) struct Fight<'a> {
    /// The combat's row.
    pub id: i64,
    /// The expedition it is an encounter of, if any.
    pub expedition_id: Option<i64>,
    pub combat: &'a Combat,
    /// The character behind each combatant, by combatant index (`None` for monsters).
    pub characters: &'a [Option<i64>],
    /// The fight's own dice: loot is rolled from them, so a replay finds the same.
    pub dice: &'a mut Dice,
}
