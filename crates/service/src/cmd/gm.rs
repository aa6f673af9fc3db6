//! GM tools for server owners (the caller checks Manage Server): spawn monsters, adjust HP,
//! grant coins or items, set a character's level, end a combat.

use engine::content::data::MAX_LEVEL;
use std::sync::Arc;

use engine::content::data::{Content, MonsterDef};
use engine::content::{Armor, Weapon};
use engine::{Actor, Combatant, Command, Terrain};

use crate::convert::{self, SHIELD, choices};
use crate::repo::characters;
use crate::settle::expedition::name_monsters;
use crate::settle::sheet::{Inventory, Sheet, set_level};
use crate::store::{Applied, Logged, NewFight};
use crate::{CombatUpdate, DateTimeUtc, Notice, Service, ServiceError};

/// Most monsters one `/gm spawn` adds.
pub const MAX_SPAWN: u32 = 12;

/// What `/gm hp` changed: a combatant in the channel's fight, or a character out of combat.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)] // returned once per command and matched at once, never stored
pub enum HpAdjusted {
    InCombat(CombatUpdate),
    Character(Sheet),
}

/// `/gm spawn`'s options: which monster, how many, and what changes for this fight only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spawn {
    /// A monster of the campaign's content (built-in or homebrew), by name or alias.
    pub monster: String,
    pub count: u32,
    /// Their names: `#` is each one's number ("Orc#" → Orc1, Orc2); without `#`, numbered
    /// "Name 1", "Name 2" when more than one.
    pub name: Option<String>,
    /// Hit points (each starts full), 1–[`MAX_SPAWN_HP`].
    pub hp: Option<i32>,
    /// Armor class, within the content's range (1–40).
    pub ac: Option<i32>,
}

/// The most hit points `/gm spawn hp:` gives.
pub const MAX_SPAWN_HP: i32 = 999;

fn parse_monster(content: &Content, text: &str) -> Result<Arc<MonsterDef>, ServiceError> {
    content
        .monsters
        .get(text)
        .cloned()
        .ok_or_else(|| ServiceError::Unknown {
            kind: "monster",
            given: text.trim().to_owned(),
            valid: choices(content.monsters.all().iter().map(|m| &*m.name)),
        })
}

/// The monsters `spawn` asks for, named after those already in `existing`.
fn spawned(content: &Content, spawn: &Spawn, existing: &[Combatant]) -> Result<Vec<Combatant>, ServiceError> {
    let mut def = parse_monster(content, &spawn.monster)?;
    if !(1..=MAX_SPAWN).contains(&spawn.count) {
        return Err(ServiceError::InvalidInput(format!(
            "Spawn between 1 and {MAX_SPAWN} monsters at a time."
        )));
    }
    if let Some(ac) = spawn.ac {
        if !engine::content::data::ARMOR_CLASS.contains(&i64::from(ac)) {
            return Err(ServiceError::InvalidInput(format!(
                "ac:{ac} is out of range: allowed {}–{}.",
                engine::content::data::ARMOR_CLASS.start(),
                engine::content::data::ARMOR_CLASS.end()
            )));
        }
        let mut changed = (*def).clone();
        changed.armor_class = ac;
        def = Arc::new(changed);
    }
    if let Some(hp) = spawn.hp.filter(|hp| !(1..=MAX_SPAWN_HP).contains(hp)) {
        return Err(ServiceError::InvalidInput(format!(
            "hp:{hp} is out of range: allowed 1–{MAX_SPAWN_HP}."
        )));
    }
    let mut monsters = match spawn.name.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
        None => name_monsters(&def, spawn.count, existing),
        Some(pattern) => {
            if pattern.chars().count() > 32 {
                return Err(ServiceError::InvalidInput(
                    "name: is at most 32 characters (`#` is each one's number).".into(),
                ));
            }
            let norm = engine::content::normalize;
            let taken = |n: &str| existing.iter().any(|c| norm(&c.name) == norm(n));
            let mut names = Vec::new();
            let mut i = 0;
            while names.len() < spawn.count as usize {
                i += 1;
                let candidate = if pattern.contains('#') {
                    pattern.replace('#', &i.to_string())
                } else if spawn.count == 1 && i == 1 {
                    pattern.to_owned()
                } else {
                    format!("{pattern} {i}")
                };
                if !taken(&candidate) && !names.iter().any(|n: &String| norm(n) == norm(&candidate)) {
                    names.push(candidate);
                }
            }
            names
                .iter()
                .map(|n| Combatant::of_monster(n, Arc::clone(&def)))
                .collect()
        }
    };
    if let Some(hp) = spawn.hp {
        for m in &mut monsters {
            m.max_hp = hp;
            m.hp = hp;
        }
    }
    Ok(monsters)
}

impl Service {
    /// `/gm spawn monster count`: adds monsters to the channel's fight (rolling their
    /// initiative if it has begun), or creates a fight with them for players to join.
    pub async fn gm_spawn(
        &self,
        campaign_id: i64,
        channel_id: &str,
        monster: &str,
        count: u32,
        now: DateTimeUtc,
    ) -> Result<CombatUpdate, ServiceError> {
        let spawn = Spawn {
            monster: monster.to_owned(),
            count,
            name: None,
            hp: None,
            ac: None,
        };
        self.gm_spawn_with(campaign_id, channel_id, &spawn, now).await
    }

    /// `/gm spawn monster count name hp ac`: as [`Service::gm_spawn`], with the monster looked
    /// up in the campaign's content (homebrew included) and its name, HP and AC changed for
    /// this fight only.
    pub async fn gm_spawn_with(
        &self,
        campaign_id: i64,
        channel_id: &str,
        spawn: &Spawn,
        now: DateTimeUtc,
    ) -> Result<CombatUpdate, ServiceError> {
        let content = self.content(campaign_id).await?;
        spawned(&content, spawn, &[])?;
        let count = spawn.count;
        crate::service::fresh_channel!(self, campaign_id, channel_id, {
            if let Some(combat_id) = self.store.in_channel(campaign_id, channel_id).await? {
                let written = self
                    .store
                    .run(combat_id, now, |live| {
                        if live.combat.duel {
                            return Err(ServiceError::ArenaDuel);
                        }
                        crate::store::room_for(&live.combat, count as usize)?;
                        let spawned = spawned(&content, spawn, &live.combat.combatants)?;
                        let mut ids = Vec::new();
                        let mut events = Vec::new();
                        let mut commands = Vec::new();
                        for m in spawned {
                            let (id, mut joined) = live.join(m.clone(), None, now)?;
                            ids.push(id);
                            events.append(&mut joined);
                            commands.push((Actor::Director, Command::Join { combatant: Box::new(m) }));
                        }
                        Ok(Applied {
                            logged: Logged::Sequence { commands },
                            events,
                            extra: Notice::Spawned { ids },
                        })
                    })
                    .await?;
                return Ok(Self::update(written.live, written.events, vec![written.extra.0]));
            }
            let members: Vec<_> = spawned(&content, spawn, &[])?.into_iter().map(|m| (m, None)).collect();
            let ids = (0..members.len() as u32).map(engine::CombatantId).collect();
            let live = self
                .open_combat(
                    NewFight {
                        campaign_id,
                        channel_id,
                        expedition_id: None,
                        members,
                        terrain: Terrain::default(),
                        duel: false,
                    },
                    now,
                )
                .await?;
            self.store.cache_new(&live).await;
            Ok(Self::update(
                live,
                Vec::new(),
                vec![Notice::CombatCreated, Notice::Spawned { ids }],
            ))
        })
    }

    /// `/gm hp target delta`: in the channel's fight, changes a combatant's HP through the
    /// rules (damage can down; healing can revive); out of combat, changes a character's
    /// stored HP (within 0 and its max).
    pub async fn gm_adjust_hp(
        &self,
        campaign_id: i64,
        channel_id: &str,
        target: &str,
        delta: i32,
        now: DateTimeUtc,
    ) -> Result<HpAdjusted, ServiceError> {
        crate::service::fresh_channel!(self, campaign_id, channel_id, {
            if let Some(combat_id) = self.store.in_channel(campaign_id, channel_id).await? {
                let live = self.store.snapshot(combat_id).await?;
                if live.combat.started && live.combat.by_name(target).is_ok() {
                    let update = self
                        .engine_command(combat_id, now, |combat| {
                            let id = combat.by_name(target)?.id;
                            Ok((Actor::Director, Command::AdjustHp { target: id, delta }))
                        })
                        .await?;
                    return Ok(HpAdjusted::InCombat(update));
                }
            }
            // The stored character's sheet reads the campaign's content: loaded before the
            // write, so content that does not load refuses the change and stores nothing.
            let content = self.content(campaign_id).await?;
            let row = characters::by_name(self.db(), campaign_id, target)
                .await?
                .ok_or_else(|| {
                    ServiceError::Rules(engine::RuleViolation::UnknownTarget {
                        name: target.to_owned(),
                    })
                })?;
            Self::not_fighting(self.db(), &row).await?;
            if delta == 0 {
                return Err(ServiceError::InvalidInput("A change of 0 HP changes nothing.".into()));
            }
            let row = characters::modify(self.db(), row, |row| {
                row.hp = row.hp.saturating_add(delta).clamp(0, row.max_hp.max(0));
                Ok(())
            })
            .await?;
            Ok(HpAdjusted::Character(Sheet::of(&row, &content)?))
        })
    }

    /// `/gm coins player amount`: gives (or, negative, takes) coins; never below zero.
    pub async fn gm_grant_coins(
        &self,
        campaign_id: i64,
        player_id: &str,
        amount: i64,
    ) -> Result<Inventory, ServiceError> {
        let conn = self.db().conn();
        let row = Self::character_of(conn, campaign_id, player_id).await?;
        characters::modify(self.db(), row, |row| {
            row.coins = row.coins.checked_add(amount).filter(|c| *c >= 0).ok_or_else(|| {
                ServiceError::InvalidInput(if amount < 0 {
                    format!(
                        "{} has {} coins; that would leave fewer than none.",
                        row.name, row.coins
                    )
                } else {
                    format!(
                        "{} has {} coins; that would be more than can be counted.",
                        row.name, row.coins
                    )
                })
            })?;
            Ok(())
        })
        .await?;
        self.inventory(campaign_id, player_id).await
    }

    /// `/gm give player item count`: a consumable of the campaign's content (built-in or its
    /// homebrew) goes to the inventory, a weapon, armor or shield to the pack (to equip).
    /// Consumables wait until the character's fight is over.
    pub async fn gm_grant_item(
        &self,
        campaign_id: i64,
        player_id: &str,
        item: &str,
        count: u32,
    ) -> Result<Inventory, ServiceError> {
        if !(1..=99).contains(&count) {
            return Err(ServiceError::InvalidInput("Give between 1 and 99 at a time.".into()));
        }
        let conn = self.db().conn();
        let row = Self::character_of(conn, campaign_id, player_id).await?;
        let content = self.content(campaign_id).await?;
        if content.item_id(item).is_some() {
            Self::not_fighting(conn, &row).await?;
        }
        characters::modify(self.db(), row, |row| give(row, &content, item, count)).await?;
        self.inventory(campaign_id, player_id).await
    }

    /// `/gm level player level`: sets the level (1–20); XP moves into that level's range.
    pub async fn gm_set_level(&self, campaign_id: i64, player_id: &str, level: u32) -> Result<Sheet, ServiceError> {
        if !(1..=MAX_LEVEL).contains(&level) {
            return Err(ServiceError::InvalidInput(format!("Levels run from 1 to {MAX_LEVEL}.")));
        }
        let content = self.content(campaign_id).await?;
        let conn = self.db().conn();
        let row = Self::character_of(conn, campaign_id, player_id).await?;
        Self::not_fighting(conn, &row).await?;
        let row = characters::modify(self.db(), row, |row| {
            set_level(row, level)?;
            let floor = engine::content::data::levels().xp[level as usize - 1];
            let ceiling = engine::content::data::levels()
                .xp
                .get(level as usize)
                .map_or(u32::MAX, |next| next - 1);
            let xp = u32::try_from(row.xp).unwrap_or(0).clamp(floor, ceiling);
            row.xp = i32::try_from(xp).unwrap_or(i32::MAX);
            Ok(())
        })
        .await?;
        Sheet::of(&row, &content)
    }

    /// `/gm end`: ends the channel's fight with no winner; HP and consumables go back to
    /// the characters.
    pub async fn gm_end_combat(
        &self,
        campaign_id: i64,
        channel_id: &str,
        now: DateTimeUtc,
    ) -> Result<CombatUpdate, ServiceError> {
        crate::service::fresh_channel!(self, campaign_id, channel_id, {
            let combat_id = self.combat_in(campaign_id, channel_id).await?;
            let live = self.store.snapshot(combat_id).await?;
            if !live.combat.started {
                // The engine ends only begun fights; one that never began is closed here.
                let written = self
                    .store
                    .run(combat_id, now, |live| {
                        std::sync::Arc::make_mut(&mut live.combat).outcome = Some(engine::Outcome::Halted);
                        Ok(Applied {
                            logged: Logged::Close,
                            events: vec![engine::Event::CombatEnded {
                                outcome: engine::Outcome::Halted,
                                xp: 0,
                            }],
                            extra: (),
                        })
                    })
                    .await?;
                let notices = written.extra.1;
                return Ok(Self::update(written.live, written.events, notices));
            }
            self.engine_command(combat_id, now, |_| Ok((Actor::Director, Command::EndCombat)))
                .await
        })
    }
}

/// Most of one consumable, or pieces of gear in the pack, a character may carry.
pub const MAX_CARRIED: u32 = 999;

/// `/gm give`'s change to a character row: a consumable of `content` to the inventory, gear to
/// the pack, refused past [`MAX_CARRIED`].
fn give(
    row: &mut crate::entity::character::Model,
    content: &Content,
    item: &str,
    count: u32,
) -> Result<(), ServiceError> {
    let too_many = |what: &str, have: u32| {
        ServiceError::InvalidInput(format!(
            "{} carries {have} {what} already; {MAX_CARRIED} is the most one character can carry.",
            row.name
        ))
    };
    let mut pack = convert::pack(row)?;
    let gear_held = |pack: &convert::Pack| {
        u32::try_from(pack.weapons.len() + pack.armor.len())
            .unwrap_or(u32::MAX)
            .saturating_add(pack.shields)
    };
    if let Some(def) = content.items.get(item) {
        let consumable = engine::content::Item::named(&def.name).ok_or_else(|| unknown_item(content, item))?;
        let mut items = convert::inventory(row)?;
        let have = items.get(&consumable).copied().unwrap_or(0);
        let total = have.checked_add(count).filter(|n| *n <= MAX_CARRIED);
        let total = total.ok_or_else(|| too_many(&def.name, have))?;
        items.insert(consumable, total);
        row.inventory = convert::inventory_json(&items);
        return Ok(());
    }
    let room = |pack: &convert::Pack| {
        if gear_held(pack).checked_add(count).is_none_or(|n| n > MAX_CARRIED) {
            return Err(too_many("pieces of gear", gear_held(pack)));
        }
        Ok(())
    };
    if let Some(weapon) = Weapon::parse(item).filter(|w| *w != Weapon::UNARMED) {
        room(&pack)?;
        pack.weapons.extend(std::iter::repeat_n(weapon, count as usize));
    } else if let Some(armor) = Armor::parse(item).filter(|a| *a != Armor::NONE) {
        room(&pack)?;
        pack.armor.extend(std::iter::repeat_n(armor, count as usize));
    } else if item.trim().eq_ignore_ascii_case(SHIELD) {
        room(&pack)?;
        pack.shields += count;
    } else {
        return Err(unknown_item(content, item));
    }
    row.gear = convert::pack_json(&pack);
    Ok(())
}

/// An item `/gm give` does not know, with those it does: `content`'s consumables (the
/// campaign's homebrew among them), weapons, armor and the shield.
fn unknown_item(content: &Content, item: &str) -> ServiceError {
    let mut valid: Vec<&str> = content.items.all().iter().map(|i| &*i.name).collect();
    valid.extend(
        Weapon::all()
            .iter()
            .filter(|w| **w != Weapon::UNARMED)
            .map(|w| w.name()),
    );
    valid.extend(Armor::all().iter().filter(|a| **a != Armor::NONE).map(|a| a.name()));
    valid.push(SHIELD);
    ServiceError::Unknown {
        kind: "item",
        given: item.trim().to_owned(),
        valid: choices(valid),
    }
}
