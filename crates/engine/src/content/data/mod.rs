//! Content as data (docs/content.md): races, classes with their features by level, weapons,
//! armor, spells, items, statuses, monsters and zones read from TOML files — the built-in ones
//! under `crates/engine/content/`, embedded in the binary — into owned, serialisable
//! definitions, each shared behind an [`Arc`]. [`Content::load`] validates every file and
//! reports each problem with its file and line.
//!
//! The rules read only these definitions, through the copy each combatant takes when it joins
//! a fight ([`crate::state::sheet::Sheet`]); code and tests name entries by id
//! ([`crate::content::names`]: `Class::FIGHTER`, `Monster::GOBLIN`), and `def()` finds a
//! built-in one in [`builtin`].

pub mod defs;
pub mod homebrew;
mod parse;
pub mod world;

#[cfg(test)]
mod validation;

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

pub use defs::*;
pub use parse::{
    ARMOR_CLASS, DICE_BONUS, DIE_SIDES, MAX_CAMPAIGN_ENTRIES, MAX_DICE, MAX_HOMEBREW_BYTES, MAX_HOMEBREW_ENTRIES,
    MAX_NAME_LEN,
};
pub use world::{
    GoodKind, InnDef, MaterialDef, PetDef, RecipeDef, RoomDef, SHIELD, StockDef, WORLD_BUILTIN, World, normalize_name,
};

use super::normalize;

/// One content file: where it comes from (named in every error) and its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContentFile<'a> {
    pub path: &'a str,
    pub text: &'a str,
}

macro_rules! builtin_file {
    ($name:literal) => {
        ContentFile {
            path: concat!("crates/engine/content/", $name),
            text: include_str!(concat!("../../../content/", $name)),
        }
    };
}
/// The built-in content files, embedded in the binary.
pub const BUILTIN: [ContentFile<'static>; 8] = [
    builtin_file!("races.toml"),
    builtin_file!("classes.toml"),
    builtin_file!("gear.toml"),
    builtin_file!("spells.toml"),
    builtin_file!("items.toml"),
    builtin_file!("statuses.toml"),
    builtin_file!("monsters.toml"),
    builtin_file!("zones.toml"),
];

/// One problem in a content file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// The file's path, as given in its [`ContentFile`].
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// What is wrong, and what is allowed.
    pub message: String,
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

/// Content that did not load: every problem found, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentError {
    pub issues: Vec<Issue>,
}

impl fmt::Display for ContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.issues.len();
        writeln!(
            f,
            "content did not load ({n} problem{}):",
            if n == 1 { "" } else { "s" }
        )?;
        for issue in &self.issues {
            writeln!(f, "  {issue}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ContentError {}

/// The definitions of one kind, in file order, found by name or alias (case, spaces, dashes,
/// underscores and apostrophes ignored).
#[derive(Debug, Clone)]
pub struct Table<T> {
    defs: Vec<Arc<T>>,
    by_name: HashMap<String, usize>,
}

impl<T> Table<T> {
    /// Every definition, in the order the files give them.
    pub fn all(&self) -> &[Arc<T>] {
        &self.defs
    }

    /// The definition named (or aliased) `name`.
    pub fn get(&self, name: &str) -> Option<&Arc<T>> {
        self.by_name.get(&normalize(name)).map(|&i| &self.defs[i])
    }

    pub fn len(&self) -> usize {
        self.defs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.defs.is_empty()
    }
}

/// The highest character level.
pub const MAX_LEVEL: u32 = LEVELS as u32;

/// The level table (XP, proficiency, cantrip dice) of the built-in content; a server's homebrew
/// cannot change it.
pub fn levels() -> &'static LevelsDef {
    &builtin().levels
}

/// The built-in content, loaded and validated on first use. The embedded files are checked by
/// this crate's tests and loaded by the binary at start, so a bad file never reaches a fight.
pub fn builtin() -> &'static Content {
    static BUILTIN_CONTENT: OnceLock<Content> = OnceLock::new();
    BUILTIN_CONTENT.get_or_init(|| match Content::builtin() {
        Ok(content) => content,
        Err(e) => panic!("the built-in content does not load: {e}"),
    })
}

/// All content, validated.
#[derive(Debug, Clone)]
pub struct Content {
    pub levels: LevelsDef,
    pub shield: ShieldDef,
    pub races: Table<RaceDef>,
    pub classes: Table<ClassDef>,
    pub weapons: Table<WeaponDef>,
    pub armor: Table<ArmorDef>,
    pub spells: Table<SpellDef>,
    pub items: Table<ItemDef>,
    pub statuses: Table<StatusDef>,
    pub monsters: Table<MonsterDef>,
    pub zones: Table<ZoneDef>,
    /// What the files say that is kept but does nothing in a fight (a swimming speed), by file
    /// and line: an import reports them, never refuses them.
    pub warnings: Vec<Issue>,
}

impl Content {
    /// The built-in content ([`BUILTIN`]).
    pub fn builtin() -> Result<Content, ContentError> {
        Self::load(&BUILTIN)
    }

    /// Reads and validates `files` together (one may refer to what another defines); fails
    /// with every problem found, each naming its file and line.
    pub fn load(files: &[ContentFile<'_>]) -> Result<Content, ContentError> {
        parse::load(files, files.len(), files.len())
    }

    /// The built-in content with a server's homebrew files over it (docs/homebrew.md): they may
    /// define monsters, items, spells and statuses (at most [`MAX_HOMEBREW_ENTRIES`] per file,
    /// [`MAX_HOMEBREW_BYTES`] each), refer to the built-ins and to each other, and take a
    /// built-in's place with `replaces`; a name may not shadow a built-in otherwise.
    pub fn with_homebrew(homebrew: &[ContentFile<'_>]) -> Result<Content, ContentError> {
        let files: Vec<ContentFile<'_>> = BUILTIN.iter().chain(homebrew).copied().collect();
        parse::load(&files, BUILTIN.len(), BUILTIN.len())
    }

    /// The built-in content with a campaign's `stored` homebrew over it, then `uploads` (a file
    /// being imported): every file holds homebrew kinds only, but only the uploads are held to
    /// a file's limits ([`MAX_HOMEBREW_BYTES`], [`MAX_HOMEBREW_ENTRIES`]) — what a campaign has
    /// stored is bounded when imported ([`MAX_CAMPAIGN_ENTRIES`]), so it always loads whole.
    pub fn with_stored_homebrew(
        stored: &[ContentFile<'_>],
        uploads: &[ContentFile<'_>],
    ) -> Result<Content, ContentError> {
        let files: Vec<ContentFile<'_>> = BUILTIN.iter().chain(stored).chain(uploads).copied().collect();
        parse::load(&files, BUILTIN.len(), BUILTIN.len() + stored.len())
    }

    /// The id of the spell named or aliased `text`.
    pub fn spell_id(&self, text: &str) -> Option<super::Spell> {
        self.spells.get(text).and_then(|d| super::Spell::named(&d.name))
    }

    /// The id of the item named or aliased `text` ("potion" is the Potion of Healing).
    pub fn item_id(&self, text: &str) -> Option<super::Item> {
        self.items.get(text).and_then(|d| super::Item::named(&d.name))
    }

    /// A zone by name, or by a prefix of at least four letters ("forest").
    pub fn zone(&self, text: &str) -> Option<&Arc<ZoneDef>> {
        self.zones.get(text).or_else(|| {
            let wanted = normalize(text);
            (wanted.len() >= 4)
                .then(|| {
                    self.zones
                        .all()
                        .iter()
                        .find(|z| normalize(&z.name).starts_with(&wanted))
                })
                .flatten()
        })
    }
}
