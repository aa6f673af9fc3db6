//! Campaign settings commands (`/campaign …`, Manage Server only — the caller checks).

use crate::repo::campaigns;
use crate::{Service, ServiceError};

impl Service {
    /// `/campaign rules ruleset:<name>`: the timing model new combats in this campaign use.
    pub async fn set_ruleset(&self, campaign_id: i64, ruleset: &str) -> Result<String, ServiceError> {
        let name = ruleset.trim().to_lowercase();
        let campaign = campaigns::set_ruleset(self.store.db.conn(), campaign_id, &name).await?;
        Ok(campaign.ruleset)
    }

    /// `/campaign timeout seconds:<n>`: how long a reaction prompt waits before it passes by
    /// itself (new windows; default 30 s). Between 1 and 3600 seconds.
    pub async fn set_reaction_timeout(&self, campaign_id: i64, seconds: i64) -> Result<i32, ServiceError> {
        let secs = i32::try_from(seconds)
            .ok()
            .filter(|s| (1..=3600).contains(s))
            .ok_or_else(|| ServiceError::InvalidInput("A reaction timeout is between 1 and 3600 seconds.".into()))?;
        let campaign = campaigns::set_reaction_timeout(self.store.db.conn(), campaign_id, secs).await?;
        Ok(campaign.reaction_timeout_secs)
    }

    /// `/campaign turn-timeout seconds:<n>`: how long a fight waits on a player before their
    /// turn ends as if they had sent `/endturn` (default 300 s; `0` waits for ever). From 30
    /// seconds (a shorter one plays an abandoned fight out in moments) to a day. Takes effect
    /// for combats loaded or started after the change.
    pub async fn set_turn_timeout(&self, campaign_id: i64, seconds: i64) -> Result<i32, ServiceError> {
        let min = migration::MIN_TURN_TIMEOUT_SECS;
        let secs = i32::try_from(seconds)
            .ok()
            .filter(|s| *s == 0 || (min..=86_400).contains(s))
            .ok_or_else(|| {
                ServiceError::InvalidInput(format!(
                    "A turn timeout is between {min} seconds and 86400 (a day), or 0 to wait for ever — not {seconds}."
                ))
            })?;
        let campaign = campaigns::set_turn_timeout(self.store.db.conn(), campaign_id, secs).await?;
        Ok(campaign.turn_timeout_secs.unwrap_or(secs))
    }

    /// `/campaign map every_turn|on_request`: whether each message that passes the turn in this
    /// campaign's fights carries the battlefield's picture (from the next command on), or only
    /// `/combat status` and `/combat map` do. Returns the setting now stored.
    pub async fn set_map_every_turn(&self, campaign_id: i64, every_turn: bool) -> Result<bool, ServiceError> {
        let campaign = campaigns::set_map_every_turn(self.store.db.conn(), campaign_id, every_turn).await?;
        self.store
            .set_map_every_turn(campaign_id, campaign.map_every_turn)
            .await;
        Ok(campaign.map_every_turn)
    }
}
