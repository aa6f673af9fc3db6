//! The scheduler's figures: how long a restarting process takes to restore 100,000
//! pending timers, and the timer lag (due → fired) under load.
//!
//! `cargo run --release -p service --example timers -- [DATABASE_URL] [pending] [load_timers] [load_seconds] [combats]`
//! (default: a temporary SQLite file, 100,000 pending, 20,000 timers due over 20 s, 8 combats).
//!
//! 1. Restore: `pending` recovery-rest timers (with their characters and Hospital records) are
//!    written, 1 % of them already overdue (they came due while the bot was down), the rest
//!    spread over the next 12 hours. Then a fresh `Db` + `Service` (a restarted process) times:
//!    connect and migrate, `next_timer_due`, and the first `fire_timer_batch` (≤ 500 timers).
//! 2. Lag: `load_timers` more rests due evenly over the next `load_seconds` of real time; one
//!    scheduler task (`wait_for_timers` → `fire_due_timers`, the real clock) fires them while
//!    `combats` tasks keep issuing combat commands. Lag = when the firing returned − `due_at`.

use std::collections::HashMap;
use std::time::{Duration as StdDuration, Instant};

use chrono::{Duration, Utc};
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};
use service::entity::{character, hospital_record, timer};
use service::{DateTimeUtc, Db, Fired, PlayerCommand, RECOVERY_REST, Service, ServiceError};

const CHUNK: usize = 500;

/// Writes `n` resting characters with their records and rest timers; `due(i)` is timer i's due time.
async fn resters(
    db: &Db,
    camp: i64,
    prefix: &str,
    n: usize,
    due: &dyn Fn(usize) -> DateTimeUtc,
) -> Result<(), ServiceError> {
    let conn = db.conn();
    let now = Utc::now();
    let indices: Vec<usize> = (0..n).collect();
    for chunk in indices.chunks(CHUNK) {
        character::Entity::insert_many(chunk.iter().map(|i| character::ActiveModel {
            campaign_id: Set(camp),
            player_id: Set(format!("{prefix}{i}")),
            name: Set(format!("Rester {i}")),
            race: Set("Human".into()),
            class: Set("Fighter".into()),
            level: Set(1),
            xp: Set(0),
            coins: Set(0),
            hp: Set(0),
            max_hp: Set(12),
            inventory: Set(serde_json::json!({})),
            gear: Set(serde_json::json!({})),
            arena_streak: Set(0),
            created_at: Set(now),
            ..Default::default()
        }))
        .exec(conn)
        .await?;
    }
    let ids: HashMap<String, i64> = character::Entity::find()
        .filter(character::Column::CampaignId.eq(camp))
        .filter(character::Column::PlayerId.starts_with(prefix))
        .all(conn)
        .await?
        .into_iter()
        .map(|c| (c.player_id, c.id))
        .collect();
    for chunk in indices.chunks(CHUNK) {
        hospital_record::Entity::insert_many(chunk.iter().map(|i| hospital_record::ActiveModel {
            character_id: Set(ids[&format!("{prefix}{i}")]),
            player_id: Set(format!("{prefix}{i}")),
            admitted_at: Set(now),
            fee: Set(0),
            fee_paid: Set(true),
            paid_at: Set(Some(now)),
            recovery_ends: Set(Some(due(*i))),
            zone_died_in: Set("none".into()),
            death_saves: Set(serde_json::json!({})),
            ..Default::default()
        }))
        .exec(conn)
        .await?;
    }
    let records: HashMap<i64, i64> = hospital_record::Entity::find()
        .filter(hospital_record::Column::PlayerId.starts_with(prefix))
        .all(conn)
        .await?
        .into_iter()
        .map(|r| (r.character_id, r.id))
        .collect();
    for chunk in indices.chunks(CHUNK) {
        timer::Entity::insert_many(chunk.iter().map(|i| {
            let character_id = ids[&format!("{prefix}{i}")];
            timer::ActiveModel {
                kind: Set(RECOVERY_REST.into()),
                due_at: Set(due(*i)),
                payload: Set(serde_json::json!({
                    "hospital_record_id": records[&character_id],
                    "character_id": character_id,
                    "player_id": format!("{prefix}{i}"),
                    "campaign_id": camp,
                    "channel_id": "inn",
                })),
                ..Default::default()
            }
        }))
        .exec(conn)
        .await?;
    }
    Ok(())
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at]
}

#[tokio::main]
async fn main() -> Result<(), ServiceError> {
    let args: Vec<String> = std::env::args().collect();
    let path = std::env::temp_dir().join(format!("gogobee-timers-{}.db", std::process::id()));
    let url = args
        .get(1)
        .filter(|u| !u.is_empty())
        .cloned()
        .unwrap_or_else(|| format!("sqlite://{}?mode=rwc", path.display()));
    let pending: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let load: usize = args.get(3).and_then(|n| n.parse().ok()).unwrap_or(20_000);
    let load_secs: i64 = args.get(4).and_then(|n| n.parse().ok()).unwrap_or(20);
    let combats: usize = args.get(5).and_then(|n| n.parse().ok()).unwrap_or(8);

    // --- Restore ---
    let db = Db::connect(&url).await?;
    let svc = Service::with_seed(db.clone(), 1);
    let camp = svc
        .campaign_for(&format!("bench-{}", std::process::id()), "inn", Utc::now())
        .await?
        .id;
    let start = Utc::now();
    let overdue = pending / 100;
    let written = Instant::now();
    resters(&db, camp, "r", pending, &|i| {
        if i < overdue {
            start - Duration::minutes(10) + Duration::milliseconds(i as i64)
        } else {
            start + Duration::seconds(60 + (i as i64 * 12 * 3600) / pending as i64)
        }
    })
    .await?;
    let write_secs = written.elapsed().as_secs_f64();
    println!("wrote {pending} pending rest timers ({overdue} overdue) in {write_secs:.1} s");
    drop(svc);
    db.close().await?;

    let restart = Instant::now();
    let db = Db::connect(&url).await?;
    let connected = restart.elapsed();
    let svc = Service::with_seed(db.clone(), 1);
    let next = svc.next_timer_due().await?;
    let found = restart.elapsed();
    let (fired, claimed) = svc
        .fire_timer_batch(Utc::now(), "restore", service::scheduler::BATCH)
        .await?;
    let first_batch = restart.elapsed();
    let mut rest = 0;
    while svc.next_timer_due().await?.is_some_and(|d| d <= Utc::now()) {
        rest += svc.fire_due_timers(Utc::now(), "restore").await?.len();
    }
    let caught_up = restart.elapsed();
    println!(
        "restore: connect+migrate {:.1} ms, next_timer_due {:.1} ms (→ {}), first batch ({claimed} claimed, {} fired) {:.1} ms; total to first fire {:.1} ms; all {overdue} overdue fired after {:.1} ms ({rest} more)",
        connected.as_secs_f64() * 1e3,
        found.saturating_sub(connected).as_secs_f64() * 1e3,
        next.map_or("none".into(), |d| d.to_rfc3339()),
        fired.len(),
        first_batch.saturating_sub(found).as_secs_f64() * 1e3,
        first_batch.as_secs_f64() * 1e3,
        caught_up.as_secs_f64() * 1e3,
    );

    // --- Lag under load ---
    // The first load timer is due once they are all written (judged from the restore's writes).
    let lead_ms = (2000.0 + 1.5e3 * write_secs * load as f64 / pending.max(1) as f64) as i64;
    let base = Utc::now() + Duration::milliseconds(lead_ms);
    let span_ms = load_secs * 1000;
    resters(&db, camp, "l", load, &|i| {
        base + Duration::milliseconds(i as i64 * span_ms / load as i64)
    })
    .await?;
    let due: HashMap<String, DateTimeUtc> = (0..load)
        .map(|i| {
            (
                format!("l{i}"),
                base + Duration::milliseconds(i as i64 * span_ms / load as i64),
            )
        })
        .collect();
    let left_ms = (base - Utc::now()).num_milliseconds().max(0);
    let deadline = Instant::now() + StdDuration::from_millis((left_ms + span_ms + 4000) as u64);
    // Background load: `combats` fights of dash / end turn.
    let mut loaders = Vec::new();
    for i in 0..combats {
        let svc = svc.clone();
        loaders.push(tokio::spawn(async move {
            let player = format!("fighter-{i}");
            let channel = format!("arena-{i}");
            svc.create_character(camp, &player, &format!("Fighter {i}"), "dwarf", "fighter", Utc::now())
                .await?;
            svc.gm_set_level(camp, &player, 20).await?;
            let mut commands = 0u64;
            while Instant::now() < deadline {
                svc.gm_spawn(camp, &channel, "giant rat", 1, Utc::now()).await?;
                svc.start_combat(camp, &channel, &player, Utc::now()).await?;
                for _ in 0..20 {
                    if svc
                        .act(camp, &channel, &player, &PlayerCommand::Dash, Utc::now())
                        .await
                        .is_ok()
                    {
                        commands += 1;
                    }
                    if svc.end_turn(camp, &channel, &player, Utc::now()).await.is_ok() {
                        commands += 1;
                    }
                }
                svc.gm_end_combat(camp, &channel, Utc::now()).await.ok();
            }
            Ok::<u64, ServiceError>(commands)
        }));
    }
    let mut lags = Vec::with_capacity(load);
    while Instant::now() < deadline && lags.len() < load {
        svc.wait_for_timers(Utc::now(), StdDuration::from_millis(500)).await?;
        let fired = svc.fire_due_timers(Utc::now(), "lag").await?;
        let at = Utc::now();
        for f in fired {
            if let Fired::RestOver { player_id, .. } = f
                && let Some(d) = due.get(&player_id)
            {
                lags.push((at - *d).num_microseconds().unwrap_or(0) as f64 / 1000.0);
            }
        }
    }
    let mut commands = 0;
    for l in loaders {
        commands += l.await.expect("loader")?;
    }
    lags.sort_by(f64::total_cmp);
    println!(
        "lag ({} of {load} timers over {load_secs} s, {:.0}/s, beside {commands} combat commands): p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        lags.len(),
        load as f64 / load_secs as f64,
        percentile(&lags, 0.5),
        percentile(&lags, 0.99),
        lags.last().copied().unwrap_or(f64::NAN),
    );
    db.close().await?;
    for suffix in ["", "-wal", "-shm"] {
        let mut file = path.clone().into_os_string();
        file.push(suffix);
        let _ = std::fs::remove_file(file);
    }
    Ok(())
}
