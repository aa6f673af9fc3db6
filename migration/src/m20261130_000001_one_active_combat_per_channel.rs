//! One active combat per channel, enforced by the database: a partial unique index on
//! `combats (campaign_id, channel_id) WHERE status = 'active'`. On SQLite the service's
//! `BEGIN IMMEDIATE` already serialises two `/combat start`s; on PostgreSQL only this
//! index stops both from inserting.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

const INDEX: &str = "ux_combats_active_channel";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_index(
                Index::create()
                    .name(INDEX)
                    .table(Combats::Table)
                    .col(Combats::CampaignId)
                    .col(Combats::ChannelId)
                    .unique()
                    .and_where(Expr::col(Combats::Status).eq("active"))
                    .if_not_exists()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(Index::drop().name(INDEX).table(Combats::Table).if_exists().to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum Combats {
    Table,
    CampaignId,
    ChannelId,
    Status,
}
