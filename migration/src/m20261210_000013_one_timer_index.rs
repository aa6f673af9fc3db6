//! One index on `timers.due_at`, not two (fewer pages per command).
//!
//! `ix_timers_due_at` (every row) and `ix_timers_pending` (the rows not yet fired) both index
//! `due_at`, and every query on `due_at` asks for pending timers only (`fired_at IS NULL`: the
//! scheduler's claim, the next one due, the reaction timeouts), so the partial index serves them
//! all. The full one only cost writes: each timer a command sets or retires touched both, a
//! 4 KB page of SQLite's WAL each. This drops it; `down` puts it back.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

const INDEX: &str = "ix_timers_due_at";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(Index::drop().name(INDEX).table(Timers::Table).if_exists().to_owned())
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_index(
                Index::create()
                    .name(INDEX)
                    .table(Timers::Table)
                    .col(Timers::DueAt)
                    .if_not_exists()
                    .to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum Timers {
    Table,
    DueAt,
}
