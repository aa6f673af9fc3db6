//! The bot against a Discord that goes away mid-run (the fake Discord stopped): `/healthz` and
//! `gogobee_gateway_connected` say so within seconds, SIGTERM still stops the bot within a few
//! seconds, and the watchdog stops it by itself (exit code 1, for the platform to restart it)
//! once the gateway has been down longer than `GATEWAY_DOWN_LIMIT`.

mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use fake_discord::FakeDiscord;
use support::*;

/// Starts the bot with `env` and waits until `/healthz` says it is connected.
async fn connected(name: &str, env: &[(&str, &str)]) -> (Arc<FakeDiscord>, Bot) {
    let fake = Arc::new(FakeDiscord::start().await);
    let dir = scratch(name);
    let bot = Bot::start_with(&fake, &dir, Some(fake.guild()), env);
    let registered = fake.wait_for_commands(Some(fake.guild()), WAIT).await;
    assert!(registered.is_ok(), "not registered:\n{}", bot.logs());
    let deadline = Instant::now() + WAIT;
    while !ops_get(&bot.ops, "/healthz").0.contains("200") {
        assert!(Instant::now() < deadline, "never healthy:\n{}", bot.logs());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    (fake, bot)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_and_the_gateway_metric_follow_a_lost_gateway_and_sigterm_stops_the_bot_while_it_is_down() {
    let (fake, bot) = connected("gateway-lost", &[("GATEWAY_DOWN_LIMIT", "0")]).await;
    let (_, metrics) = ops_get(&bot.ops, "/metrics");
    assert!(
        metrics.contains("gogobee_gateway_connected{shard=\"0\"} 1"),
        "{metrics}"
    );

    fake.stop();
    let lost = Instant::now();
    let (status, body) = loop {
        let (status, body) = ops_get(&bot.ops, "/healthz");
        if !status.contains("200") {
            break (status, body);
        }
        assert!(
            lost.elapsed() < Duration::from_secs(10),
            "still healthy:\n{body}\n{}",
            bot.logs()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let noticed = lost.elapsed();
    assert!(status.contains("503"), "{status}");
    assert!(body.contains("gateway shard 0: down"), "{body}");
    let (_, metrics) = ops_get(&bot.ops, "/metrics");
    assert!(
        metrics.contains("gogobee_gateway_connected{shard=\"0\"} 0"),
        "{metrics}"
    );
    // Still down a while later: no false recovery.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert!(ops_get(&bot.ops, "/healthz").0.contains("503"));

    let asked = Instant::now();
    let status = bot.terminate();
    let stopped = asked.elapsed();
    println!("gateway lost: /healthz down after {noticed:?}; SIGTERM while down: stopped in {stopped:?} ({status})");
    assert!(status.success(), "{status}");
    assert!(stopped < Duration::from_secs(6), "SIGTERM took {stopped:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_watchdog_stops_the_bot_once_the_gateway_has_been_down_past_its_limit() {
    let (fake, mut bot) = connected("gateway-watchdog", &[("GATEWAY_DOWN_LIMIT", "3s")]).await;
    fake.stop();
    let lost = Instant::now();
    let status = loop {
        if let Some(status) = bot.child.try_wait().expect("waiting for the bot") {
            break status;
        }
        assert!(
            lost.elapsed() < Duration::from_secs(20),
            "still running:\n{}",
            bot.logs()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let took = lost.elapsed();
    println!("watchdog: exited {status} {took:?} after the gateway was lost (limit 3 s)");
    assert_eq!(status.code(), Some(1), "{}", bot.logs());
    assert!(
        took >= Duration::from_secs(3) && took < Duration::from_secs(12),
        "{took:?}"
    );
    assert!(bot.logs().contains("GATEWAY_DOWN_LIMIT 3 s"), "{}", bot.logs());
}
