//! A readied action waiting for its trigger (seed 000 §5, §9 `ReadiedAction`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "readied_actions")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub combat_id: i64,
    pub combatant_index: i32,
    pub action: String,
    #[sea_orm(column_type = "Text")]
    pub trigger_desc: String,
    /// The initiative count at which it lapses (not a time).
    pub expires_at: i32,
    pub fired: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
