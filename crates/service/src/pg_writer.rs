//! PostgreSQL's group commit: tasks that write the combat commands of many fights together, with
//! bound parameters (prepared once per connection by sqlx's statement cache).
//!
//! As on SQLite ([`crate::writer`]), each command's task renders its statements and queues them
//! here; a writer task takes every write queued while it was busy and writes them together, one
//! WAL flush for the group, with [`WRITERS`] groups under way at once. A group is written as ONE
//! statement ([`one_statement`]: one round trip for all its commands, in a transaction of its
//! own), the commands' timers inserted in it with ids taken from their sequence beforehand
//! ([`PgWriter::timer_ids`]). Should that statement fail — a write met a newer version written
//! by another process, PostgreSQL chose it as a deadlock's victim, an error — nothing of it
//! stays, and the group is written again in one transaction, each write under a savepoint of its
//! own ([`by_savepoints`]: its savepoint, releasing the one before, then its statements as one
//! `WITH` statement, [`combined`]), so that a stale or failing write is rolled back alone and
//! answered with its error ([`ServiceError::StaleCombat`] for a lost race or a deadlock, which
//! the store retries on a fresh read) while the others commit. Every group takes its fights in
//! the order of their ids, so no two groups — of this process or another — wait on each other
//! in a cycle there. Each command still waits for its group's commit before it answers.

use std::fmt::Write as _;
use std::sync::Arc;

use sea_orm::{ConnectionTrait, DatabaseConnection, DatabaseTransaction, DbBackend, Statement, TransactionTrait};
use tokio::sync::mpsc;

use crate::ServiceError;
use crate::group::{
    Answer, GroupCommitCounts, GroupTxn, GroupWrite, MAX_GROUP, Prepared, Statements, Then, stopped, write_group,
};

/// Writer tasks, each with a connection of the writers' pool (see `Db::connect`) while it
/// writes a group.
pub(crate) const WRITERS: usize = 3;

/// The handle to the writer task; the task stops once the last handle is dropped.
#[derive(Debug)]
pub(crate) struct PgWriter {
    queue: mpsc::UnboundedSender<GroupWrite>,
    counts: Arc<GroupCommitCounts>,
    conn: DatabaseConnection,
    /// Timer ids taken from `timers`' sequence ahead of need ([`PgWriter::timer_ids`]).
    timer_ids: tokio::sync::Mutex<std::collections::VecDeque<i64>>,
}

/// Timer ids taken from the sequence at a time.
const TIMER_IDS_AHEAD: usize = 128;

impl PgWriter {
    /// Starts the writer task on `conn`'s pool (each group takes one connection for its
    /// transaction). Must be called inside a Tokio runtime.
    pub fn start(conn: &DatabaseConnection) -> Self {
        let (queue, writes) = mpsc::unbounded_channel();
        let counts = Arc::new(GroupCommitCounts::default());
        let writes = Arc::new(tokio::sync::Mutex::new(writes));
        for _ in 0..WRITERS {
            tokio::spawn(run(conn.clone(), Arc::clone(&writes), Arc::clone(&counts)));
        }
        Self {
            queue,
            counts,
            conn: conn.clone(),
            timer_ids: tokio::sync::Mutex::default(),
        }
    }

    /// `n` new timer ids, from `timers`' own sequence (so no other insert takes them), taken
    /// [`TIMER_IDS_AHEAD`] at a time: a command's timers are inserted with their ids in the
    /// command's one statement, instead of each one's `INSERT … RETURNING id` a round trip
    /// before it. Ids a process took and never used are skipped, as a rolled-back insert's are.
    pub async fn timer_ids(&self, n: usize) -> Result<Vec<i64>, ServiceError> {
        let mut ahead = self.timer_ids.lock().await;
        if ahead.len() < n {
            let rows = self
                .conn
                .query_all_raw(Statement::from_sql_and_values(
                    DbBackend::Postgres,
                    "SELECT nextval(pg_get_serial_sequence('timers', 'id')) FROM generate_series(1, $1)",
                    [i32::try_from(TIMER_IDS_AHEAD.max(n)).unwrap_or(i32::MAX).into()],
                ))
                .await?;
            for row in rows {
                ahead.push_back(row.try_get_by_index::<i64>(0)?);
            }
        }
        Ok(ahead.drain(..n).collect())
    }

    /// Queues `write`; its `done` answers once it is durable (or failed).
    pub fn send(&self, write: GroupWrite) -> Result<(), ServiceError> {
        self.queue.send(write).map_err(|_| stopped())
    }

    pub fn counts(&self) -> &Arc<GroupCommitCounts> {
        &self.counts
    }
}

/// A writer task: take the queued writes as a group, commit, answer, until every handle is
/// gone. [`WRITERS`] of them share the queue. A fight's commands never race each other: the
/// store sends a fight's next command only once its last is answered.
async fn run(
    conn: DatabaseConnection,
    writes: Arc<tokio::sync::Mutex<mpsc::UnboundedReceiver<GroupWrite>>>,
    counts: Arc<GroupCommitCounts>,
) {
    loop {
        let mut group = {
            let mut writes = writes.lock().await;
            let Some(first) = writes.recv().await else {
                break;
            };
            let mut group = vec![first];
            while group.len() < MAX_GROUP {
                match writes.try_recv() {
                    Ok(write) => group.push(write),
                    Err(_) => break,
                }
            }
            group
        };
        // Every group takes its fights' rows in the same order (by fight), so two processes'
        // groups over the same fights never wait on each other in a cycle (a deadlock that
        // PostgreSQL would break by failing one whole group).
        group.sort_by_key(|write| write.combat_id);
        counts.answer(commit_group(&conn, group).await);
    }
}

/// Writes `group` as one statement ([`one_statement`]); when that fails (a write of it met a
/// newer version, or an error), in one transaction, each write under its own savepoint, which
/// answers each write alone.
async fn commit_group(conn: &DatabaseConnection, group: Vec<GroupWrite>) -> Vec<Answer> {
    if let Some((sql, values)) = one_statement(&group) {
        let all = conn
            .query_one_raw(Statement::from_sql_and_values(DbBackend::Postgres, sql, values))
            .await;
        if matches!(all, Ok(Some(_))) {
            return group.into_iter().map(|write| (write.done, Ok(()))).collect();
        }
    }
    by_savepoints(conn, group).await
}

/// A group's writes as ONE statement, run on its own (its own transaction: one round trip and
/// one WAL flush for the whole group): every write's statements as the data-modifying parts of
/// one `WITH`, whose rows are counted per write and compared with what each must touch — a
/// mismatch (a write whose version another process took) divides by zero, which fails the
/// statement and so leaves nothing of any write. `None` when a write has no statement.
fn one_statement(group: &[GroupWrite]) -> Option<Prepared> {
    let mut parts = Vec::new();
    let mut values = Vec::new();
    let mut checks = Vec::new();
    for (w, write) in group.iter().enumerate() {
        let statements = &write.statements;
        if statements.statements.is_empty() {
            return None;
        }
        let mut counts = Vec::new();
        for (i, (text, bound)) in statements.statements.iter().enumerate() {
            parts.push(format!("w{w}s{i} AS ({} RETURNING 1)", renumbered(text, values.len())));
            values.extend(bound.0.iter().cloned());
            counts.push(format!("(SELECT count(*) FROM w{w}s{i})"));
        }
        values.push(sea_orm::sea_query::Value::BigInt(Some(
            i64::try_from(statements.expected).unwrap_or(i64::MAX),
        )));
        checks.push(format!(
            "(SELECT count(*) FROM w{w}s0) = 1 AND ({}) = ${}",
            counts.join(" + "),
            values.len()
        ));
    }
    let sql = format!("WITH {} SELECT 1 / ({})::int", parts.join(", "), checks.join(" AND "));
    Some((sql, sea_orm::sea_query::Values(values)))
}

/// Writes `group` in one transaction, each write under its own savepoint.
async fn by_savepoints(conn: &DatabaseConnection, group: Vec<GroupWrite>) -> Vec<Answer> {
    write_group(conn.begin().await.map(|txn| PgGroup { txn: Some(txn) }), group).await
}

/// A group's transaction: a savepoint per write, the previous one released as the next is
/// taken (one round trip).
struct PgGroup {
    /// Taken by the commit.
    txn: Option<DatabaseTransaction>,
}

impl PgGroup {
    fn txn(&self) -> &DatabaseTransaction {
        self.txn
            .as_ref()
            .expect("a group's transaction is used until its commit")
    }
}

impl GroupTxn for PgGroup {
    type Error = sea_orm::DbErr;

    async fn before(&mut self, index: usize) -> Result<(), sea_orm::DbErr> {
        let savepoint = if index == 0 {
            "SAVEPOINT command"
        } else {
            "RELEASE SAVEPOINT command; SAVEPOINT command"
        };
        self.txn().execute_unprepared(savepoint).await.map(drop)
    }

    async fn write(&mut self, fight: (i64, i64), statements: Statements) -> Result<(), ServiceError> {
        write_one(self.txn(), fight.0, fight.1, statements)
            .await
            .map_err(|err| retried(err, fight))
    }

    async fn after(&mut self, written: bool) -> Result<Then, sea_orm::DbErr> {
        // A failed write rolls back to its savepoint: it leaves nothing.
        if !written {
            self.txn().execute_unprepared("ROLLBACK TO SAVEPOINT command").await?;
        }
        Ok(Then::Next)
    }

    async fn commit(&mut self) -> Result<(), sea_orm::DbErr> {
        match self.txn.take() {
            Some(txn) => txn.commit().await,
            None => Ok(()),
        }
    }

    /// Dropped, a sea-orm transaction rolls back.
    fn abandon(self) {}

    fn failed(err: &sea_orm::DbErr, fight: (i64, i64)) -> ServiceError {
        if lost_a_deadlock(err) {
            stale(fight)
        } else {
            ServiceError::from(sea_orm::DbErr::Custom(format!("PostgreSQL writer: {err}")))
        }
    }
}

/// `err`, or [`ServiceError::StaleCombat`] when PostgreSQL failed the write to break a deadlock
/// (or a serialization failure): nothing of it was written, and the store retries it on the
/// fight as stored.
fn retried(err: ServiceError, fight: (i64, i64)) -> ServiceError {
    match &err {
        ServiceError::Database(db) if lost_a_deadlock(db) => stale(fight),
        _ => err,
    }
}

/// The write of `(combat_id, expected_version)` to try again on the fight as stored.
fn stale((combat_id, expected): (i64, i64)) -> ServiceError {
    ServiceError::StaleCombat {
        combat_id,
        expected,
        found: -1,
    }
}

/// Whether PostgreSQL refused a statement as a deadlock's victim (`40P01`) or a serialization
/// failure (`40001`): errors that trying again on a fresh read answers.
fn lost_a_deadlock(err: &sea_orm::DbErr) -> bool {
    let (sea_orm::DbErr::Exec(runtime) | sea_orm::DbErr::Query(runtime) | sea_orm::DbErr::Conn(runtime)) = err else {
        return false;
    };
    let sea_orm::RuntimeErr::SqlxError(sqlx) = runtime else {
        return false;
    };
    sqlx.as_database_error()
        .and_then(sea_orm::sqlx::error::DatabaseError::code)
        .is_some_and(|code| code == "40P01" || code == "40001")
}

/// One command's statements: all its rows or an error.
async fn write_one(
    txn: &DatabaseTransaction,
    combat_id: i64,
    expected_version: i64,
    statements: Statements,
) -> Result<(), ServiceError> {
    // The command's statements as one (one round trip, its values still bound): each a
    // data-modifying `WITH` of its own, the rows they touched counted at the end.
    let touched = match statements.statements.len() {
        0 => 0,
        1 => {
            let (sql, values) = statements.statements.into_iter().next().expect("one");
            txn.execute_raw(Statement::from_sql_and_values(DbBackend::Postgres, sql, values))
                .await?
                .rows_affected()
        }
        _ => {
            let (sql, values) = combined(statements.statements);
            let row = txn
                .query_one_raw(Statement::from_sql_and_values(DbBackend::Postgres, sql, values))
                .await?
                .ok_or_else(|| ServiceError::InvalidInput("a command's write returned no count".into()))?;
            u64::try_from(row.try_get_by_index::<i64>(0)?).unwrap_or(0)
        }
    };
    if touched != statements.expected {
        return Err(ServiceError::StaleCombat {
            combat_id,
            expected: expected_version,
            found: -1,
        });
    }
    Ok(())
}

/// `statements` as one: `WITH s0 AS (… RETURNING 1), s1 AS (…) SELECT` the rows each touched,
/// summed, with every statement's `$n` placeholders renumbered after the ones before it. The
/// sub-statements see the same snapshot and touch distinct rows (a command never writes a row
/// twice), so running them together changes nothing but the round trips.
fn combined(statements: Vec<Prepared>) -> Prepared {
    let mut sql = String::from("WITH ");
    let mut values = Vec::new();
    let count = statements.len();
    for (i, (text, bound)) in statements.into_iter().enumerate() {
        if i > 0 {
            sql.push_str(", ");
        }
        let _ = write!(sql, "s{i} AS (");
        sql.push_str(&renumbered(&text, values.len()));
        sql.push_str(" RETURNING 1)");
        values.extend(bound.0);
    }
    // The first statement is the version guard (the log entry): none touched is a count of -1,
    // whatever the others touched.
    let counts: Vec<String> = (0..count).map(|i| format!("(SELECT count(*) FROM s{i})")).collect();
    sql.push_str(" SELECT (CASE WHEN (SELECT count(*) FROM s0) = 1 THEN ");
    sql.push_str(&counts.join(" + "));
    sql.push_str(" ELSE -1 END)::bigint");
    (sql, sea_orm::sea_query::Values(values))
}

/// `sql` with each placeholder `$n` outside quotes made `$(n + offset)`.
fn renumbered(sql: &str, offset: usize) -> String {
    let mut out = String::with_capacity(sql.len() + 16);
    let mut chars = sql.chars().peekable();
    let mut quote = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => {
                quote = None;
                out.push(c);
            }
            (Some(_), c) => out.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                out.push(c);
            }
            (None, '$') if chars.peek().is_some_and(char::is_ascii_digit) => {
                let mut digits = String::new();
                while let Some(d) = chars.next_if(char::is_ascii_digit) {
                    digits.push(d);
                }
                let n: usize = digits.parse().expect("digits");
                let _ = write!(out, "${}", n + offset);
            }
            (None, c) => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use sea_orm::sea_query::Value;

    #[test]
    fn placeholders_are_renumbered_outside_quotes_only() {
        assert_eq!(
            renumbered(
                r#"UPDATE "t$1" SET "a" = $1, "b" = '$2' WHERE "id" = $2 AND x = $10"#,
                3
            ),
            r#"UPDATE "t$1" SET "a" = $4, "b" = '$2' WHERE "id" = $5 AND x = $13"#
        );
    }

    #[test]
    fn statements_combine_into_one_that_counts_the_rows_each_touched() {
        let (sql, values) = combined(vec![
            (
                r#"UPDATE "c" SET "v" = $1 WHERE "id" = $2"#.into(),
                sea_orm::sea_query::Values(vec![Value::from(2i64), Value::from(7i64)]),
            ),
            (
                r#"INSERT INTO "e" ("c", "s") VALUES ($1, $2)"#.into(),
                sea_orm::sea_query::Values(vec![Value::from(7i64), Value::from(2i64)]),
            ),
        ]);
        assert_eq!(
            sql,
            r#"WITH s0 AS (UPDATE "c" SET "v" = $1 WHERE "id" = $2 RETURNING 1), s1 AS (INSERT INTO "e" ("c", "s") VALUES ($3, $4) RETURNING 1) SELECT (CASE WHEN (SELECT count(*) FROM s0) = 1 THEN (SELECT count(*) FROM s0) + (SELECT count(*) FROM s1) ELSE -1 END)::bigint"#
        );
        assert_eq!(values.0.len(), 4);
    }
}
