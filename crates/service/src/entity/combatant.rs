//! Who is in a fight, in the engine's combatant order: a character or a monster.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel, serde::Deserialize)]
#[sea_orm(table_name = "combatants")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub combat_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub combatant_index: i32,
    pub character_id: Option<i64>,
    /// The monster's content key, for a monster.
    pub monster: Option<String>,
    pub name: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
