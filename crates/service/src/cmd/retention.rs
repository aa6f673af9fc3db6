//! Retention and replay of fights: nothing is kept for ever. A finished fight's
//! event log is kept for the retention period ([`Service::with_retention`], the bot's
//! `RETENTION_DAYS`, default [`DEFAULT_RETENTION_DAYS`]); after it the log and the
//! denormalised rows are dropped and the state becomes a summary (outcome, who fought, how it
//! ended for each), keeping the seed. Fired timers go after the same period. A pass works in
//! small transactions with a pause between them, on a task of its own, so a backlog (the first
//! pass after an upgrade) never holds a member's command for long. Replay re-runs a
//! kept fight from the state it was created with and its logged commands and checks that every
//! command gives the events it gave and the fight ends in the state stored.

use std::sync::atomic::Ordering;

use chrono::Duration;
use engine::Combat;
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use crate::entity::{combat, combat_event, combat_snapshot, combat_start, readied_action, timer, turn_resources};
use crate::store::{Live, Logged};
use crate::{DateTimeUtc, Service, ServiceError};

/// Days a finished fight's log (and a fired timer) is kept when nothing else is configured.
pub const DEFAULT_RETENTION_DAYS: u32 = 30;

/// How often the scheduler applies the retention policy.
const COMPACTION_EVERY: Duration = Duration::hours(1);

/// What one pass of the retention policy removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Compacted {
    /// Finished fights reduced to their summary and seed.
    pub combats: u64,
    /// Event-log rows dropped with them.
    pub log_rows: u64,
    /// Fired timers deleted.
    pub timers: u64,
    /// Write transactions that compacted or deleted something.
    pub transactions: u64,
}

/// Fights compacted in one transaction.
pub const COMPACTION_BATCH: u64 = 100;
/// Fired timers deleted in one transaction.
pub const TIMER_BATCH: u64 = 1_000;
/// The pause between two of a pass's transactions: commands waiting for the database (on
/// SQLite, for its one writer) are served in it.
pub const COMPACTION_PAUSE: std::time::Duration = std::time::Duration::from_millis(50);

/// How a retention pass spreads its work ([`Service::with_compaction_pace`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompactionPace {
    pub fights: u64,
    pub pause: std::time::Duration,
}

impl Default for CompactionPace {
    fn default() -> Self {
        Self {
            fights: COMPACTION_BATCH,
            pause: COMPACTION_PAUSE,
        }
    }
}

/// A replay's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replayed {
    pub combat_id: i64,
    /// Commands re-applied.
    pub commands: usize,
    /// The first logged command whose events came out differently (`None`: all the same).
    pub diverged_at: Option<i64>,
    /// The fight came out in the state stored.
    pub same_state: bool,
}

fn unreadable(combat_id: i64, what: &str, err: &dyn std::fmt::Display) -> ServiceError {
    ServiceError::InvalidInput(format!("fight {combat_id} has an unreadable {what}: {err}"))
}

impl Service {
    /// This service applies the retention policy (`keep`: how long finished fights' logs and
    /// fired timers are kept) as it fires timers, at most once an hour.
    pub fn with_retention(mut self, keep: Duration) -> Self {
        self.retention = Some(keep);
        self
    }

    /// This service compacts `fights` fights a transaction with `pause` between two
    /// transactions instead of [`COMPACTION_BATCH`] and [`COMPACTION_PAUSE`].
    pub fn with_compaction_pace(mut self, fights: u64, pause: std::time::Duration) -> Self {
        self.compaction = CompactionPace {
            fights: fights.max(1),
            pause,
        };
        self
    }

    /// Applies the retention policy if one is set and an hour has passed since it last ran
    /// here (called by [`Service::fire_due_timers`]), on a task of its own: the timers fire
    /// meanwhile, and a pass still running is not started again.
    pub(crate) fn compact_if_due(&self, now: DateTimeUtc) {
        let Some(keep) = self.retention else {
            return;
        };
        {
            let mut last = self.last_compaction.lock().expect("compaction clock poisoned");
            if last.is_some_and(|at| now - at < COMPACTION_EVERY) {
                return;
            }
            *last = Some(now);
        }
        if self.compacting.swap(true, Ordering::AcqRel) {
            return;
        }
        let service = self.clone();
        tokio::spawn(async move {
            match service.compact_finished(now, keep).await {
                Ok(done) if done != Compacted::default() => {
                    tracing::info!(
                        combats = done.combats,
                        log_rows = done.log_rows,
                        timers = done.timers,
                        transactions = done.transactions,
                        "retention"
                    );
                }
                Ok(_) => {}
                Err(error) => tracing::warn!(%error, "retention pass failed; next one in an hour"),
            }
            service.compacting.store(false, Ordering::Release);
        });
    }

    /// Whether a retention pass started by the scheduler is still running.
    pub fn compacting(&self) -> bool {
        self.compacting.load(Ordering::Acquire)
    }

    /// Compacts fights finished (not active) before `now - keep` to their summary and seed,
    /// dropping their event log and denormalised rows, and deletes timers fired before then.
    /// Active fights and fights finished since are untouched (their replay keeps working).
    /// A transaction compacts at most [`COMPACTION_BATCH`] fights (or deletes as many
    /// timers' worth, [`TIMER_BATCH`]) and the next waits [`COMPACTION_PAUSE`], so a
    /// backlog never holds the database (SQLite's one writer) for long: commands are served
    /// between two batches.
    pub async fn compact_finished(&self, now: DateTimeUtc, keep: Duration) -> Result<Compacted, ServiceError> {
        let cutoff = now - keep;
        let pace = self.compaction;
        let mut done = Compacted::default();
        loop {
            let batch = self.compact_batch(now, cutoff, pace.fights).await?;
            if batch.combats == 0 {
                break;
            }
            done.combats += batch.combats;
            done.log_rows += batch.log_rows;
            done.transactions += 1;
            if batch.combats < pace.fights {
                break;
            }
            tokio::time::sleep(pace.pause).await;
        }
        loop {
            let fired: Vec<i64> = timer::Entity::find()
                .filter(timer::Column::FiredAt.lt(cutoff))
                .order_by_asc(timer::Column::Id)
                .limit(TIMER_BATCH)
                .all(self.db().conn())
                .await?
                .into_iter()
                .map(|t| t.id)
                .collect();
            if fired.is_empty() {
                break;
            }
            let txn = self.db().begin_write().await?;
            done.timers += timer::Entity::delete_many()
                .filter(timer::Column::Id.is_in(fired.iter().copied()))
                .filter(timer::Column::FiredAt.lt(cutoff))
                .exec(&*txn)
                .await?
                .rows_affected;
            txn.commit().await?;
            done.transactions += 1;
            if (fired.len() as u64) < TIMER_BATCH {
                break;
            }
            tokio::time::sleep(pace.pause).await;
        }
        Ok(done)
    }

    /// One transaction of [`Service::compact_finished`]: up to `limit` fights finished before
    /// `cutoff`, oldest first.
    async fn compact_batch(
        &self,
        now: DateTimeUtc,
        cutoff: DateTimeUtc,
        limit: u64,
    ) -> Result<Compacted, ServiceError> {
        let txn = self.db().begin_write().await?;
        let finished = combat::Entity::find()
            .filter(combat::Column::Status.ne(crate::repo::combats::ACTIVE))
            .filter(combat::Column::UpdatedAt.lt(cutoff))
            .filter(combat::Column::CompactedAt.is_null())
            .order_by_asc(combat::Column::Id)
            .limit(limit)
            .all(&*txn)
            .await?;
        let mut done = Compacted::default();
        for row in &finished {
            let summary = match crate::store::rebuild(&*txn, row.id).await {
                Ok((_, live)) => summary(&live.combat),
                Err(_) => serde_json::json!({ "summary": { "outcome": row.status } }),
            };
            combat::Entity::update_many()
                .col_expr(combat::Column::State, Expr::value(summary.to_string()))
                .col_expr(combat::Column::InitialState, Expr::value(Option::<String>::None))
                .col_expr(combat::Column::CompactedAt, Expr::value(now))
                .filter(combat::Column::Id.eq(row.id))
                .exec(&*txn)
                .await?;
        }
        let ids: Vec<i64> = finished.iter().map(|row| row.id).collect();
        if !ids.is_empty() {
            done.combats = ids.len() as u64;
            done.log_rows = combat_event::Entity::delete_many()
                .filter(combat_event::Column::CombatId.is_in(ids.iter().copied()))
                .exec(&*txn)
                .await?
                .rows_affected;
            turn_resources::Entity::delete_many()
                .filter(turn_resources::Column::CombatId.is_in(ids.iter().copied()))
                .exec(&*txn)
                .await?;
            readied_action::Entity::delete_many()
                .filter(readied_action::Column::CombatId.is_in(ids.iter().copied()))
                .exec(&*txn)
                .await?;
            // The whole states go with the log: the summary and the seed remain.
            combat_snapshot::Entity::delete_many()
                .filter(combat_snapshot::Column::CombatId.is_in(ids.iter().copied()))
                .exec(&*txn)
                .await?;
            combat_start::Entity::delete_many()
                .filter(combat_start::Column::CombatId.is_in(ids.iter().copied()))
                .exec(&*txn)
                .await?;
        }
        txn.commit().await?;
        Ok(done)
    }

    /// Re-runs a stored fight from the state it was created with and its logged commands,
    /// comparing each command's events and the final state with what was stored. A fight
    /// compacted under the retention policy, or created before initial states were kept, is
    /// refused with a message saying so.
    pub async fn replay(&self, combat_id: i64) -> Result<Replayed, ServiceError> {
        let conn = self.db().conn();
        let row = crate::repo::combats::get(conn, combat_id).await?;
        if let Some(at) = row.compacted_at {
            return Err(ServiceError::InvalidInput(format!(
                "Fight {combat_id} finished more than the retention period ago and was compacted on {}: \
                 its seed and summary are kept, its log is not, so it cannot be replayed.",
                at.format("%Y-%m-%d")
            )));
        }
        let start = combat_start::Entity::find_by_id(combat_id).one(conn).await?;
        let Some(initial) = start
            .as_ref()
            .map(|s| s.state.as_str())
            .or(row.initial_state.as_deref())
        else {
            return Err(ServiceError::InvalidInput(format!(
                "Fight {combat_id} was created before fights kept their starting state, so it cannot be replayed."
            )));
        };
        let mut live = Live::from_state(initial).map_err(|e| {
            ServiceError::InvalidInput(format!("fight {combat_id} has an unreadable initial state: {e}"))
        })?;
        // What the store holds: its latest snapshot and the commands after it (the whole log
        // when the fight is at most one snapshot interval old: then the comparison is of the
        // same path, still proving the log reproduces its events).
        let (_, end) = crate::store::rebuild(conn, combat_id).await?;
        let log = combat_event::Entity::find()
            .filter(combat_event::Column::CombatId.eq(combat_id))
            .order_by_asc(combat_event::Column::Seq)
            .all(conn)
            .await?;
        let mut diverged_at = None;
        for entry in &log {
            let logged: Logged = entry
                .command()
                .map_err(|e| unreadable(combat_id, "logged command", &e))?;
            let stored = serde_json::Value::Array(
                entry
                    .stored_events()
                    .map_err(|e| unreadable(combat_id, "event log", &e))?,
            );
            // Refused on replay: it diverged here, and nothing after it can be compared.
            let Ok(events) = live.replay(logged, entry.created_at) else {
                diverged_at = diverged_at.or(Some(entry.seq));
                break;
            };
            if diverged_at.is_none() && serde_json::to_value(&events).ok().as_ref() != Some(&stored) {
                diverged_at = Some(entry.seq);
            }
        }
        let same_state = serde_json::to_value(&live.combat).ok() == serde_json::to_value(&end.combat).ok();
        Ok(Replayed {
            combat_id,
            commands: log.len(),
            diverged_at,
            same_state,
        })
    }
}

/// A finished fight's summary: its outcome, and each combatant's name, HP and fate.
fn summary(combat: &Combat) -> serde_json::Value {
    let outcome = combat.outcome.map(|o| format!("{o:?}"));
    let combatants: Vec<serde_json::Value> = combat
        .combatants
        .iter()
        .map(|c| {
            serde_json::json!({
                "name": c.name,
                "hp": c.hp,
                "max_hp": c.max_hp,
                "dead": c.is_dead(),
            })
        })
        .collect();
    serde_json::json!({ "summary": { "outcome": outcome, "combatants": combatants } })
}
