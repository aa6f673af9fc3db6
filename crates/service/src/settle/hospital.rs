//! The Hospital's rules that commands share (seed 000 §8): a death's admission, inside the
//! killing command's transaction; the gate before an outing; the discharge at a rest's end; the
//! debt that costs XP. The numbers come from `engine::hospital`.

use engine::content::{Class, Zone};
use engine::{Combatant, hospital};
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, IntoActiveModel, QueryFilter, QueryOrder};

use super::Fight;
use super::expedition::{self, ABANDONED, materials, materials_json};
use crate::entity::{character, debt, expedition as expedition_entity, hospital_record};
use crate::repo::characters;
use crate::{DateTimeUtc, ServiceError};

/// The `timers.kind` of a recovery rest.
pub const RECOVERY_REST: &str = "recovery_rest";

/// `hospital_records.zone_died_in` for a death outside any zone (tier 3 prices it).
pub const NO_ZONE: &str = "none";

/// The tier that prices a death outside any zone (§8.3's base).
const NO_ZONE_TIER: u8 = 3;

/// A death turned into a Hospital admission, for the renderer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Admission {
    pub hospital_record_id: i64,
    pub character_id: i64,
    pub player_id: String,
    pub name: String,
    /// Where they died (`None` outside any zone).
    pub zone: Option<Zone>,
    /// The tier that priced the fee (3 outside any zone).
    pub tier: u8,
    /// A Cleric ally fought in the same combat (−25 %).
    pub cleric_in_party: bool,
    /// Coins held at admission (the cap is 40 % of them).
    pub coins: i64,
    /// How the fee was reached; `fee.fee` is what is owed.
    pub fee: hospital::Fee,
    /// The character's expedition that was abandoned, by zone name, if they were on one.
    pub expedition_abandoned: Option<String>,
    /// The run's harvested materials that were dropped.
    pub materials_lost: Vec<String>,
}

/// The character's latest Hospital record, if any.
pub(crate) async fn latest<R: crate::access::Access>(
    db: &R,
    character_id: i64,
) -> Result<Option<hospital_record::Model>, ServiceError> {
    Ok(crate::access::one(db, newest_first(character_id)).await?)
}

/// A character's Hospital records, the newest first: by `ix_hospital_records_latest`, the
/// newest without reading the others (migration `m20261212_000013`).
pub(crate) fn newest_first(character_id: i64) -> sea_orm::Select<hospital_record::Entity> {
    hospital_record::Entity::find()
        .filter(hospital_record::Column::CharacterId.eq(character_id))
        .order_by_desc(hospital_record::Column::AdmittedAt)
        .order_by_desc(hospital_record::Column::Id)
}

/// Whether the character owes the Hospital (their XP gains are 10 % lower while they do).
pub(crate) async fn in_debt<R: crate::access::Access>(db: &R, character_id: i64) -> Result<bool, ServiceError> {
    let unpaid = debt::Entity::find()
        .filter(debt::Column::CharacterId.eq(character_id))
        .filter(debt::Column::PaidAt.is_null());
    Ok(crate::access::count(db, unpaid).await? > 0)
}

/// Admits the character behind combatant `index` of `fight`, who has just died: the record with
/// the fee fixed now, HP 0 and the arena streak reset, the character's expedition abandoned
/// with its harvest dropped. Level, XP, gear, inventory, coins, pet and housing are kept
/// (§8.1–§8.2). Runs inside the combat command's transaction.
pub(crate) async fn admit<R: crate::access::Access>(
    txn: &R,
    fight: &Fight<'_>,
    index: usize,
    now: DateTimeUtc,
) -> Result<Option<Admission>, ServiceError> {
    let Some(character_id) = fight.characters.get(index).copied().flatten() else {
        return Ok(None);
    };
    let dead: &Combatant = &fight.combat.combatants[index];
    let row = characters::get(txn, character_id).await?;
    let combat_expedition = match fight.expedition_id {
        Some(id) => crate::access::one(txn, expedition_entity::Entity::find_by_id(id)).await?,
        None => None,
    };
    let own_expedition = expedition::active(txn, character_id).await?;
    let known = |name: &str| Zone::named(name).filter(|z| z.builtin().is_some());
    let zone = combat_expedition
        .as_ref()
        .and_then(|e| known(&e.zone))
        .or(fight.combat.terrain.zone)
        .or_else(|| own_expedition.as_ref().and_then(|e| known(&e.zone)));
    let zone_def = zone.and_then(Zone::builtin);
    let zone = zone_def.and(zone);
    let tier = zone_def.map_or(NO_ZONE_TIER, |z| z.tier);
    let cleric_in_party = fight
        .combat
        .combatants
        .iter()
        .any(|o| o.id != dead.id && o.side == dead.side && o.class_name() == Some(Class::CLERIC.name()));
    let coins = row.coins.max(0);
    let level = u32::try_from(row.level).unwrap_or(1);
    let fee = hospital::fee(level, tier, cleric_in_party, coins.unsigned_abs());
    let record_id = crate::access::insert(
        txn,
        hospital_record::ActiveModel {
            character_id: Set(character_id),
            player_id: Set(row.player_id.clone()),
            admitted_at: Set(now),
            fee: Set(i64::try_from(fee.fee).unwrap_or(i64::MAX)),
            fee_paid: Set(false),
            paid_at: Set(None),
            recovery_ends: Set(None),
            zone_died_in: Set(zone_def.map_or(NO_ZONE, |z| &*z.name).to_owned()),
            expedition_id: Set(own_expedition.as_ref().or(combat_expedition.as_ref()).map(|e| e.id)),
            death_saves: Set(serde_json::to_value(&dead.death).unwrap_or_default()),
            discharged_at: Set(None),
            ..Default::default()
        },
    )
    .await?;
    let mut expedition_abandoned = None;
    let mut materials_lost = Vec::new();
    if let Some(exp) = own_expedition {
        expedition_abandoned = Some(exp.zone.clone());
        materials_lost = materials(&exp);
        let mut ended = exp.into_active_model();
        ended.status = Set(ABANDONED.to_owned());
        ended.ended_at = Set(Some(now));
        ended.harvested_materials = Set(materials_json(&[]));
        expedition::save(txn, ended).await?;
    }
    let row = characters::modify(txn, row, |row| {
        row.hp = 0;
        row.arena_streak = 0;
        Ok(())
    })
    .await?;
    Ok(Some(Admission {
        hospital_record_id: record_id,
        character_id,
        player_id: row.player_id,
        name: row.name,
        zone,
        tier,
        cleric_in_party,
        coins,
        fee,
        expedition_abandoned,
        materials_lost,
    }))
}

/// Ends a recovery rest: marks the record discharged and restores HP, exactly once (a
/// conditional update: only the first caller sees the row change). Returns whether this call
/// did it.
pub(crate) async fn discharge<R: crate::access::Access>(
    txn: &R,
    record_id: i64,
    character_id: i64,
    now: DateTimeUtc,
) -> Result<bool, ServiceError> {
    let discharged = hospital_record::Entity::update_many()
        .col_expr(hospital_record::Column::DischargedAt, Expr::value(now))
        .filter(hospital_record::Column::Id.eq(record_id))
        .filter(hospital_record::Column::DischargedAt.is_null());
    if crate::access::execute(txn, &discharged).await? != 1 {
        return Ok(false);
    }
    restore_hp(txn, &[character_id]).await?;
    Ok(true)
}

/// Sets the characters' HP to their maximum.
pub(crate) async fn restore_hp<R: crate::access::Access>(txn: &R, character_ids: &[i64]) -> Result<(), ServiceError> {
    if character_ids.is_empty() {
        return Ok(());
    }
    let restored = character::Entity::update_many()
        .col_expr(character::Column::Hp, Expr::col(character::Column::MaxHp))
        .col_expr(
            character::Column::Version,
            sea_orm::sea_query::ExprTrait::add(Expr::col(character::Column::Version), 1),
        )
        .filter(character::Column::Id.is_in(character_ids.iter().copied()));
    crate::access::execute(txn, &restored).await?;
    Ok(())
}

/// The Hospital's gate before a character sets out or joins a fight: refused while admitted
/// and unpaid ([`ServiceError::InHospital`]) or resting ([`ServiceError::Resting`]); a rest
/// that has ended but not yet been fired is discharged here. Returns whether this is the
/// first outing since a Hospital stay (TwinBee's `ExpeditionResume`). `row` is refreshed.
pub(crate) async fn gate<R: crate::access::Access>(
    txn: &R,
    row: &mut character::Model,
    now: DateTimeUtc,
) -> Result<bool, ServiceError> {
    let Some(record) = latest(txn, row.id).await? else {
        return Ok(false);
    };
    let Some(ends) = record.recovery_ends else {
        return Err(ServiceError::InHospital {
            name: row.name.clone(),
            fee: record.fee,
        });
    };
    if ends > now {
        return Err(ServiceError::Resting {
            name: row.name.clone(),
            remaining: ends - now,
        });
    }
    if record.discharged_at.is_none() && discharge(txn, record.id, row.id, now).await? {
        *row = characters::get(txn, row.id).await?;
    }
    let mut since = expedition_entity::Entity::find()
        .filter(expedition_entity::Column::CharacterId.eq(row.id))
        .filter(expedition_entity::Column::StartedAt.gte(record.admitted_at));
    if let Some(died_on) = record.expedition_id {
        since = since.filter(expedition_entity::Column::Id.ne(died_on));
    }
    Ok(crate::access::count(txn, since).await? == 0)
}
