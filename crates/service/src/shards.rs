//! Which guilds a process owns, as Discord shards them: guild `g` is on shard
//! `(g >> 22) % shard_count`; direct messages (and campaigns whose guild is not a Discord
//! snowflake) are on shard 0, where Discord sends DMs.
//!
//! Several bot processes share one database, each running some of the shards. Interactions
//! only reach the process whose shard owns the guild; the scheduler claims only the timers of
//! campaigns this process owns ([`Service::owning`](crate::Service::owning)), so nothing but
//! the owner ever touches a guild's combats. To filter in SQL, `campaigns.shard_key` stores
//! `guild_id >> 22` and `timers.campaign_id` names the timer's campaign.

use std::fmt;

use sea_orm::sea_query::{Expr, ExprTrait, Query, SimpleExpr};
use sea_orm::{ColumnTrait, Condition};

use crate::entity::{campaign, timer};

/// The shards one process runs: `ids` out of `count`. [`Shards::all`] (the default) owns every
/// guild and filters nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shards {
    ids: Vec<u32>,
    count: u32,
}

/// Why a shard set was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardsError {
    #[error("the shard count must be at least 1")]
    NoShards,
    #[error("shard {id} does not exist with {count} shards (ids go from 0 to {last})", last = count - 1)]
    OutOfRange { id: u32, count: u32 },
    #[error("no shard ids given")]
    Empty,
}

impl Default for Shards {
    fn default() -> Self {
        Self::all()
    }
}

impl Shards {
    /// Every guild: one process runs all the shards.
    pub fn all() -> Self {
        Self { ids: vec![0], count: 1 }
    }

    /// Shards `ids` of `count` (duplicates are ignored).
    pub fn new(ids: impl IntoIterator<Item = u32>, count: u32) -> Result<Self, ShardsError> {
        if count == 0 {
            return Err(ShardsError::NoShards);
        }
        let mut ids: Vec<u32> = ids.into_iter().collect();
        ids.sort_unstable();
        ids.dedup();
        if let Some(&id) = ids.iter().find(|&&id| id >= count) {
            return Err(ShardsError::OutOfRange { id, count });
        }
        if ids.is_empty() {
            return Err(ShardsError::Empty);
        }
        Ok(Self { ids, count })
    }

    /// The shard ids owned, ascending.
    pub fn ids(&self) -> &[u32] {
        &self.ids
    }

    /// The total number of shards across all processes.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// Whether this process owns every shard (then nothing is filtered).
    pub fn owns_all(&self) -> bool {
        self.ids.len() == self.count as usize
    }

    /// The shard a guild is on (`guild_id` as the service stores it: a snowflake, or
    /// `dm-<channel>` for direct messages, which are on shard 0).
    pub fn shard_of(&self, guild_id: &str) -> u32 {
        shard_key(guild_id).map_or(0, |key| u32::try_from(key % i64::from(self.count)).unwrap_or(0))
    }

    /// Whether this process owns `guild_id`.
    pub fn owns_guild(&self, guild_id: &str) -> bool {
        self.ids.binary_search(&self.shard_of(guild_id)).is_ok()
    }

    /// The campaigns this process owns, as a condition on `campaigns` (`None`: all of them).
    fn campaign_condition(&self) -> Option<Condition> {
        if self.owns_all() {
            return None;
        }
        let on_shard = Expr::col(campaign::Column::ShardKey)
            .modulo(i64::from(self.count))
            .is_in(self.ids.iter().map(|&id| i64::from(id)));
        let mut owned = Condition::any().add(on_shard);
        if self.owns_dms() {
            owned = owned.add(campaign::Column::ShardKey.is_null());
        }
        Some(owned)
    }

    /// Shard 0 also gets direct messages and anything without a guild.
    fn owns_dms(&self) -> bool {
        self.ids.first() == Some(&0)
    }

    /// The timers this process may claim, as a condition on `timers` (`None`: all of them):
    /// those of the campaigns it owns; a timer with no campaign (written before the
    /// `shard_ownership` migration and not backfilled) belongs to shard 0.
    pub(crate) fn timer_condition(&self) -> Option<Condition> {
        let campaigns = self.campaign_condition()?;
        let mut owned_campaigns = Query::select();
        owned_campaigns
            .column(campaign::Column::Id)
            .from(campaign::Entity)
            .cond_where(campaigns);
        let in_owned: SimpleExpr = timer::Column::CampaignId.in_subquery(owned_campaigns);
        let mut owned = Condition::any().add(in_owned);
        if self.owns_dms() {
            owned = owned.add(timer::Column::CampaignId.is_null());
        }
        Some(owned)
    }
}

impl fmt::Display for Shards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.owns_all() {
            return write!(f, "all {} shard(s)", self.count);
        }
        let ids: Vec<String> = self.ids.iter().map(u32::to_string).collect();
        write!(f, "shards {} of {}", ids.join(","), self.count)
    }
}

/// What `campaigns.shard_key` stores for a guild: its snowflake's timestamp bits
/// (`guild_id >> 22`), which Discord shards on; `None` for a DM or a non-snowflake id.
pub fn shard_key(guild_id: &str) -> Option<i64> {
    guild_id.parse::<u64>().ok().and_then(|id| i64::try_from(id >> 22).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A snowflake on `shard` of `count` (the timestamp bits pick the shard).
    fn guild_on(shard: u64, count: u64) -> String {
        let stamp = 400_000_000_000 * count + shard;
        ((stamp << 22) | 0x4d).to_string()
    }

    #[test]
    fn guilds_are_owned_by_the_shard_discord_puts_them_on() {
        let first = Shards::new([0], 2).unwrap();
        let second = Shards::new([1], 2).unwrap();
        for guild in [guild_on(0, 2), guild_on(1, 2)] {
            assert_ne!(first.owns_guild(&guild), second.owns_guild(&guild), "{guild}");
        }
        assert!(first.owns_guild(&guild_on(0, 2)));
        assert!(second.owns_guild(&guild_on(1, 2)));
        // 81384788765712384 >> 22 = 19403645698, and 19403645698 % 16 = 2.
        assert_eq!(Shards::new([2], 16).unwrap().shard_of("81384788765712384"), 2);
        // DMs are on shard 0.
        assert!(first.owns_guild("dm-123") && !second.owns_guild("dm-123"));
    }

    #[test]
    fn all_owns_everything_and_filters_nothing() {
        let all = Shards::all();
        assert!(all.owns_all() && all.owns_guild(&guild_on(1, 2)) && all.owns_guild("dm-1"));
        assert!(all.timer_condition().is_none());
        assert!(Shards::new([1, 0, 1], 2).unwrap().owns_all());
        assert!(Shards::new([1], 2).unwrap().timer_condition().is_some());
    }

    #[test]
    fn impossible_sets_are_refused() {
        assert_eq!(Shards::new([0], 0), Err(ShardsError::NoShards));
        assert_eq!(Shards::new([2], 2), Err(ShardsError::OutOfRange { id: 2, count: 2 }));
        assert_eq!(Shards::new([], 2), Err(ShardsError::Empty));
        assert_eq!(Shards::new([3, 2], 4).unwrap().to_string(), "shards 2,3 of 4");
    }

    #[test]
    fn shard_keys_are_the_timestamp_bits() {
        assert_eq!(shard_key("81384788765712384"), Some(81_384_788_765_712_384 >> 22));
        assert_eq!(shard_key("dm-42"), None);
        assert_eq!(shard_key(""), None);
    }
}
