//! Growth, on every backend: a fight holds at most `MAX_COMBATANTS` (a spawn or a
//! join past it is refused, changing nothing); a character is found by name through an index,
//! not by reading the campaign's characters; the retention policy compacts finished fights
//! older than the period to their summary and seed and deletes old fired timers, and replay
//! keeps working for every fight it keeps; a backlog goes in small transactions with commands
//! served between them.

#[macro_use]
mod common;

use chrono::{TimeZone, Utc};
use service::cmd::combat::MAX_COMBATANTS;
use service::cmd::gm::HpAdjusted;
use service::{DateTimeUtc, Db, Service, ServiceError};

on_every_backend! {
    a_fight_holds_at_most_the_cap => crate::a_fight_holds_at_most_the_cap;
    gm_hp_finds_a_character_by_name_among_many => crate::gm_hp_finds_a_character_by_name_among_many;
    retention_keeps_replay_for_what_it_keeps => crate::retention_keeps_replay_for_what_it_keeps;
    a_retention_backlog_is_compacted_in_small_transactions_and_a_command_is_served_between_them => crate::a_retention_backlog_is_compacted_in_small_transactions_and_a_command_is_served_between_them;
}

fn now() -> DateTimeUtc {
    Utc.with_ymd_and_hms(2026, 12, 1, 12, 0, 0).unwrap()
}

const CHANNEL: &str = "arena";

async fn a_fight_holds_at_most_the_cap(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = svc.campaign_for("guild", CHANNEL, now()).await?.id;
    svc.create_character(camp, "alice", "Aria", "elf", "rogue", now())
        .await?;
    let mut held = 0;
    while held + 12 <= MAX_COMBATANTS {
        held = svc
            .gm_spawn(camp, CHANNEL, "goblin", 12, now())
            .await?
            .combat
            .combatants
            .len();
    }
    let before = svc.combat_status(camp, CHANNEL).await?;
    let over = MAX_COMBATANTS - held + 1;
    let refused = svc.gm_spawn(camp, CHANNEL, "goblin", over as u32, now()).await;
    assert!(
        matches!(refused, Err(ServiceError::FightFull { count, max }) if count == held && max == MAX_COMBATANTS),
        "{refused:?}"
    );
    let filled = svc.gm_spawn(camp, CHANNEL, "goblin", (over - 1) as u32, now()).await?;
    assert_eq!(filled.combat.combatants.len(), MAX_COMBATANTS);
    let refused = svc.join_combat(camp, CHANNEL, "alice", now()).await;
    assert!(matches!(refused, Err(ServiceError::FightFull { .. })), "{refused:?}");
    let after = svc.combat_status(camp, CHANNEL).await?;
    assert_eq!(
        after.version,
        before.version + 1,
        "only the spawn that fitted was written"
    );
    assert_eq!(after.combat.combatants.len(), MAX_COMBATANTS);
    Ok(())
}

async fn gm_hp_finds_a_character_by_name_among_many(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = svc.campaign_for("guild", CHANNEL, now()).await?.id;
    for i in 0..30 {
        svc.create_character(camp, &format!("p{i}"), &format!("Hero {i}"), "human", "fighter", now())
            .await?;
    }
    svc.create_character(camp, "zed", "Ésmé", "human", "cleric", now())
        .await?;
    let HpAdjusted::Character(sheet) = svc.gm_adjust_hp(camp, CHANNEL, "  hero 17 ", -2, now()).await? else {
        panic!("out of combat");
    };
    assert_eq!((sheet.name.as_str(), sheet.hp), ("Hero 17", sheet.max_hp - 2));
    // Names outside ASCII fold as Rust folds them, on both backends.
    let HpAdjusted::Character(sheet) = svc.gm_adjust_hp(camp, CHANNEL, "éSMÉ", -1, now()).await? else {
        panic!("out of combat");
    };
    assert_eq!((sheet.name.as_str(), sheet.hp), ("Ésmé", sheet.max_hp - 1));
    let unknown = svc.gm_adjust_hp(camp, CHANNEL, "Hero 99", -1, now()).await;
    assert!(
        matches!(
            unknown,
            Err(ServiceError::Rules(engine::RuleViolation::UnknownTarget { .. }))
        ),
        "{unknown:?}"
    );
    Ok(())
}

/// SQLite's plans for the per-character look-ups name their indexes.
#[tokio::test]
async fn per_character_lookups_use_indexes() -> Result<(), ServiceError> {
    use sea_orm::{ConnectionTrait, DbBackend, Statement};
    let db = Db::connect("sqlite::memory:").await?;
    let plans = [
        (
            "SELECT * FROM characters WHERE campaign_id = 1 AND lower(name) = 'aria'",
            // Unique (one name per campaign), in place of a plain index.
            "ux_characters_campaign_name",
        ),
        (
            "SELECT combat_id FROM combatants WHERE character_id = 1",
            "ix_combatants_character",
        ),
        (
            "SELECT combat_id FROM death_save_states WHERE character_id = 1 AND failures >= 3",
            "ix_death_save_states_character",
        ),
        (
            "SELECT id FROM expeditions WHERE character_id = 1 AND status = 'active'",
            "ix_expeditions_character",
        ),
    ];
    for (query, index) in plans {
        let rows = db
            .conn()
            .query_all_raw(Statement::from_string(
                DbBackend::Sqlite,
                format!("EXPLAIN QUERY PLAN {query}"),
            ))
            .await?;
        let plan: Vec<String> = rows
            .iter()
            .map(|r| r.try_get::<String>("", "detail").unwrap_or_default())
            .collect();
        assert!(plan.iter().any(|p| p.contains(index)), "{query}: {plan:?}");
    }
    Ok(())
}

async fn retention_keeps_replay_for_what_it_keeps(db: Db) -> Result<(), ServiceError> {
    use chrono::Duration;
    use sea_orm::{ActiveModelTrait, ActiveValue::Set, EntityTrait};
    use service::entity::{combat, timer};
    let svc = Service::with_seed(db.clone(), 11);
    let camp = svc.campaign_for("guild", CHANNEL, now()).await?.id;
    svc.create_character(camp, "alice", "Aria", "human", "fighter", now())
        .await?;
    svc.gm_set_level(camp, "alice", 10).await?;
    // Fight 1 in the arena, won; fight 2 next door, still on.
    svc.gm_spawn(camp, CHANNEL, "goblin", 2, now()).await?;
    svc.start_combat(camp, CHANNEL, "alice", now()).await?;
    svc.act(camp, CHANNEL, "alice", &service::PlayerCommand::Dodge, now())
        .await
        .ok();
    svc.gm_adjust_hp(camp, CHANNEL, "Goblin 1", -1000, now()).await?;
    let HpAdjusted::InCombat(won) = svc.gm_adjust_hp(camp, CHANNEL, "Goblin 2", -1000, now()).await? else {
        panic!("in the fight")
    };
    assert_eq!(won.combat.outcome, Some(engine::Outcome::Victory));
    let next_door = "next-door";
    let open = svc.gm_spawn(camp, next_door, "orc", 1, now()).await?;
    svc.gm_spawn(camp, next_door, "goblin", 1, now()).await?;
    svc.start_combat(camp, next_door, "alice", now()).await?;
    let fired = |at| timer::ActiveModel {
        kind: Set("turn_timeout".into()),
        due_at: Set(at),
        payload: Set(serde_json::json!({})),
        fired_at: Set(Some(at)),
        ..Default::default()
    };
    fired(now()).insert(db.conn()).await?;
    fired(now() + Duration::days(2)).insert(db.conn()).await?;

    for id in [won.combat_id, open.combat_id] {
        let replayed = svc.replay(id).await?;
        assert!(replayed.commands >= 3, "{replayed:?}");
        assert_eq!(
            (replayed.diverged_at, replayed.same_state),
            (None, true),
            "{replayed:?}"
        );
    }
    // Within the period nothing goes.
    let kept = svc
        .compact_finished(now() + Duration::days(2), Duration::days(30))
        .await?;
    assert_eq!(kept, service::cmd::retention::Compacted::default());
    assert_eq!(svc.replay(won.combat_id).await?.diverged_at, None);

    // Past it: the finished fight is compacted to its summary and seed, the old timer goes.
    let done = svc
        .compact_finished(now() + Duration::days(2), Duration::days(1))
        .await?;
    assert_eq!((done.combats, done.log_rows, done.timers), (1, won.version as u64, 1));
    let row = combat::Entity::find_by_id(won.combat_id)
        .one(db.conn())
        .await?
        .expect("kept");
    let summary: serde_json::Value = serde_json::from_str(&row.state).expect("a summary");
    assert_eq!(summary["summary"]["outcome"], "Victory");
    assert_eq!(summary["summary"]["combatants"].as_array().map(Vec::len), Some(3));
    assert!(row.compacted_at.is_some() && row.initial_state.is_none());
    let refused = svc.replay(won.combat_id).await;
    assert!(
        matches!(&refused, Err(ServiceError::InvalidInput(m)) if m.contains("compacted")),
        "{refused:?}"
    );
    let open_replay = svc.replay(open.combat_id).await?;
    assert_eq!((open_replay.diverged_at, open_replay.same_state), (None, true));
    let timers = timer::Entity::find().all(db.conn()).await?;
    let fired_left = timers.iter().filter(|t| t.fired_at.is_some()).count();
    assert_eq!(fired_left, 1, "the recent fired timer stays: {timers:?}");
    assert!(
        timers.iter().any(|t| t.fired_at.is_none()),
        "pending timers stay: {timers:?}"
    );

    // The scheduler applies a configured policy as it fires timers.
    svc.gm_end_combat(camp, next_door, now()).await?;
    let policy = Service::new(db.clone()).with_retention(Duration::days(1));
    policy.fire_due_timers(now() + Duration::days(3), "w").await?;
    // It runs on a task of its own.
    while policy.compacting() {
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    let row = combat::Entity::find_by_id(open.combat_id)
        .one(db.conn())
        .await?
        .expect("kept");
    assert!(row.compacted_at.is_some());
    Ok(())
}

/// A backlog of 25 finished fights compacted 5 a transaction with a pause between: five
/// transactions, and a member's command sent meanwhile is answered before the pass ends.
async fn a_retention_backlog_is_compacted_in_small_transactions_and_a_command_is_served_between_them(
    db: Db,
) -> Result<(), ServiceError> {
    use chrono::Duration;
    use sea_orm::EntityTrait;
    use service::entity::combat;
    const FIGHTS: u64 = 25;
    const PAUSE: std::time::Duration = std::time::Duration::from_millis(150);
    let svc = Service::new(db.clone()).with_compaction_pace(5, PAUSE);
    let camp = svc.campaign_for("guild-a", CHANNEL, now()).await?.id;
    for _ in 0..FIGHTS {
        svc.gm_spawn(camp, CHANNEL, "goblin", 1, now()).await?;
        svc.gm_end_combat(camp, CHANNEL, now()).await?;
    }
    let pass = {
        let svc = svc.clone();
        tokio::spawn(async move { svc.compact_finished(now() + Duration::days(2), Duration::days(1)).await })
    };
    tokio::time::sleep(PAUSE / 2).await;
    let sent = std::time::Instant::now();
    svc.create_character(camp, "alice", "Aria", "human", "fighter", now())
        .await?;
    let took = sent.elapsed();
    assert!(!pass.is_finished(), "the command was served while the pass ran");
    assert!(took < PAUSE * 3, "the command took {took:?}");
    let done = pass.await.expect("the pass never panics")?;
    assert_eq!((done.combats, done.transactions), (FIGHTS, FIGHTS / 5), "{done:?}");
    let left = combat::Entity::find().all(db.conn()).await?;
    assert!(left.iter().all(|c| c.compacted_at.is_some()), "every fight compacted");
    Ok(())
}
