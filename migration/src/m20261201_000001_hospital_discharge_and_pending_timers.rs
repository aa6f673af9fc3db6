//! The Hospital's discharge and the scheduler's pending timers (seed 000 §8.4).
//!
//! `hospital_records.discharged_at`: when the recovery rest ended and the character was made
//! whole again (HP back to full). Set exactly once, by whichever comes first: the rest timer
//! firing, or the character setting out after the rest's end.
//!
//! `ix_timers_pending`: a partial index on `timers (due_at) WHERE fired_at IS NULL`, so
//! "the next timer due" and "the timers due now" read only the pending rows however many
//! fired ones the table keeps.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::timestamp_with_time_zone_null;

#[derive(DeriveMigrationName)]
pub struct Migration;

const INDEX: &str = "ix_timers_pending";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if !manager.has_column("hospital_records", "discharged_at").await? {
            manager
                .alter_table(
                    Table::alter()
                        .table(HospitalRecords::Table)
                        .add_column(timestamp_with_time_zone_null(HospitalRecords::DischargedAt))
                        .to_owned(),
                )
                .await?;
        }
        manager
            .create_index(
                Index::create()
                    .name(INDEX)
                    .table(Timers::Table)
                    .col(Timers::DueAt)
                    .and_where(Expr::col(Timers::FiredAt).is_null())
                    .if_not_exists()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(Index::drop().name(INDEX).table(Timers::Table).if_exists().to_owned())
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(HospitalRecords::Table)
                    .drop_column(HospitalRecords::DischargedAt)
                    .to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum HospitalRecords {
    Table,
    DischargedAt,
}

#[derive(DeriveIden)]
enum Timers {
    Table,
    DueAt,
    FiredAt,
}
