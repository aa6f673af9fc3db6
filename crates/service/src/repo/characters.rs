//! Characters: at most one per player per campaign.

use sea_orm::sea_query::{Expr, Func};
use sea_orm::{
    ActiveModelTrait,
    ActiveValue::{NotSet, Set},
    ColumnTrait, ConnectionTrait, EntityTrait, ExprTrait, IntoActiveModel, QueryFilter, QueryOrder, TryInsertResult,
};

use crate::entity::character::{self, Column, Entity as Character};
use crate::{DateTimeUtc, Json, ServiceError};

/// What a new character starts with; the service fills it from the engine's content
/// (race and class decide `max_hp` and starting gear).
#[derive(Clone, Debug, PartialEq)]
pub struct NewCharacter {
    pub campaign_id: i64,
    pub player_id: String,
    pub name: String,
    pub race: String,
    pub class: String,
    pub max_hp: i32,
    pub coins: i64,
    pub weapon: Option<String>,
    pub off_hand: Option<String>,
    pub armor: Option<String>,
    pub shield: Option<String>,
    pub inventory: Json,
    pub gear: Json,
}

/// Creates a level-1 character at full HP. Refuses a second character for the same
/// player in the same campaign with [`ServiceError::CharacterExists`], without failing
/// an enclosing transaction (the insert is `ON CONFLICT DO NOTHING`).
pub async fn create<C: ConnectionTrait + crate::access::Access>(
    db: &C,
    new: NewCharacter,
    now: DateTimeUtc,
) -> Result<character::Model, ServiceError> {
    let NewCharacter {
        campaign_id,
        player_id,
        name,
        race,
        class,
        max_hp,
        coins,
        weapon,
        off_hand,
        armor,
        shield,
        inventory,
        gear,
    } = new;
    let row = character::ActiveModel {
        campaign_id: Set(campaign_id),
        player_id: Set(player_id.clone()),
        name: Set(name),
        race: Set(race),
        class: Set(class),
        level: Set(1),
        xp: Set(0),
        coins: Set(coins),
        hp: Set(max_hp),
        max_hp: Set(max_hp),
        weapon: Set(weapon),
        off_hand: Set(off_hand),
        armor: Set(armor),
        shield: Set(shield),
        inventory: Set(inventory),
        gear: Set(gear),
        arena_streak: Set(0),
        pet: Set(None),
        housing: Set(None),
        created_at: Set(now),
        version: Set(0),
        ..Default::default()
    };
    let inserted = Character::insert(row)
        .on_conflict_do_nothing_on([Column::CampaignId, Column::PlayerId])
        // Not `exec_with_returning`: in sea-orm 2.0.4 a conflict there surfaces as
        // `DbErr::RecordNotFound` instead of `TryInsertResult::Conflicted`.
        .exec(db)
        .await?;
    match inserted {
        TryInsertResult::Inserted(result) => get(db, result.last_insert_id).await,
        TryInsertResult::Conflicted | TryInsertResult::Empty => {
            Err(ServiceError::CharacterExists { campaign_id, player_id })
        }
    }
}

/// A character by id.
pub async fn get<R: crate::access::Access>(db: &R, id: i64) -> Result<character::Model, ServiceError> {
    crate::access::one(db, Character::find_by_id(id))
        .await?
        .ok_or(ServiceError::CharacterNotFound(id))
}

/// The player's character in a campaign, if they have made one.
pub async fn for_player<R: crate::access::Access>(
    db: &R,
    campaign_id: i64,
    player_id: &str,
) -> Result<Option<character::Model>, ServiceError> {
    let select = Character::find()
        .filter(Column::CampaignId.eq(campaign_id))
        .filter(Column::PlayerId.eq(player_id));
    Ok(crate::access::one(db, select).await?)
}

/// Every character in a campaign, oldest first.
pub async fn list<C: ConnectionTrait>(db: &C, campaign_id: i64) -> Result<Vec<character::Model>, ServiceError> {
    Ok(Character::find()
        .filter(Column::CampaignId.eq(campaign_id))
        .order_by_asc(Column::Id)
        .all(db)
        .await?)
}

/// How often [`modify`] re-reads a character whose version moved under it before giving up.
const MAX_ATTEMPTS: u32 = 64;

/// A pause before the next try after losing a race for a row: growing with the tries, with
/// jitter from the clock's nanoseconds, so a crowd of writers spreads out instead of colliding
/// again in step.
pub(crate) async fn back_off(attempt: u32) {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let ceiling = 100 * u64::from(Ord::min(attempt, 20));
    tokio::time::sleep(std::time::Duration::from_micros(
        u64::from(nanos) % Ord::max(ceiling, 1),
    ))
    .await;
}

/// Writes every column of `character` back to its row, guarded by the version it was read at:
/// `UPDATE characters SET …, version = version + 1 WHERE id = ? AND version = ?`. A row changed
/// since is refused as [`ServiceError::StaleCharacter`] with nothing written (read again and
/// redo the change: [`modify`] does). Returns the row as written (its version bumped).
///
/// Outside a transaction on a SQLite file it is a transaction of its own on the group commit's
/// connection, on the caller's task ([`crate::access::Access`]), not two round trips to sqlx's
/// thread.
pub async fn update<R: crate::access::Access>(
    db: &R,
    character: character::Model,
) -> Result<character::Model, ServiceError> {
    let (id, expected) = (character.id, character.version);
    let written = character::Model {
        version: expected + 1,
        ..character
    };
    // Every column becomes `Set`, so the UPDATE writes them all.
    let mut row = written.clone().into_active_model().reset_all();
    row.id = NotSet;
    let update = Character::update_many()
        .set(row)
        .filter(Column::Id.eq(id))
        .filter(Column::Version.eq(expected));
    if crate::access::execute(db, &update).await? == 1 {
        return Ok(written);
    }
    let found = get(db, id).await?.version;
    Err(ServiceError::StaleCharacter {
        character_id: id,
        expected,
        found,
    })
}

/// Changes a character read as `row`: `change` edits it (or refuses, and nothing is written),
/// [`update`] writes it guarded by the version read; if another write came first, the row is
/// read again and `change` applied to the fresh one, so concurrent changes all land (each is
/// applied to what the others left). Inside a write transaction on SQLite nothing can come
/// first; on PostgreSQL (READ COMMITTED) the re-read sees the other's commit.
pub async fn modify<R, F>(db: &R, mut row: character::Model, mut change: F) -> Result<character::Model, ServiceError>
where
    R: crate::access::Access,
    F: FnMut(&mut character::Model) -> Result<(), ServiceError>,
{
    let mut attempt = 0;
    loop {
        attempt += 1;
        let mut changed = row.clone();
        change(&mut changed)?;
        changed.version = row.version;
        match update(db, changed).await {
            Err(ServiceError::StaleCharacter { .. }) if attempt < MAX_ATTEMPTS => {
                back_off(attempt).await;
                row = get(db, row.id).await?;
            }
            done => return done,
        }
    }
}

/// A campaign's character by name, case-insensitively, through the index on
/// `(campaign_id, lower(name))` (not by reading every character of the campaign).
pub async fn by_name<R: crate::access::Access>(
    db: &R,
    campaign_id: i64,
    name: &str,
) -> Result<Option<character::Model>, ServiceError> {
    let wanted = name.trim().to_lowercase();
    let mut found = Character::find().filter(Column::CampaignId.eq(campaign_id));
    if wanted.is_ascii() {
        // SQL's lower() folds ASCII alike on both backends; the exact fold is checked below.
        found = found.filter(Expr::expr(Func::lower(Expr::col(Column::Name))).eq(wanted.clone()));
    }
    Ok(crate::access::all(db, found.order_by_asc(Column::Id))
        .await?
        .into_iter()
        .find(|c| c.name.to_lowercase() == wanted))
}
