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
    parts[index] = value.to_owned();
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
