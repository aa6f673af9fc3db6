//! Homebrew, on every backend: import → list → spawn → fight → remove; every refusal
//! lists its problems by line and stores nothing; importing twice changes nothing; one guild's
//! homebrew never reaches another; a running fight keeps the definition it started with;
//! `replaces` puts a homebrew monster in a built-in's place; `/gm spawn` overrides.

#[macro_use]
mod common;

use chrono::{TimeZone, Utc};
use engine::balance::Verdict;
use engine::content::Item;
use engine::{Combatant, Event};
use service::cmd::balance::{BalanceAsk, BalanceLimits, DUELS};
use service::cmd::combat::PlayerCommand;
use service::cmd::gm::Spawn;
use service::{CombatUpdate, DateTimeUtc, Db, Service, ServiceError};

on_every_backend! {
    import_list_spawn_fight_remove => crate::import_list_spawn_fight_remove;
    a_bad_file_is_refused_line_by_line_and_nothing_is_stored => crate::a_bad_file_is_refused_line_by_line_and_nothing_is_stored;
    homebrew_stays_in_its_guild_and_replaces_only_there => crate::homebrew_stays_in_its_guild_and_replaces_only_there;
    spawn_overrides_name_hp_and_ac_for_this_fight => crate::spawn_overrides_name_hp_and_ac_for_this_fight;
    balance_duels_a_homebrew_monster_in_its_guild_under_the_campaigns_rules => crate::balance_duels_a_homebrew_monster_in_its_guild_under_the_campaigns_rules;
    balance_verdicts_of_built_in_monsters_match_their_odds => crate::balance_verdicts_of_built_in_monsters_match_their_odds;
    homebrew_items_are_granted_sold_and_used_and_spells_cast_by_their_classes => crate::homebrew_items_are_granted_sold_and_used_and_spells_cast_by_their_classes;
    another_guild_is_refused_the_homebrew_item_spell_and_shelf => crate::another_guild_is_refused_the_homebrew_item_spell_and_shelf;
    an_import_names_by_line_what_does_nothing_in_a_fight => crate::an_import_names_by_line_what_does_nothing_in_a_fight;
    imports_add_up_past_one_files_limit_and_the_server_still_loads => crate::imports_add_up_past_one_files_limit_and_the_server_still_loads;
}

const EXAMPLE: &str = include_str!("../../../examples/homebrew/marsh-raiders.toml");
const CHANNEL: &str = "bog";

fn now() -> DateTimeUtc {
    Utc.with_ymd_and_hms(2026, 12, 3, 12, 0, 0).unwrap()
}

fn names(list: &[service::cmd::homebrew::HomebrewEntry]) -> Vec<String> {
    list.iter().map(|e| format!("{} {}", e.kind, e.name)).collect()
}

async fn import_list_spawn_fight_remove(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = svc.campaign_for("guild-a", CHANNEL, now()).await?.id;
    let done = svc.homebrew_import(camp, EXAMPLE, now()).await?;
    assert_eq!(done.added.len(), 5);
    let listed = names(&svc.homebrew_list(camp).await?);
    assert_eq!(
        listed,
        [
            "status Bog Rot",
            "spell Marsh Bolt",
            "item Swamp Tonic",
            "monster Bog Hag",
            "monster Marsh Goblin"
        ]
    );
    // The same file again changes nothing.
    let again = svc.homebrew_import(camp, EXAMPLE, now()).await?;
    assert!(again.added.is_empty() && again.changed.is_empty(), "{again:?}");
    assert_eq!(again.unchanged.len(), 5);
    assert_eq!(names(&svc.homebrew_list(camp).await?), listed);
    // Export imports back unchanged.
    let exported = svc.homebrew_export(camp).await?;
    let back = svc.homebrew_import(camp, &exported, now()).await?;
    assert_eq!(back.unchanged.len(), 5, "{back:?}");

    svc.create_character(camp, "alice", "Aria", "human", "fighter", now())
        .await?;
    let spawned = svc.gm_spawn(camp, CHANNEL, "bog hag", 1, now()).await?;
    let hag = spawned.combat.by_name("Bog Hag").expect("the hag joined");
    assert_eq!((hag.armor_class(), hag.max_hp), (14, 33), "6d8+6 averages 33");
    assert_eq!(hag.known_spells()[0].name.as_ref(), "Marsh Bolt");
    svc.join_combat(camp, CHANNEL, "alice", now()).await?;

    // An edit and a removal reach new fights only: the running fight keeps its hag.
    let tougher = EXAMPLE.replace("ac = 14\nabilities = { str = 14", "ac = 18\nabilities = { str = 14");
    let changed = svc.homebrew_import(camp, &tougher, now()).await?;
    assert_eq!(names(&changed.changed), ["monster Bog Hag"]);
    let refused = svc.homebrew_remove(camp, "Marsh Bolt").await;
    assert!(
        matches!(&refused, Err(ServiceError::InvalidInput(m)) if m.contains("Marsh Bolt is still needed")),
        "the hag casts it: {refused:?}"
    );
    svc.homebrew_remove(camp, "Bog Hag").await?;
    let fight = svc.combat_status(camp, CHANNEL).await?;
    let hag = fight.combat.by_name("Bog Hag").expect("still in the fight");
    assert_eq!(
        hag.armor_class(),
        14,
        "the running fight keeps the definition it started with"
    );
    let gone = svc.gm_spawn(camp, CHANNEL, "bog hag", 1, now()).await;
    assert!(
        matches!(gone, Err(ServiceError::Unknown { kind: "monster", .. })),
        "{gone:?}"
    );
    assert_eq!(svc.homebrew_list(camp).await?.len(), 4);
    Ok(())
}

async fn a_bad_file_is_refused_line_by_line_and_nothing_is_stored(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = svc.campaign_for("guild-a", CHANNEL, now()).await?.id;
    svc.homebrew_import(camp, EXAMPLE, now()).await?;
    let before = svc.homebrew_export(camp).await?;
    let long = "x".repeat(500);
    let monster = |name: &str, ac: u32, attack: &str| {
        format!(
            "[[monster]]\nname = \"{name}\"\ntier = 1\nxp = 10\nhp = \"2d6\"\nac = {ac}\n\
             abilities = {{ str = 10, dex = 10, con = 10, int = 10, wis = 10, cha = 10 }}\n\
             attacks = [{attack}]\n\n"
        )
    };
    let bite = r#"{ name = "Bite", to_hit = 2, damage = "1d6", type = "piercing" }"#;
    // Nine lines a monster: a 500-character name (line 2); AC 41 (15) and 10,000 dice of a
    // damage type there is none of (17); a built-in's name without `replaces` (20); an
    // unknown field (34).
    let bad = monster(&long, 12, bite)
        + &monster(
            "Mudling",
            41,
            r#"{ name = "Slam", to_hit = 2, damage = "10000d6", type = "psychic" }"#,
        )
        + &monster("Kobold", 12, bite)
        + &monster("Winged Rat", 12, bite).replace("ac = 12\n", "ac = 12\nwings = true\n");
    let cases: Vec<(String, Vec<&str>)> = vec![
        ("[[monster]\nname = ".into(), vec!["line 1:"]),
        (bad.clone(), vec!["line 34: unknown field `wings`"]),
        (
            bad.replace("wings = true\n", ""),
            vec![
                "line 2: monster name",
                "is 500 characters long: allowed 1–40",
                "line 15:",
                "line 17:",
                "line 20: duplicate monster name `Kobold`",
            ],
        ),
        (
            "[[race]]\nname = \"Gnome\"\nspeed = 25\n".into(),
            vec!["line 1: a homebrew file cannot define races"],
        ),
        (
            format!("# {}\n", "y".repeat(300 * 1024)),
            vec!["allowed at most 256 KB"],
        ),
        (
            "[[status]]\nname = \"Itch\"\nkind = \"damage\"\namount = 1\ntype = \"fire\"\nturns = 1\n".repeat(201),
            vec!["entries: allowed at most 200"],
        ),
    ];
    for (text, wanted) in cases {
        let refused = svc.homebrew_import(camp, &text, now()).await;
        let Err(ServiceError::InvalidInput(message)) = refused else {
            panic!("accepted: {refused:?}");
        };
        assert!(message.starts_with("The file was not imported"), "{message}");
        for w in wanted {
            assert!(message.contains(w), "{w:?} in {message}");
        }
        assert_eq!(svc.homebrew_export(camp).await?, before, "nothing stored");
    }
    Ok(())
}

async fn homebrew_stays_in_its_guild_and_replaces_only_there(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let a = svc.campaign_for("guild-a", CHANNEL, now()).await?.id;
    let b = svc.campaign_for("guild-b", CHANNEL, now()).await?.id;
    svc.homebrew_import(a, EXAMPLE, now()).await?;
    let in_b = svc.gm_spawn(b, CHANNEL, "bog hag", 1, now()).await;
    assert!(matches!(in_b, Err(ServiceError::Unknown { .. })), "{in_b:?}");
    assert!(svc.homebrew_list(b).await?.is_empty());
    // In guild A a goblin is the Marsh Goblin; in guild B the built-in one.
    let goblin_a = svc.gm_spawn(a, CHANNEL, "goblin", 1, now()).await?;
    let goblin_b = svc.gm_spawn(b, CHANNEL, "goblin", 1, now()).await?;
    assert_eq!(goblin_a.combat.combatants[0].monster_name(), Some("Marsh Goblin"));
    assert_eq!(goblin_a.combat.combatants[0].armor_class(), 14);
    assert_eq!(goblin_b.combat.combatants[0].monster_name(), Some("Goblin"));
    assert_eq!(goblin_b.combat.combatants[0].armor_class(), 15);
    Ok(())
}

async fn spawn_overrides_name_hp_and_ac_for_this_fight(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = svc.campaign_for("guild-a", CHANNEL, now()).await?.id;
    let spawn = Spawn {
        monster: "orc".into(),
        count: 3,
        name: Some("Orc#".into()),
        hp: Some(40),
        ac: Some(17),
    };
    let fight = svc.gm_spawn_with(camp, CHANNEL, &spawn, now()).await?;
    let orcs: Vec<(&str, i32, i32, i32)> = fight
        .combat
        .combatants
        .iter()
        .map(|c| (c.name.as_str(), c.hp, c.max_hp, c.armor_class()))
        .collect();
    assert_eq!(orcs, [("Orc1", 40, 40, 17), ("Orc2", 40, 40, 17), ("Orc3", 40, 40, 17)]);
    let more = svc
        .gm_spawn_with(
            camp,
            CHANNEL,
            &Spawn {
                count: 1,
                ..spawn.clone()
            },
            now(),
        )
        .await?;
    assert_eq!(more.combat.combatants[3].name, "Orc4");
    let plain = svc.gm_spawn(camp, CHANNEL, "orc", 1, now()).await?;
    assert_eq!(
        plain.combat.combatants[4].armor_class(),
        13,
        "the override was for those only"
    );
    for (hp, ac) in [(Some(0), None), (Some(1000), None), (None, Some(41))] {
        let refused = svc
            .gm_spawn_with(
                camp,
                CHANNEL,
                &Spawn {
                    hp,
                    ac,
                    ..spawn.clone()
                },
                now(),
            )
            .await;
        assert!(matches!(refused, Err(ServiceError::InvalidInput(_))), "{refused:?}");
    }
    Ok(())
}

fn ask(monster: &str, count: u32, party: &str) -> BalanceAsk {
    BalanceAsk {
        monster: monster.into(),
        count,
        party: party.into(),
    }
}

/// Questions asked back to back, each running all its duels (no cooldown, a budget no debug
/// build reaches).
fn every_question_whole() -> BalanceLimits {
    BalanceLimits {
        cooldown: std::time::Duration::ZERO,
        budget: std::time::Duration::from_mins(10),
        ..BalanceLimits::default()
    }
}

async fn balance_duels_a_homebrew_monster_in_its_guild_under_the_campaigns_rules(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db).with_balance_limits(every_question_whole());
    let a = svc.campaign_for("guild-a", CHANNEL, now()).await?.id;
    let b = svc.campaign_for("guild-b", CHANNEL, now()).await?.id;
    svc.homebrew_import(a, EXAMPLE, now()).await?;

    let hag = ask("bog hag", 1, "fighter:3, cleric:3");
    let answer = svc.homebrew_balance(a, &hag).await?;
    let t = &answer.tally;
    assert_eq!(answer.matchup, "Bog Hag ×1 vs fighter:3, cleric:3");
    assert_eq!(answer.ruleset, engine::Ruleset::Gogobee);
    assert_eq!(t.duels, DUELS);
    assert_eq!(t.party_wins + t.foe_wins + t.halted, DUELS);
    assert_eq!(t.rounds.values().sum::<u32>(), DUELS);
    assert_eq!((t.party_size, t.party_level), (2, 3));
    // The same question gives the same answer; under another ruleset, another run.
    assert_eq!(svc.homebrew_balance(a, &hag).await?, answer);
    svc.set_ruleset(a, "ctb").await?;
    let ctb = svc.homebrew_balance(a, &hag).await?;
    assert_eq!(ctb.ruleset, engine::Ruleset::Ctb);
    assert_ne!(ctb.tally, answer.tally);
    // `replaces = "goblin"`: guild A's goblin is the Marsh Goblin, guild B's the built-in one.
    assert!(
        svc.homebrew_balance(a, &ask("goblin", 2, "fighter:1"))
            .await?
            .matchup
            .starts_with("Marsh Goblin ×2")
    );
    assert!(
        svc.homebrew_balance(b, &ask("goblin", 2, "fighter:1"))
            .await?
            .matchup
            .starts_with("Goblin ×2")
    );

    // Guild B has no hag; bad input is refused with what is allowed, and nothing is stored.
    let before = names(&svc.homebrew_list(a).await?);
    let refused = svc.homebrew_balance(b, &hag).await;
    assert!(
        matches!(&refused, Err(ServiceError::Unknown { kind: "monster", .. })),
        "{refused:?}"
    );
    for (bad, says) in [
        (ask("bog hag", 0, "fighter:3"), "count: is 1 to 12"),
        (ask("bog hag", 13, "fighter:3"), "count: is 1 to 12"),
        (ask("bog hag", 1, "bard:3"), "neither a class"),
        (ask("bog hag", 1, "fighter:25"), "level is 1 to 20"),
        (ask("bog hag", 1, "goblin:2"), "characters only"),
        (ask("bog hag", 1, ""), "at least one"),
    ] {
        let e = svc.homebrew_balance(a, &bad).await.expect_err(says);
        assert!(e.to_string().contains(says), "{bad:?}: {e}");
    }
    assert_eq!(names(&svc.homebrew_list(a).await?), before);
    assert!(svc.homebrew_list(b).await?.is_empty());
    Ok(())
}

async fn balance_verdicts_of_built_in_monsters_match_their_odds(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db).with_balance_limits(every_question_whole());
    let camp = svc.campaign_for("guild-a", CHANNEL, now()).await?.id;
    // Two rats (AC 12, a 1d4+2 bite at +4) cannot beat a fifth-level fighter (44 HP, two attacks).
    let rats = svc.homebrew_balance(camp, &ask("giant rat", 2, "fighter:5")).await?;
    assert_eq!(rats.tally.party_wins, DUELS, "{:?}", rats.tally);
    assert_eq!(rats.tally.verdict(), Verdict::Easy);
    // A young red dragon (178 HP, breath 16d6) kills a first-level fighter every time.
    let dragon = svc
        .homebrew_balance(camp, &ask("young red dragon", 1, "fighter:1"))
        .await?;
    assert_eq!(dragon.tally.foe_wins, DUELS, "{:?}", dragon.tally);
    assert_eq!(dragon.tally.verdict(), Verdict::Deadly);
    Ok(())
}

fn tonic() -> Item {
    Item::named("Swamp Tonic").unwrap()
}

fn combatant<'a>(update: &'a CombatUpdate, name: &str) -> &'a Combatant {
    update.combat.by_name(name).expect("in the fight")
}

/// Passes reaction windows until a player is to act (monsters act on their own).
async fn next_player(svc: &Service, camp: i64, mut update: CombatUpdate) -> Result<CombatUpdate, ServiceError> {
    for _ in 0..20 {
        assert!(
            update.combat.outcome.is_none(),
            "the fight ended early: {:?}",
            update.combat.outcome
        );
        let Some(w) = update.combat.window.clone() else {
            return Ok(update);
        };
        let player = update
            .combat
            .get(w.reactor)
            .player_id()
            .expect("a player reacts")
            .to_owned();
        update = svc.react(camp, CHANNEL, &player, "pass", None, now()).await?;
    }
    panic!("the reaction windows never closed");
}

#[allow(
    clippy::too_many_lines,
    reason = "one homebrew campaign played through, read top to bottom"
)]
async fn homebrew_items_are_granted_sold_and_used_and_spells_cast_by_their_classes(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = svc.campaign_for("guild-a", CHANNEL, now()).await?.id;
    svc.homebrew_import(camp, EXAMPLE, now()).await?;
    svc.create_character(camp, "alice", "Aria", "human", "fighter", now())
        .await?;
    svc.create_character(camp, "bob", "Bram", "human", "mage", now())
        .await?;

    // Granted: the inventory keeps it by id and names it.
    let inv = svc.gm_grant_item(camp, "alice", "swamp tonic", 2).await?;
    assert!(inv.items.contains(&(tonic(), 2)), "{:?}", inv.items);
    assert!(
        inv.item_names.contains(&"Swamp Tonic".to_owned()),
        "{:?}",
        inv.item_names
    );

    // Sold at its price in this guild, bought back at half (shop.toml's sell_percent = 50).
    let shelf = svc.shop_list(camp, "bob").await?;
    let on_shelf = shelf
        .stock
        .iter()
        .find(|g| g.name == "Swamp Tonic")
        .expect("on the shelves");
    assert_eq!((on_shelf.price, on_shelf.buy_back, on_shelf.held), (90, 45, 0));
    svc.gm_grant_coins(camp, "bob", 100).await?;
    let bought = svc.shop_buy(camp, "bob", "tonic", 1).await?;
    assert_eq!(
        (bought.good.as_str(), bought.total, bought.coins_left),
        ("Swamp Tonic", 90, 30)
    );
    let short = svc.shop_buy(camp, "bob", "Swamp Tonic", 1).await;
    assert!(
        matches!(
            short,
            Err(ServiceError::CannotAfford {
                price: 90,
                coins: 30,
                ..
            })
        ),
        "{short:?}"
    );
    let sold = svc.shop_sell(camp, "bob", "Swamp Tonic", 1).await?;
    assert_eq!((sold.each, sold.coins_left), (45, 75));
    assert!(
        svc.inventory(camp, "bob")
            .await?
            .items
            .iter()
            .all(|(i, _)| *i != tonic())
    );

    // The chest at the inn keeps it too.
    svc.gm_grant_coins(camp, "alice", 200).await?;
    svc.house_buy(camp, "alice").await?;
    let stored = svc.house_store(camp, "alice", "Swamp Tonic", 1).await?;
    assert_eq!(stored.room.goods.get("Swamp Tonic"), Some(&1));
    svc.house_take(camp, "alice", "swamp tonic", 1).await?;
    assert!(svc.inventory(camp, "alice").await?.items.contains(&(tonic(), 2)));

    // A Mage knows the homebrew spell its class learns (classes = ["Mage", "Cleric"]); a Fighter does not.
    assert!(
        svc.sheet(camp, "bob")
            .await?
            .spell_names
            .contains(&"Marsh Bolt".to_owned())
    );
    assert!(svc.sheet(camp, "alice").await?.spell_names.is_empty());

    // A fight with both; the item's and the spell's definitions are copied in as they join.
    let spawn = Spawn {
        monster: "giant rat".into(),
        count: 1,
        name: None,
        hp: Some(200),
        ac: None,
    };
    svc.gm_spawn_with(camp, CHANNEL, &spawn, now()).await?;
    svc.join_combat(camp, CHANNEL, "alice", now()).await?;
    let joined = svc.join_combat(camp, CHANNEL, "bob", now()).await?;
    assert!(combatant(&joined, "Aria").item_def(tonic()).is_some());
    assert_eq!(combatant(&joined, "Aria").items.get(&tonic()), Some(&2));
    assert!(
        combatant(&joined, "Bram")
            .known_spells()
            .iter()
            .any(|s| &*s.name == "Marsh Bolt")
    );

    // An edit of the item after the fight began reaches new fights only.
    let weaker = EXAMPLE.replace("healing = \"3d4+3\"", "healing = \"1d1\"");
    assert_ne!(weaker, EXAMPLE);
    let edited = svc.homebrew_import(camp, &weaker, now()).await?;
    assert_eq!(names(&edited.changed), ["item Swamp Tonic"]);

    svc.start_combat(camp, CHANNEL, "alice", now()).await?;
    let mut update = match svc.gm_adjust_hp(camp, CHANNEL, "Aria", -6, now()).await? {
        service::cmd::gm::HpAdjusted::InCombat(update) => update,
        other @ service::cmd::gm::HpAdjusted::Character(_) => panic!("Aria is in the fight: {other:?}"),
    };
    let bolt = engine::content::Spell::named("Marsh Bolt").unwrap();
    let (mut used, mut cast) = (false, None);
    for _ in 0..20 {
        if used && cast.is_some() {
            break;
        }
        update = next_player(&svc, camp, update).await?;
        let current = update.combat.get(update.combat.current().expect("someone acts"));
        match current.player_id() {
            Some("alice") if !used => {
                let before = current.hp;
                assert!(before > 0, "Aria is up");
                update = svc
                    .act(
                        camp,
                        CHANNEL,
                        "alice",
                        &PlayerCommand::UseItem {
                            item: "Swamp Tonic".into(),
                            target: None,
                        },
                        now(),
                    )
                    .await?;
                assert!(
                    update
                        .events
                        .iter()
                        .any(|e| matches!(e, Event::ItemUsed { item, .. } if *item == tonic()))
                );
                let healed: i32 = update
                    .events
                    .iter()
                    .filter_map(|e| match e {
                        Event::Healed { amount, .. } => Some(*amount),
                        _ => None,
                    })
                    .sum();
                let aria = combatant(&update, "Aria");
                assert!(
                    healed >= 6.min(aria.max_hp - before) && healed > 1,
                    "3d4+3 as the fight started, not the edit's 1d1: healed {healed} from {before}"
                );
                assert_eq!(aria.items.get(&tonic()), Some(&1));
                used = true;
            }
            Some("bob") if cast.is_none() => {
                update = svc
                    .act(
                        camp,
                        CHANNEL,
                        "bob",
                        &PlayerCommand::Cast {
                            spell: "marsh bolt".into(),
                            target: Some("Giant Rat".into()),
                        },
                        now(),
                    )
                    .await?;
                assert!(
                    update
                        .events
                        .iter()
                        .any(|e| matches!(e, Event::SpellCast { spell, slot: Some(1), .. } if *spell == bolt)),
                    "{:?}",
                    update.events
                );
                cast = Some(update.combat_id);
            }
            Some(player) => {
                let player = player.to_owned();
                update = svc.end_turn(camp, CHANNEL, &player, now()).await?;
            }
            None => unreachable!("next_player stops at a player's turn"),
        }
    }
    let cast = cast.expect("Bram cast Marsh Bolt");
    assert!(used, "Aria drank the tonic");
    assert_eq!(svc.replay(cast).await?.diverged_at, None, "the fight replays as it ran");
    Ok(())
}

async fn another_guild_is_refused_the_homebrew_item_spell_and_shelf(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let a = svc.campaign_for("guild-a", CHANNEL, now()).await?.id;
    let b = svc.campaign_for("guild-b", CHANNEL, now()).await?.id;
    svc.homebrew_import(a, EXAMPLE, now()).await?;
    svc.create_character(b, "carl", "Carl", "human", "mage", now()).await?;
    let before = svc.inventory(b, "carl").await?;

    let given = svc.gm_grant_item(b, "carl", "Swamp Tonic", 1).await;
    let Err(ServiceError::Unknown {
        kind: "item", valid, ..
    }) = given
    else {
        panic!("granted in guild B: {given:?}");
    };
    assert!(
        valid.contains("Potion of Healing") && !valid.contains("Swamp Tonic"),
        "{valid}"
    );
    let bought = svc.shop_buy(b, "carl", "Swamp Tonic", 1).await;
    assert!(
        matches!(&bought, Err(ServiceError::Unknown { valid, .. }) if !valid.contains("Swamp Tonic")),
        "{bought:?}"
    );
    assert!(
        svc.shop_list(b, "carl")
            .await?
            .stock
            .iter()
            .all(|g| g.name != "Swamp Tonic")
    );
    assert_eq!(svc.inventory(b, "carl").await?, before, "nothing changed");
    assert!(
        !svc.sheet(b, "carl")
            .await?
            .spell_names
            .contains(&"Marsh Bolt".to_owned())
    );

    svc.gm_spawn(b, CHANNEL, "orc", 1, now()).await?;
    svc.join_combat(b, CHANNEL, "carl", now()).await?;
    let cast = svc
        .act(
            b,
            CHANNEL,
            "carl",
            &PlayerCommand::Cast {
                spell: "Marsh Bolt".into(),
                target: Some("Orc".into()),
            },
            now(),
        )
        .await;
    let Err(ServiceError::Unknown {
        kind: "spell", valid, ..
    }) = cast
    else {
        panic!("cast in guild B: {cast:?}");
    };
    assert!(valid.contains("Fire Bolt") && !valid.contains("Marsh Bolt"), "{valid}");
    Ok(())
}

async fn an_import_names_by_line_what_does_nothing_in_a_fight(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = svc.campaign_for("guild-a", CHANNEL, now()).await?.id;
    let done = svc.homebrew_import(camp, EXAMPLE, now()).await?;
    assert!(done.warnings.is_empty(), "{:?}", done.warnings);
    let swimmer = "[[monster]]\n\
                   name = \"Reef Eel\"\n\
                   tier = 1\n\
                   xp = 50\n\
                   hp = \"3d8\"\n\
                   ac = 12\n\
                   abilities = { str = 12, dex = 14, con = 12, int = 2, wis = 10, cha = 4 }\n\
                   attacks = [{ name = \"Bite\", to_hit = 4, damage = \"1d6+2\", type = \"piercing\" }]\n\
                   speeds = { swim = 40 }\n";
    let done = svc.homebrew_import(camp, swimmer, now()).await?;
    assert_eq!(names(&done.added), ["monster Reef Eel"], "a warning stores the entry");
    assert_eq!(done.warnings.len(), 1, "{:?}", done.warnings);
    assert!(
        done.warnings[0].starts_with("line 9: `swim = 40` is kept on the stat block but does nothing in a fight"),
        "{}",
        done.warnings[0]
    );
    // The stored homebrew's own warnings are not the new file's.
    let again = svc.homebrew_import(camp, EXAMPLE, now()).await?;
    assert!(again.warnings.is_empty(), "{:?}", again.warnings);
    Ok(())
}

/// `count` statuses named `{prefix} 1` … (one homebrew entry each).
fn statuses(prefix: &str, count: usize) -> String {
    (1..=count)
        .map(|i| {
            format!("[[status]]\nname = \"{prefix} {i}\"\nkind = \"damage\"\namount = 1\ntype = \"fire\"\nturns = 1\n")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

async fn imports_add_up_past_one_files_limit_and_the_server_still_loads(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = svc.campaign_for("guild-a", CHANNEL, now()).await?.id;
    // Two files of 150 entries each: 300 stored, more than one file may hold (200).
    svc.homebrew_import(camp, &statuses("Ember", 150), now()).await?;
    svc.homebrew_import(camp, &statuses("Cinder", 150), now()).await?;
    assert_eq!(svc.homebrew_list(camp).await?.len(), 300);
    let content = svc.content(camp).await?;
    assert!(
        content.statuses.get("Cinder 150").is_some(),
        "the server's content loads whole"
    );
    // A third import and a removal still work.
    let done = svc.homebrew_import(camp, EXAMPLE, now()).await?;
    assert!(!done.added.is_empty());
    svc.homebrew_remove(camp, "Ember 1").await?;
    assert_eq!(svc.homebrew_list(camp).await?.len(), 299 + done.added.len());
    // Past the server's limit, an import is refused with the numbers, and nothing is stored.
    let before = svc.homebrew_list(camp).await?.len();
    let mut refused = None;
    for k in 0..6 {
        match svc
            .homebrew_import(camp, &statuses(&format!("Ash {k}"), 150), now())
            .await
        {
            Ok(_) => {}
            Err(ServiceError::InvalidInput(why)) => {
                refused = Some(why);
                break;
            }
            Err(e) => return Err(e),
        }
    }
    let why = refused.expect("the server's limit is reached");
    assert!(why.contains("a server keeps at most 1000"), "{why}");
    assert!(why.contains("nothing was stored"), "{why}");
    let after = svc.homebrew_list(camp).await?.len();
    assert!(after <= 1_000 && after > before, "{before} → {after}");
    assert!(after + 150 > 1_000, "refused only past the limit: {after}");
    Ok(())
}
