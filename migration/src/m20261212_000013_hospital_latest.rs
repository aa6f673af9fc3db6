//! A character's latest Hospital record by an index (less read per command).
//!
//! `cmd::hospital::latest` (asked at every join, every `/hospital` and the arena's checks)
//! orders a character's records by `admitted_at` then `id`, newest first. On
//! `ix_hospital_records_character` (`character_id` alone) that read every record the character
//! ever had and sorted them: ≈ 70 µs on SQLite for a character of 400 deaths, growing with each.
//! `ix_hospital_records_latest` (`character_id`, `admitted_at`, `id`) hands the newest one
//! first, and serves every look-up by `character_id` the old index did, which this drops;
//! `down` puts it back.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

const LATEST: &str = "ix_hospital_records_latest";
const BY_CHARACTER: &str = "ix_hospital_records_character";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_index(
                Index::create()
                    .name(LATEST)
                    .table(HospitalRecords::Table)
                    .col(HospitalRecords::CharacterId)
                    .col(HospitalRecords::AdmittedAt)
                    .col(HospitalRecords::Id)
                    .if_not_exists()
                    .to_owned(),
            )
            .await?;
        manager
            .drop_index(
                Index::drop()
                    .name(BY_CHARACTER)
                    .table(HospitalRecords::Table)
                    .if_exists()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_index(
                Index::create()
                    .name(BY_CHARACTER)
                    .table(HospitalRecords::Table)
                    .col(HospitalRecords::CharacterId)
                    .if_not_exists()
                    .to_owned(),
            )
            .await?;
        manager
            .drop_index(
                Index::drop()
                    .name(LATEST)
                    .table(HospitalRecords::Table)
                    .if_exists()
                    .to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum HospitalRecords {
    Table,
    Id,
    CharacterId,
    AdmittedAt,
}
