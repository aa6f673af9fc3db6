//! Repositories: the queries, one module per aggregate. Each function takes any sea-orm
//! connection (the pool or a transaction) unless it must run inside a transaction, in
//! which case it takes a [`sea_orm::DatabaseTransaction`]. A read made outside a transaction
//! on a hot path takes [`crate::access::Access`], which the [`crate::Db`] is too: on a SQLite
//! file it runs on the reader, on the command's own thread (see [`crate::reader`]).

pub mod campaigns;
pub mod characters;
pub mod combats;

use sea_orm::ColumnTrait;
use sea_orm::sea_query::{Expr, ExprTrait as _};

/// `column = 'value'` with the constant written into the SQL rather than bound, for a status
/// column that a partial index is built on (`WHERE status = 'active'`).
///
/// Without SQLite's query planner stability guarantee, SQLite decides whether such an index
/// applies by comparing the bound value with the index's `WHERE`, and so prepares the statement
/// anew (≈ 50 µs) every time the value is bound again, which is every execution. The service's
/// connections have the guarantee ([`crate::reader::plan_once`], and the bundled SQLite's build
/// flag for sqlx's); the constant keeps such a look-up planned once on any connection.
pub(crate) fn is<C: ColumnTrait>(column: C, value: &'static str) -> Expr {
    assert!(
        value.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'),
        "{value:?} is a status word, written into SQL as it is"
    );
    Expr::col(column.as_column_ref()).eq(Expr::cust(format!("'{value}'")))
}

#[cfg(test)]
mod tests {
    use rusqlite::StatementStatus;
    use rusqlite::config::DbConfig;
    use sea_orm::sea_query::Value;
    use sea_orm::{ColumnTrait, DbBackend, EntityTrait, QueryFilter, QueryTrait};

    use super::is;
    use crate::entity::combat::{Column, Entity as Combat};
    use crate::repo::combats::ACTIVE;

    /// How many times SQLite prepared `select` anew while running it for three channels, one
    /// prepared statement bound again each time (as the reader and sqlx's statement cache run it).
    fn preparations_anew(conn: &rusqlite::Connection, select: impl Fn(&str) -> sea_orm::Select<Combat>) -> i32 {
        let sql = select("").build(DbBackend::Sqlite).sql;
        let mut statement = conn.prepare(&sql).unwrap();
        for channel in ["one", "two", "three"] {
            let values = select(channel).build(DbBackend::Sqlite).values.expect("bound values");
            for (i, value) in values.0.iter().enumerate() {
                match value {
                    Value::Int(Some(n)) => statement.raw_bind_parameter(i + 1, n).unwrap(),
                    Value::BigInt(Some(n)) => statement.raw_bind_parameter(i + 1, n).unwrap(),
                    Value::String(Some(s)) => statement.raw_bind_parameter(i + 1, s.as_str()).unwrap(),
                    other => panic!("unexpected value {other:?}"),
                }
            }
            let mut rows = statement.raw_query();
            while rows.next().unwrap().is_some() {}
        }
        statement.get_status(StatementStatus::RePrepare)
    }

    #[tokio::test]
    async fn a_status_written_into_the_sql_is_planned_once_against_the_partial_index() {
        let path = std::env::temp_dir().join(format!("gogobee-repo-status-{}.db", std::process::id()));
        let remove = || crate::remove_sqlite_files(&path);
        remove();
        // The schema as migrated: `ux_combats_active_channel` is `WHERE status = 'active'`.
        let db = crate::Db::connect(&format!("sqlite://{}?mode=rwc", path.display()))
            .await
            .unwrap();
        db.close().await.unwrap();
        let in_channel = |channel: &str| {
            Combat::find()
                .filter(Column::CampaignId.eq(1))
                .filter(Column::ChannelId.eq(channel))
        };
        let mut counted = Vec::new();
        for guarantee in [false, true] {
            let conn = rusqlite::Connection::open(&path).unwrap();
            conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, guarantee)
                .unwrap();
            let bound = preparations_anew(&conn, |channel| in_channel(channel).filter(Column::Status.eq(ACTIVE)));
            let written = preparations_anew(&conn, |channel| in_channel(channel).filter(is(Column::Status, ACTIVE)));
            counted.push((bound, written));
        }
        remove();
        let (without, with) = (counted[0], counted[1]);
        assert!(
            without.0 >= 2,
            "without the guarantee a bound status is planned anew at each binding: {without:?}"
        );
        assert_eq!(without.1, 0, "a status written into the SQL is planned once");
        assert_eq!(with, (0, 0), "with the guarantee both are planned once");
    }

    #[test]
    #[should_panic(expected = "status word")]
    fn only_a_status_word_is_written_into_sql() {
        let _ = is(Column::Status, "active' OR 1=1 --");
    }
}
