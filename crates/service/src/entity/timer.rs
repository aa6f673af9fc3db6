//! A runtime timer as data (reaction timeouts, turn timeouts, recovery rests).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "timers")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub kind: String,
    pub due_at: DateTimeUtc,
    pub payload: Json,
    /// The worker that claimed it, so two workers never fire one timer.
    pub claimed_by: Option<String>,
    pub claimed_at: Option<DateTimeUtc>,
    pub fired_at: Option<DateTimeUtc>,
    /// The campaign it belongs to, so only the process owning that campaign's shard claims it.
    pub campaign_id: Option<i64>,
    /// What makes the timer one of a kind, if anything (a recovery rest: `recovery_rest:<record
    /// id>`): unique, so two racing writers cannot both schedule it.
    pub unique_key: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
