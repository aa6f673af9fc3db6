//! Conversions between stored rows and engine types, by hand (entities never reach the
//! engine): a character row becomes a [`Combatant`], a combatant's state goes back to the
//! row when a fight ends, and the JSON columns (`inventory`, `gear`) get typed shapes.

use std::collections::BTreeMap;
use std::sync::Arc;

use engine::content::data::Table;
use engine::content::{Armor, Class, Item, Race, Weapon};
use engine::{Combatant, Controller};
use serde::{Deserialize, Serialize};

use crate::entity::character;
use crate::{Json, ServiceError};

/// What a character carries but does not wear or wield (the `gear` column).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Pack {
    pub weapons: Vec<Weapon>,
    pub armor: Vec<Armor>,
    pub shields: u32,
    /// Materials brought home from expeditions, with counts.
    #[serde(default)]
    pub materials: BTreeMap<String, u32>,
}

/// The name the shield slot stores.
pub const SHIELD: &str = "Shield";

/// A stored enum name back to the engine's value, refusing a row the content does not know.
fn parse_stored<T>(what: &'static str, text: &str, parse: impl Fn(&str) -> Option<T>) -> Result<T, ServiceError> {
    parse(text).ok_or_else(|| ServiceError::InvalidInput(format!("stored {what} \"{text}\" is not in the content")))
}

pub fn race(row: &character::Model) -> Result<Race, ServiceError> {
    parse_stored("race", &row.race, Race::parse)
}

pub fn class(row: &character::Model) -> Result<Class, ServiceError> {
    parse_stored("class", &row.class, Class::parse)
}

pub fn weapon(slot: Option<&str>) -> Result<Option<Weapon>, ServiceError> {
    slot.map(|w| parse_stored("weapon", w, Weapon::parse)).transpose()
}

pub fn armor(slot: Option<&str>) -> Result<Armor, ServiceError> {
    Ok(slot
        .map(|a| parse_stored("armor", a, Armor::parse))
        .transpose()?
        .unwrap_or(Armor::NONE))
}

/// The `inventory` column: consumables by name with counts.
pub fn inventory(row: &character::Model) -> Result<BTreeMap<Item, u32>, ServiceError> {
    if row.inventory.is_null() {
        return Ok(BTreeMap::new());
    }
    serde_json::from_value(row.inventory.clone())
        .map_err(|err| ServiceError::InvalidInput(format!("stored inventory is unreadable: {err}")))
}

pub fn inventory_json(items: &BTreeMap<Item, u32>) -> Json {
    let kept: BTreeMap<Item, u32> = items.iter().filter(|(_, n)| **n > 0).map(|(i, n)| (*i, *n)).collect();
    serde_json::to_value(kept).unwrap_or_default()
}

/// The `gear` column.
pub fn pack(row: &character::Model) -> Result<Pack, ServiceError> {
    if row.gear.is_null() || row.gear.as_object().is_some_and(serde_json::Map::is_empty) {
        return Ok(Pack::default());
    }
    serde_json::from_value(row.gear.clone())
        .map_err(|err| ServiceError::InvalidInput(format!("stored gear is unreadable: {err}")))
}

pub fn pack_json(pack: &Pack) -> Json {
    serde_json::to_value(pack).unwrap_or_default()
}

/// The `interrupts_today` column (seed 001 "Per day: Resets after long rest"): the TDGS
/// Interrupt uses a character spent on one UTC day (Divine Intervention, 1/day).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InterruptsToday {
    pub day: chrono::NaiveDate,
    pub uses: Vec<engine::timing::tdgs::InterruptUses>,
}

/// Gives a character joining a fight the per-day Interrupt uses it spent earlier the same day;
/// a stored day that is over carries nothing (a new day, as a long rest, brings them back).
pub fn carry_interrupts(c: &mut Combatant, row: &character::Model, now: crate::DateTimeUtc) {
    let Some(stored) = row.interrupts_today.as_deref() else {
        return;
    };
    if let Ok(today) = serde_json::from_str::<InterruptsToday>(stored)
        && today.day == now.date_naive()
    {
        engine::timing::tdgs::carry_day_uses(c, &today.uses);
    }
}

/// The `interrupts_today` value once `c`'s fight is over: the uses it has spent today, or `None`.
pub fn interrupts_today(c: &Combatant, now: crate::DateTimeUtc) -> Option<String> {
    let uses = engine::timing::tdgs::day_uses(c);
    if uses.is_empty() {
        return None;
    }
    serde_json::to_string(&InterruptsToday {
        day: now.date_naive(),
        uses,
    })
    .ok()
}

/// A stored content name's definition in `table`, refusing a row the content does not know.
fn stored_def<'c, T>(what: &'static str, text: &str, table: &'c Table<T>) -> Result<&'c Arc<T>, ServiceError> {
    table
        .get(text)
        .ok_or_else(|| ServiceError::InvalidInput(format!("stored {what} \"{text}\" is not in the content")))
}

/// The character as the engine sees it: level, gear, current HP and consumables from the row.
/// Its race, class and gear are looked up by id in the content (the built-in content has them
/// all: a homebrew file cannot define races, classes or gear).
pub fn combatant(row: &character::Model) -> Result<Combatant, ServiceError> {
    let content = engine::content::data::builtin();
    let level = u32::try_from(row.level).unwrap_or(1);
    let mut c = Combatant::of_character(
        &row.name,
        content,
        stored_def("race", &row.race, &content.races)?,
        stored_def("class", &row.class, &content.classes)?,
        level,
        Controller::Player(row.player_id.clone()),
    );
    let weapon = |slot: Option<&str>| {
        slot.map(|w| stored_def("weapon", w, &content.weapons).map(Arc::clone))
            .transpose()
    };
    c.wield(weapon(row.weapon.as_deref())?);
    c.wield_off_hand(weapon(row.off_hand.as_deref())?);
    let armor = row.armor.as_deref();
    c.wear(
        armor
            .map(|a| stored_def("armor", a, &content.armor).map(Arc::clone))
            .transpose()?,
    );
    c.set_shield(row.shield.is_some());
    c.hp = row.hp.clamp(0, c.max_hp);
    c.set_items(inventory(row)?);
    c.pack_lb = pack_lb(&c, &pack(row)?);
    Ok(c)
}

/// The character as it joins a fight in its campaign: [`combatant`] with the campaign's
/// `content` (the built-ins with its homebrew) copied onto its sheet — the homebrew items it
/// holds, the spells its class learns there — so the fight keeps them whatever is edited later.
pub fn fighter(row: &character::Model, content: &engine::content::data::Content) -> Result<Combatant, ServiceError> {
    let mut c = combatant(row)?;
    c.draw_on(content);
    c.pack_lb = pack_lb(&c, &pack(row)?);
    Ok(c)
}

/// The pack's weight (§3.2 "Encumbered (carry weight)"): the kit, the spare weapons, armor and
/// shields at `gear.toml`'s weights, and the consumables at `items.toml`'s (tenths of a pound,
/// rounded up). Materials weigh nothing here.
pub fn pack_lb(c: &Combatant, pack: &Pack) -> i32 {
    let weapons: i32 = pack.weapons.iter().map(|w| w.def().weight_lb).sum();
    let armor: i32 = pack.armor.iter().map(|a| a.def().weight_lb).sum();
    let shields = i32::try_from(pack.shields).unwrap_or(i32::MAX) * engine::content::data::builtin().shield.weight_lb;
    let tenths: i32 = c
        .items
        .iter()
        .map(|(item, n)| c.item_def(*item).map_or(0, |d| d.weight_tenths) * i32::try_from(*n).unwrap_or(0))
        .sum();
    engine::combatant::KIT_LB + weapons + armor + shields + (tenths + 9) / 10
}

/// The most names an error message lists; the rest are counted ("and 40 more").
pub const MAX_LISTED: usize = 30;

/// Splits a list for an error message: "A, B or C"; past [`MAX_LISTED`] names, the first
/// ones and how many are left out ("A, B, … and 40 more — autocomplete shows them all").
pub fn choices<I: IntoIterator<Item = S>, S: AsRef<str>>(names: I) -> String {
    let names: Vec<String> = names.into_iter().map(|s| s.as_ref().to_owned()).collect();
    if names.len() > MAX_LISTED {
        let left_out = names.len() - MAX_LISTED;
        return format!(
            "{} and {left_out} more (autocomplete lists them all)",
            names[..MAX_LISTED].join(", ")
        );
    }
    match names.split_last() {
        None => "nothing".to_owned(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

pub(crate) fn unknown<T: Copy>(
    kind: &'static str,
    given: &str,
    all: &[T],
    name: impl Fn(T) -> &'static str,
) -> ServiceError {
    ServiceError::Unknown {
        kind,
        given: given.trim().to_owned(),
        valid: choices(all.iter().map(|x| name(*x))),
    }
}

/// Parses a race, refusing an unknown one with the list of valid races.
pub fn parse_race(text: &str) -> Result<Race, ServiceError> {
    Race::parse(text).ok_or_else(|| unknown("race", text, &Race::all(), Race::name))
}

/// Parses a class, refusing an unknown one with the list of valid classes.
pub fn parse_class(text: &str) -> Result<Class, ServiceError> {
    Class::parse(text).ok_or_else(|| unknown("class", text, &Class::all(), Class::name))
}

/// Parses a built-in consumable item, refusing an unknown one with the list of items.
pub fn parse_item(text: &str) -> Result<Item, ServiceError> {
    let content = engine::content::data::builtin();
    content.item_id(text).ok_or_else(|| ServiceError::Unknown {
        kind: "item",
        given: text.trim().to_owned(),
        valid: choices(content.items.all().iter().map(|i| &*i.name)),
    })
}

#[cfg(test)]
mod tests {
    use super::{MAX_LISTED, choices};

    #[test]
    fn a_long_list_says_how_many_it_leaves_out() {
        let names: Vec<String> = (1..=60).map(|i| format!("Monster {i}")).collect();
        let listed = choices(&names);
        assert!(listed.starts_with("Monster 1, Monster 2,"), "{listed}");
        assert!(listed.contains("Monster 30 and 30 more"), "{listed}");
        assert!(!listed.contains("Monster 31"), "{listed}");
        assert_eq!(choices(&names[..MAX_LISTED]).matches("Monster").count(), MAX_LISTED);
        assert_eq!(choices(["A", "B", "C"]), "A, B or C");
    }
}
