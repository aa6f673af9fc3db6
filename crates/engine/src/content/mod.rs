//! Content shared by every timing model (seed 000 §2–§6 and the zones of §3.4): races, classes,
//! weapons and armor, spells, items, monsters and zones — written once, as data (`data`, the
//! TOML files), named by id (`names`) — and the vocabulary the data is written in (abilities,
//! skills, damage types, conditions).

pub mod data;
pub mod id;
pub mod names;
pub mod statuses;

use serde::{Deserialize, Serialize};

pub use data::{Behaviour, CastingTime};
pub use names::{Armor, Class, Item, Monster, Race, Spell, Weapon, Zone};

/// The six abilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ability {
    Str,
    Dex,
    Con,
    Int,
    Wis,
    Cha,
}

/// Ability scores (3–20 for player characters, up to 30 for monsters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Abilities {
    pub str: i32,
    pub dex: i32,
    pub con: i32,
    pub int: i32,
    pub wis: i32,
    pub cha: i32,
}

impl Abilities {
    pub const fn new(str: i32, dex: i32, con: i32, int: i32, wis: i32, cha: i32) -> Self {
        Self {
            str,
            dex,
            con,
            int,
            wis,
            cha,
        }
    }

    pub fn score(&self, ability: Ability) -> i32 {
        match ability {
            Ability::Str => self.str,
            Ability::Dex => self.dex,
            Ability::Con => self.con,
            Ability::Int => self.int,
            Ability::Wis => self.wis,
            Ability::Cha => self.cha,
        }
    }

    /// The modifier: floor((score − 10) / 2).
    pub fn modifier(&self, ability: Ability) -> i32 {
        (self.score(ability) - 10).div_euclid(2)
    }

    /// Adds a racial bonus, capped at 20.
    pub fn plus(self, bonus: Abilities) -> Self {
        let add = |a: i32, b: i32| (a + b).min(20);
        Self::new(
            add(self.str, bonus.str),
            add(self.dex, bonus.dex),
            add(self.con, bonus.con),
            add(self.int, bonus.int),
            add(self.wis, bonus.wis),
            add(self.cha, bonus.cha),
        )
    }
}

/// The skills the combat rules roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Skill {
    Athletics,
    Acrobatics,
    Stealth,
    Perception,
    Investigation,
    Medicine,
}

impl Skill {
    pub fn ability(self) -> Ability {
        match self {
            Skill::Athletics => Ability::Str,
            Skill::Acrobatics | Skill::Stealth => Ability::Dex,
            Skill::Perception | Skill::Medicine => Ability::Wis,
            Skill::Investigation => Ability::Int,
        }
    }
}

/// The thirteen damage types of SRD 5.1 ("Damage Types"); Rage resists the physical three.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DamageType {
    Slashing,
    Piercing,
    Bludgeoning,
    Fire,
    Force,
    Radiant,
    Necrotic,
    Poison,
    Cold,
    Lightning,
    Acid,
    Psychic,
    Thunder,
}

impl DamageType {
    pub const ALL: [DamageType; 13] = [
        DamageType::Slashing,
        DamageType::Piercing,
        DamageType::Bludgeoning,
        DamageType::Fire,
        DamageType::Force,
        DamageType::Radiant,
        DamageType::Necrotic,
        DamageType::Poison,
        DamageType::Cold,
        DamageType::Lightning,
        DamageType::Acid,
        DamageType::Psychic,
        DamageType::Thunder,
    ];

    pub fn is_physical(self) -> bool {
        matches!(
            self,
            DamageType::Slashing | DamageType::Piercing | DamageType::Bludgeoning
        )
    }

    /// The type as content files and narration name it (`"fire"`).
    pub const fn name(self) -> &'static str {
        match self {
            DamageType::Slashing => "slashing",
            DamageType::Piercing => "piercing",
            DamageType::Bludgeoning => "bludgeoning",
            DamageType::Fire => "fire",
            DamageType::Force => "force",
            DamageType::Radiant => "radiant",
            DamageType::Necrotic => "necrotic",
            DamageType::Poison => "poison",
            DamageType::Cold => "cold",
            DamageType::Lightning => "lightning",
            DamageType::Acid => "acid",
            DamageType::Psychic => "psychic",
            DamageType::Thunder => "thunder",
        }
    }

    /// Its bit in a [`DamageSet`].
    const fn bit(self) -> u16 {
        1 << self as u16
    }
}

/// A set of damage types (a stat block's resistances, immunities or vulnerabilities), each held
/// against every source or only against non-magical weapons ("bludgeoning, piercing and
/// slashing from nonmagical attacks"); natural attacks and every weapon GogoBee has are
/// non-magical.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct DamageSet {
    /// Types held against every source.
    #[serde(default, skip_serializing_if = "is_zero")]
    any: u16,
    /// Types held only against non-magical weapon and natural attacks.
    #[serde(default, skip_serializing_if = "is_zero")]
    mundane: u16,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(n: &u16) -> bool {
    *n == 0
}

impl DamageSet {
    pub const EMPTY: DamageSet = DamageSet { any: 0, mundane: 0 };

    /// The set holding `types` against every source.
    pub fn of(types: &[DamageType]) -> Self {
        let mut set = DamageSet::EMPTY;
        for &t in types {
            set.insert(t, false);
        }
        set
    }

    /// Adds `t`, held against every source or (`mundane_only`) only against non-magical weapons.
    pub fn insert(&mut self, t: DamageType, mundane_only: bool) {
        if mundane_only {
            self.mundane |= t.bit();
        } else {
            self.any |= t.bit();
        }
    }

    #[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
    pub fn is_empty(&self) -> bool {
        self.any == 0 && self.mundane == 0
    }

    /// Whether damage of type `t` is in the set; `mundane` says it comes from a non-magical
    /// weapon or natural attack.
    pub fn holds(self, t: DamageType, mundane: bool) -> bool {
        self.any & t.bit() != 0 || (mundane && self.mundane & t.bit() != 0)
    }

    /// The set's entries as content files write them: `"fire"`, `"nonmagical slashing"`.
    pub fn names(self) -> impl Iterator<Item = String> {
        let any = DamageType::ALL
            .into_iter()
            .filter(move |t| self.any & t.bit() != 0)
            .map(|t| t.name().to_owned());
        let mundane = DamageType::ALL
            .into_iter()
            .filter(move |t| self.mundane & t.bit() != 0 && self.any & t.bit() == 0)
            .map(|t| format!("nonmagical {}", t.name()));
        any.chain(mundane)
    }
}

/// The conditions of SRD 5.1 (appendix "Conditions"), as a stat block's condition immunities and
/// the effects that inflict them name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Condition {
    Blinded,
    Charmed,
    Deafened,
    Exhaustion,
    Frightened,
    Grappled,
    Incapacitated,
    Invisible,
    Paralyzed,
    Petrified,
    Poisoned,
    Prone,
    Restrained,
    Stunned,
    Unconscious,
}

impl Condition {
    pub const ALL: [Condition; 15] = [
        Condition::Blinded,
        Condition::Charmed,
        Condition::Deafened,
        Condition::Exhaustion,
        Condition::Frightened,
        Condition::Grappled,
        Condition::Incapacitated,
        Condition::Invisible,
        Condition::Paralyzed,
        Condition::Petrified,
        Condition::Poisoned,
        Condition::Prone,
        Condition::Restrained,
        Condition::Stunned,
        Condition::Unconscious,
    ];

    /// The condition as content files and narration name it (`"poisoned"`).
    pub const fn name(self) -> &'static str {
        match self {
            Condition::Blinded => "blinded",
            Condition::Charmed => "charmed",
            Condition::Deafened => "deafened",
            Condition::Exhaustion => "exhaustion",
            Condition::Frightened => "frightened",
            Condition::Grappled => "grappled",
            Condition::Incapacitated => "incapacitated",
            Condition::Invisible => "invisible",
            Condition::Paralyzed => "paralyzed",
            Condition::Petrified => "petrified",
            Condition::Poisoned => "poisoned",
            Condition::Prone => "prone",
            Condition::Restrained => "restrained",
            Condition::Stunned => "stunned",
            Condition::Unconscious => "unconscious",
        }
    }

    const fn bit(self) -> u16 {
        1 << self as u16
    }
}

/// A set of conditions (a stat block's condition immunities).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ConditionSet(u16);

impl ConditionSet {
    pub const EMPTY: ConditionSet = ConditionSet(0);

    pub fn of(conditions: &[Condition]) -> Self {
        ConditionSet(conditions.iter().fold(0, |set, c| set | c.bit()))
    }

    pub fn insert(&mut self, c: Condition) {
        self.0 |= c.bit();
    }

    pub fn contains(self, c: Condition) -> bool {
        self.0 & c.bit() != 0
    }

    #[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }

    pub fn iter(self) -> impl Iterator<Item = Condition> {
        Condition::ALL.into_iter().filter(move |c| self.contains(*c))
    }
}

/// Parses a content name leniently: case, spaces, dashes, underscores and apostrophes are ignored.
pub fn normalize(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ability_modifier_is_floor_of_half_score_minus_ten() {
        let a = Abilities::new(8, 9, 10, 11, 18, 20);
        assert_eq!(a.modifier(Ability::Str), -1);
        assert_eq!(a.modifier(Ability::Dex), -1);
        assert_eq!(a.modifier(Ability::Con), 0);
        assert_eq!(a.modifier(Ability::Int), 0);
        assert_eq!(a.modifier(Ability::Wis), 4);
        assert_eq!(a.modifier(Ability::Cha), 5);
        assert_eq!(Abilities::new(1, 3, 30, 10, 10, 10).modifier(Ability::Str), -5);
        assert_eq!(Abilities::new(1, 3, 30, 10, 10, 10).modifier(Ability::Con), 10);
    }

    #[test]
    fn names_parse_leniently() {
        assert_eq!(normalize("Half-Elf"), "halfelf");
        assert_eq!(normalize("hunter's mark"), "huntersmark");
    }
}
