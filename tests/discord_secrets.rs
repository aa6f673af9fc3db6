//! Canary secrets never reach any output: a `DATABASE_URL` with `?password=` that fails at
//! start, `play --db` and `bench --db` URLs with `user:password@` that fail to connect, and
//! serenity's DEBUG logging of interactions (their tokens) and the bot token.

mod support;

use std::process::{Command, Stdio};

use serde_json::json;
use support::*;

/// Runs `gogobee args…` with `env` and returns everything it printed.
fn output_of(args: &[&str], env: &[(&str, &str)]) -> String {
    let dir = scratch("secrets");
    let mut command = Command::new(gogobee_bin());
    command
        .args(args)
        .current_dir(&dir)
        .env_remove("DATABASE_URL")
        .env_remove("RUST_LOG")
        .stdin(Stdio::null());
    for (key, value) in env {
        command.env(key, value);
    }
    let out = command.output().expect("running gogobee");
    assert!(!out.status.success(), "{args:?} should fail");
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn database_passwords_are_never_printed() {
    let canary = "CanaryPw-7f3a91";
    // A server that answers at once (PostgreSQL on loopback, as in CI: the role does not
    // exist), or nothing listening: either way the start fails.
    let url = format!("postgres://gogobee_canary@127.0.0.1:5432/test?sslmode=disable&password={canary}");
    let said = output_of(
        &["bot"],
        &[
            ("DISCORD_TOKEN", "Zm9v.canary.bot-token-1"),
            ("DATABASE_URL", &url),
            ("RUST_LOG", "debug"),
        ],
    );
    assert!(said.contains("error"), "it says why it stopped: {said}");
    assert!(!said.contains(canary), "the ?password= leaked: {said}");

    // A typo that leaves no `://`: the password is still found and hidden.
    for url in [
        "postgres//gogobee:CanaryPw-typo1@127.0.0.1:5432/test",
        "postgres:gogobee:CanaryPw-typo2@127.0.0.1:5432/test",
    ] {
        let said = output_of(
            &["bot"],
            &[("DISCORD_TOKEN", "Zm9v.canary.bot-token-1"), ("DATABASE_URL", url)],
        );
        assert!(said.contains("error"), "it says why it stopped: {said}");
        assert!(!said.contains("CanaryPw-typo"), "the password of {url} leaked: {said}");
    }

    let canary = "CanaryPw-29bd04";
    let url = format!("postgres://gogobee_canary:{canary}@127.0.0.1:5432/test");
    let said = output_of(&["play", "--db", &url], &[]);
    assert!(said.contains("error"), "{said}");
    assert!(!said.contains(canary), "play --db leaked it: {said}");
    let said = output_of(&["bench", "--db", &url, "--seconds", "1"], &[]);
    assert!(said.contains("error"), "{said}");
    assert!(!said.contains(canary), "bench --db leaked it: {said}");
}

/// At `RUST_LOG=debug` and below serenity logs requests and events, interaction tokens
/// included: none reaches the log, and neither does the bot token.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debug_logs_carry_no_interaction_token() {
    let fake = std::sync::Arc::new(fake_discord::FakeDiscord::start().await);
    let dir = scratch("debug-log");
    let bot = Bot::start_with(&fake, &dir, Some(fake.guild()), &[("RUST_LOG", "trace")]);
    assert!(
        fake.wait_for_commands(Some(fake.guild()), WAIT).await.is_ok(),
        "{}",
        bot.logs()
    );
    let table = Table::new(&fake, fake.guild(), fake.channel());
    let id = fake
        .send_slash_command(
            table.user("alice"),
            table.guild,
            table.channel,
            "roll",
            &[],
            &json!({"expression": "1d20"}),
        )
        .unwrap();
    table.answered(id).await;
    table.settle().await;
    let token = fake.interaction_payload(id).unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let logs = bot.logs();
    assert!(
        logs.contains("TRACE"),
        "trace logging is on: {}",
        &logs[..logs.len().min(2000)]
    );
    assert!(logs.contains("InteractionResponse"), "serenity logged its requests");
    assert!(!logs.contains(&token), "an interaction token leaked");
    assert!(!logs.contains(fake.token()), "the bot token leaked");
}
