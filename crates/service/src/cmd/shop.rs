//! Thom Krooke's shop at the inn (seed 000 §8's coins and harvested materials):
//! `/shop list`, `/shop buy good count`, `/shop sell good count`. Stock and prices are content
//! data (`shop.toml`, see [`crate::goods::world`]); in a campaign with homebrew, each homebrew
//! item with a price is on the shelves too, at that price ([`shelves`]), and a stocked item a
//! homebrew one replaces is sold as the homebrew one, or not at all. A buy that costs more than the character holds
//! is refused with the price and the coins, and nothing changes; every buy and sale is one
//! version-guarded write of the character (`repo::characters::modify`), so concurrent buys each
//! spend their coins once and never below zero. Not in a fight, and not while out on an
//! expedition (the shop is at the inn).

use engine::content::data::{Content, GoodKind, StockDef, World, normalize_name};

use crate::entity::character;
use crate::goods::{self, check_count, the_world};
use crate::repo::characters;
use crate::{Service, ServiceError};

/// One line of Thom's shelves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShopGood {
    pub name: String,
    pub kind: GoodKind,
    pub price: u32,
    /// What Thom pays for one.
    pub buy_back: u32,
    /// How many the character carries (not worn or wielded).
    pub held: u32,
}

/// `/shop list`: the shelves, and what the character could sell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShopList {
    pub name: String,
    pub coins: i64,
    pub stock: Vec<ShopGood>,
    /// Materials and trophies carried, with counts and what Thom pays for one.
    pub materials: Vec<(String, u32, u32)>,
    /// Pets for sale (name, the monster it fights as, price), and the character's own.
    pub pets: Vec<(String, String, u32)>,
    pub pet: Option<String>,
}

/// A buy or a sale.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trade {
    pub name: String,
    pub good: String,
    pub count: u32,
    /// Coins for one.
    pub each: u32,
    pub total: i64,
    pub coins_left: i64,
}

/// Thom's shelves in a campaign whose content is `content`: the built-in stock (less an item a
/// homebrew entry replaces), then each homebrew item with a price above 0.
pub(crate) fn shelves(world: &World, content: &Content) -> Vec<StockDef> {
    let builtin = engine::content::data::builtin();
    let mut shelves: Vec<StockDef> = world
        .stock
        .iter()
        .filter(|s| {
            s.kind != GoodKind::Item
                || content
                    .items
                    .get(&s.name)
                    .is_some_and(|d| normalize_name(&d.name) == normalize_name(&s.name))
        })
        .cloned()
        .collect();
    for item in content.items.all() {
        let homebrew = builtin.items.get(&item.name).is_none_or(|b| **b != **item);
        if homebrew && item.price > 0 && find(&shelves, &item.name).is_none() {
            shelves.push(StockDef {
                name: item.name.clone(),
                aliases: item.aliases.clone(),
                kind: GoodKind::Item,
                price: item.price,
            });
        }
    }
    shelves
}

/// The good on `shelves` named or aliased `name`.
fn find<'a>(shelves: &'a [StockDef], name: &str) -> Option<&'a StockDef> {
    let wanted = normalize_name(name);
    shelves
        .iter()
        .find(|s| normalize_name(&s.name) == wanted || s.aliases.iter().any(|a| normalize_name(a) == wanted))
}

impl Service {
    /// Refuses while the character fights or is out on an expedition: the inn is at home.
    pub(crate) async fn at_the_inn<C: sea_orm::ConnectionTrait + crate::access::Access>(
        db: &C,
        row: &character::Model,
    ) -> Result<(), ServiceError> {
        Self::not_fighting(db, row).await?;
        if let Some(on) = crate::settle::expedition::active(db, row.id).await? {
            return Err(ServiceError::AwayFromInn {
                name: row.name.clone(),
                zone: on.zone,
            });
        }
        Ok(())
    }

    /// `/shop list`.
    pub async fn shop_list(&self, campaign_id: i64, player_id: &str) -> Result<ShopList, ServiceError> {
        let world = the_world()?;
        let content = self.content(campaign_id).await?;
        let row = Self::character_of(self.db().conn(), campaign_id, player_id).await?;
        let mut stock = Vec::new();
        for good in &shelves(world, &content) {
            stock.push(ShopGood {
                name: good.name.to_string(),
                kind: good.kind,
                price: good.price,
                buy_back: world.buy_back(good),
                held: goods::held(&row, &content, good.kind, &good.name).unwrap_or(0),
            });
        }
        let materials = goods::materials(&row)?
            .into_iter()
            .map(|(m, n)| {
                let price = world.material(&m).map_or(0, |d| d.price);
                (m, n, price)
            })
            .collect();
        Ok(ShopList {
            name: row.name,
            coins: row.coins,
            stock,
            materials,
            pets: world
                .pets
                .iter()
                .map(|p| (p.name.to_string(), p.monster.to_string(), p.price))
                .collect(),
            pet: row.pet,
        })
    }

    /// `/shop buy good count`: refused with the price and the coins when they fall short.
    pub async fn shop_buy(
        &self,
        campaign_id: i64,
        player_id: &str,
        good: &str,
        count: u32,
    ) -> Result<Trade, ServiceError> {
        check_count(count)?;
        let world = the_world()?;
        let content = self.content(campaign_id).await?;
        let shelves = shelves(world, &content);
        if find(&shelves, good).is_none()
            && let Some(pet) = world.pet(good)
        {
            if count != 1 {
                return Err(ServiceError::InvalidInput(
                    "One pet at a time — leave out the count.".to_owned(),
                ));
            }
            let adopted = self.buy_pet(campaign_id, player_id, pet).await?;
            return Ok(Trade {
                name: adopted.name,
                good: adopted.pet,
                count: 1,
                each: pet.price,
                total: adopted.price,
                coins_left: adopted.coins_left,
            });
        }
        let good = find(&shelves, good).ok_or_else(|| ServiceError::Unknown {
            kind: "good on Thom's shelves",
            given: good.trim().to_owned(),
            valid: crate::convert::choices(
                shelves
                    .iter()
                    .map(|s| &*s.name)
                    .chain(world.pets.iter().map(|p| &*p.name)),
            ),
        })?;
        let conn = self.db().conn();
        let row = Self::character_of(conn, campaign_id, player_id).await?;
        Self::at_the_inn(conn, &row).await?;
        let total = i64::from(good.price) * i64::from(count);
        let row = characters::modify(self.db(), row, |row| {
            if row.coins < total {
                return Err(ServiceError::CannotAfford {
                    what: if count == 1 {
                        good.name.to_string()
                    } else {
                        format!("{count} × {} ({} each)", good.name, good.price)
                    },
                    price: total,
                    coins: row.coins,
                });
            }
            row.coins -= total;
            goods::add(row, &content, good.kind, &good.name, count)
        })
        .await?;
        Ok(Trade {
            name: row.name,
            good: good.name.to_string(),
            count,
            each: good.price,
            total,
            coins_left: row.coins,
        })
    }

    /// `/shop sell good count`: a harvested material or trophy at its price, or a good from
    /// the pack at Thom's buy-back price. Worn and wielded gear is not for sale.
    pub async fn shop_sell(
        &self,
        campaign_id: i64,
        player_id: &str,
        what: &str,
        count: u32,
    ) -> Result<Trade, ServiceError> {
        check_count(count)?;
        let world = the_world()?;
        let content = self.content(campaign_id).await?;
        let shelves = shelves(world, &content);
        let conn = self.db().conn();
        let row = Self::character_of(conn, campaign_id, player_id).await?;
        Self::at_the_inn(conn, &row).await?;
        let material = goods::held_material(&row, what)?;
        let (good, each, kind) = if let Some((name, _)) = material {
            let each = world.material(&name).map_or(1, |m| m.price);
            (name, each, None)
        } else if let Some(good) = find(&shelves, what) {
            (good.name.to_string(), world.buy_back(good), Some(good.kind))
        } else if let Some(m) = world.material(what) {
            return Err(ServiceError::InvalidInput(format!(
                "You have no {} to sell — it comes home from expeditions (/expedition leave banks what you found).",
                m.name
            )));
        } else {
            let mut valid: Vec<String> = goods::materials(&row)?.into_iter().map(|(m, _)| m).collect();
            valid.extend(shelves.iter().map(|s| s.name.to_string()));
            return Err(ServiceError::Unknown {
                kind: "thing Thom buys",
                given: what.trim().to_owned(),
                valid: crate::convert::choices(valid),
            });
        };
        let total = i64::from(each) * i64::from(count);
        let row = characters::modify(self.db(), row, |row| {
            match kind {
                None => goods::take_material(row, &good, count)?,
                Some(kind) => goods::take(row, &content, kind, &good, count)?,
            }
            row.coins = row.coins.saturating_add(total);
            Ok(())
        })
        .await?;
        Ok(Trade {
            name: row.name,
            good,
            count,
            each,
            total,
            coins_left: row.coins,
        })
    }
}
