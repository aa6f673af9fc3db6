//! The service suite: every command's happy path and refusals, a whole fight from character
//! creation through an expedition encounter to victory, a combat resumed mid-reaction-window
//! by a fresh `Service`, and a race of concurrent commands on one combat — each on in-memory
//! SQLite, a SQLite file and PostgreSQL (see `common`).

#[macro_use]
mod common;
mod rows;

use std::sync::Arc;

use chrono::{Duration, TimeZone, Utc};
use engine::content::{Armor, Class, Item, Race, Weapon};
use engine::{Event, Outcome, RuleViolation};
use rows::check_denormalised_rows;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use service::cmd::gm::HpAdjusted;
use service::entity::{combat as combat_row, timer};
use service::repo::{characters, combats};
use service::{CombatUpdate, DateTimeUtc, Db, Notice, PlayerCommand, Service, ServiceError};
use tokio::sync::Barrier;

on_every_backend! {
    character_create_sheet_and_refusals => crate::character_create_sheet_and_refusals;
    equip_unequip_and_inventory => crate::equip_unequip_and_inventory;
    level_up_follows_xp => crate::level_up_follows_xp;
    expedition_start_leave_and_refusals => crate::expedition_start_leave_and_refusals;
    full_fight_from_creation_to_victory => crate::full_fight_from_creation_to_victory;
    combat_commands_and_refusals => crate::combat_commands_and_refusals;
    gm_tools => crate::gm_tools;
    fresh_service_resumes_a_combat_mid_reaction_window => crate::fresh_service_resumes_a_combat_mid_reaction_window;
    reaction_window_times_out_into_a_pass => crate::reaction_window_times_out_into_a_pass;
    a_window_opened_after_the_fight_timer_was_armed_has_its_full_timeout => crate::a_window_opened_after_the_fight_timer_was_armed_has_its_full_timeout;
    a_fight_stored_with_a_timer_row_a_window_loads_times_out_and_goes_on => crate::a_fight_stored_with_a_timer_row_a_window_loads_times_out_and_goes_on;
    concurrent_commands_on_one_combat_keep_the_log_consistent => crate::concurrent_commands_on_one_combat_keep_the_log_consistent;
    roll_expressions => crate::roll_expressions;
    the_sheet_during_a_fight_shows_the_hp_the_fight_has_left => crate::the_sheet_during_a_fight_shows_the_hp_the_fight_has_left;
    encumbered_minus_ten_heavily_encumbered_minus_twenty_by_carry_weight => crate::encumbered_minus_ten_heavily_encumbered_minus_twenty_by_carry_weight;
    search_examines_surroundings_for_hidden_things_a_cache_pays_a_hidden_door_saves_a_room => crate::search_examines_surroundings_for_hidden_things_a_cache_pays_a_hidden_door_saves_a_room;
}

/// A fixed clock: tests never read the real one.
fn now() -> DateTimeUtc {
    Utc.with_ymd_and_hms(2026, 11, 29, 12, 0, 0).unwrap()
}

const CHANNEL: &str = "channel-1";

async fn campaign(svc: &Service) -> Result<i64, ServiceError> {
    Ok(svc.campaign_for("guild", CHANNEL, now()).await?.id)
}

fn rule(err: &ServiceError) -> Option<&RuleViolation> {
    match err {
        ServiceError::Rules(v) => Some(v),
        _ => None,
    }
}

async fn character_create_sheet_and_refusals(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db.clone());
    let camp = campaign(&svc).await?;
    let sheet = svc
        .create_character(camp, "alice", " Aria ", "half elf", "Rogue", now())
        .await?;
    assert_eq!(
        (sheet.name.as_str(), sheet.race, sheet.class, sheet.level),
        ("Aria", Race::HALF_ELF, Class::ROGUE, 1)
    );
    assert_eq!((sheet.hp, sheet.coins, sheet.xp), (sheet.max_hp, 20, 0));
    assert_eq!(sheet.weapon, Weapon::SHORTSWORD);
    assert_eq!(sheet.off_hand, Some(Weapon::DAGGER));
    assert_eq!(sheet.armor, Armor::LEATHER);
    assert_eq!(sheet.next_level_xp, Some(300));
    assert_eq!(svc.sheet(camp, "alice").await?, sheet);

    let err = svc
        .create_character(camp, "bob", "Bram", "gnome", "fighter", now())
        .await
        .unwrap_err();
    assert!(matches!(err, ServiceError::Unknown { kind: "race", .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "There's no race called \"gnome\". Choose one of: Human, Elf, Dwarf, Halfling, Orc, Tiefling or Half-Elf."
    );
    let err = svc
        .create_character(camp, "bob", "Bram", "dwarf", "bard", now())
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("Fighter, Rogue, Ranger, Cleric, Mage or Berserker"),
        "{err}"
    );
    let err = svc
        .create_character(camp, "bob", "   ", "dwarf", "fighter", now())
        .await
        .unwrap_err();
    assert!(matches!(err, ServiceError::InvalidInput(_)), "{err:?}");
    let err = svc
        .create_character(camp, "alice", "Again", "dwarf", "fighter", now())
        .await
        .unwrap_err();
    assert!(matches!(err, ServiceError::CharacterExists { .. }), "{err:?}");
    assert!(matches!(svc.sheet(camp, "bob").await, Err(ServiceError::NoCharacter)));
    // Nothing was written by the refusals.
    assert_eq!(characters::list(db.conn(), camp).await?.len(), 1);
    Ok(())
}

async fn equip_unequip_and_inventory(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = campaign(&svc).await?;
    let sheet = svc
        .create_character(camp, "bob", "Bram", "dwarf", "fighter", now())
        .await?;
    assert!(sheet.shield);
    let ac_with_shield = sheet.armor_class;
    let inv = svc.inventory(camp, "bob").await?;
    assert_eq!((inv.coins, inv.items.clone()), (20, vec![(Item::POTION_OF_HEALING, 1)]));

    let sheet = svc.unequip(camp, "bob", "shield").await?;
    assert!(!sheet.shield);
    assert_eq!(sheet.armor_class, ac_with_shield - 2);
    assert_eq!(svc.inventory(camp, "bob").await?.pack.shields, 1);
    let sheet = svc.equip(camp, "bob", "shield", false).await?;
    assert!(sheet.shield);

    let err = svc.equip(camp, "bob", "greatsword", false).await.unwrap_err();
    assert!(matches!(err, ServiceError::NotCarried { .. }), "{err:?}");
    let err = svc.equip(camp, "bob", "banana", false).await.unwrap_err();
    assert!(matches!(err, ServiceError::Unknown { .. }), "{err:?}");
    svc.gm_grant_item(camp, "bob", "greatsword", 1).await?;
    let sheet = svc.equip(camp, "bob", "Greatsword", false).await?;
    assert_eq!(sheet.weapon, Weapon::GREATSWORD);
    assert_eq!(svc.inventory(camp, "bob").await?.pack.weapons, vec![Weapon::LONGSWORD]);
    // Only a Light weapon fits the off hand, and not beside a shield.
    let err = svc.equip(camp, "bob", "longsword", true).await.unwrap_err();
    assert!(err.to_string().contains("Light"), "{err}");
    svc.gm_grant_item(camp, "bob", "dagger", 1).await?;
    let err = svc.equip(camp, "bob", "dagger", true).await.unwrap_err();
    assert!(err.to_string().contains("shield"), "{err}");

    let sheet = svc.unequip(camp, "bob", "armor").await?;
    assert_eq!(sheet.armor, Armor::NONE);
    let err = svc.unequip(camp, "bob", "armor").await.unwrap_err();
    assert!(matches!(err, ServiceError::InvalidInput(_)), "{err:?}");
    let sheet = svc.equip(camp, "bob", "chain mail", false).await?;
    assert_eq!(sheet.armor, Armor::CHAIN_MAIL);
    Ok(())
}

async fn level_up_follows_xp(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db.clone());
    let camp = campaign(&svc).await?;
    let before = svc
        .create_character(camp, "carl", "Cato", "human", "cleric", now())
        .await?;
    let err = svc.level_up(camp, "carl").await.unwrap_err();
    assert!(
        matches!(
            err,
            ServiceError::NotEnoughXp {
                xp: 0,
                needed: 300,
                next: 2
            }
        ),
        "{err:?}"
    );

    let mut row = characters::for_player(db.conn(), camp, "carl").await?.unwrap();
    row.xp = 1_000;
    characters::update(db.conn(), row).await?;
    assert!(svc.sheet(camp, "carl").await?.can_level_up);
    let after = svc.level_up(camp, "carl").await?;
    assert_eq!(after.level, 3);
    assert!(after.max_hp > before.max_hp);
    assert_eq!(after.hp, after.max_hp);
    assert!(!after.can_level_up);
    Ok(())
}

async fn expedition_start_leave_and_refusals(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = campaign(&svc).await?;
    assert!(matches!(
        svc.start_expedition(camp, "dora", "forest", now()).await,
        Err(ServiceError::NoCharacter)
    ));
    svc.create_character(camp, "dora", "Dora", "elf", "ranger", now())
        .await?;
    let err = svc.start_expedition(camp, "dora", "moon", now()).await.unwrap_err();
    assert!(err.to_string().contains("Forest of Shadows"), "{err}");
    assert!(matches!(
        svc.advance(camp, CHANNEL, "dora", now()).await,
        Err(ServiceError::NoExpedition)
    ));

    let exp = svc.start_expedition(camp, "dora", "sunken temple", now()).await?;
    assert_eq!(
        (exp.tier, exp.room, exp.rooms, exp.status.as_str()),
        (1, 0, 4, "active")
    );
    let err = svc.start_expedition(camp, "dora", "forest", now()).await.unwrap_err();
    assert!(matches!(err, ServiceError::OnExpedition { .. }), "{err:?}");
    let err = svc.complete_expedition(camp, "dora", now()).await.unwrap_err();
    assert!(matches!(err, ServiceError::InvalidInput(_)), "{err:?}");
    let (left, _) = svc.leave_expedition(camp, "dora", now()).await?;
    assert_eq!(left.status, "left");
    assert!(svc.expedition(camp, "dora").await?.is_none());
    Ok(())
}

/// Plays the party's turns until the fight is over: close to melee, attack, end the turn;
/// take every offered reaction.
async fn fight_to_the_end(
    svc: &Service,
    camp: i64,
    channel: &str,
    players: &[&str],
    mut update: CombatUpdate,
) -> Result<CombatUpdate, ServiceError> {
    let mut at = now();
    for _ in 0..500 {
        if update.combat.outcome.is_some() {
            return Ok(update);
        }
        at += Duration::seconds(1);
        if let Some(window) = &update.combat.window {
            let reactor = update.combat.get(window.reactor);
            let player = reactor.player_id().unwrap().to_owned();
            let label = window.options[0].label();
            update = svc
                .react(camp, channel, &player, label, update.window_token, at)
                .await?;
            continue;
        }
        let current = update.combat.get(update.combat.current().expect("a turn"));
        let player = current.player_id().expect("monsters act inside apply").to_owned();
        assert!(players.contains(&player.as_str()));
        let enemy = update
            .combat
            .combatants
            .iter()
            .find(|c| c.side == engine::Side::Enemies && !c.is_dead())
            .map(|c| c.name.clone())
            .unwrap();
        let attack = PlayerCommand::Attack {
            target: Some(enemy.clone()),
        };
        update = match svc.act(camp, channel, &player, &attack, at).await {
            Ok(u) => u,
            Err(ServiceError::Rules(RuleViolation::OutOfReach { .. })) => {
                svc.act(camp, channel, &player, &PlayerCommand::MoveMelee { target: enemy }, at)
                    .await?
            }
            Err(ServiceError::Rules(RuleViolation::ResourceSpent { .. } | RuleViolation::Incapacitated)) => {
                svc.end_turn(camp, channel, &player, at).await?
            }
            Err(err) => return Err(err),
        };
    }
    panic!("the fight did not end");
}

async fn full_fight_from_creation_to_victory(db: Db) -> Result<(), ServiceError> {
    let svc = Service::with_seed(db.clone(), 7);
    let camp = campaign(&svc).await?;
    svc.create_character(camp, "erin", "Erin", "orc", "fighter", now())
        .await?;
    // A veteran, so the test checks the flow rather than the dice.
    svc.gm_set_level(camp, "erin", 10).await?;
    let before = svc.sheet(camp, "erin").await?;
    svc.start_expedition(camp, "erin", "forest of shadows", now()).await?;
    let mut encounter = None;
    for _ in 0..4 {
        let room = svc.advance(camp, CHANNEL, "erin", now()).await?;
        assert_eq!(room.terrain_source, "dense undergrowth and root-covered floors");
        if let Some(fight) = room.encounter {
            assert_eq!(fight.combat.terrain.difficult, room.difficult);
            assert!(fight.combat.started);
            encounter = Some(fight);
            break;
        }
        assert_eq!(room.harvested.as_deref(), Some("Shadow moss"));
    }
    let fight = encounter.expect("the last room always holds a fight");
    // Refusals while fighting.
    assert!(matches!(
        svc.advance(camp, CHANNEL, "erin", now()).await,
        Err(ServiceError::InCombat { .. })
    ));
    assert!(matches!(
        svc.equip(camp, "erin", "shield", false).await,
        Err(ServiceError::InCombat { .. })
    ));
    assert!(matches!(
        svc.start_expedition(camp, "erin", "underdark", now()).await,
        Err(ServiceError::InCombat { .. })
    ));

    let combat_id = fight.combat_id;
    let end = fight_to_the_end(&svc, camp, CHANNEL, &["erin"], fight).await?;
    assert_eq!(end.combat.outcome, Some(Outcome::Victory));
    let Some(Notice::Settled(settled)) = end.notices.first() else {
        panic!("no settlement: {:?}", end.notices);
    };
    assert!(settled.xp_total > 0);
    assert_eq!(settled.shares.len(), 1);
    assert_eq!(settled.shares[0].xp, settled.xp_total);
    let after = svc.sheet(camp, "erin").await?;
    assert_eq!(after.xp, before.xp + settled.xp_total);
    assert_eq!(after.coins, before.coins + settled.coins_total);
    assert_eq!(after.hp, settled.shares[0].hp);
    assert!(!settled.materials.is_empty());
    let exp = svc.expedition(camp, "erin").await?.expect("still exploring");
    assert!(exp.materials.iter().any(|m| m.ends_with("trophy")));

    let row = combats::get(db.conn(), combat_id).await?;
    assert_eq!(row.status, "victory");
    let log = combats::events(db.conn(), combat_id).await?;
    assert_eq!(
        log.iter().map(|r| r.seq).collect::<Vec<_>>(),
        (1..=row.version).collect::<Vec<_>>()
    );
    // The channel is free again; the combat is over for good.
    assert!(matches!(
        svc.combat_status(camp, CHANNEL).await,
        Err(ServiceError::NoCombatInChannel)
    ));
    Ok(())
}

async fn combat_commands_and_refusals(db: Db) -> Result<(), ServiceError> {
    let svc = Service::with_seed(db, 3);
    let camp = campaign(&svc).await?;
    let dash = PlayerCommand::Dash;
    assert!(matches!(
        svc.act(camp, CHANNEL, "fay", &dash, now()).await,
        Err(ServiceError::NoCombatInChannel)
    ));
    svc.create_character(camp, "fay", "Fay", "human", "fighter", now())
        .await?;
    svc.create_character(camp, "gus", "Gus", "human", "fighter", now())
        .await?;
    svc.gm_set_level(camp, "fay", 8).await?;
    svc.gm_set_level(camp, "gus", 8).await?;
    let spawned = svc.gm_spawn(camp, CHANNEL, "ogre", 1, now()).await?;
    assert_eq!(spawned.notices[0], Notice::CombatCreated);
    assert!(matches!(
        svc.gm_spawn(camp, "elsewhere", "dragon", 0, now()).await,
        Err(ServiceError::InvalidInput(_))
    ));
    let joined = svc.join_combat(camp, CHANNEL, "gus", now()).await?;
    assert!(matches!(joined.notices[0], Notice::Joined { initiative: None, .. }));
    assert!(matches!(
        svc.join_combat(camp, CHANNEL, "gus", now()).await,
        Err(ServiceError::AlreadyJoined { .. })
    ));
    let err = svc.act(camp, CHANNEL, "gus", &dash, now()).await.unwrap_err();
    assert_eq!(rule(&err), Some(&RuleViolation::NotStarted));
    // Fay starts it and is joined on the way.
    let mut update = svc.start_combat(camp, CHANNEL, "fay", now()).await?;
    assert!(update.notices.iter().any(|n| matches!(n, Notice::Joined { .. })));
    assert!(update.combat.started);
    let err = svc.start_combat(camp, CHANNEL, "fay", now()).await.unwrap_err();
    assert_eq!(rule(&err), Some(&RuleViolation::AlreadyStarted));
    svc.create_character(camp, "hal", "Hal", "elf", "mage", now()).await?;
    let err = svc.act(camp, CHANNEL, "hal", &dash, now()).await.unwrap_err();
    assert_eq!(rule(&err), Some(&RuleViolation::NotInCombat));

    if update.combat.window.is_some() {
        let w = update.combat.window.clone().unwrap();
        let p = update.combat.get(w.reactor).player_id().unwrap().to_owned();
        update = svc.react(camp, CHANNEL, &p, "pass", None, now()).await?;
    }
    if update.combat.outcome.is_some() {
        return Ok(());
    }
    let current = update.combat.get(update.combat.current().unwrap());
    let (me, other) = if current.player_id() == Some("fay") {
        ("fay", "gus")
    } else {
        ("gus", "fay")
    };
    let err = svc.act(camp, CHANNEL, other, &dash, now()).await.unwrap_err();
    assert!(matches!(rule(&err), Some(RuleViolation::NotYourTurn { .. })), "{err:?}");
    let attack = PlayerCommand::Attack {
        target: Some("Nobody".into()),
    };
    let err = svc.act(camp, CHANNEL, me, &attack, now()).await.unwrap_err();
    assert!(
        matches!(rule(&err), Some(RuleViolation::UnknownTarget { .. })),
        "{err:?}"
    );
    let cast = PlayerCommand::Cast {
        spell: "wish".into(),
        target: None,
    };
    assert!(matches!(
        svc.act(camp, CHANNEL, me, &cast, now()).await,
        Err(ServiceError::Unknown { kind: "spell", .. })
    ));
    let version = update.version;
    let dashed = svc.act(camp, CHANNEL, me, &dash, now()).await?;
    assert_eq!(dashed.version, version + 1);
    assert!(dashed.events.iter().any(|e| matches!(e, Event::Dashed { .. })));
    let err = svc
        .act(camp, CHANNEL, me, &PlayerCommand::Dodge, now())
        .await
        .unwrap_err();
    assert!(
        matches!(rule(&err), Some(RuleViolation::ResourceSpent { .. })),
        "{err:?}"
    );
    let err = svc
        .act(camp, CHANNEL, me, &PlayerCommand::Rage, now())
        .await
        .unwrap_err();
    assert!(
        matches!(rule(&err), Some(RuleViolation::NoBonusActionGranted { .. })),
        "{err:?}"
    );
    let err = svc
        .act(
            camp,
            CHANNEL,
            me,
            &PlayerCommand::Ready {
                text: "sing when sad".into(),
            },
            now(),
        )
        .await
        .unwrap_err();
    assert!(rule(&err).is_some(), "{err:?}");
    let err = svc
        .act(
            camp,
            CHANNEL,
            me,
            &PlayerCommand::Move {
                direction: "sideways-ish".into(),
            },
            now(),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(rule(&err), Some(RuleViolation::UnknownDirection { .. })),
        "{err:?}"
    );
    // A refused command changes nothing: the version is where the dash left it.
    let status = svc.combat_status(camp, CHANNEL).await?;
    assert_eq!(status.version, version + 1);
    let ended = svc.end_turn(camp, CHANNEL, me, now()).await?;
    assert!(ended.events.iter().any(|e| matches!(e, Event::TurnEnded { .. })));
    Ok(())
}

async fn gm_tools(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db.clone());
    let camp = campaign(&svc).await?;
    svc.create_character(camp, "ivy", "Ivy", "tiefling", "mage", now())
        .await?;
    assert!(matches!(
        svc.gm_spawn(camp, CHANNEL, "unicorn", 1, now()).await,
        Err(ServiceError::Unknown { .. })
    ));
    assert_eq!(svc.gm_grant_coins(camp, "ivy", 30).await?.coins, 50);
    assert!(matches!(
        svc.gm_grant_coins(camp, "ivy", -51).await,
        Err(ServiceError::InvalidInput(_))
    ));
    let inv = svc.gm_grant_item(camp, "ivy", "potion of haste", 2).await?;
    assert!(inv.items.contains(&(Item::POTION_OF_HASTE, 2)));
    assert!(matches!(
        svc.gm_grant_item(camp, "ivy", "moonbeam", 1).await,
        Err(ServiceError::Unknown { .. })
    ));
    assert!(matches!(
        svc.gm_set_level(camp, "ivy", 21).await,
        Err(ServiceError::InvalidInput(_))
    ));
    let sheet = svc.gm_set_level(camp, "ivy", 5).await?;
    assert_eq!((sheet.level, sheet.xp), (5, 6_500));
    let HpAdjusted::Character(hurt) = svc.gm_adjust_hp(camp, CHANNEL, "ivy", -5, now()).await? else {
        panic!("not in a fight");
    };
    assert_eq!(hurt.hp, sheet.max_hp - 5);

    // Spawning into a begun fight rolls initiative for the newcomers.
    svc.gm_spawn(camp, CHANNEL, "giant rat", 1, now()).await?;
    let started = svc.start_combat(camp, CHANNEL, "ivy", now()).await?;
    if started.combat.outcome.is_none() {
        let more = svc.gm_spawn(camp, CHANNEL, "giant rat", 2, now()).await?;
        let Notice::Spawned { ids } = &more.notices[0] else {
            panic!("{:?}", more.notices)
        };
        assert_eq!(ids.len(), 2);
        for id in ids {
            assert!(more.combat.order.contains(id));
            assert!(more.combat.get(*id).name.starts_with("Giant Rat "));
        }
        assert_eq!(more.combat.current(), started.combat.current());
        let adjusted = svc.gm_adjust_hp(camp, CHANNEL, "Giant Rat 2", -1, now()).await?;
        assert!(matches!(adjusted, HpAdjusted::InCombat(_)));
        let ended = svc.gm_end_combat(camp, CHANNEL, now()).await?;
        assert_eq!(ended.combat.outcome, Some(Outcome::Halted));
        assert_eq!(combats::get(db.conn(), ended.combat_id).await?.status, "ended");
    }
    assert!(matches!(
        svc.gm_end_combat(camp, CHANNEL, now()).await,
        Err(ServiceError::NoCombatInChannel)
    ));
    // The channel takes a new fight, and an unbegun one can be closed too.
    svc.gm_spawn(camp, CHANNEL, "kobold", 1, now()).await?;
    let closed = svc.gm_end_combat(camp, CHANNEL, now()).await?;
    assert_eq!(closed.combat.outcome, Some(Outcome::Halted));
    Ok(())
}

async fn the_sheet_during_a_fight_shows_the_hp_the_fight_has_left(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db.clone());
    let camp = campaign(&svc).await?;
    let ivy = svc
        .create_character(camp, "ivy", "Ivy", "tiefling", "mage", now())
        .await?;
    let bo = svc
        .create_character(camp, "bo", "Bo", "human", "fighter", now())
        .await?;
    svc.gm_spawn(camp, CHANNEL, "ogre", 1, now()).await?;
    svc.join_combat(camp, CHANNEL, "ivy", now()).await?;
    svc.join_combat(camp, CHANNEL, "bo", now()).await?;
    let started = svc.start_combat(camp, CHANNEL, "ivy", now()).await?;
    assert!(started.combat.outcome.is_none());
    let HpAdjusted::InCombat(hurt) = svc.gm_adjust_hp(camp, CHANNEL, "Bo", -4, now()).await? else {
        panic!("Bo is in the fight");
    };
    let in_fight = hurt.combat.combatants.iter().find(|c| c.name == "Bo").expect("Bo").hp;
    // The row still holds the HP Bo went in with; the sheet shows the fight's.
    assert_eq!(
        characters::for_player(db.conn(), camp, "bo").await?.expect("row").hp,
        bo.max_hp
    );
    let sheet = svc.sheet(camp, "bo").await?;
    assert_eq!((sheet.hp, sheet.max_hp), (in_fight, bo.max_hp));
    assert!(sheet.hp <= bo.max_hp - 4, "{} of {}", sheet.hp, bo.max_hp);
    // Ivy's sheet shows hers (whatever the ogre has done to her by now).
    let ivy_in_fight = hurt.combat.combatants.iter().find(|c| c.name == "Ivy").expect("Ivy").hp;
    assert_eq!(svc.sheet(camp, "ivy").await?.hp, ivy_in_fight.max(0));
    assert!(ivy_in_fight <= ivy.max_hp);
    Ok(())
}

async fn encumbered_minus_ten_heavily_encumbered_minus_twenty_by_carry_weight(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db.clone());
    let camp = campaign(&svc).await?;
    let light = svc
        .create_character(camp, "bo", "Bo", "human", "fighter", now())
        .await?;
    let strength = light.abilities.str;
    assert_eq!(
        (light.encumbered_over, light.heavily_over),
        (strength * 5, strength * 10)
    );
    assert!(light.carried_lb <= light.encumbered_over, "{} lb", light.carried_lb);
    assert_eq!(light.speed, 30);
    // Plate weighs 65 lb (gear.toml): spare suits in the pack count.
    let plate = engine::content::Armor::PLATE.def().weight_lb;
    assert_eq!(plate, 65);
    svc.gm_grant_item(camp, "bo", "plate armor", 1).await?;
    let one = svc.sheet(camp, "bo").await?;
    assert_eq!(one.carried_lb, light.carried_lb + 65);
    let expect = |carried: i32| {
        if carried > strength * 10 {
            10
        } else if carried > strength * 5 {
            20
        } else {
            30
        }
    };
    assert_eq!(one.speed, expect(one.carried_lb));
    svc.gm_grant_item(camp, "bo", "plate armor", 1).await?;
    let two = svc.sheet(camp, "bo").await?;
    assert_eq!(two.carried_lb, light.carried_lb + 130);
    assert!(two.carried_lb > strength * 5, "two spare suits of plate encumber");
    assert_eq!(two.speed, expect(two.carried_lb));
    assert!(two.speed < 30);
    // Consumables weigh too: ten potions at half a pound are 5 lb.
    svc.gm_grant_item(camp, "bo", "potion of healing", 10).await?;
    assert_eq!(svc.sheet(camp, "bo").await?.carried_lb, two.carried_lb + 5);
    // And the fight sees the same speed.
    svc.gm_spawn(camp, CHANNEL, "ogre", 1, now()).await?;
    let joined = svc.join_combat(camp, CHANNEL, "bo", now()).await?;
    let bo = joined.combat.combatants.iter().find(|c| c.name == "Bo").expect("Bo");
    assert_eq!(bo.speed(), expect(two.carried_lb + 5));
    Ok(())
}

/// Searches on each of `player`'s turns until the room's hidden thing is found, then the GM
/// ends the fight in the party's favour. Returns the settlement's coins beyond the slain
/// monsters' share (the d6 and any cache).
async fn search_then_win(
    svc: &Service,
    camp: i64,
    player: &str,
    mut update: CombatUpdate,
) -> Result<(bool, i64), ServiceError> {
    let mut at = now();
    let mut found = false;
    for _ in 0..200 {
        if update.combat.outcome.is_some() {
            break;
        }
        at += Duration::seconds(1);
        if update.combat.window.is_some() {
            update = svc
                .react(camp, CHANNEL, player, "pass", update.window_token, at)
                .await?;
            continue;
        }
        found = found || !update.combat.terrain.found.is_empty();
        if found {
            let enemies: Vec<String> = update
                .combat
                .combatants
                .iter()
                .filter(|c| c.side == engine::Side::Enemies && !c.is_dead())
                .map(|c| c.name.clone())
                .collect();
            for enemy in enemies {
                if let HpAdjusted::InCombat(u) = svc.gm_adjust_hp(camp, CHANNEL, &enemy, -1000, at).await? {
                    update = u;
                }
            }
            continue;
        }
        update = match svc.act(camp, CHANNEL, player, &PlayerCommand::Search, at).await {
            Ok(u) => u,
            Err(ServiceError::Rules(RuleViolation::ResourceSpent { .. })) => {
                svc.end_turn(camp, CHANNEL, player, at).await?
            }
            Err(err) => return Err(err),
        };
    }
    let settled = update
        .notices
        .iter()
        .find_map(|n| match n {
            Notice::Settled(s) => Some(s.clone()),
            _ => None,
        })
        .expect("settled");
    assert_eq!(settled.outcome, Outcome::Victory);
    let slain: i64 = update
        .combat
        .combatants
        .iter()
        .filter_map(engine::Combatant::stat_block)
        .map(|m| i64::from(m.xp) / 5)
        .sum();
    Ok((found, settled.coins_total - slain))
}

async fn search_examines_surroundings_for_hidden_things_a_cache_pays_a_hidden_door_saves_a_room(
    db: Db,
) -> Result<(), ServiceError> {
    use engine::content::data::HiddenKind;
    use service::cmd::expedition::{parse_zone, room_hidden};
    let (mut cache_seen, mut door_seen) = (false, false);
    for seed in 1..40 {
        if cache_seen && door_seen {
            break;
        }
        let svc = Service::with_seed(db.clone(), seed);
        let camp = svc.campaign_for(&format!("guild-{seed}"), CHANNEL, now()).await?.id;
        svc.create_character(camp, "sid", "Sid", "human", "fighter", now())
            .await?;
        svc.gm_set_level(camp, "sid", 20).await?;
        svc.start_expedition(camp, "sid", "haunted manor", now()).await?;
        for _ in 0..5 {
            let entered = match svc.advance(camp, CHANNEL, "sid", now()).await {
                Ok(e) => e,
                Err(ServiceError::InvalidInput(_)) => break,
                Err(err) => return Err(err),
            };
            let room = entered.expedition.room;
            let Some(fight) = entered.encounter else { continue };
            let hidden = room_hidden(parse_zone("haunted manor")?, room).expect("the manor hides things");
            assert_eq!(
                fight.combat.terrain.hidden_things,
                vec![(hidden.what.to_string(), hidden.dc)],
                "room {room}"
            );
            let (found, extra) = search_then_win(&svc, camp, "sid", fight).await?;
            assert!(found);
            let after = svc.expedition(camp, "sid").await?.expect("still on it");
            match hidden.kind {
                HiddenKind::Cache { coins } => {
                    // The d6 and the cache: 30 coins in the manor.
                    assert_eq!(coins, 30);
                    assert!((31..=36).contains(&extra), "room {room}: {extra}");
                    cache_seen = true;
                }
                HiddenKind::Door if room + 1 < 5 => {
                    assert_eq!(after.room, room + 1, "the door saves a room");
                    door_seen = true;
                }
                _ => assert!((1..=6).contains(&extra), "room {room}: {extra}"),
            }
            if after.room >= 5 {
                break;
            }
        }
    }
    assert!(
        cache_seen && door_seen,
        "some seed fights in the cache's and the door's rooms"
    );
    Ok(())
}

/// A fighter in melee with a goblin who hits and runs: plays until the goblin leaves melee
/// and the fighter is offered an opportunity attack.
async fn open_a_reaction_window(svc: &Service, camp: i64) -> Result<CombatUpdate, ServiceError> {
    open_a_reaction_window_at(svc, camp, now()).await
}

/// [`open_a_reaction_window`], the fight begun at `now()` and played at `at`.
async fn open_a_reaction_window_at(svc: &Service, camp: i64, at: DateTimeUtc) -> Result<CombatUpdate, ServiceError> {
    svc.create_character(camp, "jo", "Jo", "human", "fighter", now())
        .await?;
    svc.gm_set_level(camp, "jo", 12).await?;
    svc.gm_spawn(camp, CHANNEL, "goblin", 1, now()).await?;
    let mut update = svc.start_combat(camp, CHANNEL, "jo", now()).await?;
    let now = || at;
    for _ in 0..40 {
        if update.combat.window.is_some() {
            return Ok(update);
        }
        assert!(
            update.combat.outcome.is_none(),
            "the fight ended before a window opened"
        );
        let melee = PlayerCommand::MoveMelee {
            target: "Goblin".into(),
        };
        update = match svc.act(camp, CHANNEL, "jo", &melee, now()).await {
            Ok(moved) if moved.combat.window.is_some() => moved,
            Ok(_) | Err(ServiceError::Rules(_)) => svc.end_turn(camp, CHANNEL, "jo", now()).await?,
            Err(err) => return Err(err),
        };
    }
    panic!("no reaction window opened");
}

async fn fresh_service_resumes_a_combat_mid_reaction_window(db: Db) -> Result<(), ServiceError> {
    let first = Service::with_seed(db.clone(), 11);
    let camp = campaign(&first).await?;
    let open = open_a_reaction_window(&first, camp).await?;
    let token = open.window_token.expect("a window has a token");
    // The window's timeout is kept by the fight's timer, due by the campaign's 30 seconds; the
    // token is an id of the timers' sequence that no row has.
    assert!(timer::Entity::find_by_id(token).one(db.conn()).await?.is_none());
    let due = fight_timer(&db, open.combat_id).await?;
    assert!(due.due_at <= now() + Duration::seconds(30));
    drop(first);

    // A restart: a new Service (empty cache) on the same database.
    let second = Service::with_seed(db.clone(), 11);
    let status = second.combat_status(camp, CHANNEL).await?;
    assert_eq!(status.version, open.version);
    assert_eq!(status.combat, open.combat);
    assert!(matches!(
        second
            .react(camp, CHANNEL, "jo", "Opportunity Attack", Some(token + 1), now())
            .await,
        Err(ServiceError::StaleButton)
    ));
    let reacted = second
        .react(camp, CHANNEL, "jo", "Opportunity Attack", Some(token), now())
        .await?;
    assert!(reacted.events.iter().any(|e| matches!(e, Event::ReactionTaken { .. })));
    assert_eq!(reacted.version, open.version + 1);
    // The same button pressed again is stale.
    assert!(matches!(
        second
            .react(camp, CHANNEL, "jo", "Opportunity Attack", Some(token), now())
            .await,
        Err(ServiceError::StaleButton | ServiceError::NoCombatInChannel)
    ));
    check_denormalised_rows(&db, reacted.combat_id).await
}

async fn reaction_window_times_out_into_a_pass(db: Db) -> Result<(), ServiceError> {
    let svc = Service::with_seed(db.clone(), 11);
    let camp = campaign(&svc).await?;
    let open = open_a_reaction_window(&svc, camp).await?;
    assert!(
        svc.next_timer_due()
            .await?
            .is_some_and(|due| due <= now() + Duration::seconds(30))
    );
    let reaction_passes = |fired: Vec<service::Fired>| -> Vec<service::CombatUpdate> {
        fired
            .into_iter()
            .filter_map(|f| match f {
                service::Fired::ReactionPassed(update) => Some(*update),
                _ => None,
            })
            .collect()
    };
    assert!(reaction_passes(svc.fire_due_timers(now() + Duration::seconds(29), "w").await?).is_empty());
    assert_eq!(svc.combat_status(camp, CHANNEL).await?.version, open.version);
    let passed = reaction_passes(svc.fire_due_timers(now() + Duration::seconds(30), "w").await?);
    assert_eq!(passed.len(), 1);
    assert!(
        passed[0]
            .events
            .iter()
            .any(|e| matches!(e, Event::ReactionPassed { .. }))
    );
    assert_eq!(passed[0].version, open.version + 1);
    assert_ne!(passed[0].window_token, open.window_token);
    Ok(())
}

/// The fight's timer is armed when the fight begins; a window that opens 20 seconds later still
/// has the campaign's full 30 seconds: the timer fires early (at 30 s), changes nothing, and
/// passes the window at 50 s.
async fn a_window_opened_after_the_fight_timer_was_armed_has_its_full_timeout(db: Db) -> Result<(), ServiceError> {
    let svc = Service::with_seed(db.clone(), 11);
    let camp = campaign(&svc).await?;
    let opened_at = now() + Duration::seconds(20);
    let open = open_a_reaction_window_at(&svc, camp, opened_at).await?;
    let armed = fight_timer(&db, open.combat_id).await?;
    assert!(
        armed.due_at <= now() + Duration::seconds(30),
        "armed when the fight began"
    );
    let passes = |fired: Vec<service::Fired>| {
        fired
            .iter()
            .filter(|f| matches!(f, service::Fired::ReactionPassed(_)))
            .count()
    };
    for early in [30, 40, 49] {
        assert_eq!(
            passes(svc.fire_due_timers(now() + Duration::seconds(early), "w").await?),
            0
        );
    }
    assert_eq!(svc.combat_status(camp, CHANNEL).await?.version, open.version);
    assert_eq!(
        fight_timer(&db, open.combat_id).await?.due_at,
        opened_at + Duration::seconds(30),
        "armed again for the window's end"
    );
    assert_eq!(
        passes(svc.fire_due_timers(now() + Duration::seconds(50), "w").await?),
        1
    );
    assert_eq!(svc.combat_status(camp, CHANNEL).await?.version, open.version + 1);
    // Still the fight's one timer, not one a window.
    fight_timer(&db, open.combat_id).await?;
    Ok(())
}

/// A fight stored before the fight's one timer (`m20261210_000013`) — its open window timed by a row of its own, whose id is the
/// window's token, and no fight timer — loads in a fresh process, takes its buttons, times the
/// window out at its row's time, and goes on with one timer for the fight.
async fn a_fight_stored_with_a_timer_row_a_window_loads_times_out_and_goes_on(db: Db) -> Result<(), ServiceError> {
    use sea_orm::{ActiveModelTrait, ActiveValue::Set, QueryOrder};
    use service::entity::combat_event;
    let first = Service::with_seed(db.clone(), 11).with_snapshot_every(1_000);
    let camp = campaign(&first).await?;
    let open = open_a_reaction_window(&first, camp).await?;
    let token = open.window_token.expect("a window has a token");
    drop(first);
    // As such a fight was stored: a row for the window, with the token as its id, due at the
    // window's end; no fight timer, in the log or the table.
    timer::Entity::delete_many()
        .filter(timer::Column::Kind.eq(service::COMBAT_TIMER))
        .exec(db.conn())
        .await?;
    timer::ActiveModel {
        id: Set(token),
        kind: Set(service::REACTION_TIMEOUT.to_owned()),
        campaign_id: Set(Some(camp)),
        due_at: Set(now() + Duration::seconds(30)),
        payload: Set(serde_json::json!({ "combat_id": open.combat_id, "version": open.version })),
        ..Default::default()
    }
    .insert(db.conn())
    .await?;
    combat_event::Entity::update_many()
        .col_expr(
            combat_event::Column::TurnTimerId,
            sea_orm::sea_query::Expr::value(Option::<i64>::None),
        )
        .filter(combat_event::Column::CombatId.eq(open.combat_id))
        .exec(db.conn())
        .await?;
    combat_row::Entity::update_many()
        .col_expr(
            combat_row::Column::TurnTimerId,
            sea_orm::sea_query::Expr::value(Option::<i64>::None),
        )
        .filter(combat_row::Column::Id.eq(open.combat_id))
        .exec(db.conn())
        .await?;

    let second = Service::with_seed(db.clone(), 11).with_snapshot_every(1_000);
    let status = second.combat_status(camp, CHANNEL).await?;
    assert_eq!((status.version, status.window_token), (open.version, Some(token)));
    let fired = second.fire_due_timers(now() + Duration::seconds(29), "w").await?;
    assert!(fired.is_empty(), "{fired:?}");
    let fired = second.fire_due_timers(now() + Duration::seconds(30), "w").await?;
    let passed: Vec<&service::CombatUpdate> = fired
        .iter()
        .filter_map(|f| match f {
            service::Fired::ReactionPassed(update) => Some(update.as_ref()),
            _ => None,
        })
        .collect();
    assert_eq!(passed.len(), 1, "{fired:?}");
    assert_eq!(passed[0].version, open.version + 1);
    // The spent row is gone; the fight goes on with its own timer, named by its log.
    assert!(timer::Entity::find_by_id(token).one(db.conn()).await?.is_none());
    if passed[0].combat.outcome.is_none() {
        let timer = fight_timer(&db, open.combat_id).await?;
        let last = combat_event::Entity::find()
            .filter(combat_event::Column::CombatId.eq(open.combat_id))
            .order_by_desc(combat_event::Column::Seq)
            .one(db.conn())
            .await?
            .expect("the log");
        assert_eq!(last.turn_timer_id, Some(timer.id));
    }
    Ok(())
}

/// The fight's one timer row ([`service::COMBAT_TIMER`]).
async fn fight_timer(db: &Db, combat_id: i64) -> Result<timer::Model, ServiceError> {
    let rows: Vec<timer::Model> = timer::Entity::find()
        .filter(timer::Column::Kind.eq(service::COMBAT_TIMER))
        .all(db.conn())
        .await?
        .into_iter()
        .filter(|t| t.payload["combat_id"] == combat_id)
        .collect();
    assert_eq!(rows.len(), 1, "{rows:?}");
    Ok(rows.into_iter().next().expect("one"))
}

async fn concurrent_commands_on_one_combat_keep_the_log_consistent(db: Db) -> Result<(), ServiceError> {
    // Two services on one database: two bot processes, each with its own cache.
    let a = Service::with_seed(db.clone(), 11);
    let b = Service::with_seed(db.clone(), 11);
    let camp = campaign(&a).await?;
    let open = open_a_reaction_window(&a, camp).await?;
    // Both caches hold the combat, so each one's writes make the other's copy stale.
    assert_eq!(b.combat_status(camp, CHANNEL).await?.version, open.version);
    let token = open.window_token;
    let racers = 16;
    let barrier = Arc::new(Barrier::new(racers));
    let mut tasks = Vec::new();
    for i in 0..racers {
        let svc = if i % 2 == 0 { a.clone() } else { b.clone() };
        let barrier = barrier.clone();
        tasks.push(tokio::spawn(async move {
            barrier.wait().await;
            let result = match i % 4 {
                0 => svc.react(camp, CHANNEL, "jo", "Opportunity Attack", token, now()).await,
                1 => svc.react(camp, CHANNEL, "jo", "pass", token, now()).await,
                2 => svc.act(camp, CHANNEL, "jo", &PlayerCommand::Dodge, now()).await,
                _ => svc.act(camp, CHANNEL, "jo", &PlayerCommand::Dash, now()).await,
            };
            (i % 4, result)
        }));
    }
    let (mut answers, mut actions) = (0, 0);
    for task in tasks {
        match task.await.expect("task panicked") {
            (0 | 1, Ok(_)) => answers += 1,
            (_, Ok(_)) => actions += 1,
            (_, Err(ServiceError::Rules(_) | ServiceError::StaleButton | ServiceError::NoCombatInChannel)) => {}
            (_, Err(err)) => panic!("unexpected failure: {err}"),
        }
    }
    assert_eq!(answers, 1, "exactly one answer to the window wins");
    assert!(actions <= 1, "one action per turn: {actions} action commands succeeded");

    let version = combats::version(db.conn(), open.combat_id).await?;
    let log = combats::events(db.conn(), open.combat_id).await?;
    assert_eq!(
        log.iter().map(|r| r.seq).collect::<Vec<_>>(),
        (1..=version).collect::<Vec<_>>()
    );
    assert_eq!(version, open.version + 1 + actions);
    for entry in &log {
        let events: Vec<Event> = entry.events().expect("events parse");
        let _ = events;
    }
    let open_timers = timer::Entity::find().all(db.conn()).await?;
    let live = b.combat_status(camp, CHANNEL).await;
    match live {
        Ok(_) => {
            // No timer leaked in the race: the fight's one timer, whatever is open.
            assert_eq!(open_timers.len(), 1, "{open_timers:?}");
            assert_eq!(open_timers[0].kind, service::COMBAT_TIMER);
            assert_eq!(open_timers[0].payload["combat_id"], open.combat_id);
        }
        Err(ServiceError::NoCombatInChannel) => {
            let ended = combat_row::Entity::find_by_id(open.combat_id)
                .one(db.conn())
                .await?
                .unwrap();
            assert_ne!(ended.status, "active");
        }
        Err(err) => return Err(err),
    }
    check_denormalised_rows(&db, open.combat_id).await
}

/// What seed 9's roll stream gives for `4d6kh3 [str]` (found by rolling it once; a change means
/// the stream or the dice engine changed what a seed rolls).
const SEED_9_4D6KH3: &str = "4d6kh3 (3, 3, ~~3~~, **6**) [str]";
const SEED_9_4D6KH3_TOTAL: i64 = 12;

async fn roll_expressions(db: Db) -> Result<(), ServiceError> {
    let svc = Service::with_seed(db.clone(), 5);
    for _ in 0..50 {
        let adv = svc.roll("2d20kh1")?;
        assert!((1..=20).contains(&adv.total), "{adv:?}");
        assert!((3..=18).contains(&svc.roll("4d6dl1")?.total));
        assert!((6..=25).contains(&svc.roll("1d20 + 5")?.total));
        assert!((10..=30).contains(&svc.roll("(2d6+3)*2")?.total));
    }
    assert_eq!(svc.roll("3 + 4 * 2")?.total, 11);
    for bad in ["", "2d", "abc", "1d20+", "d20 d20", "2d6dl2"] {
        let err = svc.roll(bad).unwrap_err();
        assert!(matches!(err, ServiceError::BadDiceExpression { .. }), "{bad}: {err:?}");
    }
    // Same seed, same rolls.
    let again = Service::with_seed(db, 5);
    let first: Vec<i64> = (0..10).map(|_| again.roll("1d100").unwrap().total).collect();
    let fresh = Service::with_seed(again.db().clone(), 5);
    let second: Vec<i64> = (0..10).map(|_| fresh.roll("1d100").unwrap().total).collect();
    assert_eq!(first, second);

    // A refused roll changes nothing: refused before rolling (limits, syntax) or half-way (the
    // dice budget), the stream is where it was, and the next roll is the one it would have been.
    let clean = Service::with_seed(again.db().clone(), 9);
    let busy = Service::with_seed(again.db().clone(), 9);
    for refused in ["1d0x", "1d0rr=0", "1001d6", "1d1e1", "255d255rr<255", "d20 d20"] {
        let err = busy.roll(refused).unwrap_err();
        assert!(
            matches!(err, ServiceError::BadDiceExpression { .. }),
            "{refused}: {err:?}"
        );
    }
    assert_eq!(busy.roll("4d6kh3 + 1d20")?, clean.roll("4d6kh3 + 1d20")?);

    // Seed 9's first rolls, shown as players see them.
    let seeded = Service::with_seed(again.db().clone(), 9);
    let rolled = seeded.roll("4d6kh3 [str] to see")?;
    assert_eq!(rolled.expression, "4d6kh3 [str]");
    assert_eq!(rolled.comment.as_deref(), Some("to see"));
    assert_eq!(
        (rolled.detail.as_str(), rolled.total),
        (SEED_9_4D6KH3, SEED_9_4D6KH3_TOTAL),
        "{rolled:?}"
    );

    // Rolls from many threads at once: each is one of the seed's rolls, none twice (the
    // stream is never shared by two rolls), and the set is the sequential one.
    let threaded = Service::with_seed(again.db().clone(), 11);
    let sequential = Service::with_seed(again.db().clone(), 11);
    let mut expected: Vec<String> = (0..64).map(|_| sequential.roll("3d6e6").unwrap().detail).collect();
    let mut got: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                scope.spawn(|| {
                    (0..16)
                        .map(|_| threaded.roll("3d6e6").unwrap().detail)
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    expected.sort();
    got.sort();
    assert_eq!(got, expected);
    Ok(())
}
