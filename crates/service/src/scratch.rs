//! A unit test's own SQLite file: migrated, with a service and a campaign on it, removed with
//! its WAL when the test is done.

use std::path::PathBuf;

use chrono::{TimeZone, Utc};

use crate::{DateTimeUtc, Db, Service};

pub(crate) struct Scratch {
    pub path: PathBuf,
    pub db: Db,
    pub svc: Service,
    pub camp: i64,
    pub now: DateTimeUtc,
}

impl Scratch {
    /// A fresh file named after `name` and this process.
    pub async fn new(name: &str) -> Self {
        let path = std::env::temp_dir().join(format!("gogobee-{name}-{}.db", std::process::id()));
        crate::remove_sqlite_files(&path);
        let db = Db::connect(&format!("sqlite://{}?mode=rwc", path.display()))
            .await
            .expect("a SQLite file");
        let svc = Service::with_seed(db.clone(), 3);
        let now = Utc.with_ymd_and_hms(2026, 11, 29, 12, 0, 0).single().expect("a time");
        let camp = svc.campaign_for("guild", "setup", now).await.expect("a campaign").id;
        Self {
            path,
            db,
            svc,
            camp,
            now,
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        crate::remove_sqlite_files(&self.path);
    }
}
