//! A SQLite file's reads outside a transaction, on the command's own thread.
//!
//! sqlx's SQLite driver runs each statement on its connection's worker thread and answers
//! through a channel, then pings the connection on the worker again when it goes back to the
//! pool: two round trips between threads a read, 75–200 µs on this kind of virtual machine,
//! for a look-up SQLite answers in 5–20 µs. A fight's set-up (the heal, the spawn, the start and
//! its join, the ending) reads the channel's fight, the character, its Hospital record, whether
//! it fights elsewhere and the campaign's homebrew this way. Here those reads run on one
//! connection of this process's own (rusqlite, `query_only`), taken under a mutex for the
//! statement's few microseconds, with the statement prepared once.
//!
//! It reads what is committed, as the pool's connection does outside a transaction: each read
//! is a transaction of its own in WAL mode, which sees every commit made before it began (this
//! process's group commit, its sea-orm transactions, other processes). A read that must see a
//! transaction's own uncommitted writes is made inside it, never here: the
//! [`crate::access::Access`] of a transaction is the transaction. The rows a statement selects
//! become models the same way on the group commit's connection, in a transaction of its own
//! there (`models` takes the connection).
//!
//! A row becomes the entity's model through serde (the models read here derive `Deserialize`),
//! each value decoded as sqlx decodes it for the column's type as the entity declares it: a
//! unit test reads each kind of row both ways and compares.

use std::path::Path;
use std::str::FromStr;
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags, params_from_iter};
use sea_orm::sea_query::ColumnType;
use sea_orm::{ColumnTrait, DbErr, EntityTrait, Statement};
use serde::de::DeserializeOwned;
use serde_json::Value as Json;

use crate::writer::Bound;

/// Distinct statements kept prepared: the service's look-ups outside a transaction.
const PREPARED_STATEMENTS: usize = 64;

/// How long a read waits out a checkpoint or WAL recovery holding SQLite's read locks (rare:
/// readers never wait for writers in WAL mode).
const BUSY_FOR: Duration = Duration::from_secs(5);

/// A SQLite file's connection for reads outside a transaction (see the module's doc).
pub struct Reader {
    conn: Mutex<Connection>,
}

impl std::fmt::Debug for Reader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reader").finish_non_exhaustive()
    }
}

impl Reader {
    /// Opens `path` (already made a WAL database by the pool) for reading only.
    pub fn open(path: &Path) -> rusqlite::Result<Self> {
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(BUSY_FOR)?;
        conn.pragma_update(None, "query_only", true)?;
        plan_once(&conn)?;
        conn.set_prepared_statement_cache_capacity(PREPARED_STATEMENTS);
        Ok(Self { conn: Mutex::new(conn) })
    }

    /// How many times SQLite has prepared the reader's cached statement for `sql` anew.
    #[cfg(test)]
    fn prepared_anew(&self, sql: &str) -> i32 {
        let conn = self.conn.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let prepared = conn.prepare_cached(sql).expect("a statement the reader has run");
        prepared.get_status(rusqlite::StatementStatus::RePrepare)
    }

    /// The connection, for one statement.
    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Runs `statement` on `conn` and hands each row it selects to `each`, with the columns' names.
fn rows(
    conn: &Connection,
    statement: &Statement,
    mut each: impl FnMut(&[&str], &rusqlite::Row<'_>) -> Result<(), DbErr>,
) -> Result<(), DbErr> {
    let mut prepared = conn.prepare_cached(&statement.sql).map_err(|e| read_error(&e))?;
    let names: Vec<String> = prepared.column_names().into_iter().map(str::to_owned).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let values = statement.values.as_ref().map_or(&[][..], |v| &v.0[..]);
    let mut rows = prepared
        .query(params_from_iter(values.iter().map(Bound)))
        .map_err(|e| read_error(&e))?;
    while let Some(row) = rows.next().map_err(|e| read_error(&e))? {
        each(&names, row)?;
    }
    Ok(())
}

/// The rows `statement` selects on `conn` (the reader, or the group commit's connection in a
/// transaction of its own there), as `E`'s models.
pub(crate) fn models<E>(conn: &Connection, statement: &Statement) -> Result<Vec<E::Model>, DbErr>
where
    E: EntityTrait,
    E::Model: DeserializeOwned,
{
    let mut columns = Vec::new();
    let mut models = Vec::new();
    rows(conn, statement, |names, row| {
        if columns.is_empty() {
            for &name in names {
                let column = E::Column::from_str(name)
                    .map_err(|_| DbErr::Custom(format!("{name} is not a column of {}", E::default().as_str())))?;
                columns.push((name.to_owned(), column.def().get_column_type().clone()));
            }
        }
        let mut fields = serde_json::Map::new();
        for (i, (name, column)) in columns.iter().enumerate() {
            let value = row.get_ref(i).map_err(|e| read_error(&e))?;
            fields.insert(name.clone(), decoded(column, value, name)?);
        }
        let model = serde_json::from_value(Json::Object(fields))
            .map_err(|err| DbErr::Type(format!("a row of {}: {err}", E::default().as_str())))?;
        models.push(model);
        Ok(())
    })?;
    Ok(models)
}

/// The first column of the first row `statement` selects on `conn`, as an integer.
pub(crate) fn integer(conn: &Connection, statement: &Statement) -> Result<Option<i64>, DbErr> {
    let mut first = None;
    rows(conn, statement, |_, row| {
        if first.is_none() {
            first = Some(row.get(0).map_err(|e| read_error(&e))?);
        }
        Ok(())
    })?;
    Ok(first)
}

/// Makes `conn` plan each statement once, whatever values are bound to it (SQLite's query
/// planner stability guarantee).
///
/// Otherwise SQLite reads a bound value while planning wherever it may change the plan — the
/// `LIMIT ?` of every sea-orm look-up of one row among them — and then marks the prepared
/// statement expired as soon as that parameter is bound again, which is every execution: each
/// look-up parsed and planned its statement anew (≈ 30–50 µs, against ≈ 5–20 µs for the look-up
/// itself). A status a partial index is built on is written into the SQL for the same reason
/// ([`crate::repo::is`]): with the guarantee a bound value cannot choose that index at all.
pub(crate) fn plan_once(conn: &Connection) -> rusqlite::Result<()> {
    conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)?;
    Ok(())
}

fn read_error(err: &rusqlite::Error) -> DbErr {
    DbErr::Custom(format!("SQLite reader: {err}"))
}

/// A stored value as the model's field reads it, decoded as sqlx decodes it for the entity's
/// column type: booleans from 0 and 1, JSON from its text, UTC times from RFC 3339 (or SQLite's
/// `YYYY-MM-DD HH:MM:SS`, taken as UTC), bytes as the array of them a `Vec<u8>` reads; integers,
/// reals and text as they are.
fn decoded(column: &ColumnType, value: ValueRef<'_>, name: &str) -> Result<Json, DbErr> {
    let wrong = || DbErr::Type(format!("column {name}: {column:?} cannot hold {:?}", value.data_type()));
    let text = |bytes: &[u8]| std::str::from_utf8(bytes).map(str::to_owned).map_err(|_| wrong());
    Ok(match (column, value) {
        (_, ValueRef::Null) => Json::Null,
        (ColumnType::Boolean, ValueRef::Integer(i)) => Json::Bool(i != 0),
        (ColumnType::Json | ColumnType::JsonBinary, ValueRef::Text(t)) => {
            serde_json::from_slice(t).map_err(|_| wrong())?
        }
        (ColumnType::TimestampWithTimeZone, ValueRef::Text(t)) => Json::String(
            utc(&text(t)?)
                .ok_or_else(wrong)?
                .to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true),
        ),
        (ColumnType::Boolean | ColumnType::Json | ColumnType::JsonBinary | ColumnType::TimestampWithTimeZone, _) => {
            return Err(wrong());
        }
        (_, ValueRef::Integer(i)) => Json::from(i),
        (_, ValueRef::Real(r)) => Json::from(r),
        (_, ValueRef::Text(t)) => Json::String(text(t)?),
        (ColumnType::Blob | ColumnType::Binary(_) | ColumnType::VarBinary(_), ValueRef::Blob(bytes)) => {
            Json::Array(bytes.iter().map(|&byte| Json::from(byte)).collect())
        }
        (_, ValueRef::Blob(_)) => return Err(wrong()),
    })
}

/// A stored UTC time: RFC 3339 (as sqlx and the group commit write it), or SQLite's own
/// `YYYY-MM-DD HH:MM:SS[.fff]` (`CURRENT_TIMESTAMP`), which is UTC.
fn utc(text: &str) -> Option<chrono::DateTime<chrono::Utc>> {
    chrono::DateTime::parse_from_rfc3339(text)
        .map(|at| at.to_utc())
        .or_else(|_| chrono::DateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S%.f%#z").map(|at| at.to_utc()))
        .or_else(|_| chrono::NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S%.f").map(|at| at.and_utc()))
        .ok()
}

#[cfg(test)]
mod tests {
    use sea_orm::ActiveValue::Set;
    use sea_orm::{ActiveModelTrait, ConnectionTrait, EntityTrait, Select};
    use serde::de::DeserializeOwned;

    use crate::Db;
    use crate::access::Access;
    use crate::entity::{
        arena_duel, campaign, character, combat, combat_event, combat_snapshot, combatant, expedition, homebrew,
        hospital_record,
    };

    /// Reads every row of `E` on the reader and through sea-orm, and compares.
    async fn both_ways<E>(db: &Db, select: impl Fn() -> Select<E>) -> usize
    where
        E: EntityTrait,
        E::Model: DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        let read = crate::access::all(db, select()).await.expect("the reader reads them");
        let sea_orm = select().all(db.conn()).await.expect("sea-orm reads them");
        assert_eq!(read, sea_orm);
        let first = crate::access::one(db, select()).await.expect("the reader reads one");
        assert_eq!(first.as_ref(), sea_orm.first());
        read.len()
    }

    #[allow(clippy::too_many_lines, reason = "one comparison per kind of row the reader reads")]
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_reader_reads_each_kind_of_row_as_sea_orm_reads_it() {
        let scratch = crate::scratch::Scratch::new("reader").await;
        let (db, svc, camp, now) = (scratch.db.clone(), &scratch.svc, scratch.camp, scratch.now);
        assert!(
            db.reader().is_some(),
            "a SQLite file's reads outside a transaction run on its reader"
        );
        // Characters (JSON columns, nullable ones), a fight (its row from the group commit's
        // transaction), Hospital records with every nullable column empty and set, homebrew.
        svc.create_character(camp, "p1", "Ana", "dwarf", "fighter", now)
            .await
            .expect("a character");
        let bo = svc
            .create_character(camp, "p2", "Bo", "elf", "wizard", now)
            .await
            .expect("a character");
        svc.gm_spawn(camp, "channel", "giant rat", 2, now)
            .await
            .expect("a fight");
        svc.join_combat(camp, "channel", "p1", now).await.expect("Ana joins");
        for (paid, ends) in [(false, None), (true, Some(now + chrono::Duration::hours(8)))] {
            hospital_record::ActiveModel {
                character_id: Set(bo.character_id),
                player_id: Set("p2".into()),
                admitted_at: Set(now),
                fee: Set(120),
                fee_paid: Set(paid),
                paid_at: Set(ends.map(|_| now)),
                recovery_ends: Set(ends),
                zone_died_in: Set("Sunken Crypt".into()),
                expedition_id: Set(None),
                death_saves: Set(serde_json::json!({"successes": 1, "failures": 3})),
                discharged_at: Set(None),
                ..Default::default()
            }
            .insert(db.conn())
            .await
            .expect("a Hospital record");
        }
        homebrew::ActiveModel {
            campaign_id: Set(camp),
            kind: Set("monster".into()),
            key: Set("cave bear".into()),
            name: Set("Cave Bear".into()),
            body: Set("[[monster]]\nname = \"Cave Bear\" # ünïcode\n".into()),
            updated_at: Set(now),
            ..Default::default()
        }
        .insert(db.conn())
        .await
        .expect("a homebrew entry");
        // Expeditions and arena duels (what a fight's settlement reads), nullable columns empty
        // and set.
        for (status, ended) in [("active", None), ("abandoned", Some(now))] {
            expedition::ActiveModel {
                character_id: Set(bo.character_id),
                zone: Set("Sunken Crypt".into()),
                room: Set(2),
                status: Set(status.into()),
                harvested_materials: Set(serde_json::json!(["Rat Tail"])),
                started_at: Set(now),
                ended_at: Set(ended),
                ..Default::default()
            }
            .insert(db.conn())
            .await
            .expect("an expedition");
            arena_duel::ActiveModel {
                campaign_id: Set(camp),
                channel_id: Set("arena".into()),
                challenger_id: Set(bo.character_id),
                challenged_id: Set(bo.character_id),
                status: Set(status.into()),
                combat_id: Set(ended.map(|_| 1)),
                winner_id: Set(ended.map(|_| bo.character_id)),
                created_at: Set(now),
                ended_at: Set(ended),
                ..Default::default()
            }
            .insert(db.conn())
            .await
            .expect("a duel");
        }
        // A time as SQLite's own CURRENT_TIMESTAMP writes it.
        db.conn()
            .execute_unprepared("UPDATE homebrew SET updated_at = '2026-11-29 12:34:56'")
            .await
            .expect("an update");

        assert_eq!(both_ways(&db, campaign::Entity::find).await, 1);
        assert_eq!(both_ways(&db, character::Entity::find).await, 2);
        assert_eq!(both_ways(&db, combat::Entity::find).await, 1);
        assert_eq!(both_ways(&db, hospital_record::Entity::find).await, 2);
        assert_eq!(both_ways(&db, homebrew::Entity::find).await, 1);
        assert_eq!(both_ways(&db, expedition::Entity::find).await, 2);
        assert_eq!(both_ways(&db, arena_duel::Entity::find).await, 2);
        assert_eq!(both_ways(&db, combatant::Entity::find).await, 3, "two rats and Ana");
        assert_eq!(both_ways(&db, combat_snapshot::Entity::find).await, 1);
        assert!(
            both_ways(&db, combat_event::Entity::find).await >= 1,
            "Ana's join is logged"
        );
        // A fight loaded on the reader is the fight loaded through sea-orm.
        let (read, sea_orm) = (
            crate::store::load(&db, 1).await.expect("the fight, on the reader"),
            crate::store::load(db.conn(), 1)
                .await
                .expect("the fight, through sea-orm"),
        );
        assert_eq!(
            (
                read.version,
                &read.characters,
                read.readied_rows,
                read.turn_timeout_secs
            ),
            (
                sea_orm.version,
                &sea_orm.characters,
                sea_orm.readied_rows,
                sea_orm.turn_timeout_secs
            )
        );
        assert_eq!(
            serde_json::to_value(&*read.combat).expect("a fight"),
            serde_json::to_value(&*sea_orm.combat).expect("a fight")
        );
        let version = crate::repo::combats::version(&db, 1)
            .await
            .expect("the fight's version");
        assert_eq!(
            version,
            crate::repo::combats::version(db.conn(), 1).await.expect("its version")
        );
        assert!(version > 0, "Ana's join was logged: {version}");
        let fights = crate::repo::combats::count_in_campaign(&db, camp)
            .await
            .expect("a count");
        assert_eq!(
            (
                fights,
                crate::repo::combats::count_in_campaign(db.conn(), camp).await.ok()
            ),
            (1, Some(1))
        );
        assert_eq!(
            crate::repo::combats::count_in_campaign(&db, camp + 1).await.ok(),
            Some(0)
        );
        let ana = crate::repo::characters::for_player(&db, camp, "p1")
            .await
            .expect("a look-up")
            .expect("Ana");
        let bo = crate::repo::characters::for_player(&db, camp, "p2")
            .await
            .expect("a look-up")
            .expect("Bo");
        assert_eq!(
            crate::repo::combats::active_combat(&db, &ana).await.expect("a look-up"),
            Some(1),
            "the reader sees the join the group commit wrote"
        );
        assert_eq!(
            crate::repo::combats::active_combat(db.conn(), &ana).await.ok(),
            Some(Some(1))
        );
        assert!(
            !crate::repo::combats::in_active_combat(&db, &bo)
                .await
                .expect("a look-up")
        );
        db.close().await.expect("close");
    }

    #[test]
    fn every_connection_to_the_bundled_sqlite_plans_once_sqlx_s_too() {
        let conn = rusqlite::Connection::open_in_memory().expect("a connection");
        assert!(
            conn.db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG)
                .expect("the setting"),
            "SQLite is built without SQLITE_ENABLE_QPSG (.cargo/config.toml sets LIBSQLITE3_FLAGS)"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_look_up_of_one_row_is_planned_once_whatever_it_is_bound_to() {
        use sea_orm::{ColumnTrait, QueryFilter, QuerySelect, QueryTrait};
        let scratch = crate::scratch::Scratch::new("reader-plans").await;
        let (db, svc, camp, now) = (scratch.db.clone(), &scratch.svc, scratch.camp, scratch.now);
        let reader = db.reader().expect("a SQLite file has a reader");
        // `LIMIT ?` (sea-orm's `one`) with other players each time, and writes in between.
        for (player, name) in [("p1", "Ana"), ("p2", "Bo"), ("p3", "Cy")] {
            svc.create_character(camp, player, name, "dwarf", "fighter", now)
                .await
                .expect("a character");
            for asked in ["p1", "p2", "p3"] {
                crate::repo::characters::for_player(&db, camp, asked)
                    .await
                    .expect("a look-up");
            }
        }
        let sql = character::Entity::find()
            .filter(character::Column::CampaignId.eq(camp))
            .filter(character::Column::PlayerId.eq("p1"))
            .limit(1)
            .build(sea_orm::DbBackend::Sqlite)
            .sql;
        assert_eq!(reader.prepared_anew(&sql), 0, "{sql}");
        db.close().await.expect("close");
    }
}
