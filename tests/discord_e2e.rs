//! End to end: the real `gogobee bot` binary (serenity + poise) against the fake Discord on
//! loopback. Every interaction's callback is checked against Discord's 3-second deadline, and
//! every body the bot sends against Discord's OpenAPI spec.

mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use fake_discord::FakeDiscord;
use sea_orm::{ConnectionTrait, DbBackend, Statement};
use serde_json::{Value, json};
use service::Db;
use support::*;

/// How long a test holds the database's write lock to make the bot's next write slow: past
/// the bot's deferral point (1.2 s) and Discord's 3 s, within its 5 s busy timeout.
const HOLD: Duration = Duration::from_millis(2500);

/// Message flag: a deferred response still "thinking…".
const LOADING: u64 = 1 << 7;

/// Waits up to [`WAIT`] until `found` finds something; fails with `what` and the bot's log.
async fn eventually<T>(what: &str, bot: &Bot, found: impl Fn() -> Option<T>) -> T {
    let deadline = Instant::now() + WAIT;
    loop {
        if let Some(found) = found() {
            return found;
        }
        assert!(Instant::now() < deadline, "{what}:\n{}", bot.logs());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The enabled buttons on a message.
fn enabled_buttons(message: &Value) -> usize {
    message["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter(|b| !b["disabled"].as_bool().unwrap_or(false))
        .count()
}

#[allow(
    clippy::too_many_lines,
    reason = "every registered command's body checked in one pass over the fake Discord"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_command_is_registered_with_a_valid_body() {
    let (fake, bot, table, _dir) = start("register").await;
    let commands = fake.commands(Some(fake.guild()));
    let mut names: Vec<&str> = commands.iter().filter_map(|c| c["name"].as_str()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "arena",
            "attack",
            "bonus",
            "campaign",
            "cast",
            "character",
            "combat",
            "craft",
            "dash",
            "delay",
            "disengage",
            "dodge",
            "endturn",
            "escape",
            "expedition",
            "gm",
            "grapple",
            "guide",
            "help",
            "hide",
            "homebrew",
            "hospital",
            "house",
            "instant",
            "leaderboard",
            "move",
            "ready",
            "rest",
            "roll",
            "search",
            "shop",
            "shove",
            "stabilize",
            "use",
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
        let restricted = matches!(command["name"].as_str(), Some("gm" | "campaign" | "homebrew"));
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
        [
            "create",
            "sheet",
            "inventory",
            "equip",
            "unequip",
            "levelup",
            "rename",
            "retire"
        ]
    );
    assert_eq!(sub("shop"), ["list", "buy", "sell"]);
    assert_eq!(sub("rest"), ["short", "long"]);
    assert_eq!(sub("craft"), ["list", "make"]);
    assert_eq!(sub("arena"), ["challenge", "spectate", "top"]);
    assert_eq!(sub("house"), ["buy", "list", "store", "take"]);
    assert_eq!(sub("move"), ["melee", "ranged", "toward", "away", "shift", "crawl"]);
    assert_eq!(sub("gm"), ["spawn", "hp", "grant", "level", "end"]);
    assert_eq!(
        sub("homebrew"),
        ["import", "list", "show", "remove", "export", "balance"]
    );

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
    let created = table.aria_the_fighter(3).await;
    assert_eq!(created.body["type"], 4);
    assert!(!is_ephemeral(&created));
    assert!(text_of(&created).contains("Aria"), "{}", created.body);
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

/// The arena through Discord: a challenge pings the challenged player with Accept / Decline;
/// a bystander's press is refused privately and the buttons stay; the challenged player's press
/// closes the prompt and starts the duel.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_challenge_is_answered_only_by_the_challenged_player() {
    let (fake, bot, table, _dir) = start("arena").await;
    for (user, name, race, class) in [
        ("alice", "Aria", "elf", "rogue"),
        ("bob", "Bram", "dwarf", "fighter"),
        ("carol", "Cora", "human", "cleric"),
    ] {
        table
            .slash(
                user,
                "character",
                &["create"],
                json!({"name": name, "race": race, "class": class}),
            )
            .await;
    }
    let offered = table
        .slash("alice", "arena", &["challenge"], json!({"user": "bob"}))
        .await;
    assert!(!is_ephemeral(&offered), "{}", offered.body);
    let (message, buttons) = table
        .prompt_for("bob")
        .unwrap_or_else(|| panic!("a challenge pinging Bram: {:#?}\n{}", table.messages(), bot.logs()));
    let accept = buttons.iter().find(|(l, _)| l == "Accept the duel").unwrap().1.clone();
    let refused = table.press("carol", message, &accept, true).await;
    assert_eq!(refused.body["type"], 4);
    assert!(is_ephemeral(&refused), "{}", refused.body);
    assert!(text_of(&refused).contains("Only Bram may answer"), "{}", refused.body);
    assert!(table.prompt_for("bob").is_some(), "still open");
    let accepted = table.press("bob", message, &accept, true).await;
    assert_eq!(accepted.body["type"], 7, "{}", accepted.body);
    assert_eq!(fake.message(message).unwrap()["components"], json!([]));
    assert!(table.any_title_starts("Arena duel"), "{:#?}", table.messages());
    let watched = table.slash("carol", "arena", &["spectate"], json!({})).await;
    assert!(
        is_ephemeral(&watched) && watched.body.to_string().contains("Arena duel"),
        "{}",
        watched.body
    );
    assert_all_valid(&fake);
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
    // `/combat status` shows the open window's prompt again: a second copy on display.
    table.slash("carol", "combat", &["status"], json!({})).await;
    let (copy, _) = table.prompt_for("alice").unwrap();
    assert_ne!(copy, message);

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
    assert_eq!(
        fake.message(copy).unwrap()["components"],
        json!([]),
        "the copy the first process posted closes with the window:\n{}",
        bot.logs()
    );
    assert_all_valid(&fake);
}

/// The first process posts the prompt and stops; the window is due while it is down (the new
/// one's clock is an hour on), so the new process times it out at once — and, remembering no
/// prompt of its own, finds the old one in the channel's history and takes its buttons away.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_window_timing_out_after_a_restart_takes_the_old_prompts_buttons() {
    let (fake, bot, table, dir) = start("restart-timeout").await;
    let (message, _) = fight_until_prompt(&table, 600).await;
    let status = bot.terminate();
    assert!(status.success(), "SIGTERM is a clean shutdown: {status:?}");
    assert!(
        enabled_buttons(&fake.message(message).unwrap()) >= 2,
        "still open when it stopped"
    );
    let (messages, requests) = (table.messages().len(), fake.requests().len());

    let bot = Bot::start_with(&fake, &dir, Some(fake.guild()), &[("GOGOBEE_CLOCK_OFFSET", "1h")]);
    eventually("the old prompt kept its buttons", &bot, || {
        (fake.message(message)?["components"] == json!([])).then_some(())
    })
    .await;
    table.settle().await;
    let history = format!("/api/v10/channels/{}/messages", table.channel);
    let searched = fake.requests()[requests..]
        .iter()
        .filter(|r| r.method == "GET" && r.path == history)
        .count();
    assert_eq!(searched, 1, "one look at the channel's history");
    assert!(table.messages().len() > messages, "the timeout narrated the pass");
    assert_all_valid(&fake);
}

/// The bot's database is busy (another writer holds SQLite's write lock): `/character create`
/// is deferred within Discord's 3 s, then answered with the new sheet once the write goes
/// through — once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_command_is_deferred_then_answered_once() {
    let (fake, bot, table, dir) = start("defer-command").await;
    let db = Db::connect(&database_url(&dir)).await.unwrap();
    let lock = db.begin_write().await.unwrap();
    let locked = Instant::now();
    let alice = table.user("alice");
    let create = json!({"name": "Aria", "race": "human", "class": "fighter"});
    let id = fake
        .send_slash_command(alice, table.guild, table.channel, "character", &["create"], &create)
        .unwrap();

    let deferred = table.answered(id).await;
    assert_eq!(deferred.body["type"], 5, "deferred: {}\n{}", deferred.body, bot.logs());
    assert!(
        deferred.latency >= Duration::from_secs(1),
        "it tried to answer first: {deferred:?}"
    );
    assert!(locked.elapsed() < HOLD, "deferred while the write still waits");
    let thinking = fake.original_message(id).unwrap();
    assert_ne!(thinking["flags"].as_u64().unwrap_or(0) & LOADING, 0, "{thinking}");

    tokio::time::sleep_until((locked + HOLD).into()).await;
    lock.rollback().await.unwrap();
    let answer = eventually("the deferred command was never answered", &bot, || {
        let original = fake.original_message(id)?;
        (original["flags"].as_u64().unwrap_or(0) & LOADING == 0).then_some(original)
    })
    .await;
    table.settle().await;

    assert_eq!(fake.callbacks(id).len(), 1, "one callback: the deferral");
    let sheet = table.slash("alice", "character", &["sheet"], json!({})).await;
    assert!(
        answer["embeds"][0]["title"]
            .as_str()
            .unwrap_or_default()
            .contains("Aria"),
        "{answer}"
    );
    assert_eq!(
        answer["embeds"], sheet.body["data"]["embeds"],
        "the new character's sheet"
    );
    let answers = table
        .messages()
        .iter()
        .filter(|m| m["interaction_metadata"]["id"] == id.to_json())
        .count();
    assert_eq!(answers, 1, "answered in the deferred message, not beside it");
    let count = db
        .conn()
        .query_one_raw(Statement::from_sql_and_values(
            DbBackend::Sqlite,
            "SELECT COUNT(*) AS n FROM characters WHERE player_id = ?",
            [alice.to_string().into()],
        ))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(count.try_get::<i64>("", "n").unwrap(), 1, "created exactly once");
    db.close().await.unwrap();
    assert_all_valid(&fake);
}

/// A reaction press while the database is busy: deferred (type 6) within 3 s, then the
/// prompt's buttons are taken away through the original response and the pass is narrated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_press_is_deferred_then_closes_its_prompt() {
    let (fake, bot, table, dir) = start("defer-press").await;
    let (message, buttons) = fight_until_prompt(&table, 600).await;
    let pass = buttons.iter().find(|(l, _)| l == "Pass").unwrap().1.clone();
    let before = table.messages().len();
    let db = Db::connect(&database_url(&dir)).await.unwrap();
    let lock = db.begin_write().await.unwrap();
    let locked = Instant::now();
    let id = fake.press_button(table.user("alice"), message, &pass).unwrap();

    let deferred = table.answered(id).await;
    assert_eq!(deferred.body["type"], 6, "deferred: {}\n{}", deferred.body, bot.logs());
    assert!(locked.elapsed() < HOLD, "deferred while the write still waits");
    assert!(
        enabled_buttons(&fake.message(message).unwrap()) >= 2,
        "open until it is answered"
    );

    tokio::time::sleep_until((locked + HOLD).into()).await;
    lock.rollback().await.unwrap();
    eventually("the deferred press never closed the prompt", &bot, || {
        (fake.message(message)?["components"] == json!([])).then_some(())
    })
    .await;
    table.settle().await;
    let closed_through_original = fake.requests().iter().any(|r| {
        r.method == "PATCH"
            && r.path.ends_with("/messages/@original")
            && r.body.as_ref().is_some_and(|b| b["components"] == json!([]))
    });
    assert!(closed_through_original, "the original response (the prompt) was edited");
    assert_eq!(fake.callbacks(id).len(), 1, "one callback: the deferral");
    assert!(table.messages().len() > before, "the pass was narrated");
    db.close().await.unwrap();
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

/// `/homebrew balance` answers within Discord's 3 s (deferred when the duels take longer) with
/// the verdict and the chart as a PNG file; the duels run off the command path, so another
/// player's `/roll` sent meanwhile is answered straight away.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn homebrew_balance_answers_in_time_with_a_png_chart() {
    let (fake, bot, table, _dir) = start("balance").await;
    let ask = json!({"monster": "giant rat", "party": "fighter:5", "count": 2});
    let id = fake
        .send_slash_command(
            table.user("owner"),
            table.guild,
            table.channel,
            "homebrew",
            &["balance"],
            &ask,
        )
        .unwrap();
    let roll = table.slash("bob", "roll", &[], json!({"expression": "1d20+5"})).await;
    assert_eq!(roll.body["type"], 4, "answered, not deferred: {}", roll.body);
    let first = table.answered(id).await;
    let answer = eventually("the balance was never answered", &bot, || {
        let original = fake.original_message(id)?;
        (original["flags"].as_u64().unwrap_or(0) & LOADING == 0).then_some(original)
    })
    .await;
    table.settle().await;
    assert!(matches!(first.body["type"].as_u64(), Some(4 | 5)), "{}", first.body);
    let text = answer["embeds"][0]["description"].as_str().unwrap_or_default();
    assert!(text.contains("2000 seeded duels under the gogobee rules"), "{answer}");
    assert!(text.contains("Party wins 100.0%"), "{answer}");
    assert!(text.contains("**easy**"), "{answer}");
    let files = fake.attachments(&answer);
    assert_eq!(files.len(), 1, "the chart: {answer}\n{}", bot.logs());
    let (name, bytes) = &files[0];
    assert_eq!(name, "balance.png");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
    assert_eq!(answer["attachments"][0]["content_type"], "image/png", "{answer}");

    // A monster no one knows is refused, with the ones there are.
    let unknown = table
        .slash(
            "owner",
            "homebrew",
            &["balance"],
            json!({"monster": "tarrasque", "party": "fighter:5"}),
        )
        .await;
    assert_refused(&unknown, "tarrasque");
    assert_all_valid(&fake);
}

/// `/combat replay combat:N` answers with the fight's referee log as a text file: a multipart
/// body (`payload_json` naming `files[0]` in its `attachments`) that Discord's spec accepts,
/// the file holding the whole log — the seed, then one line per event.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn combat_replay_sends_the_referee_log_as_a_file() {
    let (fake, bot, table, _dir) = start("replay-file").await;
    table.aria_the_fighter(3).await;
    table
        .slash("owner", "gm", &["spawn"], json!({"monster": "goblin"}))
        .await;
    table.slash("alice", "combat", &["start"], json!({})).await;
    table.slash("alice", "attack", &[], json!({})).await;
    table.slash("owner", "combat", &["end"], json!({})).await;

    let replay = table.slash("bob", "combat", &["replay"], json!({"combat": 1})).await;
    assert!(!is_ephemeral(&replay), "{}", replay.body);
    assert_eq!(
        replay.body["data"]["attachments"],
        json!([{"id": "0", "filename": "combat-1.txt", "description": "The referee log of combat 1, one line per event"}]),
        "{}",
        replay.body
    );
    let message = fake
        .original_message(replay.interaction)
        .expect("the answer is a message");
    let files = fake.attachments(&message);
    assert_eq!(files.len(), 1, "one file on the message: {message}\n{}", bot.logs());
    let (name, bytes) = &files[0];
    assert_eq!(name, "combat-1.txt");
    let log = String::from_utf8(bytes.clone()).expect("a text file");
    let mut lines = log.lines();
    assert!(
        lines
            .next()
            .is_some_and(|l| l.starts_with("GogoBee referee log — combat 1 · seed ")),
        "{log}"
    );
    assert!(log.contains("Aria"), "{log}");
    assert!(lines.count() >= 3, "one line per event: {log}");
    // The embed shows the first lines and says where the rest is.
    assert!(text_of(&replay).contains("referee log"), "{}", text_of(&replay));
    // No footer shows an internal number (the version a button carries): the fight's number only.
    for message in table.messages() {
        for embed in message["embeds"].as_array().into_iter().flatten() {
            let footer = embed["footer"]["text"].as_str().unwrap_or_default();
            assert!(
                !footer
                    .split(" · ")
                    .any(|part| part.starts_with('v') && part[1..].parse::<u64>().is_ok()),
                "an internal id in a footer: {footer}"
            );
        }
    }
    // A fight of no one's: refused, no file.
    let none = table.slash("bob", "combat", &["replay"], json!({"combat": 99})).await;
    assert_refused(&none, "no fight 99");
    assert_all_valid(&fake);
}

/// The battlefield's picture goes as Discord takes files — a multipart body whose
/// `payload_json` names `files[0]` in its `attachments` — and Discord's spec accepts it:
/// `/combat status` attaches it to the status, `/combat map` sends it with the battlefield in
/// words, only to a player, publicly for the GM.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_battlefield_picture_is_attached_to_the_status_and_sent_by_combat_map() {
    let (fake, bot, table, _dir) = start("map").await;
    table.aria_the_fighter(3).await;
    table
        .slash("owner", "gm", &["spawn"], json!({"monster": "goblin"}))
        .await;
    table.slash("alice", "combat", &["start"], json!({})).await;

    let png = |callback: &fake_discord::Callback| {
        let message = fake
            .original_message(callback.interaction)
            .expect("the answer is a message");
        let files = fake.attachments(&message);
        assert_eq!(files.len(), 1, "one file on the message: {message}\n{}", bot.logs());
        let (name, bytes) = files[0].clone();
        assert_eq!(name, "map.png");
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
        assert_eq!(message["attachments"][0]["content_type"], "image/png", "{message}");
        message
    };
    let status = table.slash("bob", "combat", &["status"], json!({})).await;
    assert!(!is_ephemeral(&status), "{}", status.body);
    let message = png(&status);
    let fields = message["embeds"][0]["fields"].as_array().cloned().unwrap_or_default();
    assert!(
        fields.iter().any(|f| f["name"] == "Battlefield"),
        "the status names the engagements: {message}"
    );

    let mine = table.slash("alice", "combat", &["map"], json!({})).await;
    assert!(is_ephemeral(&mine), "a player's map is theirs alone: {}", mine.body);
    assert_eq!(
        mine.body["data"]["attachments"],
        json!([{"id": "0", "filename": "map.png", "description": "The battlefield: who stands where"}]),
        "{}",
        mine.body
    );
    png(&mine);
    assert!(
        text_of(&mine).contains("The battlefield — Round 1 · gogobee rules"),
        "{}",
        text_of(&mine)
    );
    let gms = table.slash("owner", "combat", &["map"], json!({})).await;
    assert!(!is_ephemeral(&gms), "the GM's map is public: {}", gms.body);
    png(&gms);
    assert_all_valid(&fake);
}

/// A process running two shards reports each in `/healthz` and `/metrics`, with the build, the
/// process figures and latency in seconds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_and_metrics_report_each_shard_of_the_process() {
    let fake = Arc::new(FakeDiscord::start().await);
    let dir = scratch("two-shards");
    let bot = Bot::start_with(
        &fake,
        &dir,
        Some(fake.guild()),
        &[("SHARD_IDS", "0-1"), ("SHARD_COUNT", "2")],
    );
    for shard in [0, 1] {
        assert!(
            fake.wait_for_shard(shard, WAIT).await.is_ok(),
            "shard {shard} did not connect:\n{}",
            bot.logs()
        );
    }
    let body = eventually("both shards healthy", &bot, || {
        let (status, body) = std::net::TcpStream::connect(&bot.ops)
            .is_ok()
            .then(|| ops_get(&bot.ops, "/healthz"))?;
        status.contains("200").then_some(body)
    })
    .await;
    assert!(
        body.contains("gateway shard 0: connected") && body.contains("gateway shard 1: connected"),
        "{body}"
    );
    let (_, metrics) = ops_get(&bot.ops, "/metrics");
    for line in [
        "gogobee_gateway_connected{shard=\"0\"} 1",
        "gogobee_gateway_connected{shard=\"1\"} 1",
        "gogobee_build_info{version=",
        "process_resident_memory_bytes ",
        "process_cpu_seconds_total ",
        "gogobee_database_errors_total 0",
    ] {
        assert!(metrics.contains(line), "{line} missing:\n{metrics}");
    }
    let table = Table::new(&fake, fake.guild(), fake.channel());
    table.slash("alice", "roll", &[], json!({"expression": "1d20"})).await;
    let (_, metrics) = ops_get(&bot.ops, "/metrics");
    assert!(
        metrics.contains("gogobee_command_duration_seconds_count{command=\"roll\"} 1"),
        "{metrics}"
    );
}

/// `/campaign map show:every_turn` (Manage Server): each message that passes the turn carries
/// the battlefield's picture, in a fight already under way and for a party of two; a member
/// cannot change it; `show:on_request` puts it back on `/combat status` and `/combat map` alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn campaign_map_every_turn_attaches_the_picture_to_each_turn_passing_message() {
    let (fake, bot, table, _dir) = start("map-every-turn").await;
    table.aria_the_fighter(3).await;
    let bo = json!({"name": "Bo", "race": "dwarf", "class": "cleric"});
    table.slash("bob", "character", &["create"], bo).await;
    table
        .slash("owner", "gm", &["spawn"], json!({"monster": "goblin", "count": 2}))
        .await;
    table.slash("alice", "combat", &["start"], json!({})).await;
    table.slash("bob", "combat", &["join"], json!({})).await;

    let pictures = |callback: &fake_discord::Callback| -> usize {
        fake.original_message(callback.interaction).map_or(0, |m| {
            fake.attachments(&m)
                .iter()
                .filter(|(name, _)| name == "map.png")
                .count()
        })
    };
    // Whoever's turn it is ends it (a reaction prompt on the way is passed): the answer to
    // the `/endturn` that passed the turn on — its events start the next turn.
    let pass_the_turn = || async {
        for _ in 0..12 {
            for player in ["alice", "bob"] {
                if let Some((message, buttons)) = table.prompt_for(player) {
                    let (_, pass) = buttons
                        .iter()
                        .find(|(label, _)| label == "Pass")
                        .expect("a Pass button");
                    table.press(player, message, pass, true).await;
                }
            }
            for player in ["alice", "bob"] {
                let ended = table.slash(player, "endturn", &[], json!({})).await;
                if !is_ephemeral(&ended) {
                    return ended;
                }
            }
        }
        panic!("neither player could end a turn\n{}", bot.logs());
    };

    assert_eq!(pictures(&pass_the_turn().await), 0, "on request by default");
    assert!(
        fake.send_slash_command(
            table.user("bob"),
            table.guild,
            table.channel,
            "campaign",
            &["map"],
            &json!({"show": 0})
        )
        .is_err(),
        "Discord keeps /campaign from a member without Manage Server"
    );
    let set = table.slash("owner", "campaign", &["map"], json!({"show": 0})).await;
    assert!(text_of(&set).contains("carries a picture"), "{}", text_of(&set));
    for _ in 0..3 {
        let passed = pass_the_turn().await;
        assert_eq!(
            pictures(&passed),
            1,
            "the turn's message carries map.png: {}",
            passed.body
        );
    }

    let back = table.slash("owner", "campaign", &["map"], json!({"show": 1})).await;
    assert!(text_of(&back).contains("on request"), "{}", text_of(&back));
    assert_eq!(pictures(&pass_the_turn().await), 0, "on request again");
    assert_all_valid(&fake);
}

/// Autocomplete offers what the character can do now, for each of a party of two: their own
/// bonus actions, the spells they can cast, whom they could attack or close with (never
/// themselves), and their allies to help.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autocomplete_offers_each_player_only_what_their_character_can_do() {
    let (fake, bot, table, _dir) = start("offers").await;
    table.aria_the_fighter(3).await;
    let bo = json!({"name": "Bo", "race": "dwarf", "class": "cleric"});
    table.slash("bob", "character", &["create"], bo).await;
    // Outside a fight: every bonus action (the command then says there is no fight).
    assert_eq!(table.offered("alice", "bonus", &[], "ability", "").await.len(), 8);

    table
        .slash("owner", "gm", &["spawn"], json!({"monster": "goblin", "count": 2}))
        .await;
    table.slash("alice", "combat", &["start"], json!({})).await;
    table.slash("bob", "combat", &["join"], json!({})).await;

    assert_eq!(
        table.offered("alice", "bonus", &[], "ability", "").await,
        ["second wind"]
    );
    assert_eq!(
        table.offered("bob", "bonus", &[], "ability", "").await,
        ["healing word"]
    );
    assert_eq!(
        table.offered("bob", "cast", &[], "spell", "").await,
        ["Sacred Flame", "Cure Wounds", "Healing Word"]
    );
    assert!(
        table.offered("alice", "cast", &[], "spell", "").await.is_empty(),
        "a fighter has no spells"
    );
    for (command, path) in [("attack", &[][..]), ("move", &["melee"][..])] {
        let targets = table.offered("alice", command, path, "target", "").await;
        assert!(!targets.contains(&"Aria".to_owned()), "/{command}: {targets:?}");
        assert!(targets.contains(&"Goblin 1".to_owned()), "/{command}: {targets:?}");
    }
    assert_eq!(table.offered("alice", "help", &[], "ally", "").await, ["Bo"]);
    assert_eq!(table.offered("bob", "help", &[], "ally", "").await, ["Aria"]);
    assert_all_valid(&fake);
    drop(bot);
}
