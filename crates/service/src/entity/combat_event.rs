//! The append-only combat log: one row per applied command, `seq` = the version after it.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
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
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
