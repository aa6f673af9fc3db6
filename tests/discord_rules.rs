//! End to end, Discord as it really is: what a modified client, a bystander, a DM, an empty
//! table or a removed bot would meet. The real `gogobee bot` against the fake Discord.

mod support;

use fake_discord::MessageId;
use serde_json::{Value, json};
use support::*;

/// The custom id's fields: `rx:<combat>:<version>:<reactor>:<choice>`.
fn fields(custom_id: &str) -> Vec<String> {
    custom_id.split(':').map(str::to_owned).collect()
}

fn with_field(custom_id: &str, index: usize, value: &str) -> String {
    let mut parts = fields(custom_id);
    value.clone_into(&mut parts[index]);
    parts.join(":")
}

fn enabled_buttons(message: &Value) -> usize {
    message["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter(|b| !b["disabled"].as_bool().unwrap_or(false))
        .count()
}

/// The channel's messages everyone sees (ephemeral answers left out).
fn public_messages(table: &Table) -> Vec<Value> {
    table
        .messages()
        .into_iter()
        .filter(|m| m["flags"].as_u64().unwrap_or(0) & 64 == 0)
        .collect()
}

/// A press that must be refused privately and change nothing: no message posted or edited,
/// the prompt's buttons still there.
async fn refused_unchanged(table: &Table, user: &str, prompt: MessageId, custom_id: &str) {
    let (messages, requests) = (public_messages(table), table.fake.request_count());
    let pressed = table.press(user, prompt, custom_id, false).await;
    assert!(
        is_ephemeral(&pressed) && pressed.body["type"] == 4,
        "{custom_id} from {user}: refused privately: {}",
        pressed.body
    );
    assert!(!text_of(&pressed).contains("went wrong"), "{}", pressed.body);
    assert!(
        public_messages(table) == messages,
        "{custom_id}: nothing posted or edited"
    );
    // The callback is the only request the press caused.
    assert_eq!(
        table.fake.request_count(),
        requests + 1,
        "{custom_id}: nothing else sent"
    );
    assert!(
        enabled_buttons(&table.fake.message(prompt).unwrap()) >= 2,
        "{custom_id}: the real prompt keeps its buttons"
    );
}

/// Each field of a reaction button's id is checked against the window open now: another
/// combat, another version (one past, or ≥ 2⁶³), another reactor, an option not offered, and a
/// real id from someone else, are all refused; the real button still works afterwards.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_button_is_refused_field_by_field() {
    let (fake, bot, table, _dir) = start("forged").await;
    table
        .slash(
            "bob",
            "character",
            &["create"],
            json!({"name": "Bors", "race": "dwarf", "class": "fighter"}),
        )
        .await;
    let (prompt, buttons) = fight_until_prompt(&table, 600).await;
    let pass = buttons.iter().find(|(l, _)| l == "Pass").unwrap().1.clone();
    let parts = fields(&pass);
    assert_eq!(parts.len(), 5, "{pass}");
    let version: u64 = parts[2].parse().unwrap();
    let reactor: u64 = parts[3].parse().unwrap();
    let offered: Vec<String> = buttons.iter().map(|(_, id)| fields(id)[4].clone()).collect();
    let not_offered = (0..10).map(|k| k.to_string()).find(|k| !offered.contains(k)).unwrap();

    let forged = [
        with_field(&pass, 1, &format!("{}9", parts[1])),
        with_field(&pass, 2, &(version + 1).to_string()),
        with_field(&pass, 2, &(version + (1 << 63)).to_string()),
        with_field(&pass, 2, "18446744073709551615"),
        with_field(&pass, 3, &(reactor + 1).to_string()),
        with_field(&pass, 4, &not_offered),
    ];
    for id in &forged {
        refused_unchanged(&table, "alice", prompt, id).await;
    }
    // The real button, from a player who is not the reactor (Bob has a character, but not in this fight).
    refused_unchanged(&table, "bob", prompt, &pass).await;
    let bystander = table.press("bob", prompt, &pass, true).await;
    assert!(
        text_of(&bystander).contains("Aria"),
        "says whose buttons they are: {}",
        bystander.body
    );

    let passed = table.press("alice", prompt, &pass, true).await;
    assert_eq!(
        passed.body["type"],
        7,
        "the real one still works: {}\n{}",
        passed.body,
        bot.logs()
    );
    assert_eq!(fake.message(prompt).unwrap()["components"], json!([]));
    assert_all_valid(&fake);
}

/// The users every body sent since request `from` lets ping (`allowed_mentions.users`).
fn pinged_since(table: &Table, from: usize) -> Vec<String> {
    table.fake.requests()[from..]
        .iter()
        .filter_map(|r| r.body.as_ref())
        .flat_map(|body| {
            let mentions = if body["data"].is_object() {
                &body["data"]["allowed_mentions"]
            } else {
                &body["allowed_mentions"]
            };
            mentions["users"].as_array().cloned().unwrap_or_default()
        })
        .filter_map(|u| u.as_str().map(str::to_owned))
        .collect()
}

/// A player is pinged when the turn or a reaction passes to them, and only then: a
/// bystander's `/combat status`, another player's `/combat join` or a prompt shown again ping
/// nobody.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_turn_or_a_reaction_passing_to_a_player_pings_them() {
    let (fake, _bot, table, _dir) = start("pings").await;
    let alice = table.user("alice").to_string();
    table
        .slash("owner", "campaign", &["timeout"], json!({"seconds": 600}))
        .await;
    table.aria_the_fighter(8).await;
    table
        .slash("owner", "gm", &["spawn"], json!({"monster": "goblin"}))
        .await;
    let from = fake.request_count();
    table.slash("alice", "combat", &["start"], json!({})).await;
    assert_eq!(pinged_since(&table, from), [alice], "her first turn pings her");

    let from = fake.request_count();
    table.slash("carol", "combat", &["status"], json!({})).await;
    let sent: Vec<_> = fake.requests()[from..]
        .iter()
        .map(|r| {
            format!(
                "{} {}",
                r.method,
                r.body
                    .as_ref()
                    .map(ToString::to_string)
                    .unwrap_or_default()
                    .chars()
                    .take(600)
                    .collect::<String>()
            )
        })
        .collect();
    assert_eq!(
        pinged_since(&table, from),
        Vec::<String>::new(),
        "a bystander's status pings nobody: {sent:#?}"
    );
    table
        .slash(
            "bob",
            "character",
            &["create"],
            json!({"name": "Bors", "race": "dwarf", "class": "fighter"}),
        )
        .await;
    let from = fake.request_count();
    let joined = table.slash("bob", "combat", &["join"], json!({})).await;
    assert!(!is_ephemeral(&joined), "{}", joined.body);
    assert_eq!(
        pinged_since(&table, from),
        Vec::<String>::new(),
        "Bob joining pings nobody"
    );

    // Turns pass until the goblin offers someone a reaction: that pings the reactor.
    let mut offered = None;
    'turns: for _ in 0..20 {
        for user in ["alice", "bob"] {
            // A prompt already open (the goblin may have acted first) is passed first.
            for reactor in ["alice", "bob"] {
                if let Some((message, buttons)) = table.prompt_for(reactor) {
                    let pass = &buttons.iter().find(|(l, _)| l == "Pass").unwrap().1;
                    table.press(reactor, message, pass, true).await;
                }
            }
            let from = fake.request_count();
            table.slash(user, "endturn", &[], json!({})).await;
            for reactor in ["alice", "bob"] {
                if table.prompt_for(reactor).is_some() {
                    let id = table.user(reactor).to_string();
                    assert_eq!(pinged_since(&table, from), [id], "the offer pings {reactor} alone");
                    offered = Some(reactor);
                    break 'turns;
                }
            }
        }
    }
    let said: Vec<String> = public_messages(&table)
        .iter()
        .map(|m| format!("{} | {}", m["content"], m["embeds"][0]["description"]))
        .collect();
    assert!(offered.is_some(), "no reaction was offered: {said:#?}");
    let from = fake.request_count();
    table.slash("carol", "combat", &["status"], json!({})).await;
    assert_eq!(
        pinged_since(&table, from),
        Vec::<String>::new(),
        "the prompt shown again pings nobody"
    );
    assert_all_valid(&fake);
}

/// The bot identifies with the one intent it uses (GUILDS: which servers it is in), and a
/// command from a client whose list is stale gets a private answer rather than Discord's "The
/// application did not respond".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn identify_asks_for_guilds_only_and_an_unknown_command_is_answered() {
    let (fake, bot, table, _dir) = start("intents").await;
    let identify = fake.wait_for_gateway_op(2, WAIT).await.unwrap();
    assert_eq!(identify["d"]["intents"], 1, "GUILDS (1 << 0) only: {identify}");

    let id = fake
        .send_stale_command(table.user("alice"), table.guild, table.channel, "fight")
        .unwrap();
    let answer = table.answered(id).await;
    assert_eq!(answer.body["type"], 4, "{}\n{}", answer.body, bot.logs());
    assert_refused(&answer, "/fight is not one of my commands");
    assert_all_valid(&fake);
}

/// Registered globally, each command says where it works: every one is installed to servers,
/// only `/roll` is offered in the bot's DMs. There `/roll` works, and a server command sent
/// by a stale client is refused with the truth (not "Manage Server").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dms_offer_only_what_works_there_and_refuse_the_rest_truthfully() {
    let fake = std::sync::Arc::new(fake_discord::FakeDiscord::start().await);
    let dir = scratch("dms");
    let bot = Bot::start(&fake, &dir, None);
    assert!(fake.wait_for_commands(None, WAIT).await.is_ok(), "{}", bot.logs());
    let commands = fake.commands(None);
    assert_eq!(
        commands.len(),
        34,
        "25 and the inn's shop, rest, craft, leaderboard and guide, the arena, the house, escape and homebrew"
    );
    for command in &commands {
        assert_eq!(
            command["integration_types"],
            json!([0]),
            "installed to servers: {command}"
        );
        let expected = if command["name"] == "roll" {
            json!([0, 1])
        } else {
            json!([0])
        };
        assert_eq!(command["contexts"], expected, "{command}");
        every_string_option_has_a_limit(command, command["name"].as_str().unwrap_or_default());
    }
    let alice = fake.user("alice");
    let offered = fake.send_dm_command(
        alice,
        "character",
        &["create"],
        &json!({"name": "Aria", "race": "elf", "class": "rogue"}),
    );
    assert!(
        matches!(offered, Err(fake_discord::DriverError::NotInContext { .. })),
        "not offered in DMs: {offered:?}"
    );
    let (id, _) = fake
        .send_dm_command(alice, "roll", &[], &json!({"expression": "1d20+5"}))
        .unwrap();
    let table = Table::new(&fake, fake.guild(), fake.channel());
    let rolled = table.answered(id).await;
    assert!(
        !is_ephemeral(&rolled) && text_of(&rolled).contains("1d20"),
        "{}",
        rolled.body
    );

    let owner = fake.user("owner");
    let (id, _) = fake
        .send_dm_command_unchecked(owner, "campaign", &["timeout"], &json!({"seconds": 30}))
        .unwrap();
    let refused = table.answered(id).await;
    assert_refused(&refused, "works in a server");
    assert!(!text_of(&refused).contains("Manage Server"), "{}", refused.body);
    assert_all_valid(&fake);
}

/// Removed from a guild (`GUILD_DELETE` without `unavailable`), the bot pauses its fights: the
/// turn timer stops firing into a channel it can no longer post in, and nothing is played out
/// unseen. Invited back (`GUILD_CREATE`), the fight resumes where it was.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guild_that_removes_the_bot_pauses_its_fights_until_it_returns() {
    let (fake, bot, table, dir) = start("guild-delete").await;
    table.aria_the_fighter(12).await;
    set_turn_timeout_in_db(&dir, 2).await;
    table
        .slash("owner", "gm", &["spawn"], json!({"monster": "goblin"}))
        .await;
    table.slash("alice", "combat", &["start"], json!({})).await;
    assert!(fake.remove_bot_from_guild(table.guild), "the bot got GUILD_DELETE");
    let (messages, from) = (public_messages(&table).len(), fake.request_count());

    // Four turn timeouts' worth of time: nothing is tried in the channel, nothing happens.
    tokio::time::sleep(std::time::Duration::from_secs(8)).await;
    let channel = table.channel.to_string();
    let tried: Vec<String> = fake.requests()[from..]
        .iter()
        .filter(|r| r.path.contains(&channel))
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    assert!(
        tried.is_empty(),
        "posted into a guild it was removed from: {tried:?}\n{}",
        bot.logs()
    );
    assert_eq!(public_messages(&table).len(), messages);

    // Back in the guild: the turn that was running out runs out now, said in the channel.
    assert!(fake.readd_bot_to_guild(table.guild));
    let deadline = std::time::Instant::now() + WAIT;
    while public_messages(&table).len() == messages {
        assert!(
            std::time::Instant::now() < deadline,
            "the fight never resumed:\n{}",
            bot.logs()
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_all_valid(&fake);
}

/// Every string option (type 3) down the tree carries a `max_length`.
fn every_string_option_has_a_limit(node: &Value, path: &str) {
    for option in node["options"].as_array().into_iter().flatten() {
        let here = format!("{path} {}", option["name"].as_str().unwrap_or_default());
        if option["type"] == 3 {
            let limit = option["max_length"].as_u64();
            assert!(
                limit.is_some_and(|l| (1..=200).contains(&l)),
                "/{here} has no max_length: {option}"
            );
        }
        every_string_option_has_a_limit(option, &here);
    }
}

/// What a player reads never shows internal ids or numbers that mean nothing to them: a second
/// character is refused without ids, an out-of-range number is said to be out of range, and the
/// reactor who types a command is pointed at her buttons instead of "waiting for Aria".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_a_player_reads_makes_sense_to_them() {
    let (fake, _bot, table, _dir) = start("player-text").await;
    let alice = table.user("alice").to_string();
    let (prompt, _) = fight_until_prompt(&table, 600).await;
    let again = table
        .slash(
            "alice",
            "character",
            &["create"],
            json!({"name": "Bree", "race": "elf", "class": "rogue"}),
        )
        .await;
    assert_refused(&again, "already have a character");
    assert!(
        !text_of(&again).contains(&alice) && !text_of(&again).contains("campaign 1"),
        "{}",
        again.body
    );

    let huge = table
        .slash("owner", "gm", &["hp"], json!([{"name": "target", "type": 3, "value": "Aria"}, {"name": "delta", "type": 4, "value": -99_999_999_999_i64}]))
        .await;
    assert!(is_ephemeral(&huge), "{}", huge.body);
    assert!(
        !text_of(&huge).contains("whole number"),
        "it is a whole number, only too big: {}",
        huge.body
    );

    let mine = table.slash("alice", "attack", &[], json!({})).await;
    assert_refused(&mine, "buttons");
    assert!(!text_of(&mine).contains("Waiting for Aria"), "{}", mine.body);
    let theirs = table.slash("bob", "attack", &[], json!({})).await;
    assert!(is_ephemeral(&theirs), "{}", theirs.body);
    assert!(fake.message(prompt).is_some());
    assert_all_valid(&fake);
}
