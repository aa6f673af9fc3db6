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
}
