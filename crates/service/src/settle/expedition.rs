//! Expedition rows and zones as the commands share them: the statuses, a character's active
//! expedition, its harvest, a zone by name, what a room hides, and monsters named for a fight.

use std::sync::Arc;

use engine::Combatant;
use engine::content::data::{HiddenDef, MonsterDef, ZoneDef};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

use crate::convert::choices;
use crate::entity::expedition;
use crate::{Json, ServiceError};

/// Expedition statuses.
pub const ACTIVE: &str = "active";

pub const COMPLETED: &str = "completed";

pub const LEFT: &str = "left";

pub const ABANDONED: &str = "abandoned";

/// Tries at a command that lost a race for its row to a concurrent one (each try re-reads).
pub(crate) const RACE_ATTEMPTS: usize = 8;

/// The trophy a slain monster leaves.
pub fn trophy(monster: &str) -> String {
    format!("{monster} trophy")
}

/// The zone named `text` (or a prefix of four letters or more), refusing an unknown one with
/// the list of them. Zones are the game's — a homebrew file cannot define one — so the built-in
/// content has every zone a campaign's content has.
pub fn parse_zone(text: &str) -> Result<&'static Arc<ZoneDef>, ServiceError> {
    let zones = &engine::content::data::builtin().zones;
    engine::content::data::builtin()
        .zone(text)
        .ok_or_else(|| ServiceError::Unknown {
            kind: "zone",
            given: text.trim().to_owned(),
            valid: choices(zones.all().iter().map(|z| &*z.name)),
        })
}

/// The character's active expedition, if any.
pub(crate) async fn active<R: crate::access::Access>(
    db: &R,
    character_id: i64,
) -> Result<Option<expedition::Model>, ServiceError> {
    let select = expedition::Entity::find()
        .filter(expedition::Column::CharacterId.eq(character_id))
        .filter(crate::repo::is(expedition::Column::Status, ACTIVE));
    Ok(crate::access::one(db, select).await?)
}

/// Writes the columns of an expedition's `row` that are `Set` (it was read, then changed).
pub(crate) async fn save<R: crate::access::Access>(db: &R, row: expedition::ActiveModel) -> Result<(), ServiceError> {
    let id = row.id.clone().unwrap();
    let update = expedition::Entity::update_many()
        .set(row)
        .filter(expedition::Column::Id.eq(id));
    crate::access::execute(db, &update).await?;
    Ok(())
}

pub(crate) fn materials(row: &expedition::Model) -> Vec<String> {
    serde_json::from_value(row.harvested_materials.clone()).unwrap_or_default()
}

pub(crate) fn materials_json(list: &[String]) -> Json {
    serde_json::to_value(list).unwrap_or_default()
}

/// What room `room` (1-based) of `zone` hides (§2.1 Search): entry (room − 1) mod their number
/// of the zone's `hidden` list in `zones.toml`.
pub fn room_hidden(zone: &ZoneDef, room: u32) -> Option<&HiddenDef> {
    let hidden = &zone.hidden;
    (!hidden.is_empty()).then(|| &hidden[(room.max(1) as usize - 1) % hidden.len()])
}

/// `count` monsters of `kind`, named "Goblin" (alone) or "Goblin 1", "Goblin 2", …,
/// numbered after any already in `existing`.
pub(crate) fn name_monsters(kind: &Arc<MonsterDef>, count: u32, existing: &[Combatant]) -> Vec<Combatant> {
    let already = existing
        .iter()
        .filter(|c| c.monster_name() == Some(&*kind.name))
        .count() as u32;
    // Never a name the fight holds (a homebrew monster called "Aria", or "Goblin 2" beside goblins).
    let norm = engine::content::normalize;
    let taken = |name: &str, chosen: &[String]| {
        existing.iter().any(|c| norm(&c.name) == norm(name)) || chosen.iter().any(|c| norm(c) == norm(name))
    };
    let mut names: Vec<String> = Vec::new();
    if count == 1 && already == 0 && !taken(&kind.name, &names) {
        names.push(kind.name.to_string());
    }
    let mut i = already;
    while names.len() < count as usize {
        i += 1;
        let candidate = format!("{} {i}", kind.name);
        if !taken(&candidate, &names) {
            names.push(candidate);
        }
    }
    names
        .iter()
        .map(|name| Combatant::of_monster(name, Arc::clone(kind)))
        .collect()
}
