//! An expedition: one run through a zone, room by room (seed 000 §3.4).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel, serde::Deserialize)]
#[sea_orm(table_name = "expeditions")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub character_id: i64,
    pub zone: String,
    pub room: i32,
    /// `active`, `completed`, `abandoned` (death, seed 000 §8.1) or `left`.
    pub status: String,
    /// Materials harvested on this run; lost on death (seed 000 §8.2).
    pub harvested_materials: Json,
    pub started_at: DateTimeUtc,
    pub ended_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
