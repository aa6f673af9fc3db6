//! GogoBee's persistence and service layer: the only crate that knows sea-orm.
//!
//! [`Db::connect`] opens the database named by a `DATABASE_URL` (SQLite by default,
//! PostgreSQL alike) and runs the `migration` crate's Migrator. [`Service`] has one function
//! per player or GM command (characters, expeditions, combat, GM tools, `/roll`); it keeps
//! active combats in memory with one writer per combat, and writes each combat command as
//! ONE transaction guarded by its log entry's key (see `store`); on a SQLite file and on
//! PostgreSQL those transactions are group commits (`writer`, `pg_writer`). The [`repo`]
//! modules are the queries; `settle` is what the commands share below them (a death's
//! admission, a fight's and a duel's settlement, the rules two commands both need). The
//! [`scheduler`] fires the `timers` table's rows (reaction timeouts, recovery rests) exactly
//! once across processes, each process only those of the guilds its Discord shards own
//! ([`Shards`]); `cmd::hospital` is `/hospital` (seed 000 §8).

pub mod access;
pub mod baseline;
pub mod cmd;
mod convert;
mod db;
pub mod entity;
mod error;
pub mod goods;
mod group;
mod notice;
mod pg_writer;
pub mod reader;
pub mod replay;
pub mod repo;
pub mod scheduler;
#[cfg(test)]
mod scratch;
mod service;
mod settle;
mod shards;
mod store;
mod writer;
pub use group::GroupCommitCounts;

pub use cmd::combat::PlayerCommand;
pub use cmd::expedition::{ExpeditionView, RoomEntered};
pub use cmd::hospital::{HospitalView, Paid, Payment};
pub use cmd::roll::Rolled;
pub use convert::{InterruptsToday, Pack};
pub use db::{
    Backend, DEFAULT_DATABASE_URL, Db, MIGRATION_LOCK, SQLITE_PAGE_SIZE, WriteTxn, backup_sqlite, remove_sqlite_files,
};
pub use error::{ServiceError, database_errors};
pub use notice::Notice;
pub use scheduler::{Fired, TurnTimedOut, worker_id};
/// Timestamps as the service stores them (UTC); the caller supplies `now`.
pub use sea_orm::prelude::DateTimeUtc;
/// A JSON value, for the JSON columns.
pub use sea_orm::prelude::Json;
pub use service::{CombatUpdate, Service};
pub use settle::fight::{Settled, Share};
pub use settle::hospital::{Admission, RECOVERY_REST};
pub use settle::sheet::{Inventory, Sheet};
pub use shards::{Shards, ShardsError, shard_key};
pub use store::{COMBAT_TIMER, REACTION_TIMEOUT, TURN_TIMEOUT};
