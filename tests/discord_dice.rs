//! `/roll` end to end through the real bot: the three expressions that took the bot down under
//! tyche (`1d0x`, `1d0rr=0`, a 100-character `255d255rr<255+…`) are refused privately within
//! Discord's deadline, six of them at once leave another player's `/character sheet` on time,
//! and a roll shows its dice as players expect.

mod support;

use serde_json::json;
use support::*;

/// The 100-character expression that took ≈ 0.7 s of CPU under tyche.
fn heavy() -> String {
    let text = ["255d255rr<255"; 7].join("+") + "+12";
    assert_eq!(text.len(), 100);
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_expressions_that_took_the_bot_down_are_refused_on_time() {
    let (fake, bot, table, _dir) = start("dice").await;
    let roll = |expression: String| json!({ "expression": expression });

    // 1d0x exploded forever (≈ 330 MB/s); 1d0rr=0 rerolled forever holding the stream's lock.
    for crash in ["1d0x", "1d0rr=0"] {
        let answer = table.slash("alice", "roll", &[], roll(crash.into())).await;
        assert_refused(&answer, "a die has 1 to 10,000 sides, not 0");
    }
    let answer = table.slash("alice", "roll", &[], roll(heavy())).await;
    assert_refused(&answer, "it rolls 1,020 dice; the most is 1,000");
    // Valid and heavy: refused at the dice budget, half-way through rolling.
    let answer = table.slash("alice", "roll", &[], roll("255d255rr<255".into())).await;
    assert_refused(&answer, "its rerolls and explosions went past 1,000 dice");

    // Six heavy rolls at once, then a sheet: every answer is within Discord's 3 s (checked by
    // `answered`), the sheet included.
    table.aria_the_fighter(3).await;
    let mut sent = Vec::new();
    for _ in 0..6 {
        for expression in [heavy(), "255d255rr<255".to_owned()] {
            sent.push(
                fake.send_slash_command(
                    table.user("bob"),
                    table.guild,
                    table.channel,
                    "roll",
                    &[],
                    &roll(expression),
                )
                .expect("sent"),
            );
        }
    }
    let sheet = fake
        .send_slash_command(
            table.user("alice"),
            table.guild,
            table.channel,
            "character",
            &["sheet"],
            &json!({}),
        )
        .expect("sent");
    for id in sent {
        assert_refused(&table.answered(id).await, "dice");
    }
    let sheet = table.answered(sheet).await;
    assert!(text_of(&sheet).contains("Aria"), "{}", text_of(&sheet));

    // The bot still rolls, in public, each die shown and the total bold.
    let answer = table
        .slash("carol", "roll", &[], roll("4d6kh3 + 2 [str] to see".into()))
        .await;
    assert!(!is_ephemeral(&answer), "{}", answer.body);
    let text = text_of(&answer);
    assert!(text.contains("🎲 to see: 4d6kh3 + 2 [str]"), "{text}");
    let detail = text.lines().last().unwrap_or_default();
    assert!(detail.starts_with("4d6kh3 ("), "{text}");
    assert_eq!(detail.matches("~~").count(), 2, "one die struck through: {text}");
    assert!(detail.contains(") + 2 [str] = **"), "{text}");
    let total: i64 = detail
        .rsplit("**")
        .nth(1)
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("a bold total: {text}"));
    assert!((5..=20).contains(&total), "{text}");
    assert_all_valid(&fake);
    drop(bot);
}
