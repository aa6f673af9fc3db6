//! The bestiary across the zone tiers (seed 000 §3.4), with behaviour profiles that choose a
//! monster's turn and its reactions at once, the Quickling's Blur (§4) and breath weapons (§5).

use serde::{Deserialize, Serialize};

use super::{Abilities, DamageType, Spell, find_by_name};
use crate::dice::DiceExpr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Monster {
    GiantRat,
    Goblin,
    Kobold,
    Wolf,
    Skeleton,
    Zombie,
    Orc,
    Hobgoblin,
    Ghoul,
    BanditCaptain,
    Bugbear,
    Quickling,
    DrowMage,
    Ogre,
    Troll,
    RedDragonWyrmling,
    Vrock,
    YoungRedDragon,
}

/// How a monster fights: what it does on its turn and which reactions it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Behaviour {
    /// Closes to melee with the nearest standing enemy and attacks; never retreats.
    Aggressive,
    /// Attacks, then falls back out of melee (provoking opportunity attacks unless it has Blur).
    Skirmisher,
    /// Keeps its distance and shoots.
    Ranged,
    /// Goes for the weakest standing enemy it can reach.
    Brute,
    /// Casts its strongest spell, counterspells enemy casters, and fights at range.
    Caster,
    /// Breathes when its breath weapon is charged, otherwise fights in melee.
    Breather,
}

/// One attack of a stat block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MonsterAttack {
    pub name: &'static str,
    pub to_hit: i32,
    pub damage: DiceExpr,
    pub damage_type: DamageType,
    pub ranged: bool,
}

/// A breath weapon: DEX save for half, recharges on a 5–6 at the start of the monster's turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Breath {
    pub name: &'static str,
    pub damage: DiceExpr,
    pub damage_type: DamageType,
    pub save_dc: i32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MonsterStats {
    pub name: &'static str,
    /// Zone tier 1–5 where it is met.
    pub tier: u8,
    pub xp: u32,
    pub hit_points: DiceExpr,
    pub armor_class: i32,
    pub abilities: Abilities,
    pub speed: i32,
    pub proficiency: i32,
    pub attacks: &'static [MonsterAttack],
    /// Attacks per Attack action.
    pub multiattack: u32,
    pub behaviour: Behaviour,
    /// Blur: its movement never provokes opportunity attacks (§4).
    pub blur: bool,
    /// Hides when no one is in its reach (found by Search).
    pub hides: bool,
    pub breath: Option<Breath>,
    /// Parry reaction: reduce a melee hit by 1d8 + DEX.
    pub parry: bool,
    pub spells: &'static [Spell],
    /// Spell slots by level (index 0 = 1st).
    pub spell_slots: [u8; 9],
    /// Spellcasting ability modifier.
    pub casting_mod: i32,
    /// Passive Perception is 10 + this.
    pub perception: i32,
    pub stealth: i32,
}

const fn atk(
    name: &'static str,
    to_hit: i32,
    count: u32,
    sides: u32,
    bonus: i32,
    damage_type: DamageType,
    ranged: bool,
) -> MonsterAttack {
    MonsterAttack {
        name,
        to_hit,
        damage: DiceExpr::new(count, sides, bonus),
        damage_type,
        ranged,
    }
}

use DamageType::{Bludgeoning as B, Fire, Piercing as P, Slashing as S};

const NO_SLOTS: [u8; 9] = [0; 9];

const BASE: MonsterStats = MonsterStats {
    name: "",
    tier: 1,
    xp: 0,
    hit_points: DiceExpr::new(1, 8, 0),
    armor_class: 10,
    abilities: Abilities::new(10, 10, 10, 10, 10, 10),
    speed: 30,
    proficiency: 2,
    attacks: const { &[] },
    multiattack: 1,
    behaviour: Behaviour::Aggressive,
    blur: false,
    hides: false,
    breath: None,
    parry: false,
    spells: &[],
    spell_slots: NO_SLOTS,
    casting_mod: 0,
    perception: 0,
    stealth: 0,
};

impl Monster {
    pub const ALL: [Monster; 18] = [
        Monster::GiantRat,
        Monster::Goblin,
        Monster::Kobold,
        Monster::Wolf,
        Monster::Skeleton,
        Monster::Zombie,
        Monster::Orc,
        Monster::Hobgoblin,
        Monster::Ghoul,
        Monster::BanditCaptain,
        Monster::Bugbear,
        Monster::Quickling,
        Monster::DrowMage,
        Monster::Ogre,
        Monster::Troll,
        Monster::RedDragonWyrmling,
        Monster::Vrock,
        Monster::YoungRedDragon,
    ];

    pub fn stats(self) -> MonsterStats {
        match self {
            Monster::GiantRat => MonsterStats {
                name: "Giant Rat",
                xp: 25,
                hit_points: DiceExpr::new(2, 6, 0),
                armor_class: 12,
                abilities: Abilities::new(7, 15, 11, 2, 10, 4),
                attacks: const { &[atk("Bite", 4, 1, 4, 2, P, false)] },
                ..BASE
            },
            Monster::Goblin => MonsterStats {
                name: "Goblin",
                xp: 50,
                hit_points: DiceExpr::new(2, 6, 0),
                armor_class: 15,
                abilities: Abilities::new(8, 14, 10, 10, 8, 8),
                attacks: const {
                    &[
                        atk("Scimitar", 4, 1, 6, 2, S, false),
                        atk("Shortbow", 4, 1, 6, 2, P, true),
                    ]
                },
                behaviour: Behaviour::Skirmisher,
                stealth: 6,
                ..BASE
            },
            Monster::Kobold => MonsterStats {
                name: "Kobold",
                xp: 25,
                hit_points: DiceExpr::new(2, 6, -2),
                armor_class: 12,
                abilities: Abilities::new(7, 15, 9, 8, 7, 8),
                attacks: const { &[atk("Dagger", 4, 1, 4, 2, P, false), atk("Sling", 4, 1, 4, 2, B, true)] },
                behaviour: Behaviour::Ranged,
                ..BASE
            },
            Monster::Wolf => MonsterStats {
                name: "Wolf",
                xp: 50,
                hit_points: DiceExpr::new(2, 8, 2),
                armor_class: 13,
                abilities: Abilities::new(12, 15, 12, 3, 12, 6),
                speed: 40,
                attacks: const { &[atk("Bite", 4, 2, 4, 2, P, false)] },
                perception: 3,
                ..BASE
            },
            Monster::Skeleton => MonsterStats {
                name: "Skeleton",
                xp: 50,
                hit_points: DiceExpr::new(2, 8, 4),
                armor_class: 13,
                abilities: Abilities::new(10, 14, 15, 6, 8, 5),
                attacks: const {
                    &[
                        atk("Shortsword", 4, 1, 6, 2, P, false),
                        atk("Shortbow", 4, 1, 6, 2, P, true),
                    ]
                },
                behaviour: Behaviour::Ranged,
                ..BASE
            },
            Monster::Zombie => MonsterStats {
                name: "Zombie",
                xp: 50,
                hit_points: DiceExpr::new(3, 8, 9),
                armor_class: 8,
                abilities: Abilities::new(13, 6, 16, 3, 6, 5),
                speed: 20,
                attacks: const { &[atk("Slam", 3, 1, 6, 1, B, false)] },
                behaviour: Behaviour::Brute,
                ..BASE
            },
            Monster::Orc => MonsterStats {
                name: "Orc",
                tier: 2,
                xp: 100,
                hit_points: DiceExpr::new(2, 8, 6),
                armor_class: 13,
                abilities: Abilities::new(16, 12, 16, 7, 11, 10),
                attacks: const {
                    &[
                        atk("Greataxe", 5, 1, 12, 3, S, false),
                        atk("Javelin", 5, 1, 6, 3, P, true),
                    ]
                },
                ..BASE
            },
            Monster::Hobgoblin => MonsterStats {
                name: "Hobgoblin",
                tier: 2,
                xp: 100,
                hit_points: DiceExpr::new(2, 8, 2),
                armor_class: 18,
                abilities: Abilities::new(13, 12, 12, 10, 10, 9),
                attacks: const {
                    &[
                        atk("Longsword", 3, 1, 8, 1, S, false),
                        atk("Longbow", 3, 1, 8, 1, P, true),
                    ]
                },
                ..BASE
            },
            Monster::Ghoul => MonsterStats {
                name: "Ghoul",
                tier: 2,
                xp: 200,
                hit_points: DiceExpr::new(5, 8, 0),
                armor_class: 12,
                abilities: Abilities::new(13, 15, 10, 7, 10, 6),
                attacks: const { &[atk("Claws", 4, 2, 4, 2, S, false)] },
                behaviour: Behaviour::Brute,
                ..BASE
            },
            Monster::BanditCaptain => MonsterStats {
                name: "Bandit Captain",
                tier: 2,
                xp: 450,
                hit_points: DiceExpr::new(10, 8, 20),
                armor_class: 15,
                abilities: Abilities::new(15, 16, 14, 14, 11, 14),
                attacks: const {
                    &[
                        atk("Scimitar", 5, 1, 6, 3, S, false),
                        atk("Dagger", 5, 1, 4, 3, P, true),
                    ]
                },
                multiattack: 2,
                parry: true,
                ..BASE
            },
            Monster::Bugbear => MonsterStats {
                name: "Bugbear",
                tier: 2,
                xp: 200,
                hit_points: DiceExpr::new(5, 8, 5),
                armor_class: 16,
                abilities: Abilities::new(15, 14, 13, 8, 11, 9),
                attacks: const { &[atk("Morningstar", 4, 2, 8, 2, P, false)] },
                behaviour: Behaviour::Brute,
                stealth: 6,
                ..BASE
            },
            Monster::Quickling => MonsterStats {
                name: "Quickling",
                tier: 3,
                xp: 200,
                hit_points: DiceExpr::new(3, 4, 3),
                armor_class: 16,
                abilities: Abilities::new(4, 23, 13, 10, 12, 7),
                speed: 120,
                attacks: const { &[atk("Dagger", 8, 1, 4, 6, P, false)] },
                multiattack: 3,
                behaviour: Behaviour::Skirmisher,
                blur: true,
                hides: true,
                perception: 5,
                stealth: 8,
                ..BASE
            },
            Monster::DrowMage => MonsterStats {
                name: "Drow Mage",
                tier: 3,
                xp: 1_800,
                hit_points: DiceExpr::new(10, 8, 0),
                armor_class: 12,
                abilities: Abilities::new(9, 14, 10, 17, 13, 12),
                attacks: const { &[atk("Staff", 2, 1, 6, -1, B, false)] },
                behaviour: Behaviour::Caster,
                spells: &[Spell::MAGIC_MISSILE, Spell::WEB, Spell::FIREBALL, Spell::COUNTERSPELL],
                spell_slots: [4, 3, 3, 0, 0, 0, 0, 0, 0],
                casting_mod: 3,
                proficiency: 3,
                perception: 4,
                stealth: 5,
                ..BASE
            },
            Monster::Ogre => MonsterStats {
                name: "Ogre",
                tier: 3,
                xp: 450,
                hit_points: DiceExpr::new(7, 10, 21),
                armor_class: 11,
                abilities: Abilities::new(19, 8, 16, 5, 7, 7),
                speed: 40,
                attacks: const {
                    &[
                        atk("Greatclub", 6, 2, 8, 4, B, false),
                        atk("Javelin", 6, 2, 6, 4, P, true),
                    ]
                },
                behaviour: Behaviour::Brute,
                ..BASE
            },
            Monster::Troll => MonsterStats {
                name: "Troll",
                tier: 4,
                xp: 1_800,
                hit_points: DiceExpr::new(8, 10, 40),
                armor_class: 15,
                abilities: Abilities::new(18, 13, 20, 7, 9, 7),
                attacks: const { &[atk("Bite", 7, 1, 6, 4, P, false), atk("Claw", 7, 2, 6, 4, S, false)] },
                multiattack: 3,
                proficiency: 3,
                perception: 2,
                ..BASE
            },
            Monster::RedDragonWyrmling => MonsterStats {
                name: "Red Dragon Wyrmling",
                tier: 4,
                xp: 1_100,
                hit_points: DiceExpr::new(10, 8, 30),
                armor_class: 17,
                abilities: Abilities::new(19, 10, 17, 12, 11, 15),
                attacks: const { &[atk("Bite", 6, 1, 10, 4, P, false)] },
                behaviour: Behaviour::Breather,
                breath: Some(Breath {
                    name: "Fire Breath",
                    damage: DiceExpr::new(7, 6, 0),
                    damage_type: Fire,
                    save_dc: 13,
                }),
                perception: 4,
                ..BASE
            },
            Monster::Vrock => MonsterStats {
                name: "Vrock",
                tier: 5,
                xp: 2_300,
                hit_points: DiceExpr::new(11, 10, 33),
                armor_class: 15,
                abilities: Abilities::new(17, 15, 18, 8, 13, 8),
                speed: 40,
                attacks: const { &[atk("Beak", 6, 2, 6, 3, P, false), atk("Talons", 6, 2, 10, 3, S, false)] },
                multiattack: 2,
                proficiency: 3,
                ..BASE
            },
            Monster::YoungRedDragon => MonsterStats {
                name: "Young Red Dragon",
                tier: 5,
                xp: 5_900,
                hit_points: DiceExpr::new(17, 10, 85),
                armor_class: 18,
                abilities: Abilities::new(23, 10, 21, 14, 11, 19),
                speed: 40,
                attacks: const { &[atk("Bite", 10, 2, 10, 6, P, false), atk("Claw", 10, 2, 6, 6, S, false)] },
                multiattack: 3,
                behaviour: Behaviour::Breather,
                breath: Some(Breath {
                    name: "Fire Breath",
                    damage: DiceExpr::new(16, 6, 0),
                    damage_type: Fire,
                    save_dc: 17,
                }),
                proficiency: 4,
                perception: 8,
                ..BASE
            },
        }
    }

    pub fn name(self) -> &'static str {
        self.stats().name
    }

    pub fn parse(text: &str) -> Option<Monster> {
        find_by_name(&Self::ALL, Self::name, text).or_else(|| match super::normalize(text).as_str() {
            "rat" => Some(Monster::GiantRat),
            "dragon" | "reddragon" => Some(Monster::YoungRedDragon),
            "wyrmling" => Some(Monster::RedDragonWyrmling),
            _ => None,
        })
    }

    /// Monsters of one tier.
    pub fn of_tier(tier: u8) -> impl Iterator<Item = Monster> {
        Self::ALL.into_iter().filter(move |m| m.stats().tier == tier)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bestiary_spans_every_tier_with_at_least_a_dozen_monsters() {
        assert!(Monster::ALL.len() >= 12);
        for tier in 1..=5 {
            assert!(Monster::of_tier(tier).count() > 0, "tier {tier} has no monsters");
        }
    }

    #[test]
    fn the_quickling_has_blur_and_dragons_breathe() {
        assert!(Monster::Quickling.stats().blur);
        assert!(Monster::RedDragonWyrmling.stats().breath.is_some());
        assert!(Monster::YoungRedDragon.stats().breath.is_some());
    }

    #[test]
    fn every_monster_has_an_attack_and_positive_hit_points() {
        for m in Monster::ALL {
            let s = m.stats();
            assert!(!s.attacks.is_empty(), "{} has no attack", s.name);
            assert!(s.hit_points.average() > 0, "{} has no hit points", s.name);
        }
    }
}
