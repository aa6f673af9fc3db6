//! A fight read back from its rows (its latest snapshot and the commands logged after it
//! re-applied) and a new fight's first rows.

use sea_orm::sea_query::{PostgresQueryBuilder, Query, SqliteQueryBuilder};
use sea_orm::{ColumnTrait, ConnectionTrait, DatabaseTransaction, DbBackend, EntityTrait, QueryFilter, QueryOrder};

use crate::entity::{combat, combat_event, combat_snapshot, combatant, readied_action};
use crate::group::Prepared;
use engine::{Combatant, Terrain};

use crate::{DateTimeUtc, ServiceError};

use super::rows::Batch;
use super::{Before, Live, Logged};
use crate::db::is_unique_violation;

/// Tries at reading a fight's row, snapshot and log consistently while other processes write it.
pub(super) const LOAD_ATTEMPTS: usize = 8;

/// A fight's state as of its row's version: its latest snapshot at or before that version, and
/// the commands logged after it re-applied ([`Live::replay`]). Returns the row (read first:
/// its version and timers' ids are those of the state) and the state, its `characters` empty.
///
/// No transaction: log rows never change once written, and a snapshot newer than the row
/// (another process wrote in between) makes it read again.
pub(crate) async fn rebuild<R: crate::access::Access>(
    db: &R,
    combat_id: i64,
) -> Result<(combat::Model, Live), ServiceError> {
    let unreadable = |what: String| ServiceError::InvalidInput(format!("combat {combat_id} has {what}"));
    for _ in 0..LOAD_ATTEMPTS {
        let row = crate::repo::combats::get(db, combat_id).await?;
        let Some(snapshot) = crate::access::one(db, combat_snapshot::Entity::find_by_id(combat_id)).await? else {
            return Err(unreadable("no stored state (compacted, or never written)".into()));
        };
        if snapshot.version > row.version {
            continue;
        }
        let mut live =
            Live::from_state(&snapshot.state).map_err(|err| unreadable(format!("an unreadable state: {err}")))?;
        // Every entry after the snapshot: the log, not the row, holds the fight's version.
        let after = combat_event::Entity::find()
            .filter(combat_event::Column::CombatId.eq(combat_id))
            .filter(combat_event::Column::Seq.gt(snapshot.version))
            .order_by_asc(combat_event::Column::Seq);
        let log = crate::access::all(db, after).await?;
        let version = snapshot.version + log.len() as i64;
        if version < row.version
            || log
                .iter()
                .zip(snapshot.version + 1..)
                .any(|(entry, seq)| entry.seq != seq)
        {
            return Err(unreadable(format!(
                "a gap in its log between its snapshot (version {}) and version {}",
                snapshot.version,
                row.version.max(version)
            )));
        }
        // The timers pending at that version: the last entry's, where it is newer than the row
        // (which holds them as of its own version, the latest snapshot's).
        let timers = match log.last() {
            Some(last) if last.seq > row.version => (last.reaction_timer_id, last.turn_timer_id),
            _ => (row.reaction_timer_id, row.turn_timer_id),
        };
        for entry in log {
            let logged: Logged = entry
                .command()
                .map_err(|err| unreadable(format!("an unreadable command {}: {err}", entry.seq)))?;
            let (window, wait) = (live.combat.window.clone(), crate::store::wait_key(&live.combat));
            live.replay(logged, entry.created_at)
                .map_err(|err| unreadable(format!("a command {} that no longer applies: {err}", entry.seq)))?;
            live.track(window.as_ref(), wait, entry.created_at);
        }
        live.id = row.id;
        live.campaign_id = row.campaign_id;
        live.channel_id.clone_from(&row.channel_id);
        live.expedition_id = row.expedition_id;
        live.version = version;
        (live.window_token, live.fight_timer) = timers;
        live.characters.clear();
        return Ok((row, live));
    }
    Err(ServiceError::InvalidInput(format!(
        "combat {combat_id} kept changing while it was read; try again"
    )))
}

/// Loads a combat from the database (see [`rebuild`]).
pub(crate) async fn load<R: crate::access::Access>(db: &R, combat_id: i64) -> Result<Live, ServiceError> {
    let (row, mut live) = rebuild(db, combat_id).await?;
    let campaign = crate::repo::campaigns::get(db, row.campaign_id).await?;
    let members = combatant::Entity::find()
        .filter(combatant::Column::CombatId.eq(combat_id))
        .order_by_asc(combatant::Column::CombatantIndex);
    let members = crate::access::all(db, members).await?;
    let mut characters = vec![None; live.combat.combatants.len()];
    for m in members {
        if let Some(slot) = characters.get_mut(m.combatant_index as usize) {
            *slot = m.character_id;
        }
    }
    live.characters = characters;
    let readied = readied_action::Entity::find().filter(readied_action::Column::CombatId.eq(combat_id));
    live.readied_rows = crate::access::count(db, readied).await?;
    live.reaction_timeout_secs = i64::from(campaign.reaction_timeout_secs);
    live.turn_timeout_secs = crate::repo::campaigns::turn_timeout_secs(&campaign);
    live.map_every_turn = campaign.map_every_turn;
    Ok(live)
}

/// A new combat row (version 0) with its combatants and their turn-resource rows; the
/// caller's transaction commits it.
pub(crate) async fn create(
    txn: &DatabaseTransaction,
    live: &mut Live,
    seed: i64,
    now: DateTimeUtc,
) -> Result<(), ServiceError> {
    let backend = txn.get_database_backend();
    let (sql, values) = combat_row(backend, live, seed, now);
    let inserted = match txn
        .query_one_raw(sea_orm::Statement::from_sql_and_values(backend, sql, values))
        .await
    {
        Ok(row) => row.ok_or_else(|| ServiceError::InvalidInput("the new fight's row came back empty".into()))?,
        Err(err) if is_unique_violation(&err) => return Err(ServiceError::CombatInChannel),
        Err(err) => return Err(err.into()),
    };
    live.id = inserted.try_get::<i64>("", sea_orm::IdenStatic::as_str(&combat::Column::Id))?;
    live.version = 0;
    let batch = first_rows(backend, live, now);
    let done = txn.execute_unprepared(&batch.inline()).await?;
    if done.rows_affected() != batch.expected {
        return Err(ServiceError::InvalidInput("combat rows were not all written".into()));
    }
    live.readied_rows = live.readied_count();
    Ok(())
}

/// [`create`] in a transaction of its own on a SQLite file's group commit connection
/// ([`crate::writer::Writer::alone`]), on the caller's task: the fight's row and its first rows
/// without a round trip to sqlx's thread for each statement, its `BEGIN` and `COMMIT`.
pub(crate) async fn create_alone(
    writer: &crate::writer::Writer,
    live: &mut Live,
    seed: i64,
    now: DateTimeUtc,
) -> Result<(), ServiceError> {
    let (sql, values) = combat_row(DbBackend::Sqlite, live, seed, now);
    writer
        .alone(|conn| {
            let bound = values.0.iter().map(crate::writer::Bound);
            let id = match conn
                .prepare_cached(&sql)
                .and_then(|mut insert| insert.query_row(rusqlite::params_from_iter(bound), |row| row.get(0)))
            {
                Ok(id) => id,
                Err(err) if crate::writer::is_unique_violation(&err) => return Err(ServiceError::CombatInChannel),
                Err(err) => return Err(crate::writer::database_error(&err)),
            };
            live.id = id;
            live.version = 0;
            let batch = first_rows(DbBackend::Sqlite, live, now);
            let mut done = 0;
            for (sql, values) in &batch.statements {
                done += crate::writer::execute(conn, sql, values).map_err(|err| crate::writer::database_error(&err))?;
            }
            if done as u64 != batch.expected {
                return Err(ServiceError::InvalidInput("combat rows were not all written".into()));
            }
            Ok(())
        })
        .await?;
    live.readied_rows = live.readied_count();
    Ok(())
}

/// A new fight's row, at version 0 and active, returning its id.
pub(super) fn combat_row(backend: DbBackend, live: &Live, seed: i64, now: DateTimeUtc) -> Prepared {
    use combat::Column as C;
    let mut insert = Query::insert();
    insert
        .into_table(combat::Entity)
        .columns([
            C::CampaignId,
            C::ChannelId,
            C::ExpeditionId,
            C::Status,
            C::Seed,
            C::InitialState,
            C::State,
            C::Version,
            C::CreatedAt,
            C::UpdatedAt,
        ])
        .values_panic([
            live.campaign_id.into(),
            live.channel_id.clone().into(),
            live.expedition_id.into(),
            crate::repo::combats::ACTIVE.into(),
            seed.into(),
            Option::<String>::None.into(),
            String::new().into(),
            0i64.into(),
            now.into(),
            now.into(),
        ])
        .returning_col(C::Id);
    match backend {
        DbBackend::Postgres => insert.build(PostgresQueryBuilder),
        _ => insert.build(SqliteQueryBuilder),
    }
}

/// What a new fight writes once its row has its id: the fight as it begins (for replay), its
/// first snapshot, and its combatants' rows.
pub(super) fn first_rows(backend: DbBackend, live: &Live, now: DateTimeUtc) -> Batch {
    let state = serde_json::to_string(&live.stored()).expect("combat state serialises");
    let mut batch = Batch::new(backend);
    // The fight as it begins, for replay (`crate::replay`): the log holds what follows.
    batch.push(
        Query::insert()
            .into_table(crate::entity::combat_start::Entity)
            .columns([
                crate::entity::combat_start::Column::CombatId,
                crate::entity::combat_start::Column::State,
            ])
            .values_panic([live.id.into(), state.clone().into()]),
        1,
    );
    // Its first snapshot: version 0, what the first command applies to.
    batch.push_snapshot(live, state);
    let empty = Before {
        combatants: 0,
        ..Before::of(live)
    };
    batch.rows(&empty, live, true, now)
}

/// A fight about to be created in a channel.
pub(crate) struct NewFight<'a> {
    pub campaign_id: i64,
    pub channel_id: &'a str,
    pub expedition_id: Option<i64>,
    /// Combatants in order, with the character behind each (`None` for monsters).
    pub members: Vec<(Combatant, Option<i64>)>,
    pub terrain: Terrain,
    /// An arena duel (`cmd::arena`): it ends at 0 HP and no one dies.
    pub duel: bool,
}
