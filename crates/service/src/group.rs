//! The group commit, whichever the database: a command's write as its task renders it
//! ([`GroupWrite`]), its answer, what has been committed ([`GroupCommitCounts`]), and the one
//! loop that writes a group of them in one transaction ([`write_group`]): each write under a
//! savepoint of its own, so that a stale or failing write is rolled back alone and answered
//! with its error while the others commit, and every write answered with the group's error
//! should the transaction itself fail.
//!
//! [`GroupTxn`] is what the loop needs of a transaction: SQLite's ([`crate::writer`], rusqlite
//! on the group commit's own connection, led by a command's task) and PostgreSQL's
//! ([`crate::pg_writer`], sea-orm, on writer tasks) implement it. How a group is gathered and
//! its transaction begun stays with each: SQLite waits for the file's write lock, PostgreSQL
//! first tries the group as one statement.

use std::sync::atomic::{AtomicU64, Ordering};

use sea_orm::sea_query::Values;
use tokio::sync::oneshot;

use crate::ServiceError;

/// Commands in one group commit, at most.
pub(crate) const MAX_GROUP: usize = 64;

/// A statement and its values, rendered for the database.
pub(crate) type Prepared = (String, Values);

/// A command's statements, rendered, and how many rows they must touch between them. The first
/// is its log entry's insert, the version guard: it must touch its one row (none means its
/// combat moved on), whatever the others touch.
pub(crate) struct Statements {
    pub statements: Vec<Prepared>,
    pub expected: u64,
}

/// One command's write, queued for the group commit: its statements, rendered by the caller
/// (its new timers' inserts among them, with ids taken ahead).
pub(crate) struct GroupWrite {
    pub combat_id: i64,
    pub expected_version: i64,
    pub statements: Statements,
    /// Answered once the group is committed, or with why this write failed.
    pub done: oneshot::Sender<Result<(), ServiceError>>,
}

impl GroupWrite {
    /// The fight and the version it expects, for an error about it.
    fn fight(&self) -> (i64, i64) {
        (self.combat_id, self.expected_version)
    }
}

/// A write of a group and its answer: committed, or why it failed.
pub(crate) type Answer = (oneshot::Sender<Result<(), ServiceError>>, Result<(), ServiceError>);

/// What the group commit has written so far: transactions, and commands in them.
#[derive(Debug, Default)]
pub struct GroupCommitCounts {
    transactions: AtomicU64,
    commands: AtomicU64,
}

impl GroupCommitCounts {
    fn record(&self, commands: usize) {
        self.transactions.fetch_add(1, Ordering::Relaxed);
        self.commands.fetch_add(commands as u64, Ordering::Relaxed);
    }

    /// Answers a group's writes, counting the group's transaction if it committed any.
    pub(crate) fn answer(&self, answers: Vec<Answer>) {
        let committed = answers.iter().filter(|(_, answer)| answer.is_ok()).count();
        if committed > 0 {
            self.record(committed);
        }
        for (done, answer) in answers {
            let _ = done.send(answer);
        }
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

/// The error a command gets when the group commit cannot take it.
pub(crate) fn stopped() -> ServiceError {
    ServiceError::InvalidInput("the database writer has stopped".into())
}

/// After a write of the group: go on with the next, or the transaction has ended (a write
/// alone in its group that failed was rolled back with it).
pub(crate) enum Then {
    Next,
    Ended,
}

/// A group commit's transaction, begun, as [`write_group`] drives it.
pub(crate) trait GroupTxn {
    /// A failure of the transaction itself (a savepoint, the commit): the whole group's.
    type Error;

    /// Before the group's `index`th write: its savepoint.
    async fn before(&mut self, index: usize) -> Result<(), Self::Error>;

    /// One write's statements, for `fight` (its id and the version it expects): all their rows,
    /// or why not ([`ServiceError::StaleCombat`] when the fight moved on).
    async fn write(&mut self, fight: (i64, i64), statements: Statements) -> Result<(), ServiceError>;

    /// After a write: keep it (`written`) or roll it back to its savepoint.
    async fn after(&mut self, written: bool) -> Result<Then, Self::Error>;

    async fn commit(&mut self) -> Result<(), Self::Error>;

    /// Rolls back whatever is left of a transaction that failed.
    fn abandon(self);

    /// What a write of `fight` is answered when the transaction failed.
    fn failed(err: &Self::Error, fight: (i64, i64)) -> ServiceError;
}

/// Writes `group` in `txn` (or answers every write with why the transaction did not begin):
/// each write under its own savepoint; the answers, in the group's order.
pub(crate) async fn write_group<T: GroupTxn>(txn: Result<T, T::Error>, group: Vec<GroupWrite>) -> Vec<Answer> {
    let fights: Vec<(i64, i64)> = group.iter().map(GroupWrite::fight).collect();
    let mut answers = Vec::with_capacity(group.len());
    let mut pending = group.into_iter();
    let (ended, txn) = match txn {
        Ok(mut txn) => (write_each(&mut txn, &mut pending, &mut answers).await, Some(txn)),
        Err(err) => (Err(err), None),
    };
    let Err(err) = ended else {
        return answers;
    };
    if let Some(txn) = txn {
        txn.abandon();
    }
    // Nothing of the group was written: every write gets the error, including those not
    // reached (a write's own error stays its answer).
    for ((_, answer), &fight) in answers.iter_mut().zip(&fights) {
        if answer.is_ok() {
            *answer = Err(T::failed(&err, fight));
        }
    }
    for write in pending {
        let fight = write.fight();
        answers.push((write.done, Err(T::failed(&err, fight))));
    }
    answers
}

/// The loop of [`write_group`]: each write under its savepoint, then the commit.
async fn write_each<T: GroupTxn>(
    txn: &mut T,
    pending: &mut impl Iterator<Item = GroupWrite>,
    answers: &mut Vec<Answer>,
) -> Result<(), T::Error> {
    for (index, write) in pending.enumerate() {
        if let Err(err) = txn.before(index).await {
            // Answered with the group's error, as the writes before it are.
            answers.push((write.done, Ok(())));
            return Err(err);
        }
        let fight = write.fight();
        let answer = txn.write(fight, write.statements).await;
        let written = answer.is_ok();
        answers.push((write.done, answer));
        if let Then::Ended = txn.after(written).await? {
            return Ok(());
        }
    }
    txn.commit().await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A transaction that records what the loop asks of it and fails where told.
    #[derive(Default)]
    struct Scripted {
        /// Writes (by fight id) that are stale.
        stale: Vec<i64>,
        /// The savepoint before this write fails.
        savepoint_fails: Option<usize>,
        commit_fails: bool,
        said: Vec<String>,
    }

    impl GroupTxn for &mut Scripted {
        type Error = String;

        async fn before(&mut self, index: usize) -> Result<(), String> {
            self.said.push(format!("savepoint {index}"));
            if self.savepoint_fails == Some(index) {
                return Err("savepoint failed".into());
            }
            Ok(())
        }

        async fn write(&mut self, (combat_id, expected): (i64, i64), _: Statements) -> Result<(), ServiceError> {
            self.said.push(format!("write {combat_id}"));
            if self.stale.contains(&combat_id) {
                return Err(ServiceError::StaleCombat {
                    combat_id,
                    expected,
                    found: -1,
                });
            }
            Ok(())
        }

        async fn after(&mut self, written: bool) -> Result<Then, String> {
            self.said
                .push(if written { "release" } else { "roll back to savepoint" }.into());
            Ok(Then::Next)
        }

        async fn commit(&mut self) -> Result<(), String> {
            self.said.push("commit".into());
            if self.commit_fails {
                return Err("commit failed".into());
            }
            Ok(())
        }

        fn abandon(self) {
            self.said.push("roll back".into());
        }

        fn failed(err: &String, (combat_id, _): (i64, i64)) -> ServiceError {
            ServiceError::InvalidInput(format!("{combat_id}: {err}"))
        }
    }

    fn group(fights: &[i64]) -> Vec<GroupWrite> {
        fights
            .iter()
            .map(|&combat_id| GroupWrite {
                combat_id,
                expected_version: 0,
                statements: Statements {
                    statements: Vec::new(),
                    expected: 0,
                },
                done: oneshot::channel().0,
            })
            .collect()
    }

    /// Each answer as text: `ok`, `stale 2`, or the error's message.
    fn answered(answers: Vec<Answer>) -> Vec<String> {
        answers
            .into_iter()
            .map(|(_, answer)| match answer {
                Ok(()) => "ok".to_owned(),
                Err(ServiceError::StaleCombat { combat_id, .. }) => format!("stale {combat_id}"),
                Err(ServiceError::InvalidInput(message)) => message,
                Err(other) => format!("{other}"),
            })
            .collect()
    }

    async fn run(txn: &mut Scripted, fights: &[i64]) -> Vec<String> {
        answered(write_group(Ok(txn), group(fights)).await)
    }

    #[tokio::test]
    async fn a_stale_write_is_rolled_back_to_its_savepoint_alone_and_the_group_commits() {
        let mut txn = Scripted {
            stale: vec![2],
            ..Scripted::default()
        };
        assert_eq!(run(&mut txn, &[1, 2, 3]).await, ["ok", "stale 2", "ok"]);
        assert_eq!(
            txn.said,
            [
                "savepoint 0",
                "write 1",
                "release",
                "savepoint 1",
                "write 2",
                "roll back to savepoint",
                "savepoint 2",
                "write 3",
                "release",
                "commit"
            ]
        );
    }

    #[tokio::test]
    async fn a_failed_commit_answers_every_write_with_it_and_a_stale_write_keeps_its_own_answer() {
        let mut txn = Scripted {
            stale: vec![1],
            commit_fails: true,
            ..Scripted::default()
        };
        assert_eq!(run(&mut txn, &[1, 2]).await, ["stale 1", "2: commit failed"]);
        assert_eq!(txn.said.last().map(String::as_str), Some("roll back"));
    }

    #[tokio::test]
    async fn a_failed_savepoint_answers_the_writes_not_reached_with_it() {
        let mut txn = Scripted {
            savepoint_fails: Some(1),
            ..Scripted::default()
        };
        assert_eq!(
            run(&mut txn, &[1, 2, 3]).await,
            ["1: savepoint failed", "2: savepoint failed", "3: savepoint failed"]
        );
        assert!(!txn.said.contains(&"write 2".to_owned()), "{:?}", txn.said);
    }

    #[tokio::test]
    async fn a_transaction_that_did_not_begin_answers_every_write_with_why() {
        let answers = write_group::<&mut Scripted>(Err("busy".into()), group(&[1, 2])).await;
        assert_eq!(answered(answers), ["1: busy", "2: busy"]);
    }
}
