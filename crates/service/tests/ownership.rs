//! Several processes on one database: each claims only the timers of the guilds its Discord
//! shards own (on every backend), and migrations run under a lock, one process at a time
//! (PostgreSQL's advisory lock, tested against a session holding it).

#[macro_use]
mod common;

use std::time::Duration as StdDuration;

use chrono::{Duration, TimeZone, Utc};
use sea_orm::{
    ActiveValue::Set, ConnectOptions, ConnectionTrait, Database, DbBackend, EntityTrait, QueryOrder, Statement,
};
use service::entity::timer;
use service::repo::campaigns;
use service::{DateTimeUtc, Db, MIGRATION_LOCK, Service, ServiceError, Shards};

on_every_backend! {
    each_process_fires_only_the_timers_of_its_shards => crate::each_process_fires_only_the_timers_of_its_shards;
}

fn now() -> DateTimeUtc {
    Utc.with_ymd_and_hms(2026, 12, 2, 12, 0, 0).unwrap()
}

/// A guild snowflake on `shard` of `count` (Discord shards on `(id >> 22) % count`).
fn guild_on(shard: u64, count: u64, n: u64) -> String {
    (((400_000_000_000 * count + shard) << 22) | n).to_string()
}

async fn each_process_fires_only_the_timers_of_its_shards(db: Db) -> Result<(), ServiceError> {
    let conn = db.conn();
    let mut owners = Vec::new();
    // Guilds on shard 0 and 1 of 2, a DM "guild" (shard 0), and a timer with no campaign.
    for (guild, owner) in [
        (guild_on(0, 2, 1), "first"),
        (guild_on(1, 2, 2), "second"),
        (guild_on(1, 2, 3), "second"),
        ("dm-77".to_owned(), "first"),
    ] {
        let campaign = campaigns::get_or_create(conn, &guild, None, now()).await?;
        assert_eq!(campaign.shard_key, service::shard_key(&guild), "{guild}");
        owners.push((Some(campaign.id), owner));
    }
    owners.push((None, "first"));
    let due = now() - Duration::seconds(1);
    for (i, (campaign, _)) in owners.iter().enumerate() {
        timer::Entity::insert(timer::ActiveModel {
            kind: Set("probe".into()),
            // Staggered, so each process's next timer is its own earliest.
            due_at: Set(due + Duration::milliseconds(i as i64)),
            payload: Set(serde_json::json!({})),
            campaign_id: Set(*campaign),
            ..Default::default()
        })
        .exec(conn)
        .await?;
    }
    let first = Service::new(db.clone()).owning(Shards::new([0], 2).expect("shard 0 of 2"));
    let second = Service::new(db.clone()).owning(Shards::new([1], 2).expect("shard 1 of 2"));
    let everyone = Service::new(db.clone());
    assert_eq!(everyone.next_timer_due().await?, Some(due));
    assert_eq!(first.next_timer_due().await?, Some(due));
    assert_eq!(second.next_timer_due().await?, Some(due + Duration::milliseconds(1)));

    // Both fire at once; each takes its own and nothing else.
    let (a, b) = tokio::join!(
        first.fire_due_timers(now(), "first"),
        second.fire_due_timers(now(), "second")
    );
    let (_, _) = (a?, b?);
    let rows = timer::Entity::find().order_by_asc(timer::Column::Id).all(conn).await?;
    let claimed: Vec<Option<&str>> = rows.iter().map(|t| t.claimed_by.as_deref()).collect();
    let expected: Vec<Option<&str>> = owners.iter().map(|(_, owner)| Some(*owner)).collect();
    assert_eq!(claimed, expected);
    assert!(rows.iter().all(|t| t.fired_at.is_some()));
    assert_eq!(first.next_timer_due().await?, None);
    assert_eq!(second.next_timer_due().await?, None);
    Ok(())
}

/// Another process holds the migration lock: `Db::connect` waits for it, then migrates.
/// Several processes starting together all come up, and each migration is applied once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_migrations_wait_for_the_advisory_lock() {
    let database = common::PgDatabase::create().await;
    let url = database.url.clone();
    let outcome = tokio::spawn({
        let url = url.clone();
        async move {
            // One connection, so the lock and the unlock are in the same session.
            let mut one = ConnectOptions::new(url.as_str());
            one.max_connections(1).min_connections(1);
            let holder = Database::connect(one).await.expect("a session");
            let lock = |function: &str| {
                Statement::from_sql_and_values(
                    DbBackend::Postgres,
                    format!("SELECT {function}($1)"),
                    [MIGRATION_LOCK.into()],
                )
            };
            holder.execute_raw(lock("pg_advisory_lock")).await.expect("lock");
            let waiting = tokio::spawn({
                let url = url.clone();
                async move { Db::connect(&url).await }
            });
            tokio::time::sleep(StdDuration::from_millis(700)).await;
            assert!(
                !waiting.is_finished(),
                "migrations ran while another process held the lock"
            );
            let tables = holder
                .query_all_raw(Statement::from_string(
                    DbBackend::Postgres,
                    "SELECT 1 FROM information_schema.tables WHERE table_name = 'campaigns'",
                ))
                .await
                .expect("information_schema");
            assert!(tables.is_empty(), "nothing was created before the lock was released");
            holder.execute_raw(lock("pg_advisory_unlock")).await.expect("unlock");
            let db = tokio::time::timeout(StdDuration::from_secs(20), waiting)
                .await
                .expect("migrated once the lock was free")
                .expect("the task")
                .expect("Db::connect");
            db.close().await.expect("close");

            // Four at once on an already migrated database, and the lock is free afterwards.
            let starts: Vec<_> = (0..4)
                .map(|_| {
                    let url = url.clone();
                    tokio::spawn(async move { Db::connect(&url).await })
                })
                .collect();
            for start in starts {
                start
                    .await
                    .expect("the task")
                    .expect("Db::connect")
                    .close()
                    .await
                    .expect("close");
            }
            let free = holder
                .query_one_raw(lock("pg_try_advisory_lock"))
                .await
                .expect("try lock")
                .expect("a row")
                .try_get_by_index::<bool>(0)
                .expect("a bool");
            assert!(free, "the migration lock was released");
            let applied = holder
                .query_one_raw(Statement::from_string(
                    DbBackend::Postgres,
                    "SELECT count(*) FROM seaql_migrations",
                ))
                .await
                .expect("seaql_migrations")
                .expect("a row")
                .try_get_by_index::<i64>(0)
                .expect("a count");
            assert_eq!(
                usize::try_from(applied).unwrap(),
                <migration::Migrator as migration::MigratorTrait>::migrations().len()
            );
            holder.close().await.expect("close");
        }
    })
    .await;
    database.drop().await;
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic.into_panic());
    }
}

/// Several processes starting together on a fresh PostgreSQL database: one migrates, the
/// others wait and find nothing to do — none fails on a half-created schema.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_processes_starting_together_all_come_up() {
    let database = common::PgDatabase::create().await;
    let url = database.url.clone();
    let starts: Vec<_> = (0..4)
        .map(|_| {
            let url = url.clone();
            tokio::spawn(async move { Db::connect(&url).await })
        })
        .collect();
    let mut failures = Vec::new();
    for start in starts {
        match start.await.expect("the task") {
            Ok(db) => db.close().await.expect("close"),
            Err(err) => failures.push(err.to_string()),
        }
    }
    database.drop().await;
    assert!(failures.is_empty(), "{failures:?}");
}
