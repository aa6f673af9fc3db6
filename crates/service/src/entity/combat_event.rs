//! The append-only combat log: one row per applied command, `seq` = the version after it. Its
//! primary key guards the version: a command inserts `seq = version read + 1` or nothing.

use sea_orm::entity::prelude::*;
use serde::Serialize;
use serde::de::{DeserializeOwned, IgnoredAny};

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel, serde::Deserialize)]
#[sea_orm(table_name = "combat_events")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub combat_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub seq: i64,
    /// The command, as the engine serialized it to JSON, in entries written before `packed`
    /// (`m20261213_000013`); empty since. Read it with [`Model::command`].
    #[sea_orm(column_type = "Text")]
    pub command: String,
    /// The events it produced, as JSON, in entries written before `packed`; empty since. Read
    /// them with [`Model::events`].
    #[sea_orm(column_type = "Text")]
    pub events: String,
    pub created_at: DateTimeUtc,
    /// The reaction window's timeout timer pending after this command. `None` in entries
    /// written before the log guarded the version (`m20261211_000013`): the combat row held
    /// the timers' ids then, as it still does for its own version.
    pub reaction_timer_id: Option<i64>,
    /// The turn timer pending after this command (see `reaction_timer_id`).
    pub turn_timer_id: Option<i64>,
    /// The command and its events as one MessagePack array `[command, events]`, with field
    /// names ([`pack`]); `None` in entries written before it, whose JSON is in `command` and
    /// `events`.
    #[sea_orm(column_type = "Blob", nullable)]
    pub packed: Option<Vec<u8>>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

/// A command and its events as an entry's `packed` column holds them: MessagePack, each
/// struct a map of its field names (self-describing as JSON is, at ≈ 70 % of its size).
pub fn pack<C: Serialize, E: Serialize>(command: &C, events: &[E]) -> Vec<u8> {
    rmp_serde::to_vec_named(&(command, events)).expect("commands and events serialise")
}

impl Model {
    /// The entry's command, from whichever form it was written in.
    pub fn command<C: DeserializeOwned>(&self) -> Result<C, String> {
        match &self.packed {
            Some(packed) => rmp_serde::from_slice::<(C, IgnoredAny)>(packed)
                .map(|(command, _)| command)
                .map_err(|err| err.to_string()),
            None => serde_json::from_str(&self.command).map_err(|err| err.to_string()),
        }
    }

    /// The entry's events, from whichever form they were written in.
    pub fn events<E: DeserializeOwned>(&self) -> Result<Vec<E>, String> {
        match &self.packed {
            Some(packed) => rmp_serde::from_slice::<(IgnoredAny, Vec<E>)>(packed)
                .map(|(_, events)| events)
                .map_err(|err| err.to_string()),
            None => serde_json::from_str(&self.events).map_err(|err| err.to_string()),
        }
    }

    /// The entry's events as JSON values, for comparing with events applied again: an old
    /// entry's JSON as it was written (older forms of events included), a packed entry's read
    /// as today's events.
    pub fn stored_events(&self) -> Result<Vec<serde_json::Value>, String> {
        match &self.packed {
            Some(_) => Ok(self
                .events::<engine::Event>()?
                .iter()
                .map(|event| serde_json::to_value(event).expect("events serialise"))
                .collect()),
            None => self.events(),
        }
    }

    /// The entry's command as JSON, as the engine serialises it, whichever form it was
    /// written in.
    pub fn command_json(&self) -> Result<serde_json::Value, String> {
        match &self.packed {
            Some(_) => Ok(serde_json::to_value(self.command::<crate::store::Logged>()?).expect("commands serialise")),
            None => self.command(),
        }
    }
}
