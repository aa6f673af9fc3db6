//! Combats and their append-only event log, guarded by optimistic concurrency.
//!
//! A combat row carries `version`, the number of commands applied to it. A command reads
//! the combat (state and version), runs the engine, and saves with [`save_combat`] naming
//! the version it read: the save bumps the version only if it is still that one, and
//! appends the command and its events to `combat_events` as row `seq = version + 1`, all
//! in one transaction. Of two commands that read the same version, exactly one wins; the
//! other gets [`ServiceError::StaleCombat`] and changes nothing.

use sea_orm::sea_query::{Expr, Query};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, QueryFilter,
    QueryOrder, QuerySelect,
};

use crate::access::Access;
use crate::entity::combat::{self, Column, Entity as Combat};
use crate::entity::combat_event::{self, Entity as CombatEvent};
use crate::entity::{character, combatant};
use crate::{DateTimeUtc, ServiceError};

/// A combat about to start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewCombat {
    pub campaign_id: i64,
    pub channel_id: String,
    pub expedition_id: Option<i64>,
    /// The seed of the combat's dice stream.
    pub seed: i64,
    /// The engine's initial state, serialized.
    pub state: String,
}

/// One applied command, as the engine serialized it: what to store for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CombatWrite<'a> {
    /// The combat's state after the command.
    pub state: &'a str,
    /// The command that was applied.
    pub command: &'a str,
    /// The events the command produced.
    pub events: &'a str,
    /// When it was applied.
    pub now: DateTimeUtc,
}

/// The status of a combat still being fought.
pub const ACTIVE: &str = "active";

/// Starts a combat at version 0 with an empty event log.
pub async fn create<C: ConnectionTrait>(
    db: &C,
    new: NewCombat,
    now: DateTimeUtc,
) -> Result<combat::Model, ServiceError> {
    let row = combat::ActiveModel {
        campaign_id: Set(new.campaign_id),
        channel_id: Set(new.channel_id),
        expedition_id: Set(new.expedition_id),
        status: Set(ACTIVE.to_owned()),
        seed: Set(new.seed),
        state: Set(new.state),
        version: Set(0),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    };
    Ok(row.insert(db).await?)
}

/// How many fights a campaign has had (in any channel, ended or not).
pub async fn count_in_campaign<R: Access>(db: &R, campaign_id: i64) -> Result<u64, ServiceError> {
    let fights = Combat::find().filter(Column::CampaignId.eq(campaign_id));
    Ok(crate::access::count(db, fights).await?)
}

/// A combat by id.
pub async fn get<R: Access>(db: &R, id: i64) -> Result<combat::Model, ServiceError> {
    crate::access::one(db, Combat::find_by_id(id))
        .await?
        .ok_or(ServiceError::CombatNotFound(id))
}

/// A fight's version as stored: the commands applied to it — its log's last `seq` (the log
/// guards the version, see `crate::store`; a combat row is written with a log entry of its own
/// version or at none), or its row's where it has no log (not begun, or a finished fight's log
/// compacted by retention). One query while the fight has a log: the store asks it of every
/// cached fight it shows.
pub async fn version<R: Access>(db: &R, id: i64) -> Result<i64, ServiceError> {
    use sea_orm::sea_query::{Func, Order, Query, SubQueryStatement};
    let mut last = Query::select();
    last.column(combat_event::Column::Seq)
        .from(combat_event::Entity)
        .and_where(combat_event::Column::CombatId.eq(id))
        .order_by(combat_event::Column::Seq, Order::Desc)
        .limit(1);
    // One statement either way: the log's last `seq`, or the row's version where there is none.
    let logged_or_row = Expr::expr(Func::coalesce([
        Expr::from(SubQueryStatement::from(last)),
        Expr::col((Combat, Column::Version)),
    ]));
    let select = Combat::find_by_id(id).select_only().column_as(logged_or_row, "version");
    crate::access::integer(db, select)
        .await?
        .ok_or(ServiceError::CombatNotFound(id))
}

/// The active combat in a channel of a campaign, if any.
pub async fn active_in_channel<R: Access>(
    db: &R,
    campaign_id: i64,
    channel_id: &str,
) -> Result<Option<combat::Model>, ServiceError> {
    let select = Combat::find()
        .filter(Column::CampaignId.eq(campaign_id))
        .filter(Column::ChannelId.eq(channel_id))
        .filter(super::is(Column::Status, ACTIVE))
        .order_by_desc(Column::Id);
    Ok(crate::access::one(db, select).await?)
}

/// Saves one applied command: the new state and version, and its row in the event log.
///
/// Run it inside [`crate::Db::begin_write`] and commit afterwards (timers and other rows
/// the command changes go in the same transaction). The update is
/// `UPDATE combats SET version = expected + 1, … WHERE id = ? AND version = expected`;
/// if no row matched, someone else saved first and this returns
/// [`ServiceError::StaleCombat`] (or [`ServiceError::CombatNotFound`]) having written
/// nothing. Returns the new version, which is also the event row's `seq`.
pub async fn save_combat(
    txn: &DatabaseTransaction,
    combat_id: i64,
    expected_version: i64,
    write: CombatWrite<'_>,
) -> Result<i64, ServiceError> {
    let version = expected_version + 1;
    let updated = Combat::update_many()
        .col_expr(Column::State, Expr::value(write.state))
        .col_expr(Column::Version, Expr::value(version))
        .col_expr(Column::UpdatedAt, Expr::value(write.now))
        .filter(Column::Id.eq(combat_id))
        .filter(Column::Version.eq(expected_version))
        .exec(txn)
        .await?;
    if updated.rows_affected != 1 {
        let current = get(txn, combat_id).await?;
        return Err(ServiceError::StaleCombat {
            combat_id,
            expected: expected_version,
            found: current.version,
        });
    }
    let event = combat_event::ActiveModel {
        combat_id: Set(combat_id),
        seq: Set(version),
        command: Set(write.command.to_owned()),
        events: Set(write.events.to_owned()),
        created_at: Set(write.now),
        ..Default::default()
    };
    CombatEvent::insert(event).exec_without_returning(txn).await?;
    Ok(version)
}

/// Sets a combat's status (e.g. `victory`, `defeat`, `ended`); call it in the same
/// transaction as the [`save_combat`] of the command that ended the fight.
pub async fn set_status<C: ConnectionTrait>(db: &C, combat_id: i64, status: &str) -> Result<(), ServiceError> {
    let updated = Combat::update_many()
        .col_expr(Column::Status, Expr::value(status))
        .filter(Column::Id.eq(combat_id))
        .exec(db)
        .await?;
    if updated.rows_affected == 0 {
        return Err(ServiceError::CombatNotFound(combat_id));
    }
    Ok(())
}

/// A combat's event log, in order.
pub async fn events<C: ConnectionTrait>(db: &C, combat_id: i64) -> Result<Vec<combat_event::Model>, ServiceError> {
    Ok(CombatEvent::find()
        .filter(combat_event::Column::CombatId.eq(combat_id))
        .order_by_asc(combat_event::Column::Seq)
        .all(db)
        .await?)
}

/// The active fights of `row`'s campaign that `row` fights in: it is one of their combatants and
/// has not died in them (a character who died in a fight has left it, §8.1, though it goes on).
///
/// Planned from the campaign's active fights (the partial index `ux_combats_active_channel`, one
/// a channel) and each one's few members by its key, never from the character's own rows, which
/// name every fight it was ever in (≈ 140 µs for a character of 400 fights, against ≈ 3 µs,
/// SQLite): the member's `character_id` is compared as `character_id + 0`, which
/// keeps SQLite off `ix_combatants_character`, and the fight's `version` is selected, which no
/// index of every fight of the campaign covers. A unit test reads SQLite's plan.
pub(crate) fn fighting_in(row: &character::Model) -> sea_orm::Select<combat::Entity> {
    use crate::entity::death_save_state;
    use sea_orm::sea_query::{Expr, ExprTrait as _};
    let fight_id = || Expr::col((combat::Entity, combat::Column::Id));
    let member = Query::select()
        .expr(Expr::val(1))
        .from(combatant::Entity)
        .and_where(Expr::col((combatant::Entity, combatant::Column::CombatId)).eq(fight_id()))
        .and_where(
            Expr::col((combatant::Entity, combatant::Column::CharacterId))
                .add(0)
                .eq(row.id),
        )
        .to_owned();
    let died = Query::select()
        .expr(Expr::val(1))
        .from(death_save_state::Entity)
        .and_where(Expr::col((death_save_state::Entity, death_save_state::Column::CombatId)).eq(fight_id()))
        .and_where(death_save_state::Column::CharacterId.eq(row.id))
        .and_where(death_save_state::Column::Failures.gte(3))
        .to_owned();
    combat::Entity::find()
        .select_only()
        .column(combat::Column::Id)
        .column(combat::Column::Version)
        .filter(combat::Column::CampaignId.eq(row.campaign_id))
        .filter(crate::repo::is(combat::Column::Status, crate::repo::combats::ACTIVE))
        .filter(Expr::exists(member))
        .filter(Expr::exists(died).not())
}

/// The active combat a character fights in now, if any.
pub(crate) async fn active_combat<R: crate::access::Access>(
    db: &R,
    row: &character::Model,
) -> Result<Option<i64>, ServiceError> {
    Ok(crate::access::integer(db, fighting_in(row)).await?)
}

/// Whether a character fights in an active combat now.
pub(crate) async fn in_active_combat<R: crate::access::Access>(
    db: &R,
    row: &character::Model,
) -> Result<bool, ServiceError> {
    Ok(active_combat(db, row).await?.is_some())
}
