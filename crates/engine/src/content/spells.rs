//! Spells are named by id ([`Spell`]); what a spell does is its definition in the content
//! (`spells.toml`, or a server's own file), copied onto the sheet of each combatant that knows
//! it. The constants name the built-in spells the rules and tests refer to.

use serde::{Deserialize, Serialize};

use super::id::id_type;

/// How long casting takes: which resource of the action economy it spends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CastingTime {
    Action,
    BonusAction,
    Reaction,
}

id_type! {
    /// A spell's id: the normalised name of a spell of the content (`"Fire Bolt"` → `firebolt`).
    Spell
}

impl Spell {
    pub const FIRE_BOLT: Spell = Spell::known("firebolt");
    pub const SACRED_FLAME: Spell = Spell::known("sacredflame");
    pub const ELDRITCH_BLAST: Spell = Spell::known("eldritchblast");
    pub const MAGIC_MISSILE: Spell = Spell::known("magicmissile");
    pub const CURE_WOUNDS: Spell = Spell::known("curewounds");
    pub const HEALING_WORD: Spell = Spell::known("healingword");
    pub const HUNTERS_MARK: Spell = Spell::known("huntersmark");
    pub const ENTANGLE: Spell = Spell::known("entangle");
    pub const WEB: Spell = Spell::known("web");
    pub const MISTY_STEP: Spell = Spell::known("mistystep");
    pub const HASTE: Spell = Spell::known("haste");
    pub const FIREBALL: Spell = Spell::known("fireball");
    pub const COUNTERSPELL: Spell = Spell::known("counterspell");

    /// What to call it without a sheet at hand: the built-in spell's name, else its id.
    pub fn label(self) -> String {
        self.builtin()
            .map_or_else(|| self.as_str().to_owned(), |d| d.name.to_string())
    }

    /// Its definition in the built-in content, if it is a built-in spell.
    pub fn builtin(self) -> Option<&'static std::sync::Arc<super::data::SpellDef>> {
        super::data::builtin().spells.get(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::data::builtin;

    #[test]
    fn every_built_in_spell_has_its_id() {
        for s in builtin().spells.all() {
            let id = Spell::named(&s.name).unwrap();
            assert_eq!(id.builtin().map(|d| &d.name), Some(&s.name));
        }
        assert_eq!(Spell::named("Hunter's Mark"), Some(Spell::HUNTERS_MARK));
        assert_eq!(Spell::HUNTERS_MARK.builtin().map(|d| &*d.name), Some("Hunter's Mark"));
        assert_eq!(Spell::known("wish").builtin(), None);
    }
}
