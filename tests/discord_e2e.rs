//! End to end: the real `gogobee bot` binary (serenity + poise) against the fake Discord on
//! loopback. Every interaction's callback is checked against Discord's 3-second deadline, and
//! every body the bot sends against Discord's OpenAPI spec.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fake_discord::{Callback, ChannelId, FakeDiscord, GuildId, InteractionId, MessageId, UserId};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(20);
/// Discord's deadline for acknowledging an interaction.
const DEADLINE: Duration = Duration::from_secs(3);

/// A scratch directory for one test's database and logs.
fn scratch(name: &str) -> PathBuf {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "gogobee-e2e-{}-{name}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("creating a scratch directory");
    dir
}

/// The bot as a child process; killed when dropped.
struct Bot {
    child: Child,
    log: PathBuf,
    /// Where its `/healthz` and `/metrics` listen.
    ops: String,
}

/// A loopback port nobody is listening on.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// `GET path` on the bot's operations port, as (status line, body).
fn ops_get(addr: &str, path: &str) -> (String, String) {
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
    fn start(fake: &FakeDiscord, dir: &std::path::Path, dev_guild: Option<GuildId>) -> Bot {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        let log = dir.join(format!("bot-{}.log", stamp.as_nanos()));
        let ops = format!("127.0.0.1:{}", free_port());
        let mut command = Command::new(env!("CARGO_BIN_EXE_gogobee"));
        command
            .arg("bot")
            // No .env from the repository: the test says everything.
            .current_dir(dir)
            .env("DISCORD_TOKEN", fake.token())
            .env("DISCORD_API_BASE", fake.rest_url())
            .env(
                "DATABASE_URL",
                format!("sqlite://{}?mode=rwc", dir.join("gogobee.db").display()),
            )
            .env("GOGOBEE_SEED", "6")
            .env("OPS_ADDR", &ops)
            .env("RUST_LOG", "warn,gogobee=info")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).expect("a log file"));
        match dev_guild {
            Some(guild) => command.env("DEV_GUILD_ID", guild.to_string()),
            None => command.env_remove("DEV_GUILD_ID"),
        };
        let child = command.spawn().expect("starting gogobee bot");
        Bot { child, log, ops }
    }

    /// Sends SIGTERM and waits for a clean exit.
    fn terminate(mut self) -> std::process::ExitStatus {
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

    fn logs(&self) -> String {
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
struct Table {
    fake: Arc<FakeDiscord>,
    guild: GuildId,
    channel: ChannelId,
    latencies: Mutex<Vec<Duration>>,
}

impl Table {
    fn new(fake: &Arc<FakeDiscord>, guild: GuildId, channel: ChannelId) -> Self {
        Self {
            fake: Arc::clone(fake),
            guild,
            channel,
            latencies: Mutex::new(Vec::new()),
        }
    }

    fn user(&self, name: &str) -> UserId {
        self.fake.user(name)
    }

    /// Waits for an interaction's callback; it must be accepted and within Discord's deadline.
    async fn answered(&self, id: InteractionId) -> Callback {
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
    async fn slash(&self, user: &str, name: &str, path: &[&str], options: Value) -> Callback {
        let id = self
            .fake
            .send_slash_command(self.user(user), self.guild, self.channel, name, path, &options)
            .unwrap_or_else(|e| panic!("/{name} {path:?} {options}: {e}"));
        let callback = self.answered(id).await;
        self.settle().await;
        callback
    }

    async fn press(&self, user: &str, message: MessageId, custom_id: &str, checked: bool) -> Callback {
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
    async fn settle(&self) {
        let mut seen = self.fake.requests().len();
        loop {
            tokio::time::sleep(Duration::from_millis(120)).await;
            let now = self.fake.requests().len();
            if now == seen {
                return;
            }
            seen = now;
        }
    }

    fn messages(&self) -> Vec<Value> {
        self.fake.messages_in(self.channel)
    }

    /// The latest message with enabled buttons that pings `user`: its id and `(label, custom_id)` pairs.
    fn prompt_for(&self, user: &str) -> Option<(MessageId, Vec<(String, String)>)> {
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

    fn any_title_starts(&self, prefix: &str) -> bool {
        self.messages().iter().any(|m| {
            m["embeds"].as_array().is_some_and(|e| {
                e.iter()
                    .any(|e| e["title"].as_str().is_some_and(|t| t.starts_with(prefix)))
            })
        })
    }

    fn latencies(&self) -> Vec<Duration> {
        self.latencies.lock().unwrap().clone()
    }
}

fn message_id(message: &Value) -> MessageId {
    MessageId(
        message["id"]
            .as_str()
            .and_then(|s| s.parse().ok())
            .expect("a message id"),
    )
}

fn is_ephemeral(callback: &Callback) -> bool {
    callback.body["data"]["flags"].as_u64().unwrap_or(0) & 64 != 0
}

fn text_of(callback: &Callback) -> String {
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
fn assert_refused(callback: &Callback, says: &str) {
    let text = text_of(callback);
    assert!(is_ephemeral(callback), "a refusal is ephemeral: {}", callback.body);
    assert!(!text.contains("went wrong"), "a refusal, not an internal error: {text}");
    assert!(
        text.to_lowercase().contains(&says.to_lowercase()),
        "expected {says:?} in {text:?}"
    );
}

fn assert_all_valid(fake: &FakeDiscord) {
    if let Some(why) = fake.validation_skipped() {
        eprintln!("!!! Discord's OpenAPI spec is missing ({why}): request bodies were NOT validated !!!");
    }
    let failures = fake.validation_errors();
    assert!(
        failures.is_empty(),
        "bodies breaking Discord's OpenAPI spec: {failures:#?}"
    );
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((p / 100.0) * (sorted.len() as f64)).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Starts a fake and the bot (commands in the default guild) and waits until it is ready.
async fn start(name: &str) -> (Arc<FakeDiscord>, Bot, Table, PathBuf) {
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_command_is_registered_with_a_valid_body() {
    let (fake, bot, table, _dir) = start("register").await;
    let commands = fake.commands(Some(fake.guild()));
    let mut names: Vec<&str> = commands.iter().filter_map(|c| c["name"].as_str()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "attack",
            "bonus",
            "campaign",
            "cast",
            "character",
            "combat",
            "dash",
            "delay",
            "disengage",
            "dodge",
            "endturn",
            "expedition",
            "gm",
            "grapple",
            "help",
            "hide",
            "hospital",
            "instant",
            "move",
            "ready",
            "roll",
            "search",
            "shove",
            "stabilize",
            "use"
        ]
    );
    assert!(
        fake.commands(None).is_empty(),
        "DEV_GUILD_ID: nothing registered globally"
    );
    // Operations: healthy once connected; metrics in Prometheus text.
    // Healthy soon after the commands are registered (the gateway flag is set as setup ends).
    let mut health = ops_get(&bot.ops, "/healthz");
    for _ in 0..50 {
        if health.0.contains("200") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        health = ops_get(&bot.ops, "/healthz");
    }
    let (status, body) = health;
    assert!(status.contains("200"), "{status}\n{body}");
    assert!(
        body.contains("gateway: connected") && body.contains("database: ok"),
        "{body}"
    );
    let (status, body) = ops_get(&bot.ops, "/metrics");
    assert!(
        status.contains("200") && body.contains("gogobee_active_combats 0"),
        "{status}\n{body}"
    );
    for command in &commands {
        let description = command["description"].as_str().unwrap_or_default();
        assert!(!description.is_empty() && description != "---", "{command}");
        let restricted = matches!(command["name"].as_str(), Some("gm" | "campaign"));
        // MANAGE_GUILD is bit 5.
        assert_eq!(
            command["default_member_permissions"] == json!("32"),
            restricted,
            "{command}"
        );
    }
    let sub = |name: &str| -> Vec<String> {
        let command = commands.iter().find(|c| c["name"] == name).unwrap();
        command["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        sub("character"),
        ["create", "sheet", "equip", "unequip", "levelup", "inventory"]
    );
    assert_eq!(sub("move"), ["melee", "ranged", "toward", "away", "shift"]);
    assert_eq!(sub("gm"), ["spawn", "hp", "grant", "level", "end"]);

    // Autocomplete: races as typed, and the targets in this channel's fight.
    let alice = table.user("alice");
    let typing = fake
        .autocomplete(
            alice,
            table.guild,
            table.channel,
            "character",
            &["create"],
            &json!({"name": "Aria", "race": "el"}),
            "race",
        )
        .unwrap();
    let choices = table.answered(typing).await;
    assert_eq!(choices.body["type"], 8);
    let names: Vec<&str> = choices.body["data"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert!(names.contains(&"Elf"), "{names:?}");
    table
        .slash("owner", "gm", &["spawn"], json!({"monster": "goblin", "count": 2}))
        .await;
    let typing = fake
        .autocomplete(
            alice,
            table.guild,
            table.channel,
            "attack",
            &[],
            &json!({"target": "gob"}),
            "target",
        )
        .unwrap();
    let choices = table.answered(typing).await;
    let names: Vec<&str> = choices.body["data"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names.iter().all(|n| n.starts_with("Goblin")), "{names:?}");
    assert_all_valid(&fake);
    drop(bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_fight_from_character_create_to_victory() {
    let (fake, bot, table, _dir) = start("fight").await;
    let created = table
        .slash(
            "alice",
            "character",
            &["create"],
            json!({"name": "Aria", "race": "human", "class": "fighter"}),
        )
        .await;
    assert_eq!(created.body["type"], 4);
    assert!(!is_ephemeral(&created));
    assert!(text_of(&created).contains("Aria"), "{}", created.body);
    table
        .slash("owner", "gm", &["level"], json!({"player": "alice", "level": 3}))
        .await;
    table
        .slash("alice", "expedition", &["start"], json!({"zone": "forest"}))
        .await;
    table.slash("alice", "expedition", &["advance"], json!({})).await;

    let mut steps = 0;
    while !table.any_title_starts("Victory") {
        steps += 1;
        assert!(
            steps < 60,
            "no victory after 60 steps:\n{:#?}\n{}",
            table.messages(),
            bot.logs()
        );
        assert!(!table.any_title_starts("Defeat"), "Aria lost: {:#?}", table.messages());
        if let Some((message, buttons)) = table.prompt_for("alice") {
            let (_, custom_id) = buttons.iter().find(|(label, _)| label != "Pass").unwrap_or(&buttons[0]);
            let pressed = table.press("alice", message, custom_id, true).await;
            assert_eq!(pressed.body["type"], 7, "the press closes the prompt: {}", pressed.body);
            let edited = fake.message(message).unwrap();
            assert_eq!(edited["components"], json!([]), "the prompt's buttons are gone");
            continue;
        }
        let attacked = table.slash("alice", "attack", &[], json!({})).await;
        if is_ephemeral(&attacked) {
            table.slash("alice", "endturn", &[], json!({})).await;
        }
    }
    let sheet = table.slash("alice", "character", &["sheet"], json!({})).await;
    assert!(text_of(&sheet).contains("Aria"));
    assert_all_valid(&fake);
    let latencies = table.latencies();
    eprintln!(
        "full fight: {} interactions, slowest {:?}",
        latencies.len(),
        latencies.iter().max()
    );
}

/// Sets a short reaction timeout, spawns a hit-and-run goblin, and ends turns until it offers
/// `alice` a reaction; returns the prompt.
async fn fight_until_prompt(table: &Table, timeout_secs: u32) -> (MessageId, Vec<(String, String)>) {
    table
        .slash("owner", "campaign", &["timeout"], json!({"seconds": timeout_secs}))
        .await;
    table
        .slash(
            "alice",
            "character",
            &["create"],
            json!({"name": "Aria", "race": "human", "class": "fighter"}),
        )
        .await;
    // Tough enough to stand there and take a few rounds of hit-and-run.
    table
        .slash("owner", "gm", &["level"], json!({"player": "alice", "level": 8}))
        .await;
    table
        .slash("owner", "gm", &["spawn"], json!({"monster": "goblin"}))
        .await;
    table.slash("alice", "combat", &["start"], json!({})).await;
    next_prompt(table).await
}

async fn next_prompt(table: &Table) -> (MessageId, Vec<(String, String)>) {
    for _ in 0..20 {
        if let Some(prompt) = table.prompt_for("alice") {
            return prompt;
        }
        table.slash("alice", "endturn", &[], json!({})).await;
    }
    panic!("no reaction was offered: {:#?}", table.messages());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reaction_is_refused_to_others_pressed_by_its_player_and_times_out() {
    let (fake, _bot, table, _dir) = start("reaction").await;
    let (message, buttons) = fight_until_prompt(&table, 2).await;
    let labels: Vec<&str> = buttons.iter().map(|(l, _)| l.as_str()).collect();
    assert!(labels.contains(&"Pass") && labels.len() >= 2, "{labels:?}");
    assert!(buttons.iter().all(|(_, id)| id.len() <= 100));
    let pass = buttons.iter().find(|(l, _)| l == "Pass").unwrap().1.clone();

    // Bob may not answer Alice's reaction; the buttons stay.
    let refused = table.press("bob", message, &pass, true).await;
    assert_eq!(refused.body["type"], 4);
    assert!(is_ephemeral(&refused), "{}", refused.body);
    assert!(table.prompt_for("alice").is_some(), "still open");

    // Forged ids change nothing.
    let forged = table.press("alice", message, "rx:1:999999:0:pass", false).await;
    assert!(is_ephemeral(&forged), "{}", forged.body);
    let junk = table.press("alice", message, "not-a-button", false).await;
    assert_refused(&junk, "not one of mine");
    assert!(table.prompt_for("alice").is_some(), "still open");

    // Alice passes: the prompt loses its buttons.
    let passed = table.press("alice", message, &pass, true).await;
    assert_eq!(passed.body["type"], 7, "{}", passed.body);
    assert_eq!(fake.message(message).unwrap()["components"], json!([]));
    // Pressing it again (a replay) is stale.
    let replay = table.press("alice", message, &pass, false).await;
    assert!(is_ephemeral(&replay), "{}", replay.body);

    // The next reaction is left alone: after the timeout it passes by itself.
    let (second, _) = next_prompt(&table).await;
    assert_ne!(second, message);
    let before = table.messages().len();
    let deadline = Instant::now() + WAIT;
    while fake.message(second).unwrap()["components"] != json!([]) {
        assert!(Instant::now() < deadline, "the window never timed out");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    table.settle().await;
    assert!(table.messages().len() > before, "the timeout narrated the pass");
    assert_all_valid(&fake);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_mid_reaction_window_resumes_it() {
    let (fake, bot, table, dir) = start("restart").await;
    let (message, buttons) = fight_until_prompt(&table, 600).await;
    let (_, take) = buttons.iter().find(|(l, _)| l != "Pass").unwrap().clone();

    let status = bot.terminate();
    assert!(status.success(), "SIGTERM is a clean shutdown: {status:?}");
    let registrations = || {
        fake.requests()
            .iter()
            .filter(|r| r.method == "PUT" && r.path.ends_with("/commands"))
            .count()
    };
    assert_eq!(registrations(), 1);
    let bot = Bot::start(&fake, &dir, Some(fake.guild()));
    let deadline = Instant::now() + WAIT;
    while registrations() < 2 {
        assert!(Instant::now() < deadline, "the bot did not come back:\n{}", bot.logs());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    fake.wait_for_ready(WAIT).await.unwrap();

    let pressed = table.press("alice", message, &take, true).await;
    assert_eq!(
        pressed.body["type"],
        7,
        "the window survived the restart: {}\n{}",
        pressed.body,
        bot.logs()
    );
    assert_eq!(fake.message(message).unwrap()["components"], json!([]));
    assert_all_valid(&fake);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_kind_of_bad_input_is_refused_privately() {
    let (fake, _bot, table, _dir) = start("refusals").await;
    let create = |name: &str, race: &str| json!({"name": name, "race": race, "class": "fighter"});
    assert_refused(
        &table
            .slash("alice", "character", &["create"], create("Aria", "gnoll"))
            .await,
        "race",
    );
    assert_refused(
        &table
            .slash("alice", "expedition", &["start"], json!({"zone": "mars"}))
            .await,
        "zone",
    );
    assert_refused(
        &table.slash("alice", "roll", &[], json!({"expression": "banana"})).await,
        "roll",
    );
    table
        .slash("alice", "character", &["create"], create("Aria", "elf"))
        .await;
    table
        .slash("bob", "character", &["create"], create("Bors", "dwarf"))
        .await;
    assert_refused(
        &table
            .slash("alice", "character", &["create"], create("Aria", "elf"))
            .await,
        "already",
    );
    assert_refused(&table.slash("alice", "attack", &[], json!({})).await, "fight");
    table
        .slash("owner", "gm", &["spawn"], json!({"monster": "goblin", "count": 3}))
        .await;
    table.slash("bob", "combat", &["join"], json!({})).await;
    table.slash("alice", "combat", &["start"], json!({})).await;
    // A GM command from a player (Discord hides /gm from her; /combat end is checked by the bot).
    assert_refused(
        &table.slash("alice", "combat", &["end"], json!({})).await,
        "Manage Server",
    );

    // Whoever is not up tries to act.
    let status = table.slash("carol", "combat", &["status"], json!({})).await;
    let up_next = status.body["data"]["embeds"][0]["fields"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["name"] == "Up next"))
        .map(|f| f["value"].as_str().unwrap_or_default().to_owned())
        .unwrap_or_default();
    let up_is_alice = up_next.contains("Aria");
    assert!(
        up_is_alice || up_next.contains("Bors"),
        "a player is up: {}",
        status.body
    );
    let (up, waiting) = if up_is_alice {
        ("alice", "bob")
    } else {
        ("bob", "alice")
    };
    assert_refused(&table.slash(waiting, "attack", &[], json!({})).await, "turn");
    assert_refused(
        &table.slash(up, "attack", &[], json!({"target": "Dragon 9"})).await,
        "Dragon 9",
    );
    let ready = table.slash(up, "ready", &[], json!({"action": "dance wildly"})).await;
    assert!(
        is_ephemeral(&ready) && !text_of(&ready).contains("went wrong"),
        "{}",
        ready.body
    );
    let dodged = table.slash(up, "dodge", &[], json!({})).await;
    assert!(!is_ephemeral(&dodged), "{}", dodged.body);
    assert_refused(&table.slash(up, "dodge", &[], json!({})).await, "action");
    assert_all_valid(&fake);
}

/// Many fights at once in many servers (commands registered globally): the bot's latency from
/// an interaction's dispatch to its callback, p50/p99, printed for the report.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn latency_under_many_concurrent_combats() {
    const SERVERS: usize = 12;
    const ROUNDS: usize = 6;
    let fake = Arc::new(FakeDiscord::start().await);
    let dir = scratch("load");
    let bot = Bot::start(&fake, &dir, None);
    let registered = fake.wait_for_commands(None, WAIT).await;
    assert!(registered.is_ok(), "no global commands:\n{}", bot.logs());
    let owner = fake.user("owner");
    let tables: Vec<Arc<Table>> = (0..SERVERS)
        .map(|i| {
            let (guild, channel) = fake.add_guild(&format!("Server {i}"), owner);
            Arc::new(Table::new(&fake, guild, channel))
        })
        .collect();
    let started = Instant::now();
    let mut fights = tokio::task::JoinSet::new();
    for table in &tables {
        let table = Arc::clone(table);
        fights.spawn(async move {
            for (user, class) in [("alice", "fighter"), ("bob", "rogue")] {
                table
                    .slash(
                        user,
                        "character",
                        &["create"],
                        json!({"name": user, "race": "human", "class": class}),
                    )
                    .await;
            }
            table
                .slash("owner", "gm", &["spawn"], json!({"monster": "goblin", "count": 2}))
                .await;
            table.slash("bob", "combat", &["join"], json!({})).await;
            table.slash("alice", "combat", &["start"], json!({})).await;
            for _ in 0..ROUNDS {
                for user in ["alice", "bob"] {
                    if let Some((message, buttons)) = table.prompt_for(user) {
                        table.press(user, message, &buttons[0].1, true).await;
                    }
                    table.slash(user, "attack", &[], json!({})).await;
                    table.slash(user, "endturn", &[], json!({})).await;
                }
                table.slash("carol", "combat", &["status"], json!({})).await;
                table
                    .slash("carol", "roll", &[], json!({"expression": "2d20kh1+5"}))
                    .await;
            }
        });
    }
    while let Some(done) = fights.join_next().await {
        done.expect("a fight ran to the end");
    }
    let elapsed = started.elapsed();
    let mut all: Vec<Duration> = tables.iter().flat_map(|t| t.latencies()).collect();
    all.sort_unstable();
    let (p50, p99) = (percentile(&all, 50.0), percentile(&all, 99.0));
    eprintln!(
        "LATENCY {} interactions in {SERVERS} concurrent fights over {elapsed:?}: p50 {p50:?}, p99 {p99:?}, max {:?}",
        all.len(),
        all.last().copied().unwrap_or_default()
    );
    assert!(all.iter().all(|l| *l < DEADLINE));
    assert_all_valid(&fake);
}
