//! Per-day Interrupts (seed 001 "Per day: Resets after long rest"):
//! `characters.interrupts_today`, the TDGS Interrupt uses a character has spent today (Divine
//! Intervention, 1/day) — the UTC day and the uses, as JSON — so they hold between the day's
//! fights. NULL when none; a long rest or a new day clears them.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::text_null;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if !manager.has_column("characters", "interrupts_today").await? {
            manager
                .alter_table(
                    Table::alter()
                        .table(Characters::Table)
                        .add_column(text_null(Characters::InterruptsToday))
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Characters::Table)
                    .drop_column(Characters::InterruptsToday)
                    .to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum Characters {
    Table,
    InterruptsToday,
}
