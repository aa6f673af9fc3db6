//! A command refused for any reason stores nothing, on every backend: with a campaign's stored
//! homebrew no longer loading, every command whose answer reads the campaign's content is
//! refused saying why — and leaves the characters and expeditions as they were (before, an
//! `/expedition start` stored an active expedition and then was refused).

#[macro_use]
mod common;

use chrono::{TimeZone, Utc};
use sea_orm::{ConnectionTrait, Statement};
use service::{DateTimeUtc, Db, Service, ServiceError};

on_every_backend! {
    commands_refused_for_content_that_no_longer_loads_store_nothing => crate::commands_refused_for_content_that_no_longer_loads_store_nothing;
}

fn now() -> DateTimeUtc {
    Utc.with_ymd_and_hms(2026, 12, 3, 12, 0, 0).unwrap()
}

const MUDLING: &str = r#"
[[monster]]
name = "Mudling"
tier = 1
xp = 10
hp = "2d6"
ac = 12
abilities = { str = 10, dex = 10, con = 10, int = 10, wis = 10, cha = 10 }
attacks = [{ name = "Slap", to_hit = 2, damage = "1d4", type = "bludgeoning" }]
"#;

/// Every stored row of the tables a refused command could have written, as text.
async fn stored(svc: &Service) -> Vec<String> {
    let conn = svc.db().conn();
    let backend = conn.get_database_backend();
    let mut all = Vec::new();
    for sql in [
        "SELECT id, version, level, xp, hp, coalesce(weapon, '-') AS weapon, name FROM characters ORDER BY id",
        "SELECT id, character_id, status, room, zone AS name, 0 AS version, 0 AS level, 0 AS xp, 0 AS hp, '-' AS weapon FROM expeditions ORDER BY id",
    ] {
        let rows = conn
            .query_all_raw(Statement::from_string(backend, sql))
            .await
            .expect("readable");
        for r in rows {
            let id: i64 = r.try_get("", "id").unwrap();
            let version: i64 = r.try_get("", "version").unwrap();
            let level: i32 = r.try_get("", "level").unwrap();
            let xp: i32 = r.try_get("", "xp").unwrap();
            let hp: i32 = r.try_get("", "hp").unwrap();
            let weapon: String = r.try_get("", "weapon").unwrap();
            let name: String = r.try_get("", "name").unwrap();
            all.push(format!("{id} v{version} L{level} {xp}xp {hp}hp {weapon} {name}"));
        }
    }
    all
}

async fn commands_refused_for_content_that_no_longer_loads_store_nothing(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = svc.campaign_for("guild-a", "hall", now()).await?.id;
    svc.create_character(camp, "alice", "Aria", "human", "fighter", now())
        .await?;
    svc.gm_adjust_hp(camp, "hall", "Aria", -3, now()).await?;
    svc.homebrew_import(camp, MUDLING, now()).await?;
    // The stored entry edited past what the loader accepts (AC 1–40).
    let conn = svc.db().conn();
    conn.execute_unprepared("UPDATE homebrew SET body = replace(body, 'ac = 12', 'ac = 99')")
        .await?;
    let before = stored(&svc).await;
    assert_eq!(before.len(), 1, "{before:?}");

    let says = |e: ServiceError| {
        let text = e.to_string();
        assert!(text.contains("no longer loads"), "{text}");
    };
    says(
        svc.start_expedition(camp, "alice", "Forest of Shadows", now())
            .await
            .unwrap_err(),
    );
    says(
        svc.create_character(camp, "bob", "Bram", "human", "mage", now())
            .await
            .unwrap_err(),
    );
    says(svc.gm_set_level(camp, "alice", 3).await.unwrap_err());
    says(svc.gm_adjust_hp(camp, "hall", "Aria", 2, now()).await.unwrap_err());
    says(svc.unequip(camp, "alice", "weapon").await.unwrap_err());
    says(svc.equip(camp, "alice", "dagger", false).await.unwrap_err());
    assert_eq!(stored(&svc).await, before, "nothing stored by a refused command");
    assert!(svc.expedition(camp, "alice").await?.is_none(), "no expedition started");
    Ok(())
}
