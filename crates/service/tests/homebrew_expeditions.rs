//! Homebrew reaches expeditions, on every backend: a zone names its monsters by id,
//! looked up in the campaign's content, so a monster that `replaces = "goblin"` is what that
//! campaign's expeditions meet — with its own HP, AC and attacks — while another campaign's
//! expeditions meet the built-in Goblin; and a party of two fights it to a victory.

#[macro_use]
mod common;

use chrono::{Duration, TimeZone, Utc};
use engine::{Outcome, RuleViolation, Side};
use service::cmd::gm::HpAdjusted;
use service::{CombatUpdate, DateTimeUtc, Db, Notice, PlayerCommand, Service, ServiceError};

on_every_backend! {
    a_homebrew_goblin_replaces_the_goblin_in_its_campaign_s_expeditions_only => crate::a_homebrew_goblin_replaces_the_goblin_in_its_campaign_s_expeditions_only;
    a_party_of_two_fights_the_homebrew_goblin_on_an_expedition => crate::a_party_of_two_fights_the_homebrew_goblin_on_an_expedition;
    a_pet_of_a_replaced_kind_fights_as_its_campaign_s_replacement => crate::a_pet_of_a_replaced_kind_fights_as_its_campaign_s_replacement;
}

/// Has the Marsh Goblin (`replaces = "goblin"`: 3d6 HP, AC 14, Spear and Dart).
const EXAMPLE: &str = include_str!("../../../examples/homebrew/marsh-raiders.toml");
const CHANNEL: &str = "trail";

fn now() -> DateTimeUtc {
    Utc.with_ymd_and_hms(2026, 12, 3, 12, 0, 0).unwrap()
}

/// A monster as the test compares it: name, max HP, AC, attack names.
fn stat_line(c: &engine::Combatant) -> (String, i32, i32, Vec<String>) {
    let block = c.stat_block().expect("a monster");
    (
        block.name.to_string(),
        c.max_hp,
        c.armor_class(),
        block.attacks.iter().map(|a| a.name.to_string()).collect(),
    )
}

fn enemies(fight: &CombatUpdate) -> Vec<(String, i32, i32, Vec<String>)> {
    fight
        .combat
        .combatants
        .iter()
        .filter(|c| c.side == Side::Enemies)
        .map(stat_line)
        .collect()
}

/// The GM ends an encounter: the player back to full, every enemy down.
async fn win(svc: &Service, camp: i64, name: &str, mut fight: CombatUpdate) -> Result<(), ServiceError> {
    let hurt = fight
        .combat
        .combatants
        .iter()
        .any(|c| c.name == name && c.hp < c.max_hp);
    if hurt && let HpAdjusted::InCombat(u) = svc.gm_adjust_hp(camp, CHANNEL, name, 100, now()).await? {
        fight = u;
    }
    while fight.combat.outcome.is_none() {
        let foe = fight
            .combat
            .combatants
            .iter()
            .find(|c| c.side == Side::Enemies && !c.is_dead())
            .expect("an enemy stands while the fight goes on")
            .name
            .clone();
        let HpAdjusted::InCombat(u) = svc.gm_adjust_hp(camp, CHANNEL, &foe, -1_000, now()).await? else {
            panic!("{foe} is in the fight");
        };
        fight = u;
    }
    assert_eq!(fight.combat.outcome, Some(Outcome::Victory));
    Ok(())
}

/// Forest of Shadows expeditions (goblins, wolves, giant rats, kobolds) until an encounter has
/// a monster named `wanted`; every encounter met on the way is returned, the last one running.
async fn explore_until(
    svc: &Service,
    camp: i64,
    player: &str,
    name: &str,
    wanted: &str,
) -> Result<Vec<CombatUpdate>, ServiceError> {
    let mut met = Vec::new();
    svc.start_expedition(camp, player, "forest of shadows", now()).await?;
    for _ in 0..40 {
        let entered = match svc.advance(camp, CHANNEL, player, now()).await {
            Ok(entered) => entered,
            Err(ServiceError::InvalidInput(m)) if m.contains("cleared all") => {
                // The way home the message names is a command that exists, and completes it.
                assert!(m.ends_with("/expedition leave to head home."), "{m}");
                let (home, _) = svc.leave_expedition(camp, player, now()).await?;
                assert_eq!(home.status, "completed", "every room explored: leaving completes it");
                svc.start_expedition(camp, player, "forest of shadows", now()).await?;
                continue;
            }
            Err(err) => return Err(err),
        };
        let Some(fight) = entered.encounter else { continue };
        met.push(fight.clone());
        if enemies(&fight).iter().any(|(n, ..)| n == wanted) {
            return Ok(met);
        }
        win(svc, camp, name, fight).await?;
    }
    panic!(
        "40 rooms of the forest and no {wanted}: {:?}",
        met.iter().map(enemies).collect::<Vec<_>>()
    );
}

async fn a_homebrew_goblin_replaces_the_goblin_in_its_campaign_s_expeditions_only(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let a = svc.campaign_for("guild-a", CHANNEL, now()).await?.id;
    let b = svc.campaign_for("guild-b", CHANNEL, now()).await?.id;
    svc.homebrew_import(a, EXAMPLE, now()).await?;
    for camp in [a, b] {
        svc.create_character(camp, "alice", "Aria", "human", "fighter", now())
            .await?;
        svc.gm_set_level(camp, "alice", 10).await?;
    }

    let in_a = explore_until(&svc, a, "alice", "Aria", "Marsh Goblin").await?;
    let marsh = (
        "Marsh Goblin".to_owned(),
        10,
        14,
        vec!["Spear".to_owned(), "Dart".to_owned()],
    );
    let last = enemies(in_a.last().unwrap());
    assert_eq!(last[0], marsh, "3d6 averages 10 HP; AC 14; a spear and darts");
    for fight in &in_a {
        for (name, ..) in enemies(fight) {
            assert_ne!(name, "Goblin", "campaign A's goblins are all Marsh Goblins");
        }
    }
    // The fight took its copy of the homebrew definition: it is the stored fight's too.
    let running = svc.combat_status(a, CHANNEL).await?;
    assert_eq!(enemies(&running)[0], marsh);

    let in_b = explore_until(&svc, b, "alice", "Aria", "Goblin").await?;
    let goblin = (
        "Goblin".to_owned(),
        7,
        15,
        vec!["Scimitar".to_owned(), "Shortbow".to_owned()],
    );
    assert_eq!(
        enemies(in_b.last().unwrap())[0],
        goblin,
        "the built-in Goblin: 2d6 (7), AC 15"
    );
    for fight in &in_b {
        for (name, ..) in enemies(fight) {
            assert_ne!(name, "Marsh Goblin", "campaign B never meets A's homebrew");
        }
    }
    Ok(())
}

/// Plays the party's turns until the fight is over: close to melee, attack, end the turn;
/// take every offered reaction.
async fn fight_to_the_end(
    svc: &Service,
    camp: i64,
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
                .react(camp, CHANNEL, &player, label, update.window_token, at)
                .await?;
            continue;
        }
        let current = update.combat.get(update.combat.current().expect("a turn"));
        let player = current.player_id().expect("monsters act inside apply").to_owned();
        assert!(players.contains(&player.as_str()), "{player}");
        let enemy = update
            .combat
            .combatants
            .iter()
            .find(|c| c.side == Side::Enemies && !c.is_dead())
            .map(|c| c.name.clone())
            .unwrap();
        let attack = PlayerCommand::Attack {
            target: Some(enemy.clone()),
        };
        let spent = |e: &ServiceError| {
            matches!(
                e,
                ServiceError::Rules(
                    RuleViolation::ResourceSpent { .. }
                        | RuleViolation::Incapacitated
                        | RuleViolation::CannotMove { .. }
                )
            )
        };
        update = match svc.act(camp, CHANNEL, &player, &attack, at).await {
            Ok(u) => u,
            Err(ServiceError::Rules(RuleViolation::OutOfReach { .. })) => {
                let close = PlayerCommand::MoveMelee { target: enemy };
                match svc.act(camp, CHANNEL, &player, &close, at).await {
                    Ok(u) => u,
                    // A skirmisher fell back out of a walk's reach: Dash, then close in.
                    Err(ServiceError::Rules(RuleViolation::NotEnoughMovement { .. })) => {
                        match svc.act(camp, CHANNEL, &player, &PlayerCommand::Dash, at).await {
                            Ok(_) => svc.act(camp, CHANNEL, &player, &close, at).await?,
                            Err(e) if spent(&e) => svc.end_turn(camp, CHANNEL, &player, at).await?,
                            Err(e) => return Err(e),
                        }
                    }
                    Err(e) if spent(&e) => svc.end_turn(camp, CHANNEL, &player, at).await?,
                    Err(e) => return Err(e),
                }
            }
            Err(e) if spent(&e) => svc.end_turn(camp, CHANNEL, &player, at).await?,
            Err(err) => return Err(err),
        };
    }
    panic!("the fight did not end");
}

async fn a_party_of_two_fights_the_homebrew_goblin_on_an_expedition(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = svc.campaign_for("guild-a", CHANNEL, now()).await?.id;
    svc.homebrew_import(camp, EXAMPLE, now()).await?;
    for (player, name, class) in [("alice", "Aria", "fighter"), ("bob", "Bram", "cleric")] {
        svc.create_character(camp, player, name, "human", class, now()).await?;
        svc.gm_set_level(camp, player, 10).await?;
    }
    let met = explore_until(&svc, camp, "alice", "Aria", "Marsh Goblin").await?;
    let fight = met.last().unwrap();
    let goblins: Vec<String> = fight
        .combat
        .combatants
        .iter()
        .filter(|c| c.side == Side::Enemies)
        .map(|c| c.name.clone())
        .collect();
    let joined = svc.join_combat(camp, CHANNEL, "bob", now()).await?;
    let party: Vec<&str> = joined
        .combat
        .combatants
        .iter()
        .filter(|c| c.side == Side::Party)
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(party, ["Aria", "Bram"]);
    assert!(
        enemies(&joined)
            .iter()
            .all(|(n, _, ac, _)| n == "Marsh Goblin" && *ac == 14),
        "{:?}",
        enemies(&joined)
    );

    let end = fight_to_the_end(&svc, camp, &["alice", "bob"], joined).await?;
    assert_eq!(end.combat.outcome, Some(Outcome::Victory));
    // Each Marsh Goblin took the blows of its own stat block: 10 HP, down to 0.
    for name in &goblins {
        let g = end.combat.by_name(name).expect("still listed");
        assert_eq!((g.max_hp, g.hp), (10, 0), "{name}");
    }
    let Some(Notice::Settled(settled)) = end.notices.iter().find(|n| matches!(n, Notice::Settled(_))) else {
        panic!("no settlement: {:?}", end.notices);
    };
    // The Marsh Goblin's XP (50 each) split between the two; its trophy goes to the harvest.
    let xp = 50 * u32::try_from(goblins.len()).unwrap();
    assert_eq!(settled.xp_total, xp);
    let shares: Vec<(&str, u32)> = settled.shares.iter().map(|s| (s.name.as_str(), s.xp)).collect();
    assert_eq!(shares, [("Aria", xp / 2), ("Bram", xp / 2)]);
    let exp = svc.expedition(camp, "alice").await?.expect("still exploring");
    assert!(
        exp.materials.iter().any(|m| m == "Marsh Goblin trophy"),
        "{:?}",
        exp.materials
    );
    Ok(())
}

/// A wolf that takes the built-in Wolf's place (its pup at the shop is a Wolf).
const DIRE_WOLF: &str = r#"
[[monster]]
name = "Dire Wolf"
replaces = "wolf"
tier = 1
xp = 200
hp = "5d10+10"
ac = 14
abilities = { str = 17, dex = 15, con = 15, int = 3, wis = 12, cha = 7 }
attacks = [{ name = "Maul", to_hit = 5, damage = "2d6+3", type = "piercing" }]
behaviour = "aggressive"
"#;

async fn a_pet_of_a_replaced_kind_fights_as_its_campaign_s_replacement(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let a = svc.campaign_for("guild-a", CHANNEL, now()).await?.id;
    let b = svc.campaign_for("guild-b", CHANNEL, now()).await?.id;
    svc.homebrew_import(a, DIRE_WOLF, now()).await?;
    let mut pets = Vec::new();
    for camp in [a, b] {
        svc.create_character(camp, "alice", "Aria", "human", "fighter", now())
            .await?;
        let held = svc.inventory(camp, "alice").await?.coins;
        svc.gm_grant_coins(camp, "alice", 120 - held).await?;
        svc.shop_buy(camp, "alice", "Wolf pup", 1).await?;
        svc.gm_spawn(camp, CHANNEL, "kobold", 1, now()).await?;
        let joined = svc.join_combat(camp, CHANNEL, "alice", now()).await?;
        let pup = joined.combat.by_name("Aria's Wolf pup").expect("the pet joined");
        assert_eq!(pup.side, Side::Party);
        pets.push(stat_line(pup));
    }
    assert_eq!(
        pets,
        [
            ("Dire Wolf".to_owned(), 37, 14, vec!["Maul".to_owned()]),
            ("Wolf".to_owned(), 11, 13, vec!["Bite".to_owned()]),
        ],
        "5d10+10 averages 37; the built-in Wolf 2d8+2, 11"
    );
    Ok(())
}
