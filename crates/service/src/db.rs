//! Opening the database: SQLite (the default) or PostgreSQL, chosen by the URL, with the
//! schema migrated before anything else runs — by one process at a time ([`migrate`]).

use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use migration::{Migrator, MigratorTrait};
use sea_orm::sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqliteSynchronous};
use sea_orm::{
    ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DatabaseTransaction, DbBackend,
    SqliteTransactionMode, Statement, TransactionOptions, TransactionTrait,
};

use crate::ServiceError;
use crate::access::Access;
use crate::group::{GroupCommitCounts, GroupWrite};
use crate::pg_writer::PgWriter;
use crate::reader::Reader;
use crate::writer::Writer;

/// The database used when `DATABASE_URL` is unset: a SQLite file next to the process,
/// created on first use.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://gogobee.db?mode=rwc";

/// How long a SQLite writer waits for another writer's transaction before failing.
const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Connections kept to a SQLite file: one. SQLite has one writer anyway; with several pooled
/// connections, writers that collide wait in SQLite's busy handler, which sleeps in steps of
/// up to 100 ms — measured here as a 30–80 ms p99 under concurrent fights. One connection
/// queues them in-process instead (p99 under 5 ms for a fight, see BENCHMARKS.md). Other
/// processes on the same file still serialise through the busy timeout.
const SQLITE_FILE_CONNECTIONS: u32 = 1;

/// Whether the pool pings a SQLite file's connection before handing it out: no. A file's
/// connection cannot drop as a server's can, and sqlx pings it when it comes back to the pool
/// anyway; each ping is a round trip to the connection's thread (≈ 40–90 µs on this kind of
/// machine), and the ping before would be one more for every statement outside a transaction
/// (three round trips instead of two).
const SQLITE_TEST_BEFORE_ACQUIRE: bool = false;

/// Removes a SQLite file with its WAL and shared-memory index, those of them that exist (a
/// scratch database's, when a test or a bench is done with it).
pub fn remove_sqlite_files(path: &std::path::Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut file = path.as_os_str().to_owned();
        file.push(suffix);
        let _ = std::fs::remove_file(file);
    }
}

/// The page size of a SQLite file this process creates: 1 KiB, not SQLite's default 4 KiB.
///
/// A command appends a few hundred bytes (its log entry, its timers) to the rightmost pages of
/// a few B-trees, and a WAL commit writes each page it touched whole: with 4 KiB pages a
/// command wrote ≈ 16 KB for its ≈ 0.5 KB of rows, with 1 KiB pages ≈ 5 KB, and it commits
/// faster (less to copy and checksum). A file made with another page size keeps it (in WAL
/// mode SQLite changes it only by `VACUUM` out of WAL). See BENCHMARKS.md (page size).
pub const SQLITE_PAGE_SIZE: u32 = 1024;

/// WAL pages after which a SQLite commit checkpoints by itself (SQLite's default is 1,000).
/// The [`Checkpointer`] keeps the log far below this; it is only a backstop should the
/// checkpointer fall behind.
const WAL_AUTOCHECKPOINT_BACKSTOP: u32 = 16_384;

/// How often the [`Checkpointer`] copies the WAL back into the database file. Often, so each
/// checkpoint is small: the first commit after a checkpoint that caught up restarts the WAL and
/// fsyncs its header, which waits on the checkpoint's own fsyncs (one journal on ext4); every
/// 250 ms made those commits 4–15 ms (p99 8–17 ms at 5,000 writes/s), every 50 ms 3–6 ms.
const CHECKPOINT_INTERVAL: Duration = Duration::from_millis(50);

/// Checkpoints a SQLite file's write-ahead log from a connection and a thread of its own, off
/// the command path.
///
/// With SQLite's automatic checkpoint, the commit that crosses 1,000 WAL pages copies them
/// into the database and fsyncs twice before it returns: on this kind of disk (fsync 4–20 ms)
/// that commit took ≈ 60 ms, the slow 1 % of every command latency measured. A `PASSIVE`
/// checkpoint on another connection takes no write lock, so commands keep committing (to the
/// WAL, without fsync under `synchronous = NORMAL`) while it runs.
///
/// Its own thread (not a task on a pool connection) so that what it writes can be told from
/// what the commands write: the bytes it passed to `write(2)` are its thread's own count
/// ([`Db::checkpointed_bytes`]), the rest of the process's are the WAL's.
#[derive(Debug)]
struct Checkpointer {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
    written: Arc<AtomicU64>,
}

impl Checkpointer {
    fn start(file: &std::path::Path) -> Result<Self, ServiceError> {
        let conn = rusqlite::Connection::open(file).map_err(|err| crate::writer::database_error(&err))?;
        conn.busy_timeout(SQLITE_BUSY_TIMEOUT)
            .map_err(|err| crate::writer::database_error(&err))?;
        let (stop, written) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicU64::new(0)));
        let (stopping, counted) = (Arc::clone(&stop), Arc::clone(&written));
        let thread = std::thread::Builder::new()
            .name("sqlite-checkpoint".into())
            .spawn(move || {
                let start = thread_bytes_written().unwrap_or(0);
                while !stopping.load(Ordering::Acquire) {
                    std::thread::park_timeout(CHECKPOINT_INTERVAL);
                    if stopping.load(Ordering::Acquire) {
                        break;
                    }
                    if let Err(error) = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())) {
                        tracing::warn!(%error, "WAL checkpoint failed; retrying");
                    }
                    if let Some(now) = thread_bytes_written() {
                        counted.store(now.saturating_sub(start), Ordering::Relaxed);
                    }
                }
            })
            .map_err(|err| ServiceError::InvalidInput(format!("starting the WAL checkpointer: {err}")))?;
        Ok(Self {
            stop,
            thread: Some(thread),
            written,
        })
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
        }
    }
}

/// Bytes the calling thread has passed to `write(2)` and friends (`/proc/thread-self/io`
/// `wchar`); `None` where that is not known.
fn thread_bytes_written() -> Option<u64> {
    let io = std::fs::read_to_string("/proc/thread-self/io").ok()?;
    io.lines()
        .find_map(|line| line.strip_prefix("wchar: "))
        .and_then(|n| n.trim().parse().ok())
}

/// Which database engine a [`Db`] talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// An open, migrated database.
#[derive(Clone, Debug)]
pub struct Db {
    conn: DatabaseConnection,
    /// A SQLite file's background checkpointer; stops when the last clone of the `Db` goes.
    checkpointer: Option<Arc<Checkpointer>>,
    /// A SQLite file's one writer of combat commands (the group commit); its thread stops
    /// when the last clone of the `Db` goes.
    writer: Option<Arc<GroupCommit>>,
    /// A SQLite file's write gate (see [`Gate`]).
    gate: Option<Gate>,
    /// A SQLite file's reads outside a transaction (see [`crate::reader`]).
    reader: Option<Arc<Reader>>,
}

/// The write gate of a SQLite file: held by every write transaction this process opens (the
/// group commit's and [`Db::begin_write`]'s), so they queue here, woken in order, rather than
/// in SQLite's busy handler, which sleeps in steps of up to 100 ms.
///
/// `begin_write` transactions first queue among themselves (`turn`) and only the one whose
/// turn it is waits on `lock` beside the group commit: however many of them arrive at once
/// (a dozen fights ending together), the group commit waits for at most the one that holds
/// the lock and the one ahead of it, never for the whole queue.
#[derive(Clone, Debug)]
struct Gate {
    turn: Arc<tokio::sync::Mutex<()>>,
    lock: Arc<tokio::sync::Mutex<()>>,
}

/// A write transaction (see [`Db::begin_write`]): a sea-orm transaction holding the process's
/// write gate until it commits, rolls back or is dropped.
pub struct WriteTxn {
    // Declared first: dropped (rolled back) before the gate opens.
    txn: DatabaseTransaction,
    _gate: Option<(tokio::sync::OwnedMutexGuard<()>, tokio::sync::OwnedMutexGuard<()>)>,
}

impl WriteTxn {
    /// Commits, then opens the gate.
    pub async fn commit(self) -> Result<(), sea_orm::DbErr> {
        self.txn.commit().await
    }

    /// Rolls back, then opens the gate.
    pub async fn rollback(self) -> Result<(), sea_orm::DbErr> {
        self.txn.rollback().await
    }
}

impl std::ops::Deref for WriteTxn {
    type Target = DatabaseTransaction;

    fn deref(&self) -> &DatabaseTransaction {
        &self.txn
    }
}

/// The group commit of a database: SQLite's (led from the commands' own tasks) or PostgreSQL's
/// writer tasks.
#[derive(Debug)]
pub(crate) enum GroupCommit {
    Sqlite(Writer),
    Postgres(PgWriter),
}

impl GroupCommit {
    /// Queues `write` — on SQLite writing the next group on the caller's task when no group is
    /// being written (see [`crate::writer`]); its `done` answers once it is durable (or failed).
    pub async fn write(&self, write: GroupWrite) -> Result<(), ServiceError> {
        match self {
            Self::Sqlite(writer) => {
                if let Some(lead) = writer.send(write)? {
                    lead.write().await;
                }
                Ok(())
            }
            Self::Postgres(writer) => writer.send(write),
        }
    }

    /// Ids for `n` new timers, taken ahead so that a command renders its timers' inserts with
    /// its other statements (PostgreSQL: from the sequence; SQLite: a block past
    /// `sqlite_sequence`, see [`Writer::timer_ids`]).
    pub async fn timer_ids(&self, n: usize) -> Result<Vec<i64>, ServiceError> {
        match self {
            Self::Sqlite(writer) => writer.timer_ids(n).await,
            Self::Postgres(writer) => writer.timer_ids(n).await,
        }
    }

    pub fn counts(&self) -> &Arc<GroupCommitCounts> {
        match self {
            Self::Sqlite(writer) => writer.counts(),
            Self::Postgres(writer) => writer.counts(),
        }
    }

    /// The SQL dialect its statements are rendered in.
    pub fn backend(&self) -> DbBackend {
        match self {
            Self::Sqlite(_) => DbBackend::Sqlite,
            Self::Postgres(_) => DbBackend::Postgres,
        }
    }
}

impl Db {
    /// Connects to `url` (`sqlite://…` or `postgres://…`) and runs every pending migration.
    ///
    /// On a SQLite file this turns on WAL with `synchronous = NORMAL` and a busy timeout;
    /// an in-memory SQLite database gets exactly one connection, since each connection
    /// would otherwise be a database of its own.
    pub async fn connect(url: &str) -> Result<Self, ServiceError> {
        let mut options = ConnectOptions::new(url);
        options.sqlx_logging(false);
        if url.starts_with("sqlite:") {
            if is_sqlite_memory(url) {
                options
                    .max_connections(1)
                    .min_connections(1)
                    // The database dies with its last connection: never let it idle out.
                    .idle_timeout(None)
                    .max_lifetime(None);
            } else {
                options
                    .max_connections(SQLITE_FILE_CONNECTIONS)
                    .test_before_acquire(SQLITE_TEST_BEFORE_ACQUIRE)
                    .map_sqlx_sqlite_opts(|opts| {
                        opts.page_size(SQLITE_PAGE_SIZE)
                            .journal_mode(SqliteJournalMode::Wal)
                            .synchronous(SqliteSynchronous::Normal)
                            .busy_timeout(SQLITE_BUSY_TIMEOUT)
                            .pragma("wal_autocheckpoint", WAL_AUTOCHECKPOINT_BACKSTOP.to_string())
                    });
            }
        }
        let conn = Database::connect(options).await?;
        migrate(url, &conn).await?;
        if !url.starts_with("sqlite:") {
            // The group commit's own connections, one a writer task: each keeps its statements
            // prepared (a pool shared with the reads rotates through all its connections, each
            // preparing every statement anew), and plans them once, generically — they are
            // inserts and updates by key, whose plan never depends on the values; planning each
            // execution anew (`bind`) was ≈ 0.16 ms of the ≈ 0.4 ms PostgreSQL spent on a group.
            let mut writers = ConnectOptions::new(url);
            writers
                .sqlx_logging(false)
                .max_connections(crate::pg_writer::WRITERS as u32)
                .map_sqlx_postgres_opts(|opts| opts.options([("plan_cache_mode", "force_generic_plan")]));
            let writer = GroupCommit::Postgres(PgWriter::start(&Database::connect(writers).await?));
            return Ok(Self {
                conn,
                checkpointer: None,
                writer: Some(Arc::new(writer)),
                gate: None,
                reader: None,
            });
        }
        if is_sqlite_memory(url) {
            return Ok(Self {
                conn,
                checkpointer: None,
                writer: None,
                gate: None,
                reader: None,
            });
        }
        let file = SqliteConnectOptions::from_str(url)
            .map_err(|err| ServiceError::InvalidInput(format!("{url}: {err}")))?
            .get_filename()
            .to_owned();
        let checkpointer = Some(Arc::new(Checkpointer::start(&file)?));
        let gate = Gate {
            turn: Arc::default(),
            lock: Arc::default(),
        };
        let writer = Writer::start(&file, WAL_AUTOCHECKPOINT_BACKSTOP, Arc::clone(&gate.lock))?;
        let reader = Reader::open(&file).map_err(|err| crate::writer::database_error(&err))?;
        Ok(Self {
            conn,
            checkpointer,
            writer: Some(Arc::new(GroupCommit::Sqlite(writer))),
            gate: Some(gate),
            reader: Some(Arc::new(reader)),
        })
    }

    /// Whether combat commands are written by a group commit: on a SQLite file and on
    /// PostgreSQL. (In-memory SQLite writes each command in its own transaction.)
    pub fn has_group_commit(&self) -> bool {
        self.writer.is_some()
    }

    /// The group-commit writer of combat commands.
    /// Bytes a SQLite file's checkpointer has written since it started (copying WAL pages into
    /// the database file); `None` for other databases, or where the count is not known. The
    /// process's other writes to the file are its WAL's.
    pub fn checkpointed_bytes(&self) -> Option<u64> {
        self.checkpointer.as_ref().map(|c| c.written.load(Ordering::Relaxed))
    }

    pub(crate) fn writer(&self) -> Option<&GroupCommit> {
        self.writer.as_deref()
    }

    /// A SQLite file's reader, for reads outside a transaction ([`crate::reader`]).
    pub(crate) fn sqlite_reader(&self) -> Option<&Reader> {
        self.reader.as_deref()
    }

    /// A SQLite file's group commit writer, for a write of its own ([`Writer::alone`]).
    pub(crate) fn sqlite_writer(&self) -> Option<&Writer> {
        match self.writer.as_deref() {
            Some(GroupCommit::Sqlite(writer)) => Some(writer),
            _ => None,
        }
    }

    /// The connection pool, for repository calls outside a transaction.
    pub fn conn(&self) -> &DatabaseConnection {
        &self.conn
    }

    /// Which database engine this is.
    pub fn backend(&self) -> Backend {
        match self.conn.get_database_backend() {
            DbBackend::Postgres => Backend::Postgres,
            _ => Backend::Sqlite,
        }
    }

    /// Begins a transaction that will write.
    ///
    /// On SQLite it is `BEGIN IMMEDIATE`: the write lock is taken at the start, so two
    /// writers queue (up to the busy timeout) instead of both reading and then one failing
    /// to upgrade. On PostgreSQL it is a plain `BEGIN` (READ COMMITTED); the combat's
    /// version check makes the second of two racing writers see zero rows to update.
    ///
    /// On a SQLite file it first takes the process's write gate, which the group commit's
    /// writer takes too, so the two never meet in SQLite's busy handler. Never call the
    /// service's combat commands while holding one: their writes wait for this gate.
    pub async fn begin_write(&self) -> Result<WriteTxn, ServiceError> {
        let gate = match &self.gate {
            Some(gate) => {
                let turn = Arc::clone(&gate.turn).lock_owned().await;
                Some((turn, Arc::clone(&gate.lock).lock_owned().await))
            }
            None => None,
        };
        let options = TransactionOptions {
            sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
            ..TransactionOptions::default()
        };
        Ok(WriteTxn {
            txn: self.conn.begin_with_options(options).await?,
            _gate: gate,
        })
    }

    /// Closes every connection in the pool.
    /// Writes a consistent copy of the database to the SQLite file `to` while the bot runs
    /// (`VACUUM INTO`: an online backup, compacted, safe to copy elsewhere). `to` must not exist.
    /// PostgreSQL has `pg_dump` for that: asking here is [`ServiceError::InvalidInput`] saying so.
    pub async fn backup_to(&self, to: &std::path::Path) -> Result<(), ServiceError> {
        use sea_orm::ConnectionTrait as _;
        if self.backend() != Backend::Sqlite {
            return Err(ServiceError::InvalidInput(
                "gogobee backup copies a SQLite database; for PostgreSQL use pg_dump \
                 (e.g. `pg_dump --format=custom --file=gogobee.dump \"$DATABASE_URL\"`, restored with pg_restore)."
                    .into(),
            ));
        }
        if to.exists() {
            return Err(ServiceError::InvalidInput(format!(
                "{} already exists: back up to a new file.",
                to.display()
            )));
        }
        let path = to.to_string_lossy().into_owned();
        self.conn()
            .execute_raw(sea_orm::Statement::from_sql_and_values(
                sea_orm::DbBackend::Sqlite,
                "VACUUM INTO ?",
                [path.into()],
            ))
            .await?;
        Ok(())
    }

    pub async fn close(self) -> Result<(), ServiceError> {
        Ok(self.conn.close().await?)
    }
}

/// `gogobee backup` of a SQLite database: the file `url` names, opened read-only (never
/// created, never migrated), copied with `VACUUM INTO` to `to`, which must not exist. A file
/// that is not there is refused, naming the path.
pub async fn backup_sqlite(url: &str, to: &std::path::Path) -> Result<(), ServiceError> {
    use sea_orm::ConnectionTrait as _;
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .ok_or_else(|| ServiceError::InvalidInput(format!("{url} is not a SQLite database URL")))?;
    let path = rest.split_once('?').map_or(rest, |(path, _)| path);
    if path.is_empty() || path == ":memory:" {
        return Err(ServiceError::InvalidInput(
            "An in-memory database has nothing to back up: name the database file.".into(),
        ));
    }
    let source = std::path::Path::new(path);
    if !source.is_file() {
        return Err(ServiceError::InvalidInput(format!(
            "There is no database at {}: nothing to back up (check --db or DATABASE_URL).",
            source.display()
        )));
    }
    if to.exists() {
        return Err(ServiceError::InvalidInput(format!(
            "{} already exists: back up to a new file.",
            to.display()
        )));
    }
    let options = SqliteConnectOptions::new()
        .filename(source)
        .read_only(true)
        .create_if_missing(false);
    let pool = sea_orm::sqlx::SqlitePool::connect_with(options)
        .await
        .map_err(|e| ServiceError::InvalidInput(format!("Cannot open {}: {e}", source.display())))?;
    let conn = sea_orm::SqlxSqliteConnector::from_sqlx_sqlite_pool(pool);
    let copied = conn
        .execute_raw(sea_orm::Statement::from_sql_and_values(
            sea_orm::DbBackend::Sqlite,
            "VACUUM INTO ?",
            [to.to_string_lossy().into_owned().into()],
        ))
        .await;
    conn.close().await?;
    copied?;
    Ok(())
}

impl Access for Db {
    type Conn = DatabaseConnection;

    fn sea_orm(&self) -> &DatabaseConnection {
        &self.conn
    }

    fn outside(&self) -> Option<&Db> {
        Some(self)
    }
}

/// The PostgreSQL advisory lock migrations run under: a constant every GogoBee process shares
/// (the bytes of "gogobee!").
pub const MIGRATION_LOCK: i64 = 0x676f_676f_6265_6521;

/// Runs the pending migrations, one process at a time, so that several processes starting
/// together on one database never race through the same `CREATE`s.
///
/// - PostgreSQL: under a session-level `pg_advisory_lock(MIGRATION_LOCK)` held on a dedicated
///   connection (a pool of one, so every statement runs in that session). The first process
///   migrates; the others wait for the lock, then find nothing pending. The lock is released
///   after, and would be with the session if the process died holding it.
/// - SQLite: in one `BEGIN IMMEDIATE` transaction on `conn`, which takes the database's write
///   lock before reading which migrations are applied; another process waits (busy timeout),
///   then finds nothing pending. The whole upgrade is all-or-nothing as well.
async fn migrate(url: &str, conn: &DatabaseConnection) -> Result<(), ServiceError> {
    if conn.get_database_backend() != DbBackend::Postgres {
        let txn = conn
            .begin_with_options(TransactionOptions {
                sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
                ..TransactionOptions::default()
            })
            .await?;
        Migrator::up(&txn, None).await?;
        txn.commit().await?;
        return Ok(());
    }
    let mut options = ConnectOptions::new(url);
    options
        .sqlx_logging(false)
        .max_connections(1)
        .min_connections(1)
        .idle_timeout(None)
        .max_lifetime(None);
    let session = Database::connect(options).await?;
    let lock = |function: &str| {
        Statement::from_sql_and_values(
            DbBackend::Postgres,
            format!("SELECT {function}($1)"),
            [MIGRATION_LOCK.into()],
        )
    };
    let migrated = match session.query_one_raw(lock("pg_advisory_lock")).await {
        Ok(_) => {
            let migrated = Migrator::up(&session, None).await;
            let unlocked = session.query_one_raw(lock("pg_advisory_unlock")).await;
            migrated.and(unlocked.map(|_| ()))
        }
        Err(err) => Err(err),
    };
    // Closing ends the session, which releases the lock whatever happened above.
    session.close().await?;
    migrated.map_err(ServiceError::from)
}

/// Whether a SQLite URL names an in-memory database (`sqlite::memory:`,
/// `sqlite://:memory:`, or `mode=memory`).
fn is_sqlite_memory(url: &str) -> bool {
    url.contains(":memory:") || url.contains("mode=memory")
}

/// Whether `err` is a unique or primary key violation: sqlx's, or one of this process's own
/// SQLite connections' ([`crate::writer::database_error`]).
pub(crate) fn is_unique_violation(err: &sea_orm::DbErr) -> bool {
    matches!(err.sql_err(), Some(sea_orm::SqlErr::UniqueConstraintViolation(_)))
        || matches!(err, sea_orm::DbErr::Custom(said) if said.starts_with(crate::writer::UNIQUE_VIOLATION))
}

#[cfg(test)]
mod tests {
    use super::is_sqlite_memory;

    #[test]
    fn memory_urls_are_recognised() {
        assert!(is_sqlite_memory("sqlite::memory:"));
        assert!(is_sqlite_memory("sqlite://:memory:"));
        assert!(is_sqlite_memory("sqlite:file:x?mode=memory&cache=shared"));
        assert!(!is_sqlite_memory("sqlite://gogobee.db?mode=rwc"));
    }
}
