//! Content shared by every timing model (seed 000 §2–§6 and the zones of §3.4): races, classes,
//! weapons and armor, spells, items, monsters and zones, as typed tables.

pub mod classes;
pub mod data;
pub mod gear;
pub mod id;
pub mod items;
pub mod monsters;
pub mod races;
pub mod spells;
pub mod statuses;
pub mod zones;

use serde::{Deserialize, Serialize};

pub use classes::Class;
pub use gear::{Armor, Weapon};
pub use items::Item;
pub use monsters::{Behaviour, Monster};
pub use races::Race;
pub use spells::Spell;
pub use zones::Zone;

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

/// Damage types that matter to the rules (Rage resists the physical three).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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
}

impl DamageType {
    pub fn is_physical(self) -> bool {
        matches!(
            self,
            DamageType::Slashing | DamageType::Piercing | DamageType::Bludgeoning
        )
    }
}

/// `def()` for an enum naming built-in entries: the entry of [`data::builtin`] with its name.
macro_rules! builtin_def {
    ($($enum:ty => $table:ident : $def:ty),* $(,)?) => {$(
        impl $enum {
            /// This built-in entry's definition (the data the rules read).
            pub fn def(self) -> &'static std::sync::Arc<$def> {
                match data::builtin().$table.get(self.name()) {
                    Some(def) => def,
                    None => panic!("the built-in content has no {:?} ({})", self, self.name()),
                }
            }
        }
    )*};
}

builtin_def! {
    Race => races: data::RaceDef,
    Class => classes: data::ClassDef,
    Weapon => weapons: data::WeaponDef,
    Armor => armor: data::ArmorDef,
    Monster => monsters: data::MonsterDef,
}

/// Parses a content name leniently: case, spaces, dashes, underscores and apostrophes are ignored.
pub(crate) fn normalize(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Finds the entry of `all` whose name matches `text` (see [`normalize`]).
pub(crate) fn find_by_name<T: Copy>(all: &[T], name: impl Fn(T) -> &'static str, text: &str) -> Option<T> {
    let wanted = normalize(text);
    all.iter().copied().find(|&item| normalize(name(item)) == wanted)
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
