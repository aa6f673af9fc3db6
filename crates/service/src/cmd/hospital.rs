//! The Hospital (seed 000 §8): admission when a character dies (inside the combat command's
//! own transaction), `/hospital` and `/hospital status`, `/hospital pay` (the fee paid, or
//! deferred as a debt), the recovery rest as a timer, the discharge when it ends, and the
//! debt's XP penalty. The numbers come from `engine::hospital`.
//!
//! The rule implemented (also in the README): the fee is fixed at admission — the level's base
//! fee, the zone-tier modifier, −25 % with a Cleric ally in the fight, capped at 40 % of the
//! coins held at admission — and capped again at `/hospital pay` by 40 % of the coins held then
//! (the smaller fee wins, [`hospital::charged_at_payment`]), so the fee never exceeds 40 % of
//! the player's *current* balance and can always be paid. A debt stored before that rule (a fee
//! deferred when the coins were gone) still costs 10 % of XP gains until a later `/hospital pay`
//! clears it.

use chrono::Duration;
use engine::content::{Class, Zone};
use engine::{Combatant, hospital};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, IntoActiveModel, QueryFilter,
    QueryOrder,
};

use crate::cmd::expedition::{self, ABANDONED, materials, materials_json};
use crate::entity::{character, debt, expedition as expedition_entity, hospital_record, timer};
use crate::repo::characters;
use crate::store::Live;
use crate::{DateTimeUtc, Service, ServiceError};

/// The `timers.kind` of a recovery rest.
pub const RECOVERY_REST: &str = "recovery_rest";

/// `hospital_records.zone_died_in` for a death outside any zone (tier 3 prices it).
pub const NO_ZONE: &str = "none";

/// The tier that prices a death outside any zone (§8.3's base).
const NO_ZONE_TIER: u8 = 3;

/// A death turned into a Hospital admission, for the renderer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Admission {
    pub hospital_record_id: i64,
    pub character_id: i64,
    pub player_id: String,
    pub name: String,
    /// Where they died (`None` outside any zone).
    pub zone: Option<Zone>,
    /// The tier that priced the fee (3 outside any zone).
    pub tier: u8,
    /// A Cleric ally fought in the same combat (−25 %).
    pub cleric_in_party: bool,
    /// Coins held at admission (the cap is 40 % of them).
    pub coins: i64,
    /// How the fee was reached; `fee.fee` is what is owed.
    pub fee: hospital::Fee,
    /// The character's expedition that was abandoned, by zone name, if they were on one.
    pub expedition_abandoned: Option<String>,
    /// The run's harvested materials that were dropped.
    pub materials_lost: Vec<String>,
}

/// What `/hospital pay` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payment {
    /// The fee was paid — the admission fee or, if smaller, 40 % of the coins held now
    /// (`fee < admission_fee` then); the recovery rest has begun.
    Paid {
        fee: i64,
        admission_fee: i64,
        rest: Duration,
        coins_left: i64,
    },
    /// An earlier debt was paid off.
    DebtCleared { amount: i64, coins_left: i64 },
    /// A debt is still owed and the character cannot pay it yet.
    StillOwed { amount: i64, coins: i64 },
    /// Nothing to pay.
    NothingOwed,
}

/// `/hospital pay`'s result: who, and what happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paid {
    pub name: String,
    pub payment: Payment,
}

/// A character's standing with the Hospital, for `/hospital` and `/hospital status`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HospitalView {
    pub name: String,
    pub coins: i64,
    /// Admitted and not yet through `/hospital pay`: what paying now would charge (the fee
    /// fixed at admission, or 40 % of the coins held now if smaller).
    pub awaiting_payment: Option<i64>,
    /// Unpaid debt (deferred fees), in coins.
    pub debt: i64,
    /// The recovery rest under way: when it ends and how long is left.
    pub rest: Option<(DateTimeUtc, Duration)>,
    /// The character has been in the Hospital at least once.
    pub ever_admitted: bool,
}

/// A duration for players, to the minute (seconds under a minute): "2 hours", "1 hour 5 minutes",
/// "45 minutes", "30 seconds".
pub fn describe(d: Duration) -> String {
    fn unit(n: i64, one: &str) -> String {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {one}s")
        }
    }
    let secs = d.num_seconds().max(0);
    let (h, m) = (secs / 3600, secs % 3600 / 60);
    match (h, m) {
        (0, 0) => unit(secs, "second"),
        (0, m) => unit(m, "minute"),
        (h, 0) => unit(h, "hour"),
        (h, m) => format!("{} {}", unit(h, "hour"), unit(m, "minute")),
    }
}

/// The character's latest Hospital record, if any.
pub(crate) async fn latest<R: crate::access::Access>(
    db: &R,
    character_id: i64,
) -> Result<Option<hospital_record::Model>, ServiceError> {
    Ok(crate::access::one(db, newest_first(character_id)).await?)
}

/// A character's Hospital records, the newest first: by `ix_hospital_records_latest`, the
/// newest without reading the others (migration `m20261212_000013`).
pub(crate) fn newest_first(character_id: i64) -> sea_orm::Select<hospital_record::Entity> {
    hospital_record::Entity::find()
        .filter(hospital_record::Column::CharacterId.eq(character_id))
        .order_by_desc(hospital_record::Column::AdmittedAt)
        .order_by_desc(hospital_record::Column::Id)
}

/// The character's unpaid debts, oldest first.
async fn open_debts<C: ConnectionTrait>(db: &C, character_id: i64) -> Result<Vec<debt::Model>, ServiceError> {
    Ok(debt::Entity::find()
        .filter(debt::Column::CharacterId.eq(character_id))
        .filter(debt::Column::PaidAt.is_null())
        .order_by_asc(debt::Column::Id)
        .all(db)
        .await?)
}

/// Whether the character owes the Hospital (their XP gains are 10 % lower while they do).
pub(crate) async fn in_debt<R: crate::access::Access>(db: &R, character_id: i64) -> Result<bool, ServiceError> {
    let unpaid = debt::Entity::find()
        .filter(debt::Column::CharacterId.eq(character_id))
        .filter(debt::Column::PaidAt.is_null());
    Ok(crate::access::count(db, unpaid).await? > 0)
}

/// Admits the character behind combatant `index` of `live`, who has just died: the record with
/// the fee fixed now, HP 0 and the arena streak reset, the character's expedition abandoned
/// with its harvest dropped. Level, XP, gear, inventory, coins, pet and housing are kept
/// (§8.1–§8.2). Runs inside the combat command's transaction.
pub(crate) async fn admit<R: crate::access::Access>(
    txn: &R,
    live: &Live,
    index: usize,
    now: DateTimeUtc,
) -> Result<Option<Admission>, ServiceError> {
    let Some(character_id) = live.characters.get(index).copied().flatten() else {
        return Ok(None);
    };
    let dead: &Combatant = &live.combat.combatants[index];
    let row = characters::get(txn, character_id).await?;
    let combat_expedition = match live.expedition_id {
        Some(id) => crate::access::one(txn, expedition_entity::Entity::find_by_id(id)).await?,
        None => None,
    };
    let own_expedition = expedition::active(txn, character_id).await?;
    let known = |name: &str| Zone::named(name).filter(|z| z.builtin().is_some());
    let zone = combat_expedition
        .as_ref()
        .and_then(|e| known(&e.zone))
        .or(live.combat.terrain.zone)
        .or_else(|| own_expedition.as_ref().and_then(|e| known(&e.zone)));
    let zone_def = zone.and_then(Zone::builtin);
    let zone = zone_def.and(zone);
    let tier = zone_def.map_or(NO_ZONE_TIER, |z| z.tier);
    let cleric_in_party = live
        .combat
        .combatants
        .iter()
        .any(|o| o.id != dead.id && o.side == dead.side && o.class_name() == Some(Class::CLERIC.name()));
    let coins = row.coins.max(0);
    let level = u32::try_from(row.level).unwrap_or(1);
    let fee = hospital::fee(level, tier, cleric_in_party, coins.unsigned_abs());
    let record_id = crate::access::insert(
        txn,
        hospital_record::ActiveModel {
            character_id: Set(character_id),
            player_id: Set(row.player_id.clone()),
            admitted_at: Set(now),
            fee: Set(i64::try_from(fee.fee).unwrap_or(i64::MAX)),
            fee_paid: Set(false),
            paid_at: Set(None),
            recovery_ends: Set(None),
            zone_died_in: Set(zone_def.map_or(NO_ZONE, |z| &*z.name).to_owned()),
            expedition_id: Set(own_expedition.as_ref().or(combat_expedition.as_ref()).map(|e| e.id)),
            death_saves: Set(serde_json::to_value(&dead.death).unwrap_or_default()),
            discharged_at: Set(None),
            ..Default::default()
        },
    )
    .await?;
    let mut expedition_abandoned = None;
    let mut materials_lost = Vec::new();
    if let Some(exp) = own_expedition {
        expedition_abandoned = Some(exp.zone.clone());
        materials_lost = materials(&exp);
        let mut ended = exp.into_active_model();
        ended.status = Set(ABANDONED.to_owned());
        ended.ended_at = Set(Some(now));
        ended.harvested_materials = Set(materials_json(&[]));
        expedition::save(txn, ended).await?;
    }
    let row = characters::modify(txn, row, |row| {
        row.hp = 0;
        row.arena_streak = 0;
        Ok(())
    })
    .await?;
    Ok(Some(Admission {
        hospital_record_id: record_id,
        character_id,
        player_id: row.player_id,
        name: row.name,
        zone,
        tier,
        cleric_in_party,
        coins,
        fee,
        expedition_abandoned,
        materials_lost,
    }))
}

/// Ends a recovery rest: marks the record discharged and restores HP, exactly once (a
/// conditional update: only the first caller sees the row change). Returns whether this call
/// did it.
pub(crate) async fn discharge<R: crate::access::Access>(
    txn: &R,
    record_id: i64,
    character_id: i64,
    now: DateTimeUtc,
) -> Result<bool, ServiceError> {
    let discharged = hospital_record::Entity::update_many()
        .col_expr(hospital_record::Column::DischargedAt, Expr::value(now))
        .filter(hospital_record::Column::Id.eq(record_id))
        .filter(hospital_record::Column::DischargedAt.is_null());
    if crate::access::execute(txn, &discharged).await? != 1 {
        return Ok(false);
    }
    restore_hp(txn, &[character_id]).await?;
    Ok(true)
}

/// Sets the characters' HP to their maximum.
pub(crate) async fn restore_hp<R: crate::access::Access>(txn: &R, character_ids: &[i64]) -> Result<(), ServiceError> {
    if character_ids.is_empty() {
        return Ok(());
    }
    let restored = character::Entity::update_many()
        .col_expr(character::Column::Hp, Expr::col(character::Column::MaxHp))
        .col_expr(
            character::Column::Version,
            sea_orm::sea_query::ExprTrait::add(Expr::col(character::Column::Version), 1),
        )
        .filter(character::Column::Id.is_in(character_ids.iter().copied()));
    crate::access::execute(txn, &restored).await?;
    Ok(())
}

/// The Hospital's gate before a character sets out or joins a fight: refused while admitted
/// and unpaid ([`ServiceError::InHospital`]) or resting ([`ServiceError::Resting`]); a rest
/// that has ended but not yet been fired is discharged here. Returns whether this is the
/// first outing since a Hospital stay (TwinBee's `ExpeditionResume`). `row` is refreshed.
pub(crate) async fn gate<R: crate::access::Access>(
    txn: &R,
    row: &mut character::Model,
    now: DateTimeUtc,
) -> Result<bool, ServiceError> {
    let Some(record) = latest(txn, row.id).await? else {
        return Ok(false);
    };
    let Some(ends) = record.recovery_ends else {
        return Err(ServiceError::InHospital {
            name: row.name.clone(),
            fee: record.fee,
        });
    };
    if ends > now {
        return Err(ServiceError::Resting {
            name: row.name.clone(),
            remaining: ends - now,
        });
    }
    if record.discharged_at.is_none() && discharge(txn, record.id, row.id, now).await? {
        *row = characters::get(txn, row.id).await?;
    }
    let mut since = expedition_entity::Entity::find()
        .filter(expedition_entity::Column::CharacterId.eq(row.id))
        .filter(expedition_entity::Column::StartedAt.gte(record.admitted_at));
    if let Some(died_on) = record.expedition_id {
        since = since.filter(expedition_entity::Column::Id.ne(died_on));
    }
    Ok(crate::access::count(txn, since).await? == 0)
}

impl Service {
    /// `/hospital` and `/hospital status`: the fee awaiting payment, the debt, the rest left.
    pub async fn hospital(
        &self,
        campaign_id: i64,
        player_id: &str,
        now: DateTimeUtc,
    ) -> Result<HospitalView, ServiceError> {
        let conn = self.db().conn();
        let row = Self::character_of(conn, campaign_id, player_id).await?;
        let record = latest(conn, row.id).await?;
        let debt = open_debts(conn, row.id).await?.iter().map(|d| d.amount).sum();
        let awaiting_payment = record
            .as_ref()
            .filter(|r| r.recovery_ends.is_none())
            .map(|r| hospital::charged_at_payment(r.fee, row.coins));
        let rest = record
            .as_ref()
            .and_then(|r| r.recovery_ends)
            .filter(|ends| *ends > now)
            .map(|ends| (ends, ends - now));
        Ok(HospitalView {
            name: row.name,
            coins: row.coins,
            awaiting_payment,
            debt,
            rest,
            ever_admitted: record.is_some(),
        })
    }

    /// `/hospital pay`: pays the fee fixed at admission, capped by 40 % of the coins held now,
    /// and starts the recovery rest (a timer due when it ends, written in the same transaction). With no fee pending, pays off a debt if the coins are
    /// there. `channel_id` is where Thom tells the player the rest is over if their DMs are
    /// closed.
    pub async fn hospital_pay(
        &self,
        campaign_id: i64,
        channel_id: &str,
        player_id: &str,
        now: DateTimeUtc,
    ) -> Result<Paid, ServiceError> {
        for _ in 0..crate::cmd::expedition::RACE_ATTEMPTS {
            if let Some(paid) = self.hospital_pay_once(campaign_id, channel_id, player_id, now).await? {
                return Ok(paid);
            }
        }
        Err(ServiceError::Contended)
    }

    /// One try at [`Service::hospital_pay`]; `None` if a concurrent payment settled the same
    /// fee or debt first (this try wrote nothing; the next one sees what it did). On SQLite
    /// `BEGIN IMMEDIATE` serialises payments, so only PostgreSQL gets here with `None`.
    async fn hospital_pay_once(
        &self,
        campaign_id: i64,
        channel_id: &str,
        player_id: &str,
        now: DateTimeUtc,
    ) -> Result<Option<Paid>, ServiceError> {
        let txn = self.db().begin_write().await?;
        let mut row = Self::character_of(&*txn, campaign_id, player_id).await?;
        let name = row.name.clone();
        let pending = latest(&*txn, row.id).await?.filter(|r| r.recovery_ends.is_none());
        let payment = if let Some(record) = pending {
            let fee = hospital::charged_at_payment(record.fee, row.coins);
            let level = u32::try_from(row.level).unwrap_or(1);
            let rest = hospital::recovery_rest(level);
            let ends = now + rest;
            // Conditional on the rest not having started: of two racing payments one starts
            // it, the other finds nothing pending (PostgreSQL; SQLite serialises them).
            let started = hospital_record::Entity::update_many()
                .col_expr(hospital_record::Column::RecoveryEnds, Expr::value(ends))
                .col_expr(hospital_record::Column::FeePaid, Expr::value(true))
                .col_expr(hospital_record::Column::PaidAt, Expr::value(now))
                .filter(hospital_record::Column::Id.eq(record.id))
                .filter(hospital_record::Column::RecoveryEnds.is_null());
            if started.exec(&*txn).await?.rows_affected != 1 {
                return Ok(None);
            }
            let paid = characters::modify(&*txn, row, |row| {
                if hospital::charged_at_payment(record.fee, row.coins) != fee {
                    // Spent meanwhile (PostgreSQL): this try is void; the next charges anew.
                    return Err(ServiceError::Contended);
                }
                row.coins -= fee;
                Ok(())
            })
            .await;
            row = match paid {
                Ok(row) => row,
                Err(ServiceError::Contended) => return Ok(None),
                Err(err) => return Err(err),
            };
            let rest_timer = timer::ActiveModel {
                kind: Set(RECOVERY_REST.to_owned()),
                campaign_id: Set(Some(campaign_id)),
                due_at: Set(ends),
                payload: Set(serde_json::json!({
                    "hospital_record_id": record.id,
                    "character_id": row.id,
                    "player_id": row.player_id,
                    "campaign_id": campaign_id,
                    "channel_id": channel_id,
                })),
                unique_key: Set(Some(format!("{RECOVERY_REST}:{}", record.id))),
                ..Default::default()
            }
            .insert(&*txn)
            .await;
            match rest_timer {
                Ok(_) => {}
                // `ux_timers_unique_key`: this admission's rest is scheduled already.
                Err(err) if crate::db::is_unique_violation(&err) => return Ok(None),
                Err(err) => return Err(err.into()),
            }
            Payment::Paid {
                fee,
                admission_fee: record.fee,
                rest,
                coins_left: row.coins,
            }
        } else {
            let debts = open_debts(&*txn, row.id).await?;
            let amount: i64 = debts.iter().map(|d| d.amount).sum();
            if debts.is_empty() {
                Payment::NothingOwed
            } else if row.coins < amount {
                Payment::StillOwed {
                    amount,
                    coins: row.coins,
                }
            } else {
                let ids: Vec<i64> = debts.iter().map(|d| d.id).collect();
                let cleared = debt::Entity::update_many()
                    .col_expr(debt::Column::PaidAt, Expr::value(now))
                    .filter(debt::Column::Id.is_in(ids.iter().copied()))
                    .filter(debt::Column::PaidAt.is_null())
                    .exec(&*txn)
                    .await?;
                if cleared.rows_affected != ids.len() as u64 {
                    // A racing payment cleared them first (PostgreSQL): run again.
                    return Ok(None);
                }
                let paid = characters::modify(&*txn, row, |row| {
                    if row.coins < amount {
                        return Err(ServiceError::Contended);
                    }
                    row.coins -= amount;
                    Ok(())
                })
                .await;
                let coins_left = match paid {
                    Ok(row) => row.coins,
                    Err(ServiceError::Contended) => return Ok(None),
                    Err(err) => return Err(err),
                };
                let records: Vec<i64> = debts.iter().filter_map(|d| d.hospital_record_id).collect();
                hospital_record::Entity::update_many()
                    .col_expr(hospital_record::Column::FeePaid, Expr::value(true))
                    .col_expr(hospital_record::Column::PaidAt, Expr::value(now))
                    .filter(hospital_record::Column::Id.is_in(records))
                    .exec(&*txn)
                    .await?;
                Payment::DebtCleared { amount, coins_left }
            }
        };
        txn.commit().await?;
        if matches!(payment, Payment::Paid { .. }) {
            self.store.wake.notify_one();
        }
        Ok(Some(Paid { name, payment }))
    }
}

#[cfg(test)]
mod tests {
    use super::describe;
    use chrono::Duration;

    #[test]
    fn durations_read_as_words() {
        let cases = [
            (Duration::hours(2), "2 hours"),
            (Duration::minutes(65), "1 hour 5 minutes"),
            (Duration::minutes(45) + Duration::seconds(59), "45 minutes"),
            (Duration::seconds(1), "1 second"),
            (Duration::seconds(-5), "0 seconds"),
        ];
        for (d, text) in cases {
            assert_eq!(describe(d), text);
        }
    }
}
