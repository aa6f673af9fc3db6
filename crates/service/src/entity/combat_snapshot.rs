//! A fight's latest snapshot: its whole state at `version`. The commands logged after it
//! (`combat_events.seq > version`) bring it to `combats.version`.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel, serde::Deserialize)]
#[sea_orm(table_name = "combat_snapshots")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub combat_id: i64,
    /// The combat's version this state is at.
    pub version: i64,
    /// The state as the store serialised it (`store::StoredState`).
    #[sea_orm(column_type = "Text")]
    pub state: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
