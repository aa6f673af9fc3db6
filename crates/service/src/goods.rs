//! What a character carries, as the shop and the workbench change it: the world's
//! data ([`world`]: Thom's stock, prices, rests, recipes — `crates/engine/content/shop.toml` and
//! `recipes.toml`, checked against the built-in content once), and adding or taking goods and
//! materials on a character row (the `inventory` and `gear` columns).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use engine::content::data::{Content, ContentError, GoodKind, World, normalize_name};
use engine::content::{Armor, Weapon};
use serde::{Deserialize, Serialize};

use crate::ServiceError;
use crate::convert;
use crate::entity::character;

/// The built-in world data, loaded and validated on first use (the app loads it at start, so a
/// bad file stops the process there with every problem's file and line).
pub fn world() -> Result<&'static World, ContentError> {
    static WORLD: OnceLock<Result<World, ContentError>> = OnceLock::new();
    WORLD
        .get_or_init(|| {
            let content = Content::builtin()?;
            World::builtin(&content)
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// [`world`] for a command: a content problem is a refusal (it cannot happen once the app has
/// started).
pub(crate) fn the_world() -> Result<&'static World, ServiceError> {
    world().map_err(|e| ServiceError::InvalidInput(e.to_string()))
}

fn stored<T>(what: &str, name: &str, parsed: Option<T>) -> Result<T, ServiceError> {
    parsed.ok_or_else(|| ServiceError::InvalidInput(format!("{name} is not a {what} the game knows yet.")))
}

/// How many of a good the character carries (not worn or wielded); a consumable is named in
/// `content` (the campaign's: the built-ins with its homebrew).
pub(crate) fn held(row: &character::Model, content: &Content, kind: GoodKind, name: &str) -> Result<u32, ServiceError> {
    Ok(match kind {
        GoodKind::Item => {
            let item = stored("item", name, content.item_id(name))?;
            convert::inventory(row)?.get(&item).copied().unwrap_or(0)
        }
        GoodKind::Weapon => {
            let weapon = stored("weapon", name, Weapon::parse(name))?;
            convert::pack(row)?.weapons.iter().filter(|w| **w == weapon).count() as u32
        }
        GoodKind::Armor => {
            let armor = stored("armor", name, Armor::parse(name))?;
            convert::pack(row)?.armor.iter().filter(|a| **a == armor).count() as u32
        }
        GoodKind::Shield => convert::pack(row)?.shields,
    })
}

/// Adds `count` of a good to the character's pack (consumables, of `content`, to the inventory).
pub(crate) fn add(
    row: &mut character::Model,
    content: &Content,
    kind: GoodKind,
    name: &str,
    count: u32,
) -> Result<(), ServiceError> {
    change(row, content, kind, name, i64::from(count))
}

/// Takes `count` of a good from the pack; refuses (nothing changed) if fewer are carried.
pub(crate) fn take(
    row: &mut character::Model,
    content: &Content,
    kind: GoodKind,
    name: &str,
    count: u32,
) -> Result<(), ServiceError> {
    let have = held(row, content, kind, name)?;
    if have < count {
        return Err(not_enough(name, have, count));
    }
    change(row, content, kind, name, -i64::from(count))
}

fn not_enough(name: &str, have: u32, want: u32) -> ServiceError {
    ServiceError::InvalidInput(if have == 0 {
        format!("You have no {name} in your pack (worn or wielded gear is not for sale — unequip it first).")
    } else {
        format!("You have {have} {name} in your pack, not {want}.")
    })
}

fn change(
    row: &mut character::Model,
    content: &Content,
    kind: GoodKind,
    name: &str,
    delta: i64,
) -> Result<(), ServiceError> {
    let moved = |n: u32| u32::try_from((i64::from(n) + delta).max(0)).unwrap_or(u32::MAX);
    match kind {
        GoodKind::Item => {
            let item = stored("item", name, content.item_id(name))?;
            let mut items = convert::inventory(row)?;
            let n = items.entry(item).or_default();
            *n = moved(*n);
            row.inventory = convert::inventory_json(&items);
        }
        GoodKind::Weapon | GoodKind::Armor | GoodKind::Shield => {
            let mut pack = convert::pack(row)?;
            match kind {
                GoodKind::Weapon => {
                    let weapon = stored("weapon", name, Weapon::parse(name))?;
                    shift(&mut pack.weapons, weapon, delta);
                }
                GoodKind::Armor => {
                    let armor = stored("armor", name, Armor::parse(name))?;
                    shift(&mut pack.armor, armor, delta);
                }
                _ => pack.shields = moved(pack.shields),
            }
            row.gear = convert::pack_json(&pack);
        }
    }
    Ok(())
}

fn shift<T: PartialEq + Copy>(list: &mut Vec<T>, one: T, delta: i64) {
    if delta >= 0 {
        list.extend(std::iter::repeat_n(one, delta as usize));
    } else {
        for _ in 0..delta.unsigned_abs() {
            if let Some(at) = list.iter().rposition(|x| *x == one) {
                list.remove(at);
            }
        }
    }
}

/// The materials the character has brought home, with counts (the pack's `materials`).
pub(crate) fn materials(row: &character::Model) -> Result<Vec<(String, u32)>, ServiceError> {
    Ok(convert::pack(row)?
        .materials
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .collect())
}

/// The stored name of a held material matching `name` (case and spacing ignored).
pub(crate) fn held_material(row: &character::Model, name: &str) -> Result<Option<(String, u32)>, ServiceError> {
    let wanted = normalize_name(name);
    Ok(materials(row)?.into_iter().find(|(m, _)| normalize_name(m) == wanted))
}

/// Takes `count` of a material; refuses (nothing changed) if fewer are held.
pub(crate) fn take_material(row: &mut character::Model, name: &str, count: u32) -> Result<(), ServiceError> {
    let mut pack = convert::pack(row)?;
    let wanted = normalize_name(name);
    let key = pack.materials.keys().find(|m| normalize_name(m) == wanted).cloned();
    let have = key.as_ref().and_then(|k| pack.materials.get(k)).copied().unwrap_or(0);
    if have < count {
        return Err(ServiceError::InvalidInput(format!(
            "You have {have} {name}, not {count} (materials come home with /expedition leave)."
        )));
    }
    if let Some(key) = key {
        if have == count {
            pack.materials.remove(&key);
        } else {
            pack.materials.insert(key, have - count);
        }
    }
    row.gear = convert::pack_json(&pack);
    Ok(())
}

/// The most of one good bought or sold at once.
pub const MAX_COUNT: u32 = 99;

/// Refuses a count outside 1–[`MAX_COUNT`].
pub(crate) fn check_count(count: u32) -> Result<(), ServiceError> {
    if (1..=MAX_COUNT).contains(&count) {
        Ok(())
    } else {
        Err(ServiceError::InvalidInput(format!(
            "The count is from 1 to {MAX_COUNT}, not {count}."
        )))
    }
}

/// A room and its chest, as `characters.housing` stores it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Room {
    /// Goods (consumables, spare weapons and armor, shields) by name, with counts.
    #[serde(default)]
    pub goods: BTreeMap<String, u32>,
    /// Materials and trophies brought home, by name, with counts.
    #[serde(default)]
    pub materials: BTreeMap<String, u32>,
}

impl Room {
    /// How many things the chest holds, counted one by one.
    pub fn stored(&self) -> u32 {
        self.goods.values().chain(self.materials.values()).sum()
    }
}

/// The character's room, if they have one.
pub fn room(row: &character::Model) -> Result<Option<Room>, ServiceError> {
    row.housing
        .as_deref()
        .map(|text| {
            serde_json::from_str(text)
                .map_err(|e| ServiceError::InvalidInput(format!("{}'s room could not be read: {e}", row.name)))
        })
        .transpose()
}
