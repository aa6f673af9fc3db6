//! Pets and housing (seed 000 §8.2: both kept on death) through the service, on every
//! backend: a pet bought at the shop that joins its owner's fights through the engine's `Join`
//! (so a fight rebuilt from its log has it too) and acts on its own turn; a room at the inn whose
//! chest stores what its owner does not carry (never in both places, whatever races it) and gives
//! a free long rest; and both still there after a death.

#[macro_use]
mod common;

use chrono::{TimeZone, Utc};
use engine::{Controller, Event, Side};
use service::cmd::gm::HpAdjusted;
use service::cmd::rest::RestKind;
use service::repo::characters;
use service::{CombatUpdate, DateTimeUtc, Db, Notice, Service, ServiceError};

on_every_backend! {
    a_pet_joins_its_owners_fights_and_acts_on_its_own_turn => crate::a_pet_joins_its_owners_fights_and_acts_on_its_own_turn;
    a_pet_joins_its_owners_expedition_encounters => crate::a_pet_joins_its_owners_expedition_encounters;
    a_room_stores_what_you_do_not_carry_and_rests_you_free => crate::a_room_stores_what_you_do_not_carry_and_rests_you_free;
    racing_stores_move_a_thing_once => crate::racing_stores_move_a_thing_once;
    pet_and_room_are_kept_on_death => crate::pet_and_room_are_kept_on_death;
}

fn now() -> DateTimeUtc {
    Utc.with_ymd_and_hms(2026, 12, 3, 12, 0, 0).unwrap()
}

const CHANNEL: &str = "channel-1";

async fn campaign(svc: &Service) -> Result<i64, ServiceError> {
    Ok(svc.campaign_for("guild", CHANNEL, now()).await?.id)
}

/// A fighter holding exactly `coins`.
async fn hero(svc: &Service, camp: i64, player: &str, name: &str, coins: i64) -> Result<(), ServiceError> {
    svc.create_character(camp, player, name, "human", "fighter", now())
        .await?;
    let held = svc.inventory(camp, player).await?.coins;
    svc.gm_grant_coins(camp, player, coins - held).await?;
    Ok(())
}

async fn row(svc: &Service, camp: i64, player: &str) -> Result<service::entity::character::Model, ServiceError> {
    Ok(characters::for_player(svc.db().conn(), camp, player)
        .await?
        .expect("a character"))
}

fn potions(inv: &service::Inventory) -> u32 {
    inv.items
        .iter()
        .find(|(i, _)| *i == engine::content::Item::POTION_OF_HEALING)
        .map_or(0, |(_, n)| *n)
}

async fn a_pet_joins_its_owners_fights_and_acts_on_its_own_turn(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = campaign(&svc).await?;
    hero(&svc, camp, "alice", "Aria", 130).await?;
    hero(&svc, camp, "bob", "Bram", 20).await?;
    // The price is content data (shop.toml's [[pet]]): a Wolf pup is 120 coins.
    let poor = svc.shop_buy(camp, "bob", "wolf pup", 1).await.unwrap_err();
    assert!(
        matches!(
            poor,
            ServiceError::CannotAfford {
                price: 120,
                coins: 20,
                ..
            }
        ),
        "{poor:?}"
    );
    assert_eq!(row(&svc, camp, "bob").await?.pet, None);
    let bought = svc.shop_buy(camp, "alice", "Wolf pup", 1).await?;
    assert_eq!(
        (bought.good.as_str(), bought.total, bought.coins_left),
        ("Wolf pup", 120, 10)
    );
    let again = svc
        .shop_buy(camp, "alice", "giant rat", 1)
        .await
        .unwrap_err()
        .to_string();
    assert!(again.contains("already has a pet"), "{again}");
    let sheet = svc.sheet(camp, "alice").await?;
    assert_eq!(sheet.pet, Some(("Wolf pup".to_owned(), "Aria's Wolf pup".to_owned())));

    // Into a fight: the pet joins beside Aria, played by the game.
    svc.gm_spawn(camp, CHANNEL, "goblin", 1, now()).await?;
    let joined = svc.join_combat(camp, CHANNEL, "alice", now()).await?;
    let pet = joined
        .combat
        .by_name("Aria's Wolf pup")
        .expect("the pet is in the fight");
    assert_eq!(pet.side, Side::Party);
    assert!(matches!(pet.controller, Controller::Ai(_)));
    assert_eq!(pet.monster_name(), Some("Wolf"));
    let joins = joined
        .events
        .iter()
        .filter(|e| matches!(e, Event::Joined { .. }))
        .count();
    assert_eq!(joins, 2, "owner and pet, both through Join");
    // Rebuilt from the database's log, the fight has the pet as well.
    let (_, stored) = svc.stored_combat(joined.combat_id).await?;
    assert_eq!(stored.combatants, joined.combat.combatants);
    let begun = svc.start_combat(camp, CHANNEL, "alice", now()).await?;
    let pet_id = begun.combat.by_name("Aria's Wolf pup")?.id;
    assert!(begun.combat.order.contains(&pet_id), "the pet has its own turn");
    // The goblin falls; the pet earns nothing, Aria the XP.
    let HpAdjusted::InCombat(end) = svc.gm_adjust_hp(camp, CHANNEL, "Goblin", -100, now()).await? else {
        panic!("the goblin is in the fight");
    };
    let settled = end
        .notices
        .iter()
        .find_map(|n| match n {
            Notice::Settled(s) => Some(s),
            _ => None,
        })
        .expect("the fight settled");
    assert_eq!(settled.shares.len(), 1, "only Aria shares");
    // Across a whole fight with the game playing it, the pet attacks on its own turns.
    svc.gm_spawn(camp, CHANNEL, "zombie", 1, now()).await?;
    svc.join_combat(camp, CHANNEL, "alice", now()).await?;
    let mut update: CombatUpdate = svc.start_combat(camp, CHANNEL, "alice", now()).await?;
    let mut pet_swung = false;
    for _ in 0..40 {
        pet_swung |= update.events.iter().any(|e| {
            matches!(e, Event::AttackRolled { attacker, .. } if update.combat.get(*attacker).name == "Aria's Wolf pup")
        });
        if pet_swung || update.combat.outcome.is_some() {
            break;
        }
        update = if update.combat.window.is_some() {
            svc.react(camp, CHANNEL, "alice", "pass", update.window_token, now())
                .await?
        } else {
            svc.end_turn(camp, CHANNEL, "alice", now()).await?
        };
    }
    assert!(pet_swung, "the wolf pup attacked the zombie on its own turn");
    Ok(())
}

async fn a_room_stores_what_you_do_not_carry_and_rests_you_free(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = campaign(&svc).await?;
    hero(&svc, camp, "alice", "Aria", 100).await?;
    let none = svc.house_list(camp, "alice").await.unwrap_err().to_string();
    assert!(none.contains("/house buy gets one for 150 coins"), "{none}");
    // 150 coins (shop.toml's [room]).
    let poor = svc.house_buy(camp, "alice").await.unwrap_err();
    assert!(
        matches!(
            poor,
            ServiceError::CannotAfford {
                price: 150,
                coins: 100,
                ..
            }
        ),
        "{poor:?}"
    );
    svc.gm_grant_coins(camp, "alice", 100).await?;
    let bought = svc.house_buy(camp, "alice").await?;
    assert_eq!((bought.price, bought.coins_left), (150, 50));
    assert!(svc.house_buy(camp, "alice").await.is_err(), "one room each");
    assert_eq!(svc.sheet(camp, "alice").await?.room, Some((0, 20)));

    // The starting potion goes in the chest, and out again.
    let stored = svc.house_store(camp, "alice", "potion", 1).await?;
    assert_eq!(stored.room.goods.get("Potion of Healing"), Some(&1));
    assert_eq!(potions(&svc.inventory(camp, "alice").await?), 0);
    let before = row(&svc, camp, "alice").await?;
    let refused = svc.house_store(camp, "alice", "potion", 1).await.unwrap_err();
    assert!(
        refused.to_string().contains("carries no Potion of Healing to store"),
        "{refused}"
    );
    assert_eq!(
        row(&svc, camp, "alice").await?,
        before,
        "a refused store changes nothing"
    );
    // Spare gear, and the chest's capacity.
    svc.gm_grant_coins(camp, "alice", 2_000).await?;
    svc.shop_buy(camp, "alice", "dagger", 25).await?;
    let full = svc
        .house_store(camp, "alice", "dagger", 20)
        .await
        .unwrap_err()
        .to_string();
    assert!(full.contains("room for 19 more, not 20"), "{full}");
    svc.house_store(camp, "alice", "dagger", 19).await?;
    assert_eq!(svc.house_list(camp, "alice").await?.room.stored(), 20);
    let taken = svc.house_take(camp, "alice", "Potion of Healing", 1).await?;
    assert_eq!(taken.room.goods.get("Potion of Healing"), None);
    assert_eq!(potions(&svc.inventory(camp, "alice").await?), 1);
    assert!(
        svc.house_take(camp, "alice", "dagger", 20).await.is_err(),
        "only 19 in it"
    );
    svc.house_take(camp, "alice", "dagger", 4).await?;
    let daggers = svc.inventory(camp, "alice").await?.pack.weapons.len();
    assert_eq!(daggers, 10, "25 bought, 19 stored, 4 taken back");

    // A long rest in one's own room costs nothing.
    svc.gm_adjust_hp(camp, CHANNEL, "Aria", -5, now()).await?;
    let coins = row(&svc, camp, "alice").await?.coins;
    let rested = svc.rest(camp, "alice", RestKind::Long, now()).await?;
    assert!(rested.own_room);
    assert_eq!((rested.cost, rested.coins_left, rested.hp), (0, coins, rested.max_hp));
    // A short rest is still Thom's fire, for coins.
    svc.gm_adjust_hp(camp, CHANNEL, "Aria", -5, now()).await?;
    assert_eq!(svc.rest(camp, "alice", RestKind::Short, now()).await?.cost, 5);
    Ok(())
}

async fn racing_stores_move_a_thing_once(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = campaign(&svc).await?;
    hero(&svc, camp, "alice", "Aria", 150).await?;
    svc.house_buy(camp, "alice").await?;
    let mut tasks = Vec::new();
    for _ in 0..6 {
        let svc = svc.clone();
        tasks.push(tokio::spawn(async move {
            svc.house_store(camp, "alice", "Potion of Healing", 1).await
        }));
    }
    let mut moved = 0;
    for t in tasks {
        if t.await.expect("the task ran").is_ok() {
            moved += 1;
        }
    }
    assert_eq!(moved, 1, "one potion, stored once");
    let room = svc.house_list(camp, "alice").await?.room;
    assert_eq!(room.goods.get("Potion of Healing"), Some(&1));
    assert_eq!(potions(&svc.inventory(camp, "alice").await?), 0);
    Ok(())
}

async fn pet_and_room_are_kept_on_death(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = campaign(&svc).await?;
    hero(&svc, camp, "alice", "Aria", 300).await?;
    svc.shop_buy(camp, "alice", "giant rat", 1).await?;
    svc.house_buy(camp, "alice").await?;
    svc.house_store(camp, "alice", "potion", 1).await?;
    let before = row(&svc, camp, "alice").await?;
    svc.gm_spawn(camp, CHANNEL, "ogre", 1, now()).await?;
    svc.join_combat(camp, CHANNEL, "alice", now()).await?;
    svc.start_combat(camp, CHANNEL, "alice", now()).await?;
    let mut died = false;
    let mut delta = -1_000;
    for _ in 0..5 {
        let HpAdjusted::InCombat(u) = svc.gm_adjust_hp(camp, CHANNEL, "Aria", delta, now()).await? else {
            panic!("Aria is in the fight");
        };
        if u.events.iter().any(|e| matches!(e, Event::Died { .. })) {
            died = true;
            break;
        }
        delta = -1;
    }
    assert!(died, "Aria died");
    let after = row(&svc, camp, "alice").await?;
    assert_eq!(after.pet, before.pet, "the pet is kept");
    assert_eq!(after.housing, before.housing, "the room and its chest are kept");
    assert_eq!(after.pet.as_deref(), Some("Giant rat"));
    Ok(())
}

async fn a_pet_joins_its_owners_expedition_encounters(db: Db) -> Result<(), ServiceError> {
    let svc = Service::with_seed(db, 20);
    let camp = campaign(&svc).await?;
    hero(&svc, camp, "alice", "Aria", 100).await?;
    svc.shop_buy(camp, "alice", "Giant rat", 1).await?;
    svc.start_expedition(camp, "alice", "Forest of Shadows", now()).await?;
    let mut encounter = None;
    for _ in 0..4 {
        let room = svc.advance(camp, CHANNEL, "alice", now()).await?;
        if room.encounter.is_some() {
            encounter = room.encounter;
            break;
        }
    }
    let fight = encounter.expect("the forest's last room is a fight");
    let rat = fight.combat.by_name("Aria's Giant rat")?;
    assert_eq!(rat.side, Side::Party);
    assert!(
        fight.combat.order.contains(&rat.id),
        "in the initiative order from the start"
    );
    // The join is in the log: the fight rebuilt from the database has the rat too.
    let (_, stored) = svc.stored_combat(fight.combat_id).await?;
    assert_eq!(stored.combatants, fight.combat.combatants);
    Ok(())
}
