//! The Migrator on an in-memory SQLite database: up is idempotent, down undoes up.
//! (The service crate's suite runs the same migrations on PostgreSQL too.)

use migration::{Migrator, MigratorTrait};
use sea_orm_migration::sea_orm::{ConnectOptions, Database, DatabaseConnection, DbErr};

async fn memory() -> Result<DatabaseConnection, DbErr> {
    // An in-memory SQLite database lives per connection: keep exactly one.
    let mut options = ConnectOptions::new("sqlite::memory:");
    options.max_connections(1).min_connections(1);
    Database::connect(options).await
}

#[tokio::test]
async fn up_twice_is_a_no_op_the_second_time() -> Result<(), DbErr> {
    let db = memory().await?;
    Migrator::up(&db, None).await?;
    Migrator::up(&db, None).await?;
    assert!(Migrator::get_pending_migrations(&db).await?.is_empty());
    assert_eq!(
        Migrator::get_applied_migrations(&db).await?.len(),
        Migrator::migrations().len()
    );
    Ok(())
}

#[tokio::test]
async fn down_then_up_rebuilds_the_schema() -> Result<(), DbErr> {
    let db = memory().await?;
    Migrator::up(&db, None).await?;
    Migrator::down(&db, None).await?;
    assert_eq!(
        Migrator::get_pending_migrations(&db).await?.len(),
        Migrator::migrations().len()
    );
    Migrator::up(&db, None).await?;
    assert!(Migrator::get_pending_migrations(&db).await?.is_empty());
    Ok(())
}

/// Upgrading a database with campaigns and pending timers: the shard keys and the timers'
/// campaigns are filled in (a rest names its campaign; a reaction timeout, its combat's).
#[tokio::test]
async fn shard_ownership_backfills_existing_rows() -> Result<(), DbErr> {
    use sea_orm_migration::sea_orm::ConnectionTrait;
    let db = memory().await?;
    Migrator::up(&db, Some(migrations_before("m20261202_000001_shard_ownership"))).await?;
    let at = "'2026-01-01T00:00:00Z'";
    for sql in [
        format!(
            "INSERT INTO campaigns (id, guild_id, created_at) VALUES (1, '81384788765712384', {at}), (2, 'dm-9', {at})"
        ),
        format!(
            "INSERT INTO combats (id, campaign_id, channel_id, seed, state, created_at, updated_at) VALUES (7, 2, 'c', 1, '{{}}', {at}, {at})"
        ),
        format!(
            "INSERT INTO timers (id, kind, due_at, payload) VALUES \
             (1, 'recovery_rest', {at}, '{{\"campaign_id\": 1}}'), \
             (2, 'reaction_timeout', {at}, '{{\"combat_id\": 7}}'), \
             (3, 'mystery', {at}, '{{}}')"
        ),
    ] {
        db.execute_unprepared(&sql).await?;
    }
    Migrator::up(&db, None).await?;
    let pairs = |sql: &'static str| {
        let db = &db;
        async move {
            let rows = db
                .query_all_raw(sea_orm_migration::sea_orm::Statement::from_string(
                    db.get_database_backend(),
                    sql,
                ))
                .await?;
            rows.iter()
                .map(|r| Ok((r.try_get_by_index::<i64>(0)?, r.try_get_by_index::<Option<i64>>(1)?)))
                .collect::<Result<Vec<_>, DbErr>>()
        }
    };
    assert_eq!(
        pairs("SELECT id, shard_key FROM campaigns ORDER BY id").await?,
        [(1, Some(19_403_645_698)), (2, None)]
    );
    assert_eq!(
        pairs("SELECT id, campaign_id FROM timers ORDER BY id").await?,
        [(1, Some(1)), (2, Some(2)), (3, None)]
    );
    Ok(())
}

/// How many migrations come before the one called `name`.
fn migrations_before(name: &str) -> u32 {
    let at = Migrator::migrations()
        .iter()
        .position(|m| m.name() == name)
        .expect("a migration of that name");
    u32::try_from(at).expect("a few migrations")
}

/// Upgrading a database whose campaigns never set a turn timeout: they get the default; one
/// set (even to 0, off) keeps its value.
#[tokio::test]
async fn turn_timeout_default_backfills_unset_campaigns() -> Result<(), DbErr> {
    use sea_orm_migration::sea_orm::ConnectionTrait;
    let db = memory().await?;
    Migrator::up(&db, Some(migrations_before("m20261203_000001_turn_timeout_default"))).await?;
    db.execute_unprepared(
        "INSERT INTO campaigns (id, guild_id, created_at, turn_timeout_secs) VALUES \
         (1, 'g1', '2026-01-01T00:00:00Z', NULL), (2, 'g2', '2026-01-01T00:00:00Z', 0), \
         (3, 'g3', '2026-01-01T00:00:00Z', 90)",
    )
    .await?;
    Migrator::up(&db, None).await?;
    let rows = db
        .query_all_raw(sea_orm_migration::sea_orm::Statement::from_string(
            db.get_database_backend(),
            "SELECT id, turn_timeout_secs FROM campaigns ORDER BY id",
        ))
        .await?;
    let pairs = rows
        .iter()
        .map(|r| Ok((r.try_get_by_index::<i64>(0)?, r.try_get_by_index::<Option<i32>>(1)?)))
        .collect::<Result<Vec<_>, DbErr>>()?;
    assert_eq!(
        pairs,
        [
            (1, Some(migration::DEFAULT_TURN_TIMEOUT_SECS)),
            (2, Some(0)),
            (3, Some(90))
        ]
    );
    Ok(())
}

/// Upgrading a database the old check-then-insert races left doubled: the newest
/// active expedition of a character stays active (the older are marked left) and one debt per
/// admission stays, so the unique indexes build; afterwards a second active expedition is refused.
#[tokio::test]
async fn integrity_folds_what_the_races_doubled() -> Result<(), DbErr> {
    use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend, Statement};
    let db = memory().await?;
    Migrator::up(&db, Some(migrations_before("m20261204_000018_integrity"))).await?;
    let at = "'2026-01-01T00:00:00Z'";
    for sql in [
        format!("INSERT INTO campaigns (id, guild_id, created_at) VALUES (1, 'g', {at})"),
        format!(
            "INSERT INTO characters (id, campaign_id, player_id, name, race, class, level, xp, coins, hp, max_hp, \
             inventory, gear, arena_streak, created_at) VALUES (1, 1, 'p', 'Aria', 'Human', 'Fighter', 1, 0, 20, 0, 12, \
             '{{}}', '{{}}', 0, {at})"
        ),
        format!(
            "INSERT INTO expeditions (id, character_id, zone, room, status, harvested_materials, started_at) VALUES \
             (1, 1, 'Forest of Shadows', 0, 'active', '[]', {at}), (2, 1, 'Sunken Temple', 0, 'active', '[]', {at}), \
             (3, 1, 'Haunted Manor', 0, 'active', '[]', {at}), (4, 1, 'Underdark', 3, 'completed', '[]', {at})"
        ),
        format!(
            "INSERT INTO hospital_records (id, character_id, player_id, admitted_at, fee, fee_paid, zone_died_in, \
             death_saves) VALUES (7, 1, 'p', {at}, 8, false, 'none', '{{}}')"
        ),
        format!(
            "INSERT INTO debts (id, character_id, hospital_record_id, amount, created_at) VALUES \
             (1, 1, 7, 8, {at}), (2, 1, 7, 8, {at}), (3, 1, NULL, 5, {at})"
        ),
    ] {
        db.execute_unprepared(&sql).await?;
    }
    Migrator::up(&db, None).await?;
    let rows = |sql: &str| db.query_all_raw(Statement::from_string(DbBackend::Sqlite, sql.to_owned()));
    let statuses: Vec<(i64, String)> = rows("SELECT id, status FROM expeditions ORDER BY id")
        .await?
        .iter()
        .map(|r| (r.try_get("", "id").unwrap(), r.try_get("", "status").unwrap()))
        .collect();
    let expected = [(1, "left"), (2, "left"), (3, "active"), (4, "completed")].map(|(i, s)| (i, s.to_owned()));
    assert_eq!(statuses, expected);
    let debts: Vec<i64> = rows("SELECT id FROM debts ORDER BY id")
        .await?
        .iter()
        .map(|r| r.try_get("", "id").unwrap())
        .collect();
    assert_eq!(debts, vec![1, 3]);
    let again = format!(
        "INSERT INTO expeditions (character_id, zone, room, status, harvested_materials, started_at) VALUES \
         (1, 'Underforge', 0, 'active', '[]', {at})"
    );
    assert!(
        db.execute_unprepared(&again).await.is_err(),
        "a second active expedition"
    );
    Ok(())
}
