//! The tick timeline in Discord (ticks are announced in batches, one message edited,
//! not one message per tick): the real bot against the fake Discord. However many ticks a
//! command runs, it answers with one narration message and edits the one running timeline
//! message in place.

mod support;

use fake_discord::MessageId;
use serde_json::{Value, json};
use support::*;

/// The tick a timeline message shows (its "Timeline — tick N" field).
fn timeline_tick(message: &Value) -> Option<u64> {
    message["embeds"][0]["fields"]
        .as_array()?
        .iter()
        .find_map(|f| f["name"].as_str()?.strip_prefix("Timeline — tick ")?.parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_of_ticks_is_one_narration_message_and_one_edit_of_the_running_timeline() {
    let (fake, bot, table, _dir) = start("ticks").await;
    // The choice "ticks" (gogobee, tdgs, ctb, ticks).
    table
        .slash("owner", "campaign", &["rules"], json!({"ruleset": 3}))
        .await;
    table.aria_the_fighter(8).await;
    table
        .slash("owner", "gm", &["spawn"], json!({"monster": "goblin", "count": 2}))
        .await;
    table.slash("alice", "combat", &["start"], json!({})).await;
    let timelines: Vec<Value> = table
        .messages()
        .into_iter()
        .filter(|m| timeline_tick(m).is_some())
        .collect();
    assert_eq!(timelines.len(), 1, "one timeline message: {:#?}", table.messages());
    let timeline: MessageId = message_id(&timelines[0]);
    let edit_path = format!("/channels/{}/messages/{}", table.channel, timeline);

    let mut advanced = 0;
    for step in 0..8 {
        let (requests, messages) = (fake.requests().len(), table.messages().len());
        let before = timeline_tick(&fake.message(timeline).unwrap()).unwrap();
        if let Some((prompt, buttons)) = table.prompt_for("alice") {
            let pass = buttons.iter().find(|(label, _)| label == "Pass").unwrap().1.clone();
            table.press("alice", prompt, &pass, true).await;
        } else {
            let answer = table.slash("alice", "dodge", &[], json!({})).await;
            assert!(!is_ephemeral(&answer), "step {step}: {}", answer.body);
        }
        let after = timeline_tick(&fake.message(timeline).unwrap()).unwrap();
        let sent = &fake.requests()[requests..];
        let edits = sent
            .iter()
            .filter(|r| r.method == "PATCH" && r.path.ends_with(&edit_path))
            .count();
        assert_eq!(
            edits,
            1,
            "step {step}: the timeline is edited once: {sent:#?}\n{}",
            bot.logs()
        );
        let new: Vec<Value> = table.messages()[messages..].to_vec();
        assert!(
            new.iter().all(|m| timeline_tick(m).is_none()),
            "step {step}: never a second timeline message: {new:#?}"
        );
        // The interaction's callback, the narration (a follow-up after a button press), and
        // a reaction prompt at most — whatever the number of ticks.
        let posted = sent.iter().filter(|r| r.method == "POST").count();
        assert!(
            posted <= 3,
            "step {step}: ticks {before}→{after} took {posted} posts: {sent:#?}"
        );
        advanced = advanced.max(after - before);
        if table.any_title_starts("Victory") || table.any_title_starts("Defeat") {
            break;
        }
    }
    assert!(advanced > 1, "some command ran several ticks");
    assert_all_valid(&fake);
}
