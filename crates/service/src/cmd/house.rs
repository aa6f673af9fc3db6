//! Housing (seed 000 §8.2: "Housing — kept"): a room of one's own at Thom's inn,
//! bought once with coins (`/house buy`; price and chest size are content data, `shop.toml`'s
//! `[room]`). Its chest stores goods and materials beyond what the character carries —
//! `/house store`, `/house take`, `/house list` — and sleeping there is a free long rest
//! (`cmd::rest`). The room and its chest live in `characters.housing` (JSON), so moving a thing
//! between pack and chest is one version-guarded write of the character: it is never in both,
//! nor lost, whatever races it. Kept on death (a death drops only the current run's harvest).
//! At the inn only: not in a fight, not out on an expedition.

use std::collections::BTreeMap;

use engine::content::data::{Content, GoodKind, normalize_name};
use engine::content::{Armor, Weapon};

use crate::entity::character;
use crate::goods::{self, the_world};
use crate::goods::{Room, room};
use crate::repo::characters;
use crate::{Service, ServiceError};

fn write(row: &mut character::Model, room: &Room) {
    row.housing = Some(serde_json::to_string(room).expect("a room serialises"));
}

/// What kind of good a name is (`None`: a material or trophy), and its name as stored; a
/// consumable is one of `content` (the campaign's: the built-ins with its homebrew).
fn good(content: &Content, name: &str) -> Option<(GoodKind, String)> {
    if let Some(i) = content.items.get(name) {
        return Some((GoodKind::Item, i.name.to_string()));
    }
    if let Some(w) = Weapon::parse(name).filter(|w| *w != Weapon::UNARMED) {
        return Some((GoodKind::Weapon, w.name().to_owned()));
    }
    if let Some(a) = Armor::parse(name).filter(|a| *a != Armor::NONE) {
        return Some((GoodKind::Armor, a.name().to_owned()));
    }
    (normalize_name(name) == normalize_name(engine::content::data::SHIELD))
        .then(|| (GoodKind::Shield, engine::content::data::SHIELD.to_owned()))
}

/// `/house list`, and what `/house store` or `/house take` left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HouseView {
    pub name: String,
    pub room: Room,
    pub capacity: u32,
    /// What moved, for store and take: the thing's name and how many.
    pub moved: Option<(String, u32)>,
}

/// A room bought.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomBought {
    pub name: String,
    pub price: i64,
    pub coins_left: i64,
}

fn no_room(row: &character::Model) -> ServiceError {
    let price = the_world().map_or(0, |w| w.room.price);
    ServiceError::InvalidInput(format!(
        "{} has no room at the inn yet — /house buy gets one for {price} coins.",
        row.name
    ))
}

/// Adds `count` of a material to the pack.
fn add_material(row: &mut character::Model, name: &str, count: u32) -> Result<(), ServiceError> {
    let mut pack = crate::convert::pack(row)?;
    *pack.materials.entry(name.to_owned()).or_default() += count;
    row.gear = crate::convert::pack_json(&pack);
    Ok(())
}

/// The stored key in `map` matching `name` (case and spacing ignored).
fn key_in(map: &BTreeMap<String, u32>, name: &str) -> Option<String> {
    let wanted = normalize_name(name);
    map.keys().find(|k| normalize_name(k) == wanted).cloned()
}

impl Service {
    /// `/house buy`: a room upstairs, once, for coins.
    pub async fn house_buy(&self, campaign_id: i64, player_id: &str) -> Result<RoomBought, ServiceError> {
        let world = the_world()?;
        let conn = self.db().conn();
        let row = Self::character_of(conn, campaign_id, player_id).await?;
        Self::at_the_inn(conn, &row).await?;
        let price = i64::from(world.room.price);
        let row = characters::modify(self.db(), row, |row| {
            if row.housing.is_some() {
                return Err(ServiceError::InvalidInput(format!(
                    "{} already has a room at the inn — /house list shows its chest.",
                    row.name
                )));
            }
            if row.coins < price {
                return Err(ServiceError::CannotAfford {
                    what: "A room at the inn".to_owned(),
                    price,
                    coins: row.coins,
                });
            }
            row.coins -= price;
            write(row, &Room::default());
            Ok(())
        })
        .await?;
        Ok(RoomBought {
            name: row.name,
            price,
            coins_left: row.coins,
        })
    }

    /// `/house list`.
    pub async fn house_list(&self, campaign_id: i64, player_id: &str) -> Result<HouseView, ServiceError> {
        let world = the_world()?;
        let row = Self::character_of(self.db().conn(), campaign_id, player_id).await?;
        let room = room(&row)?.ok_or_else(|| no_room(&row))?;
        Ok(HouseView {
            name: row.name,
            room,
            capacity: world.room.capacity,
            moved: None,
        })
    }

    /// `/house store item count`: from the pack (not what is worn or wielded) into the chest,
    /// refused past the chest's capacity.
    pub async fn house_store(
        &self,
        campaign_id: i64,
        player_id: &str,
        what: &str,
        count: u32,
    ) -> Result<HouseView, ServiceError> {
        crate::goods::check_count(count)?;
        let world = the_world()?;
        let capacity = world.room.capacity;
        let content = self.content(campaign_id).await?;
        let conn = self.db().conn();
        let row = Self::character_of(conn, campaign_id, player_id).await?;
        Self::at_the_inn(conn, &row).await?;
        let mut moved = String::new();
        let row = characters::modify(self.db(), row, |row| {
            let mut room = room(row)?.ok_or_else(|| no_room(row))?;
            if room.stored() + count > capacity {
                return Err(ServiceError::InvalidInput(format!(
                    "The chest holds {capacity} things and has {} in it — room for {} more, not {count}.",
                    room.stored(),
                    capacity - room.stored().min(capacity)
                )));
            }
            if let Some((name, _)) = goods::held_material(row, what)? {
                goods::take_material(row, &name, count)?;
                *room.materials.entry(name.clone()).or_default() += count;
                moved = name;
            } else if let Some((kind, name)) = good(&content, what) {
                let have = goods::held(row, &content, kind, &name)?;
                if have < count {
                    return Err(ServiceError::InvalidInput(if have == 0 {
                        format!(
                            "{} carries no {name} to store (worn or wielded gear stays on — unequip it first).",
                            row.name
                        )
                    } else {
                        format!("{} carries {have} {name}, not {count}.", row.name)
                    }));
                }
                goods::take(row, &content, kind, &name, count)?;
                *room.goods.entry(name.clone()).or_default() += count;
                moved = name;
            } else {
                return Err(ServiceError::InvalidInput(format!(
                    "You carry no \"{}\" — /character inventory shows your pack.",
                    what.trim()
                )));
            }
            write(row, &room);
            Ok(())
        })
        .await?;
        Ok(HouseView {
            name: row.name.clone(),
            room: room(&row)?.unwrap_or_default(),
            capacity,
            moved: Some((moved, count)),
        })
    }

    /// `/house take item count`: from the chest back into the pack.
    pub async fn house_take(
        &self,
        campaign_id: i64,
        player_id: &str,
        what: &str,
        count: u32,
    ) -> Result<HouseView, ServiceError> {
        crate::goods::check_count(count)?;
        let capacity = the_world()?.room.capacity;
        let content = self.content(campaign_id).await?;
        let conn = self.db().conn();
        let row = Self::character_of(conn, campaign_id, player_id).await?;
        Self::at_the_inn(conn, &row).await?;
        let mut moved = String::new();
        let row = characters::modify(self.db(), row, |row| {
            let mut room = room(row)?.ok_or_else(|| no_room(row))?;
            let (map, key, known) = if let Some(k) = key_in(&room.goods, what) {
                // A good this server's content no longer defines (its homebrew removed) stays put.
                let known = good(&content, &k).ok_or_else(|| {
                    ServiceError::InvalidInput(format!(
                        "{k} is no longer in this server's content (its homebrew was removed), so it stays in the chest."
                    ))
                })?;
                (&mut room.goods, k, Some(known))
            } else if let Some(k) = key_in(&room.materials, what) {
                (&mut room.materials, k, None)
            } else {
                return Err(ServiceError::InvalidInput(format!(
                    "The chest has no \"{}\" — /house list shows what is in it.",
                    what.trim()
                )));
            };
            let have = map.get(&key).copied().unwrap_or(0);
            if have < count {
                return Err(ServiceError::InvalidInput(format!(
                    "The chest holds {have} {key}, not {count}."
                )));
            }
            if have == count {
                map.remove(&key);
            } else {
                map.insert(key.clone(), have - count);
            }
            match known {
                Some((kind, name)) => goods::add(row, &content, kind, &name, count)?,
                None => add_material(row, &key, count)?,
            }
            moved = key;
            write(row, &room);
            Ok(())
        })
        .await?;
        Ok(HouseView {
            name: row.name.clone(),
            room: room(&row)?.unwrap_or_default(),
            capacity,
            moved: Some((moved, count)),
        })
    }
}
