//! The world around the fight as the app's shared pieces see it: autocomplete lists
//! for the shop, the workbench and the room at the inn.

use chrono::{DateTime, Utc};

use super::{App, Caller, Suggest};

impl App {
    /// Thom's stock, what the caller could sell, or the recipes.
    pub(super) async fn world_names(&self, caller: &Caller, list: Suggest, now: DateTime<Utc>) -> Vec<String> {
        let Ok(world) = service::goods::world() else {
            return Vec::new();
        };
        match list {
            Suggest::Stock => world
                .stock
                .iter()
                .map(|s| s.name.to_string())
                .chain(world.pets.iter().map(|p| p.name.to_string()))
                .collect(),
            Suggest::Stored => {
                let Ok(campaign) = self.service.campaign_id_for(&caller.guild, &caller.channel, now).await else {
                    return Vec::new();
                };
                match self.service.house_list(campaign, &caller.user).await {
                    Ok(v) => v.room.goods.into_keys().chain(v.room.materials.into_keys()).collect(),
                    Err(_) => Vec::new(),
                }
            }
            Suggest::Recipe => world.recipes.iter().map(|r| r.name.to_string()).collect(),
            _ => {
                let Ok(campaign) = self.service.campaign_id_for(&caller.guild, &caller.channel, now).await else {
                    return Vec::new();
                };
                match self.service.shop_list(campaign, &caller.user).await {
                    Ok(list) => {
                        let mut names: Vec<String> = list.materials.into_iter().map(|(m, _, _)| m).collect();
                        names.extend(list.stock.into_iter().filter(|g| g.held > 0).map(|g| g.name));
                        names
                    }
                    Err(_) => Vec::new(),
                }
            }
        }
    }
}
