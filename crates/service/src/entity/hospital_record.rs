//! A death and the recovery after it (seed 000 §8, §9 `HospitalRecord`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel, serde::Deserialize)]
#[sea_orm(table_name = "hospital_records")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub character_id: i64,
    pub player_id: String,
    pub admitted_at: DateTimeUtc,
    /// Fixed at admission (`engine::hospital::fee`).
    pub fee: i64,
    /// The fee has been paid (at `/hospital pay`, or later when the debt was cleared).
    pub fee_paid: bool,
    /// When the fee was paid; `None` while it is unpaid or deferred as a debt.
    pub paid_at: Option<DateTimeUtc>,
    /// When the recovery rest ends; set at `/hospital pay`, whether the fee was paid or deferred.
    pub recovery_ends: Option<DateTimeUtc>,
    pub zone_died_in: String,
    pub expedition_id: Option<i64>,
    /// The death-save state at death (seed 000 §7.4), as JSON.
    pub death_saves: Json,
    /// When the recovery rest ended and HP was restored (set once).
    pub discharged_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
