//! GogoBee's database schema, as sea-orm-migration migrations.
//!
//! [`Migrator::up`] runs at startup. It is idempotent: applied migrations are
//! recorded in `seaql_migrations` and skipped, and every `CREATE` also says
//! `IF NOT EXISTS`. Each migration must run unchanged on SQLite and PostgreSQL,
//! so it uses only sea-query statements (no backend-specific SQL).

pub use sea_orm_migration::prelude::*;

mod m20261129_000001_create_tables;
mod m20261130_000001_one_active_combat_per_channel;
mod m20261201_000001_hospital_discharge_and_pending_timers;
mod m20261202_000001_shard_ownership;
mod m20261203_000001_turn_timeout_default;
mod m20261204_000018_integrity;
mod m20261204_000019_retention;
mod m20261205_000019_combat_starts;
mod m20261206_000013_combat_snapshots;
mod m20261206_000016_paused_fights;
mod m20261207_000012_interrupts_today;
mod m20261208_000020_character_names;
mod m20261209_000014_homebrew;
mod m20261209_000020_arena_duels;
mod m20261210_000013_one_timer_index;
mod m20261211_000013_log_guards_the_version;
mod m20261212_000013_hospital_latest;
mod m20261213_000013_packed_log;
mod m20261214_000013_campaign_map;

pub use m20261203_000001_turn_timeout_default::DEFAULT_TURN_TIMEOUT_SECS;
pub use m20261206_000016_paused_fights::MIN_TURN_TIMEOUT_SECS;

/// Every migration of the schema, oldest first.
pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20261129_000001_create_tables::Migration),
            Box::new(m20261130_000001_one_active_combat_per_channel::Migration),
            Box::new(m20261201_000001_hospital_discharge_and_pending_timers::Migration),
            Box::new(m20261202_000001_shard_ownership::Migration),
            Box::new(m20261203_000001_turn_timeout_default::Migration),
            Box::new(m20261204_000018_integrity::Migration),
            Box::new(m20261204_000019_retention::Migration),
            Box::new(m20261205_000019_combat_starts::Migration),
            Box::new(m20261206_000013_combat_snapshots::Migration),
            Box::new(m20261207_000012_interrupts_today::Migration),
            Box::new(m20261208_000020_character_names::Migration),
            Box::new(m20261206_000016_paused_fights::Migration),
            Box::new(m20261209_000020_arena_duels::Migration),
            Box::new(m20261209_000014_homebrew::Migration),
            Box::new(m20261210_000013_one_timer_index::Migration),
            Box::new(m20261211_000013_log_guards_the_version::Migration),
            Box::new(m20261212_000013_hospital_latest::Migration),
            Box::new(m20261213_000013_packed_log::Migration),
            Box::new(m20261214_000013_campaign_map::Migration),
        ]
    }
}
