//! Scale-out, end to end: two `gogobee bot` processes on ONE PostgreSQL database, behind a fake
//! Discord with two shards — `SHARD_IDS=0 SHARD_COUNT=2` and `SHARD_IDS=1 SHARD_COUNT=2` — and
//! a guild on each shard with a fight in it. Both start together on a fresh database (the
//! migration lock lets one migrate). The shard-0 process is restarted while its fight waits
//! on a reaction window: the window falls due while it is down and the other process leaves
//! it alone; the restarted process fires it and the fight goes on. Nothing is lost (every
//! due timer fires, the event logs are gap-free) and nothing is doubled (each timeout is
//! logged once; each process answered and posted only for its own guild). No log line
//! carries the bot token.

mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use fake_discord::{ChannelId, Config, FakeDiscord, MessageId};
use sea_orm::{ConnectionTrait, Database, DatabaseConnection, DbBackend, Statement};
use serde_json::{Value, json};
use support::*;

/// The reaction timeout set in both guilds.
const TIMEOUT_SECS: u64 = 2;

/// A fresh PostgreSQL database, dropped at the end (even when the test fails).
struct Postgres {
    admin_url: String,
    name: String,
    url: String,
}

impl Postgres {
    async fn fresh() -> Self {
        let admin_url = std::env::var("GOGOBEE_TEST_PG_URL")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned());
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .subsec_nanos();
        let name = format!("gogobee_scale_out_{}_{stamp}", std::process::id());
        let admin = Database::connect(admin_url.as_str()).await.unwrap_or_else(|err| {
            panic!("PostgreSQL is not reachable at {admin_url} ({err}); start it (see scripts/test) or set GOGOBEE_TEST_PG_URL")
        });
        admin
            .execute_unprepared(&format!(r#"CREATE DATABASE "{name}""#))
            .await
            .expect("create the test database");
        admin.close().await.expect("close the admin connection");
        let base = admin_url.rsplit_once('/').map_or(admin_url.as_str(), |(base, _)| base);
        let url = format!("{base}/{name}");
        Self { admin_url, name, url }
    }

    async fn connect(&self) -> DatabaseConnection {
        Database::connect(self.url.as_str())
            .await
            .expect("connect to the test database")
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let (admin_url, name) = (self.admin_url.clone(), self.name.clone());
        // Drop runs inside the test's runtime: drop the database from a runtime of its own.
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            runtime.block_on(async {
                let admin = Database::connect(admin_url.as_str())
                    .await
                    .map_err(std::io::Error::other)?;
                admin
                    .execute_unprepared(&format!(r#"DROP DATABASE IF EXISTS "{name}" WITH (FORCE)"#))
                    .await
                    .map_err(std::io::Error::other)?;
                admin.close().await.map_err(std::io::Error::other)
            })
        })
        .join();
        if !matches!(dropped, Ok(Ok(()))) {
            eprintln!("could not drop the test database {}: {dropped:?}", self.name);
        }
    }
}

/// Starts the bot that runs shard `shard` of 2 on the shared database.
fn start_shard(fake: &FakeDiscord, dir: &std::path::Path, pg: &Postgres, shard: &str) -> Bot {
    Bot::start_with(
        fake,
        dir,
        None,
        &[
            ("DATABASE_URL", pg.url.as_str()),
            ("SHARD_IDS", shard),
            ("SHARD_COUNT", "2"),
            ("LOG_FORMAT", "json"),
            // Verbose, so the token check below reads everything a dependency might log.
            (
                "RUST_LOG",
                "debug,h2=info,hyper=info,hyper_util=info,rustls=info,tungstenite=info,sqlx=info",
            ),
        ],
    )
}

/// Waits until the bot's `/healthz` says it is connected (its commands' setup is done).
async fn healthy(bot: &Bot) {
    let deadline = Instant::now() + WAIT;
    loop {
        if std::net::TcpStream::connect(&bot.ops).is_ok() && ops_get(&bot.ops, "/healthz").0.contains("200") {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the bot never became healthy:\n{}",
            bot.logs()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A guild's table, remembering every interaction sent there (to check which shard got it).
struct Guild {
    table: Table,
    sent: std::sync::Mutex<Vec<fake_discord::InteractionId>>,
}

impl Guild {
    async fn slash(&self, user: &str, name: &str, path: &[&str], options: Value) -> fake_discord::Callback {
        let callback = self.table.slash(user, name, path, options).await;
        self.sent.lock().unwrap().push(callback.interaction);
        callback
    }

    /// A character, a goblin and a short reaction timeout; then turns pass until the goblin's
    /// hit-and-run offers `alice` a reaction. Returns the prompt's message. The turn timer is
    /// off: the reaction windows are then the only deadlines, so the test can wait until every
    /// one offered has timed out.
    async fn fight_until_prompt(&self) -> MessageId {
        self.slash("owner", "campaign", &["timeout"], json!({"seconds": TIMEOUT_SECS}))
            .await;
        self.slash("owner", "campaign", &["turntimeout"], json!({"seconds": 0}))
            .await;
        self.slash(
            "alice",
            "character",
            &["create"],
            json!({"name": "Aria", "race": "human", "class": "fighter"}),
        )
        .await;
        self.slash("owner", "gm", &["level"], json!({"player": "alice", "level": 8}))
            .await;
        self.slash("owner", "gm", &["spawn"], json!({"monster": "goblin"}))
            .await;
        self.slash("alice", "combat", &["start"], json!({})).await;
        self.next_prompt(None).await
    }

    /// Ends turns until a reaction is offered to `alice` in a prompt other than `seen` (one
    /// whose buttons a restart left behind).
    async fn next_prompt(&self, seen: Option<MessageId>) -> MessageId {
        for _ in 0..20 {
            if let Some((message, _)) = self.table.prompt_for("alice")
                && Some(message) != seen
            {
                return message;
            }
            self.slash("alice", "endturn", &[], json!({})).await;
        }
        panic!("no reaction was offered: {:#?}", self.table.messages());
    }

    fn prompt_open(&self, message: MessageId) -> bool {
        self.table.fake.message(message).expect("the prompt")["components"] != json!([])
    }

    async fn until_closed(&self, message: MessageId, what: &str) {
        let deadline = Instant::now() + WAIT;
        while self.prompt_open(message) {
            assert!(Instant::now() < deadline, "{what}: the window never timed out");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        self.table.settle().await;
    }
}

/// One row of a combat's event log: the guild, the combat, its version, the row's seq,
/// whether the row is a reaction window's timeout (the Director passing), and how many
/// reaction windows its events opened.
struct LogRow {
    guild: String,
    combat: i64,
    version: i64,
    seq: i64,
    timeout: bool,
    offered: usize,
}

async fn event_logs(db: &DatabaseConnection) -> Vec<LogRow> {
    let rows = db
        .query_all_raw(Statement::from_string(
            DbBackend::Postgres,
            "SELECT ca.guild_id, c.id, GREATEST(c.version, (SELECT max(x.seq) FROM combat_events x WHERE x.combat_id = c.id)), e.seq, e.command, e.events, e.packed FROM combat_events e \
             JOIN combats c ON c.id = e.combat_id JOIN campaigns ca ON ca.id = c.campaign_id \
             ORDER BY c.id, e.seq",
        ))
        .await
        .expect("the event logs");
    rows.iter()
        .map(|r| {
            let entry = service::entity::combat_event::Model {
                combat_id: r.try_get_by_index(1).expect("combat"),
                seq: r.try_get_by_index(3).expect("seq"),
                command: r.try_get_by_index(4).expect("command"),
                events: r.try_get_by_index(5).expect("events"),
                created_at: chrono::Utc::now(),
                reaction_timer_id: None,
                turn_timer_id: None,
                packed: r.try_get_by_index(6).expect("packed"),
            };
            let command = entry.command_json().expect("a command");
            let events = entry.stored_events().expect("an event list");
            LogRow {
                guild: r.try_get_by_index(0).expect("guild"),
                combat: r.try_get_by_index(1).expect("combat"),
                version: r.try_get_by_index(2).expect("version"),
                seq: r.try_get_by_index(3).expect("seq"),
                timeout: command == json!({"Engine": {"actor": "Director", "command": "Pass"}}),
                offered: events.iter().filter(|e| e.get("ReactionOffered").is_some()).count(),
            }
        })
        .collect()
}

/// How many reaction windows in `guild`'s fights have timed out (Director passes logged).
async fn timeouts_of(db: &DatabaseConnection, guild: fake_discord::GuildId) -> usize {
    event_logs(db)
        .await
        .iter()
        .filter(|r| r.guild == guild.to_string() && r.timeout)
        .count()
}

/// Timers not fired yet (a fight's timer stays pending while it runs; a rest is marked fired).
async fn pending_timers(db: &DatabaseConnection) -> i64 {
    db.query_one_raw(Statement::from_string(
        DbBackend::Postgres,
        "SELECT count(*) FROM timers WHERE fired_at IS NULL",
    ))
    .await
    .expect("the timers")
    .expect("a row")
    .try_get_by_index(0)
    .expect("a count")
}

/// The log lines of a JSON log that mention `needle`.
fn mentions(logs: &str, needle: &str) -> usize {
    logs.lines().filter(|l| l.contains(needle)).count()
}

#[allow(
    clippy::too_many_lines,
    reason = "two processes, a kill and a restart, checked in the order they happen"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_share_one_postgres_and_a_restart_loses_and_doubles_nothing() {
    let pg = Postgres::fresh().await;
    let fake = Arc::new(
        FakeDiscord::start_with(Config {
            shards: 2,
            ..Config::default()
        })
        .await
        .expect("the fake Discord"),
    );
    let owner = fake.user("owner");
    let (g0, c0) = fake.add_guild_on_shard("Shard Zero", owner, 0);
    let (g1, c1) = fake.add_guild_on_shard("Shard One", owner, 1);
    let (dir0, dir1) = (scratch("scale-out-0"), scratch("scale-out-1"));
    // Both at once, on a database nobody has migrated yet.
    let first = start_shard(&fake, &dir0, &pg, "0");
    let second = start_shard(&fake, &dir1, &pg, "1");
    assert_eq!(fake.wait_for_shard(0, WAIT).await, Ok([0, 2]), "{}", first.logs());
    assert_eq!(fake.wait_for_shard(1, WAIT).await, Ok([1, 2]), "{}", second.logs());
    fake.wait_for_commands(None, WAIT)
        .await
        .expect("commands registered globally");
    healthy(&first).await;
    healthy(&second).await;

    let zero = Guild {
        table: Table::new(&fake, g0, c0),
        sent: std::sync::Mutex::new(Vec::new()),
    };
    let one = Guild {
        table: Table::new(&fake, g1, c1),
        sent: std::sync::Mutex::new(Vec::new()),
    };
    // Both fights up to a reaction prompt, side by side.
    let (prompt0, prompt1) = tokio::join!(zero.fight_until_prompt(), one.fight_until_prompt());

    // Shard 0's process stops while its window is open; the window falls due meanwhile.
    let status = first.terminate();
    assert!(status.success(), "SIGTERM is a clean shutdown: {status:?}");
    let down_at = Instant::now();
    // Shard 1's window times out on its own process...
    one.until_closed(prompt1, "shard 1").await;
    // ...and shard 0's, overdue, is left alone: no other process touches shard 0's guild.
    let db = pg.connect().await;
    let overdue = Duration::from_secs(TIMEOUT_SECS) + Duration::from_millis(1500);
    tokio::time::sleep(overdue.saturating_sub(down_at.elapsed())).await;
    let posted_while_down = zero.table.messages().len();
    assert_eq!(
        timeouts_of(&db, g0).await,
        0,
        "the other shard's process fired shard 0's timer:\n{}",
        second.logs()
    );
    assert!(zero.prompt_open(prompt0), "nothing was posted for shard 0's window");
    assert!(timeouts_of(&db, g1).await >= 1, "shard 1's window timed out meanwhile");

    // Shard 0 comes back: it fires the overdue timeout at once, and the fight goes on.
    let first_again = start_shard(&fake, &dir0, &pg, "0");
    let deadline = Instant::now() + WAIT;
    while fake.sessions_for_shard(0) < 2 {
        assert!(
            Instant::now() < deadline,
            "shard 0 never came back:\n{}",
            first_again.logs()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    fake.wait_for_shard(0, WAIT).await.expect("shard 0 is connected again");
    healthy(&first_again).await;
    let deadline = Instant::now() + WAIT;
    while timeouts_of(&db, g0).await == 0 {
        assert!(
            Instant::now() < deadline,
            "the restarted process never fired the overdue timeout:\n{}",
            first_again.logs()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    zero.table.settle().await;
    assert!(
        zero.table.messages().len() > posted_while_down,
        "the timeout was narrated after the restart"
    );
    let status = zero.slash("carol", "combat", &["status"], json!({})).await;
    assert!(
        !is_ephemeral(&status) && status.body.to_string().contains("**Aria**"),
        "the fight survived the restart: {}",
        status.body
    );
    zero.next_prompt(Some(prompt0)).await;
    one.next_prompt(Some(prompt1)).await;

    // Every interaction went to, and was answered by, the shard owning its guild.
    for (guild, shard) in [(&zero, 0), (&one, 1)] {
        let sent = guild.sent.lock().unwrap().clone();
        assert!(!sent.is_empty());
        for interaction in sent {
            assert_eq!(fake.interaction_shard(interaction), Some([shard, 2]), "shard {shard}");
        }
    }

    // Nothing lost: every window the fights are waiting on times out on its owner, by the
    // fight's one timer (armed again while the fight runs, so never all fired).
    let deadline = Instant::now() + WAIT;
    loop {
        let logs = event_logs(&db).await;
        let waiting = [g0, g1].into_iter().any(|guild| {
            let rows = logs.iter().filter(|r| r.guild == guild.to_string());
            let (offered, timeouts) = rows.fold((0, 0), |(o, t), r| (o + r.offered, t + usize::from(r.timeout)));
            offered != timeouts
        });
        if !waiting {
            break;
        }
        assert!(Instant::now() < deadline, "a window never timed out");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(pending_timers(&db).await <= 2, "a timer a fight at most");
    zero.table.settle().await;
    one.table.settle().await;

    // Nothing doubled: one combat per guild, its log gap-free up to the combat's version, and
    // every reaction window offered (nobody pressed a button) closed by exactly one timeout.
    let logs = event_logs(&db).await;
    for (guild, name) in [(g0, "shard 0"), (g1, "shard 1")] {
        let rows: Vec<&LogRow> = logs.iter().filter(|r| r.guild == guild.to_string()).collect();
        assert!(!rows.is_empty(), "{name}: no event log");
        assert!(rows.iter().all(|r| r.combat == rows[0].combat), "{name}: one combat");
        let seqs: Vec<i64> = rows.iter().map(|r| r.seq).collect();
        assert_eq!(
            seqs,
            (1..=rows[0].version).collect::<Vec<_>>(),
            "{name}: a gap-free log"
        );
        let offered: usize = rows.iter().map(|r| r.offered).sum();
        let timeouts = rows.iter().filter(|r| r.timeout).count();
        let summary: Vec<String> = rows
            .iter()
            .map(|r| format!("v{} offered {} timeout {}", r.seq, r.offered, r.timeout))
            .collect();
        assert!(offered >= 2, "{name}: two windows at least: {summary:#?}");
        assert_eq!(
            timeouts, offered,
            "{name}: each window timed out exactly once: {summary:#?}"
        );
    }

    // Each process answered, logged and posted only for its own guild; no token anywhere.
    let (zero_log, zero_log_restarted, one_log) = (all_logs(&dir0), first_again.logs(), second.logs());
    let timer_posts = |logs: &str, channel: ChannelId| {
        logs.lines()
            .filter(|l| l.contains("posting what timers did") && l.contains(&format!("\"{channel}\"")))
            .count()
    };
    assert!(
        timer_posts(&zero_log_restarted, c0) >= 1,
        "the restarted process posted the overdue timeout:\n{zero_log_restarted}"
    );
    assert!(
        timer_posts(&one_log, c1) >= 1,
        "shard 1 posted its timeouts:\n{one_log}"
    );
    for (logs, mine, theirs, name) in [
        (&zero_log, g0, (g1, c1), "shard 0"),
        (&one_log, g1, (g0, c0), "shard 1"),
    ] {
        assert!(
            mentions(logs, &format!("\"guild\":\"{mine}\"")) > 0,
            "{name}: one span per interaction, with its guild"
        );
        assert!(mentions(logs, "\"latency_ms\"") > 0, "{name}: the spans record latency");
        assert_eq!(
            mentions(logs, &theirs.0.to_string()),
            0,
            "{name} touched the other guild"
        );
        assert_eq!(
            mentions(logs, &theirs.1.to_string()),
            0,
            "{name} touched the other channel"
        );
        assert!(!logs.contains(fake.token()), "{name}: the bot token was logged");
    }
    assert_all_valid(&fake);
}

/// Every log file a process wrote in `dir` (before and after a restart), concatenated.
fn all_logs(dir: &std::path::Path) -> String {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("the scratch directory")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "log"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}
