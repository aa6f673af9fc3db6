//! What the database itself does, for `gogobee bench` to measure the service against in the same
//! run: small write transactions with nothing of GogoBee in them.
//!
//! - SQLite: one connection on a file of its own, WAL with `synchronous = NORMAL` (as the service
//!   runs it) and the page size asked for (`gogobee bench` runs it with the service's,
//!   [`crate::db::SQLITE_PAGE_SIZE`], and with SQLite's default), each transaction `BEGIN IMMEDIATE; UPDATE` one row `; INSERT` one row `; COMMIT`,
//!   prepared statements, as fast as they commit.
//! - PostgreSQL: pgbench's shape cut to one `UPDATE` and one `INSERT` per transaction (`BEGIN`,
//!   the two with bound parameters, `COMMIT`: four round trips), one client per connection, as
//!   many clients as the bench has fights, on tables of its own dropped afterwards.
//!
//! Besides transactions per second, each reports what it wrote: bytes through `write(2)` by this
//! process (SQLite: the WAL and the checkpoints into the file) or WAL bytes the server generated
//! (PostgreSQL, `pg_current_wal_lsn`).

use std::path::Path;
use std::time::{Duration, Instant};

use sea_orm::sqlx::{self, Row as _};

use crate::ServiceError;

/// What a baseline measured.
#[derive(Debug, Clone, Copy)]
pub struct Baseline {
    pub transactions: u64,
    pub seconds: f64,
    /// Bytes written per transaction (see the module's note).
    pub bytes_per_transaction: f64,
}

impl Baseline {
    pub fn per_second(&self) -> f64 {
        self.transactions as f64 / self.seconds
    }
}

/// Bytes this process has passed to `write(2)` and friends so far (`/proc/self/io` `wchar`);
/// `None` where that is not known.
pub fn process_bytes_written() -> Option<u64> {
    let io = std::fs::read_to_string("/proc/self/io").ok()?;
    io.lines()
        .find_map(|line| line.strip_prefix("wchar: "))
        .and_then(|n| n.trim().parse().ok())
}

fn sqlite_error(err: &rusqlite::Error) -> ServiceError {
    ServiceError::InvalidInput(format!("SQLite baseline: {err}"))
}

/// Small SQLite transactions on `path` (created with `page_size`-byte pages, and removed with its
/// WAL afterwards) for `seconds`.
pub fn sqlite(path: &Path, seconds: f64, page_size: u32) -> Result<Baseline, ServiceError> {
    let remove = || crate::remove_sqlite_files(path);
    remove();
    let result = (|| -> rusqlite::Result<Baseline> {
        let mut conn = rusqlite::Connection::open(path)?;
        conn.pragma_update(None, "page_size", page_size)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.execute_batch(
            "CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL);
             CREATE TABLE history (id INTEGER PRIMARY KEY, account INTEGER NOT NULL, delta INTEGER NOT NULL,
                                   at TEXT NOT NULL);
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
             INSERT INTO accounts SELECT i, 0 FROM n;",
        )?;
        let written = process_bytes_written();
        let (started, mut transactions) = (Instant::now(), 0_u64);
        let until = started + Duration::from_secs_f64(seconds);
        while Instant::now() < until {
            let txn = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let account = (transactions % 1000 + 1) as i64;
            txn.prepare_cached("UPDATE accounts SET balance = balance + ?1 WHERE id = ?2")?
                .execute(rusqlite::params![1_i64, account])?;
            txn.prepare_cached("INSERT INTO history (account, delta, at) VALUES (?1, ?2, ?3)")?
                .execute(rusqlite::params![account, 1_i64, "2026-12-02T12:00:00.123456Z"])?;
            txn.commit()?;
            transactions += 1;
        }
        let seconds = started.elapsed().as_secs_f64();
        let bytes = written
            .zip(process_bytes_written())
            .map_or(0.0, |(from, to)| (to - from) as f64 / transactions.max(1) as f64);
        Ok(Baseline {
            transactions,
            seconds,
            bytes_per_transaction: bytes,
        })
    })();
    remove();
    result.map_err(|err| sqlite_error(&err))
}

fn pg_error(err: sqlx::Error) -> ServiceError {
    ServiceError::Database(sea_orm::DbErr::Exec(sea_orm::RuntimeErr::SqlxError(err.into())))
}

/// The server's WAL position, in bytes.
async fn wal_position(pool: &sqlx::PgPool) -> Result<i64, ServiceError> {
    sqlx::query("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint")
        .fetch_one(pool)
        .await
        .and_then(|row| row.try_get::<i64, _>(0))
        .map_err(pg_error)
}

/// pgbench-like transactions (one `UPDATE`, one `INSERT`) from `clients` connections to `url`
/// for `seconds`, on tables of its own.
pub async fn postgres(url: &str, clients: usize, seconds: f64) -> Result<Baseline, ServiceError> {
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(clients.max(1) as u32)
        .connect(url)
        .await
        .map_err(pg_error)?;
    let suffix = std::process::id();
    let (accounts, history) = (
        format!("baseline_accounts_{suffix}"),
        format!("baseline_history_{suffix}"),
    );
    for sql in [
        format!("DROP TABLE IF EXISTS {accounts}, {history}"),
        format!("CREATE TABLE {accounts} (id bigint PRIMARY KEY, balance bigint NOT NULL)"),
        format!(
            "CREATE TABLE {history} (id bigserial PRIMARY KEY, account bigint NOT NULL, delta bigint NOT NULL, \
             at timestamptz NOT NULL)"
        ),
        format!("INSERT INTO {accounts} SELECT i, 0 FROM generate_series(1, 1000) AS i"),
    ] {
        sqlx::raw_sql(sqlx::AssertSqlSafe(sql))
            .execute(&pool)
            .await
            .map_err(pg_error)?;
    }
    let update = format!("UPDATE {accounts} SET balance = balance + $1 WHERE id = $2");
    let insert = format!("INSERT INTO {history} (account, delta, at) VALUES ($1, $2, now())");
    let from = wal_position(&pool).await?;
    let started = Instant::now();
    let until = started + Duration::from_secs_f64(seconds);
    let mut tasks = Vec::new();
    for client in 0..clients.max(1) {
        let (pool, update, insert) = (pool.clone(), update.clone(), insert.clone());
        tasks.push(tokio::spawn(async move {
            let mut done = 0_u64;
            while Instant::now() < until {
                let account = ((done * 7 + client as u64 * 131) % 1000 + 1) as i64;
                let mut txn = pool.begin().await?;
                sqlx::query(sqlx::AssertSqlSafe(update.clone()))
                    .bind(1_i64)
                    .bind(account)
                    .execute(&mut *txn)
                    .await?;
                sqlx::query(sqlx::AssertSqlSafe(insert.clone()))
                    .bind(account)
                    .bind(1_i64)
                    .execute(&mut *txn)
                    .await?;
                txn.commit().await?;
                done += 1;
            }
            Ok::<_, sqlx::Error>(done)
        }));
    }
    let mut transactions = 0;
    for task in tasks {
        transactions += task
            .await
            .map_err(|err| ServiceError::InvalidInput(format!("a baseline client panicked: {err}")))?
            .map_err(pg_error)?;
    }
    let seconds = started.elapsed().as_secs_f64();
    let to = wal_position(&pool).await?;
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
        "DROP TABLE IF EXISTS {accounts}, {history}"
    )))
    .execute(&pool)
    .await
    .map_err(pg_error)?;
    pool.close().await;
    Ok(Baseline {
        transactions,
        seconds,
        bytes_per_transaction: (to - from) as f64 / transactions.max(1) as f64,
    })
}

/// The server's WAL position in bytes (PostgreSQL), for the bench to measure the service's WAL
/// per command; `None` on SQLite.
pub async fn postgres_wal_position(db: &crate::Db) -> Result<Option<i64>, ServiceError> {
    if db.backend() != crate::Backend::Postgres {
        return Ok(None);
    }
    wal_position(db.conn().get_postgres_connection_pool()).await.map(Some)
}
