//! The harness shared by the end-to-end suites: the real `gogobee bot` binary as a child
//! process, driven through the fake Discord on loopback.
#![allow(dead_code)] // each test binary uses its own part of the harness

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fake_discord::{Callback, ChannelId, FakeDiscord, GuildId, InteractionId, MessageId, UserId};
use serde_json::{Value, json};

pub const WAIT: Duration = Duration::from_secs(20);
/// Discord's deadline for acknowledging an interaction.
pub const DEADLINE: Duration = Duration::from_secs(3);

/// The `gogobee` binary under test: `GOGOBEE_BIN` if set (a copy taken right after the build,
/// when other checkouts share the target directory), else the one cargo built for this test.
pub fn gogobee_bin() -> PathBuf {
    std::env::var_os("GOGOBEE_BIN").map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_gogobee")), PathBuf::from)
}

/// A scratch directory for one test's database and logs.
pub fn scratch(name: &str) -> PathBuf {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "gogobee-e2e-{}-{name}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("creating a scratch directory");
    dir
}

/// The SQLite database the bot keeps in `dir`.
pub fn database_url(dir: &std::path::Path) -> String {
    format!("sqlite://{}?mode=rwc", dir.join("gogobee.db").display())
}

/// The bot as a child process; killed when dropped.
pub struct Bot {
    pub child: Child,
    pub log: PathBuf,
    /// Where its `/healthz` and `/metrics` listen.
    pub ops: String,
}

/// A loopback port nobody is listening on.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// `GET path` on the bot's operations port, as (status line, body).
pub fn ops_get(addr: &str, path: &str) -> (String, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).expect("the operations port answers");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    (head.lines().next().unwrap_or_default().to_owned(), body.to_owned())
}

impl Bot {
    /// Starts `gogobee bot` against the fake, with its database in `dir`.
    pub fn start(fake: &FakeDiscord, dir: &std::path::Path, dev_guild: Option<GuildId>) -> Bot {
        Self::start_with(fake, dir, dev_guild, &[])
    }

    /// Starts `gogobee bot` as [`Bot::start`] does, with `env` set on top (it wins).
    pub fn start_with(
        fake: &FakeDiscord,
        dir: &std::path::Path,
        dev_guild: Option<GuildId>,
        env: &[(&str, &str)],
    ) -> Bot {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        let log = dir.join(format!("bot-{}.log", stamp.as_nanos()));
        let ops = format!("127.0.0.1:{}", free_port());
        let mut command = Command::new(gogobee_bin());
        command
            .arg("bot")
            // No .env from the repository: the test says everything.
            .current_dir(dir)
            .env("DISCORD_TOKEN", fake.token())
            .env("DISCORD_API_BASE", fake.rest_url())
            .env("DATABASE_URL", database_url(dir))
            .env("GOGOBEE_SEED", "6")
            .env("OPS_ADDR", &ops)
            .env("RUST_LOG", "warn,gogobee=info")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).expect("a log file"));
        match dev_guild {
            Some(guild) => command.env("DEV_GUILD_ID", guild.to_string()),
            None => command.env_remove("DEV_GUILD_ID"),
        };
        for (key, value) in env {
            command.env(key, value);
        }
        let child = command.spawn().expect("starting gogobee bot");
        Bot { child, log, ops }
    }

    /// Sends SIGTERM and waits for a clean exit.
    pub fn terminate(mut self) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status().expect("kill");
        assert!(sent.success());
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().expect("waiting for the bot") {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the bot did not stop on SIGTERM:\n{}",
                self.logs()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn logs(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One guild channel where users play, with every callback's latency recorded.
pub struct Table {
    pub fake: Arc<FakeDiscord>,
    pub guild: GuildId,
    pub channel: ChannelId,
    pub latencies: Mutex<Vec<Duration>>,
}

impl Table {
    pub fn new(fake: &Arc<FakeDiscord>, guild: GuildId, channel: ChannelId) -> Self {
        Self {
            fake: Arc::clone(fake),
            guild,
            channel,
            latencies: Mutex::new(Vec::new()),
        }
    }

    pub fn user(&self, name: &str) -> UserId {
        self.fake.user(name)
    }

    /// Waits for an interaction's callback; it must be accepted and within Discord's deadline.
    pub async fn answered(&self, id: InteractionId) -> Callback {
        let callback = self.fake.wait_for_callback(id, WAIT).await.expect("the bot answers");
        assert!(
            callback.latency < DEADLINE,
            "acknowledged after {:?}: {callback:?}",
            callback.latency
        );
        assert_eq!(callback.status, 204, "the fake accepted the callback: {callback:?}");
        self.latencies.lock().unwrap().push(callback.latency);
        callback
    }

    /// `/name path… options` from `user`; returns the callback once the bot has gone quiet.
    pub async fn slash(&self, user: &str, name: &str, path: &[&str], options: Value) -> Callback {
        let id = self
            .fake
            .send_slash_command(self.user(user), self.guild, self.channel, name, path, &options)
            .unwrap_or_else(|e| panic!("/{name} {path:?} {options}: {e}"));
        let callback = self.answered(id).await;
        self.settle().await;
        callback
    }

    /// The names autocomplete offers `user` for `option` of `/command path…`, typing `partial`.
    pub async fn offered(&self, user: &str, command: &str, path: &[&str], option: &str, partial: &str) -> Vec<String> {
        let typing = self
            .fake
            .autocomplete(
                self.user(user),
                self.guild,
                self.channel,
                command,
                path,
                &json!({ option: partial }),
                option,
            )
            .unwrap();
        let choices = self.answered(typing).await;
        assert_eq!(choices.body["type"], 8, "{}", choices.body);
        choices.body["data"]["choices"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| c["name"].as_str().map(str::to_owned))
            .collect()
    }

    /// `alice` makes Aria, a human fighter, and the GM sets her level; the create's answer.
    pub async fn aria_the_fighter(&self, level: u32) -> Callback {
        let aria = serde_json::json!({"name": "Aria", "race": "human", "class": "fighter"});
        let created = self.slash("alice", "character", &["create"], aria).await;
        self.slash(
            "owner",
            "gm",
            &["level"],
            serde_json::json!({"player": "alice", "level": level}),
        )
        .await;
        created
    }

    pub async fn press(&self, user: &str, message: MessageId, custom_id: &str, checked: bool) -> Callback {
        let id = if checked {
            self.fake.press_button(self.user(user), message, custom_id)
        } else {
            self.fake.press_button_unchecked(self.user(user), message, custom_id)
        }
        .expect("the press is dispatched");
        let callback = self.answered(id).await;
        self.settle().await;
        callback
    }

    /// Waits until the bot has sent nothing for a moment (its follow-ups are in).
    pub async fn settle(&self) {
        let mut seen = self.fake.request_count();
        loop {
            tokio::time::sleep(Duration::from_millis(120)).await;
            let now = self.fake.request_count();
            if now == seen {
                return;
            }
            seen = now;
        }
    }

    pub fn messages(&self) -> Vec<Value> {
        self.fake.messages_in(self.channel)
    }

    /// The latest message with enabled buttons that pings `user`: its id and `(label, custom_id)` pairs.
    pub fn prompt_for(&self, user: &str) -> Option<(MessageId, Vec<(String, String)>)> {
        let mention = format!("<@{}>", self.user(user));
        self.messages().iter().rev().find_map(|m| {
            let buttons: Vec<(String, String)> = m["components"]
                .as_array()?
                .iter()
                .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
                .filter(|b| !b["disabled"].as_bool().unwrap_or(false))
                .map(|b| {
                    (
                        b["label"].as_str().unwrap_or_default().to_owned(),
                        b["custom_id"].as_str().unwrap_or_default().to_owned(),
                    )
                })
                .collect();
            (!buttons.is_empty() && m["content"].as_str().unwrap_or_default().contains(&mention))
                .then(|| (message_id(m), buttons))
        })
    }

    pub fn any_title_starts(&self, prefix: &str) -> bool {
        self.messages().iter().any(|m| {
            m["embeds"].as_array().is_some_and(|e| {
                e.iter()
                    .any(|e| e["title"].as_str().is_some_and(|t| t.starts_with(prefix)))
            })
        })
    }

    pub fn latencies(&self) -> Vec<Duration> {
        self.latencies.lock().unwrap().clone()
    }
}

pub fn message_id(message: &Value) -> MessageId {
    MessageId(
        message["id"]
            .as_str()
            .and_then(|s| s.parse().ok())
            .expect("a message id"),
    )
}

pub fn is_ephemeral(callback: &Callback) -> bool {
    callback.body["data"]["flags"].as_u64().unwrap_or(0) & 64 != 0
}

pub fn text_of(callback: &Callback) -> String {
    let data = &callback.body["data"];
    let mut text = data["content"].as_str().unwrap_or_default().to_owned();
    for embed in data["embeds"].as_array().into_iter().flatten() {
        text.push('\n');
        text.push_str(embed["title"].as_str().unwrap_or_default());
        text.push('\n');
        text.push_str(embed["description"].as_str().unwrap_or_default());
    }
    text
}

/// A refusal: private, and not an apology for an internal error.
pub fn assert_refused(callback: &Callback, says: &str) {
    let text = text_of(callback);
    assert!(is_ephemeral(callback), "a refusal is ephemeral: {}", callback.body);
    assert!(!text.contains("went wrong"), "a refusal, not an internal error: {text}");
    assert!(
        text.to_lowercase().contains(&says.to_lowercase()),
        "expected {says:?} in {text:?}"
    );
}

pub fn assert_all_valid(fake: &FakeDiscord) {
    let failures = fake.validation_errors();
    assert!(
        failures.is_empty(),
        "bodies breaking Discord's OpenAPI spec: {failures:#?}"
    );
}

pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((p / 100.0) * (sorted.len() as f64)).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Sets a short reaction timeout, spawns a hit-and-run goblin, and ends turns until it offers
/// `alice` a reaction; returns the prompt.
pub async fn fight_until_prompt(table: &Table, timeout_secs: u32) -> (MessageId, Vec<(String, String)>) {
    table
        .slash("owner", "campaign", &["timeout"], json!({"seconds": timeout_secs}))
        .await;
    // Tough enough to stand there and take a few rounds of hit-and-run.
    table.aria_the_fighter(8).await;
    table
        .slash("owner", "gm", &["spawn"], json!({"monster": "goblin"}))
        .await;
    table.slash("alice", "combat", &["start"], json!({})).await;
    next_prompt(table).await
}

pub async fn next_prompt(table: &Table) -> (MessageId, Vec<(String, String)>) {
    for _ in 0..20 {
        if let Some(prompt) = table.prompt_for("alice") {
            return prompt;
        }
        table.slash("alice", "endturn", &[], json!({})).await;
    }
    panic!("no reaction was offered: {:#?}", table.messages());
}

/// Starts a fake and the bot (commands in the default guild) and waits until it is ready.
pub async fn start(name: &str) -> (Arc<FakeDiscord>, Bot, Table, PathBuf) {
    let fake = Arc::new(FakeDiscord::start().await);
    let dir = scratch(name);
    let bot = Bot::start(&fake, &dir, Some(fake.guild()));
    let registered = fake.wait_for_commands(Some(fake.guild()), WAIT).await;
    assert!(
        registered.is_ok(),
        "the bot did not register its commands:\n{}",
        bot.logs()
    );
    let table = Table::new(&fake, fake.guild(), fake.channel());
    (fake, bot, table, dir)
}

/// Sets every campaign's turn timeout in the bot's database in `dir` to `secs` — below the
/// 30 s that `/campaign turntimeout` allows, so a test sees turns run out in moments. Takes
/// effect for fights started afterwards.
pub async fn set_turn_timeout_in_db(dir: &std::path::Path, secs: i64) {
    use sea_orm::{ConnectionTrait, DbBackend, Statement};
    let db = service::Db::connect(&database_url(dir))
        .await
        .expect("the bot's database");
    let done = db
        .conn()
        .execute_raw(Statement::from_sql_and_values(
            DbBackend::Sqlite,
            "UPDATE campaigns SET turn_timeout_secs = ?",
            [secs.into()],
        ))
        .await
        .expect("the campaigns update");
    assert!(done.rows_affected() > 0, "no campaign yet");
    db.close().await.ok();
}
