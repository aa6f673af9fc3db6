//! Death and the Hospital end to end (seed 000 §8): the real `gogobee bot` against the fake
//! Discord. Aria dies, Thom Krooke admits her (`/hospital bill`), she pays (`/hospital pay`) and
//! is refused an expedition during her two-hour rest (`/hospital status`); the bot is stopped and
//! comes back with its clock two hours on (`GOGOBEE_CLOCK_OFFSET`): Thom tells her in a DM that
//! she is fit, and TwinBee welcomes her back on her next expedition. Every body is checked
//! against Discord's OpenAPI spec.

mod support;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::*;

/// A two-hour rest seconds after paying, on the real clock: "1 hour 59 minutes" to go.
const LEFT: &str = "1 hour 5";
/// Thom's rest-over lines (`RestOver` in `flavor/thom_krooke.toml`), one phrase of each.
const REST_OVER: [&str; 3] = ["You're fit", "That's your rest done", "You're mended"];
/// TwinBee's return lines (`ExpeditionResume` in `flavor/twinbee_expedition.toml`).
const WELCOME_BACK: [&str; 3] = ["Welcome back", "rested and mended", "terrible patient"];

/// A message's words: content, and each embed's title, description, fields and footer.
fn words(message: &Value) -> String {
    let mut text = message["content"].as_str().unwrap_or_default().to_owned();
    for embed in message["embeds"].as_array().into_iter().flatten() {
        for part in [&embed["title"], &embed["description"], &embed["footer"]["text"]] {
            text.push('\n');
            text.push_str(part.as_str().unwrap_or_default());
        }
        for field in embed["fields"].as_array().into_iter().flatten() {
            text.push('\n');
            text.push_str(field["name"].as_str().unwrap_or_default());
            text.push('\n');
            text.push_str(field["value"].as_str().unwrap_or_default());
        }
    }
    text
}

fn says_any(text: &str, phrases: &[&str]) -> bool {
    phrases.iter().any(|p| text.contains(p))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_death_the_hospital_and_a_rest_that_ends_across_a_restart() {
    let (fake, bot, table, dir) = start("hospital").await;
    let alice = table.user("alice");
    let fighter = |name: &str, race: &str| json!({"name": name, "race": race, "class": "fighter"});
    table
        .slash("alice", "character", &["create"], fighter("Aria", "human"))
        .await;
    table
        .slash("bob", "character", &["create"], fighter("Bram", "dwarf"))
        .await;
    table
        .slash("owner", "gm", &["spawn"], json!({"monster": "giant rat", "count": 1}))
        .await;
    table.slash("alice", "combat", &["join"], json!({})).await;
    table.slash("bob", "combat", &["join"], json!({})).await;
    table.slash("alice", "combat", &["start"], json!({})).await;

    // Down, then three blows while downed: three failed death saves, whatever the dice say.
    let hp = |delta: i32| json!({"target": "Aria", "delta": delta});
    table.slash("owner", "gm", &["hp"], hp(-100)).await;
    table.slash("owner", "gm", &["hp"], hp(-1)).await;
    table.slash("owner", "gm", &["hp"], hp(-1)).await;
    assert!(!table.messages().iter().any(|m| m.to_string().contains("☠ dead")));
    let killing = table.slash("owner", "gm", &["hp"], hp(-1)).await;
    assert!(killing.body.to_string().contains("~~Aria~~"), "{}", killing.body);
    assert!(killing.body.to_string().contains("☠ dead"), "{}", killing.body);
    // Thom's admission, in his own embed (a follow-up): level 1's 20 coins, capped at 40 % of
    // her 20 = 8.
    let admitted = |m: &Value| words(m).contains("\"Again,\" Thom says, not unkindly.");
    fake.wait_for_message(table.channel, WAIT, admitted).await.unwrap();
    let admission: Vec<String> = table.messages().iter().filter(|m| admitted(m)).map(words).collect();
    assert_eq!(admission.len(), 1, "one admission embed");
    assert!(
        admission[0].contains("**Aria**") && admission[0].contains("8 coins"),
        "{}",
        admission[0]
    );
    assert!(admission[0].ends_with("Thom Krooke"), "{}", admission[0]);

    assert_refused(&table.slash("alice", "attack", &[], json!({})).await, "no further part");
    table.slash("owner", "gm", &["end"], json!({})).await;

    let ledger = table.slash("alice", "hospital", &["bill"], json!({})).await;
    assert!(!is_ephemeral(&ledger));
    assert!(text_of(&ledger).contains("8 coins"), "{}", text_of(&ledger));
    let paid = table.slash("alice", "hospital", &["pay"], json!({})).await;
    let paid_text = text_of(&paid);
    assert!(
        paid_text.contains("8 coins") && paid_text.contains("2 hours"),
        "{paid_text}"
    );
    assert_refused(
        &table
            .slash("alice", "expedition", &["start"], json!({"zone": "forest"}))
            .await,
        LEFT,
    );
    let status = table.slash("alice", "hospital", &["status"], json!({})).await;
    assert!(text_of(&status).contains(LEFT), "{}", text_of(&status));
    let sheet = table.slash("alice", "character", &["sheet"], json!({})).await;
    assert!(
        sheet.body.to_string().contains("0/12"),
        "resting at 0 HP: {}",
        sheet.body
    );
    assert!(fake.dm_channel(alice).is_none(), "no DM before the rest is over");

    // Stopped mid-rest; back with the clock two hours on: the rest is over at start.
    let status = bot.terminate();
    assert!(status.success(), "SIGTERM is a clean shutdown: {status:?}");
    let bot = Bot::start_with(&fake, &dir, Some(fake.guild()), &[("GOGOBEE_CLOCK_OFFSET", "2h")]);
    let deadline = Instant::now() + WAIT;
    let dm = loop {
        if let Some(dm) = fake.dm_channel(alice) {
            break dm;
        }
        assert!(Instant::now() < deadline, "no DM after the restart:\n{}", bot.logs());
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let told = fake.wait_for_message(dm, WAIT, |_| true).await.unwrap();
    let told = words(&told);
    assert!(says_any(&told, &REST_OVER), "{told}");
    assert!(told.contains("**Aria**") && told.ends_with("Thom Krooke"), "{told}");
    fake.wait_for_ready(WAIT).await.unwrap();

    let sheet = table.slash("alice", "character", &["sheet"], json!({})).await;
    assert!(sheet.body.to_string().contains("12/12"), "HP restored: {}", sheet.body);
    let ledger = table.slash("alice", "hospital", &["bill"], json!({})).await;
    assert!(!text_of(&ledger).contains("8 coins"), "paid: {}", text_of(&ledger));
    let out = table
        .slash("alice", "expedition", &["start"], json!({"zone": "forest"}))
        .await;
    let out_text = text_of(&out);
    assert!(!is_ephemeral(&out), "{out_text}");
    assert!(
        says_any(&out_text, &WELCOME_BACK) && out_text.contains("**Aria**"),
        "TwinBee's return narration: {out_text}"
    );

    // Exactly once: one DM, and no copy in the channel.
    table.settle().await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(fake.messages_in(dm).len(), 1, "one rest-over DM");
    assert!(
        !table.messages().iter().any(|m| says_any(&words(m), &REST_OVER)),
        "the DM reached her: no fallback in the channel"
    );
    assert_all_valid(&fake);
    drop(bot);
    let _ = std::fs::remove_dir_all(dir);
}
