//! Active combats in memory, one writer each, and the one transaction that persists a command.
//!
//! A command on a combat locks that combat's slot (a `tokio::sync::Mutex`, so commands on
//! one combat queue while other combats run), applies itself to the cached state, and writes
//! what happened in ONE transaction: its `combat_events` row (the command, its events, the open
//! window's token and the fight's timer after it), whose key `(combat_id, seq = version read +
//! 1)` is the version guard (inserted or not at all), new `combatants` rows, and the fight's
//! timer when it is set or retired ([`Live::fight_timer`]: once a fight, not a window or a turn).
//! The fight's whole state is written only every [`SNAPSHOT_EVERY`] commands, at a death and when
//! it ends, as its snapshot (`combat_snapshots`, in the same transaction), and with it the combat
//! row (version, timers, status) and the denormalised `turn_resources`, `readied_actions` and
//! `death_save_states` rows, which so always hold what the latest snapshot holds (a
//! command between snapshots writes its log entry, nothing else). [`load`] rebuilds a fight from
//! its latest snapshot and re-applies the commands logged after it through the engine
//! ([`Live::replay`], deterministic: same state + same commands ⇒ same state); the last entry is
//! its version. Another process that wrote first makes the save fail as
//! [`ServiceError::StaleCombat`]: the slot is reloaded from the database and the command retried
//! on the fresh state.
//!
//! By job: [`live`] the fight in memory and its replay, [`logged`] the log's commands, [`cache`]
//! the cache, [`load`] reading a fight back and creating one, [`rows`] the SQL of a write,
//! [`timers`] the timer arithmetic; this module runs a command and writes it (the group commit,
//! a transaction of its own, and the [`crate::settle`]ment a death or an end brings).

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use engine::Event;
use sea_orm::{ConnectionTrait, DatabaseTransaction, DbBackend, EntityTrait};
use tokio::sync::oneshot;

use crate::db::GroupCommit;
use crate::entity::{combat_event, timer};
use crate::group::{GroupCommitCounts, GroupWrite};
use crate::notice::Notice;
use crate::settle;
use crate::{DateTimeUtc, Db, ServiceError};

mod cache;
mod live;
mod load;
mod logged;
mod rows;
mod timers;

pub(crate) use cache::Cache;
pub(crate) use live::{Applied, Before, Live, WaitKey, engine_step, room_for, wait_key};
pub use live::{MAX_COMBATANTS, awaited};
pub(crate) use load::{NewFight, create, create_alone, load, rebuild};
pub(crate) use logged::Logged;
use rows::{Batch, statements};
pub(crate) use timers::arm_at;
pub use timers::{COMBAT_TIMER, REACTION_TIMEOUT, TURN_TIMEOUT};
use timers::{take_timer_id, timer_change};

/// Attempts at a command whose save met a newer version written elsewhere.
const MAX_ATTEMPTS: usize = 4;

/// A fight's state is written whole (its snapshot) every this many commands, and when it ends;
/// the commands between are only logged. Loading a fight re-applies at most this many minus one
/// (a few microseconds each). 64 (32 and 16 in earlier builds): a snapshot,
/// with the combat row and the denormalised rows it brings, was ≈ 0.4 of a command's ≈ 4 pages
/// over 16 commands; over 32 it was still ≈ 200 bytes of WAL a command (4.08 KB a command
/// with one fight, 3.88 KB every 64: BENCHMARKS.md).
pub const SNAPSHOT_EVERY: i64 = 64;

/// Which database engine a connection or transaction talks to.
fn backend(db: &Db) -> DbBackend {
    db.conn().get_database_backend()
}

/// Whether a command's write needs a transaction of its own: a death admits the character
/// to the Hospital and an ended fight is settled, both reading rows as they go.
fn needs_transaction(after: &Live, events: &[Event]) -> bool {
    after.combat.outcome.is_some() || events.iter().any(|e| matches!(e, Event::Died { .. }))
}

/// What a command's transaction does besides the fight's own rows, in it: a character who died
/// in the command is admitted to the Hospital (§8.1), before any settlement reads their row;
/// a fight that ended is settled (an arena duel: the streaks, and nothing else of the fight).
/// The rules are [`crate::settle`]'s.
async fn aftermath<R: crate::access::Access>(
    txn: &R,
    after: &mut Live,
    events: &[Event],
    now: DateTimeUtc,
) -> Result<Aftermath, ServiceError> {
    let mut fight = settle::Fight {
        id: after.id,
        expedition_id: after.expedition_id,
        combat: &after.combat,
        characters: &after.characters,
        dice: &mut after.dice,
    };
    let mut aftermath = Vec::new();
    for event in events {
        if let Event::Died { id } = event
            && let Some(admission) = settle::hospital::admit(txn, &fight, id.0 as usize, now).await?
        {
            aftermath.push(Notice::Admitted(admission));
        }
    }
    if fight.combat.outcome.is_some() && fight.combat.duel {
        if let Some(end) = settle::duel::settle(txn, &fight, now).await? {
            aftermath.push(Notice::DuelEnded(end));
        }
    } else if fight.combat.outcome.is_some() {
        let settled = settle::fight::settle(txn, &mut fight, events, now).await?;
        aftermath.push(Notice::Settled(settled));
    }
    Ok(aftermath)
}

/// Runs commands against cached combats.
pub(crate) struct Store {
    pub db: Db,
    pub cache: Cache,
    /// Woken when this process schedules a timer, so the scheduler task sleeping until the
    /// next one re-reads it.
    pub wake: tokio::sync::Notify,
    /// What the group commit has written (nothing but on a SQLite file).
    pub group_counts: Arc<GroupCommitCounts>,
    /// A command whose version is a multiple of this writes the fight's snapshot
    /// ([`SNAPSHOT_EVERY`] unless set otherwise).
    pub snapshot_every: AtomicI64,
}

/// A command's effect once written: the combat after it and what the caller needs.
pub(crate) struct Written<T> {
    pub live: Live,
    pub events: Vec<Event>,
    pub extra: T,
}

/// What a command's transaction did besides the combat itself, in order: Hospital
/// admissions (a character died), then the settlement if the fight ended.
pub(crate) type Aftermath = Vec<Notice>;

impl Store {
    /// A store over `db`.
    pub fn new(db: Db) -> Self {
        let group_counts = db
            .writer()
            .map_or_else(Arc::default, |writer| Arc::clone(writer.counts()));
        Self {
            db,
            cache: Cache::default(),
            wake: tokio::sync::Notify::new(),
            group_counts,
            snapshot_every: AtomicI64::new(SNAPSHOT_EVERY),
        }
    }

    /// Whether the command that brought the fight to `after` with `events` writes its snapshot
    /// (and the denormalised rows with it): every [`Store::snapshot_every`] versions, at a death
    /// (what `repo::combats::fighting_in` reads), and when it ends (what replay and retention read).
    fn snapshot_due(&self, after: &Live, events: &[Event]) -> bool {
        after.combat.outcome.is_some()
            || after.version % self.snapshot_every.load(Ordering::Relaxed).max(1) == 0
            || events.iter().any(|e| matches!(e, Event::Died { .. }))
    }

    /// Runs `command` on a combat: from the cache (or the database), one writer at a time,
    /// one transaction per command, retried on a stale version.
    pub async fn run<T, F>(
        &self,
        combat_id: i64,
        now: DateTimeUtc,
        mut command: F,
    ) -> Result<Written<(T, Aftermath)>, ServiceError>
    where
        F: FnMut(&mut Live) -> Result<Applied<T>, ServiceError>,
    {
        let slot = self.cache.slot(combat_id);
        let mut guard = slot.lock().await;
        let mut attempt = 0;
        loop {
            attempt += 1;
            if guard.is_none() {
                *guard = Some(load(&self.db, combat_id).await?);
            }
            let live = guard.as_mut().expect("loaded above");
            if live.combat.outcome.is_some() {
                // Ended by another process: its channel no longer has it (see `refresh_channel`).
                let (id, campaign_id, channel_id) = (live.id, live.campaign_id, live.channel_id.clone());
                *guard = None;
                self.cache.forget(id, campaign_id, &channel_id);
                return Err(ServiceError::Rules(engine::RuleViolation::CombatOver));
            }
            // The command works on the cached fight itself: the write needs only what the
            // fight's rows were ([`Before`]), and a failed write drops the cache entry.
            let before = Before::of(live);
            let engine_commands = live.applied;
            let applied = match command(live) {
                Ok(applied) => applied,
                Err(err) => {
                    // A refusal leaves the fight as it was, unless the command applied some
                    // engine commands before it refused (a spawn of several): forget it then.
                    if live.applied != engine_commands {
                        *guard = None;
                    }
                    return Err(err);
                }
            };
            live.version = before.version + 1;
            match self.write(&before, live, &applied, now).await {
                Ok(settled) => {
                    if live.fight_timer.is_some() && live.fight_timer != before.fight_timer {
                        self.wake.notify_one();
                    }
                    let answer = live.clone();
                    if live.combat.outcome.is_some() {
                        let (id, campaign_id, channel_id) = (live.id, live.campaign_id, live.channel_id.clone());
                        *guard = None;
                        self.cache.forget(id, campaign_id, &channel_id);
                    }
                    return Ok(Written {
                        live: answer,
                        events: applied.events,
                        extra: (applied.extra, settled),
                    });
                }
                Err(ServiceError::StaleCombat { .. }) if attempt < MAX_ATTEMPTS => {
                    *guard = None;
                }
                Err(err) => {
                    *guard = None;
                    return Err(err);
                }
            }
        }
    }

    /// The one transaction of a command.
    ///
    /// On a SQLite file, a command whose write is only its own statements (no Hospital
    /// admission, no settlement) goes to the [group commit](crate::writer); the rest write in a
    /// transaction of their own on its connection ([`Store::write_alone`]). Elsewhere each
    /// command is a sea-orm transaction of its own (PostgreSQL's group commit aside).
    async fn write<T>(
        &self,
        before: &Before,
        after: &mut Live,
        applied: &Applied<T>,
        now: DateTimeUtc,
    ) -> Result<Aftermath, ServiceError> {
        let written = match self.db.writer() {
            Some(writer) if !needs_transaction(after, &applied.events) => Some(
                self.group_write(writer, before, after, applied, now)
                    .await
                    .map(|()| Vec::new()),
            ),
            Some(writer @ GroupCommit::Sqlite(sqlite)) => {
                Some(self.write_alone(writer, sqlite, before, after, applied, now).await)
            }
            _ => None,
        };
        if let Some(written) = written {
            return match written {
                Ok(aftermath) => Ok(aftermath),
                Err(err) => Err(self.explain(before, err).await?),
            };
        }
        let txn = self.db.begin_write().await?;
        match self.write_in(&txn, before, after, applied, now).await {
            Ok(settled) => {
                txn.commit().await?;
                Ok(settled)
            }
            Err(err) => {
                txn.rollback().await?;
                Err(self.explain(before, err).await?)
            }
        }
    }

    /// Why a write failed: [`ServiceError::StaleCombat`] when the combat moved on in the
    /// database meanwhile, else `err` itself.
    async fn explain(&self, before: &Before, err: ServiceError) -> Result<ServiceError, ServiceError> {
        let found = crate::repo::combats::version(&self.db, before.id).await?;
        Ok(if found == before.version {
            err
        } else {
            ServiceError::StaleCombat {
                combat_id: before.id,
                expected: before.version,
                found,
            }
        })
    }

    /// Hands a command's statements to the group commit and waits until they are durable.
    async fn group_write<T>(
        &self,
        writer: &GroupCommit,
        before: &Before,
        after: &mut Live,
        applied: &Applied<T>,
        now: DateTimeUtc,
    ) -> Result<(), ServiceError> {
        let timers = self.timers_ahead(writer, before, after, now).await?;
        let (statements, snapshot) = self.rendered(writer.backend(), before, after, applied, timers, now);
        let (done, answer) = oneshot::channel();
        writer
            .write(GroupWrite {
                combat_id: after.id,
                expected_version: before.version,
                statements,
                done,
            })
            .await?;
        answer.await.map_err(|_| crate::group::stopped())??;
        if snapshot {
            after.readied_rows = after.readied_count();
        }
        Ok(())
    }

    /// A command that admits a character to the Hospital or ends its fight, on a SQLite file
    /// (`writer` is `sqlite`'s group commit):
    /// its admissions, its settlement and its own statements in one transaction of its own on
    /// the group commit's connection, on the command's task (through sqlx it was ≈ 12 round
    /// trips to sqlx's thread, ≈ 1 ms).
    async fn write_alone<T>(
        &self,
        writer: &GroupCommit,
        sqlite: &crate::writer::Writer,
        before: &Before,
        after: &mut Live,
        applied: &Applied<T>,
        now: DateTimeUtc,
    ) -> Result<Aftermath, ServiceError> {
        // Before the transaction: taking ids may take the write gate itself.
        let timers = self.timers_ahead(writer, before, after, now).await?;
        let txn = sqlite.begin().await?;
        let aftermath = aftermath(&txn, after, &applied.events, now).await?;
        // Rendered after the settlement, which rolls the loot from the fight's dice.
        let (statements, snapshot) = self.rendered(DbBackend::Sqlite, before, after, applied, timers, now);
        txn.run(|conn| crate::writer::write_one(conn, after.id, before.version, &statements))?;
        txn.commit()?;
        if snapshot {
            after.readied_rows = after.readied_count();
        }
        Ok(aftermath)
    }

    /// What a command does to its fight's timers, with the ids its new ones take, taken ahead
    /// from the group commit's writer.
    async fn timers_ahead(
        &self,
        writer: &GroupCommit,
        before: &Before,
        after: &mut Live,
        now: DateTimeUtc,
    ) -> Result<(Vec<i64>, Option<timer::ActiveModel>), ServiceError> {
        let mut change = timer_change(before, after, now);
        let mut row = None;
        if change.ids() > 0 {
            let ids = writer.timer_ids(change.ids()).await?;
            row = change.take_ids(after, ids);
        }
        Ok((change.retired, row))
    }

    /// A command's statements rendered whole (state JSON, SQL, values), its timers' among them,
    /// and whether they write its snapshot.
    fn rendered<T>(
        &self,
        backend: DbBackend,
        before: &Before,
        after: &Live,
        applied: &Applied<T>,
        (retired, timer): (Vec<i64>, Option<timer::ActiveModel>),
        now: DateTimeUtc,
    ) -> (crate::group::Statements, bool) {
        let (mut batch, snapshot) = self.batch(backend, before, after, applied, &retired, now);
        if let Some(row) = timer {
            batch.push_timer(row);
        }
        (batch.into_statements(), snapshot)
    }

    /// A command's own statements ([`statements`]: its log entry first, its snapshot when one is
    /// due, its retired timers' deletions), and whether they write its snapshot.
    fn batch<T>(
        &self,
        backend: DbBackend,
        before: &Before,
        after: &Live,
        applied: &Applied<T>,
        retired: &[i64],
        now: DateTimeUtc,
    ) -> (Batch, bool) {
        let packed = combat_event::pack(&applied.logged, &applied.events);
        let snapshot = self.snapshot_due(after, &applied.events);
        let batch = statements(backend, before, after, packed, retired, snapshot, now);
        (batch, snapshot)
    }

    async fn write_in<T>(
        &self,
        txn: &DatabaseTransaction,
        before: &Before,
        after: &mut Live,
        applied: &Applied<T>,
        now: DateTimeUtc,
    ) -> Result<Aftermath, ServiceError> {
        let mut change = timer_change(before, after, now);
        let mut ids = Vec::new();
        for _ in 0..change.ids() {
            ids.push(take_timer_id(txn).await?);
        }
        if let Some(row) = change.take_ids(after, ids) {
            timer::Entity::insert(row).exec_without_returning(txn).await?;
        }
        let old_timers = change.retired;
        let aftermath = aftermath(txn, after, &applied.events, now).await?;
        let (batch, snapshot) = self.batch(backend(&self.db), before, after, applied, &old_timers, now);
        // The log entry first and on its own: it is the version guard, which must touch its row
        // whatever the rest touches (as the group commits check it).
        let (guard, rest) = batch.statements.split_first().expect("a command logs itself");
        let guarded = txn
            .execute_raw(sea_orm::Statement::from_sql_and_values(
                batch.backend,
                guard.0.clone(),
                guard.1.clone(),
            ))
            .await?
            .rows_affected();
        let done = if rest.is_empty() {
            0
        } else {
            txn.execute_unprepared(&batch.inline_from(1)).await?.rows_affected()
        };
        if guarded != 1 || guarded + done != batch.expected {
            return Err(ServiceError::StaleCombat {
                combat_id: after.id,
                expected: before.version,
                found: -1,
            });
        }
        if snapshot {
            after.readied_rows = after.readied_count();
        }
        Ok(aftermath)
    }

    /// The active combat in a channel, if any (cached after the first look-up).
    pub async fn in_channel(&self, campaign_id: i64, channel_id: &str) -> Result<Option<i64>, ServiceError> {
        if let Some(id) = self.cache.channel(campaign_id, channel_id) {
            return Ok(Some(id));
        }
        let found = crate::repo::combats::active_in_channel(&self.db, campaign_id, channel_id).await?;
        if let Some(row) = &found {
            self.cache.set_channel(campaign_id, channel_id, row.id);
        }
        Ok(found.map(|row| row.id))
    }

    /// A combat's current state: from the cache when it is held there and still the stored
    /// version (one read of the row's version: another process may have written it), else
    /// from the database. A fight that is over is refused as
    /// [`engine::RuleViolation::CombatOver`] and forgotten by its channel.
    pub async fn snapshot(&self, combat_id: i64) -> Result<Live, ServiceError> {
        let slot = self.cache.slot(combat_id);
        let mut guard = slot.lock().await;
        if let Some(cached) = guard.as_ref() {
            let stored = crate::repo::combats::version(&self.db, combat_id).await?;
            if stored != cached.version {
                *guard = None;
            }
        }
        if guard.is_none() {
            let live = load(&self.db, combat_id).await?;
            if live.combat.outcome.is_some() {
                self.cache.forget(live.id, live.campaign_id, &live.channel_id);
                return Err(ServiceError::Rules(engine::RuleViolation::CombatOver));
            }
            *guard = Some(live);
        }
        Ok(guard.clone().expect("loaded above"))
    }

    /// Access which combat is active in a channel from the database (not the cache), and
    /// caches that. Returns whether the cache had it otherwise: a command refused because
    /// the cached fight is over (another process ended it, and perhaps opened another) is
    /// worth running again.
    pub async fn refresh_channel(&self, campaign_id: i64, channel_id: &str) -> Result<bool, ServiceError> {
        let cached = self.cache.channel(campaign_id, channel_id);
        let found = crate::repo::combats::active_in_channel(&self.db, campaign_id, channel_id)
            .await?
            .map(|row| row.id);
        match found {
            Some(id) => self.cache.set_channel(campaign_id, channel_id, id),
            None => self.cache.unset_channel(campaign_id, channel_id),
        }
        Ok(found != cached)
    }

    /// Gives the fights this process holds for `campaign_id` its new `/campaign map` setting
    /// (a guild's commands all reach the process that owns its shard, so no other process
    /// holds them).
    pub async fn set_map_every_turn(&self, campaign_id: i64, every_turn: bool) {
        for slot in self.cache.campaign_slots(campaign_id) {
            if let Some(live) = slot.lock().await.as_mut() {
                live.map_every_turn = every_turn;
            }
        }
    }

    /// Notes a newly created combat (its transaction committed) as its channel's active one,
    /// and caches it as created: its first command need not load it back (the spawn-then-start
    /// of a fight loaded it at once, ≈ 6 reads and the snapshot's JSON).
    pub async fn cache_new(&self, live: &Live) {
        self.cache.set_channel(live.campaign_id, &live.channel_id, live.id);
        *self.cache.slot(live.id).lock().await = Some(live.clone());
    }
}

#[cfg(test)]
mod tests {
    use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};

    use crate::ServiceError;
    use crate::entity::combat_start;
    use crate::store::NewFight;

    fn fight(campaign_id: i64) -> NewFight<'static> {
        NewFight {
            campaign_id,
            channel_id: "channel",
            expedition_id: None,
            members: Vec::new(),
            terrain: engine::Terrain::default(),
            duel: false,
        }
    }

    /// A channel keeps one active fight however a new fight is written: a second one, made
    /// ready before the first was stored (so the look-up before found none), is refused by its
    /// own insert as `CombatInChannel` — on the group commit's connection and in a sea-orm
    /// transaction alike — and leaves nothing behind.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_second_active_fight_in_a_channel_is_refused_by_its_insert_either_way() {
        let scratch = crate::scratch::Scratch::new("create").await;
        let (db, svc, camp, now) = (&scratch.db, &scratch.svc, scratch.camp, scratch.now);
        let (mut first, seed) = svc.new_fight(db, fight(camp)).await.expect("the first");
        let (mut second, second_seed) = svc
            .new_fight(db, fight(camp))
            .await
            .expect("the second, before the first is stored");
        let (mut third, third_seed) = svc
            .new_fight(db, fight(camp))
            .await
            .expect("the third, before the first is stored");
        let writer = db.sqlite_writer().expect("a SQLite file's group commit");

        super::create_alone(writer, &mut first, seed, now)
            .await
            .expect("the first is stored");
        assert!(first.id > 0);
        let refused = super::create_alone(writer, &mut second, second_seed, now).await;
        assert!(matches!(refused, Err(ServiceError::CombatInChannel)), "{refused:?}");
        let txn = db.begin_write().await.expect("a transaction");
        let refused = super::create(&txn, &mut third, third_seed, now).await;
        assert!(matches!(refused, Err(ServiceError::CombatInChannel)), "{refused:?}");
        txn.rollback().await.expect("rolled back");

        let fights = crate::repo::combats::count_in_campaign(db, camp)
            .await
            .expect("a count");
        let starts = combat_start::Entity::find()
            .filter(combat_start::Column::CombatId.eq(first.id))
            .count(db.conn())
            .await
            .expect("a count");
        let all_starts = combat_start::Entity::find().count(db.conn()).await.expect("a count");
        assert_eq!((fights, starts, all_starts), (1, 1, 1));
        let stored = super::load(db.conn(), first.id).await.expect("the first loads");
        assert_eq!((stored.version, stored.channel_id.as_str()), (0, "channel"));
        db.clone().close().await.expect("close");
    }
}
