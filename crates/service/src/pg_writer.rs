//! PostgreSQL's group commit: one task that writes the combat commands of many fights in one
//! transaction, each under a savepoint of its own, with bound parameters (prepared once per
//! connection by sqlx's statement cache). A command costs two round trips on the writer's
//! connection (three when it sets timers): its savepoint (releasing the one before), and its
//! statements as one `WITH` statement ([`combined`]).
//!
//! As on SQLite ([`crate::writer`]), each command's task renders its statements and queues them
//! here; a writer task takes every write queued while it was busy and commits them together: one
//! WAL flush for the group instead of one per command, with [`WRITERS`] groups under way at once
//! (while one waits for its `COMMIT`, the next is written). Every group takes its fights' rows in
//! the order of their ids, so no two groups — of this process or another — wait on each other in
//! a cycle; should PostgreSQL still pick a group as a deadlock's victim, its writes are answered
//! [`ServiceError::StaleCombat`] and the store retries them on a fresh read. A write whose combat moved on in another
//! process (its version guard matches no row) or that fails is rolled back to its savepoint
//! alone and answered with the error; the others commit. Each command still waits for its
//! group's `COMMIT` before it answers.

use std::fmt::Write as _;
use std::sync::Arc;

use sea_orm::{ConnectionTrait, DatabaseConnection, DatabaseTransaction, DbBackend, Statement, TransactionTrait};
use tokio::sync::{mpsc, oneshot};

use crate::ServiceError;
use crate::writer::{GroupCommitCounts, GroupWrite, Prepared, Render, TimerIds};

/// Commands in one group commit, at most.
const MAX_GROUP: usize = 64;

/// Writer tasks, each with a connection of the pool while it writes a group.
const WRITERS: usize = 3;

/// The handle to the writer task; the task stops once the last handle is dropped.
#[derive(Debug)]
pub(crate) struct PgWriter {
    queue: mpsc::UnboundedSender<GroupWrite>,
    counts: Arc<GroupCommitCounts>,
}

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
        Self { queue, counts }
    }

    /// Queues `write`; its `done` answers once it is durable (or failed).
    pub fn send(&self, write: GroupWrite) -> Result<(), ServiceError> {
        self.queue.send(write).map_err(|_| crate::writer::stopped())
    }

    pub fn counts(&self) -> &Arc<GroupCommitCounts> {
        &self.counts
    }
}

type Answer = (
    oneshot::Sender<Result<TimerIds, ServiceError>>,
    Result<TimerIds, ServiceError>,
);

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
        let answers = commit_group(&conn, group).await;
        let committed = answers.iter().filter(|(_, answer)| answer.is_ok()).count();
        if committed > 0 {
            counts.record(committed);
        }
        for (done, answer) in answers {
            let _ = done.send(answer);
        }
    }
}

/// Writes `group` in one transaction, each write under its own savepoint.
async fn commit_group(conn: &DatabaseConnection, group: Vec<GroupWrite>) -> Vec<Answer> {
    let mut answers = Vec::with_capacity(group.len());
    let fights: Vec<(i64, i64)> = group
        .iter()
        .map(|write| (write.combat_id, write.expected_version))
        .collect();
    let mut pending = group.into_iter();
    let committed: Result<(), sea_orm::DbErr> = async {
        let txn = conn.begin().await?;
        let mut first = true;
        for write in pending.by_ref() {
            // The previous command's savepoint is released as this one's is taken: one round trip.
            let savepoint = if first {
                "SAVEPOINT command"
            } else {
                "RELEASE SAVEPOINT command; SAVEPOINT command"
            };
            first = false;
            txn.execute_unprepared(savepoint).await?;
            let answer = write_one(
                &txn,
                write.combat_id,
                write.expected_version,
                write.new_timers,
                write.statements,
            )
            .await;
            // A failed write rolls back to its savepoint: it leaves nothing.
            let failed = answer.is_err();
            answers.push((
                write.done,
                answer.map_err(|err| retried(err, (write.combat_id, write.expected_version))),
            ));
            if failed {
                txn.execute_unprepared("ROLLBACK TO SAVEPOINT command").await?;
            }
        }
        txn.commit().await
    }
    .await;
    if let Err(err) = committed {
        // Nothing of the group was written: every write gets the error, including those not
        // reached.
        let failed = |err: &sea_orm::DbErr, fight| {
            if lost_a_deadlock(err) {
                stale(fight)
            } else {
                ServiceError::from(sea_orm::DbErr::Custom(format!("PostgreSQL writer: {err}")))
            }
        };
        for ((_, answer), &fight) in answers.iter_mut().zip(&fights) {
            if answer.is_ok() {
                *answer = Err(failed(&err, fight));
            }
        }
        for write in pending {
            answers.push((write.done, Err(failed(&err, (write.combat_id, write.expected_version)))));
        }
    }
    answers
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

/// One command's statements: its new timers first (each `RETURNING` its id), then the rest;
/// all its rows or an error.
async fn write_one(
    txn: &DatabaseTransaction,
    combat_id: i64,
    expected_version: i64,
    new_timers: [Option<Prepared>; 2],
    statements: Render,
) -> Result<TimerIds, ServiceError> {
    let mut ids = [None; 2];
    for (id, timer) in ids.iter_mut().zip(new_timers) {
        if let Some((sql, values)) = timer {
            let row = txn
                .query_one_raw(Statement::from_sql_and_values(DbBackend::Postgres, sql, values))
                .await?
                .ok_or_else(|| ServiceError::InvalidInput("a timer's insert returned no id".into()))?;
            *id = Some(row.try_get_by_index::<i64>(0)?);
        }
    }
    let statements = match statements {
        Render::Ready(statements) => statements,
        // A panic while rendering (a bug) fails this write alone, not the writer task.
        Render::WithTimers(render) => std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| render(ids)))
            .map_err(|_| ServiceError::InvalidInput("this command could not be saved; nothing changed".into()))?,
    };
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
    Ok(ids)
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
    let counts: Vec<String> = (0..count).map(|i| format!("(SELECT count(*) FROM s{i})")).collect();
    sql.push_str(" SELECT (");
    sql.push_str(&counts.join(" + "));
    sql.push_str(")::bigint");
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
            r#"WITH s0 AS (UPDATE "c" SET "v" = $1 WHERE "id" = $2 RETURNING 1), s1 AS (INSERT INTO "e" ("c", "s") VALUES ($3, $4) RETURNING 1) SELECT ((SELECT count(*) FROM s0) + (SELECT count(*) FROM s1))::bigint"#
        );
        assert_eq!(values.0.len(), 4);
    }
}
