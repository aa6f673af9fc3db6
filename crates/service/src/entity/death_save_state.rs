//! A downed character's death saves in one fight (seed 000 §7.4 `DeathSaveState`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "death_save_states")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub combat_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub character_id: i64,
    pub player_id: String,
    pub downed: bool,
    /// 0–3.
    pub successes: i32,
    /// 0–3.
    pub failures: i32,
    pub stabilized: bool,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
