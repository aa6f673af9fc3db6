//! Characters: at most one per player per campaign.

use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, IntoActiveModel, QueryFilter,
    QueryOrder, TryInsertResult,
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
pub async fn create<C: ConnectionTrait>(
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
pub async fn get<C: ConnectionTrait>(db: &C, id: i64) -> Result<character::Model, ServiceError> {
    Character::find_by_id(id)
        .one(db)
        .await?
        .ok_or(ServiceError::CharacterNotFound(id))
}

/// The player's character in a campaign, if they have made one.
pub async fn for_player<C: ConnectionTrait>(
    db: &C,
    campaign_id: i64,
    player_id: &str,
) -> Result<Option<character::Model>, ServiceError> {
    Ok(Character::find()
        .filter(Column::CampaignId.eq(campaign_id))
        .filter(Column::PlayerId.eq(player_id))
        .one(db)
        .await?)
}

/// Every character in a campaign, oldest first.
pub async fn list<C: ConnectionTrait>(db: &C, campaign_id: i64) -> Result<Vec<character::Model>, ServiceError> {
    Ok(Character::find()
        .filter(Column::CampaignId.eq(campaign_id))
        .order_by_asc(Column::Id)
        .all(db)
        .await?)
}

/// Writes every column of `character` back to its row (matched by id).
pub async fn update<C: ConnectionTrait>(db: &C, character: character::Model) -> Result<character::Model, ServiceError> {
    let id = character.id;
    // Every column becomes `Set`, so the UPDATE writes them all.
    let row = character.into_active_model().reset_all();
    match row.update(db).await {
        Ok(updated) => Ok(updated),
        Err(DbErr::RecordNotUpdated) => Err(ServiceError::CharacterNotFound(id)),
        Err(err) => Err(err.into()),
    }
}
