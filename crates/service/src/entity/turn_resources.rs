//! A combatant's budget for the current turn (seed 000 §9 `TurnResources`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "turn_resources")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub combat_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub combatant_index: i32,
    pub action_used: bool,
    pub bonus_used: bool,
    pub reaction_used: bool,
    /// Feet used this turn.
    pub movement_used: i32,
    /// Feet available this turn.
    pub movement_total: i32,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
