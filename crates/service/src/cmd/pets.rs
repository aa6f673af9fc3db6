//! Pets (seed 000 §8.2: "Pet — kept"): bought at Thom's shop (`/shop buy item:Wolf
//! pup`; the pets and their prices are content data, `shop.toml`'s `[[pet]]`), one per
//! character, stored by name in `characters.pet`.
//!
//! A pet is a companion combatant: whenever its owner enters a fight — an expedition's encounter,
//! `/combat join`, `/combat start` — it enters beside them through the engine's `Join` command
//! (logged with the owner's join, so a replay rebuilds it), on the owner's side, with its
//! monster's stat block, named "<owner>'s <pet>", and played by the game on its own turn (its
//! stat block's behaviour picks its moves and targets). It earns nothing and is never a
//! trophy; at 0 HP it drops out of that fight and limps home, whole again for the next one: a pet
//! is never lost, not even when its owner dies. Pets wait outside the arena (duels are one
//! against one).

use crate::repo::characters;
use crate::settle::pets::fighting_name;
use crate::{Service, ServiceError};

/// A pet bought.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adopted {
    pub name: String,
    pub pet: String,
    pub price: i64,
    pub coins_left: i64,
}

impl Service {
    /// Buys a pet at the shop: refused with the price and the coins when they fall short, or if
    /// the character already has one.
    pub(crate) async fn buy_pet(
        &self,
        campaign_id: i64,
        player_id: &str,
        def: &engine::content::data::PetDef,
    ) -> Result<Adopted, ServiceError> {
        let conn = self.db().conn();
        let row = Self::character_of(conn, campaign_id, player_id).await?;
        Self::at_the_inn(conn, &row).await?;
        let price = i64::from(def.price);
        let row = characters::modify(self.db(), row, |row| {
            if let Some(pet) = &row.pet {
                return Err(ServiceError::InvalidInput(format!(
                    "{} already has a pet, {} — one companion is all Thom's stables allow.",
                    row.name,
                    fighting_name(&row.name, pet)
                )));
            }
            if row.coins < price {
                return Err(ServiceError::CannotAfford {
                    what: def.name.to_string(),
                    price,
                    coins: row.coins,
                });
            }
            row.coins -= price;
            row.pet = Some(def.name.to_string());
            Ok(())
        })
        .await?;
        Ok(Adopted {
            name: row.name,
            pet: def.name.to_string(),
            price,
            coins_left: row.coins,
        })
    }
}
