//! The gateway as it is, not as its last event said: every [`EVERY`] each shard's runner is
//! read from serenity's shard manager — connected only while its runner is there and its
//! stage is `Connected` — into `/healthz` and `gogobee_gateway_connected`. A shard that was
//! connected and is no longer (its runner reconnecting, or gone) is down within seconds.
//!
//! The watchdog: once a shard has been down (or never connected) for longer than the limit
//! (`GATEWAY_DOWN_LIMIT`), the bot stops, exiting with an error, so that the platform (Fly.io's
//! `restart` policy, systemd, Docker) starts it afresh — a wedged gateway does not stay wedged.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant};

use poise::serenity_prelude as serenity;
use tokio::sync::Mutex;

use crate::ops::{Gateway, Ops};

/// How often the shards' connections are read.
pub const EVERY: Duration = Duration::from_secs(1);

/// The shards' runners as serenity's shard manager keeps them.
pub type Runners = Arc<Mutex<HashMap<serenity::ShardId, serenity::ShardRunnerInfo>>>;

/// What each shard is now, from its runner (`None`: no runner, as while it restarts).
fn state_of(runner: Option<&serenity::ShardRunnerInfo>, was: Gateway) -> Gateway {
    match runner.map(|r| r.stage) {
        Some(serenity::ConnectionStage::Connected) => Gateway::Connected,
        // Connecting for the first time is not an outage; losing the connection is.
        _ if was == Gateway::Connecting => Gateway::Connecting,
        _ => Gateway::Down,
    }
}

/// Reads the shards' connections into `ops` every [`EVERY`] and returns once a shard has not
/// been connected for `limit` (`None`: watch for ever), saying which and for how long.
pub async fn watch(runners: Runners, ops: Arc<Ops>, limit: Option<Duration>) -> String {
    // Since when each shard has not been connected.
    let mut since: BTreeMap<u32, Instant> = BTreeMap::new();
    loop {
        tokio::time::sleep(EVERY).await;
        let now: Vec<(u32, Gateway)> = {
            let runners = runners.lock().await;
            let known = ops.shards();
            let mut ids: Vec<u32> = known.keys().copied().collect();
            ids.extend(runners.keys().map(|id| id.0));
            ids.sort_unstable();
            ids.dedup();
            ids.into_iter()
                .map(|id| {
                    let was = known.get(&id).copied().unwrap_or(Gateway::Connecting);
                    (id, state_of(runners.get(&serenity::ShardId(id)), was))
                })
                .collect()
        };
        for (shard, state) in now {
            ops.shard(shard, state);
            if state == Gateway::Connected {
                since.remove(&shard);
                continue;
            }
            let down_since = *since.entry(shard).or_insert_with(Instant::now);
            if let Some(limit) = limit
                && down_since.elapsed() > limit
            {
                return format!(
                    "gateway shard {shard} not connected for {} s (GATEWAY_DOWN_LIMIT {} s)",
                    down_since.elapsed().as_secs(),
                    limit.as_secs()
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_is_down_once_it_loses_its_connection_and_connecting_until_its_first() {
        assert_eq!(state_of(None, Gateway::Connecting), Gateway::Connecting);
        assert_eq!(state_of(None, Gateway::Connected), Gateway::Down);
        assert_eq!(state_of(None, Gateway::Down), Gateway::Down);
    }
}
