//! A deferred hospital fee (seed 000 §8.3): -10% XP gain until paid.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "debts")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub character_id: i64,
    pub hospital_record_id: Option<i64>,
    pub amount: i64,
    pub created_at: DateTimeUtc,
    pub paid_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
