//! A character's sheet and inventory as the commands show them, and a row's level change.

use engine::content::data::MAX_LEVEL;
use engine::content::{Abilities, Ability, Armor, Class, Item, Race, Spell, Weapon};

use crate::ServiceError;
use crate::convert::{self, Pack};
use crate::entity::character;

/// A character sheet: the row, and what the rules derive from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sheet {
    pub character_id: i64,
    pub player_id: String,
    pub name: String,
    pub race: Race,
    pub class: Class,
    pub level: u32,
    pub xp: u32,
    /// XP needed for the next level (`None` at the top level).
    pub next_level_xp: Option<u32>,
    /// `/character levelup` would raise the level now.
    pub can_level_up: bool,
    pub hp: i32,
    pub max_hp: i32,
    pub armor_class: i32,
    /// Speed in feet after armor and encumbrance.
    pub speed: i32,
    /// Pounds carried: worn and wielded gear, the pack (kit, spare gear, consumables).
    pub carried_lb: i32,
    /// Encumbered (−10 ft) above this (5 × STR), heavily (−20 ft) above `heavily_over` (10 × STR).
    pub encumbered_over: i32,
    pub heavily_over: i32,
    pub abilities: Abilities,
    pub weapon: Weapon,
    pub off_hand: Option<Weapon>,
    pub armor: Armor,
    pub shield: bool,
    pub attacks_per_action: u32,
    pub spells: Vec<Spell>,
    /// The names of `spells`, in the same order (a homebrew spell's id is not its name).
    pub spell_names: Vec<String>,
    pub coins: i64,
    /// Consumables carried, by the name the campaign's content gives them, with counts.
    pub items: Vec<(String, u32)>,
    /// Duels won in a row (reset by a loss or a death, seed 000 §8.2).
    pub arena_streak: i32,
    /// The pet's name (`cmd::pets`), and the name it fights under.
    pub pet: Option<(String, String)>,
    /// The room at the inn (`cmd::house`): things in its chest, and how many it holds.
    pub room: Option<(u32, u32)>,
}

/// What a character carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inventory {
    pub coins: i64,
    /// Consumables with counts.
    pub items: Vec<(Item, u32)>,
    /// The names of `items`, in the same order, as the campaign's content has them (an item
    /// it no longer defines — homebrew since removed — by its id).
    pub item_names: Vec<String>,
    /// Gear carried but not worn or wielded.
    pub pack: Pack,
    /// Materials harvested on the current expedition (lost on death).
    pub materials: Vec<String>,
}

impl Sheet {
    /// The sheet in the campaign whose `content` (the built-ins with its homebrew) is given.
    pub(crate) fn of(row: &character::Model, content: &engine::content::data::Content) -> Result<Self, ServiceError> {
        let c = convert::fighter(row, content)?;
        let xp = u32::try_from(row.xp).unwrap_or(0);
        let level = c.level();
        Ok(Self {
            character_id: row.id,
            player_id: row.player_id.clone(),
            name: row.name.clone(),
            race: convert::race(row)?,
            class: convert::class(row)?,
            level,
            xp,
            next_level_xp: (level < MAX_LEVEL).then(|| engine::content::data::levels().xp[level as usize]),
            can_level_up: engine::content::data::levels().level_for_xp(xp) > level,
            hp: row.hp,
            max_hp: row.max_hp,
            armor_class: c.armor_class(),
            speed: c.speed(),
            carried_lb: c.carried_lb(),
            encumbered_over: c.abilities.str * 5,
            heavily_over: c.abilities.str * 10,
            abilities: c.abilities,
            weapon: Weapon::parse(&c.weapon().name).unwrap_or(Weapon::UNARMED),
            off_hand: c.off_hand().and_then(|w| Weapon::parse(&w.name)),
            armor: Armor::parse(&c.armor().name).unwrap_or(Armor::NONE),
            shield: c.has_shield(),
            attacks_per_action: c.attacks_per_action(),
            spells: c
                .known_spells()
                .iter()
                .filter_map(|s| engine::content::Spell::named(&s.name))
                .collect(),
            spell_names: c
                .known_spells()
                .iter()
                .filter(|s| engine::content::Spell::named(&s.name).is_some())
                .map(|s| s.name.to_string())
                .collect(),
            coins: row.coins,
            items: carried_items(row, content)?
                .into_iter()
                .map(|(_, n, name)| (name, n))
                .collect(),
            arena_streak: row.arena_streak,
            pet: row
                .pet
                .as_ref()
                .map(|p| (p.clone(), crate::settle::pets::fighting_name(&row.name, p))),
            room: crate::goods::room(row)?
                .map(|r| (r.stored(), crate::goods::the_world().map_or(0, |w| w.room.capacity))),
        })
    }
}

/// The consumables a character row carries (none of those at 0), and their names as `content`
/// gives them (an item it no longer defines — homebrew since removed — by its id).
pub(crate) fn carried_items(
    row: &character::Model,
    content: &engine::content::data::Content,
) -> Result<Vec<(Item, u32, String)>, ServiceError> {
    Ok(convert::inventory(row)?
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|(item, n)| {
            let name = content
                .items
                .get(item.as_str())
                .filter(|d| item.names(&d.name))
                .map_or_else(|| item.label(), |d| d.name.to_string());
            (item, n, name)
        })
        .collect())
}

/// A character's max HP at `level` with its class and race.
pub(crate) fn max_hp(race: Race, class: Class, level: u32) -> i32 {
    let class = class.def();
    let con = class
        .base_abilities
        .plus(race.def().ability_bonus)
        .modifier(Ability::Con);
    class.max_hp(level, con)
}

/// A character row at another level: max HP follows, and current HP moves by as much.
pub(crate) fn set_level(row: &mut character::Model, level: u32) -> Result<(), ServiceError> {
    let (race, class) = (convert::race(row)?, convert::class(row)?);
    let level = level.clamp(1, MAX_LEVEL);
    let new_max = max_hp(race, class, level);
    row.hp = row
        .hp
        .saturating_add(new_max.saturating_sub(row.max_hp))
        .clamp(i32::from(row.hp > 0), new_max);
    row.max_hp = new_max;
    row.level = i32::try_from(level).unwrap_or(1);
    Ok(())
}
