//! Abandoned fights and removed bots: what pauses a fight, kept in the database so a
//! restart keeps it paused.
//!
//! - `idle_fights`: per fight, how many turns in a row each player has let run out since the
//!   last command a player sent (`timeouts`, JSON: combatant index → count), valid while the
//!   fight is still at `version` (a player's command moves the fight on and starts the count
//!   over). When every player's count reaches three the fight pauses: `paused_at` is set and
//!   its turn timer (`timer`, JSON: the row as it was) is taken out until a player returns.
//! - `paused_guilds`: guilds that removed the bot (`GUILD_DELETE`, not an outage); their
//!   campaigns' timers do not fire until the bot is back (`GUILD_CREATE`).
//! - Turn timeouts set before the 30-second minimum are raised to it.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(IdleFights::Table)
                    .if_not_exists()
                    .col(
                        ColumnDef::new(IdleFights::CombatId)
                            .big_integer()
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(IdleFights::Version).big_integer().not_null())
                    .col(ColumnDef::new(IdleFights::Timeouts).text().not_null())
                    .col(ColumnDef::new(IdleFights::PausedAt).timestamp_with_time_zone().null())
                    .col(ColumnDef::new(IdleFights::Timer).text().null())
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(PausedGuilds::Table)
                    .if_not_exists()
                    .col(ColumnDef::new(PausedGuilds::GuildId).string().not_null().primary_key())
                    .col(
                        ColumnDef::new(PausedGuilds::PausedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .exec_stmt(
                Query::update()
                    .table(Campaigns::Table)
                    .value(Campaigns::TurnTimeoutSecs, MIN_TURN_TIMEOUT_SECS)
                    .and_where(Expr::col(Campaigns::TurnTimeoutSecs).between(1, MIN_TURN_TIMEOUT_SECS - 1))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(PausedGuilds::Table).if_exists().to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(IdleFights::Table).if_exists().to_owned())
            .await
    }
}

/// The shortest turn timeout a campaign may set (besides 0, off).
pub const MIN_TURN_TIMEOUT_SECS: i32 = 30;

#[derive(DeriveIden)]
enum IdleFights {
    Table,
    CombatId,
    Version,
    Timeouts,
    PausedAt,
    Timer,
}

#[derive(DeriveIden)]
enum PausedGuilds {
    Table,
    GuildId,
    PausedAt,
}

#[derive(DeriveIden)]
enum Campaigns {
    Table,
    TurnTimeoutSecs,
}
