//! The bot's settings, read from the environment (`.env` is loaded first by `main`).

use anyhow::{Context as _, Result, bail};

/// What `gogobee bot` needs to run. Its `Debug` hides the token and the database password.
#[derive(Clone)]
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
    /// `GOGOBEE_CLOCK_OFFSET`: how far the game's clock runs ahead of the real time (`2h`, or
    /// seconds; default 0) — a testing aid, e.g. restart two hours on to end a recovery rest.
    pub clock_offset: chrono::TimeDelta,
    /// `SHARD_IDS` / `SHARD_COUNT`: which of Discord's shards this process runs.
    pub sharding: Sharding,
    /// `RETENTION_DAYS`: how long finished fights' logs and fired timers are kept (default
    /// 30; `0` keeps them for ever). Older finished fights keep their seed and a summary.
    pub retention_days: u32,
    /// `GATEWAY_DOWN_LIMIT`: the bot stops (exit code 1, to be restarted) once a shard's gateway
    /// connection has been down this long (`120s` by default, `0`: never).
    pub gateway_down_limit: Option<std::time::Duration>,
}

/// [`Config::gateway_down_limit`] when `GATEWAY_DOWN_LIMIT` is not set.
pub const GATEWAY_DOWN_LIMIT: std::time::Duration = std::time::Duration::from_mins(2);

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("token", &"[redacted]")
            .field("database_url", &redact_url(&self.database_url))
            .field("dev_guild", &self.dev_guild)
            .field("api_base", &self.api_base)
            .field("seed", &self.seed)
            .field("ops_addr", &self.ops_addr)
            .field("clock_offset", &self.clock_offset)
            .field("sharding", &self.sharding)
            .field("retention_days", &self.retention_days)
            .field("gateway_down_limit", &self.gateway_down_limit)
            .finish()
    }
}

/// A database URL fit for a log line or an error message: its passwords (`user:secret@host`,
/// `?password=`, found by [`crate::logging::url_passwords`]) replaced by `***`.
pub fn redact_url(url: &str) -> String {
    let mut shown = url.to_owned();
    for password in crate::logging::url_passwords(url) {
        shown = shown.replace(&password, "***");
    }
    shown
}

/// Which of Discord's shards this process runs (guild `g` is on shard `(g >> 22) % count`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sharding {
    /// `SHARD_IDS` and `SHARD_COUNT` unset: every shard, as many as Discord recommends
    /// (`GET /gateway/bot`), in this one process.
    Auto,
    /// Shards `first..=last` of `count` (the total across every process).
    Range { first: u32, last: u32, count: u32 },
}

impl Sharding {
    /// From `SHARD_IDS` (`0-3`, `2`, or a list like `4,5,6`; one contiguous run, as a process
    /// runs a range of shards) and `SHARD_COUNT` (the total across all processes). The count
    /// alone runs all of that many shards here; ids without a count are an error.
    pub fn parse(ids: Option<&str>, count: Option<&str>) -> Result<Self> {
        let Some(count) = count else {
            if let Some(ids) = ids {
                bail!(
                    "SHARD_IDS={ids} needs SHARD_COUNT, the total number of shards across all processes \
                     (e.g. SHARD_IDS=0-1 SHARD_COUNT=4 here and SHARD_IDS=2-3 SHARD_COUNT=4 on the other)"
                );
            }
            return Ok(Self::Auto);
        };
        let count: u32 = match count.parse() {
            Ok(n) if n > 0 => n,
            _ => bail!("SHARD_COUNT must be a whole number of shards, 1 or more, not {count:?}"),
        };
        let Some(given) = ids else {
            return Ok(Self::Range {
                first: 0,
                last: count - 1,
                count,
            });
        };
        let mut shards = Vec::new();
        for item in given.split(',').map(str::trim) {
            let number = |s: &str| {
                s.trim().parse::<u32>().with_context(|| {
                    format!("SHARD_IDS must be shard numbers like 0-3 or 0,1,2 (not {given:?}): {s:?} is not a number")
                })
            };
            let (from, to) = match item.split_once('-') {
                Some((from, to)) => (number(from)?, number(to)?),
                None => (number(item)?, number(item)?),
            };
            if from > to {
                bail!("SHARD_IDS: the range {item} runs backwards; write {to}-{from}");
            }
            shards.extend(from..=to);
        }
        shards.sort_unstable();
        shards.dedup();
        let (first, last) = (shards[0], shards[shards.len() - 1]);
        if last >= count {
            bail!(
                "SHARD_IDS: shard {last} does not exist with SHARD_COUNT={count} (shards are numbered 0 to {})",
                count - 1
            );
        }
        if shards.len() != (last - first + 1) as usize {
            bail!(
                "SHARD_IDS={given}: a process runs one contiguous range of shards; split the others into \
                 another process (e.g. SHARD_IDS={first}-{last} with every shard in between)"
            );
        }
        Ok(Self::Range { first, last, count })
    }

    /// The guilds this process owns, for the service (its timers).
    pub fn owned(&self) -> service::Shards {
        match *self {
            // Autosharded, one process runs every shard: it owns every guild.
            Self::Auto => service::Shards::all(),
            Self::Range { first, last, count } => {
                service::Shards::new(first..=last, count).expect("parse checked the shard ids against the count")
            }
        }
    }
}

/// A bot token's shape, checked before anything else is read or connected: three parts of
/// base64url text joined by dots (`MTA5….GhX3_a.Jk…`), after an optional `Bot `. A client
/// secret, a public key or a cut-off paste is refused at once, naming what to copy instead.
pub fn check_token(token: &str) -> Result<()> {
    let bare = token.strip_prefix("Bot ").unwrap_or(token);
    let parts: Vec<&str> = bare.split('.').collect();
    let base64url = |p: &&str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if parts.len() == 3 && parts.iter().all(base64url) {
        return Ok(());
    }
    bail!(
        "DISCORD_TOKEN does not look like a bot token ({} characters in {} part(s); a bot token is three \
         parts of letters, digits, - and _ joined by dots): copy it from the Discord developer portal's \
         Bot page (Reset Token), not the application's client secret or public key",
        bare.chars().count(),
        parts.len()
    )
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
        check_token(&token)?;
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
            clock_offset: var("GOGOBEE_CLOCK_OFFSET")
                .map(|o| {
                    crate::clock::parse_offset(&o)
                        .with_context(|| format!("GOGOBEE_CLOCK_OFFSET must be a duration like 2h or 7200, not {o:?}"))
                })
                .transpose()?
                .unwrap_or_default(),
            sharding: Sharding::parse(var("SHARD_IDS").as_deref(), var("SHARD_COUNT").as_deref())?,
            retention_days: var("RETENTION_DAYS")
                .map(|d| {
                    d.trim().parse::<u32>().ok().filter(|d| *d <= 36_500).with_context(|| {
                        format!("RETENTION_DAYS must be a number of days (0 to keep everything), not {d:?}")
                    })
                })
                .transpose()?
                .unwrap_or(service::cmd::retention::DEFAULT_RETENTION_DAYS),
            gateway_down_limit: match var("GATEWAY_DOWN_LIMIT") {
                None => Some(GATEWAY_DOWN_LIMIT),
                Some(limit) => {
                    let limit = crate::clock::parse_offset(&limit)
                        .ok()
                        .and_then(|d| d.to_std().ok())
                        .with_context(|| {
                            format!("GATEWAY_DOWN_LIMIT must be a duration like 2m or 120 (0: never), not {limit:?}")
                        })?;
                    (!limit.is_zero()).then_some(limit)
                }
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{Sharding, check_token, redact_url};

    #[test]
    fn a_token_is_checked_for_a_bot_tokens_shape() {
        for good in [
            "MTA5ODc2NTQzMjEwOTg3NjU0Mw.GhX3_a.Jk-9abcdefghijklmnopqrstuvwxyzABCD",
            "Bot MTA5ODc2NTQzMjEwOTg3NjU0Mw.GhX3_a.Jk-9abcdefghijklmnopqrstuvwxyz",
            "ZmFrZS1nb2dvYmVl.fake-discord.token",
        ] {
            assert!(check_token(good).is_ok(), "{good}");
        }
        for bad in [
            "not-a-real-token",
            "x7Qk2mN9pL4vR8sT1wY6zA3bC5dE0fGh",
            "MTA5ODc2NTQzMjEwOTg3NjU0Mw.GhX3_a",
            "MTA5.GhX3 a.Jk",
            "MTA5..Jk",
        ] {
            let e = check_token(bad).unwrap_err().to_string();
            assert!(e.contains("does not look like a bot token"), "{bad}: {e}");
            assert!(!e.contains(bad), "the token itself is never printed: {e}");
        }
    }

    fn range(first: u32, last: u32, count: u32) -> Sharding {
        Sharding::Range { first, last, count }
    }

    #[test]
    fn shard_ids_and_count_name_a_range_of_shards() {
        assert_eq!(Sharding::parse(None, None).unwrap(), Sharding::Auto);
        assert_eq!(Sharding::parse(Some("0-3"), Some("8")).unwrap(), range(0, 3, 8));
        assert_eq!(Sharding::parse(Some("5"), Some("8")).unwrap(), range(5, 5, 8));
        assert_eq!(Sharding::parse(Some("6, 4,5"), Some("8")).unwrap(), range(4, 6, 8));
        assert_eq!(Sharding::parse(Some("0-1,2"), Some("3")).unwrap(), range(0, 2, 3));
        assert_eq!(Sharding::parse(None, Some("2")).unwrap(), range(0, 1, 2));
        let owned = range(1, 1, 2).owned();
        assert_eq!((owned.ids(), owned.count()), (&[1][..], 2));
        assert!(Sharding::Auto.owned().owns_all());
    }

    #[test]
    fn bad_shard_settings_say_what_is_wrong() {
        let error = |ids: Option<&str>, count: Option<&str>| Sharding::parse(ids, count).unwrap_err().to_string();
        assert!(error(Some("0"), None).contains("needs SHARD_COUNT"));
        assert!(error(Some("0"), Some("0")).contains("1 or more"));
        assert!(error(Some("0"), Some("two")).contains("1 or more"));
        assert!(error(Some("2"), Some("2")).contains("shard 2 does not exist"));
        assert!(error(Some("3-1"), Some("4")).contains("backwards"));
        assert!(error(Some("0,2"), Some("4")).contains("contiguous"));
        assert!(error(Some("zero"), Some("4")).contains("not a number"));
        assert!(error(Some("1,"), Some("4")).contains("not a number"));
    }

    #[test]
    fn passwords_are_hidden_from_database_urls() {
        assert_eq!(
            redact_url("postgres://gogobee:s3cret@db.internal:5432/gogobee?sslmode=require"),
            "postgres://gogobee:***@db.internal:5432/gogobee?sslmode=require"
        );
        assert_eq!(
            redact_url("postgres://postgres@127.0.0.1/x"),
            "postgres://postgres@127.0.0.1/x"
        );
        assert_eq!(
            redact_url("sqlite:///data/gogobee.db?mode=rwc"),
            "sqlite:///data/gogobee.db?mode=rwc"
        );
        assert_eq!(redact_url("sqlite::memory:"), "sqlite::memory:");
        assert_eq!(
            redact_url("postgres://gogobee@db/x?sslmode=require&password=canary-pw"),
            "postgres://gogobee@db/x?sslmode=require&password=***"
        );
        // Typos that leave no `://`, and a password with escapes.
        for typo in [
            "postgres//gogobee:s3cret@db/x",
            "postgres:gogobee:s3cret@db/x",
            "postgres:/gogobee:s3cret@db",
        ] {
            let shown = redact_url(typo);
            assert!(!shown.contains("s3cret") && shown.contains("***"), "{typo}: {shown}");
        }
        assert_eq!(redact_url("postgres://u:p%40ss%3Aword@db/x"), "postgres://u:***@db/x");
    }
}
