//! Rests outside combat at Thom Krooke's inn: `/rest short` and `/rest long` cost
//! coins, not time (the prices are content data, `shop.toml`'s `[inn]`). A short rest (a meal and
//! an hour by the fire) gives back half of max HP, rounded up; a long rest (a room for the night)
//! all of it. Spell slots and per-day abilities are not kept between fights — every fight
//! begins with them full — so a rest's work outside combat is hit points. Refused (nothing
//! charged) in a fight, out on an expedition (its encounters included), in the Hospital before
//! `/hospital pay`, during the recovery rest (the healers' rest ends with full HP), and at full HP.
//! A character with a room of their own (`cmd::house`) takes the long rest there, free.

use crate::goods::the_world;
use crate::repo::characters;
use crate::settle::hospital::latest;
use crate::{DateTimeUtc, Service, ServiceError};

/// Which rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RestKind {
    Short,
    Long,
}

/// What a rest did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rested {
    pub name: String,
    pub kind: RestKind,
    pub cost: i64,
    /// Hit points regained.
    pub healed: i32,
    pub hp: i32,
    pub max_hp: i32,
    pub coins_left: i64,
    /// A long rest gave back the TDGS Interrupts spent today (a Cleric's Divine Intervention).
    pub interrupts_restored: bool,
    /// Slept in their own room (a free long rest).
    pub own_room: bool,
}

impl Service {
    /// `/rest short` or `/rest long`.
    pub async fn rest(
        &self,
        campaign_id: i64,
        player_id: &str,
        kind: RestKind,
        now: DateTimeUtc,
    ) -> Result<Rested, ServiceError> {
        let inn = the_world()?.inn;
        let conn = self.db().conn();
        let row = Self::character_of(conn, campaign_id, player_id).await?;
        Self::at_the_inn(conn, &row).await?;
        if let Some(record) = latest(conn, row.id).await? {
            match record.recovery_ends {
                None => {
                    return Err(ServiceError::InHospital {
                        name: row.name,
                        fee: record.fee,
                    });
                }
                Some(ends) if ends > now && record.discharged_at.is_none() => {
                    return Err(ServiceError::OnRecoveryRest {
                        name: row.name,
                        ends: ends.timestamp(),
                    });
                }
                Some(_) => {}
            }
        }
        // A character with a room of their own sleeps there for nothing (`cmd::house`).
        let own_room = row.housing.is_some();
        let cost = i64::from(match kind {
            RestKind::Short => inn.short_rest,
            RestKind::Long if own_room => 0,
            RestKind::Long => inn.long_rest,
        });
        let mut healed = 0;
        let mut interrupts_restored = false;
        let row = characters::modify(self.db(), row, |row| {
            // Seed 001 "Per day: Resets after long rest": a long rest is worth taking at full HP
            // when today's per-day Interrupts are spent.
            let restores = kind == RestKind::Long && row.interrupts_today.is_some();
            if row.hp >= row.max_hp && !restores {
                return Err(ServiceError::InvalidInput(format!(
                    "{} is at full HP ({}/{}) — no rest needed, nothing charged.",
                    row.name, row.hp, row.max_hp
                )));
            }
            if row.coins < cost {
                return Err(ServiceError::CannotAfford {
                    what: match kind {
                        RestKind::Short => "A short rest".to_owned(),
                        RestKind::Long => "A long rest".to_owned(),
                    },
                    price: cost,
                    coins: row.coins,
                });
            }
            let gain = match kind {
                RestKind::Short => {
                    let pct = i64::from(inn.short_rest_heal_percent);
                    i32::try_from((i64::from(row.max_hp) * pct + 99) / 100).unwrap_or(row.max_hp)
                }
                RestKind::Long => row.max_hp,
            };
            let hp = row.hp.max(0).saturating_add(gain).min(row.max_hp);
            healed = hp - row.hp.max(0);
            row.hp = hp;
            row.coins -= cost;
            if restores {
                row.interrupts_today = None;
            }
            interrupts_restored = restores;
            Ok(())
        })
        .await?;
        Ok(Rested {
            name: row.name,
            kind,
            cost,
            healed,
            hp: row.hp,
            max_hp: row.max_hp,
            coins_left: row.coins,
            interrupts_restored,
            own_room: own_room && kind == RestKind::Long,
        })
    }
}
