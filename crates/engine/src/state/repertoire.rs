//! The reaction kinds (seed 000 §2.3 and the timing models' own) and the sets of them a
//! combatant's sheet may give it. What each reaction does is its module in `crate::reactions`.

use serde::{Deserialize, Serialize};

use crate::state::ids::Ruleset;

/// Lists the reaction kinds once, with their serialised names (never changed): the order is the
/// buttons' order and their `custom_id` index, so new reactions go last. Each has its module in
/// `crate::reactions`' registry.
macro_rules! kinds {
    ($( $(#[doc = $doc:literal])* $kind:ident ),* $(,)?) => {
        /// The reactions of §2.3, a readied action firing (§5), the tick timeline's strikes
        /// (seed 004), and those added since.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum ReactionKind {
            $( $(#[doc = $doc])* $kind, )*
        }

        impl ReactionKind {
            /// Every reaction, in the registry's order.
            pub const ALL: [ReactionKind; [$(stringify!($kind)),*].len()] = [$(ReactionKind::$kind),*];

            /// The narration key of its taking: `React<Name>`.
            pub fn flavor_key(self) -> &'static str {
                match self {
                    $( ReactionKind::$kind => concat!("React", stringify!($kind)), )*
                }
            }

            /// Its stable name (the serialised one).
            pub fn name(self) -> &'static str {
                match self {
                    $( ReactionKind::$kind => stringify!($kind), )*
                }
            }
        }
    };
}

kinds! {
    /// Any: an enemy leaves your melee range without Disengaging — one melee attack.
    OpportunityAttack,
    /// Fighter 5+: hit by a melee attack — reduce the damage by 1d8 + DEX.
    Parry,
    /// Rogue 5+: hit by an attacker you can see — halve the damage.
    UncannyDodge,
    /// Cleric: an ally drops to 0 HP — spend 1 Divine Favor; the ally makes a death save at advantage.
    ShieldOfFaith,
    /// Fighter 3+: an ally within melee range is hit — reduce the damage by 1d10 + proficiency.
    Interception,
    /// Mage 5+: an enemy casts a spell — spend a slot; INT check against DC 10 + spell level cancels it.
    Counterspell,
    /// Rogue / Ranger 7+: failing a DEX save — succeed instead (half damage against a save-for-half).
    Evasion,
    /// A readied action's trigger occurred.
    Readied,
    /// Tick timeline: strike an enemy in its prep; a hit breaks the windup (only for those who
    /// can read prep).
    Cancel,
    /// Tick timeline: strike an enemy in its recover, with advantage.
    Exploit,
    /// Mage: hit by an attack — a 1st-level slot for +5 AC against it and until your next turn.
    Shield,
    /// TDGS Cleric, 1/day: a hit would drop the cleric or an ally to 0 HP — its damage is 0.
    DivineIntervention,
    /// A stat block's own reaction to a hit (`reactions = [...]` in its content): more AC
    /// against the attack, less damage, or half.
    StatBlock,
}

// One bit a reaction.
const _: () = assert!(ReactionKind::ALL.len() <= u16::BITS as usize);

/// A set of reactions: one bit each, in the registry's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReactionSet(u16);

impl ReactionSet {
    /// No reaction.
    pub const EMPTY: ReactionSet = ReactionSet(0);
    /// Every reaction in the registry.
    pub const ALL: ReactionSet = ReactionSet(u16::MAX >> (u16::BITS as usize - ReactionKind::ALL.len()));

    pub fn contains(self, kind: ReactionKind) -> bool {
        self.0 & (1 << kind as u16) != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Its reactions, in the registry's order (the buttons' order).
    pub fn iter(self) -> impl Iterator<Item = ReactionKind> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            let at = bits.trailing_zeros() as usize;
            bits &= bits.wrapping_sub(1);
            ReactionKind::ALL.get(at).copied()
        })
    }
}

impl FromIterator<ReactionKind> for ReactionSet {
    fn from_iter<I: IntoIterator<Item = ReactionKind>>(kinds: I) -> Self {
        ReactionSet(kinds.into_iter().fold(0, |bits, k| bits | 1 << k as u16))
    }
}

impl std::ops::BitAnd for ReactionSet {
    type Output = ReactionSet;

    fn bitand(self, other: ReactionSet) -> ReactionSet {
        ReactionSet(self.0 & other.0)
    }
}

impl std::ops::BitOr for ReactionSet {
    type Output = ReactionSet;

    fn bitor(self, other: ReactionSet) -> ReactionSet {
        ReactionSet(self.0 | other.0)
    }
}

/// The reactions a combatant's sheet could ever give it, under each ruleset
/// ([`Reaction::sheet_grants`]): worked out once when its sheet is made or changed
/// ([`Combatant::sheet_mut`]) and kept inline in the combatant, so a trigger put to a whole fight
/// passes over everyone without a reaction answering it before reading their sheets
/// ([`Asking::has_options`]). Whatever the combatant still has to spend, its readied action and
/// the timing model's own reactions are there (their gates are not the sheet's).
///
/// A cache of what the sheet says, not state of its own: it is not stored (a fight read back,
/// one stored before it existed included, works it out again as it loads —
/// `crate::state::roster`), and combatants equal in everything else are equal whatever it holds.
/// A combatant deserialized on its own, outside a fight or a `Join`, holds every reaction until
/// its sheet is next changed: asked everything, it is never passed over wrongly.
#[derive(Debug, Clone, Copy)]
pub struct Repertoire([ReactionSet; Ruleset::ALL.len()]);

impl Repertoire {
    /// One set for each ruleset, in [`Ruleset::ALL`]'s order.
    pub fn by_ruleset(set: impl FnMut(Ruleset) -> ReactionSet) -> Self {
        Repertoire(Ruleset::ALL.map(set))
    }

    /// Every reaction under every ruleset: not known yet.
    pub fn unknown() -> Self {
        Repertoire([ReactionSet::ALL; Ruleset::ALL.len()])
    }

    /// Those it may have under `ruleset`.
    pub fn under(self, ruleset: Ruleset) -> ReactionSet {
        self.0[ruleset as usize]
    }

    /// Whether it holds every reaction `other` holds, under every ruleset.
    pub fn covers(self, other: Repertoire) -> bool {
        self.0
            .into_iter()
            .zip(other.0)
            .all(|(mine, theirs)| (mine & theirs) == theirs)
    }
}

impl Default for Repertoire {
    fn default() -> Self {
        Self::unknown()
    }
}

/// A cache: see [`Repertoire`].
impl PartialEq for Repertoire {
    fn eq(&self, _other: &Repertoire) -> bool {
        true
    }
}

impl Eq for Repertoire {}
