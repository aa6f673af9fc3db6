//! The scheduler core: runtime timers are rows of `timers` (kind, `due_at`, JSON payload); one
//! task per process sleeps until the earliest pending one ([`Service::wait_for_timers`]) and
//! fires what is due ([`Service::fire_due_timers`]). Timers survive restarts because they are
//! data: a fresh process fires at once whatever came due while it was down.
//!
//! Exactly once, with any number of processes on one database: a batch of due timers is
//! claimed inside a write transaction — PostgreSQL `SELECT … FOR UPDATE SKIP LOCKED` (a second
//! worker skips the rows the first holds), SQLite `BEGIN IMMEDIATE` (one writer at a time) —
//! and every update is conditional on `fired_at IS NULL`.
//!
//! With several processes each running some of Discord's shards, a process claims only the
//! timers of the campaigns its shards own ([`Service::owning`], `crate::shards`): a guild's
//! combats are touched by one process only.
//!
//! - A recovery rest ends inside that same transaction: the Hospital record is discharged, HP
//!   restored and the timer marked fired, all or nothing.
//! - A fight's timer (`COMBAT_TIMER`: its reaction window's timeout and its turn timer, one row
//!   a fight, `crate::cmd::turn_timer`) is claimed under a lease (`claimed_by`/`claimed_at`)
//!   and fired as a combat command with its own transaction, through the combat's version
//!   guard: the window's reactor passes, or the idle player's turn ends, or — fired early —
//!   nothing happens; then it is armed again, unclaimed. A worker that dies holding a claim
//!   leaves it to be taken again once the lease has run out.
//! - A reaction timeout row of a window opened before the fight's one timer (`m20261210_000013`) passes its window the same
//!   way, or finds it closed and goes.

use std::collections::HashMap;

use chrono::Duration;
use sea_orm::sea_query::{Expr, LockBehavior, LockType};
use sea_orm::{ColumnTrait, Condition, DatabaseTransaction, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use crate::entity::{campaign, character, hospital_record, timer};
use crate::settle::hospital::{self, RECOVERY_REST};
use crate::store::{COMBAT_TIMER, REACTION_TIMEOUT, TURN_TIMEOUT};
use crate::{Backend, CombatUpdate, DateTimeUtc, Service, ServiceError};

/// Timers claimed per transaction.
pub const BATCH: u64 = 500;

/// How long a claim on a reaction timeout holds before another worker may take it over.
pub const CLAIM_LEASE: Duration = Duration::seconds(60);

/// A fight that paused because nobody played: its channel and the players it waits for.
#[derive(Debug, Clone)]
pub struct FightPaused {
    pub combat_id: i64,
    pub channel_id: String,
    /// The characters of the players who let their turns run out.
    pub names: Vec<String>,
}

/// A turn that ran out: who, and what ending it did.
#[derive(Debug, Clone)]
pub struct TurnTimedOut {
    /// The player's character.
    pub name: String,
    pub update: CombatUpdate,
}

/// What a fired timer did, for the app to tell the players.
#[derive(Debug, Clone)]
pub enum Fired {
    /// A reaction window timed out: the reactor passed and the fight went on.
    ReactionPassed(Box<CombatUpdate>),
    /// A player the fight waited on ran out of time: their turn ended as if they sent `/endturn`.
    TurnTimedOut(Box<crate::TurnTimedOut>),
    /// Every player let their last turns run out: the fight waits, untouched, for one of them.
    FightPaused(crate::scheduler::FightPaused),
    /// A recovery rest ended (seed 000 §8.4): HP restored; tell the player (a DM, or `channel_id`).
    RestOver {
        player_id: String,
        character_id: i64,
        name: String,
        campaign_id: i64,
        guild_id: String,
        /// Where `/hospital pay` was sent (else the campaign's own channel, if it has one).
        channel_id: Option<String>,
    },
}

/// A name for this process's scheduler in `timers.claimed_by`: the host (`FLY_MACHINE_ID` or
/// `HOSTNAME`) and the process id.
pub fn worker_id() -> String {
    let host = std::env::var("FLY_MACHINE_ID")
        .or_else(|_| std::env::var("HOSTNAME"))
        .unwrap_or_else(|_| "gogobee".to_owned());
    format!("{host}-{}", std::process::id())
}

/// A claimed batch: the recovery rests fired in the claim's transaction, and the reaction and
/// turn timeouts to fire after it.
struct Claimed {
    rests: Vec<Fired>,
    reactions: Vec<timer::Model>,
    /// How many timers the batch took (fired, to pass, or moot).
    count: usize,
}

fn payload_i64(t: &timer::Model, key: &str) -> Option<i64> {
    t.payload.get(key).and_then(serde_json::Value::as_i64)
}

fn payload_str(t: &timer::Model, key: &str) -> Option<String> {
    t.payload
        .get(key)
        .and_then(serde_json::Value::as_str)
        .map(str::to_owned)
}

impl Service {
    /// Fires every timer due at `now` (in batches of [`BATCH`], each claimed in its own
    /// transaction as `worker_id`): reaction timeouts pass, recovery rests end. Each timer
    /// fires exactly once however many workers call this at the same time. Only the timers of
    /// the guilds this service owns are taken ([`Service::owning`]).
    pub async fn fire_due_timers(&self, now: DateTimeUtc, worker_id: &str) -> Result<Vec<Fired>, ServiceError> {
        let mut fired = Vec::new();
        loop {
            let (mut batch, claimed) = self.fire_timer_batch(now, worker_id, BATCH).await?;
            fired.append(&mut batch);
            if (claimed as u64) < BATCH {
                self.compact_if_due(now);
                return Ok(fired);
            }
        }
    }

    /// Claims and fires at most `limit` due timers; returns what fired and how many were claimed.
    pub async fn fire_timer_batch(
        &self,
        now: DateTimeUtc,
        worker_id: &str,
        limit: u64,
    ) -> Result<(Vec<Fired>, usize), ServiceError> {
        let txn = self.db().begin_write().await?;
        let claimed = match self.claim(&txn, now, worker_id, limit).await {
            Ok(claimed) => {
                txn.commit().await?;
                claimed
            }
            Err(err) => {
                txn.rollback().await?;
                return Err(err);
            }
        };
        let mut fired = claimed.rests;
        for t in claimed.reactions {
            if t.kind == COMBAT_TIMER || t.kind == TURN_TIMEOUT {
                fired.extend(self.fire_fight_timer(&t, now).await?);
            } else if let Some(update) = self.pass_timed_out(&t, now).await? {
                fired.push(Fired::ReactionPassed(Box::new(update)));
            }
        }
        Ok((fired, claimed.count))
    }

    async fn claim(
        &self,
        txn: &DatabaseTransaction,
        now: DateTimeUtc,
        worker_id: &str,
        limit: u64,
    ) -> Result<Claimed, ServiceError> {
        let mut query = timer::Entity::find()
            .filter(timer::Column::FiredAt.is_null())
            .filter(timer::Column::DueAt.lte(now))
            .filter(
                Condition::any()
                    .add(timer::Column::ClaimedAt.is_null())
                    .add(timer::Column::ClaimedAt.lt(now - CLAIM_LEASE)),
            )
            .order_by_asc(timer::Column::DueAt)
            .order_by_asc(timer::Column::Id)
            .limit(limit);
        query = query.filter(self.timer_filter());
        if self.db().backend() == Backend::Postgres {
            query = query.lock_with_behavior(LockType::Update, LockBehavior::SkipLocked);
        }
        let due = query.all(txn).await?;
        let claimed = due.len();
        let (rests, others): (Vec<timer::Model>, Vec<timer::Model>) =
            due.into_iter().partition(|t| t.kind == RECOVERY_REST);
        let (reactions, unknown): (Vec<timer::Model>, Vec<timer::Model>) = others
            .into_iter()
            .partition(|t| [COMBAT_TIMER, REACTION_TIMEOUT, TURN_TIMEOUT].contains(&t.kind.as_str()));
        // Unknown kinds (from a newer version, say) are marked fired so they never block the queue.
        let mut fired_ids: Vec<i64> = unknown.iter().map(|t| t.id).collect();
        let fired_rests = self.end_rests(txn, &rests, now).await?;
        fired_ids.extend(rests.iter().map(|t| t.id));
        if !fired_ids.is_empty() {
            let done = timer::Entity::update_many()
                .col_expr(timer::Column::ClaimedBy, Expr::value(worker_id))
                .col_expr(timer::Column::ClaimedAt, Expr::value(now))
                .col_expr(timer::Column::FiredAt, Expr::value(now))
                .filter(timer::Column::Id.is_in(fired_ids.iter().copied()))
                .filter(timer::Column::FiredAt.is_null())
                .exec(txn)
                .await?;
            if done.rows_affected != fired_ids.len() as u64 {
                // Another worker got there first (only possible without row locks): undo all.
                return Err(ServiceError::InvalidInput(format!(
                    "timer claim lost a race ({} of {} rows)",
                    done.rows_affected,
                    fired_ids.len()
                )));
            }
        }
        if !reactions.is_empty() {
            timer::Entity::update_many()
                .col_expr(timer::Column::ClaimedBy, Expr::value(worker_id))
                .col_expr(timer::Column::ClaimedAt, Expr::value(now))
                .filter(timer::Column::Id.is_in(reactions.iter().map(|t| t.id)))
                .filter(timer::Column::FiredAt.is_null())
                .exec(txn)
                .await?;
        }
        Ok(Claimed {
            rests: fired_rests,
            reactions,
            count: claimed,
        })
    }

    /// Ends the recovery rests of `timers` inside the claim's transaction: each Hospital record
    /// not yet discharged is discharged and its character's HP restored. A rest already ended
    /// otherwise (the character set out the moment it was over) fires silently.
    async fn end_rests(
        &self,
        txn: &DatabaseTransaction,
        timers: &[timer::Model],
        now: DateTimeUtc,
    ) -> Result<Vec<Fired>, ServiceError> {
        let record_ids: Vec<i64> = timers
            .iter()
            .filter_map(|t| payload_i64(t, "hospital_record_id"))
            .collect();
        if record_ids.is_empty() {
            return Ok(Vec::new());
        }
        let open: Vec<hospital_record::Model> = hospital_record::Entity::find()
            .filter(hospital_record::Column::Id.is_in(record_ids.iter().copied()))
            .filter(hospital_record::Column::DischargedAt.is_null())
            .all(txn)
            .await?;
        if open.is_empty() {
            return Ok(Vec::new());
        }
        let done = hospital_record::Entity::update_many()
            .col_expr(hospital_record::Column::DischargedAt, Expr::value(now))
            .filter(hospital_record::Column::Id.is_in(open.iter().map(|r| r.id)))
            .filter(hospital_record::Column::DischargedAt.is_null())
            .exec(txn)
            .await?;
        if done.rows_affected != open.len() as u64 {
            return Err(ServiceError::InvalidInput("a rest was discharged concurrently".into()));
        }
        let character_ids: Vec<i64> = open.iter().map(|r| r.character_id).collect();
        hospital::restore_hp(txn, &character_ids).await?;
        let rows: HashMap<i64, character::Model> = character::Entity::find()
            .filter(character::Column::Id.is_in(character_ids.iter().copied()))
            .all(txn)
            .await?
            .into_iter()
            .map(|c| (c.id, c))
            .collect();
        let campaigns: HashMap<i64, campaign::Model> = campaign::Entity::find()
            .filter(campaign::Column::Id.is_in(rows.values().map(|c| c.campaign_id)))
            .all(txn)
            .await?
            .into_iter()
            .map(|c| (c.id, c))
            .collect();
        let by_record: HashMap<i64, &timer::Model> = timers
            .iter()
            .filter_map(|t| payload_i64(t, "hospital_record_id").map(|id| (id, t)))
            .collect();
        let mut fired = Vec::new();
        for record in &open {
            let Some(row) = rows.get(&record.character_id) else {
                continue;
            };
            let Some(camp) = campaigns.get(&row.campaign_id) else {
                continue;
            };
            let channel = by_record
                .get(&record.id)
                .and_then(|t| payload_str(t, "channel_id"))
                .or_else(|| camp.channel_id.clone());
            fired.push(Fired::RestOver {
                player_id: row.player_id.clone(),
                character_id: row.id,
                name: row.name.clone(),
                campaign_id: camp.id,
                guild_id: camp.guild_id.clone(),
                channel_id: channel,
            });
        }
        Ok(fired)
    }

    /// Sleeps until the next pending timer is due (measured against `now`, this process's idea
    /// of the time), until this process schedules a new timer, or for at most `max` — whichever
    /// comes first. The scheduler task loops: wait, then [`Service::fire_due_timers`]. Under
    /// `tokio::time::pause` the sleep advances with the paused clock.
    pub async fn wait_for_timers(&self, now: DateTimeUtc, max: std::time::Duration) -> Result<(), ServiceError> {
        let wait = match self.next_timer_due().await? {
            Some(due) if due <= now => return Ok(()),
            Some(due) => (due - now).to_std().unwrap_or_default().min(max),
            None => max,
        };
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            () = self.store.wake.notified() => {}
        }
        Ok(())
    }
}
