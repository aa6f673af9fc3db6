//! Campaigns: one per Discord server, or one per channel inside it.

use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, ExprTrait, QueryFilter};

use crate::entity::campaign::{self, Column, Entity as Campaign};
use crate::{DateTimeUtc, ServiceError};

/// The campaign for a guild (`channel_id` `None`) or for one channel in it, created with
/// the default settings if there is none yet. Safe against concurrent callers: the insert
/// is `ON CONFLICT DO NOTHING` on the unique index, then the row is read back.
pub async fn get_or_create<C: ConnectionTrait>(
    db: &C,
    guild_id: &str,
    channel_id: Option<&str>,
    now: DateTimeUtc,
) -> Result<campaign::Model, ServiceError> {
    if let Some(found) = find(db, guild_id, channel_id).await? {
        return Ok(found);
    }
    let new = campaign::ActiveModel {
        guild_id: Set(guild_id.to_owned()),
        channel_id: Set(channel_id.map(str::to_owned)),
        ruleset: Set(engine::Ruleset::default().name().to_owned()),
        reaction_timeout_secs: Set(30),
        turn_timeout_secs: Set(Some(migration::DEFAULT_TURN_TIMEOUT_SECS)),
        created_at: Set(now),
        shard_key: Set(crate::shard_key(guild_id)),
        ..Default::default()
    };
    let on_conflict = match channel_id {
        // The partial unique index `ux_campaigns_guild_wide` (guild_id) WHERE channel_id IS NULL.
        None => OnConflict::column(Column::GuildId)
            .target_and_where(Expr::col(Column::ChannelId).is_null())
            .do_nothing()
            .to_owned(),
        Some(_) => OnConflict::columns([Column::GuildId, Column::ChannelId])
            .do_nothing()
            .to_owned(),
    };
    Campaign::insert(new)
        .on_conflict(on_conflict)
        .try_insert()
        .exec_without_returning(db)
        .await?;
    find(db, guild_id, channel_id)
        .await?
        .ok_or_else(|| ServiceError::Database(sea_orm::DbErr::RecordNotFound("campaign".into())))
}

/// The campaign for a guild or channel, if it exists.
pub async fn find<C: ConnectionTrait>(
    db: &C,
    guild_id: &str,
    channel_id: Option<&str>,
) -> Result<Option<campaign::Model>, ServiceError> {
    let channel = match channel_id {
        Some(channel) => Column::ChannelId.eq(channel),
        None => Column::ChannelId.is_null(),
    };
    Ok(Campaign::find()
        .filter(Column::GuildId.eq(guild_id))
        .filter(channel)
        .one(db)
        .await?)
}

/// A campaign by id.
pub async fn get<R: crate::access::Access>(db: &R, id: i64) -> Result<campaign::Model, ServiceError> {
    crate::access::one(db, Campaign::find_by_id(id))
        .await?
        .ok_or(ServiceError::CampaignNotFound(id))
}

/// Switches a campaign's ruleset (timing model): one of [`engine::Ruleset::NAMES`].
pub async fn set_ruleset<C: ConnectionTrait + crate::access::Access>(
    db: &C,
    id: i64,
    ruleset: &str,
) -> Result<campaign::Model, ServiceError> {
    if !engine::Ruleset::NAMES.contains(&ruleset) {
        return Err(ServiceError::UnknownRuleset(ruleset.to_owned()));
    }
    let mut campaign: campaign::ActiveModel = get(db, id).await?.into();
    campaign.ruleset = Set(ruleset.to_owned());
    Ok(campaign.update(db).await?)
}

/// Sets how long a reaction window stays open before it passes by itself.
pub async fn set_reaction_timeout<C: ConnectionTrait + crate::access::Access>(
    db: &C,
    id: i64,
    secs: i32,
) -> Result<campaign::Model, ServiceError> {
    let mut campaign: campaign::ActiveModel = get(db, id).await?.into();
    campaign.reaction_timeout_secs = Set(secs);
    Ok(campaign.update(db).await?)
}

/// Sets how long a fight waits on a player before their turn ends by itself (`0`: for ever).
pub async fn set_turn_timeout<C: ConnectionTrait + crate::access::Access>(
    db: &C,
    id: i64,
    secs: i32,
) -> Result<campaign::Model, ServiceError> {
    let mut campaign: campaign::ActiveModel = get(db, id).await?.into();
    campaign.turn_timeout_secs = Set(Some(secs));
    Ok(campaign.update(db).await?)
}

/// Sets whether each message that passes the turn carries the battlefield's picture.
pub async fn set_map_every_turn<C: ConnectionTrait + crate::access::Access>(
    db: &C,
    id: i64,
    every_turn: bool,
) -> Result<campaign::Model, ServiceError> {
    let mut campaign: campaign::ActiveModel = get(db, id).await?.into();
    campaign.map_every_turn = Set(every_turn);
    Ok(campaign.update(db).await?)
}

/// A campaign's turn timeout in seconds (`0`: off), the default where it was never set.
pub fn turn_timeout_secs(campaign: &campaign::Model) -> i64 {
    i64::from(
        campaign
            .turn_timeout_secs
            .unwrap_or(migration::DEFAULT_TURN_TIMEOUT_SECS),
    )
}
