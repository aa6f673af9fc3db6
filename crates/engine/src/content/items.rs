//! Consumables for the Use Item action (seed 000 §2.1), including the Potion of Healing that
//! stabilises a downed character (§7.2) and the potion of Haste (§3.2).

use serde::{Deserialize, Serialize};

use super::{Spell, find_by_name};
use crate::dice::DiceExpr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Item {
    PotionOfHealing,
    PotionOfGreaterHealing,
    PotionOfHaste,
    ScrollOfMagicMissile,
    Antitoxin,
    Net,
}

/// What using an item does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemEffect {
    /// Restores HP; on a downed character it also stabilises (§7.2).
    Heal(DiceExpr),
    /// +30 ft speed for the rest of the fight.
    Haste,
    /// Casts the spell without a slot.
    Scroll(Spell),
    /// Ends the poisoned condition.
    CurePoison,
    /// Restrains an enemy (DEX save, and the check to escape, against the DC).
    Restrain(i32),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ItemStats {
    pub name: &'static str,
    pub effect: ItemEffect,
    pub price: u32,
    /// Weight in tenths of a pound.
    pub weight_tenths: i32,
}

impl Item {
    pub const ALL: [Item; 6] = [
        Item::PotionOfHealing,
        Item::PotionOfGreaterHealing,
        Item::PotionOfHaste,
        Item::ScrollOfMagicMissile,
        Item::Antitoxin,
        Item::Net,
    ];

    pub fn stats(self) -> ItemStats {
        let i = |name, effect, price, weight_tenths| ItemStats {
            name,
            effect,
            price,
            weight_tenths,
        };
        match self {
            Item::PotionOfHealing => i("Potion of Healing", ItemEffect::Heal(DiceExpr::new(2, 4, 2)), 50, 5),
            Item::PotionOfGreaterHealing => i(
                "Potion of Greater Healing",
                ItemEffect::Heal(DiceExpr::new(4, 4, 4)),
                150,
                5,
            ),
            Item::PotionOfHaste => i("Potion of Haste", ItemEffect::Haste, 200, 5),
            Item::ScrollOfMagicMissile => i(
                "Scroll of Magic Missile",
                ItemEffect::Scroll(Spell::MagicMissile),
                75,
                1,
            ),
            Item::Antitoxin => i("Antitoxin", ItemEffect::CurePoison, 50, 1),
            Item::Net => i("Net", ItemEffect::Restrain(10), 5, 30),
        }
    }

    pub fn name(self) -> &'static str {
        self.stats().name
    }

    pub fn parse(text: &str) -> Option<Item> {
        find_by_name(&Self::ALL, Self::name, text).or_else(|| match super::normalize(text).as_str() {
            "potion" | "healingpotion" => Some(Item::PotionOfHealing),
            _ => None,
        })
    }

    /// Whether it may be given to an ally (potions may be administered).
    pub fn can_administer(self) -> bool {
        matches!(self.stats().effect, ItemEffect::Heal(_) | ItemEffect::CurePoison)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn potion_of_healing_restores_two_d4_plus_two() {
        assert_eq!(
            Item::PotionOfHealing.stats().effect,
            ItemEffect::Heal(DiceExpr::new(2, 4, 2))
        );
    }

    #[test]
    fn items_parse_by_name_or_alias() {
        assert_eq!(Item::parse("potion"), Some(Item::PotionOfHealing));
        assert_eq!(Item::parse("Potion of Haste"), Some(Item::PotionOfHaste));
        assert_eq!(Item::parse("elixir of life"), None);
    }
}
