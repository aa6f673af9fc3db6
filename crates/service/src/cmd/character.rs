//! Characters: create (race, class, name), sheet, equip/unequip, inventory, level-up from XP.

use std::collections::BTreeMap;

use engine::content::data::MAX_LEVEL;
use engine::content::{Armor, Item, Weapon};

use crate::convert::{self, Pack, SHIELD, choices};
use crate::convert::{parse_class, parse_race};
use crate::entity::character;
use crate::repo::characters::{self, NewCharacter};
use crate::repo::combats::{active_combat, in_active_combat};
use crate::settle::sheet::{Inventory, Sheet, carried_items, max_hp, set_level};
use crate::{DateTimeUtc, Service, ServiceError};

/// Coins a new character starts with.
pub const STARTING_COINS: i64 = 20;

impl Service {
    /// The player's character in a campaign, or [`ServiceError::NoCharacter`].
    pub(crate) async fn character_of<R: crate::access::Access>(
        db: &R,
        campaign_id: i64,
        player_id: &str,
    ) -> Result<character::Model, ServiceError> {
        characters::for_player(db, campaign_id, player_id)
            .await?
            .ok_or(ServiceError::NoCharacter)
    }

    /// Refuses while the character is fighting.
    pub(crate) async fn not_fighting<R: crate::access::Access>(
        db: &R,
        row: &character::Model,
    ) -> Result<(), ServiceError> {
        if in_active_combat(db, row).await? {
            return Err(ServiceError::InCombat { name: row.name.clone() });
        }
        Ok(())
    }

    /// `/character create name race class`: a level-1 character with the class's kit, a
    /// Potion of Healing and [`STARTING_COINS`].
    pub async fn create_character(
        &self,
        campaign_id: i64,
        player_id: &str,
        name: &str,
        race: &str,
        class: &str,
        now: DateTimeUtc,
    ) -> Result<Sheet, ServiceError> {
        // The sheet it answers with reads the campaign's content: loaded before anything is
        // written, so content that does not load refuses the command and stores nothing.
        let content = self.content(campaign_id).await?;
        if characters::for_player(self.db().conn(), campaign_id, player_id)
            .await?
            .is_some()
        {
            return Err(ServiceError::CharacterExists {
                campaign_id,
                player_id: player_id.to_owned(),
            });
        }
        // Unique in the campaign, 2–32 printable characters, no monster's (`settle::names`).
        let name = crate::settle::names::name_for_new(self.db().conn(), campaign_id, name).await?;
        let name = name.as_str();
        let race = parse_race(race)?;
        let class = parse_class(class)?;
        let kit = &class.def().kit;
        let mut items = BTreeMap::new();
        items.insert(Item::POTION_OF_HEALING, 1);
        let new = NewCharacter {
            campaign_id,
            player_id: player_id.to_owned(),
            name: name.to_owned(),
            race: race.name().to_owned(),
            class: class.name().to_owned(),
            max_hp: max_hp(race, class, 1),
            coins: STARTING_COINS,
            weapon: Some(kit.weapon.name.to_string()),
            off_hand: kit.off_hand.as_ref().map(|w| w.name.to_string()),
            armor: (!Armor::NONE.names(&kit.armor.name)).then(|| kit.armor.name.to_string()),
            shield: kit.shield.then(|| SHIELD.to_owned()),
            inventory: convert::inventory_json(&items),
            gear: convert::pack_json(&Pack::default()),
        };
        let row = characters::create(self.db().conn(), new, now)
            .await
            .map_err(|e| crate::settle::names::name_race(e, name))?;
        Sheet::of(&row, &content)
    }

    /// `/character sheet`.
    pub async fn sheet(&self, campaign_id: i64, player_id: &str) -> Result<Sheet, ServiceError> {
        let conn = self.db().conn();
        let row = Self::character_of(conn, campaign_id, player_id).await?;
        let mut sheet = Sheet::of(&row, &*self.content(campaign_id).await?)?;
        // In a fight the row keeps the HP they went in with until it settles: show the fight's.
        if let Some(combat_id) = active_combat(conn, &row).await? {
            match self.store.snapshot(combat_id).await {
                Ok(live) => {
                    let index = live.characters.iter().position(|c| *c == Some(row.id));
                    if let Some(c) = index.and_then(|i| live.combat.combatants.get(i)) {
                        sheet.hp = c.hp.max(0);
                        sheet.max_hp = c.max_hp;
                    }
                }
                // Ended meanwhile: the row is up to date.
                Err(ServiceError::Rules(engine::RuleViolation::CombatOver)) => {}
                Err(err) => return Err(err),
            }
        }
        Ok(sheet)
    }

    /// `/character inventory`: coins, consumables, carried gear, this run's materials.
    pub async fn inventory(&self, campaign_id: i64, player_id: &str) -> Result<Inventory, ServiceError> {
        let conn = self.db().conn();
        let row = Self::character_of(conn, campaign_id, player_id).await?;
        let materials = match crate::settle::expedition::active(conn, row.id).await? {
            Some(exp) => crate::settle::expedition::materials(&exp),
            None => Vec::new(),
        };
        let content = self.content(campaign_id).await?;
        let carried = carried_items(&row, &content)?;
        let items = carried.iter().map(|(item, n, _)| (*item, *n)).collect();
        let item_names = carried.into_iter().map(|(_, _, name)| name).collect();
        Ok(Inventory {
            coins: row.coins,
            items,
            item_names,
            pack: convert::pack(&row)?,
            materials,
        })
    }

    /// `/equip <gear> [off_hand]`: wields a weapon (main hand, or the off hand for a Light
    /// weapon), wears armor, or straps on a shield, from the pack; what it replaces goes
    /// into the pack. Not during a fight.
    pub async fn equip(
        &self,
        campaign_id: i64,
        player_id: &str,
        gear: &str,
        off_hand: bool,
    ) -> Result<Sheet, ServiceError> {
        let content = self.content(campaign_id).await?;
        let conn = self.db().conn();
        let row = Self::character_of(conn, campaign_id, player_id).await?;
        Self::not_fighting(conn, &row).await?;
        let row = characters::modify(self.db(), row, |row| equip_on(row, gear, off_hand)).await?;
        Sheet::of(&row, &content)
    }

    /// `/unequip <slot or gear>`: `weapon` (main hand), `off hand`, `armor`, `shield`, or the
    /// name of something worn or wielded; it goes into the pack. Not during a fight.
    pub async fn unequip(&self, campaign_id: i64, player_id: &str, what: &str) -> Result<Sheet, ServiceError> {
        let content = self.content(campaign_id).await?;
        let conn = self.db().conn();
        let row = Self::character_of(conn, campaign_id, player_id).await?;
        Self::not_fighting(conn, &row).await?;
        let row = characters::modify(self.db(), row, |row| unequip_on(row, what)).await?;
        Sheet::of(&row, &content)
    }

    /// `/character levelup`: raises the level to what the XP has earned
    /// ([`engine::content::data::LevelsDef::level_for_xp`]); max HP grows and current HP with it. Not during a fight.
    pub async fn level_up(&self, campaign_id: i64, player_id: &str) -> Result<Sheet, ServiceError> {
        let content = self.content(campaign_id).await?;
        let conn = self.db().conn();
        let row = Self::character_of(conn, campaign_id, player_id).await?;
        Self::not_fighting(conn, &row).await?;
        let updated = characters::modify(self.db(), row, |row| {
            let xp = u32::try_from(row.xp).unwrap_or(0);
            let level = u32::try_from(row.level).unwrap_or(1).clamp(1, MAX_LEVEL);
            let earned = engine::content::data::levels().level_for_xp(xp);
            if earned <= level {
                if level >= MAX_LEVEL {
                    return Err(ServiceError::InvalidInput(format!(
                        "You are already level {MAX_LEVEL}, the highest."
                    )));
                }
                return Err(ServiceError::NotEnoughXp {
                    xp,
                    needed: engine::content::data::levels().xp[level as usize],
                    next: level + 1,
                });
            }
            set_level(row, earned)
        })
        .await?;
        Sheet::of(&updated, &content)
    }
}

/// `/equip`'s change to a character row (see [`Service::equip`]).
fn equip_on(row: &mut character::Model, gear: &str, off_hand: bool) -> Result<(), ServiceError> {
    let mut pack = convert::pack(row)?;
    let carried = describe_pack(&pack);
    let not_carried = |item: &str| ServiceError::NotCarried {
        item: item.to_owned(),
        have: carried.clone(),
    };
    if let Some(weapon) = Weapon::parse(gear) {
        let at = pack
            .weapons
            .iter()
            .position(|w| *w == weapon)
            .ok_or_else(|| not_carried(weapon.name()))?;
        if off_hand {
            if !weapon.def().light {
                return Err(ServiceError::InvalidInput(format!(
                    "Only a Light weapon fits the off hand, and {} is not Light.",
                    weapon.name()
                )));
            }
            if row.shield.is_some() {
                return Err(ServiceError::InvalidInput(
                    "Your off hand holds a shield — unequip it first.".into(),
                ));
            }
        }
        pack.weapons.remove(at);
        let slot = if off_hand { &mut row.off_hand } else { &mut row.weapon };
        if let Some(old) = convert::weapon(slot.as_deref())? {
            pack.weapons.push(old);
        }
        *slot = Some(weapon.name().to_owned());
    } else if let Some(armor) = Armor::parse(gear).filter(|a| *a != Armor::NONE) {
        let at = pack
            .armor
            .iter()
            .position(|a| *a == armor)
            .ok_or_else(|| not_carried(armor.name()))?;
        pack.armor.remove(at);
        let old = convert::armor(row.armor.as_deref())?;
        if old != Armor::NONE {
            pack.armor.push(old);
        }
        row.armor = Some(armor.name().to_owned());
    } else if gear.trim().eq_ignore_ascii_case(SHIELD) {
        if row.shield.is_some() {
            return Err(ServiceError::InvalidInput("You already carry a shield.".into()));
        }
        if pack.shields == 0 {
            return Err(not_carried("a shield"));
        }
        if row.off_hand.is_some() {
            return Err(ServiceError::InvalidInput(
                "Your off hand holds a weapon — unequip it first.".into(),
            ));
        }
        pack.shields -= 1;
        row.shield = Some(SHIELD.to_owned());
    } else {
        return Err(unknown_gear(gear));
    }
    row.gear = convert::pack_json(&pack);
    Ok(())
}

/// `/unequip`'s change to a character row (see [`Service::unequip`]).
fn unequip_on(row: &mut character::Model, what: &str) -> Result<(), ServiceError> {
    let mut pack = convert::pack(row)?;
    let key: String = what
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    let main = convert::weapon(row.weapon.as_deref())?;
    let off = convert::weapon(row.off_hand.as_deref())?;
    let armor = convert::armor(row.armor.as_deref())?;
    let named = Weapon::parse(what);
    if matches!(key.as_str(), "offhand" | "off") || (named.is_some() && named == off && named != main) {
        let w = off.ok_or_else(|| ServiceError::InvalidInput("Your off hand is empty.".into()))?;
        pack.weapons.push(w);
        row.off_hand = None;
    } else if matches!(key.as_str(), "weapon" | "mainhand" | "main") || (named.is_some() && named == main) {
        let w = main
            .filter(|w| *w != Weapon::UNARMED)
            .ok_or_else(|| ServiceError::InvalidInput("You aren't wielding a weapon.".into()))?;
        pack.weapons.push(w);
        row.weapon = None;
    } else if key == "armor" || key == "armour" || Armor::parse(what).is_some_and(|a| a == armor && a != Armor::NONE) {
        if armor == Armor::NONE {
            return Err(ServiceError::InvalidInput("You aren't wearing armor.".into()));
        }
        pack.armor.push(armor);
        row.armor = None;
    } else if key == "shield" {
        if row.shield.is_none() {
            return Err(ServiceError::InvalidInput("You aren't carrying a shield.".into()));
        }
        pack.shields += 1;
        row.shield = None;
    } else {
        return Err(ServiceError::InvalidInput(format!(
            "You aren't wearing or wielding \"{}\" — unequip weapon, off hand, armor or shield.",
            what.trim()
        )));
    }
    row.gear = convert::pack_json(&pack);
    Ok(())
}

fn describe_pack(pack: &Pack) -> String {
    let mut names: Vec<String> = pack.weapons.iter().map(|w| w.name().to_owned()).collect();
    names.extend(pack.armor.iter().map(|a| a.name().to_owned()));
    if pack.shields > 0 {
        names.push(format!("{} shield(s)", pack.shields));
    }
    if names.is_empty() {
        "Your pack holds no spare gear.".to_owned()
    } else {
        format!("Your pack holds: {}.", names.join(", "))
    }
}

fn unknown_gear(gear: &str) -> ServiceError {
    let mut valid: Vec<&str> = Weapon::all()
        .iter()
        .filter(|w| **w != Weapon::UNARMED)
        .map(|w| w.name())
        .collect();
    valid.extend(Armor::all().iter().filter(|a| **a != Armor::NONE).map(|a| a.name()));
    valid.push(SHIELD);
    ServiceError::Unknown {
        kind: "weapon, armor or shield",
        given: gear.trim().to_owned(),
        valid: choices(valid),
    }
}

#[cfg(test)]
mod tests {
    use sea_orm::{DbBackend, QueryTrait};

    use crate::Service;

    /// `fighting_in` is planned from the campaign's active fights and their members by key, not
    /// from the character's every fight, and its newest Hospital record is read by an index, not
    /// sorted from them all (SQLite's plans, on the migrated schema).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn whether_a_character_fights_is_planned_from_the_active_fights_not_its_history() {
        let scratch = crate::scratch::Scratch::new("fighting-in").await;
        let (db, camp) = (scratch.db.clone(), scratch.camp);
        scratch
            .svc
            .create_character(camp, "p1", "Ana", "dwarf", "fighter", scratch.now)
            .await
            .expect("a character");
        let ana = Service::character_of(&db, camp, "p1").await.expect("Ana");
        db.close().await.expect("close");
        let conn = rusqlite::Connection::open(&scratch.path).expect("the file");
        let fighting = plan(&conn, &crate::repo::combats::fighting_in(&ana).build(DbBackend::Sqlite));
        let latest = plan(
            &conn,
            &crate::settle::hospital::newest_first(ana.id).build(DbBackend::Sqlite),
        );
        drop(conn);
        assert!(fighting.contains("ux_combats_active_channel"), "{fighting}");
        assert!(
            fighting.contains("sqlite_autoindex_combatants_1 (combat_id=?)"),
            "{fighting}"
        );
        assert!(!fighting.contains("ix_combatants_character"), "{fighting}");
        // The Hospital's newest record first, by its index: no sort of them all.
        assert!(latest.contains("ix_hospital_records_latest"), "{latest}");
        assert!(!latest.contains("TEMP B-TREE"), "{latest}");
    }

    /// SQLite's plan of `statement`, its steps one a line.
    fn plan(conn: &rusqlite::Connection, statement: &sea_orm::Statement) -> String {
        let mut explain = conn
            .prepare(&format!("EXPLAIN QUERY PLAN {}", statement.sql))
            .expect("a plan");
        let values = statement.values.as_ref().map_or(&[][..], |v| &v.0[..]);
        let bound = values.iter().map(crate::writer::Bound);
        explain
            .query_map(rusqlite::params_from_iter(bound), |row| row.get::<_, String>(3))
            .expect("its steps")
            .collect::<Result<Vec<_>, _>>()
            .expect("its steps")
            .join("\n")
    }
}
