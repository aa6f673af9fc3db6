//! Guild ownership across processes: each bot process runs some of Discord's shards and must
//! only fire the timers of the guilds on them.
//!
//! `campaigns.shard_key`: the guild snowflake's timestamp bits (`guild_id >> 22`), which
//! Discord shards on (`shard = shard_key % shard_count`); NULL for a DM campaign (shard 0).
//! `timers.campaign_id`: the campaign a timer belongs to. Both are backfilled here: the shard
//! key from `guild_id`, a pending timer's campaign from its payload (`campaign_id`, or the
//! campaign of its `combat_id`). The backfill parses in Rust, so it stays backend-neutral.
//! (No index on `shard_key`: the filter is `shard_key % count`, which a b-tree cannot serve;
//! it scans `campaigns`, a small table beside `timers`.)

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::big_integer_null;
use sea_orm_migration::sea_orm::{ConnectionTrait, JsonValue, StatementBuilder, TryGetable};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if !manager.has_column("campaigns", "shard_key").await? {
            manager
                .alter_table(
                    Table::alter()
                        .table(Campaigns::Table)
                        .add_column(big_integer_null(Campaigns::ShardKey))
                        .to_owned(),
                )
                .await?;
        }
        if !manager.has_column("timers", "campaign_id").await? {
            manager
                .alter_table(
                    Table::alter()
                        .table(Timers::Table)
                        .add_column(big_integer_null(Timers::CampaignId))
                        .to_owned(),
                )
                .await?;
        }
        backfill_shard_keys(manager).await?;
        backfill_timer_campaigns(manager).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Timers::Table)
                    .drop_column(Timers::CampaignId)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Campaigns::Table)
                    .drop_column(Campaigns::ShardKey)
                    .to_owned(),
            )
            .await
    }
}

/// `guild_id >> 22` for a snowflake; `None` for `dm-…` and anything else.
fn shard_key(guild_id: &str) -> Option<i64> {
    guild_id
        .parse::<u64>()
        .ok()
        .and_then(|id| <i64 as TryFrom<u64>>::try_from(id >> 22).ok())
}

async fn rows<T: TryGetable>(
    manager: &SchemaManager<'_>,
    query: &impl StatementBuilder,
    columns: [&str; 2],
) -> Result<Vec<(i64, T)>, DbErr> {
    manager
        .get_connection()
        .query_all(query)
        .await?
        .iter()
        .map(|row| Ok((row.try_get("", columns[0])?, row.try_get("", columns[1])?)))
        .collect()
}

async fn set(manager: &SchemaManager<'_>, update: &UpdateStatement) -> Result<(), DbErr> {
    manager.get_connection().execute(update).await?;
    Ok(())
}

async fn backfill_shard_keys(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    let query = Query::select()
        .columns([Campaigns::Id, Campaigns::GuildId])
        .from(Campaigns::Table)
        .and_where(Expr::col(Campaigns::ShardKey).is_null())
        .to_owned();
    for (id, guild) in rows::<String>(manager, &query, ["id", "guild_id"]).await? {
        if let Some(key) = shard_key(&guild) {
            let update = Query::update()
                .table(Campaigns::Table)
                .value(Campaigns::ShardKey, key)
                .and_where(Expr::col(Campaigns::Id).eq(id))
                .to_owned();
            set(manager, &update).await?;
        }
    }
    Ok(())
}

async fn backfill_timer_campaigns(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    let query = Query::select()
        .columns([Timers::Id, Timers::Payload])
        .from(Timers::Table)
        .and_where(Expr::col(Timers::FiredAt).is_null())
        .and_where(Expr::col(Timers::CampaignId).is_null())
        .to_owned();
    for (id, payload) in rows::<JsonValue>(manager, &query, ["id", "payload"]).await? {
        let campaign = match payload.get("campaign_id").and_then(JsonValue::as_i64) {
            Some(campaign) => Some(campaign),
            None => match payload.get("combat_id").and_then(JsonValue::as_i64) {
                Some(combat) => {
                    let of_combat = Query::select()
                        .columns([Combats::Id, Combats::CampaignId])
                        .from(Combats::Table)
                        .and_where(Expr::col(Combats::Id).eq(combat))
                        .to_owned();
                    rows::<i64>(manager, &of_combat, ["id", "campaign_id"])
                        .await?
                        .first()
                        .map(|(_, campaign)| *campaign)
                }
                None => None,
            },
        };
        if let Some(campaign) = campaign {
            let update = Query::update()
                .table(Timers::Table)
                .value(Timers::CampaignId, campaign)
                .and_where(Expr::col(Timers::Id).eq(id))
                .to_owned();
            set(manager, &update).await?;
        }
    }
    Ok(())
}

#[derive(DeriveIden)]
enum Campaigns {
    Table,
    Id,
    GuildId,
    ShardKey,
}

#[derive(DeriveIden)]
enum Timers {
    Table,
    Id,
    Payload,
    FiredAt,
    CampaignId,
}

#[derive(DeriveIden)]
enum Combats {
    Table,
    Id,
    CampaignId,
}

#[cfg(test)]
mod tests {
    use super::shard_key;

    #[test]
    fn shard_keys_are_the_timestamp_bits_of_snowflakes_only() {
        assert_eq!(shard_key("81384788765712384"), Some(19_403_645_698));
        assert_eq!(shard_key("dm-81384788765712384"), None);
    }
}
