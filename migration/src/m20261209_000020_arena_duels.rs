//! The arena: `arena_duels`, one row per challenge — offered by one character to
//! another in a channel, then declined, or accepted and fought as the combat `combat_id` (an
//! engine duel: it ends at 0 HP, no one dies), then over with its `winner_id` (none when the
//! fight was halted). A character's win streak is `characters.arena_streak`, reset by a loss or
//! a death (seed 000 §8.2). One duel per combat (`ux_arena_duels_combat`).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::{
    big_integer, big_integer_null, big_pk_auto, string, timestamp_with_time_zone, timestamp_with_time_zone_null,
};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(ArenaDuels::Table)
                    .if_not_exists()
                    .col(big_pk_auto(ArenaDuels::Id))
                    .col(big_integer(ArenaDuels::CampaignId))
                    .col(string(ArenaDuels::ChannelId))
                    .col(big_integer(ArenaDuels::ChallengerId))
                    .col(big_integer(ArenaDuels::ChallengedId))
                    .col(string(ArenaDuels::Status))
                    .col(big_integer_null(ArenaDuels::CombatId))
                    .col(big_integer_null(ArenaDuels::WinnerId))
                    .col(timestamp_with_time_zone(ArenaDuels::CreatedAt))
                    .col(timestamp_with_time_zone_null(ArenaDuels::EndedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ux_arena_duels_combat")
                    .table(ArenaDuels::Table)
                    .col(ArenaDuels::CombatId)
                    .unique()
                    .if_not_exists()
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_arena_duels_campaign_status")
                    .table(ArenaDuels::Table)
                    .col(ArenaDuels::CampaignId)
                    .col(ArenaDuels::Status)
                    .if_not_exists()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(ArenaDuels::Table).if_exists().to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum ArenaDuels {
    Table,
    Id,
    CampaignId,
    ChannelId,
    ChallengerId,
    ChallengedId,
    Status,
    CombatId,
    WinnerId,
    CreatedAt,
    EndedAt,
}
