//! Classes, levels 1–20: hit points, proficiency, class resources, spell slots, and the
//! multi-attack table of seed 000 §6.

use serde::{Deserialize, Serialize};

use super::gear::{Armor, Weapon};
use super::{Abilities, Ability, Skill, find_by_name};

/// The classes the seed names; Berserker is the Rage class of §2.2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Class {
    Fighter,
    Rogue,
    Ranger,
    Cleric,
    Mage,
    Berserker,
}

/// Highest character level.
pub const MAX_LEVEL: u32 = 20;

/// XP needed to reach each level (index = level − 1).
pub const XP_FOR_LEVEL: [u32; 20] = [
    0, 300, 900, 2_700, 6_500, 14_000, 23_000, 34_000, 48_000, 64_000, 85_000, 100_000, 120_000, 140_000, 165_000,
    195_000, 225_000, 265_000, 305_000, 355_000,
];

/// The level a character with `xp` experience has reached.
pub fn level_for_xp(xp: u32) -> u32 {
    XP_FOR_LEVEL
        .iter()
        .rposition(|&need| xp >= need)
        .map_or(1, |i| i as u32 + 1)
}

/// Proficiency bonus by level: +2 at 1–4, +3 at 5–8, … +6 at 17–20.
pub fn proficiency_bonus(level: u32) -> i32 {
    2 + (level.clamp(1, MAX_LEVEL) as i32 - 1) / 4
}

/// How a class casts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Casting {
    None,
    /// Full caster slot table, with this ability.
    Full(Ability),
    /// Half caster slot table (from level 1), with this ability.
    Half(Ability),
}

const FULL_CASTER_SLOTS: [[u8; 9]; 20] = [
    [2, 0, 0, 0, 0, 0, 0, 0, 0],
    [3, 0, 0, 0, 0, 0, 0, 0, 0],
    [4, 2, 0, 0, 0, 0, 0, 0, 0],
    [4, 3, 0, 0, 0, 0, 0, 0, 0],
    [4, 3, 2, 0, 0, 0, 0, 0, 0],
    [4, 3, 3, 0, 0, 0, 0, 0, 0],
    [4, 3, 3, 1, 0, 0, 0, 0, 0],
    [4, 3, 3, 2, 0, 0, 0, 0, 0],
    [4, 3, 3, 3, 1, 0, 0, 0, 0],
    [4, 3, 3, 3, 2, 0, 0, 0, 0],
    [4, 3, 3, 3, 2, 1, 0, 0, 0],
    [4, 3, 3, 3, 2, 1, 0, 0, 0],
    [4, 3, 3, 3, 2, 1, 1, 0, 0],
    [4, 3, 3, 3, 2, 1, 1, 0, 0],
    [4, 3, 3, 3, 2, 1, 1, 1, 0],
    [4, 3, 3, 3, 2, 1, 1, 1, 0],
    [4, 3, 3, 3, 2, 1, 1, 1, 1],
    [4, 3, 3, 3, 3, 1, 1, 1, 1],
    [4, 3, 3, 3, 3, 2, 1, 1, 1],
    [4, 3, 3, 3, 3, 2, 2, 1, 1],
];

const HALF_CASTER_SLOTS: [[u8; 9]; 20] = [
    [2, 0, 0, 0, 0, 0, 0, 0, 0],
    [2, 0, 0, 0, 0, 0, 0, 0, 0],
    [3, 0, 0, 0, 0, 0, 0, 0, 0],
    [3, 0, 0, 0, 0, 0, 0, 0, 0],
    [4, 2, 0, 0, 0, 0, 0, 0, 0],
    [4, 2, 0, 0, 0, 0, 0, 0, 0],
    [4, 3, 0, 0, 0, 0, 0, 0, 0],
    [4, 3, 0, 0, 0, 0, 0, 0, 0],
    [4, 3, 2, 0, 0, 0, 0, 0, 0],
    [4, 3, 2, 0, 0, 0, 0, 0, 0],
    [4, 3, 3, 0, 0, 0, 0, 0, 0],
    [4, 3, 3, 0, 0, 0, 0, 0, 0],
    [4, 3, 3, 1, 0, 0, 0, 0, 0],
    [4, 3, 3, 1, 0, 0, 0, 0, 0],
    [4, 3, 3, 2, 0, 0, 0, 0, 0],
    [4, 3, 3, 2, 0, 0, 0, 0, 0],
    [4, 3, 3, 3, 1, 0, 0, 0, 0],
    [4, 3, 3, 3, 1, 0, 0, 0, 0],
    [4, 3, 3, 3, 2, 0, 0, 0, 0],
    [4, 3, 3, 3, 2, 0, 0, 0, 0],
];

/// A class's starting kit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kit {
    pub weapon: Weapon,
    pub off_hand: Option<Weapon>,
    pub armor: Armor,
    pub shield: bool,
}

impl Class {
    pub const ALL: [Class; 6] = [
        Class::Fighter,
        Class::Rogue,
        Class::Ranger,
        Class::Cleric,
        Class::Mage,
        Class::Berserker,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Class::Fighter => "Fighter",
            Class::Rogue => "Rogue",
            Class::Ranger => "Ranger",
            Class::Cleric => "Cleric",
            Class::Mage => "Mage",
            Class::Berserker => "Berserker",
        }
    }

    pub fn parse(text: &str) -> Option<Class> {
        find_by_name(&Self::ALL, Self::name, text).or_else(|| match super::normalize(text).as_str() {
            "wizard" => Some(Class::Mage),
            "barbarian" => Some(Class::Berserker),
            _ => None,
        })
    }

    /// Hit die size.
    pub fn hit_die(self) -> i32 {
        match self {
            Class::Mage => 6,
            Class::Rogue | Class::Cleric => 8,
            Class::Fighter | Class::Ranger => 10,
            Class::Berserker => 12,
        }
    }

    /// Maximum HP: the full hit die at level 1, then the die's average rounded up per level;
    /// CON modifier every level; at least 1 per level.
    pub fn max_hp(self, level: u32, con_mod: i32) -> i32 {
        let level = level.clamp(1, MAX_LEVEL) as i32;
        let per_level = self.hit_die() / 2 + 1;
        let hp = self.hit_die() + con_mod + (level - 1) * (per_level + con_mod);
        hp.max(level)
    }

    /// Scores before racial bonuses: the standard array placed for the class.
    pub fn base_abilities(self) -> Abilities {
        match self {
            Class::Fighter => Abilities::new(15, 13, 14, 8, 12, 10),
            Class::Rogue => Abilities::new(8, 15, 14, 12, 13, 10),
            Class::Ranger => Abilities::new(12, 15, 13, 8, 14, 10),
            Class::Cleric => Abilities::new(13, 10, 14, 8, 15, 12),
            Class::Mage => Abilities::new(8, 14, 13, 15, 12, 10),
            Class::Berserker => Abilities::new(15, 13, 14, 8, 12, 10),
        }
    }

    pub fn saving_throws(self) -> [Ability; 2] {
        match self {
            Class::Fighter | Class::Berserker => [Ability::Str, Ability::Con],
            Class::Rogue => [Ability::Dex, Ability::Int],
            Class::Ranger => [Ability::Str, Ability::Dex],
            Class::Cleric => [Ability::Wis, Ability::Cha],
            Class::Mage => [Ability::Int, Ability::Wis],
        }
    }

    pub fn skills(self) -> &'static [Skill] {
        match self {
            Class::Fighter => &[Skill::Athletics, Skill::Perception],
            Class::Rogue => &[
                Skill::Stealth,
                Skill::Acrobatics,
                Skill::Perception,
                Skill::Investigation,
            ],
            Class::Ranger => &[Skill::Stealth, Skill::Perception, Skill::Athletics],
            Class::Cleric => &[Skill::Medicine, Skill::Perception],
            Class::Mage => &[Skill::Investigation, Skill::Medicine],
            Class::Berserker => &[Skill::Athletics, Skill::Perception],
        }
    }

    pub fn kit(self) -> Kit {
        let kit = |weapon, off_hand, armor, shield| Kit {
            weapon,
            off_hand,
            armor,
            shield,
        };
        match self {
            Class::Fighter => kit(Weapon::Longsword, None, Armor::ChainMail, true),
            Class::Rogue => kit(Weapon::Shortsword, Some(Weapon::Dagger), Armor::Leather, false),
            Class::Ranger => kit(Weapon::Longbow, None, Armor::ScaleMail, false),
            Class::Cleric => kit(Weapon::Mace, None, Armor::ScaleMail, true),
            Class::Mage => kit(Weapon::Quarterstaff, None, Armor::None, false),
            Class::Berserker => kit(Weapon::Greataxe, None, Armor::None, false),
        }
    }

    pub fn casting(self) -> Casting {
        match self {
            Class::Cleric => Casting::Full(Ability::Wis),
            Class::Mage => Casting::Full(Ability::Int),
            Class::Ranger => Casting::Half(Ability::Wis),
            Class::Fighter | Class::Rogue | Class::Berserker => Casting::None,
        }
    }

    /// Spell slots by spell level (index 0 = 1st level).
    pub fn spell_slots(self, level: u32) -> [u8; 9] {
        let row = level.clamp(1, MAX_LEVEL) as usize - 1;
        match self.casting() {
            Casting::Full(_) => FULL_CASTER_SLOTS[row],
            Casting::Half(_) => HALF_CASTER_SLOTS[row],
            Casting::None => [0; 9],
        }
    }

    /// Attacks per Attack action (seed 000 §6).
    pub fn attacks_per_action(self, level: u32) -> u32 {
        match (self, level) {
            (Class::Fighter, 20..) => 4,
            (Class::Fighter, 11..) => 3,
            (Class::Fighter | Class::Ranger | Class::Berserker, 5..) => 2,
            (Class::Cleric, 8..) => 2,
            _ => 1,
        }
    }

    /// Second Wind uses per combat (Fighter): 2 at 1–3, 3 at 4–9, 4 from 10.
    pub fn second_wind_uses(self, level: u32) -> u8 {
        match (self, level) {
            (Class::Fighter, 10..) => 4,
            (Class::Fighter, 4..) => 3,
            (Class::Fighter, _) => 2,
            _ => 0,
        }
    }

    /// Rage uses per combat (Berserker): 2, 3 at 3, 4 at 6, 5 at 12, 6 at 17.
    pub fn rage_uses(self, level: u32) -> u8 {
        match (self, level) {
            (Class::Berserker, 17..) => 6,
            (Class::Berserker, 12..) => 5,
            (Class::Berserker, 6..) => 4,
            (Class::Berserker, 3..) => 3,
            (Class::Berserker, _) => 2,
            _ => 0,
        }
    }

    /// Divine Favor (Cleric), spent by Shield of Faith: 1, +1 at 5, 11 and 17.
    pub fn divine_favor(self, level: u32) -> u8 {
        match (self, level) {
            (Class::Cleric, 17..) => 4,
            (Class::Cleric, 11..) => 3,
            (Class::Cleric, 5..) => 2,
            (Class::Cleric, _) => 1,
            _ => 0,
        }
    }

    /// Sneak Attack dice (Rogue): ceil(level / 2) d6.
    pub fn sneak_attack_dice(self, level: u32) -> u32 {
        if self == Class::Rogue {
            level.clamp(1, MAX_LEVEL).div_ceil(2)
        } else {
            0
        }
    }
}

/// Rage damage bonus by level: +2, +3 at 9, +4 at 16.
pub fn rage_damage(level: u32) -> i32 {
    match level {
        16.. => 4,
        9.. => 3,
        _ => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multi_attack_table_matches_the_seed() {
        let row = |class: Class| (1..=20).map(|l| class.attacks_per_action(l)).collect::<Vec<_>>();
        let fighter = row(Class::Fighter);
        assert_eq!(&fighter[0..4], &[1, 1, 1, 1]);
        assert!(fighter[4..10].iter().all(|&n| n == 2));
        assert!(fighter[10..19].iter().all(|&n| n == 3));
        assert_eq!(fighter[19], 4);
        let ranger = row(Class::Ranger);
        assert_eq!(&ranger[0..4], &[1, 1, 1, 1]);
        assert!(ranger[4..].iter().all(|&n| n == 2));
        assert!(row(Class::Rogue).iter().all(|&n| n == 1));
        assert!(row(Class::Mage).iter().all(|&n| n == 1));
        let cleric = row(Class::Cleric);
        assert!(cleric[0..7].iter().all(|&n| n == 1));
        assert!(cleric[7..].iter().all(|&n| n == 2));
    }

    #[test]
    fn proficiency_bonus_steps_every_four_levels() {
        let p: Vec<i32> = [1, 4, 5, 8, 9, 12, 13, 16, 17, 20]
            .iter()
            .map(|&l| proficiency_bonus(l))
            .collect();
        assert_eq!(p, vec![2, 2, 3, 3, 4, 4, 5, 5, 6, 6]);
    }

    #[test]
    fn max_hp_is_full_die_then_average_rounded_up() {
        assert_eq!(Class::Fighter.max_hp(1, 2), 12);
        assert_eq!(Class::Fighter.max_hp(5, 2), 12 + 4 * 8);
        assert_eq!(Class::Mage.max_hp(1, -1), 5);
        assert_eq!(Class::Mage.max_hp(3, -5), 3);
    }

    #[test]
    fn level_follows_xp_thresholds() {
        assert_eq!(level_for_xp(0), 1);
        assert_eq!(level_for_xp(299), 1);
        assert_eq!(level_for_xp(300), 2);
        assert_eq!(level_for_xp(355_000), 20);
        assert_eq!(level_for_xp(u32::MAX), 20);
    }

    #[test]
    fn sneak_attack_grows_one_die_every_odd_level() {
        assert_eq!(Class::Rogue.sneak_attack_dice(1), 1);
        assert_eq!(Class::Rogue.sneak_attack_dice(2), 1);
        assert_eq!(Class::Rogue.sneak_attack_dice(3), 2);
        assert_eq!(Class::Rogue.sneak_attack_dice(20), 10);
        assert_eq!(Class::Fighter.sneak_attack_dice(20), 0);
    }

    #[test]
    fn casters_get_slots_and_martials_none() {
        assert_eq!(Class::Mage.spell_slots(5)[2], 2);
        assert_eq!(Class::Ranger.spell_slots(1)[0], 2);
        assert_eq!(Class::Fighter.spell_slots(20), [0; 9]);
    }

    #[test]
    fn classes_parse_with_common_aliases() {
        assert_eq!(Class::parse("wizard"), Some(Class::Mage));
        assert_eq!(Class::parse("ROGUE"), Some(Class::Rogue));
        assert_eq!(Class::parse("bard"), None);
    }
}
