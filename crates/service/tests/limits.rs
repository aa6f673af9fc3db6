//! Arithmetic at the limits: every numeric option of the service's commands — `/gm
//! hp` in and out of a fight, `/gm coins`, `/gm give`, `/gm level`, `/gm spawn`, `/campaign
//! timeout`, `/campaign turntimeout` — fed sequences of extreme values (the ends of their types,
//! ±1, 0) and random ones. Whatever the sequence, each command is answered (done, or refused
//! with a message; never a database error or a panic) and the stored numbers stay in bounds:
//! HP within 0 and the maximum, coins never negative, XP never negative, levels 1–20, counts
//! within what one character may carry, and a combatant at 0 HP (and only one) counts as down or
//! slain. Before: `/gm hp delta:2147483647` wrapped an orc's HP to −2147483634.

use chrono::{TimeZone, Utc};
use proptest::prelude::*;
use service::cmd::gm::{HpAdjusted, MAX_CARRIED};
use service::{DateTimeUtc, Db, Service, ServiceError};

fn now() -> DateTimeUtc {
    Utc.with_ymd_and_hms(2026, 12, 1, 12, 0, 0).unwrap()
}

const CHANNEL: &str = "arena";

/// One command with a numeric option.
#[derive(Clone, Debug)]
enum Op {
    /// `/gm hp target:Aria` (out of a fight, or in one when one is under way).
    HpAria(i32),
    /// `/gm hp target:<the first monster>` in the fight.
    HpMonster(i32),
    Coins(i64),
    Give(&'static str, u32),
    Level(u32),
    Spawn(u32),
    ReactionTimeout(i64),
    TurnTimeout(i64),
}

fn i32s() -> impl Strategy<Value = i32> {
    prop_oneof![
        Just(i32::MIN),
        Just(i32::MIN + 1),
        Just(-1),
        Just(0),
        Just(1),
        Just(i32::MAX - 1),
        Just(i32::MAX),
        any::<i32>(),
        -30..30i32,
    ]
}

fn i64s() -> impl Strategy<Value = i64> {
    prop_oneof![
        Just(i64::MIN),
        Just(i64::MIN + 1),
        Just(-1),
        Just(0),
        Just(1),
        Just(i64::MAX - 1),
        Just(i64::MAX),
        any::<i64>(),
        -100..100i64,
    ]
}

fn u32s() -> impl Strategy<Value = u32> {
    prop_oneof![
        Just(0),
        Just(1),
        Just(12),
        Just(13),
        Just(20),
        Just(21),
        Just(99),
        Just(100),
        Just(u32::MAX - 1),
        Just(u32::MAX),
        any::<u32>(),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    let item = prop_oneof![
        Just("potion of healing"),
        Just("dagger"),
        Just("shield"),
        Just("chain mail")
    ];
    prop_oneof![
        i32s().prop_map(Op::HpAria),
        i32s().prop_map(Op::HpMonster),
        i64s().prop_map(Op::Coins),
        (item, u32s()).prop_map(|(item, n)| Op::Give(item, n)),
        u32s().prop_map(Op::Level),
        u32s().prop_map(Op::Spawn),
        i64s().prop_map(Op::ReactionTimeout),
        i64s().prop_map(Op::TurnTimeout),
    ]
}

/// A refusal is a message for the player; a database error or an exhausted retry is a bug here.
fn answered(op: &Op, result: Result<(), ServiceError>) -> Result<(), TestCaseError> {
    match result {
        Err(err @ (ServiceError::Database(_) | ServiceError::StaleCharacter { .. } | ServiceError::Contended)) => {
            Err(TestCaseError::fail(format!("{op:?}: {err}")))
        }
        _ => Ok(()),
    }
}

async fn run(ops: Vec<Op>) -> Result<(), TestCaseError> {
    let db = Db::connect("sqlite::memory:").await.expect("open SQLite");
    let svc = Service::with_seed(db, 3);
    let camp = svc.campaign_for("guild", CHANNEL, now()).await.expect("campaign").id;
    svc.create_character(camp, "alice", "Aria", "human", "fighter", now())
        .await
        .expect("Aria");
    for op in ops {
        let result = match &op {
            Op::HpAria(delta) => svc.gm_adjust_hp(camp, CHANNEL, "Aria", *delta, now()).await.map(drop),
            Op::HpMonster(delta) => match svc.combat_status(camp, CHANNEL).await {
                Ok(fight) => {
                    let monster = fight.combat.combatants.iter().find(|c| c.player_id().is_none());
                    match monster {
                        Some(m) => {
                            let name = m.name.clone();
                            match svc.gm_adjust_hp(camp, CHANNEL, &name, *delta, now()).await {
                                Ok(HpAdjusted::InCombat(update)) => {
                                    for c in &update.combat.combatants {
                                        prop_assert!(
                                            (0..=c.max_hp).contains(&c.hp),
                                            "{op:?}: {} at {}/{}",
                                            c.name,
                                            c.hp,
                                            c.max_hp
                                        );
                                        if c.hp == 0 {
                                            prop_assert!(c.is_dead() || c.is_downed(), "{op:?}: {} at 0 HP", c.name);
                                        } else {
                                            prop_assert!(!c.is_dead(), "{op:?}: {} dead at {} HP", c.name, c.hp);
                                        }
                                    }
                                    Ok(())
                                }
                                other => other.map(drop),
                            }
                        }
                        None => Ok(()),
                    }
                }
                Err(err) => Err(err),
            },
            Op::Coins(amount) => svc.gm_grant_coins(camp, "alice", *amount).await.map(drop),
            Op::Give(item, count) => svc.gm_grant_item(camp, "alice", item, *count).await.map(drop),
            Op::Level(level) => svc.gm_set_level(camp, "alice", *level).await.map(drop),
            Op::Spawn(count) => {
                let spawned = svc.gm_spawn(camp, CHANNEL, "goblin", *count, now()).await.map(drop);
                if spawned.is_ok() {
                    // Aria joins and the fight begins, so the HP options go through the rules.
                    let _ = svc.start_combat(camp, CHANNEL, "alice", now()).await;
                }
                spawned
            }
            Op::ReactionTimeout(secs) => svc.set_reaction_timeout(camp, *secs).await.map(drop),
            Op::TurnTimeout(secs) => svc.set_turn_timeout(camp, *secs).await.map(drop),
        };
        answered(&op, result)?;
        let sheet = svc.sheet(camp, "alice").await.expect("sheet");
        prop_assert!(
            (0..=sheet.max_hp).contains(&sheet.hp),
            "{op:?}: HP {}/{}",
            sheet.hp,
            sheet.max_hp
        );
        prop_assert!((1..=20).contains(&sheet.level), "{op:?}: level {}", sheet.level);
        let inventory = svc.inventory(camp, "alice").await.expect("inventory");
        prop_assert!(inventory.coins >= 0, "{op:?}: coins {}", inventory.coins);
        for (item, n) in &inventory.items {
            prop_assert!(*n <= MAX_CARRIED, "{op:?}: {n} × {}", item.label());
        }
        let gear = inventory.pack.weapons.len() + inventory.pack.armor.len() + inventory.pack.shields as usize;
        prop_assert!(gear <= MAX_CARRIED as usize, "{op:?}: {gear} pieces of gear");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn extreme_numeric_options_keep_numbers_in_bounds(ops in proptest::collection::vec(op(), 1..14)) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        runtime.block_on(run(ops))?;
    }
}

/// The two extremes, exactly: an orc healed by `i32::MAX` stays at its maximum and alive;
/// hurt by `i32::MIN` it is slain at 0 HP (not wrapped back to life).
#[tokio::test]
async fn the_largest_heal_and_wound_saturate() -> Result<(), ServiceError> {
    let db = Db::connect("sqlite::memory:").await?;
    let svc = Service::with_seed(db, 3);
    let camp = svc.campaign_for("guild", CHANNEL, now()).await?.id;
    svc.create_character(camp, "alice", "Aria", "human", "fighter", now())
        .await?;
    svc.gm_spawn(camp, CHANNEL, "orc", 2, now()).await?;
    svc.start_combat(camp, CHANNEL, "alice", now()).await?;
    svc.gm_adjust_hp(camp, CHANNEL, "Orc 1", -3, now()).await?;
    let HpAdjusted::InCombat(healed) = svc.gm_adjust_hp(camp, CHANNEL, "Orc 1", i32::MAX, now()).await? else {
        panic!("in the fight")
    };
    let orc = healed.combat.by_name("Orc 1").expect("Orc 1");
    assert_eq!((orc.hp, orc.is_dead()), (orc.max_hp, false));
    let HpAdjusted::InCombat(hurt) = svc.gm_adjust_hp(camp, CHANNEL, "Orc 1", i32::MIN, now()).await? else {
        panic!("in the fight")
    };
    let orc = hurt.combat.by_name("Orc 1").expect("Orc 1");
    assert_eq!((orc.hp, orc.is_dead()), (0, true));
    Ok(())
}
