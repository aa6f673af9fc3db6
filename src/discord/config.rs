//! The bot's settings, read from the environment (`.env` is loaded first by `main`).

use anyhow::{Context as _, Result, bail};

/// What `gogobee bot` needs to run.
#[derive(Debug, Clone)]
pub struct Config {
    /// `DISCORD_TOKEN`: the bot token (required).
    pub token: String,
    /// `DATABASE_URL`: SQLite by default, `postgres://…` alike.
    pub database_url: String,
    /// `DEV_GUILD_ID`: register the commands in this guild only (instant), else globally.
    pub dev_guild: Option<u64>,
    /// `DISCORD_API_BASE`: another Discord-compatible server for REST and the gateway lookup
    /// (a REST proxy in production, the fake Discord in tests). Unset: discord.com.
    pub api_base: Option<String>,
    /// `GOGOBEE_SEED`: the seed every random stream derives from (default: from the clock).
    pub seed: u64,
    /// `OPS_ADDR`: where `/healthz` and `/metrics` listen (e.g. `0.0.0.0:9090`); unset: off.
    pub ops_addr: Option<std::net::SocketAddr>,
}

fn var(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
}

impl Config {
    pub fn from_env() -> Result<Self> {
        let Some(token) = var("DISCORD_TOKEN") else {
            bail!(
                "DISCORD_TOKEN is not set: put the bot token from the Discord developer portal in the environment or in .env \
                 (or try the game without Discord: `gogobee play`)"
            );
        };
        let dev_guild = var("DEV_GUILD_ID")
            .map(|id| {
                id.parse::<u64>()
                    .with_context(|| format!("DEV_GUILD_ID must be a guild id (a number), not {id:?}"))
            })
            .transpose()?;
        let seed = match var("GOGOBEE_SEED") {
            Some(seed) => seed
                .parse()
                .with_context(|| format!("GOGOBEE_SEED must be a whole number, not {seed:?}"))?,
            None => u64::try_from(chrono::Utc::now().timestamp_micros()).unwrap_or_default(),
        };
        Ok(Self {
            token,
            database_url: var("DATABASE_URL").unwrap_or_else(|| service::DEFAULT_DATABASE_URL.to_owned()),
            dev_guild,
            api_base: var("DISCORD_API_BASE").map(|b| b.trim_end_matches('/').to_owned()),
            seed,
            ops_addr: var("OPS_ADDR")
                .map(|a| {
                    a.parse()
                        .with_context(|| format!("OPS_ADDR must be host:port, like 0.0.0.0:9090, not {a:?}"))
                })
                .transpose()?,
        })
    }
}
