//! Where a repository function's statements run: through sea-orm, on the pool or in
//! a transaction; or, on a SQLite file, on connections of this process's own, on the caller's
//! thread — a read outside any transaction on the [`Reader`], a write of its own on the group
//! commit's connection (`writer::Writer::alone`), and every statement of a transaction
//! of its own there (`writer::Txn`: a fight's last command with its Hospital admissions and its
//! settlement, `crate::store`).
//!
//! Each of those took a round trip to sqlx's worker thread per statement (and sqlx's ping when
//! the connection went back to the pool); on the connection of the process's own a statement is
//! a call. A read in a transaction runs in it, so it sees that transaction's own writes.

use std::sync::MutexGuard;

use rusqlite::Connection;
use sea_orm::sea_query::{Asterisk, Expr, Func};
use sea_orm::{
    ActiveModelTrait, ConnectionTrait, DatabaseConnection, DatabaseTransaction, DbBackend, DbErr, EntityTrait,
    PrimaryKeyTrait, QuerySelect, QueryTrait, Select,
};
use serde::de::DeserializeOwned;

use crate::ServiceError;
use crate::reader::Reader;
use crate::writer::Txn;

/// Where a repository function's statements run: see the module's doc.
pub trait Access: Sync {
    type Conn: ConnectionTrait;

    /// The sea-orm connection the statements run on otherwise.
    fn sea_orm(&self) -> &Self::Conn;

    /// The service's database, when the statements run outside any transaction.
    fn outside(&self) -> Option<&crate::Db> {
        None
    }

    /// A SQLite file's reader, for reads outside a transaction.
    fn reader(&self) -> Option<&Reader> {
        self.outside().and_then(crate::Db::sqlite_reader)
    }

    /// The transaction of its own on a SQLite file's group commit connection the statements
    /// run in.
    fn alone(&self) -> Option<&Txn> {
        None
    }

    /// The connection of this process's own a read runs on, locked for it, if any.
    fn local(&self) -> Option<MutexGuard<'_, Connection>> {
        match self.alone() {
            Some(txn) => Some(txn.lock()),
            None => self.reader().map(Reader::lock),
        }
    }
}

impl Access for DatabaseConnection {
    type Conn = Self;

    fn sea_orm(&self) -> &Self {
        self
    }
}

impl Access for DatabaseTransaction {
    type Conn = Self;

    fn sea_orm(&self) -> &Self {
        self
    }
}

impl Access for crate::WriteTxn {
    type Conn = DatabaseTransaction;

    fn sea_orm(&self) -> &DatabaseTransaction {
        self
    }
}

impl Access for Txn {
    type Conn = DatabaseConnection;

    /// None: a statement sent through sea-orm panics ([`Txn`]).
    fn sea_orm(&self) -> &DatabaseConnection {
        self.disconnected()
    }

    fn alone(&self) -> Option<&Txn> {
        Some(self)
    }
}

/// Every row `select` selects.
pub(crate) async fn all<E, R>(db: &R, select: Select<E>) -> Result<Vec<E::Model>, DbErr>
where
    E: EntityTrait,
    E::Model: DeserializeOwned,
    R: Access,
{
    let local = db
        .local()
        .map(|conn| crate::reader::models::<E>(&conn, &select.clone().build(DbBackend::Sqlite)));
    match local {
        Some(read) => read,
        None => select.all(db.sea_orm()).await,
    }
}

/// The first row `select` selects, if any.
pub(crate) async fn one<E, R>(db: &R, select: Select<E>) -> Result<Option<E::Model>, DbErr>
where
    E: EntityTrait,
    E::Model: DeserializeOwned,
    R: Access,
{
    let local = db.local().map(|conn| {
        crate::reader::models::<E>(&conn, &select.clone().limit(1).build(DbBackend::Sqlite))
            .map(|models| models.into_iter().next())
    });
    match local {
        Some(read) => read,
        None => select.one(db.sea_orm()).await,
    }
}

/// How many rows `select` selects.
pub(crate) async fn count<E, R>(db: &R, select: Select<E>) -> Result<u64, DbErr>
where
    E: EntityTrait,
    E::Model: Sync,
    R: Access,
{
    let local = db.local().map(|conn| {
        let counted = select
            .clone()
            .select_only()
            .expr(Func::count(Expr::col(Asterisk)))
            .build(DbBackend::Sqlite);
        crate::reader::integer(&conn, &counted).map(|n| u64::try_from(n.unwrap_or(0)).unwrap_or(0))
    });
    match local {
        Some(read) => read,
        None => sea_orm::PaginatorTrait::count(select, db.sea_orm()).await,
    }
}

/// The integer the first column of `select`'s first row holds (a `select_only` of one
/// integer column), if it selects a row.
pub(crate) async fn integer<E: EntityTrait, R: Access>(db: &R, select: Select<E>) -> Result<Option<i64>, DbErr> {
    let local = db
        .local()
        .map(|conn| crate::reader::integer(&conn, &select.clone().limit(1).build(DbBackend::Sqlite)));
    match local {
        Some(read) => read,
        None => select.into_tuple::<i64>().one(db.sea_orm()).await,
    }
}

/// Runs `statement` (an insert, update or delete) where `db` writes: how many rows it touched,
/// and the id of the row it inserted last on this connection (SQLite's `last_insert_rowid`;
/// `None` through sea-orm).
async fn write<R: Access, Q: QueryTrait + Sync>(db: &R, statement: &Q) -> Result<(u64, Option<i64>), ServiceError> {
    let on = |conn: &Connection| {
        let built = statement.build(DbBackend::Sqlite);
        let values = built.values.unwrap_or(sea_orm::sea_query::Values(Vec::new()));
        crate::writer::execute(conn, &built.sql, &values)
            .map(|rows| (rows as u64, Some(conn.last_insert_rowid())))
            .map_err(|err| crate::writer::database_error(&err))
    };
    if let Some(txn) = db.alone() {
        return txn.run(on);
    }
    if let Some(writer) = db.outside().and_then(crate::Db::sqlite_writer) {
        return writer.alone(on).await;
    }
    let conn = db.sea_orm();
    let done = conn.execute_raw(statement.build(conn.get_database_backend())).await?;
    Ok((done.rows_affected(), None))
}

/// Runs `statement` (an update or a delete) where `db` writes: how many rows it touched.
pub(crate) async fn execute<R: Access, Q: QueryTrait + Sync>(db: &R, statement: &Q) -> Result<u64, ServiceError> {
    Ok(write(db, statement).await?.0)
}

/// Inserts `row` where `db` writes: its id.
pub(crate) async fn insert<A, R>(db: &R, row: A) -> Result<i64, ServiceError>
where
    A: ActiveModelTrait + Send + Sync,
    <A::Entity as EntityTrait>::PrimaryKey: PrimaryKeyTrait<ValueType = i64>,
    <A::Entity as EntityTrait>::Model: sea_orm::IntoActiveModel<A>,
    R: Access,
{
    if db.alone().is_some() || db.outside().and_then(crate::Db::sqlite_writer).is_some() {
        let (_, id) = write(db, &A::Entity::insert(row)).await?;
        return id.ok_or_else(|| ServiceError::InvalidInput("an insert gave no id".into()));
    }
    Ok(A::Entity::insert(row).exec(db.sea_orm()).await?.last_insert_id)
}

#[cfg(test)]
mod tests {
    use sea_orm::ActiveValue::Set;
    use sea_orm::EntityTrait;

    use crate::entity::homebrew;

    fn entry(camp: i64, key: &str, now: crate::DateTimeUtc) -> homebrew::ActiveModel {
        homebrew::ActiveModel {
            campaign_id: Set(camp),
            kind: Set("monster".into()),
            key: Set(key.into()),
            name: Set(key.into()),
            body: Set(String::new()),
            updated_at: Set(now),
            ..Default::default()
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_transaction_alone_keeps_its_writes_only_once_committed_and_reads_them_first() {
        let scratch = crate::scratch::Scratch::new("alone").await;
        let (db, camp, now) = (&scratch.db, scratch.camp, scratch.now);
        let writer = db.sqlite_writer().expect("a SQLite file has a group commit");
        let stored = || async { super::count(db, homebrew::Entity::find()).await.expect("a count") };

        let txn = writer.begin().await.expect("a transaction");
        let id = super::insert(&txn, entry(camp, "bear", now)).await.expect("an insert");
        let read = super::one(&txn, homebrew::Entity::find_by_id(id))
            .await
            .expect("a read");
        assert_eq!(
            read.map(|row| row.key),
            Some("bear".to_owned()),
            "a read in it sees its write"
        );
        drop(txn);
        assert_eq!(stored().await, 0, "dropped, it is rolled back");

        let txn = writer.begin().await.expect("a transaction (the gate was let go)");
        super::insert(&txn, entry(camp, "wolf", now)).await.expect("an insert");
        assert_eq!(stored().await, 0, "a read outside sees only what is committed");
        txn.commit().expect("a commit");
        assert_eq!(stored().await, 1);
    }
}
