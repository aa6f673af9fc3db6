//! SQLite's one writer — the group commit: a thread of its own with its own connection, which
//! writes the combat commands of many fights in one transaction, with prepared statements.
//!
//! Each command's statements are rendered (state JSON, SQL, values) by the command's own task
//! and queued here. The writer takes every write queued while it was busy, takes the process's
//! write gate (see [`crate::Db::begin_write`]), and in one `BEGIN IMMEDIATE` … `COMMIT` runs each
//! write under a savepoint of its own: a write whose combat moved on in another process is rolled
//! back alone and answered [`ServiceError::StaleCombat`]; the others commit. Each command still
//! waits for its group's `COMMIT` before it answers.
//!
//! Why a thread and not sqlx: sqlx's SQLite driver runs every statement on its worker thread and
//! answers through a channel, so each statement is a round trip between threads (≈ 33 context
//! switches per command were measured), and an unprepared batch is parsed again every time.
//! Here a command costs one hop to the writer and one back, and SQLite parses each distinct
//! statement once (`prepare_cached`).

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, mpsc};

use rusqlite::types::{ToSqlOutput, Value as SqlValue, ValueRef};
use rusqlite::{Connection, OpenFlags, ToSql, params_from_iter};
use sea_orm::sea_query::{Value, Values};
use tokio::sync::oneshot;

use crate::ServiceError;

/// Commands in one group commit, at most.
const MAX_GROUP: usize = 64;

/// Distinct statements kept prepared (the combat row, its log entry, the denormalised rows with
/// one to a few members each, timers).
const PREPARED_STATEMENTS: usize = 128;

/// A statement and its values, rendered for SQLite.
pub(crate) type Prepared = (String, Values);

/// The ids of the timers a command set: the reaction window's and the turn's.
pub(crate) type TimerIds = [Option<i64>; 2];

/// A command's statements, rendered for SQLite, and how many rows they must touch between them
/// (fewer means its combat moved on: the version guard matched nothing).
pub(crate) struct Statements {
    pub statements: Vec<Prepared>,
    pub expected: u64,
}

/// One command's write, queued for the group commit.
pub(crate) struct GroupWrite {
    pub combat_id: i64,
    pub expected_version: i64,
    /// The timers to insert first (reaction window, turn); their ids go to `render`.
    pub new_timers: [Option<Prepared>; 2],
    /// The command's statements: already rendered by the caller when no new timer's id is
    /// needed, else rendered here once the ids are known.
    pub statements: Render,
    /// The new timers' ids once the group is committed, or why this write failed.
    pub done: oneshot::Sender<Result<TimerIds, ServiceError>>,
}

/// A command's statements, or how to render them given its new timers' ids.
pub(crate) enum Render {
    Ready(Statements),
    WithTimers(Box<dyn FnOnce(TimerIds) -> Statements + Send>),
}

/// What the group commit has written so far: transactions, and commands in them.
#[derive(Debug, Default)]
pub struct GroupCommitCounts {
    transactions: AtomicU64,
    commands: AtomicU64,
}

impl GroupCommitCounts {
    pub(crate) fn record(&self, commands: usize) {
        self.transactions.fetch_add(1, Ordering::Relaxed);
        self.commands.fetch_add(commands as u64, Ordering::Relaxed);
    }

    /// Transactions committed by the group commit.
    pub fn transactions(&self) -> u64 {
        self.transactions.load(Ordering::Relaxed)
    }

    /// Commands written in them.
    pub fn commands(&self) -> u64 {
        self.commands.load(Ordering::Relaxed)
    }
}

/// The handle to the writer thread; the thread stops once the last handle is dropped.
#[derive(Debug)]
pub(crate) struct Writer {
    queue: mpsc::Sender<GroupWrite>,
    counts: Arc<GroupCommitCounts>,
}

impl Writer {
    /// Opens a connection to the SQLite file at `path` (already created and migrated) and starts
    /// the writer thread. `gate` is the process's write gate, held around each transaction.
    pub fn start(
        path: &Path,
        wal_autocheckpoint: u32,
        gate: Arc<tokio::sync::Mutex<()>>,
    ) -> Result<Self, ServiceError> {
        let conn = open(path, wal_autocheckpoint).map_err(|err| database_error(&err))?;
        let (queue, writes) = mpsc::channel();
        let counts = Arc::new(GroupCommitCounts::default());
        let thread_counts = Arc::clone(&counts);
        std::thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || run(conn, &writes, &gate, &thread_counts))
            .map_err(|err| ServiceError::InvalidInput(format!("cannot start the SQLite writer: {err}")))?;
        Ok(Self { queue, counts })
    }

    /// Queues `write`; its `done` answers once it is durable (or failed).
    pub fn send(&self, write: GroupWrite) -> Result<(), ServiceError> {
        self.queue.send(write).map_err(|_| stopped())
    }

    pub fn counts(&self) -> &Arc<GroupCommitCounts> {
        &self.counts
    }
}

/// The error a command gets when the writer thread is gone.
pub(crate) fn stopped() -> ServiceError {
    ServiceError::InvalidInput("the database writer has stopped".into())
}

/// How long the writer waits before trying again when another connection holds the write lock.
const BUSY_RETRY: std::time::Duration = std::time::Duration::from_micros(100);

/// Tries before the writer gives up on a busy database: [`BUSY_RETRY`] apart, 5 s in all (the
/// pool's busy timeout).
const BUSY_TRIES: i32 = 50_000;

/// Tries a busy database again every [`BUSY_RETRY`], giving up after [`BUSY_TRIES`] tries.
fn retry_while_busy(tries: i32) -> bool {
    if tries >= BUSY_TRIES {
        return false;
    }
    std::thread::sleep(BUSY_RETRY);
    true
}

fn open(path: &Path, wal_autocheckpoint: u32) -> rusqlite::Result<Connection> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    // Another connection's write (an autocommit sqlx write, another process) makes SQLite
    // answer SQLITE_BUSY. SQLite's own busy handler then sleeps 1, 2, 5, 10, … up to 100 ms
    // between tries, a coarse wait for a writer whose commits take well under a millisecond:
    // this one tries again every 100 µs, for as long in all as the pool's busy timeout.
    conn.busy_handler(Some(retry_while_busy))?;
    // As on the pool's connections (WAL itself is a property of the file, set by them).
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", true)?;
    conn.pragma_update(None, "wal_autocheckpoint", wal_autocheckpoint)?;
    conn.set_prepared_statement_cache_capacity(PREPARED_STATEMENTS);
    Ok(conn)
}

/// The writer thread: group, commit, answer, until every handle is gone.
fn run(
    mut conn: Connection,
    writes: &mpsc::Receiver<GroupWrite>,
    gate: &tokio::sync::Mutex<()>,
    counts: &GroupCommitCounts,
) {
    while let Ok(first) = writes.recv() {
        let mut group = vec![first];
        while group.len() < MAX_GROUP {
            match writes.try_recv() {
                Ok(write) => group.push(write),
                Err(_) => break,
            }
        }
        let answers = {
            let _gate = gate.blocking_lock();
            commit_group(&mut conn, group)
        };
        let committed = answers.iter().filter(|(_, answer)| answer.is_ok()).count();
        if committed > 0 {
            counts.record(committed);
        }
        for (done, answer) in answers {
            let _ = done.send(answer);
        }
    }
}

type Answer = (
    oneshot::Sender<Result<TimerIds, ServiceError>>,
    Result<TimerIds, ServiceError>,
);

/// Writes `group` in one transaction, each write under its own savepoint.
///
/// The transaction's and savepoints' statements are prepared once (rusqlite's `Transaction` and
/// `Savepoint` parse them anew each time: `sqlite3Prepare` was ≈ 4 % of the one-fight bench's
/// profile before).
fn commit_group(conn: &mut Connection, group: Vec<GroupWrite>) -> Vec<Answer> {
    let mut answers = Vec::with_capacity(group.len());
    let mut pending = group.into_iter();
    let committed = (|| -> rusqlite::Result<()> {
        control(conn, "BEGIN IMMEDIATE")?;
        for write in pending.by_ref() {
            control(conn, "SAVEPOINT command")?;
            // A panic while rendering (a bug) fails this write alone, not the writer thread.
            let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                write_one(
                    conn,
                    write.combat_id,
                    write.expected_version,
                    write.new_timers,
                    write.statements,
                )
            }))
            .unwrap_or_else(|_| {
                Err(ServiceError::InvalidInput(
                    "this command could not be saved; nothing changed".into(),
                ))
            });
            // A failed write rolls back to its savepoint: it leaves nothing.
            let ended = if answer.is_ok() {
                control(conn, "RELEASE command")
            } else {
                control(conn, "ROLLBACK TO command").and_then(|()| control(conn, "RELEASE command"))
            };
            answers.push((write.done, answer));
            ended?;
        }
        control(conn, "COMMIT")
    })();
    if let Err(err) = committed {
        // Nothing of the group was written: every write gets the error, including those not
        // reached.
        if !conn.is_autocommit() {
            let _ = conn.execute_batch("ROLLBACK");
        }
        for (_, answer) in &mut answers {
            if answer.is_ok() {
                *answer = Err(database_error(&err));
            }
        }
        for write in pending {
            answers.push((write.done, Err(database_error(&err))));
        }
    }
    answers
}

/// Runs a transaction-control statement (`BEGIN`, `SAVEPOINT`, `COMMIT`, …), prepared once.
fn control(conn: &Connection, sql: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(sql)?.execute([]).map(drop)
}

/// One command's statements: its new timers first, then the rest; all its rows or an error.
fn write_one(
    conn: &Connection,
    combat_id: i64,
    expected_version: i64,
    new_timers: [Option<Prepared>; 2],
    statements: Render,
) -> Result<TimerIds, ServiceError> {
    let mut ids = [None; 2];
    for (id, timer) in ids.iter_mut().zip(new_timers) {
        if let Some((sql, values)) = timer {
            execute(conn, &sql, &values).map_err(|err| database_error(&err))?;
            *id = Some(conn.last_insert_rowid());
        }
    }
    let statements = match statements {
        Render::Ready(statements) => statements,
        Render::WithTimers(render) => render(ids),
    };
    let mut touched = 0;
    for (sql, values) in &statements.statements {
        touched += execute(conn, sql, values).map_err(|err| database_error(&err))? as u64;
    }
    if touched != statements.expected {
        return Err(ServiceError::StaleCombat {
            combat_id,
            expected: expected_version,
            found: -1,
        });
    }
    Ok(ids)
}

/// Runs one prepared statement; the rows it changed.
fn execute(conn: &Connection, sql: &str, values: &Values) -> rusqlite::Result<usize> {
    conn.prepare_cached(sql)?
        .execute(params_from_iter(values.0.iter().map(Bound)))
}

/// A sea-query value bound to a SQLite parameter, encoded as sqlx encodes it (so rows written
/// here read back through sea-orm unchanged): booleans and integers as INTEGER, text borrowed,
/// JSON as its text, UTC times as RFC 3339 with `+00:00`.
struct Bound<'a>(&'a Value);

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

fn database_error(err: &rusqlite::Error) -> ServiceError {
    ServiceError::from(sea_orm::DbErr::Custom(format!("SQLite writer: {err}")))
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn write(statements: &[&str], expected: u64, timer: Option<&str>) -> GroupWrite {
        let statements: Vec<Prepared> = statements
            .iter()
            .map(|sql| ((*sql).to_owned(), Values(Vec::new())))
            .collect();
        let render = if timer.is_some() {
            Render::WithTimers(Box::new(move |ids: TimerIds| {
                let mut statements = statements;
                statements.push((
                    "INSERT INTO log (note) VALUES (?)".into(),
                    Values(vec![format!("timer {}", ids[0].unwrap()).into()]),
                ));
                Statements {
                    statements,
                    expected: expected + 1,
                }
            }))
        } else {
            Render::Ready(Statements { statements, expected })
        };
        GroupWrite {
            combat_id: 1,
            expected_version: 0,
            new_timers: [timer.map(|sql| (sql.to_owned(), Values(Vec::new()))), None],
            statements: render,
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
            for suffix in ["", "-wal", "-shm"] {
                let mut file = self.0.clone().into_os_string();
                file.push(suffix);
                let _ = std::fs::remove_file(file);
            }
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

    fn answers(conn: &mut Connection, group: Vec<GroupWrite>) -> Vec<Result<TimerIds, ServiceError>> {
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
            write(&["INSERT INTO log (note) VALUES ('first')"], 1, None),
            // Its guard matches no row (the combat moved on): nothing of it may stay.
            write(
                &[
                    "INSERT INTO log (note) VALUES ('stale')",
                    "UPDATE log SET note = 'moved' WHERE id = 999",
                ],
                2,
                Some("INSERT INTO timers (kind) VALUES ('stale timer')"),
            ),
            write(
                &["INSERT INTO log (note) VALUES ('third')"],
                1,
                Some("INSERT INTO timers (kind) VALUES ('turn')"),
            ),
        ];
        let answers = answers(&mut scratch.writer(), group);
        assert!(matches!(answers[0], Ok([None, None])));
        assert!(matches!(
            answers[1],
            Err(ServiceError::StaleCombat { combat_id: 1, .. })
        ));
        // The rolled-back timer's id is free again: the third write's timer takes it.
        assert!(matches!(answers[2], Ok([Some(2), None])), "{:?}", answers[2]);
        let notes: Vec<String> = column(&setup, "SELECT note FROM log ORDER BY id");
        assert_eq!(notes, ["first", "third", "timer 2"]);
        let timers: Vec<String> = column(&setup, "SELECT kind FROM timers ORDER BY id");
        assert_eq!(timers, ["older", "turn"]);
    }

    #[test]
    fn a_write_that_panics_fails_alone_and_the_writer_goes_on() {
        let (scratch, setup) = Scratch::new(
            "panic",
            "CREATE TABLE log (id INTEGER PRIMARY KEY, note TEXT NOT NULL);",
        );
        let mut broken = write(&[], 0, None);
        broken.statements = Render::WithTimers(Box::new(|_| panic!("a rendering bug")));
        let group = vec![broken, write(&["INSERT INTO log (note) VALUES ('after')"], 1, None)];
        let answers = answers(&mut scratch.writer(), group);
        assert!(matches!(answers[0], Err(ServiceError::InvalidInput(_))));
        assert!(answers[1].is_ok());
        let notes: Vec<String> = column(&setup, "SELECT note FROM log");
        assert_eq!(notes, ["after"]);
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
