//! The campaign's turn timer end to end: the real `gogobee bot` against the fake Discord. With a
//! one-second turn timeout (set in the database: `/campaign turntimeout` refuses less than 30 s),
//! a player who never answers loses turn after turn — TwinBee says so each time and the fight
//! goes on without them. Every body is checked against Discord's spec.

mod support;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::*;

/// TwinBee's lines for a turn that ran out (`TurnTimedOut` in `flavor/twinbee_combat.toml`).
const TIMED_OUT: [&str; 4] = ["Time's up", "hesitates too long", "No word from", "the chance is gone"];

/// A message's words: content and each embed's description.
fn words(message: &Value) -> String {
    let mut text = message["content"].as_str().unwrap_or_default().to_owned();
    for embed in message["embeds"].as_array().into_iter().flatten() {
        text.push('\n');
        text.push_str(embed["description"].as_str().unwrap_or_default());
    }
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_player_loses_turn_after_turn_and_the_fight_goes_on() {
    let (fake, bot, table, dir) = start("turn-timer").await;
    let short = table
        .slash("owner", "campaign", &["turntimeout"], json!({"seconds": 1}))
        .await;
    assert_refused(&short, "between 30 seconds and 86400");
    // Reaction prompts pass quickly too, so nothing else holds the fight.
    table
        .slash("owner", "campaign", &["timeout"], json!({"seconds": 1}))
        .await;
    table.aria_the_fighter(12).await;
    set_turn_timeout_in_db(&dir, 1).await;
    table
        .slash("owner", "gm", &["spawn"], json!({"monster": "goblin"}))
        .await;
    table.slash("alice", "combat", &["start"], json!({})).await;

    // Alice never answers: two of her turns run out, each said, the fight going on between
    // (a second turn of hers came round after the first ran out).
    let deadline = Instant::now() + WAIT * 2;
    let said = loop {
        let said: Vec<Value> = table
            .messages()
            .into_iter()
            .filter(|m| TIMED_OUT.iter().any(|p| words(m).contains(p)))
            .collect();
        if said.len() >= 2 {
            break said;
        }
        assert!(Instant::now() < deadline, "turns did not time out:\n{}", bot.logs());
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    for message in &said {
        assert!(
            words(message).contains("Aria"),
            "TwinBee names whose turn ran out: {message}"
        );
    }
    table.settle().await;
    assert_all_valid(&fake);
}
