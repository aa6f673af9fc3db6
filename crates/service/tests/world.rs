//! The world around the fight through the service, on every backend: Thom's shop
//! (a buy you cannot afford refused with the price and the coins, nothing changed; concurrent
//! buys spending the coins once; selling materials, trophies and spare gear), the inn's rests
//! (what they heal and cost, and where they are refused), crafting, names unique in a campaign,
//! retiring, and the leaderboards.

#[macro_use]
mod common;

use chrono::{Duration, TimeZone, Utc};
use engine::content::Item;
use sea_orm::{ActiveModelTrait, ActiveValue::Set};
use service::cmd::rest::RestKind;
use service::cmd::roster::Standing;
use service::entity::hospital_record;
use service::repo::characters;
use service::{DateTimeUtc, Db, Service, ServiceError};

on_every_backend! {
    a_buy_you_cannot_afford_changes_nothing => crate::a_buy_you_cannot_afford_changes_nothing;
    concurrent_buys_spend_the_coins_once => crate::concurrent_buys_spend_the_coins_once;
    materials_trophies_and_spare_gear_sell_at_their_prices => crate::materials_trophies_and_spare_gear_sell_at_their_prices;
    rests_heal_for_coins_and_only_at_the_inn => crate::rests_heal_for_coins_and_only_at_the_inn;
    crafting_turns_materials_and_coins_into_goods => crate::crafting_turns_materials_and_coins_into_goods;
    names_are_unique_in_a_campaign_and_retiring_frees_the_player => crate::names_are_unique_in_a_campaign_and_retiring_frees_the_player;
    leaderboards_rank_the_campaigns_characters => crate::leaderboards_rank_the_campaigns_characters;
    racing_renames_take_a_name_once => crate::racing_renames_take_a_name_once;
    every_race_and_class_starts_unencumbered_with_room_for_two_nets => crate::every_race_and_class_starts_unencumbered_with_room_for_two_nets;
}

fn now() -> DateTimeUtc {
    Utc.with_ymd_and_hms(2026, 12, 2, 12, 0, 0).unwrap()
}

const CHANNEL: &str = "channel-1";

async fn campaign(svc: &Service) -> Result<i64, ServiceError> {
    Ok(svc.campaign_for("guild", CHANNEL, now()).await?.id)
}

/// A fighter named after `player` holding exactly `coins`.
async fn hero(svc: &Service, camp: i64, player: &str, coins: i64) -> Result<(), ServiceError> {
    let name = format!("{}{}", player[..1].to_uppercase(), &player[1..]);
    svc.create_character(camp, player, &name, "human", "fighter", now())
        .await?;
    let held = svc.inventory(camp, player).await?.coins;
    if coins != held {
        svc.gm_grant_coins(camp, player, coins - held).await?;
    }
    Ok(())
}

/// Puts materials in the character's pack, as `/expedition leave` banks them.
async fn bring_home(svc: &Service, camp: i64, player: &str, found: &[(&str, u32)]) -> Result<(), ServiceError> {
    let conn = svc.db().conn();
    let row = characters::for_player(conn, camp, player).await?.expect("a character");
    characters::modify(conn, row, |row| {
        let mut gear = row.gear.clone();
        if !gear.is_object() {
            gear = serde_json::json!({});
        }
        let materials: serde_json::Map<String, serde_json::Value> = found
            .iter()
            .map(|(m, n)| ((*m).to_owned(), serde_json::json!(n)))
            .collect();
        gear["materials"] = serde_json::Value::Object(materials);
        row.gear = gear;
        Ok(())
    })
    .await?;
    Ok(())
}

fn potions(inv: &service::Inventory) -> u32 {
    inv.items
        .iter()
        .find(|(i, _)| *i == Item::POTION_OF_HEALING)
        .map_or(0, |(_, n)| *n)
}

async fn a_buy_you_cannot_afford_changes_nothing(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = campaign(&svc).await?;
    hero(&svc, camp, "aria", 20).await?;
    let before = characters::for_player(svc.db().conn(), camp, "aria").await?.unwrap();
    let refused = svc.shop_buy(camp, "aria", "potion of healing", 1).await.unwrap_err();
    match &refused {
        ServiceError::CannotAfford { price, coins, .. } => assert_eq!((*price, *coins), (50, 20)),
        other => panic!("refused for the price, not {other:?}"),
    }
    assert_eq!(
        refused.to_string(),
        "Potion of Healing costs 50 coins; you have 20. Nothing changed."
    );
    let two = svc.shop_buy(camp, "aria", "potion", 2).await.unwrap_err().to_string();
    assert!(
        two.starts_with("2 × Potion of Healing (50 each) costs 100 coins; you have 20."),
        "{two}"
    );
    let after = characters::for_player(svc.db().conn(), camp, "aria").await?.unwrap();
    assert_eq!(after, before, "nothing changed, the version included");
    let unknown = svc.shop_buy(camp, "aria", "vorpal sword", 1).await.unwrap_err();
    assert!(matches!(unknown, ServiceError::Unknown { .. }), "{unknown:?}");
    assert!(svc.shop_buy(camp, "aria", "potion", 0).await.is_err(), "a count of 0");
    // With the coins: the price is paid and the goods are carried.
    svc.gm_grant_coins(camp, "aria", 110).await?;
    let bought = svc.shop_buy(camp, "aria", "Potion of Healing", 2).await?;
    assert_eq!((bought.total, bought.coins_left), (100, 30));
    assert_eq!(
        potions(&svc.inventory(camp, "aria").await?),
        3,
        "1 to start with, 2 bought"
    );
    let sword = svc.shop_buy(camp, "aria", "longsword", 1).await?;
    assert_eq!(sword.coins_left, 0);
    let pack = svc.inventory(camp, "aria").await?.pack;
    assert_eq!(pack.weapons.iter().filter(|w| w.name() == "Longsword").count(), 1);
    Ok(())
}

async fn concurrent_buys_spend_the_coins_once(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = campaign(&svc).await?;
    hero(&svc, camp, "aria", 100).await?;
    let mut buys = Vec::new();
    for _ in 0..8 {
        let svc = svc.clone();
        buys.push(tokio::spawn(
            async move { svc.shop_buy(camp, "aria", "potion", 1).await },
        ));
    }
    let mut bought = 0;
    for buy in buys {
        match buy.await.expect("the task ran") {
            Ok(_) => bought += 1,
            Err(ServiceError::CannotAfford { price: 50, .. }) => {}
            Err(other) => return Err(other),
        }
    }
    assert_eq!(
        bought, 2,
        "100 coins buy two 50-coin potions, however many presses race"
    );
    let inv = svc.inventory(camp, "aria").await?;
    assert_eq!(inv.coins, 0, "each buy spent its coins once");
    assert_eq!(potions(&inv), 3, "the one from creation and the two bought");
    Ok(())
}

async fn materials_trophies_and_spare_gear_sell_at_their_prices(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = campaign(&svc).await?;
    hero(&svc, camp, "aria", 0).await?;
    bring_home(&svc, camp, "aria", &[("Shadow moss", 3), ("Goblin trophy", 1)]).await?;
    let sold = svc.shop_sell(camp, "aria", "shadow moss", 2).await?;
    assert_eq!((sold.each, sold.total, sold.coins_left), (3, 6, 6));
    let sold = svc.shop_sell(camp, "aria", "Goblin trophy", 1).await?;
    assert_eq!(
        (sold.each, sold.coins_left),
        (4, 10),
        "4 coins per tier, a goblin is tier 1"
    );
    let before = characters::for_player(svc.db().conn(), camp, "aria").await?.unwrap();
    let short = svc
        .shop_sell(camp, "aria", "Shadow moss", 2)
        .await
        .unwrap_err()
        .to_string();
    assert!(short.contains("You have 1 Shadow moss, not 2"), "{short}");
    let none = svc.shop_sell(camp, "aria", "Glowcap", 1).await.unwrap_err().to_string();
    assert!(none.starts_with("You have no Glowcap to sell"), "{none}");
    // The wielded longsword is not in the pack, so it is not for sale.
    let wielded = svc
        .shop_sell(camp, "aria", "Longsword", 1)
        .await
        .unwrap_err()
        .to_string();
    assert!(wielded.starts_with("You have no Longsword in your pack"), "{wielded}");
    let after = characters::for_player(svc.db().conn(), camp, "aria").await?.unwrap();
    assert_eq!(after, before, "refused sales change nothing");
    // A potion sells back at half its price.
    let potion = svc.shop_sell(camp, "aria", "Potion of Healing", 1).await?;
    assert_eq!((potion.each, potion.coins_left), (25, 35));
    let list = svc.shop_list(camp, "aria").await?;
    assert_eq!(list.materials, vec![("Shadow moss".to_owned(), 1, 3)]);
    Ok(())
}

async fn rests_heal_for_coins_and_only_at_the_inn(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = campaign(&svc).await?;
    hero(&svc, camp, "aria", 30).await?;
    let full = svc
        .rest(camp, "aria", RestKind::Short, now())
        .await
        .unwrap_err()
        .to_string();
    assert!(
        full.contains("at full HP") && full.contains("nothing charged"),
        "{full}"
    );
    let max = svc.sheet(camp, "aria").await?.max_hp;
    svc.gm_adjust_hp(camp, CHANNEL, "Aria", -(max - 1), now()).await?;
    let short = svc.rest(camp, "aria", RestKind::Short, now()).await?;
    let half = (max + 1) / 2;
    assert_eq!(
        (short.healed, short.hp, short.cost, short.coins_left),
        (half, 1 + half, 5, 25)
    );
    let long = svc.rest(camp, "aria", RestKind::Long, now()).await?;
    assert_eq!((long.hp, long.cost, long.coins_left), (max, 20, 5));
    // Not enough coins for a long rest: refused with the price, HP untouched.
    svc.gm_adjust_hp(camp, CHANNEL, "Aria", -2, now()).await?;
    let poor = svc.rest(camp, "aria", RestKind::Long, now()).await.unwrap_err();
    assert!(
        matches!(
            poor,
            ServiceError::CannotAfford {
                price: 20,
                coins: 5,
                ..
            }
        ),
        "{poor:?}"
    );
    assert_eq!(svc.sheet(camp, "aria").await?.hp, max - 2);
    // Out on an expedition the inn is far away.
    svc.start_expedition(camp, "aria", "forest", now()).await?;
    let away = svc.rest(camp, "aria", RestKind::Short, now()).await.unwrap_err();
    assert!(matches!(away, ServiceError::AwayFromInn { .. }), "{away:?}");
    svc.leave_expedition(camp, "aria", now()).await?;
    // During the healers' recovery rest: refused, with its end as a Discord timestamp.
    svc.gm_adjust_hp(camp, CHANNEL, "Aria", -2, now()).await?;
    let row = characters::for_player(svc.db().conn(), camp, "aria").await?.unwrap();
    let ends = now() + Duration::hours(2);
    hospital_record::ActiveModel {
        character_id: Set(row.id),
        player_id: Set(row.player_id.clone()),
        admitted_at: Set(now()),
        fee: Set(8),
        fee_paid: Set(true),
        paid_at: Set(Some(now())),
        recovery_ends: Set(Some(ends)),
        zone_died_in: Set("none".to_owned()),
        expedition_id: Set(None),
        death_saves: Set(serde_json::json!({})),
        discharged_at: Set(None),
        ..Default::default()
    }
    .insert(svc.db().conn())
    .await?;
    let resting = svc
        .rest(camp, "aria", RestKind::Short, now())
        .await
        .unwrap_err()
        .to_string();
    assert!(resting.contains(&format!("<t:{}:R>", ends.timestamp())), "{resting}");
    let after = svc
        .rest(camp, "aria", RestKind::Short, ends + Duration::seconds(1))
        .await?;
    assert_eq!(after.cost, 5, "after the recovery rest the inn is open again");
    Ok(())
}

async fn crafting_turns_materials_and_coins_into_goods(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = campaign(&svc).await?;
    hero(&svc, camp, "aria", 15).await?;
    bring_home(&svc, camp, "aria", &[("Shadow moss", 3), ("Slag iron", 2)]).await?;
    let list = svc.craft_list(camp, "aria").await?;
    let potion = list.recipes.iter().find(|r| r.name == "Potion of Healing").unwrap();
    assert!(potion.can_make);
    let made = svc.craft(camp, "aria", "Potion of Healing").await?;
    assert_eq!(made.coins_left, 5);
    let inv = svc.inventory(camp, "aria").await?;
    assert_eq!(potions(&inv), 2);
    assert_eq!(inv.pack.materials.get("Shadow moss"), Some(&1));
    let before = characters::for_player(svc.db().conn(), camp, "aria").await?.unwrap();
    let short = svc
        .craft(camp, "aria", "Forged longsword")
        .await
        .unwrap_err()
        .to_string();
    assert_eq!(
        short,
        "Forged longsword needs 3 Slag iron (you have 2), 10 coins (you have 5) — nothing was used."
    );
    assert!(matches!(
        svc.craft(camp, "aria", "moon pie").await,
        Err(ServiceError::Unknown { kind: "recipe", .. })
    ));
    let after = characters::for_player(svc.db().conn(), camp, "aria").await?.unwrap();
    assert_eq!(after, before, "a refused recipe changes nothing");
    Ok(())
}

async fn names_are_unique_in_a_campaign_and_retiring_frees_the_player(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = campaign(&svc).await?;
    hero(&svc, camp, "aria", 0).await?;
    let taken = svc
        .create_character(camp, "bob", "  ARIA ", "elf", "rogue", now())
        .await
        .unwrap_err();
    assert!(matches!(taken, ServiceError::NameTaken { .. }), "{taken:?}");
    svc.create_character(camp, "bob", "Bram", "dwarf", "fighter", now())
        .await?;
    assert!(matches!(
        svc.rename(camp, "bob", "aria").await,
        Err(ServiceError::NameTaken { .. })
    ));
    assert!(
        svc.rename(camp, "bob", "\u{200B}\u{200B}").await.is_err(),
        "zero-width only"
    );
    assert!(svc.rename(camp, "bob", "Goblin 3").await.is_err(), "a monster's name");
    let (old, new) = svc.rename(camp, "bob", " Bram the Bold ").await?;
    assert_eq!((old.as_str(), new.as_str()), ("Bram", "Bram the Bold"));
    assert_eq!(
        svc.rename(camp, "aria", "ARIA").await?.1,
        "ARIA",
        "her own name in another case"
    );
    // Another campaign may have its own Aria.
    let other = svc.campaign_for("guild-2", "c", now()).await?.id;
    svc.create_character(other, "carol", "Aria", "human", "mage", now())
        .await?;
    // Retiring: asked, then confirmed by the version asked about.
    let asked = svc.retire_ask(camp, "bob").await?;
    svc.gm_grant_coins(camp, "bob", 1).await?;
    assert!(matches!(
        svc.retire_confirm(camp, "bob", asked.character_id, asked.version).await,
        Err(ServiceError::StaleButton)
    ));
    let asked = svc.retire_ask(camp, "bob").await?;
    assert_eq!(
        svc.retire_confirm(camp, "bob", asked.character_id, asked.version)
            .await?,
        "Bram the Bold"
    );
    assert!(matches!(svc.sheet(camp, "bob").await, Err(ServiceError::NoCharacter)));
    svc.create_character(camp, "bob", "Bryn", "human", "cleric", now())
        .await?;
    Ok(())
}

async fn leaderboards_rank_the_campaigns_characters(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = campaign(&svc).await?;
    hero(&svc, camp, "aria", 10).await?;
    hero(&svc, camp, "bob", 300).await?;
    hero(&svc, camp, "carol", 50).await?;
    svc.gm_set_level(camp, "carol", 5).await?;
    let names = |r: Vec<service::cmd::roster::Ranked>| r.into_iter().map(|r| r.name).collect::<Vec<_>>();
    assert_eq!(
        names(svc.leaderboard(camp, Standing::Coins).await?),
        ["Bob", "Carol", "Aria"]
    );
    assert_eq!(names(svc.leaderboard(camp, Standing::Level).await?)[0], "Carol");
    let asked = svc.retire_ask(camp, "bob").await?;
    svc.retire_confirm(camp, "bob", asked.character_id, asked.version)
        .await?;
    assert_eq!(
        names(svc.leaderboard(camp, Standing::Coins).await?),
        ["Carol", "Aria"],
        "retired: left out"
    );
    Ok(())
}

async fn racing_renames_take_a_name_once(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = campaign(&svc).await?;
    let players = ["aria", "bram", "cora", "dain"];
    for p in players {
        hero(&svc, camp, p, 0).await?;
    }
    let mut renames = Vec::new();
    for p in players {
        let svc = svc.clone();
        renames.push(tokio::spawn(async move { svc.rename(camp, p, "Nightingale").await }));
    }
    let mut won = 0;
    for rename in renames {
        match rename.await.expect("the task ran") {
            Ok(_) => won += 1,
            Err(ServiceError::NameTaken { .. }) => {}
            Err(other) => return Err(other),
        }
    }
    assert_eq!(won, 1, "one character takes the name; the others are refused as taken");
    Ok(())
}

/// §3.2's carry weight against every starting kit: no race × class starts encumbered (over 5 ×
/// STR) by its own gear, potion and pack, and each has room for two Nets (6 lb) besides.
async fn every_race_and_class_starts_unencumbered_with_room_for_two_nets(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = campaign(&svc).await?;
    let content = engine::content::data::builtin();
    let mut tight = Vec::new();
    for (r, race) in content.races.all().iter().enumerate() {
        for (c, class) in content.classes.all().iter().enumerate() {
            let player = format!("player-{r}-{c}");
            let name = format!("Hero {}{}", (b'a' + r as u8) as char, (b'a' + c as u8) as char);
            let sheet = svc
                .create_character(camp, &player, &name, &race.name, &class.name, now())
                .await?;
            let room = sheet.encumbered_over - sheet.carried_lb;
            if room < 6 {
                tight.push(format!(
                    "{} {}: {} lb of {} ({room} lb of room)",
                    race.name, class.name, sheet.carried_lb, sheet.encumbered_over
                ));
            }
        }
    }
    assert!(tight.is_empty(), "starting kits too heavy:\n{}", tight.join("\n"));
    Ok(())
}
