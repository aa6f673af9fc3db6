//! The Hospital (seed 000 §8): `/hospital bill` and `/hospital status`, `/hospital pay` (the fee paid,
//! or deferred as a debt) and the recovery rest as a timer. The admission when a character dies
//! (inside the combat command's own transaction), the discharge when the rest ends and the
//! debt's XP penalty are `settle::hospital`'s; the numbers come from `engine::hospital`.
//!
//! The rule implemented (also in the README): the fee is fixed at admission — the level's base
//! fee, the zone-tier modifier, −25 % with a Cleric ally in the fight, capped at 40 % of the
//! coins held at admission — and capped again at `/hospital pay` by 40 % of the coins held then
//! (the smaller fee wins, [`hospital::charged_at_payment`]), so the fee never exceeds 40 % of
//! the player's *current* balance and can always be paid. A debt stored before that rule (a fee
//! deferred when the coins were gone) still costs 10 % of XP gains until a later `/hospital pay`
//! clears it.

use chrono::Duration;
use engine::hospital;
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};

use crate::entity::{debt, hospital_record, timer};
pub use crate::error::describe;
use crate::repo::characters;
use crate::settle::hospital::{RECOVERY_REST, latest};
use crate::{DateTimeUtc, Service, ServiceError};

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

/// A character's standing with the Hospital, for `/hospital bill` and `/hospital status`.
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

/// The character's unpaid debts, oldest first.
async fn open_debts<C: ConnectionTrait>(db: &C, character_id: i64) -> Result<Vec<debt::Model>, ServiceError> {
    Ok(debt::Entity::find()
        .filter(debt::Column::CharacterId.eq(character_id))
        .filter(debt::Column::PaidAt.is_null())
        .order_by_asc(debt::Column::Id)
        .all(db)
        .await?)
}

impl Service {
    /// `/hospital bill` and `/hospital status`: the fee awaiting payment, the debt, the rest left.
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
        for _ in 0..crate::settle::expedition::RACE_ATTEMPTS {
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
