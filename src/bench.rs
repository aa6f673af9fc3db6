//! `gogobee bench`: persisted combat commands per second through the service — many concurrent
//! combats, each driven by its own task (a player dashing and ending turns against a monster),
//! every command one write transaction. Prints commands/s and p50/p99 latency per database.

use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use chrono::{TimeZone, Utc};
use clap::Args;
use service::{Db, PlayerCommand, Service, ServiceError};

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Databases to measure (repeatable); default: a temporary SQLite file. Add e.g.
    /// `--db postgres://postgres@127.0.0.1:5432/test` for PostgreSQL.
    #[arg(long)]
    db: Vec<String>,
    /// Concurrent combats.
    #[arg(long, default_value_t = 32)]
    combats: usize,
    /// How long to drive them, per database.
    #[arg(long, default_value_t = 5)]
    seconds: u64,
}

/// What one run measured.
struct Figures {
    commands: usize,
    /// Transactions the SQLite group commit used for its commands (0 on PostgreSQL).
    group_transactions: u64,
    group_commands: u64,
    seconds: f64,
    p50: Duration,
    p99: Duration,
}

async fn drive(url: &str, combats: usize, seconds: u64) -> Result<Figures> {
    let db = Db::connect(url).await.with_context(|| format!("connecting to {url}"))?;
    let svc = Service::with_seed(db, 1);
    let now = Utc
        .with_ymd_and_hms(2026, 11, 29, 12, 0, 0)
        .single()
        .expect("a valid time");
    let run = format!("bench-{}-{}", std::process::id(), Utc::now().timestamp_millis());
    let camp = svc.campaign_for(&run, "setup", now).await?.id;
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut tasks = Vec::new();
    for i in 0..combats {
        let svc = svc.clone();
        tasks.push(tokio::spawn(async move {
            let (player, channel, hero) = (format!("player-{i}"), format!("channel-{i}"), format!("Hero {i}"));
            svc.create_character(camp, &player, &hero, "dwarf", "fighter", now)
                .await?;
            svc.gm_set_level(camp, &player, 20).await?;
            let mut latencies = Vec::new();
            while Instant::now() < deadline {
                svc.gm_spawn(camp, &channel, "giant rat", 1, now).await?;
                let mut update = match svc.start_combat(camp, &channel, &player, now).await {
                    Ok(update) => update,
                    // The hero died last fight: close this one, pay the Hospital as of a day
                    // ago (so the recovery rest is over), and go again.
                    Err(ServiceError::InHospital { .. }) => {
                        svc.gm_end_combat(camp, &channel, now).await?;
                        let yesterday = now - chrono::Duration::days(1);
                        svc.hospital_pay(camp, &channel, &player, yesterday).await?;
                        continue;
                    }
                    Err(err) => return Err(err),
                };
                while update.combat.outcome.is_none() && Instant::now() < deadline {
                    let started = Instant::now();
                    let result = if update.combat.window.is_some() {
                        svc.react(camp, &channel, &player, "pass", update.window_token, now)
                            .await
                    } else if update
                        .combat
                        .current()
                        .is_some_and(|id| update.combat.get(id).player_id() == Some(&player))
                    {
                        let command = if update
                            .combat
                            .get(update.combat.current().unwrap())
                            .resources
                            .action_used
                        {
                            PlayerCommand::EndTurn
                        } else {
                            PlayerCommand::Dash
                        };
                        svc.act(camp, &channel, &player, &command, now).await
                    } else {
                        // Not a write: not counted.
                        update = svc.combat_status(camp, &channel).await?;
                        continue;
                    };
                    match result {
                        Ok(next) => update = next,
                        Err(ServiceError::Rules(_)) => {}
                        Err(err) => return Err(err),
                    }
                    latencies.push(started.elapsed());
                }
                if update.combat.outcome.is_none() {
                    svc.gm_end_combat(camp, &channel, now).await?;
                }
                let _ = svc.gm_adjust_hp(camp, &channel, &hero, 1_000, now).await;
            }
            Ok::<_, ServiceError>(latencies)
        }));
    }
    let started = Instant::now();
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await.context("a combat task panicked")??);
    }
    let seconds = started.elapsed().as_secs_f64();
    anyhow::ensure!(!all.is_empty(), "no command completed");
    all.sort();
    let pct = |p: f64| all[((all.len() as f64 * p) as usize).min(all.len() - 1)];
    Ok(Figures {
        commands: all.len(),
        group_transactions: svc.group_commit().transactions(),
        group_commands: svc.group_commit().commands(),
        seconds,
        p50: pct(0.50),
        p99: pct(0.99),
    })
}

pub fn run(args: &BenchArgs) -> Result<()> {
    let temp = std::env::temp_dir().join(format!("gogobee-bench-{}.db", std::process::id()));
    let urls = if args.db.is_empty() {
        vec![format!("sqlite://{}?mode=rwc", temp.display())]
    } else {
        args.db.clone()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    for url in &urls {
        let f = runtime.block_on(drive(url, args.combats, args.seconds))?;
        let backend = url.split(':').next().unwrap_or("?");
        println!(
            "{backend}: {} persisted commands in {:.1} s over {} combats — {:.0} commands/s, p50 {:.2} ms, p99 {:.2} ms",
            f.commands,
            f.seconds,
            args.combats,
            f.commands as f64 / f.seconds,
            f.p50.as_secs_f64() * 1e3,
            f.p99.as_secs_f64() * 1e3
        );
        if f.group_transactions > 0 {
            println!(
                "  group commit: {} commands in {} transactions ({:.1} per transaction)",
                f.group_commands,
                f.group_transactions,
                f.group_commands as f64 / f.group_transactions as f64
            );
        }
    }
    for suffix in ["", "-wal", "-shm"] {
        let mut file = temp.clone().into_os_string();
        file.push(suffix);
        let _ = std::fs::remove_file(file);
    }
    Ok(())
}
