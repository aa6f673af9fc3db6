//! Expeditions (seed 000 §3.3–§3.4): a run through one of the eight zones, room by room.
//! Entering a room rolls, from a seeded stream, whether it is Difficult Terrain (TwinBee
//! flags it on entry) and whether monsters wait there; the last room always holds a fight.
//! A quiet room yields a zone material; materials are kept on completion or leaving, lost
//! on death (§8.2). The zones and their monsters are the campaign's content
//! ([`Service::content`]): a zone names its monsters by id, so a server's homebrew monster that
//! `replaces = "goblin"` is what that server's expeditions meet.

use engine::content::Zone;
use engine::content::data::{Content, ZoneDef};
use engine::{Combatant, Dice, Terrain};
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};

use crate::convert;
use crate::entity::{character, expedition};
use crate::repo::characters;
use crate::service::mix;
use crate::settle::expedition::{
    ACTIVE, COMPLETED, LEFT, RACE_ATTEMPTS, active, materials, materials_json, name_monsters,
};
pub use crate::settle::expedition::{parse_zone, room_hidden};
use crate::settle::sheet::Sheet;
use crate::{CombatUpdate, DateTimeUtc, Service, ServiceError};

/// An expedition as the renderer shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpeditionView {
    pub expedition_id: i64,
    /// The exploring character's name.
    pub character: String,
    pub zone: Zone,
    pub tier: u8,
    /// Rooms entered so far (0 before the first).
    pub room: u32,
    pub rooms: u32,
    pub status: String,
    pub materials: Vec<String>,
    /// This is the character's first expedition since a Hospital stay (TwinBee's
    /// `ExpeditionResume`, §8.6).
    pub returning_from_hospital: bool,
}

/// What entering a room found.
#[derive(Debug, Clone)]
pub struct RoomEntered {
    pub expedition: ExpeditionView,
    /// The room is Difficult Terrain; `terrain_source` says why (§3.4).
    pub difficult: bool,
    pub terrain_source: &'static str,
    /// A material picked up in a quiet room.
    pub harvested: Option<String>,
    /// The fight the room started, already begun (monsters acting first have acted).
    pub encounter: Option<CombatUpdate>,
    /// This was the zone's last room.
    pub last_room: bool,
}

/// A zone definition's id.
fn zone_id(zone: &ZoneDef) -> Result<Zone, ServiceError> {
    Zone::named(&zone.name).ok_or_else(|| ServiceError::InvalidInput(format!("zone `{}` has no id", zone.name)))
}

fn view(row: &expedition::Model, character: &str) -> Result<ExpeditionView, ServiceError> {
    let zone = parse_zone(&row.zone)?;
    Ok(ExpeditionView {
        expedition_id: row.id,
        character: character.to_owned(),
        zone: zone_id(zone)?,
        tier: zone.tier,
        room: u32::try_from(row.room).unwrap_or(0),
        rooms: zone.rooms,
        status: row.status.clone(),
        materials: materials(row),
        returning_from_hospital: false,
    })
}

/// The monsters of a room: one kind from the zone's list, looked up by id in the campaign's
/// `content` (a homebrew replacement answers to the name it replaces); kinds below the zone's
/// tier come in larger groups (up to three more), so every tier's rooms carry its weight.
pub fn room_monsters(zone: &ZoneDef, content: &Content, dice: &mut Dice) -> Result<Vec<Combatant>, ServiceError> {
    let id = &zone.monsters[dice.die(zone.monsters.len() as u32) as usize - 1];
    let kind = content.monsters.get(id).ok_or_else(|| {
        ServiceError::InvalidInput(format!(
            "{} meets a {id}, which this server's content has no monster of",
            zone.name
        ))
    })?;
    let below = u32::from(zone.tier.saturating_sub(kind.tier)).min(2);
    let count = 1 + below + u32::from(below > 0 && dice.coin());
    Ok(name_monsters(kind, count, &[]))
}

/// Adds harvested materials to the character's pack (on completing or leaving).
fn bank(row: &mut character::Model, found: &[String]) -> Result<(), ServiceError> {
    let mut pack = convert::pack(row)?;
    for m in found {
        let count = pack.materials.entry(m.clone()).or_default();
        *count = count.saturating_add(1);
    }
    row.gear = convert::pack_json(&pack);
    Ok(())
}

impl Service {
    /// `/expedition start <zone>`. Refused while fighting or already exploring, at 0 HP, and
    /// after a death until the Hospital fee is settled and the recovery rest is over (§8.4).
    pub async fn start_expedition(
        &self,
        campaign_id: i64,
        player_id: &str,
        zone: &str,
        now: DateTimeUtc,
    ) -> Result<ExpeditionView, ServiceError> {
        let zone = parse_zone(zone)?;
        // Its rooms meet the campaign's content: content that does not load refuses the start,
        // saying why, before anything is written.
        self.content(campaign_id).await?;
        let txn = self.db().begin_write().await?;
        let mut row = Self::character_of(&*txn, campaign_id, player_id).await?;
        Self::not_fighting(&*txn, &row).await?;
        let returning = crate::settle::hospital::gate(&*txn, &mut row, now).await?;
        if let Some(on) = active(&*txn, row.id).await? {
            return Err(ServiceError::OnExpedition {
                name: row.name,
                zone: on.zone,
            });
        }
        if row.hp <= 0 {
            return Err(ServiceError::CannotFight { name: row.name });
        }
        let inserted = expedition::ActiveModel {
            character_id: Set(row.id),
            zone: Set(zone.name.to_string()),
            room: Set(0),
            status: Set(ACTIVE.to_owned()),
            harvested_materials: Set(materials_json(&[])),
            started_at: Set(now),
            ended_at: Set(None),
            ..Default::default()
        }
        .insert(&*txn)
        .await;
        let new = match inserted {
            Ok(new) => new,
            // `ux_expeditions_active_character`: another start won the race (PostgreSQL lets
            // both check; SQLite's BEGIN IMMEDIATE never gets here). The same refusal.
            Err(err) if crate::db::is_unique_violation(&err) => {
                txn.rollback().await?;
                let zone = active(self.db().conn(), row.id)
                    .await?
                    .map_or_else(|| zone.name.to_string(), |on| on.zone);
                return Err(ServiceError::OnExpedition { name: row.name, zone });
            }
            Err(err) => return Err(err.into()),
        };
        txn.commit().await?;
        Ok(ExpeditionView {
            returning_from_hospital: returning,
            ..view(&new, &row.name)?
        })
    }

    /// `/expedition status`: the active expedition, if any.
    pub async fn expedition(&self, campaign_id: i64, player_id: &str) -> Result<Option<ExpeditionView>, ServiceError> {
        let conn = self.db().conn();
        let row = Self::character_of(conn, campaign_id, player_id).await?;
        active(conn, row.id)
            .await?
            .as_ref()
            .map(|e| view(e, &row.name))
            .transpose()
    }

    /// `/expedition advance`: enter the next room. A room with monsters starts a combat in
    /// `channel_id` (refused if the channel already has one) and begins it.
    pub async fn advance(
        &self,
        campaign_id: i64,
        channel_id: &str,
        player_id: &str,
        now: DateTimeUtc,
    ) -> Result<RoomEntered, ServiceError> {
        for _ in 0..RACE_ATTEMPTS {
            if let Some(entered) = self.advance_once(campaign_id, channel_id, player_id, now).await? {
                return Ok(entered);
            }
        }
        Err(ServiceError::Contended)
    }

    /// One try at [`Service::advance`]; `None` if another advance moved the expedition first.
    async fn advance_once(
        &self,
        campaign_id: i64,
        channel_id: &str,
        player_id: &str,
        now: DateTimeUtc,
    ) -> Result<Option<RoomEntered>, ServiceError> {
        // The campaign's content: its homebrew monsters meet the party here, and its homebrew
        // items and spells go into the fight with the character.
        let content = self.content(campaign_id).await?;
        let txn = self.db().begin_write().await?;
        let row = Self::character_of(&*txn, campaign_id, player_id).await?;
        Self::not_fighting(&*txn, &row).await?;
        let exp = active(&*txn, row.id).await?.ok_or(ServiceError::NoExpedition)?;
        let zone = parse_zone(&exp.zone)?;
        let room = u32::try_from(exp.room).unwrap_or(0) + 1;
        if room > zone.rooms {
            return Err(ServiceError::InvalidInput(format!(
                "You've cleared all {} rooms of {} — /expedition leave to head home.",
                zone.rooms, zone.name
            )));
        }
        if row.hp <= 0 {
            return Err(ServiceError::CannotFight { name: row.name });
        }
        let mut dice = Dice::seeded(mix(&[self.seed, exp.id as u64, u64::from(room)]));
        let difficult = dice.die(6) <= zone.difficult_in_6;
        let last_room = room == zone.rooms;
        let fight = last_room || dice.die(6) <= zone.encounter_in_6;
        let mut found = materials(&exp);
        let harvested = (!fight).then(|| zone.material.to_string());
        found.extend(harvested.clone());
        // Guarded by the room it read: of two racing advances one enters the room, the other
        // finds the expedition moved on and is run again (PostgreSQL; SQLite serialises them).
        let moved = expedition::Entity::update_many()
            .col_expr(expedition::Column::Room, Expr::value(room as i32))
            .col_expr(
                expedition::Column::HarvestedMaterials,
                Expr::value(materials_json(&found)),
            )
            .filter(expedition::Column::Id.eq(exp.id))
            .filter(expedition::Column::Room.eq(exp.room))
            .filter(crate::repo::is(expedition::Column::Status, ACTIVE))
            .exec(&*txn)
            .await?;
        if moved.rows_affected != 1 {
            return Ok(None);
        }
        let exp = expedition::Model {
            room: room as i32,
            harvested_materials: materials_json(&found),
            ..exp
        };
        let mut created = None;
        if fight {
            let mut member = convert::fighter(&row, &content)?;
            convert::carry_interrupts(&mut member, &row, now);
            let mut members = vec![(member, Some(row.id))];
            members.extend(room_monsters(zone, &content, &mut dice)?.into_iter().map(|m| (m, None)));
            let terrain = Terrain {
                zone: Some(zone_id(zone)?),
                difficult,
                hidden_things: room_hidden(zone, room)
                    .map(|h| vec![(h.what.to_string(), h.dc)])
                    .unwrap_or_default(),
                found: Vec::new(),
            };
            created = Some(
                self.new_combat(
                    &txn,
                    crate::store::NewFight {
                        campaign_id,
                        channel_id,
                        expedition_id: Some(exp.id),
                        members,
                        terrain,
                        duel: false,
                    },
                    now,
                )
                .await?,
            );
        }
        txn.commit().await?;
        let encounter = match created {
            Some(live) => {
                self.store.cache_new(&live).await;
                self.join_pets(live.id, std::slice::from_ref(&row), now).await?;
                Some(self.begin(live.id, now).await?)
            }
            None => None,
        };
        Ok(Some(RoomEntered {
            expedition: view(&exp, &row.name)?,
            difficult,
            terrain_source: &zone.difficult_terrain,
            harvested,
            encounter,
            last_room,
        }))
    }

    /// `/expedition leave` after the last room: head home with the materials; HP is
    /// restored at the inn.
    pub async fn complete_expedition(
        &self,
        campaign_id: i64,
        player_id: &str,
        now: DateTimeUtc,
    ) -> Result<(ExpeditionView, Sheet), ServiceError> {
        self.end_expedition(campaign_id, player_id, COMPLETED, now).await
    }

    /// `/expedition leave`: turn back early, keeping what was harvested, or — every room
    /// explored — complete it ([`Service::complete_expedition`]); HP is restored at the inn.
    pub async fn leave_expedition(
        &self,
        campaign_id: i64,
        player_id: &str,
        now: DateTimeUtc,
    ) -> Result<(ExpeditionView, Sheet), ServiceError> {
        self.end_expedition(campaign_id, player_id, LEFT, now).await
    }

    async fn end_expedition(
        &self,
        campaign_id: i64,
        player_id: &str,
        status: &str,
        now: DateTimeUtc,
    ) -> Result<(ExpeditionView, Sheet), ServiceError> {
        // The sheet it answers with needs the campaign's content: read before anything is
        // written, so content that does not load refuses the command and stores nothing.
        let content = self.content(campaign_id).await?;
        let txn = self.db().begin_write().await?;
        let row = Self::character_of(&*txn, campaign_id, player_id).await?;
        Self::not_fighting(&*txn, &row).await?;
        let exp = active(&*txn, row.id).await?.ok_or(ServiceError::NoExpedition)?;
        let rooms = parse_zone(&exp.zone)?.rooms;
        let status = if status == LEFT && exp.room >= rooms as i32 {
            COMPLETED
        } else {
            status
        };
        if status == COMPLETED && exp.room < rooms as i32 {
            return Err(ServiceError::InvalidInput(format!(
                "You've explored {} of {rooms} rooms — /expedition advance, or /expedition leave to turn back.",
                exp.room
            )));
        }
        // Ended once: of two racing ends (PostgreSQL) the second finds it no longer active,
        // as it would have on SQLite, and banks nothing.
        let ended = expedition::Entity::update_many()
            .col_expr(expedition::Column::Status, Expr::value(status))
            .col_expr(expedition::Column::EndedAt, Expr::value(now))
            .filter(expedition::Column::Id.eq(exp.id))
            .filter(crate::repo::is(expedition::Column::Status, ACTIVE))
            .exec(&*txn)
            .await?;
        if ended.rows_affected != 1 {
            return Err(ServiceError::NoExpedition);
        }
        let found = materials(&exp);
        let row = characters::modify(&*txn, row, |row| {
            bank(row, &found)?;
            if row.hp > 0 {
                row.hp = row.max_hp;
            }
            Ok(())
        })
        .await?;
        txn.commit().await?;
        let ended = expedition::Model {
            status: status.to_owned(),
            ended_at: Some(now),
            ..exp
        };
        let sheet = Sheet::of(&row, &content)?;
        Ok((view(&ended, &row.name)?, sheet))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Controller;
    use engine::content::{Class, Monster, Race};
    use std::sync::Arc;

    fn names(monsters: &[Combatant]) -> Vec<&str> {
        monsters.iter().map(|c| c.name.as_str()).collect()
    }

    #[test]
    fn monsters_are_never_named_as_someone_in_the_fight_already_is() {
        let goblin = Arc::clone(Monster::GOBLIN.def());
        let aria = Combatant::character(
            "Aria",
            Race::HUMAN,
            Class::FIGHTER,
            1,
            Controller::Player("aria".into()),
        );
        assert_eq!(
            names(&name_monsters(&goblin, 2, std::slice::from_ref(&aria))),
            ["Goblin 1", "Goblin 2"]
        );
        // A homebrew monster called "Goblin 2" stands there already: the goblins go round it.
        let mut impostor = Combatant::monster("Goblin 2", Monster::GOBLIN);
        impostor.name = "goblin 2".into();
        let lone = name_monsters(&goblin, 1, &[aria.clone(), impostor.clone()]);
        assert_eq!(names(&lone), ["Goblin 3"]);
        // A monster named like a player character is numbered instead.
        let mut named_aria = (*goblin).clone();
        named_aria.name = "Aria".into();
        let named_aria = Arc::new(named_aria);
        assert_eq!(names(&name_monsters(&named_aria, 1, &[aria])), ["Aria 1"]);
    }
}
