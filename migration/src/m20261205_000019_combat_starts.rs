//! Replay: each fight's state as it was created — its combatants, terrain, ruleset and
//! dice position — kept beside the append-only `combat_events` log, so `gogobee replay` can
//! re-run the stored commands from the start and compare the events.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(CombatStarts::Table)
                    .if_not_exists()
                    .col(
                        ColumnDef::new(CombatStarts::CombatId)
                            .big_integer()
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(CombatStarts::State).text().not_null())
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(CombatStarts::Table).if_exists().to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum CombatStarts {
    Table,
    CombatId,
    State,
}
