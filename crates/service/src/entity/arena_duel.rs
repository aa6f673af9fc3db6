//! An arena challenge and the duel it became (`cmd::arena`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel, serde::Deserialize)]
#[sea_orm(table_name = "arena_duels")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub campaign_id: i64,
    /// Where the challenge was made, and the duel fought.
    pub channel_id: String,
    pub challenger_id: i64,
    pub challenged_id: i64,
    /// `offered`, `declined`, `fighting` or `over`.
    pub status: String,
    /// The duel's combat, once accepted.
    pub combat_id: Option<i64>,
    /// Who won (none while it runs, or when it was halted).
    pub winner_id: Option<i64>,
    pub created_at: DateTimeUtc,
    pub ended_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
