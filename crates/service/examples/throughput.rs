//! Persisted combat commands per second: many concurrent combats, each driven by its own
//! task (one player dashing and ending turns against a monster), every command one write
//! transaction. Prints commands/s and p50/p99 latency.
//!
//! `cargo run --release -p service --example throughput -- [DATABASE_URL] [combats] [seconds]`
//! (default: a temporary SQLite file, 32 combats, 5 s).

use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};
use service::{Db, PlayerCommand, Service, ServiceError};

#[tokio::main]
async fn main() -> Result<(), ServiceError> {
    let args: Vec<String> = std::env::args().collect();
    let path = std::env::temp_dir().join(format!("gogobee-throughput-{}.db", std::process::id()));
    let url = args
        .get(1)
        .filter(|url| !url.is_empty())
        .cloned()
        .unwrap_or_else(|| format!("sqlite://{}?mode=rwc", path.display()));
    let combats: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(32);
    let seconds: u64 = args.get(3).and_then(|n| n.parse().ok()).unwrap_or(5);
    let db = Db::connect(&url).await?;
    let svc = Service::with_seed(db, 1);
    let now = Utc.with_ymd_and_hms(2026, 11, 29, 12, 0, 0).unwrap();
    let camp = svc.campaign_for("bench", "setup", now).await?.id;
    let mut tasks = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(seconds);
    for i in 0..combats {
        let svc = svc.clone();
        tasks.push(tokio::spawn(async move {
            let player = format!("player-{i}");
            let channel = format!("channel-{i}");
            svc.create_character(camp, &player, &format!("Hero {i}"), "dwarf", "fighter", now)
                .await?;
            svc.gm_set_level(camp, &player, 20).await?;
            let mut latencies = Vec::new();
            while Instant::now() < deadline {
                svc.gm_spawn(camp, &channel, "giant rat", 1, now).await?;
                let mut update = svc.start_combat(camp, &channel, &player, now).await?;
                while update.combat.outcome.is_none() && Instant::now() < deadline {
                    if update.combat.window.is_some() {
                        let started = Instant::now();
                        update = svc
                            .react(camp, &channel, &player, "pass", update.window_token, now)
                            .await?;
                        latencies.push(started.elapsed());
                        continue;
                    }
                    for command in [PlayerCommand::Dash, PlayerCommand::EndTurn] {
                        let started = Instant::now();
                        match svc.act(camp, &channel, &player, &command, now).await {
                            Ok(next) => update = next,
                            Err(ServiceError::Rules(_)) => {}
                            Err(err) => return Err(err),
                        }
                        latencies.push(started.elapsed());
                        if update.combat.outcome.is_some() || update.combat.window.is_some() {
                            break;
                        }
                    }
                }
                if update.combat.outcome.is_none() {
                    svc.gm_end_combat(camp, &channel, now).await?;
                }
                let mut row = service::repo::characters::for_player(svc.db().conn(), camp, &player)
                    .await?
                    .expect("the hero exists");
                row.hp = row.max_hp;
                service::repo::characters::update(svc.db().conn(), row).await?;
            }
            Ok::<_, ServiceError>(latencies)
        }));
    }
    let started = Instant::now();
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await.expect("task panicked")?);
    }
    let elapsed = started.elapsed().as_secs_f64();
    all.sort();
    let pct = |p: f64| all[((all.len() as f64 * p) as usize).min(all.len() - 1)];
    println!(
        "{} combat commands in {elapsed:.2} s over {combats} combats: {:.0} commands/s, p50 {:.2} ms, p99 {:.2} ms",
        all.len(),
        all.len() as f64 / elapsed,
        pct(0.50).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
    );
    for suffix in ["", "-wal", "-shm"] {
        let mut file = path.clone().into_os_string();
        file.push(suffix);
        let _ = std::fs::remove_file(file);
    }
    Ok(())
}
