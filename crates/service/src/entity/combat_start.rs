//! A fight's state as it was created (version 0), for replay.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "combat_starts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub combat_id: i64,
    /// The `combats.state` JSON at version 0.
    #[sea_orm(column_type = "Text")]
    pub state: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
