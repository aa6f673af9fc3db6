//! SQLite's one writer — the group commit: one connection of its own that writes the combat
//! commands of many fights in one transaction, with prepared statements.
//!
//! Each command's statements are rendered (state JSON, SQL, values) by the command's own task
//! and queued here. A command that queues its write while no group is being written *leads*:
//! it takes every write queued, takes the process's write gate (see [`crate::Db::begin_write`]),
//! and in one `BEGIN IMMEDIATE` … `COMMIT` runs each write under a savepoint of its own (none
//! when it is alone): a write whose combat moved on in another process is rolled back alone and
//! answered [`ServiceError::StaleCombat`]; the others commit. Writes queued meanwhile are the
//! next group, which a leader task spawned as the lead passes on writes, and so on until none
//! is left. Each command still waits for its group's `COMMIT` before it answers.
//!
//! Why on the command's own task and not a thread of its own: as a thread of its own, the
//! writer cost more than it saved — with one fight, the two thread wake-ups a command (to the writer and
//! back) were a third of the process's time (`finish_task_switch` and the scheduler's spin
//! locks in a profile). A commit blocks its worker for its duration (tens of microseconds a
//! command, no `fsync` under `synchronous = NORMAL`); another process holding the write lock is
//! waited for asynchronously ([`BUSY_RETRY`]), never in SQLite's busy handler. A group is taken
//! from the queue only once its transaction has begun, so a lead whose command is dropped while
//! it waits leaves every write queued, and passes the lead on ([`Lead`]'s `Drop`).
//!
//! Why not sqlx: sqlx's SQLite driver runs every statement on its worker thread and answers
//! through a channel, so each statement is a round trip between threads (≈ 33 context switches
//! per command were measured), and an unprepared batch is parsed again every time. Here SQLite
//! parses each distinct statement once (`prepare_cached`).

use std::collections::VecDeque;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rusqlite::types::{ToSqlOutput, Value as SqlValue, ValueRef};
use rusqlite::{Connection, ErrorCode, OpenFlags, ToSql, params_from_iter};
use sea_orm::sea_query::{Value, Values};

use crate::ServiceError;
use crate::group::{
    Answer, GroupCommitCounts, GroupTxn, GroupWrite, MAX_GROUP, Statements, Then, stopped, write_group,
};

/// Distinct statements kept prepared (the combat row, its log entry, the denormalised rows with
/// one to a few members each, timers).
const PREPARED_STATEMENTS: usize = 128;

/// The handle to the group commit; its connection closes once the last handle and the last
/// leader are gone.
pub(crate) struct Writer {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for Writer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Writer").finish_non_exhaustive()
    }
}

/// What the writers of one process share.
struct Shared {
    /// Writes waiting for a leader to take them.
    queue: Mutex<Vec<GroupWrite>>,
    /// Whether a leader is running: set by whoever starts one, cleared by the leader when it
    /// finds the queue empty.
    leading: AtomicBool,
    /// The group commit's connection, used by the leader alone.
    conn: Mutex<Connection>,
    /// The process's write gate, held around each transaction.
    gate: Arc<tokio::sync::Mutex<()>>,
    counts: Arc<GroupCommitCounts>,
    /// Timer ids this process has taken ahead and not yet handed out ([`Writer::timer_ids`]).
    timer_ids: tokio::sync::Mutex<VecDeque<i64>>,
}

impl Writer {
    /// Opens a connection to the SQLite file at `path` (already created and migrated) for the
    /// group commit. `gate` is the process's write gate, held around each transaction.
    pub fn start(
        path: &Path,
        wal_autocheckpoint: u32,
        gate: Arc<tokio::sync::Mutex<()>>,
    ) -> Result<Self, ServiceError> {
        let conn = open(path, wal_autocheckpoint).map_err(|err| database_error(&err))?;
        Ok(Self {
            shared: Arc::new(Shared {
                queue: Mutex::default(),
                leading: AtomicBool::new(false),
                conn: Mutex::new(conn),
                gate,
                counts: Arc::default(),
                timer_ids: tokio::sync::Mutex::default(),
            }),
        })
    }

    /// Queues `write`; its `done` answers once it is durable (or failed). When no group is
    /// being written, the caller leads: it gets the [`Lead`] and writes the next group itself
    /// ([`Lead::write`]), so one fight's command is written on its own task, with no hop.
    pub fn send(&self, write: GroupWrite) -> Result<Option<Lead>, ServiceError> {
        tokio::runtime::Handle::try_current().map_err(|_| stopped())?;
        self.shared.queue.lock().expect("write queue poisoned").push(write);
        Ok((!self.shared.leading.swap(true, Ordering::SeqCst)).then(|| Lead {
            shared: Some(Arc::clone(&self.shared)),
        }))
    }

    pub fn counts(&self) -> &Arc<GroupCommitCounts> {
        &self.shared.counts
    }

    /// Runs `work` in a write transaction of its own on this connection, between two groups,
    /// on the caller's task: a write outside the group commit that would otherwise take a
    /// round trip to sqlx's thread per statement (a new fight's rows, [`crate::store`]; a
    /// character's update, `repo::characters::update`).
    /// Rolled back if `work` fails.
    pub async fn alone<T>(&self, work: impl FnOnce(&Connection) -> Result<T, ServiceError>) -> Result<T, ServiceError> {
        transaction(&self.shared, work).await
    }

    /// A write transaction of its own on this connection, held by the caller ([`Txn`]).
    pub async fn begin(&self) -> Result<Txn, ServiceError> {
        Txn::begin(&self.shared).await
    }

    /// Ids for `n` new timers, taken ahead of their inserts so that a command's statements are
    /// rendered whole by its own task, timers included.
    ///
    /// `timers.id` is `AUTOINCREMENT`: an id is never used twice (a timer id is a reaction
    /// window's token on its buttons), which SQLite keeps by the table's row of
    /// `sqlite_sequence`, rewritten by every insert that takes a new id — a page of the WAL for
    /// each. Here a block of [`TIMER_IDS_AHEAD`] ids is taken at once, by moving that row past
    /// it in a transaction of its own; inserts with ids inside the block leave the row alone,
    /// and every other insert (another process's, a write outside the group commit) numbers
    /// past it. A block a process dies holding is never used.
    pub async fn timer_ids(&self, n: usize) -> Result<Vec<i64>, ServiceError> {
        let mut ahead = self.shared.timer_ids.lock().await;
        if ahead.len() < n {
            let count = TIMER_IDS_AHEAD.max(n as i64);
            let last = transaction(&self.shared, |conn| {
                take_timer_ids(conn, count).map_err(|err| database_error(&err))
            })
            .await?;
            ahead.extend(last - count + 1..=last);
        }
        Ok(ahead.drain(..n).collect())
    }
}

/// Timer ids a process takes at once ([`Writer::timer_ids`]).
const TIMER_IDS_AHEAD: i64 = 128;

/// Makes sure `timers` has its row of `sqlite_sequence` (SQLite adds it at the first insert).
pub(crate) const SQLITE_TIMERS_SEQUENCE_ROW: &str = "INSERT INTO sqlite_sequence (name, seq) SELECT 'timers', 0 \
     WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'timers')";

/// Moves `timers`' row of `sqlite_sequence` past `?1` ids no timer has had; returns the last.
pub(crate) const SQLITE_TAKE_TIMER_IDS: &str = "UPDATE sqlite_sequence \
     SET seq = max(seq, (SELECT coalesce(max(id), 0) FROM timers)) + ?1 WHERE name = 'timers' RETURNING seq";

/// Moves `timers`' row of `sqlite_sequence` past `count` ids no timer has had; the last of them.
fn take_timer_ids(conn: &Connection, count: i64) -> rusqlite::Result<i64> {
    conn.prepare_cached(SQLITE_TIMERS_SEQUENCE_ROW)?.execute([])?;
    conn.prepare_cached(SQLITE_TAKE_TIMER_IDS)?
        .query_row([count], |row| row.get(0))
}

/// Runs `work` in a write transaction of its own on the group commit's connection, between two
/// groups ([`begin`]); rolled back if `work` fails.
async fn transaction<T>(
    shared: &Arc<Shared>,
    work: impl FnOnce(&Connection) -> Result<T, ServiceError>,
) -> Result<T, ServiceError> {
    let txn = Txn::begin(shared).await?;
    let value = txn.run(work)?;
    txn.commit()?;
    Ok(value)
}

/// A write transaction of its own on the group commit's connection, between two groups, that
/// the caller's task runs statements in across its awaits (a fight's last command: its log
/// entry, its Hospital admissions and its settlement, `store`). It holds the process's write
/// gate, so no group and no other transaction of the connection runs until it ends; each
/// statement takes the connection's mutex for its own duration. Rolled back unless committed,
/// dropped future included.
pub struct Txn {
    shared: Arc<Shared>,
    _gate: tokio::sync::OwnedMutexGuard<()>,
    /// What its [`crate::access::Access`] gives as a sea-orm connection: none (sea-orm panics
    /// at a statement sent there, rather than run it outside the transaction), since every
    /// repository function given a `Txn` runs its statements on its connection.
    disconnected: sea_orm::DatabaseConnection,
    open: bool,
}

impl Txn {
    async fn begin(shared: &Arc<Shared>) -> Result<Self, ServiceError> {
        let (gate, begun) = begin(shared).await;
        begun.map_err(|err| database_error(&err))?;
        Ok(Self {
            shared: Arc::clone(shared),
            _gate: gate,
            disconnected: sea_orm::DatabaseConnection::default(),
            open: true,
        })
    }

    /// The connection, for one statement or a few.
    pub fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.shared.conn.lock().expect("writer connection poisoned")
    }

    /// Runs `work` on the connection, in this transaction.
    pub fn run<T>(&self, work: impl FnOnce(&Connection) -> Result<T, ServiceError>) -> Result<T, ServiceError> {
        work(&self.lock())
    }

    /// Commits it (a failed `COMMIT` leaves it to be rolled back).
    pub fn commit(mut self) -> Result<(), ServiceError> {
        control(&self.lock(), "COMMIT").map_err(|err| database_error(&err))?;
        self.open = false;
        Ok(())
    }

    /// Its sea-orm connection: a disconnected one (see the field).
    pub fn disconnected(&self) -> &sea_orm::DatabaseConnection {
        &self.disconnected
    }
}

impl Drop for Txn {
    fn drop(&mut self) {
        if self.open {
            let conn = self.lock();
            if !conn.is_autocommit() {
                let _ = conn.execute_batch("ROLLBACK");
            }
        }
    }
}

/// How long a leader waits before trying again when another connection (another process)
/// holds the write lock.
const BUSY_RETRY: Duration = Duration::from_micros(100);

/// How long a leader tries to take the write lock before failing its group: the pool's busy
/// timeout.
const BUSY_FOR: Duration = Duration::from_secs(5);

fn open(path: &Path, wal_autocheckpoint: u32) -> rusqlite::Result<Connection> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    // No busy handler: another connection's write (an autocommit sqlx write, another process)
    // makes `BEGIN IMMEDIATE` answer SQLITE_BUSY at once, and the leader waits for it
    // asynchronously (`lead`) instead of blocking its worker thread in SQLite's handler.
    conn.busy_timeout(Duration::ZERO)?;
    // As on the pool's connections (WAL itself is a property of the file, set by them).
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", true)?;
    conn.pragma_update(None, "wal_autocheckpoint", wal_autocheckpoint)?;
    crate::reader::plan_once(&conn)?;
    conn.set_prepared_statement_cache_capacity(PREPARED_STATEMENTS);
    Ok(conn)
}

/// The lead of the group commit, held by the command that found no group being written.
///
/// [`Lead::write`] writes one group (the command's own write in it) on the command's task; once
/// it is written — or should the command's future be dropped before — the lead passes on: to a
/// leader task when writes are still queued, else it is released.
pub(crate) struct Lead {
    shared: Option<Arc<Shared>>,
}

impl Lead {
    /// Writes the next group and answers its writes.
    pub async fn write(self) {
        let shared = Arc::clone(self.shared.as_ref().expect("a lead holds the writer"));
        if let Some(answers) = next_group(&shared).await {
            shared.counts.answer(answers);
        }
    }
}

impl Drop for Lead {
    fn drop(&mut self) {
        if let Some(shared) = self.shared.take() {
            hand_off(shared);
        }
    }
}

/// Passes the lead on from a [`Lead`]: to a leader task while writes are queued, else releases it.
fn hand_off(shared: Arc<Shared>) {
    let queued = || !shared.queue.lock().expect("write queue poisoned").is_empty();
    if !queued() {
        shared.leading.store(false, Ordering::SeqCst);
        // A write queued after the queue was found empty and before the lead was released left
        // its group to this lead: take the lead back, unless a newcomer has.
        if !queued() || shared.leading.swap(true, Ordering::SeqCst) {
            return;
        }
    }
    match tokio::runtime::Handle::try_current() {
        Ok(runtime) => drop(runtime.spawn(lead(shared))),
        // The runtime is going away: so are the commands that would wait for these writes.
        Err(_) => shared.leading.store(false, Ordering::SeqCst),
    }
}

/// A leader task: writes the queued groups, answering each, until none is left.
async fn lead(shared: Arc<Shared>) {
    loop {
        if let Some(answers) = next_group(&shared).await {
            shared.counts.answer(answers);
            // The commands just answered run before the next group is written.
            tokio::task::yield_now().await;
        } else {
            shared.leading.store(false, Ordering::SeqCst);
            // As in `hand_off`: a write queued meanwhile is this leader's to write.
            let queued = !shared.queue.lock().expect("write queue poisoned").is_empty();
            if !queued || shared.leading.swap(true, Ordering::SeqCst) {
                return;
            }
        }
    }
}

/// Writes the queued writes (up to [`MAX_GROUP`]) in one transaction under the process's write
/// gate, waiting asynchronously while another process holds the database's write lock; `None`
/// when none is queued. The group is taken from the queue only once its transaction has begun,
/// so a lead dropped while it waits leaves every write queued.
async fn next_group(shared: &Shared) -> Option<Vec<Answer>> {
    // Only the lead takes writes from the queue: one found here stays until it is written.
    if shared.queue.lock().expect("write queue poisoned").is_empty() {
        return None;
    }
    let (_gate, begun) = begin(shared).await;
    let mut conn = shared.conn.lock().expect("writer connection poisoned");
    let group: Vec<GroupWrite> = {
        let mut queue = shared.queue.lock().expect("write queue poisoned");
        let take = queue.len().min(MAX_GROUP);
        queue.drain(..take).collect()
    };
    Some(match begun {
        Ok(()) => write_begun(&mut conn, group),
        Err(err) => failed(err, group),
    })
}

/// Takes the process's write gate and begins a write transaction (`BEGIN IMMEDIATE`) on the
/// group commit's connection, trying again every [`BUSY_RETRY`], holding nothing meanwhile,
/// while another process holds the database's write lock (for up to [`BUSY_FOR`]). The gate, to
/// hold until the transaction ends, and whether the transaction began.
async fn begin(shared: &Shared) -> (tokio::sync::OwnedMutexGuard<()>, rusqlite::Result<()>) {
    let started = Instant::now();
    loop {
        let gate = Arc::clone(&shared.gate).lock_owned().await;
        let begun = control(
            &shared.conn.lock().expect("writer connection poisoned"),
            "BEGIN IMMEDIATE",
        );
        if !begun
            .as_ref()
            .is_err_and(|err| is_busy(err) && started.elapsed() < BUSY_FOR)
        {
            return (gate, begun);
        }
        drop(gate);
        tokio::time::sleep(BUSY_RETRY).await;
    }
}

/// Whether SQLite refused for another connection's lock.
fn is_busy(err: &rusqlite::Error) -> bool {
    matches!(
        err.sqlite_error_code(),
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
    )
}

/// Writes `group` in one transaction of its own, each write under its own savepoint (outside
/// the write gate: the tests' way in).
#[cfg(test)]
fn commit_group(conn: &mut Connection, group: Vec<GroupWrite>) -> Vec<Answer> {
    match control(conn, "BEGIN IMMEDIATE") {
        Ok(()) => write_begun(conn, group),
        Err(err) => failed(err, group),
    }
}

/// [`commit_group`] once its `BEGIN IMMEDIATE` has succeeded.
fn write_begun(conn: &mut Connection, group: Vec<GroupWrite>) -> Vec<Answer> {
    // A write alone in its group needs no savepoint: the transaction is its own (one fight's
    // commands, one after another, are groups of one).
    let alone = group.len() == 1;
    now(write_group(Ok(SqliteGroup { conn, alone }), group))
}

/// Nothing of a group was written, its transaction not begun: every write gets `err`.
fn failed(err: rusqlite::Error, group: Vec<GroupWrite>) -> Vec<Answer> {
    now(write_group::<SqliteGroup>(Err(err), group))
}

/// The answer of a future that never waits (SQLite's [`GroupTxn`] runs each statement on the
/// spot): [`write_group`] is written once for both databases, async for PostgreSQL's sake.
fn now<T>(future: impl std::future::Future<Output = T>) -> T {
    let mut future = std::pin::pin!(future);
    match future
        .as_mut()
        .poll(&mut std::task::Context::from_waker(std::task::Waker::noop()))
    {
        std::task::Poll::Ready(value) => value,
        std::task::Poll::Pending => unreachable!("SQLite's group transaction never waits"),
    }
}

/// A group's transaction on the group commit's connection: a savepoint per write (none for a
/// write alone), each statement prepared once (rusqlite's `Transaction` and `Savepoint` parse
/// theirs anew each time: `sqlite3Prepare` was ≈ 4 % of the one-fight bench's profile).
struct SqliteGroup<'a> {
    conn: &'a mut Connection,
    alone: bool,
}

impl GroupTxn for SqliteGroup<'_> {
    type Error = rusqlite::Error;

    async fn before(&mut self, _index: usize) -> rusqlite::Result<()> {
        if self.alone {
            return Ok(());
        }
        control(self.conn, "SAVEPOINT command")
    }

    async fn write(
        &mut self,
        (combat_id, expected_version): (i64, i64),
        statements: Statements,
    ) -> Result<(), ServiceError> {
        write_one(self.conn, combat_id, expected_version, &statements)
    }

    async fn after(&mut self, written: bool) -> rusqlite::Result<Then> {
        // A failed write rolls back to its savepoint (alone: the transaction): it leaves nothing.
        match (self.alone, written) {
            (true, true) => Ok(Then::Next),
            (true, false) => control(self.conn, "ROLLBACK").map(|()| Then::Ended),
            (false, true) => control(self.conn, "RELEASE command").map(|()| Then::Next),
            (false, false) => control(self.conn, "ROLLBACK TO command")
                .and_then(|()| control(self.conn, "RELEASE command"))
                .map(|()| Then::Next),
        }
    }

    async fn commit(&mut self) -> rusqlite::Result<()> {
        control(self.conn, "COMMIT")
    }

    fn abandon(self) {
        if !self.conn.is_autocommit() {
            let _ = self.conn.execute_batch("ROLLBACK");
        }
    }

    fn failed(err: &rusqlite::Error, _fight: (i64, i64)) -> ServiceError {
        database_error(err)
    }
}

/// Runs a transaction-control statement (`BEGIN`, `SAVEPOINT`, `COMMIT`, …), prepared once.
fn control(conn: &Connection, sql: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(sql)?.execute([]).map(drop)
}

/// One command's statements: all its rows or an error.
pub(crate) fn write_one(
    conn: &Connection,
    combat_id: i64,
    expected_version: i64,
    statements: &Statements,
) -> Result<(), ServiceError> {
    let (mut touched, mut guarded) = (0, true);
    for (i, (sql, values)) in statements.statements.iter().enumerate() {
        let rows = execute(conn, sql, values).map_err(|err| database_error(&err))? as u64;
        guarded &= i > 0 || rows == 1;
        touched += rows;
    }
    if !guarded || touched != statements.expected {
        return Err(ServiceError::StaleCombat {
            combat_id,
            expected: expected_version,
            found: -1,
        });
    }
    Ok(())
}

/// Runs one prepared statement; the rows it changed.
pub(crate) fn execute(conn: &Connection, sql: &str, values: &Values) -> rusqlite::Result<usize> {
    conn.prepare_cached(sql)?
        .execute(params_from_iter(values.0.iter().map(Bound)))
}

/// A sea-query value bound to a SQLite parameter, encoded as sqlx encodes it (so rows written
/// here read back through sea-orm unchanged): booleans and integers as INTEGER, text borrowed,
/// JSON as its text, UTC times as RFC 3339 with `+00:00`.
pub(crate) struct Bound<'a>(pub &'a Value);

impl ToSql for Bound<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        let owned = |value: Option<SqlValue>| ToSqlOutput::Owned(value.unwrap_or(SqlValue::Null));
        Ok(match self.0 {
            Value::Bool(v) => owned(v.map(|v| SqlValue::Integer(i64::from(v)))),
            Value::TinyInt(v) => owned(v.map(|v| SqlValue::Integer(v.into()))),
            Value::SmallInt(v) => owned(v.map(|v| SqlValue::Integer(v.into()))),
            Value::Int(v) => owned(v.map(|v| SqlValue::Integer(v.into()))),
            Value::BigInt(v) => owned(v.map(SqlValue::Integer)),
            Value::TinyUnsigned(v) => owned(v.map(|v| SqlValue::Integer(v.into()))),
            Value::SmallUnsigned(v) => owned(v.map(|v| SqlValue::Integer(v.into()))),
            Value::Unsigned(v) => owned(v.map(|v| SqlValue::Integer(v.into()))),
            // A `LIMIT` as sea-query binds it.
            Value::BigUnsigned(Some(v)) => owned(Some(SqlValue::Integer(i64::try_from(*v).map_err(|_| {
                rusqlite::Error::ToSqlConversionFailure(format!("{v} is past SQLite's integers").into())
            })?))),
            Value::BigUnsigned(None) => owned(None),
            Value::Float(v) => owned(v.map(|v| SqlValue::Real(v.into()))),
            Value::Double(v) => owned(v.map(SqlValue::Real)),
            Value::String(Some(text)) => ToSqlOutput::Borrowed(ValueRef::Text(text.as_bytes())),
            Value::Bytes(Some(bytes)) => ToSqlOutput::Borrowed(ValueRef::Blob(bytes)),
            Value::String(None) | Value::Bytes(None) => owned(None),
            Value::Json(v) => owned(v.as_ref().map(|json| SqlValue::Text(json.to_string()))),
            Value::ChronoDateTimeUtc(v) => {
                owned(v.map(|at| SqlValue::Text(at.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, false))))
            }
            other => {
                return Err(rusqlite::Error::ToSqlConversionFailure(
                    format!("the SQLite writer cannot bind {other:?}").into(),
                ));
            }
        })
    }
}

/// A SQLite error of this process's own connections as the service reports a database error.
/// A unique or primary key violation is told as one ([`UNIQUE_VIOLATION`], which
/// `db::is_unique_violation` recognises as it recognises sqlx's).
pub(crate) fn database_error(err: &rusqlite::Error) -> ServiceError {
    let said = if is_unique_violation(err) {
        UNIQUE_VIOLATION
    } else {
        "SQLite writer"
    };
    ServiceError::from(sea_orm::DbErr::Custom(format!("{said}: {err}")))
}

/// Whether SQLite refused for a unique or primary key.
pub(crate) fn is_unique_violation(err: &rusqlite::Error) -> bool {
    matches!(
        err,
        rusqlite::Error::SqliteFailure(failure, _)
            if matches!(
                failure.extended_code,
                rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE | rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
            )
    )
}

/// How [`database_error`] begins a unique or primary key violation.
pub(crate) const UNIQUE_VIOLATION: &str = "SQLite writer, a unique key violated";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::group::Prepared;
    use tokio::sync::oneshot;

    fn bound(value: &Value) -> Option<SqlValue> {
        match Bound(value).to_sql().expect("binds") {
            ToSqlOutput::Owned(v) => Some(v),
            ToSqlOutput::Borrowed(ValueRef::Text(text)) => {
                Some(SqlValue::Text(String::from_utf8(text.to_vec()).unwrap()))
            }
            _ => None,
        }
    }

    /// A write for `commit_group`: `statements` must touch `expected` rows.
    fn write(statements: &[&str], expected: u64) -> GroupWrite {
        let statements: Vec<Prepared> = statements
            .iter()
            .map(|sql| ((*sql).to_owned(), Values(Vec::new())))
            .collect();
        GroupWrite {
            combat_id: 1,
            expected_version: 0,
            statements: Statements { statements, expected },
            done: oneshot::channel().0,
        }
    }

    /// A scratch SQLite file made with `schema`, removed with its WAL when dropped.
    struct Scratch(std::path::PathBuf);

    impl Scratch {
        /// The file, and a connection of the test's own to it.
        fn new(name: &str, schema: &str) -> (Self, Connection) {
            let path = std::env::temp_dir().join(format!("gogobee-writer-{name}-{}.db", std::process::id()));
            let scratch = Self(path);
            scratch.remove();
            let setup = Connection::open(&scratch.0).unwrap();
            setup.execute_batch(schema).unwrap();
            (scratch, setup)
        }

        /// A connection as the writer opens it.
        fn writer(&self) -> Connection {
            open(&self.0, 1000).unwrap()
        }

        fn remove(&self) {
            crate::remove_sqlite_files(&self.0);
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            self.remove();
        }
    }

    /// The first column of every row `sql` selects.
    fn column<T: rusqlite::types::FromSql>(conn: &Connection, sql: &str) -> Vec<T> {
        conn.prepare(sql)
            .unwrap()
            .query_map([], |row| row.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    fn answers(conn: &mut Connection, group: Vec<GroupWrite>) -> Vec<Result<(), ServiceError>> {
        commit_group(conn, group)
            .into_iter()
            .map(|(_, answer)| answer)
            .collect()
    }

    #[test]
    fn a_stale_write_is_rolled_back_alone_and_the_rest_of_its_group_commits() {
        let (scratch, setup) = Scratch::new(
            "stale",
            "PRAGMA journal_mode = WAL;
             CREATE TABLE log (id INTEGER PRIMARY KEY, note TEXT NOT NULL);
             CREATE TABLE timers (id INTEGER PRIMARY KEY, kind TEXT NOT NULL);
             INSERT INTO timers (kind) VALUES ('older');",
        );
        let group = vec![
            write(&["INSERT INTO log (note) VALUES ('first')"], 1),
            // Its guard matches no row (the combat moved on): nothing of it may stay.
            write(
                &[
                    "INSERT INTO log (note) VALUES ('stale')",
                    "INSERT INTO timers (id, kind) VALUES (7, 'stale timer')",
                    "UPDATE log SET note = 'moved' WHERE id = 999",
                ],
                3,
            ),
            write(
                &[
                    "INSERT INTO log (note) VALUES ('third')",
                    "INSERT INTO timers (id, kind) VALUES (8, 'turn')",
                ],
                2,
            ),
        ];
        let answers = answers(&mut scratch.writer(), group);
        assert!(answers[0].is_ok());
        assert!(matches!(
            answers[1],
            Err(ServiceError::StaleCombat { combat_id: 1, .. })
        ));
        assert!(answers[2].is_ok(), "{:?}", answers[2]);
        let notes: Vec<String> = column(&setup, "SELECT note FROM log ORDER BY id");
        assert_eq!(notes, ["first", "third"]);
        let timers: Vec<String> = column(&setup, "SELECT kind FROM timers ORDER BY id");
        assert_eq!(timers, ["older", "turn"]);
    }

    #[test]
    fn a_write_whose_log_entry_touched_no_row_is_stale_whatever_the_rest_touched() {
        let (scratch, setup) = Scratch::new(
            "guard",
            "CREATE TABLE log (id INTEGER PRIMARY KEY, note TEXT NOT NULL UNIQUE);
             INSERT INTO log (note) VALUES ('taken');",
        );
        // The first statement (the log entry) touches nothing; the second makes up the count.
        let group = vec![write(
            &[
                "INSERT INTO log (note) VALUES ('taken') ON CONFLICT DO NOTHING",
                "INSERT INTO log (note) VALUES ('a'), ('b')",
            ],
            2,
        )];
        let answers = answers(&mut scratch.writer(), group);
        assert!(matches!(answers[0], Err(ServiceError::StaleCombat { .. })));
        let notes: Vec<String> = column(&setup, "SELECT note FROM log ORDER BY id");
        assert_eq!(notes, ["taken"]);
    }

    #[test]
    fn a_stale_write_alone_in_its_group_leaves_nothing_and_the_next_group_commits() {
        let (scratch, setup) = Scratch::new(
            "alone",
            "PRAGMA journal_mode = WAL;
             CREATE TABLE log (id INTEGER PRIMARY KEY, note TEXT NOT NULL);
             CREATE TABLE timers (id INTEGER PRIMARY KEY, kind TEXT NOT NULL);",
        );
        let mut conn = scratch.writer();
        let stale = write(
            &[
                "INSERT INTO log (note) VALUES ('stale')",
                "INSERT INTO timers (kind) VALUES ('stale timer')",
                "UPDATE log SET note = 'moved' WHERE id = 999",
            ],
            3,
        );
        let first = answers(&mut conn, vec![stale]);
        assert!(
            matches!(first[0], Err(ServiceError::StaleCombat { .. })),
            "{:?}",
            first[0]
        );
        assert!(conn.is_autocommit(), "the transaction is over");
        let next = answers(&mut conn, vec![write(&["INSERT INTO log (note) VALUES ('next')"], 1)]);
        assert!(next[0].is_ok());
        let notes: Vec<String> = column(&setup, "SELECT note FROM log ORDER BY id");
        assert_eq!(notes, ["next"]);
        let timers: Vec<String> = column(&setup, "SELECT kind FROM timers");
        assert!(timers.is_empty(), "{timers:?}");
    }

    #[tokio::test]
    async fn timer_ids_taken_ahead_are_never_anyone_elses_and_leave_the_sequence_row_alone() {
        let (scratch, setup) = Scratch::new(
            "timer-ids",
            "PRAGMA journal_mode = WAL;
             CREATE TABLE timers (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL);
             INSERT INTO timers (kind) VALUES ('older'), ('old');
             DELETE FROM timers WHERE kind = 'old';",
        );
        let seq = |conn: &Connection| -> i64 {
            conn.query_row("SELECT seq FROM sqlite_sequence WHERE name = 'timers'", [], |row| {
                row.get(0)
            })
            .unwrap()
        };
        // Two processes: each takes a block past every id ever used (2, though deleted).
        let (one, two) = (
            Writer::start(&scratch.0, 1000, Arc::default()).unwrap(),
            Writer::start(&scratch.0, 1000, Arc::default()).unwrap(),
        );
        let first = one.timer_ids(2).await.unwrap();
        let second = two.timer_ids(1).await.unwrap();
        assert_eq!(first, [3, 4]);
        assert_eq!(second, [3 + TIMER_IDS_AHEAD]);
        // The rest of the first block is handed out before another is taken.
        assert_eq!(one.timer_ids(1).await.unwrap(), [5]);
        let after_blocks = seq(&setup);
        assert_eq!(after_blocks, 2 + 2 * TIMER_IDS_AHEAD);
        // An insert with an id inside a block leaves the sequence's row as it was (no page of
        // it written); an insert numbered by SQLite numbers past both blocks.
        setup
            .execute("INSERT INTO timers (id, kind) VALUES (4, 'in a block')", [])
            .unwrap();
        assert_eq!(seq(&setup), after_blocks);
        setup
            .execute("INSERT INTO timers (kind) VALUES ('numbered')", [])
            .unwrap();
        assert_eq!(setup.last_insert_rowid(), after_blocks + 1);
    }

    /// A write inserting `note`, and its answer.
    fn noting(note: &str) -> (GroupWrite, oneshot::Receiver<Result<(), ServiceError>>) {
        let (done, answer) = oneshot::channel();
        let write = GroupWrite {
            combat_id: 1,
            expected_version: 0,
            statements: Statements {
                statements: vec![(
                    "INSERT INTO log (note) VALUES (?)".into(),
                    Values(vec![note.to_owned().into()]),
                )],
                expected: 1,
            },
            done,
        };
        (write, answer)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn every_write_is_answered_whoever_leads_and_a_dropped_lead_passes_on() {
        let (scratch, setup) = Scratch::new(
            "lead",
            "PRAGMA journal_mode = WAL;
             CREATE TABLE log (id INTEGER PRIMARY KEY, note TEXT NOT NULL);",
        );
        let writer = Arc::new(Writer::start(&scratch.0, 1000, Arc::default()).unwrap());
        // No group is being written: the caller leads. Dropped before it writes, its lead passes
        // on to a leader task, which writes the write.
        let (write, answer) = noting("dropped lead");
        let lead = writer.send(write).unwrap().expect("the first write's caller leads");
        drop(lead);
        assert!(answer.await.unwrap().is_ok());
        // Many commands at once: every one answered, each written once.
        let mut tasks = Vec::new();
        for t in 0..16 {
            let writer = Arc::clone(&writer);
            tasks.push(tokio::spawn(async move {
                for i in 0..25 {
                    let (write, answer) = noting(&format!("{t}-{i}"));
                    if let Some(lead) = writer.send(write).unwrap() {
                        lead.write().await;
                    }
                    answer.await.unwrap().unwrap();
                }
            }));
        }
        for task in tasks {
            task.await.unwrap();
        }
        let notes: Vec<String> = column(&setup, "SELECT note FROM log");
        assert_eq!(notes.len(), 1 + 16 * 25);
        assert_eq!(writer.counts().commands(), 1 + 16 * 25);
        assert!(
            writer.counts().transactions() <= writer.counts().commands(),
            "groups of one or more"
        );
    }

    #[test]
    fn values_bind_as_sqlx_encodes_them() {
        use chrono::TimeZone;
        let at = chrono::Utc.with_ymd_and_hms(2026, 11, 29, 12, 0, 0).single().unwrap();
        assert_eq!(bound(&true.into()), Some(SqlValue::Integer(1)));
        assert_eq!(bound(&7_i32.into()), Some(SqlValue::Integer(7)));
        assert_eq!(bound(&Option::<i64>::None.into()), Some(SqlValue::Null));
        assert_eq!(bound(&"hi".into()), Some(SqlValue::Text("hi".into())));
        assert_eq!(
            bound(&serde_json::json!({"a": 1}).into()),
            Some(SqlValue::Text(r#"{"a":1}"#.into()))
        );
        assert_eq!(
            bound(&at.into()),
            Some(SqlValue::Text("2026-11-29T12:00:00+00:00".into()))
        );
    }
}
