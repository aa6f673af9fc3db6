//! Runs one test body against every backend: in-memory SQLite, a SQLite file (WAL, several
//! connections), and PostgreSQL in a database of its own.
//!
//! PostgreSQL is reached through `GOGOBEE_TEST_PG_URL` (default
//! `postgres://postgres@127.0.0.1:5432/test`); each test creates `gogobee_test_<unique>`
//! there and drops it afterwards, even when the body fails or panics.

use std::future::Future;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use sea_orm::{ConnectionTrait, Database};
use service::{Db, ServiceError};

/// Which database a test body runs against.
#[derive(Clone, Copy, Debug)]
pub enum Backend {
    SqliteMemory,
    SqliteFile,
    Postgres,
}

const DEFAULT_PG_ADMIN_URL: &str = "postgres://postgres@127.0.0.1:5432/test";

/// Declares, for each `name => body`, a module `name` with one `#[tokio::test]` per
/// backend, each calling `body(db)` on a fresh, migrated database.
macro_rules! on_every_backend {
    ($($name:ident => $body:path;)*) => {$(
        mod $name {
            use crate::common::{Backend, run};

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite_memory() {
                run(Backend::SqliteMemory, $body).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite_file() {
                run(Backend::SqliteFile, $body).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                run(Backend::Postgres, $body).await;
            }
        }
    )*};
}

/// A name no other test (in this or another process) is using.
fn unique_name() -> String {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!(
        "gogobee_test_{}_{}_{nanos}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

/// What to remove once the body has finished.
enum Cleanup {
    Nothing,
    Files(PathBuf),
    PgDatabase(PgDatabase),
}

impl Cleanup {
    async fn run(self) {
        match self {
            Cleanup::Nothing => {}
            Cleanup::Files(path) => {
                service::remove_sqlite_files(&path);
            }
            Cleanup::PgDatabase(database) => database.drop().await,
        }
    }
}

/// A fresh, empty PostgreSQL database of a test's own (not migrated yet).
pub struct PgDatabase {
    pub url: String,
    admin_url: String,
    name: String,
}

impl PgDatabase {
    /// Creates `gogobee_test_<unique>` on the server `GOGOBEE_TEST_PG_URL` names.
    pub async fn create() -> Self {
        let admin_url = std::env::var("GOGOBEE_TEST_PG_URL").unwrap_or_else(|_| DEFAULT_PG_ADMIN_URL.to_owned());
        let name = unique_name();
        let admin = Database::connect(admin_url.as_str()).await.unwrap_or_else(|err| {
            panic!(
                "PostgreSQL is not reachable at {admin_url} ({err}); start it, e.g. \
                 `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`, \
                 or set GOGOBEE_TEST_PG_URL"
            )
        });
        admin
            .execute_unprepared(&format!(r#"CREATE DATABASE "{name}""#))
            .await
            .expect("create the test database");
        admin.close().await.expect("close the admin connection");
        let base = admin_url.rsplit_once('/').map_or(admin_url.as_str(), |(base, _)| base);
        Self {
            url: format!("{base}/{name}"),
            admin_url,
            name,
        }
    }

    /// Drops it, whoever is still connected.
    pub async fn drop(self) {
        let admin = Database::connect(self.admin_url.as_str())
            .await
            .expect("connect to PostgreSQL to drop the test database");
        admin
            .execute_unprepared(&format!(r#"DROP DATABASE IF EXISTS "{}" WITH (FORCE)"#, self.name))
            .await
            .expect("drop the test database");
        admin.close().await.expect("close the admin connection");
    }
}

async fn open(backend: Backend) -> (Db, Cleanup) {
    match backend {
        Backend::SqliteMemory => {
            let db = Db::connect("sqlite::memory:").await.expect("open in-memory SQLite");
            (db, Cleanup::Nothing)
        }
        Backend::SqliteFile => {
            let path = std::env::temp_dir().join(format!("{}.db", unique_name()));
            let url = format!("sqlite://{}?mode=rwc", path.display());
            let db = Db::connect(&url).await.expect("open a SQLite file");
            (db, Cleanup::Files(path))
        }
        Backend::Postgres => {
            let database = PgDatabase::create().await;
            let db = Db::connect(&database.url).await.expect("open the test database");
            (db, Cleanup::PgDatabase(database))
        }
    }
}

/// Runs `body` on a fresh database of `backend`, then removes the database, then fails
/// the test if the body returned an error or panicked.
pub async fn run<F, Fut>(backend: Backend, body: F)
where
    F: FnOnce(Db) -> Fut,
    Fut: Future<Output = Result<(), ServiceError>> + Send + 'static,
{
    let (db, cleanup) = open(backend).await;
    let outcome = tokio::spawn(body(db.clone())).await;
    db.close().await.expect("close the test database");
    cleanup.run().await;
    match outcome {
        Ok(Ok(())) => {}
        Ok(Err(err)) => panic!("{backend:?}: {err}"),
        Err(join) => std::panic::resume_unwind(join.into_panic()),
    }
}
