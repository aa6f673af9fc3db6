//! The append-only combat log: one row per applied command, `seq` = the version after it. Its
//! primary key guards the version: a command inserts `seq = version read + 1` or nothing.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel, serde::Deserialize)]
#[sea_orm(table_name = "combat_events")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub combat_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub seq: i64,
    /// The command, exactly as the engine serialized it.
    #[sea_orm(column_type = "Text")]
    pub command: String,
    /// The events it produced, exactly as the engine serialized them.
    #[sea_orm(column_type = "Text")]
    pub events: String,
    pub created_at: DateTimeUtc,
    /// The reaction window's timeout timer pending after this command. `None` in entries
    /// written before the log guarded the version (`m20261211_000013`): the combat row held
    /// the timers' ids then, as it still does for its own version.
    pub reaction_timer_id: Option<i64>,
    /// The turn timer pending after this command (see `reaction_timer_id`).
    pub turn_timer_id: Option<i64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
