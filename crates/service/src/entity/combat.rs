//! A fight: the engine's serialized state, guarded by `version` (optimistic concurrency).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "combats")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub campaign_id: i64,
    pub channel_id: String,
    pub expedition_id: Option<i64>,
    pub status: String,
    /// The seed of the combat's dice stream.
    pub seed: i64,
    /// The engine's state, exactly as it serialized it.
    #[sea_orm(column_type = "Text")]
    pub state: String,
    /// The number of commands applied; every save must name the version it read.
    pub version: i64,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
    /// The state the fight was created with: replay starts here (`None` for fights created
    /// before it was kept, and once compacted).
    #[sea_orm(column_type = "Text", nullable)]
    pub initial_state: Option<String>,
    /// When the retention policy dropped this finished fight's log (`state` is then a summary).
    pub compacted_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
