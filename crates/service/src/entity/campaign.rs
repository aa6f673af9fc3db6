//! A campaign: one per Discord server (`channel_id` NULL) or one per channel inside it.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel, serde::Deserialize)]
#[sea_orm(table_name = "campaigns")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The Discord server (guild) snowflake.
    pub guild_id: String,
    /// The channel snowflake for a per-channel campaign; `None` for the guild-wide one.
    pub channel_id: Option<String>,
    /// The timing model: `gogobee` (default), `tdgs`, `ctb` or `ticks`.
    pub ruleset: String,
    /// Seconds a player has to press a reaction button before it passes.
    pub reaction_timeout_secs: i32,
    /// Seconds a player has to act once a fight waits on them, before their turn ends by itself;
    /// `0` waits for ever, `None` (a row from before the setting) means the default
    /// ([`migration::DEFAULT_TURN_TIMEOUT_SECS`]).
    pub turn_timeout_secs: Option<i32>,
    pub created_at: DateTimeUtc,
    /// `guild_id >> 22`, which Discord shards on (`None` for a DM campaign): lets a process
    /// select the campaigns its shards own (see `crate::shards`).
    pub shard_key: Option<i64>,
    /// Whether each message that passes the turn carries the battlefield's picture
    /// (`/campaign map every_turn`); false: only `/combat status` and `/combat map` show it.
    #[serde(default)]
    pub map_every_turn: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
