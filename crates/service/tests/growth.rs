//! Growth (issue 18), on every backend: a fight holds at most `MAX_COMBATANTS` (a spawn or a
//! join past it is refused, changing nothing); a character is found by name through an index,
//! not by reading the campaign's characters.

#[macro_use]
mod common;

use chrono::{TimeZone, Utc};
use service::cmd::combat::MAX_COMBATANTS;
use service::cmd::gm::HpAdjusted;
use service::{DateTimeUtc, Db, Service, ServiceError};

on_every_backend! {
    a_fight_holds_at_most_the_cap => crate::a_fight_holds_at_most_the_cap;
    gm_hp_finds_a_character_by_name_among_many => crate::gm_hp_finds_a_character_by_name_among_many;
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

/// SQLite's plans for the per-character look-ups name the indexes issue 18 added.
#[tokio::test]
async fn per_character_lookups_use_indexes() -> Result<(), ServiceError> {
    use sea_orm::{ConnectionTrait, DbBackend, Statement};
    let db = Db::connect("sqlite::memory:").await?;
    let plans = [
        (
            "SELECT * FROM characters WHERE campaign_id = 1 AND lower(name) = 'aria'",
            "ix_characters_campaign_name",
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
