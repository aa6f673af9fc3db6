//! GogoBee's persistence and service layer: the only crate that knows sea-orm.
//!
//! [`Db::connect`] opens the database named by a `DATABASE_URL` (SQLite by default,
//! PostgreSQL alike) and runs the `migration` crate's Migrator. The [`repo`] modules are
//! the queries; every command that changes a combat goes through
//! [`repo::combats::save_combat`] inside one [`Db::begin_write`] transaction, guarded by
//! the combat's `version` column.

mod db;
pub mod entity;
mod error;
pub mod repo;

pub use db::{Backend, DEFAULT_DATABASE_URL, Db};
pub use error::ServiceError;
/// Timestamps as the service stores them (UTC); the caller supplies `now`.
pub use sea_orm::prelude::DateTimeUtc;
/// A JSON value, for the JSON columns.
pub use sea_orm::prelude::Json;
