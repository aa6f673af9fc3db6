//! The campaign's turn timer (the combat waits for that player's command, with the
//! campaign's turn timer).
//!
//! `campaigns.turn_timeout_secs` has existed since the first migration, nullable and never set.
//! It now means: seconds a player has to act once a fight waits on them, after which their turn
//! ends as if they sent `/endturn`; `0` turns the timer off. Campaigns that never chose get the
//! default, [`DEFAULT_TURN_TIMEOUT_SECS`] (5 minutes). SQLite cannot alter a column's
//! nullability or default, so the column stays nullable and new rows are written with the
//! value; this migration backfills the NULLs with a plain `UPDATE`, which is the same on both
//! backends.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::ConnectionTrait;

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The turn timeout of a campaign that never set one, in seconds.
pub const DEFAULT_TURN_TIMEOUT_SECS: i32 = 300;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let backfill = Query::update()
            .table(Campaigns::Table)
            .value(Campaigns::TurnTimeoutSecs, DEFAULT_TURN_TIMEOUT_SECS)
            .and_where(Expr::col(Campaigns::TurnTimeoutSecs).is_null())
            .to_owned();
        manager.get_connection().execute(&backfill).await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // The NULLs it filled cannot be told from values set since; leaving them is harmless.
        let _ = manager;
        Ok(())
    }
}

#[derive(DeriveIden)]
enum Campaigns {
    Table,
    TurnTimeoutSecs,
}
