//! `gogobee bench`: persisted combat commands per second through the service — many concurrent
//! combats, each driven by its own task (a player dashing and ending turns against a monster),
//! every command one write transaction. Prints commands/s and p50/p99 latency per database,
//! the bytes each command wrote, and the same for the database's own baseline measured in the
//! same run just before (`service::baseline`: raw small SQLite transactions; pgbench's UPDATE +
//! INSERT), with the service's figures as ratios to it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use chrono::{TimeZone, Utc};
use clap::Args;
use service::{CombatUpdate, DateTimeUtc, Db, PlayerCommand, Service, ServiceError};
use tokio::sync::Barrier;

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Databases to measure, one after another (repeatable): a URL, or `sqlite` for a
    /// temporary SQLite file (the default). E.g. `--db sqlite --db
    /// postgres://postgres@127.0.0.1:5432/test` measures both.
    #[arg(long)]
    pub db: Vec<String>,
    /// Concurrent combats.
    #[arg(long, default_value_t = 32)]
    combats: usize,
    /// How long to drive them, per database.
    #[arg(long, default_value_t = 5)]
    seconds: u64,
    /// Offered load in commands/s across all combats: each combat sends at rate/combats on a
    /// fixed schedule, catching up at once when behind (so a service that cannot keep up shows
    /// as commands/s below the rate). Default: every combat as fast as its commands are
    /// answered.
    #[arg(long)]
    rate: Option<f64>,
    /// Write each fight's whole state every this many commands (the service's default unless
    /// given; 1 writes it every command).
    #[arg(long)]
    snapshot_every: Option<u32>,
    /// Skip the database's own baseline.
    #[arg(long)]
    no_baseline: bool,
    /// Measure this many times, the baseline again after each, each round's ratio to the mean
    /// of the baselines around it; ends with the rounds' ranges.
    #[arg(long, default_value_t = 1)]
    rounds: usize,
}

/// What one run measured.
struct Figures {
    commands: usize,
    /// Transactions the group commit (SQLite file or PostgreSQL) used for its commands.
    group_transactions: u64,
    group_commands: u64,
    seconds: f64,
    p50: Duration,
    p99: Duration,
    /// Commands that killed a character or ended the fight (written in a transaction of their
    /// own: the Hospital admission, the settlement), and the p99 of all the others.
    ending: usize,
    rest_p99: Duration,
    /// Bytes written per command: by this process (SQLite: the WAL and its checkpoints), or WAL
    /// the server generated (PostgreSQL).
    bytes_per_command: f64,
    /// Of [`Figures::bytes_per_command`], what the SQLite checkpointer wrote into the database
    /// file (the rest went to the WAL); `None` for PostgreSQL.
    checkpointed_per_command: Option<f64>,
    /// The next fights' set-ups between commands (not counted as commands, but in the time).
    set_ups: usize,
    setting_up: SetUp,
    /// How long the commands that killed or ended a fight took together.
    ending_time: Duration,
}

/// The time the next fights' set-ups took, step by step.
#[derive(Clone, Copy, Default)]
struct SetUp {
    heal: Duration,
    spawn: Duration,
    start: Duration,
    /// Closing the fight the hero could not join and paying the Hospital's bill.
    bill: Duration,
}

impl SetUp {
    fn total(&self) -> Duration {
        self.heal + self.spawn + self.start + self.bill
    }

    fn add(&mut self, other: &Self) {
        self.heal += other.heal;
        self.spawn += other.spawn;
        self.start += other.start;
        self.bill += other.bill;
    }
}

/// Opens a fight for `player` in `channel` against a giant rat: one fight is one write per
/// command for as long as the bench runs (the hero only dashes and ends turns).
/// Adds each step's time to `took`.
async fn begin_fight(
    svc: &Service,
    camp: i64,
    channel: &str,
    player: &str,
    now: DateTimeUtc,
    took: &mut SetUp,
) -> Result<CombatUpdate, ServiceError> {
    loop {
        let step = Instant::now();
        svc.gm_spawn(camp, channel, "giant rat", 1, now).await?;
        took.spawn += step.elapsed();
        let step = Instant::now();
        let started = svc.start_combat(camp, channel, player, now).await;
        took.start += step.elapsed();
        match started {
            Ok(update) => return Ok(update),
            // The hero died last fight: close this one, pay the Hospital as of a day ago (so
            // the recovery rest is over), and go again.
            Err(ServiceError::InHospital { .. }) => {
                let step = Instant::now();
                svc.gm_end_combat(camp, channel, now).await?;
                let yesterday = now - chrono::Duration::days(1);
                svc.hospital_pay(camp, channel, player, yesterday).await?;
                took.bill += step.elapsed();
            }
            Err(err) => return Err(err),
        }
    }
}

/// What a driver reads from an answer before it drops it, as a client does once it has shown
/// it: an answer still held when the next command runs would share the fight with the service's
/// cache, and that command would copy the fight to write it (`Arc::make_mut`), which the bot,
/// holding no answer, never makes it do.
struct Seen {
    over: bool,
    /// A reaction window is open (on the hero: the bench's only player).
    reacting: bool,
    /// It is the player's turn.
    acting: bool,
    /// The player has used their action this turn.
    action_used: bool,
    window_token: Option<i64>,
}

impl Seen {
    fn of(update: &CombatUpdate, player: &str) -> Self {
        let current = update.combat.current().map(|id| update.combat.get(id));
        Self {
            over: update.combat.outcome.is_some(),
            reacting: update.combat.window.is_some(),
            acting: current.is_some_and(|c| c.player_id() == Some(player)),
            action_used: current.is_some_and(|c| c.resources.action_used),
            window_token: update.window_token,
        }
    }
}

/// What one combat's driver measured: its writes' latencies (and whether each was a death or
/// a fight's end), and when it drove.
struct Driven {
    latencies: Vec<(Duration, bool)>,
    from: Instant,
    until: Instant,
    /// The next fights' set-ups (a heal, a spawn, a start, the Hospital's bill): how many, and
    /// how long each step took together.
    set_ups: usize,
    setting_up: SetUp,
}

/// The PostgreSQL baseline's clients: one a fight, up to [`MAX_BASELINE_CLIENTS`] (a thousand
/// connections would pass the server's `max_connections`).
fn baseline_clients(combats: usize) -> usize {
    combats.clamp(1, MAX_BASELINE_CLIENTS)
}

const MAX_BASELINE_CLIENTS: usize = 32;

/// SQLite's page size unless a file is made with another: the second SQLite baseline's.
const SQLITE_DEFAULT_PAGE_SIZE: u32 = 4096;

/// Combats set up at the same time, at most.
const SETTING_UP: usize = 8;

async fn drive(
    url: &str,
    combats: usize,
    seconds: u64,
    rate: Option<f64>,
    snapshot_every: Option<u32>,
) -> Result<Figures> {
    let db = Db::connect(url).await.with_context(|| format!("connecting to {url}"))?;
    let mut svc = Service::with_seed(db.clone(), 1);
    if let Some(every) = snapshot_every {
        svc = svc.with_snapshot_every(every);
    }
    let now = Utc
        .with_ymd_and_hms(2026, 11, 29, 12, 0, 0)
        .single()
        .expect("a valid time");
    let run = format!("bench-{}-{}", std::process::id(), Utc::now().timestamp_millis());
    let camp = svc.campaign_for(&run, "setup", now).await?.id;
    // Every combat is set up (character, first fight) before any is timed.
    let ready = Arc::new(Barrier::new(combats + 1));
    // A few set up at once: a thousand setting up together would wait on the pool's connections
    // past its timeout.
    let setting_up = Arc::new(tokio::sync::Semaphore::new(SETTING_UP));
    let mut tasks = Vec::new();
    for i in 0..combats {
        let (svc, ready, setting_up) = (svc.clone(), Arc::clone(&ready), Arc::clone(&setting_up));
        tasks.push(tokio::spawn(async move {
            let permit = setting_up.acquire_owned().await.expect("the semaphore stays open");
            let (player, channel, hero) = (format!("player-{i}"), format!("channel-{i}"), format!("Hero {i}"));
            svc.create_character(camp, &player, &hero, "dwarf", "fighter", now)
                .await?;
            svc.gm_set_level(camp, &player, 20).await?;
            let mut seen = Seen::of(
                &begin_fight(&svc, camp, &channel, &player, now, &mut SetUp::default()).await?,
                &player,
            );
            // Heroes who start alike would fall together, every fight's end (a death, the
            // Hospital, a new fight: writes outside the group commit) in the same instant,
            // which no server sees: the first fight starts each hero wounded by a different
            // amount, so the fights run out of step.
            let wound = -((i * 160 / combats) as i32);
            if wound < 0 {
                seen = match svc.gm_adjust_hp(camp, &channel, &hero, wound, now).await? {
                    service::cmd::gm::HpAdjusted::InCombat(update) => Seen::of(&update, &player),
                    service::cmd::gm::HpAdjusted::Character(_) => unreachable!("the hero is fighting"),
                };
            }
            drop(permit);
            ready.wait().await;
            let from = Instant::now();
            let deadline = from + Duration::from_secs(seconds);
            let mut latencies = Vec::new();
            let (mut set_ups, mut setting_up) = (0, SetUp::default());
            // The offered load's schedule: one command due every `combats / rate` seconds, the
            // combats' schedules spread evenly over that period (not all due at once).
            let mut schedule = rate.map(|rate| {
                let period = Duration::from_secs_f64(combats as f64 / rate);
                let first = tokio::time::Instant::now() + period.mul_f64(i as f64 / combats as f64);
                let mut ticks = tokio::time::interval_at(first, period);
                ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
                ticks
            });
            while Instant::now() < deadline {
                if seen.over {
                    let started = Instant::now();
                    let _ = svc.gm_adjust_hp(camp, &channel, &hero, 1_000, now).await;
                    setting_up.heal += started.elapsed();
                    seen = Seen::of(
                        &begin_fight(&svc, camp, &channel, &player, now, &mut setting_up).await?,
                        &player,
                    );
                    set_ups += 1;
                    // Setting up a fight is not on the schedule: its commands are due from now.
                    if let Some(schedule) = &mut schedule {
                        schedule.reset();
                    }
                }
                if !seen.reacting && !seen.acting {
                    // Not a write: not counted.
                    seen = Seen::of(&svc.combat_status(camp, &channel).await?, &player);
                    continue;
                }
                if let Some(schedule) = &mut schedule {
                    schedule.tick().await;
                }
                let started = Instant::now();
                let result = if seen.reacting {
                    svc.react(camp, &channel, &player, "pass", seen.window_token, now).await
                } else {
                    let command = if seen.action_used {
                        PlayerCommand::EndTurn
                    } else {
                        PlayerCommand::Dash
                    };
                    svc.act(camp, &channel, &player, &command, now).await
                };
                let mut ending = false;
                match result {
                    Ok(next) => {
                        ending = next.combat.outcome.is_some()
                            || next.events.iter().any(|e| matches!(e, engine::Event::Died { .. }));
                        seen = Seen::of(&next, &player);
                    }
                    Err(ServiceError::Rules(_)) => {}
                    Err(err) => return Err(err),
                }
                latencies.push((started.elapsed(), ending));
            }
            Ok::<_, ServiceError>(Driven {
                latencies,
                from,
                until: Instant::now(),
                set_ups,
                setting_up,
            })
        }));
    }
    // Every combat is set up once this barrier opens (this task waits at it too): what they write
    // from here on is the commands'.
    ready.wait().await;
    let written = (
        service::baseline::process_bytes_written(),
        service::baseline::postgres_wal_position(&db).await?,
        db.checkpointed_bytes(),
    );
    let mut all = Vec::new();
    let (mut from, mut until) = (None::<Instant>, None::<Instant>);
    let (mut set_ups, mut setting_up) = (0, SetUp::default());
    for task in tasks {
        let driven = task.await.context("a combat task panicked")??;
        all.extend(driven.latencies);
        set_ups += driven.set_ups;
        setting_up.add(&driven.setting_up);
        from = Some(from.map_or(driven.from, |f| f.min(driven.from)));
        until = Some(until.map_or(driven.until, |u| u.max(driven.until)));
    }
    anyhow::ensure!(!all.is_empty(), "no command completed");
    let bytes = match written {
        (_, Some(wal), _) => service::baseline::postgres_wal_position(&db).await?.unwrap_or(wal) - wal,
        (Some(from), None, _) => service::baseline::process_bytes_written().map_or(0, |to| to - from) as i64,
        (None, None, _) => 0,
    };
    let checkpointed = written
        .2
        .zip(db.checkpointed_bytes())
        .map(|(from, to)| to.saturating_sub(from));
    let seconds = (until.expect("a combat ran") - from.expect("a combat ran")).as_secs_f64();
    let mut rest: Vec<Duration> = all.iter().filter(|(_, ending)| !ending).map(|(t, _)| *t).collect();
    let ending_time = all.iter().filter(|(_, ending)| *ending).map(|(t, _)| *t).sum();
    let mut all: Vec<Duration> = all.into_iter().map(|(t, _)| t).collect();
    let (p50, p99) = percentiles(&mut all);
    Ok(Figures {
        commands: all.len(),
        ending: all.len() - rest.len(),
        rest_p99: percentiles(&mut rest).1,
        group_transactions: svc.group_commit().transactions(),
        group_commands: svc.group_commit().commands(),
        seconds,
        p50,
        p99,
        bytes_per_command: bytes as f64 / all.len() as f64,
        checkpointed_per_command: checkpointed.map(|b| b as f64 / all.len() as f64),
        set_ups,
        setting_up,
        ending_time,
    })
}

/// p50 and p99 of `latencies` (zero when there are none).
fn percentiles(latencies: &mut [Duration]) -> (Duration, Duration) {
    latencies.sort();
    let pct = |p: f64| {
        latencies
            .get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)))
            .copied()
            .unwrap_or_default()
    };
    (pct(0.50), pct(0.99))
}

pub fn run(args: &BenchArgs) -> Result<()> {
    anyhow::ensure!(args.combats >= 1, "--combats must be at least 1");
    anyhow::ensure!(args.seconds >= 1, "--seconds must be at least 1");
    anyhow::ensure!(args.rounds >= 1, "--rounds must be at least 1");
    if let Some(rate) = args.rate {
        anyhow::ensure!(
            rate.is_finite() && rate >= 1.0,
            "--rate must be at least 1 command/s (leave it out to drive every combat as fast as it is answered)"
        );
    }
    let temp = std::env::temp_dir().join(format!("gogobee-bench-{}.db", std::process::id()));
    let scratch = format!("sqlite://{}?mode=rwc", temp.display());
    let urls: Vec<String> = if args.db.is_empty() {
        vec![scratch]
    } else {
        args.db
            .iter()
            .map(|db| if db == "sqlite" { scratch.clone() } else { db.clone() })
            .collect()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    for url in &urls {
        let backend = url.split(':').next().unwrap_or("?");
        // Each round's service run between two runs of the baseline (several rounds: the
        // baseline before the first, then after each), its ratio to their mean: a machine whose
        // speed drifts during the run moves both sides of the ratio alike.
        let mut before = baselines(&runtime, args, url, backend)?;
        let mut ratios: Vec<Vec<f64>> = vec![Vec::new(); before.len()];
        let mut figures = Vec::new();
        for round in 1..=args.rounds {
            if args.rounds > 1 {
                println!("{backend}: round {round} of {}", args.rounds);
            }
            let f = runtime.block_on(drive(url, args.combats, args.seconds, args.rate, args.snapshot_every))?;
            let after = if args.rounds > 1 {
                baselines(&runtime, args, url, backend)?
            } else {
                Vec::new()
            };
            let bracket: Vec<Measured> = before
                .iter()
                .enumerate()
                .map(|(i, b)| match after.get(i) {
                    Some(a) => b.mean_with(a),
                    None => b.clone(),
                })
                .collect();
            for (i, b) in bracket.iter().enumerate() {
                ratios[i].push(f.commands as f64 / f.seconds / b.per_second);
            }
            report(backend, args, &f, &bracket, !after.is_empty());
            figures.push(f);
            before = after;
        }
        if args.rounds > 1 {
            // Under an offered load the rounds' rates are the load's: no ratio of them.
            let ratios = if args.rate.is_some() { &[][..] } else { &ratios[..] };
            summary(backend, &figures, &before, ratios);
        }
    }
    service::remove_sqlite_files(&temp);
    Ok(())
}

/// One baseline as a ratio's divisor: its name, its rate and its bytes per transaction.
#[derive(Clone)]
struct Measured {
    name: String,
    per_second: f64,
    bytes_per_transaction: f64,
}

impl Measured {
    /// This and `other` (the same baseline measured again) averaged.
    fn mean_with(&self, other: &Measured) -> Measured {
        Measured {
            name: self.name.clone(),
            per_second: f64::midpoint(self.per_second, other.per_second),
            bytes_per_transaction: f64::midpoint(self.bytes_per_transaction, other.bytes_per_transaction),
        }
    }
}

/// The database's own baselines, measured now and printed (none with `--no-baseline`).
fn baselines(runtime: &tokio::runtime::Runtime, args: &BenchArgs, url: &str, backend: &str) -> Result<Vec<Measured>> {
    let mut measured = Vec::new();
    if args.no_baseline {
        return Ok(measured);
    }
    if backend == "sqlite" {
        // SQLite's baseline twice: with the service's page size (the bench's own files have it),
        // and with SQLite's default, which the service used before its 1 KiB pages.
        let path = std::env::temp_dir().join(format!("gogobee-baseline-{}.db", std::process::id()));
        for page_size in [service::SQLITE_PAGE_SIZE, SQLITE_DEFAULT_PAGE_SIZE] {
            let shape = format!(
                "raw SQLite (WAL, synchronous NORMAL, {page_size}-byte pages{}), BEGIN IMMEDIATE + UPDATE + INSERT + \
                 COMMIT, one connection",
                if page_size == service::SQLITE_PAGE_SIZE {
                    " as the service's files"
                } else {
                    ": SQLite's default"
                }
            );
            let b = service::baseline::sqlite(&path, args.seconds as f64, page_size)?;
            measured.push(printed(backend, &format!("{page_size}-byte pages"), &shape, &b));
        }
    } else {
        let clients = baseline_clients(args.combats);
        let b = runtime.block_on(service::baseline::postgres(url, clients, args.seconds as f64))?;
        let shape = format!("pgbench-like BEGIN + UPDATE + INSERT + COMMIT, {clients} clients");
        measured.push(printed(backend, "pgbench-like", &shape, &b));
    }
    Ok(measured)
}

fn printed(backend: &str, name: &str, shape: &str, b: &service::baseline::Baseline) -> Measured {
    println!(
        "{backend} baseline: {shape} — {:.0} tx/s, {:.0} bytes written per tx",
        b.per_second(),
        b.bytes_per_transaction
    );
    Measured {
        name: name.to_owned(),
        per_second: b.per_second(),
        bytes_per_transaction: b.bytes_per_transaction,
    }
}

/// One run's figures, each beside `baselines` (`bracketed`: the mean of the runs before and
/// after it).
fn report(backend: &str, args: &BenchArgs, f: &Figures, baselines: &[Measured], bracketed: bool) {
    let per_second = f.commands as f64 / f.seconds;
    println!(
        "{backend}: {} persisted commands in {:.1} s over {} combats{} — {per_second:.0} commands/s, p50 {:.2} ms, p99 {:.2} ms",
        f.commands,
        f.seconds,
        args.combats,
        args.rate
            .map(|rate| format!(" offered {rate:.0}/s"))
            .unwrap_or_default(),
        f.p50.as_secs_f64() * 1e3,
        f.p99.as_secs_f64() * 1e3
    );
    let written = if backend == "sqlite" {
        "bytes written by the process (WAL, checkpoints)"
    } else {
        "bytes of server WAL"
    };
    match f.checkpointed_per_command {
        Some(checkpointed) => println!(
            "  {:.0} {written} per command: {:.0} to the WAL, {checkpointed:.0} by checkpoints into the database file",
            f.bytes_per_command,
            f.bytes_per_command - checkpointed
        ),
        None => println!("  {:.0} {written} per command", f.bytes_per_command),
    }
    for b in baselines {
        // An offered load's rate is the load's, not the service's: only its bytes compare.
        let rate = match args.rate {
            None => format!("{:.2}x its tx/s, ", per_second / b.per_second),
            Some(_) => String::new(),
        };
        let around = if bracketed {
            ", the mean of the runs before and after"
        } else {
            ""
        };
        println!(
            "  ratio to the baseline ({}{around}): {rate}{:.2}x its bytes per tx",
            b.name,
            f.bytes_per_command / b.bytes_per_transaction.max(1.0)
        );
    }
    println!(
        "  {} of them killed or ended a fight (a transaction of their own); the other {}: p99 {:.2} ms",
        f.ending,
        f.commands - f.ending,
        f.rest_p99.as_secs_f64() * 1e3
    );
    if f.set_ups > 0 {
        // Not commands, but in the time above: how much of it they took, and the commands'
        // own rate without them (the figures above stay the measure).
        let share = f.setting_up.total().as_secs_f64() / (f.seconds * args.combats as f64);
        println!(
            "  the next fight set up {} times (heal, spawn, start, Hospital bill), {:.2} ms each: {:.0} % of the \
             combats' time; between set-ups {:.0} commands/s",
            f.set_ups,
            f.setting_up.total().as_secs_f64() * 1e3 / f.set_ups as f64,
            100.0 * share,
            per_second / (1.0 - share).max(f64::EPSILON)
        );
        let each = |d: Duration| d.as_secs_f64() * 1e3 / f.set_ups as f64;
        println!(
            "  a set-up's steps: heal {:.2} ms, spawn {:.2} ms, start {:.2} ms, Hospital bill {:.2} ms; a command \
             that killed or ended a fight {:.2} ms on average",
            each(f.setting_up.heal),
            each(f.setting_up.spawn),
            each(f.setting_up.start),
            each(f.setting_up.bill),
            f.ending_time.as_secs_f64() * 1e3 / f.ending.max(1) as f64
        );
    }
    if f.group_transactions > 0 {
        println!(
            "  group commit: {} commands in {} transactions ({:.1} per transaction)",
            f.group_commands,
            f.group_transactions,
            f.group_commands as f64 / f.group_transactions as f64
        );
    }
}

/// Several rounds' figures as ranges, and each baseline's ratio as its range and median.
fn summary(backend: &str, figures: &[Figures], baselines: &[Measured], ratios: &[Vec<f64>]) {
    let range = |values: Vec<f64>| {
        let (low, high) = values
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| (l.min(v), h.max(v)));
        (low, high)
    };
    let (low, high) = range(figures.iter().map(|f| f.commands as f64 / f.seconds).collect());
    let (p99_low, p99_high) = range(figures.iter().map(|f| f.p99.as_secs_f64() * 1e3).collect());
    let (bytes_low, bytes_high) = range(
        figures
            .iter()
            .map(|f| f.bytes_per_command - f.checkpointed_per_command.unwrap_or(0.0))
            .collect(),
    );
    println!(
        "{backend}, {} rounds: {low:.0}–{high:.0} commands/s, p99 {p99_low:.2}–{p99_high:.2} ms, \
         {bytes_low:.0}–{bytes_high:.0} bytes of WAL per command",
        figures.len()
    );
    for (b, ratios) in baselines.iter().zip(ratios) {
        let mut sorted = ratios.clone();
        sorted.sort_by(f64::total_cmp);
        let median = if sorted.len() % 2 == 1 {
            sorted[sorted.len() / 2]
        } else {
            f64::midpoint(sorted[sorted.len() / 2 - 1], sorted[sorted.len() / 2])
        };
        println!(
            "  ratio to the baseline ({}) round by round: {:.2}–{:.2}x its tx/s, median {median:.2}x",
            b.name,
            sorted[0],
            sorted[sorted.len() - 1]
        );
    }
}
