//! Weapons and armor: damage dice, the Light property that gates the off-hand bonus action
//! (seed 000 §2.2), and heavy armor's strength requirement that costs 10 ft of speed (§3.2).

use serde::{Deserialize, Serialize};

use super::{DamageType, find_by_name};
use crate::dice::DiceExpr;

/// Weapons characters wield.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Weapon {
    Unarmed,
    Dagger,
    Shortsword,
    Scimitar,
    Handaxe,
    Rapier,
    Longsword,
    Mace,
    Warhammer,
    Greataxe,
    Greatsword,
    Quarterstaff,
    Shortbow,
    Longbow,
    LightCrossbow,
}

/// What a weapon is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WeaponStats {
    pub name: &'static str,
    pub damage: DiceExpr,
    pub damage_type: DamageType,
    /// Attack and damage may use DEX instead of STR.
    pub finesse: bool,
    /// May be wielded in the off hand for the off-hand bonus attack.
    pub light: bool,
    pub heavy: bool,
    /// Fired from Near or Far; disadvantage while an enemy is in melee with the archer.
    pub ranged: bool,
    pub weight_lb: i32,
}

impl Weapon {
    pub const ALL: [Weapon; 15] = [
        Weapon::Unarmed,
        Weapon::Dagger,
        Weapon::Shortsword,
        Weapon::Scimitar,
        Weapon::Handaxe,
        Weapon::Rapier,
        Weapon::Longsword,
        Weapon::Mace,
        Weapon::Warhammer,
        Weapon::Greataxe,
        Weapon::Greatsword,
        Weapon::Quarterstaff,
        Weapon::Shortbow,
        Weapon::Longbow,
        Weapon::LightCrossbow,
    ];

    pub fn stats(self) -> WeaponStats {
        use DamageType::{Bludgeoning as B, Piercing as P, Slashing as S};
        let w = |name, count, sides, damage_type, finesse, light, heavy, ranged, weight_lb| WeaponStats {
            name,
            damage: DiceExpr::new(count, sides, 0),
            damage_type,
            finesse,
            light,
            heavy,
            ranged,
            weight_lb,
        };
        match self {
            Weapon::Unarmed => WeaponStats {
                damage: DiceExpr::new(0, 1, 1),
                ..w("Unarmed strike", 0, 1, B, false, false, false, false, 0)
            },
            Weapon::Dagger => w("Dagger", 1, 4, P, true, true, false, false, 1),
            Weapon::Shortsword => w("Shortsword", 1, 6, P, true, true, false, false, 2),
            Weapon::Scimitar => w("Scimitar", 1, 6, S, true, true, false, false, 3),
            Weapon::Handaxe => w("Handaxe", 1, 6, S, false, true, false, false, 2),
            Weapon::Rapier => w("Rapier", 1, 8, P, true, false, false, false, 2),
            Weapon::Longsword => w("Longsword", 1, 8, S, false, false, false, false, 3),
            Weapon::Mace => w("Mace", 1, 6, B, false, false, false, false, 4),
            Weapon::Warhammer => w("Warhammer", 1, 8, B, false, false, false, false, 2),
            Weapon::Greataxe => w("Greataxe", 1, 12, S, false, false, true, false, 7),
            Weapon::Greatsword => w("Greatsword", 2, 6, S, false, false, true, false, 6),
            Weapon::Quarterstaff => w("Quarterstaff", 1, 6, B, false, false, false, false, 4),
            Weapon::Shortbow => w("Shortbow", 1, 6, P, false, false, false, true, 2),
            Weapon::Longbow => w("Longbow", 1, 8, P, false, false, true, true, 2),
            Weapon::LightCrossbow => w("Light crossbow", 1, 8, P, false, false, false, true, 5),
        }
    }

    pub fn name(self) -> &'static str {
        self.stats().name
    }

    pub fn parse(text: &str) -> Option<Weapon> {
        find_by_name(&Self::ALL, Self::name, text)
    }
}

/// Armor characters wear.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Armor {
    None,
    Leather,
    StuddedLeather,
    ChainShirt,
    ScaleMail,
    ChainMail,
    Plate,
}

/// What an armor is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArmorStats {
    pub name: &'static str,
    pub base_ac: i32,
    /// The most DEX modifier that counts; `None` is uncapped.
    pub dex_cap: Option<i32>,
    pub heavy: bool,
    /// Heavy armor's STR requirement: below it, speed −10 ft (§3.2).
    pub str_requirement: i32,
    pub weight_lb: i32,
}

impl Armor {
    pub const ALL: [Armor; 7] = [
        Armor::None,
        Armor::Leather,
        Armor::StuddedLeather,
        Armor::ChainShirt,
        Armor::ScaleMail,
        Armor::ChainMail,
        Armor::Plate,
    ];

    pub fn stats(self) -> ArmorStats {
        let a = |name, base_ac, dex_cap, heavy, str_requirement, weight_lb| ArmorStats {
            name,
            base_ac,
            dex_cap,
            heavy,
            str_requirement,
            weight_lb,
        };
        match self {
            Armor::None => a("No armor", 10, None, false, 0, 0),
            Armor::Leather => a("Leather armor", 11, None, false, 0, 10),
            Armor::StuddedLeather => a("Studded leather", 12, None, false, 0, 13),
            Armor::ChainShirt => a("Chain shirt", 13, Some(2), false, 0, 20),
            Armor::ScaleMail => a("Scale mail", 14, Some(2), false, 0, 45),
            Armor::ChainMail => a("Chain mail", 16, Some(0), true, 13, 55),
            Armor::Plate => a("Plate armor", 18, Some(0), true, 15, 65),
        }
    }

    pub fn name(self) -> &'static str {
        self.stats().name
    }

    pub fn parse(text: &str) -> Option<Armor> {
        find_by_name(&Self::ALL, Self::name, text)
    }

    /// Armor class with this armor, a DEX modifier and an optional shield (+2).
    pub fn armor_class(self, dex_mod: i32, shield: bool) -> i32 {
        let stats = self.stats();
        let dex = stats.dex_cap.map_or(dex_mod, |cap| dex_mod.min(cap));
        stats.base_ac + dex + if shield { 2 } else { 0 }
    }
}

/// Weight of a shield, for carrying capacity.
pub const SHIELD_WEIGHT_LB: i32 = 6;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_light_weapons_can_be_off_hand() {
        let light: Vec<&str> = Weapon::ALL
            .iter()
            .filter(|w| w.stats().light)
            .map(|w| w.name())
            .collect();
        assert_eq!(light, vec!["Dagger", "Shortsword", "Scimitar", "Handaxe"]);
    }

    #[test]
    fn armor_class_caps_dex_for_medium_and_ignores_it_for_heavy() {
        assert_eq!(Armor::Leather.armor_class(4, false), 15);
        assert_eq!(Armor::ChainShirt.armor_class(4, false), 15);
        assert_eq!(Armor::Plate.armor_class(4, true), 20);
        assert_eq!(Armor::None.armor_class(-1, false), 9);
    }

    #[test]
    fn weapons_and_armor_parse_by_name() {
        assert_eq!(Weapon::parse("light crossbow"), Some(Weapon::LightCrossbow));
        assert_eq!(Armor::parse("plate armor"), Some(Armor::Plate));
        assert_eq!(Weapon::parse("banana"), None);
    }
}
