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
