//! Retention of finished fights: `combats.initial_state`, the state a fight was
//! created with (replay starts from it and re-applies the logged commands), and
//! `combats.compacted_at`, set when a finished fight's log was dropped under the retention
//! policy (its row keeps the seed and a summary of how it ended).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::{text_null, timestamp_with_time_zone_null};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if !manager.has_column("combats", "initial_state").await? {
            manager
                .alter_table(
                    Table::alter()
                        .table(Combats::Table)
                        .add_column(text_null(Combats::InitialState))
                        .to_owned(),
                )
                .await?;
        }
        if !manager.has_column("combats", "compacted_at").await? {
            manager
                .alter_table(
                    Table::alter()
                        .table(Combats::Table)
                        .add_column(timestamp_with_time_zone_null(Combats::CompactedAt))
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for column in [Combats::CompactedAt, Combats::InitialState] {
            manager
                .alter_table(Table::alter().table(Combats::Table).drop_column(column).to_owned())
                .await?;
        }
        Ok(())
    }
}

#[derive(DeriveIden, Clone, Copy)]
enum Combats {
    Table,
    InitialState,
    CompactedAt,
}
