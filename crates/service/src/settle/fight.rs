//! A fight's end, written inside its last command's transaction: XP and loot for the
//! survivors, HP and consumables back to the characters, the expedition marked on death or defeat.

use engine::content::Item;
use engine::event::Outcome;
use engine::{Combatant, Event, Side};
use sea_orm::{ActiveValue::Set, EntityTrait, IntoActiveModel};

use super::Fight;
use super::expedition::{self, ABANDONED, materials, materials_json, trophy};
use crate::entity::expedition as expedition_entity;
use crate::repo::characters;
use crate::{DateTimeUtc, ServiceError};

/// One survivor's (or casualty's) share of a finished fight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Share {
    pub character_id: i64,
    pub name: String,
    pub xp: u32,
    pub coins: i64,
    /// HP written back to the character.
    pub hp: i32,
    pub died: bool,
    /// The character now has the XP for a higher level.
    pub can_level_up: bool,
}

/// How a fight ended, and what was written to the characters and the expedition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settled {
    pub outcome: Outcome,
    /// XP of the slain enemies, split evenly among the surviving party characters on victory.
    pub xp_total: u32,
    pub coins_total: i64,
    pub shares: Vec<Share>,
    /// A Potion of Healing found on the bodies, and who took it.
    pub potion: Option<(String, Item)>,
    /// Trophies added to the expedition's harvest.
    pub materials: Vec<String>,
    /// The zone of the expedition abandoned (a death or a defeat): its harvest is lost (§8.1–§8.2).
    pub expedition_abandoned: Option<String>,
}

/// Writes the end of a fight inside its last command's transaction. Loot is rolled from
/// the combat's own dice, so a replay finds the same.
pub(crate) async fn settle<R: crate::access::Access>(
    txn: &R,
    fight: &mut Fight<'_>,
    events: &[Event],
    now: DateTimeUtc,
) -> Result<Settled, ServiceError> {
    let outcome = fight.combat.outcome.unwrap_or(Outcome::Halted);
    let xp_total = events
        .iter()
        .find_map(|e| match e {
            Event::CombatEnded { xp, .. } => Some(*xp),
            _ => None,
        })
        .unwrap_or(0);
    let party: Vec<(usize, i64)> = fight
        .characters
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.map(|id| (i, id)))
        .collect();
    let survivors: Vec<usize> = party
        .iter()
        .map(|(i, _)| *i)
        .filter(|i| !fight.combat.combatants[*i].is_dead())
        .collect();
    // Each slain monster's XP as its stat block said when it joined the fight.
    let slain: Vec<(String, u32)> = fight
        .combat
        .combatants
        .iter()
        .filter(|c| c.side == Side::Enemies && c.is_dead())
        .filter_map(Combatant::stat_block)
        .map(|m| (m.name.to_string(), m.xp))
        .collect();
    let victory = outcome == Outcome::Victory && !survivors.is_empty();
    // What a Search found in this room (§2.1): a cache's coins join the loot, a hidden door
    // saves the expedition a room, a found trap is disarmed.
    let mut cache = 0;
    let mut door = false;
    if victory
        && let Some(exp_id) = fight.expedition_id
        && let Some(exp) = crate::access::one(txn, expedition_entity::Entity::find_by_id(exp_id)).await?
        && let Ok(zone) = expedition::parse_zone(&exp.zone)
        && let Some(hidden) = expedition::room_hidden(zone, u32::try_from(exp.room).unwrap_or(1))
        && fight.combat.terrain.found.iter().any(|f| **f == *hidden.what)
    {
        match hidden.kind {
            engine::content::data::HiddenKind::Cache { coins } => cache = i64::from(coins),
            engine::content::data::HiddenKind::Door => door = true,
            engine::content::data::HiddenKind::Trap => {}
        }
    }
    let coins_total: i64 = if victory {
        slain.iter().map(|(_, xp)| i64::from(*xp) / 5).sum::<i64>() + i64::from(fight.dice.die(6)) + cache
    } else {
        0
    };
    let n = survivors.len().max(1) as u32;
    let potion_to = (victory && fight.dice.die(4) == 4).then(|| survivors[fight.dice.die(n) as usize - 1]);
    let mut shares = Vec::new();
    let mut potion = None;
    for (i, character_id) in party {
        let c = &fight.combat.combatants[i];
        let row = characters::get(txn, character_id).await?;
        let died = c.is_dead();
        let (xp, coins) = if victory && !died {
            (xp_total / n, coins_total / i64::from(n))
        } else {
            (0, 0)
        };
        // A Hospital debt costs 10 % of every XP gain until it is paid (§8.3).
        let xp = if xp > 0 {
            engine::hospital::xp_gain(xp, crate::settle::hospital::in_debt(txn, character_id).await?)
        } else {
            xp
        };
        let mut items = c.items.clone();
        if potion_to == Some(i) {
            *items.entry(Item::POTION_OF_HEALING).or_default() += 1;
            potion = Some((c.name.clone(), Item::POTION_OF_HEALING));
        }
        let hp = if died { 0 } else { c.hp.max(1) };
        // A change to what is stored, whatever else changed it meanwhile (a GM's grant): the
        // XP and coins are added to the row as it is when written.
        let interrupts_today = crate::convert::interrupts_today(c, now);
        let row = characters::modify(txn, row, |row| {
            row.hp = hp;
            row.interrupts_today.clone_from(&interrupts_today);
            row.xp = row.xp.saturating_add(i32::try_from(xp).unwrap_or(i32::MAX));
            row.coins = row.coins.saturating_add(coins);
            row.inventory = crate::convert::inventory_json(&items);
            Ok(())
        })
        .await?;
        let can_level_up = engine::content::data::levels().level_for_xp(u32::try_from(row.xp).unwrap_or(0))
            > u32::try_from(row.level).unwrap_or(1);
        shares.push(Share {
            character_id,
            name: c.name.clone(),
            xp,
            coins,
            hp: row.hp,
            died,
            can_level_up,
        });
    }
    let mut found = Vec::new();
    let mut expedition_abandoned = None;
    if let Some(exp_id) = fight.expedition_id
        && let Some(exp) = crate::access::one(txn, expedition_entity::Entity::find_by_id(exp_id)).await?
        && exp.status == expedition::ACTIVE
    {
        let mut harvest = materials(&exp);
        let rooms = expedition::parse_zone(&exp.zone).map_or(0, |z| z.rooms);
        let skip_to = (door && exp.room + 1 < i32::try_from(rooms).unwrap_or(0)).then_some(exp.room + 1);
        let zone = exp.zone.clone();
        let mut row = exp.into_active_model();
        if let Some(room) = skip_to {
            // The hidden door: the next /expedition advance enters the room after next.
            row.room = Set(room);
        }
        if shares.iter().any(|s| s.died) || outcome == Outcome::Defeat {
            expedition_abandoned = Some(zone);
            row.status = Set(ABANDONED.to_owned());
            row.ended_at = Set(Some(now));
            harvest.clear();
        } else if victory {
            found = slain.iter().map(|(name, _)| trophy(name)).collect();
            harvest.extend(found.iter().cloned());
        }
        row.harvested_materials = Set(materials_json(&harvest));
        expedition::save(txn, row).await?;
    }
    Ok(Settled {
        outcome,
        xp_total,
        coins_total,
        shares,
        potion,
        materials: found,
        expedition_abandoned,
    })
}
