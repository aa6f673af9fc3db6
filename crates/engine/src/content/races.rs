//! Races and their base speeds (seed 000 §3.1), with the racial bonus-action sources of §2.2
//! (Orc Rage, Tiefling Misty Step).

use serde::{Deserialize, Serialize};

use super::{Abilities, find_by_name};

/// The seven playable races.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Race {
    Human,
    Elf,
    Dwarf,
    Halfling,
    Orc,
    Tiefling,
    HalfElf,
}

impl Race {
    pub const ALL: [Race; 7] = [
        Race::Human,
        Race::Elf,
        Race::Dwarf,
        Race::Halfling,
        Race::Orc,
        Race::Tiefling,
        Race::HalfElf,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Race::Human => "Human",
            Race::Elf => "Elf",
            Race::Dwarf => "Dwarf",
            Race::Halfling => "Halfling",
            Race::Orc => "Orc",
            Race::Tiefling => "Tiefling",
            Race::HalfElf => "Half-Elf",
        }
    }

    pub fn parse(text: &str) -> Option<Race> {
        find_by_name(&Self::ALL, Self::name, text)
    }

    /// Base walking speed in feet (§3.1).
    pub fn speed(self) -> i32 {
        match self {
            Race::Elf => 35,
            Race::Dwarf | Race::Halfling => 25,
            Race::Human | Race::Orc | Race::Tiefling | Race::HalfElf => 30,
        }
    }

    /// Ability score increases.
    pub fn ability_bonus(self) -> Abilities {
        match self {
            Race::Human => Abilities::new(1, 1, 1, 1, 1, 1),
            Race::Elf => Abilities::new(0, 2, 0, 1, 0, 0),
            Race::Dwarf => Abilities::new(2, 0, 2, 0, 0, 0),
            Race::Halfling => Abilities::new(0, 2, 0, 0, 0, 1),
            Race::Orc => Abilities::new(2, 0, 1, 0, 0, 0),
            Race::Tiefling => Abilities::new(0, 0, 0, 1, 0, 2),
            Race::HalfElf => Abilities::new(0, 1, 0, 0, 1, 2),
        }
    }

    /// Orcs may Rage as a bonus action once per combat (§2.2 "Rage: Orc racial").
    pub fn grants_rage(self) -> bool {
        self == Race::Orc
    }

    /// Tieflings may Misty Step as a bonus action once per combat (§2.2 "Misty Step: Tiefling").
    pub fn grants_misty_step(self) -> bool {
        self == Race::Tiefling
    }

    /// Dwarves are not slowed by heavy armor (§3.2 applies only to the other races).
    pub fn ignores_heavy_armor_speed_penalty(self) -> bool {
        self == Race::Dwarf
    }

    /// Elves' keen senses: proficiency in Perception.
    pub fn perception_proficient(self) -> bool {
        matches!(self, Race::Elf | Race::HalfElf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_speed_by_race_matches_the_table() {
        let speeds: Vec<(Race, i32)> = Race::ALL.iter().map(|r| (*r, r.speed())).collect();
        assert_eq!(
            speeds,
            vec![
                (Race::Human, 30),
                (Race::Elf, 35),
                (Race::Dwarf, 25),
                (Race::Halfling, 25),
                (Race::Orc, 30),
                (Race::Tiefling, 30),
                (Race::HalfElf, 30),
            ]
        );
    }

    #[test]
    fn races_parse_by_name() {
        assert_eq!(Race::parse("half-elf"), Some(Race::HalfElf));
        assert_eq!(Race::parse("Half Elf"), Some(Race::HalfElf));
        assert_eq!(Race::parse("gnome"), None);
    }
}
