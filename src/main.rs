//! The `gogobee` binary: parses the command line and hands over to the part that runs it.

mod app;
mod bench;
mod clock;
mod discord;
mod logging;
mod ops;
mod replay;
mod script;
mod sim;
mod table;

use anyhow::Result;
use clap::{Parser, Subcommand};

/// GogoBee: tactical tabletop combat for Discord, with persistent campaigns.
#[derive(Debug, Parser)]
#[command(name = "gogobee", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Mode>,
}

/// Every variable `gogobee bot` reads, for `gogobee bot --help`.
const BOT_ENV: &str = "Environment (or .env):
  DISCORD_TOKEN         the bot token (required)
  DATABASE_URL          sqlite://FILE?mode=rwc (default sqlite://gogobee.db?mode=rwc) or postgres://...
  DEV_GUILD_ID          register the commands in this guild only (instant), else globally
  DISCORD_API_BASE      another Discord-compatible server (a REST proxy; the fake Discord in tests)
  OPS_ADDR              where /healthz and /metrics listen, e.g. 0.0.0.0:9090 (unset: off)
  SHARD_IDS             the shards this process runs: 3, or a range 0-3 (unset: all, autosharded)
  SHARD_COUNT           the total number of shards (needed with SHARD_IDS)
  RUST_LOG              log filter (default info), e.g. warn,gogobee=debug
  LOG_FORMAT            json for JSON lines (default: text)
  GOGOBEE_SEED          the seed every random stream derives from (default: from the clock)
  RETENTION_DAYS        days finished fights keep their logs (default 30; 0 keeps them for ever)
  GOGOBEE_CLOCK_OFFSET  run the game's clock ahead (2h, or seconds), for testing
  GATEWAY_DOWN_LIMIT    stop (exit 1, to be restarted) when a shard's gateway is down this long (default 2m; 0: never)";

#[derive(Debug, Subcommand)]
enum Mode {
    /// Run the Discord bot (the default), configured from the environment or `.env`.
    #[command(after_help = format!("{BOT_ENV}\n\n{}", discord::invite::help()))]
    Bot,
    /// Play at a terminal table: the same game, no Discord needed.
    Play {
        /// Replay a scripted session instead of reading from the keyboard.
        #[arg(long)]
        script: Option<String>,
        /// Print each message as the JSON payload Discord would get, one per line.
        #[arg(long)]
        json: bool,
        /// Database URL (default: `DATABASE_URL`, else a `gogobee.db` SQLite file; a script
        /// without `--db` runs in memory, so it gives the same output every time).
        #[arg(long)]
        db: Option<String>,
        /// Seed for every random stream: the same seed and the same commands give the same game
        /// (default: 1 for a script; a fresh one, printed, for each interactive session).
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Copy the SQLite database to FILE while the bot runs (an online backup, `VACUUM INTO`).
    /// Restore: stop the bot, put the copy where `DATABASE_URL` points, start it. For
    /// PostgreSQL use `pg_dump` / `pg_restore`.
    Backup {
        /// The new file to write (it must not exist yet).
        #[arg(long, value_name = "FILE")]
        to: std::path::PathBuf,
        /// Database URL (default: `DATABASE_URL`, else the `gogobee.db` SQLite file).
        #[arg(long)]
        db: Option<String>,
    },
    /// Re-run stored fights from their seed, starting state and commands; report for each
    /// whether its events come out identical, or the first that differs (exit 1 if any does).
    Replay {
        /// Database URL (default: `DATABASE_URL`, else the `gogobee.db` SQLite file).
        #[arg(long)]
        db: Option<String>,
        /// The fight's number (its summary and every status embed show it).
        #[arg(long, conflicts_with = "all")]
        combat: Option<i64>,
        /// Every stored fight.
        #[arg(long)]
        all: bool,
    },
    /// Load test: persisted combat commands per second through the service.
    Bench(bench::BenchArgs),
    /// Monte Carlo simulations over the rules engine.
    Sim {
        #[command(subcommand)]
        sim: sim::Sim,
    },
}

fn main() -> std::process::ExitCode {
    let _ = dotenvy::dotenv();
    let cli = Cli::parse();
    // The bot reports at info (`fly logs` shows "ready"); a tool run at a terminal only warns.
    logging::init(if matches!(cli.command, None | Some(Mode::Bot)) {
        "info"
    } else {
        "warn"
    });
    match run(cli) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {}", logging::redacted(&chain(&error)));
            std::process::ExitCode::FAILURE
        }
    }
}

/// A session seed from the clock and the process id: small, so it is easy to type again.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    (nanos ^ u64::from(std::process::id()).rotate_left(17)) % 100_000
}

/// An error and its causes, `: `-separated, each said once: a cause whose text its wrapper
/// already shows ("Error while sending HTTP request.: Error while sending HTTP request.") is
/// left out.
fn chain(error: &anyhow::Error) -> String {
    let mut said: Vec<String> = Vec::new();
    for cause in error.chain() {
        let text = cause.to_string();
        if !said.iter().any(|s| s.contains(&text)) {
            said.push(text);
        }
    }
    said.join(": ")
}

fn run(cli: Cli) -> Result<()> {
    match cli.command.unwrap_or(Mode::Bot) {
        Mode::Bot => {
            let config = discord::Config::from_env()?;
            let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
            runtime.block_on(discord::run(config))
        }
        Mode::Play { script, json, db, seed } => {
            if let Some(db) = &db {
                logging::add_database_url(db);
            }
            let scripted = script.is_some();
            let db = db
                .or_else(|| std::env::var("DATABASE_URL").ok().filter(|_| !scripted))
                .unwrap_or_else(|| {
                    if scripted {
                        "sqlite::memory:".to_owned()
                    } else {
                        service::DEFAULT_DATABASE_URL.to_owned()
                    }
                });
            let output = if json { table::Output::Json } else { table::Output::Text };
            let (seed, note) = match seed {
                Some(seed) => (seed, None),
                None if scripted => (1, None),
                None => {
                    let seed = fresh_seed();
                    (
                        seed,
                        Some(format!("seed {seed} — `gogobee play --seed {seed}` replays these dice")),
                    )
                }
            };
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            runtime.block_on(async {
                let mut table = table::Table::open(&db, seed, output, scripted).await?;
                match script {
                    Some(path) => table::run_script(&mut table, &path, &mut std::io::stdout().lock()).await,
                    None => table::run_interactive(&mut table, note).await,
                }
            })
        }
        Mode::Replay { db, combat, all } => {
            let db = db
                .or_else(|| std::env::var("DATABASE_URL").ok())
                .unwrap_or_else(|| service::DEFAULT_DATABASE_URL.to_owned());
            logging::add_database_url(&db);
            replay::run(&db, combat, all, &mut std::io::stdout().lock())
        }
        Mode::Bench(args) => {
            for db in &args.db {
                logging::add_database_url(db);
            }
            bench::run(&args)
        }
        Mode::Sim { sim } => sim::run(&sim),
        Mode::Backup { to, db } => {
            let db = db
                .or_else(|| std::env::var("DATABASE_URL").ok())
                .unwrap_or_else(|| service::DEFAULT_DATABASE_URL.to_owned());
            logging::add_database_url(&db);
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            runtime.block_on(async {
                if db.starts_with("sqlite:") {
                    // Read-only: a path with no database is refused, never created.
                    service::backup_sqlite(&db, &to).await?;
                } else {
                    let db = service::Db::connect(&db).await?;
                    db.backup_to(&to).await?;
                    db.close().await?;
                }
                println!("backed up to {}", to.display());
                Ok(())
            })
        }
    }
}
