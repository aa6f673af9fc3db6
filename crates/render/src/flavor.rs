//! Narration as data (DESIGN "Narration files", STYLE 11): the lines under `flavor/`, embedded in
//! the binary, loaded and checked once at start, and picked deterministically from a seed.
//!
//! Every key the code uses is a [`Key`], which names its file and the placeholders its lines may
//! use. [`Flavor::load`] fails on an unknown key, a missing key, a key with no lines, a line
//! whose placeholder its key does not provide, or a stray brace.

use std::collections::BTreeMap;
use std::fmt;

use thiserror::Error;

/// One of the four narration files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FlavorFile {
    /// `flavor/twinbee_combat.toml`: actions, attacks, reactions, death saves.
    TwinbeeCombat,
    /// `flavor/twinbee_gm.toml`: `PlayerDeath`, the end of a fight, GM tools.
    TwinbeeGm,
    /// `flavor/twinbee_expedition.toml`: rooms, difficult terrain, `ExpeditionResume`.
    TwinbeeExpedition,
    /// `flavor/thom_krooke.toml`: the Hospital, payment, debt, rest.
    ThomKrooke,
}

impl FlavorFile {
    pub const ALL: [FlavorFile; 4] = [
        FlavorFile::TwinbeeCombat,
        FlavorFile::TwinbeeGm,
        FlavorFile::TwinbeeExpedition,
        FlavorFile::ThomKrooke,
    ];

    /// The file's path in the repository.
    pub fn path(self) -> &'static str {
        match self {
            FlavorFile::TwinbeeCombat => "flavor/twinbee_combat.toml",
            FlavorFile::TwinbeeGm => "flavor/twinbee_gm.toml",
            FlavorFile::TwinbeeExpedition => "flavor/twinbee_expedition.toml",
            FlavorFile::ThomKrooke => "flavor/thom_krooke.toml",
        }
    }

    /// The file's text as embedded in the binary.
    pub fn embedded(self) -> &'static str {
        match self {
            FlavorFile::TwinbeeCombat => include_str!("../../../flavor/twinbee_combat.toml"),
            FlavorFile::TwinbeeGm => include_str!("../../../flavor/twinbee_gm.toml"),
            FlavorFile::TwinbeeExpedition => include_str!("../../../flavor/twinbee_expedition.toml"),
            FlavorFile::ThomKrooke => include_str!("../../../flavor/thom_krooke.toml"),
        }
    }

    /// Who speaks the file's lines.
    pub fn speaker(self) -> Speaker {
        match self {
            FlavorFile::ThomKrooke => Speaker::ThomKrooke,
            _ => Speaker::TwinBee,
        }
    }
}

impl fmt::Display for FlavorFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.path())
    }
}

/// Whose voice a line is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Speaker {
    /// The game master.
    TwinBee,
    /// The innkeeper who runs the Hospital.
    ThomKrooke,
}

impl Speaker {
    pub fn name(self) -> &'static str {
        match self {
            Speaker::TwinBee => "TwinBee",
            Speaker::ThomKrooke => "Thom Krooke",
        }
    }
}

macro_rules! keys {
    ($( $file:ident { $( $(#[doc = $doc:literal])* $key:ident => [$($ph:literal),* $(,)?] ),* $(,)? } )*) => {
        /// A narration key: which file holds it and which placeholders its lines may use.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Key {
            $($( $(#[doc = $doc])* $key, )*)*
            /// A line an event picks (`engine::log::Say`: the engine says which line and
            /// with which values, for every event; the words are here).
            Say(engine::log::Say),
        }

        impl Key {
            /// Every key the code uses; each must be present in its file.
            pub fn all() -> Vec<Key> {
                let mut keys = vec![$($(Key::$key,)*)*];
                keys.extend(engine::log::Say::all().into_iter().map(Key::Say));
                keys
            }

            /// The key as written in its file.
            pub fn name(self) -> &'static str {
                match self {
                    $($(Key::$key => stringify!($key),)*)*
                    Key::Say(say) => say.name(),
                }
            }

            /// The file the key lives in.
            pub fn file(self) -> FlavorFile {
                match self {
                    $($(Key::$key => FlavorFile::$file,)*)*
                    Key::Say(say) => say_file(say),
                }
            }

            /// The placeholders the key's lines may use.
            pub fn placeholders(self) -> &'static [&'static str] {
                match self {
                    $($(Key::$key => &[$($ph),*],)*)*
                    Key::Say(say) => say.placeholders(),
                }
            }
        }
    };
}

keys! {
    TwinbeeCombat {
        /// The message content that pings the player whose turn it is.
        TurnPing => ["mention", "name"],
        /// The reaction prompt (§4): an enemy is leaving the reactor's reach.
        ReactionPromptLeavesMelee => ["name", "mover"],
        ReactionPromptHit => ["name", "attacker", "damage"],
        /// TDGS's interrupt check: an attack on the reactor is declared, not yet rolled.
        ReactionPromptAttackDeclared => ["name", "attacker"],
        ReactionPromptAllyHit => ["name", "attacker", "target", "damage"],
        ReactionPromptAllyDown => ["name", "ally"],
        ReactionPromptSpell => ["name", "caster", "spell"],
        ReactionPromptDexSave => ["name", "damage"],
        ReactionPromptReadied => ["name", "mover", "did"],
        /// The campaign's turn timer ran out on a player the fight waited for: their turn ends.
        TurnTimedOut => ["name"],
        ReactionPromptPrep => ["name", "mover"],
        ReactionPromptRecover => ["name", "mover"],
    }
    TwinbeeGm {
        GmSpawn => ["monster", "count"],
        GmGrantCoins => ["name", "coins"],
        GmGrantItem => ["name", "item"],
        GmSetLevel => ["name", "level"],
        GmEndCombat => [],
        CharacterRenamed => ["name", "old"],
        /// The arena: a challenge, offered with Accept / Decline buttons.
        ArenaChallenge => ["name", "rival"],
        ArenaDeclined => ["name", "rival"],
        /// The streaks after a duel: the winner's, and the run the loser's defeat ended.
        ArenaStreak => ["name", "streak", "rival", "lost"],
        /// The same when the loser had no streak to lose.
        ArenaWinStreak => ["name", "streak"],
    }
    TwinbeeExpedition {
        ExpeditionStart => ["name", "zone"],
        RoomEntry => ["name", "zone", "room", "rooms"],
        RoomQuiet => ["name", "zone"],
        Encounter => ["name", "zone", "monsters"],
        Harvest => ["name", "materials"],
        ExpeditionComplete => ["name", "zone"],
        ExpeditionLeave => ["name", "zone"],
        /// Death abandons the run (§8.1).
        ExpeditionAbandoned => ["name", "zone"],
        /// §8.6: the return after a Hospital stay.
        ExpeditionResume => ["name", "zone"],
        DifficultTerrainSunkenTemple => ["name", "zone"],
        DifficultTerrainForestOfShadows => ["name", "zone"],
        DifficultTerrainHauntedManor => ["name", "zone"],
        DifficultTerrainUnderforge => ["name", "zone"],
        DifficultTerrainUnderdark => ["name", "zone"],
        DifficultTerrainFeywildCrossing => ["name", "zone"],
        DifficultTerrainDragonsLair => ["name", "zone"],
        DifficultTerrainAbyssPortal => ["name", "zone"],
    }
    ThomKrooke {
        /// §8.6: "Again," Thom says, not unkindly.
        HospitalAdmission => ["name", "fee"],
        HospitalStatus => ["name", "fee"],
        HospitalPaid => ["name", "fee", "duration"],
        /// The fee could not be paid and is deferred as a debt.
        HospitalDebt => ["name", "fee"],
        DebtCleared => ["name", "fee"],
        NothingOwed => ["name"],
        RestRemaining => ["name", "remaining"],
        RestBlocksExpedition => ["name", "remaining"],
        RestOver => ["name"],
        /// The shop: `good` reads "2 × Potion of Healing"; `left` is the coins after.
        ShopBought => ["name", "good", "coins", "left"],
        ShopSold => ["name", "good", "coins", "left"],
        /// The inn's rests, for coins.
        RestShort => ["name", "coins", "healed", "hp"],
        RestLong => ["name", "coins", "hp"],
        /// A long rest gave back the day's TDGS Interrupts (seed 001 "Per day: resets after long rest").
        RestRestoresInterrupts => ["name"],
        Crafted => ["name", "good", "coins"],
        CharacterRetired => ["name"],
        /// A pet bought at the shop.
        PetAdopted => ["name", "pet", "coins", "left"],
        /// A room of one's own at the inn, bought once.
        RoomBought => ["name", "coins", "capacity"],
        /// Something put in the room's chest, or taken out; `good` reads "2 × Potion of Healing".
        RoomStored => ["name", "good", "stored", "capacity"],
        RoomTaken => ["name", "good", "stored", "capacity"],
        /// A long rest in one's own room, free.
        RestOwnRoom => ["name", "hp"],
    }
}

/// The file an event's line lives in: the end of a fight, a death and the GM's tools are the
/// GM's; the rest is the fight's.
fn say_file(say: engine::log::Say) -> FlavorFile {
    use engine::log::Say;
    match say {
        Say::PlayerDeath
        | Say::Victory
        | Say::Defeat
        | Say::Halted
        | Say::GmHpRaised
        | Say::GmHpLowered
        | Say::DuelWon => FlavorFile::TwinbeeGm,
        _ => FlavorFile::TwinbeeCombat,
    }
}

impl Key {
    /// Looks a key up by the name it has in its file.
    pub fn from_name(name: &str) -> Option<Key> {
        Key::all().into_iter().find(|k| k.name() == name)
    }

    /// The Difficult Terrain key for a built-in zone (§3.4); `None` for a zone the flavor files
    /// do not describe.
    pub fn difficult_terrain(zone: engine::content::Zone) -> Option<Key> {
        use engine::content::Zone;
        Some(match zone {
            Zone::SUNKEN_TEMPLE => Key::DifficultTerrainSunkenTemple,
            Zone::FOREST_OF_SHADOWS => Key::DifficultTerrainForestOfShadows,
            Zone::HAUNTED_MANOR => Key::DifficultTerrainHauntedManor,
            Zone::UNDERFORGE => Key::DifficultTerrainUnderforge,
            Zone::UNDERDARK => Key::DifficultTerrainUnderdark,
            Zone::FEYWILD_CROSSING => Key::DifficultTerrainFeywildCrossing,
            Zone::DRAGONS_LAIR => Key::DifficultTerrainDragonsLair,
            Zone::ABYSS_PORTAL => Key::DifficultTerrainAbyssPortal,
            _ => return None,
        })
    }
}

/// One thing wrong with the flavor files.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FlavorProblem {
    /// The file is not valid TOML.
    #[error("{file}: not valid TOML: {message}")]
    Parse { file: FlavorFile, message: String },
    /// A key in the file is not one the code knows (or belongs to another file).
    #[error("{file}: unknown key `{key}`")]
    UnknownKey { file: FlavorFile, key: String },
    /// A key the code uses is absent from its file.
    #[error("{file}: missing key `{key}`", key = key.name())]
    MissingKey { file: FlavorFile, key: Key },
    /// A key's value is not an array of strings.
    #[error("{file}: `{key}` must be an array of strings", key = key.name())]
    NotAList { file: FlavorFile, key: Key },
    /// A key has no lines, or an empty line.
    #[error("{file}: `{key}` has an empty line or no lines", key = key.name())]
    Empty { file: FlavorFile, key: Key },
    /// A line uses a placeholder its key does not provide.
    #[error("{file}: `{key}` line {line}: unknown placeholder {{{placeholder}}} (allowed: {allowed})",
        key = key.name(), allowed = allowed(*key))]
    UnknownPlaceholder {
        file: FlavorFile,
        key: Key,
        line: usize,
        placeholder: String,
    },
    /// A line has an unmatched `{` or `}`, or a placeholder that is not a plain name.
    #[error("{file}: `{key}` line {line}: malformed placeholder", key = key.name())]
    Malformed { file: FlavorFile, key: Key, line: usize },
}

fn allowed(key: Key) -> String {
    if key.placeholders().is_empty() {
        "none".to_owned()
    } else {
        key.placeholders()
            .iter()
            .map(|p| format!("{{{p}}}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Everything wrong with the flavor files, reported at once.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub struct FlavorError {
    pub problems: Vec<FlavorProblem>,
}

impl fmt::Display for FlavorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "the flavor files have {} problem(s):", self.problems.len())?;
        for p in &self.problems {
            writeln!(f, "  {p}")?;
        }
        Ok(())
    }
}

/// A piece of a parsed line: literal text, or a placeholder to fill.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Text(String),
    Slot(String),
}

/// Splits a line into text and `{name}` placeholders; `None` if a brace is unmatched or a
/// placeholder is not `[a-z_]+`.
fn parse_line(line: &str) -> Option<Vec<Piece>> {
    let mut pieces = Vec::new();
    let mut rest = line;
    while let Some(open) = rest.find(['{', '}']) {
        if rest[open..].starts_with('}') {
            return None;
        }
        let after = &rest[open + 1..];
        let close = after.find('}')?;
        let name = &after[..close];
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
            return None;
        }
        if open > 0 {
            pieces.push(Piece::Text(rest[..open].to_owned()));
        }
        pieces.push(Piece::Slot(name.to_owned()));
        rest = &after[close + 1..];
    }
    if !rest.is_empty() {
        pieces.push(Piece::Text(rest.to_owned()));
    }
    Some(pieces)
}

/// The loaded, checked narration lines.
#[derive(Debug, Clone)]
pub struct Flavor {
    lines: BTreeMap<Key, Vec<Vec<Piece>>>,
}

impl Flavor {
    /// Loads and checks the embedded flavor files. Call once at start; fail fast on an error.
    pub fn load() -> Result<Flavor, FlavorError> {
        Self::from_sources(FlavorFile::ALL.iter().map(|f| (*f, f.embedded())))
    }

    /// Loads and checks flavor files from the given texts (every file must be given; a file
    /// not given counts as empty, so its keys are reported missing).
    pub fn from_sources<'a>(sources: impl IntoIterator<Item = (FlavorFile, &'a str)>) -> Result<Flavor, FlavorError> {
        let mut problems = Vec::new();
        let mut lines = BTreeMap::new();
        let mut seen_files = Vec::new();
        for (file, text) in sources {
            seen_files.push(file);
            let table: toml::Table = match text.parse() {
                Ok(t) => t,
                Err(e) => {
                    problems.push(FlavorProblem::Parse {
                        file,
                        message: e.to_string().trim().to_owned(),
                    });
                    continue;
                }
            };
            for (name, value) in &table {
                let Some(key) = Key::from_name(name).filter(|k| k.file() == file) else {
                    problems.push(FlavorProblem::UnknownKey {
                        file,
                        key: name.clone(),
                    });
                    continue;
                };
                match check_key(file, key, value) {
                    Ok(parsed) => {
                        lines.insert(key, parsed);
                    }
                    Err(mut found) => problems.append(&mut found),
                }
            }
        }
        for key in &Key::all() {
            let parse_failed = problems
                .iter()
                .any(|p| matches!(p, FlavorProblem::Parse { file, .. } if *file == key.file()));
            let reported = problems.iter().any(|p| match p {
                FlavorProblem::NotAList { key: k, .. }
                | FlavorProblem::Empty { key: k, .. }
                | FlavorProblem::UnknownPlaceholder { key: k, .. }
                | FlavorProblem::Malformed { key: k, .. } => k == key,
                _ => false,
            });
            if !lines.contains_key(key) && !parse_failed && !reported {
                problems.push(FlavorProblem::MissingKey {
                    file: key.file(),
                    key: *key,
                });
            }
        }
        if problems.is_empty() {
            Ok(Flavor { lines })
        } else {
            Err(FlavorError { problems })
        }
    }

    /// How many lines a key has.
    pub fn variants(&self, key: Key) -> usize {
        self.lines.get(&key).map_or(0, Vec::len)
    }

    /// Picks one of the key's lines by `seed` and `salt` (deterministic: the same pair always
    /// picks the same line) and fills its placeholders from `values`. A placeholder with no
    /// value is left as `{name}` (the key declares what callers must supply).
    pub fn pick(&self, key: Key, seed: u64, salt: u64, values: &[(&str, &str)]) -> String {
        debug_assert!(
            key.placeholders()
                .iter()
                .all(|p| values.iter().any(|(name, _)| name == p)),
            "{}: every declared placeholder needs a value",
            key.name()
        );
        let Some(variants) = self.lines.get(&key).filter(|v| !v.is_empty()) else {
            return String::new();
        };
        let index = (mix(seed, salt ^ fnv1a(key.name())) % variants.len() as u64) as usize;
        let mut out = String::new();
        for piece in &variants[index] {
            match piece {
                Piece::Text(t) => out.push_str(t),
                Piece::Slot(name) => {
                    if let Some((_, value)) = values.iter().find(|(n, _)| n == name) {
                        out.push_str(value);
                    } else {
                        out.push('{');
                        out.push_str(name);
                        out.push('}');
                    }
                }
            }
        }
        english(&out)
    }

    /// Every line of a key with its placeholders left in place (for tests and review).
    pub fn raw_lines(&self, key: Key) -> Vec<String> {
        self.lines
            .get(&key)
            .map(|variants| {
                variants
                    .iter()
                    .map(|pieces| {
                        pieces
                            .iter()
                            .map(|p| match p {
                                Piece::Text(t) => t.clone(),
                                Piece::Slot(s) => format!("{{{s}}}"),
                            })
                            .collect()
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
}

fn check_key(file: FlavorFile, key: Key, value: &toml::Value) -> Result<Vec<Vec<Piece>>, Vec<FlavorProblem>> {
    let Some(array) = value.as_array() else {
        return Err(vec![FlavorProblem::NotAList { file, key }]);
    };
    if array.is_empty() {
        return Err(vec![FlavorProblem::Empty { file, key }]);
    }
    let mut problems = Vec::new();
    let mut parsed = Vec::new();
    for (i, item) in array.iter().enumerate() {
        let line = i + 1;
        let Some(text) = item.as_str() else {
            problems.push(FlavorProblem::NotAList { file, key });
            continue;
        };
        if text.trim().is_empty() {
            problems.push(FlavorProblem::Empty { file, key });
            continue;
        }
        let Some(pieces) = parse_line(text) else {
            problems.push(FlavorProblem::Malformed { file, key, line });
            continue;
        };
        for piece in &pieces {
            if let Piece::Slot(name) = piece
                && !key.placeholders().contains(&name.as_str())
            {
                problems.push(FlavorProblem::UnknownPlaceholder {
                    file,
                    key,
                    line,
                    placeholder: name.clone(),
                });
            }
        }
        parsed.push(pieces);
    }
    if problems.is_empty() { Ok(parsed) } else { Err(problems) }
}

/// FNV-1a: a stable hash of a key's name (std's hasher may change between releases).
/// Nouns a filled line counts, said singular after a count of one (`1 coin`, `1 tick`).
const COUNTED: &[&str] = &[
    "coins",
    "ticks",
    "turns",
    "rounds",
    "times",
    "charges",
    "attacks",
    "failures",
    "successes",
    "wins",
    "points",
    "levels",
];

/// A filled line's English put right where a value meets the words around it: `a` before a
/// vowel becomes `an` (`an Orc`, `an **Ogre**`), and a counted noun after `1` is singular
/// (`1 coin`).
pub fn english(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    for (i, word) in words.iter().enumerate() {
        let next = words.get(i + 1).map(|w| w.trim_start_matches(['*', '_', '"']));
        let vowel = next
            .and_then(|w| w.chars().next())
            .is_some_and(|c| matches!(c.to_ascii_lowercase(), 'a' | 'e' | 'i' | 'o'));
        let one = i > 0
            && matches!(
                words[i - 1].trim_start_matches(['(', '*']).trim_end_matches('*'),
                "1" | "-1"
            );
        let bare = word.trim_end_matches(|c: char| !c.is_alphanumeric());
        match *word {
            "a" if vowel => out.push("an".to_owned()),
            "A" if vowel => out.push("An".to_owned()),
            _ if one && COUNTED.contains(&bare) => {
                out.push(format!("{}{}", &bare[..bare.len() - 1], &word[bare.len()..]));
            }
            _ => out.push((*word).to_owned()),
        }
    }
    out.join(" ")
}

fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// `SplitMix64` finaliser over a seed and a salt: a stable, well-spread pick.
pub(crate) fn mix(seed: u64, salt: u64) -> u64 {
    let mut z = seed ^ salt.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_filled_line_says_an_before_a_vowel_and_one_coin() {
        assert_eq!(
            english("Kira hurls a Oil flask at a **Orc**."),
            "Kira hurls an Oil flask at an **Orc**."
        );
        assert_eq!(english("A Ogre and a Goblin"), "An Ogre and a Goblin");
        assert_eq!(
            english("Thom pays 1 coins. (1 coins left.)"),
            "Thom pays 1 coin. (1 coin left.)"
        );
        assert_eq!(english("11 coins, 21 ticks, 2 turns"), "11 coins, 21 ticks, 2 turns");
        assert_eq!(english("for 1 ticks."), "for 1 tick.");
    }

    #[test]
    fn lines_split_into_text_and_placeholders() {
        assert_eq!(
            parse_line("{name} hits {target}."),
            Some(vec![
                Piece::Slot("name".into()),
                Piece::Text(" hits ".into()),
                Piece::Slot("target".into()),
                Piece::Text(".".into()),
            ])
        );
        assert_eq!(parse_line("a { b"), None);
        assert_eq!(parse_line("a } b"), None);
        assert_eq!(parse_line("{Name}"), None);
        assert_eq!(parse_line("{}"), None);
    }

    #[test]
    fn key_names_are_unique_and_round_trip() {
        for key in &Key::all() {
            assert_eq!(Key::from_name(key.name()), Some(*key));
        }
    }
}
