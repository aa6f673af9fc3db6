//! PostgreSQL's group commit: one task that writes the combat commands of many fights in one
//! transaction, each under a savepoint of its own, with bound parameters (prepared once per
//! connection by sqlx's statement cache).
//!
//! As on SQLite ([`crate::writer`]), each command's task renders its statements and queues them
//! here; the task takes every write queued while it was busy and commits them together: one WAL
//! flush for the group instead of one per command. A write whose combat moved on in another
//! process (its version guard matches no row) or that fails is rolled back to its savepoint
//! alone and answered with the error; the others commit. Each command still waits for its
//! group's `COMMIT` before it answers.

use std::sync::Arc;

use sea_orm::{ConnectionTrait, DatabaseConnection, DatabaseTransaction, DbBackend, Statement, TransactionTrait};
use tokio::sync::{mpsc, oneshot};

use crate::ServiceError;
use crate::writer::{GroupCommitCounts, GroupWrite, Prepared, Render, TimerIds};

/// Commands in one group commit, at most.
const MAX_GROUP: usize = 64;

/// The handle to the writer task; the task stops once the last handle is dropped.
#[derive(Debug)]
pub(crate) struct PgWriter {
    queue: mpsc::UnboundedSender<GroupWrite>,
    counts: Arc<GroupCommitCounts>,
}

impl PgWriter {
    /// Starts the writer task on `conn`'s pool (each group takes one connection for its
    /// transaction). Must be called inside a Tokio runtime.
    pub fn start(conn: DatabaseConnection) -> Self {
        let (queue, writes) = mpsc::unbounded_channel();
        let counts = Arc::new(GroupCommitCounts::default());
        tokio::spawn(run(conn, writes, Arc::clone(&counts)));
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

/// The writer task: group, commit, answer, until every handle is gone.
async fn run(
    conn: DatabaseConnection,
    mut writes: mpsc::UnboundedReceiver<GroupWrite>,
    counts: Arc<GroupCommitCounts>,
) {
    while let Some(first) = writes.recv().await {
        let mut group = vec![first];
        while group.len() < MAX_GROUP {
            match writes.try_recv() {
                Ok(write) => group.push(write),
                Err(_) => break,
            }
        }
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
    let mut pending = group.into_iter();
    let committed: Result<(), sea_orm::DbErr> = async {
        let txn = conn.begin().await?;
        for write in pending.by_ref() {
            txn.execute_unprepared("SAVEPOINT command").await?;
            let answer = write_one(
                &txn,
                write.combat_id,
                write.expected_version,
                write.new_timers,
                write.statements,
            )
            .await;
            // A failed write rolls back to its savepoint: it leaves nothing.
            let end = if answer.is_ok() {
                "RELEASE SAVEPOINT command"
            } else {
                "ROLLBACK TO SAVEPOINT command"
            };
            answers.push((write.done, answer));
            txn.execute_unprepared(end).await?;
        }
        txn.commit().await
    }
    .await;
    if let Err(err) = committed {
        // Nothing of the group was written: every write gets the error, including those not
        // reached.
        let failed =
            |err: &sea_orm::DbErr| ServiceError::from(sea_orm::DbErr::Custom(format!("PostgreSQL writer: {err}")));
        for (_, answer) in &mut answers {
            if answer.is_ok() {
                *answer = Err(failed(&err));
            }
        }
        for write in pending {
            answers.push((write.done, Err(failed(&err))));
        }
    }
    answers
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
    let mut touched = 0;
    for (sql, values) in statements.statements {
        touched += txn
            .execute_raw(Statement::from_sql_and_values(DbBackend::Postgres, sql, values))
            .await?
            .rows_affected();
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
