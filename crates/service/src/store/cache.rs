//! The cache of active combats, one slot (and one writer) each, and which combat is active in
//! which channel.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::Live;

pub(super) type Slot = Arc<tokio::sync::Mutex<Option<Live>>>;

/// The cache of active combats, and which combat is active in which channel.
#[derive(Default)]
pub(crate) struct Cache {
    pub(super) combats: Mutex<HashMap<i64, Slot>>,
    pub(super) channels: Mutex<HashMap<(i64, String), i64>>,
}

impl Cache {
    pub(super) fn slot(&self, combat_id: i64) -> Slot {
        self.combats
            .lock()
            .expect("combat cache poisoned")
            .entry(combat_id)
            .or_default()
            .clone()
    }

    pub(super) fn forget(&self, combat_id: i64, campaign_id: i64, channel_id: &str) {
        self.combats.lock().expect("combat cache poisoned").remove(&combat_id);
        let mut channels = self.channels.lock().expect("channel cache poisoned");
        if channels.get(&(campaign_id, channel_id.to_owned())) == Some(&combat_id) {
            channels.remove(&(campaign_id, channel_id.to_owned()));
        }
    }

    pub fn channel(&self, campaign_id: i64, channel_id: &str) -> Option<i64> {
        self.channels
            .lock()
            .expect("channel cache poisoned")
            .get(&(campaign_id, channel_id.to_owned()))
            .copied()
    }

    pub fn unset_channel(&self, campaign_id: i64, channel_id: &str) {
        self.channels
            .lock()
            .expect("channel cache poisoned")
            .remove(&(campaign_id, channel_id.to_owned()));
    }

    pub fn set_channel(&self, campaign_id: i64, channel_id: &str, combat_id: i64) {
        self.channels
            .lock()
            .expect("channel cache poisoned")
            .insert((campaign_id, channel_id.to_owned()), combat_id);
    }

    /// The slots of the combats this process holds for `campaign_id`'s channels.
    pub(super) fn campaign_slots(&self, campaign_id: i64) -> Vec<Slot> {
        let ids: Vec<i64> = self
            .channels
            .lock()
            .expect("channel cache poisoned")
            .iter()
            .filter(|((campaign, _), _)| *campaign == campaign_id)
            .map(|(_, id)| *id)
            .collect();
        let combats = self.combats.lock().expect("combat cache poisoned");
        ids.iter().filter_map(|id| combats.get(id).cloned()).collect()
    }
}
