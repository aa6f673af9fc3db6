//! A death and the recovery after it (seed 000 §8, §9 `HospitalRecord`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "hospital_records")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub character_id: i64,
    pub player_id: String,
    pub admitted_at: DateTimeUtc,
    pub fee: i64,
    pub fee_paid: bool,
    pub paid_at: Option<DateTimeUtc>,
    pub recovery_ends: Option<DateTimeUtc>,
    pub zone_died_in: String,
    pub expedition_id: Option<i64>,
    /// The death-save state at death (seed 000 §7.4), as JSON.
    pub death_saves: Json,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
