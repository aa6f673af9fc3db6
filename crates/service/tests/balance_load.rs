//! `/homebrew balance` bounded, on every backend: a question stops at its time budget and a
//! monster nobody can hurt is a stalemate; six servers' questions at once leave ordinary
//! commands prompt and are each answered within a stated bound; one server's queue delays
//! another's question by one run at most; the cooldown and the queue's length refuse with
//! figures.

#[macro_use]
mod common;

use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};
use engine::balance::Verdict;
use service::cmd::balance::{BalanceAsk, BalanceLimits, DUELS};
use service::{DateTimeUtc, Db, Service, ServiceError};

on_every_backend! {
    a_monster_nobody_can_hurt_is_a_stalemate_answered_within_the_budget => crate::a_monster_nobody_can_hurt_is_a_stalemate_answered_within_the_budget;
    six_servers_questions_leave_ordinary_commands_prompt_and_are_answered_within_the_bound => crate::six_servers_questions_leave_ordinary_commands_prompt_and_are_answered_within_the_bound;
    one_servers_queue_delays_anothers_question_by_one_run_at_most => crate::one_servers_queue_delays_anothers_question_by_one_run_at_most;
    a_server_asking_within_its_cooldown_or_past_its_queue_is_refused => crate::a_server_asking_within_its_cooldown_or_past_its_queue_is_refused;
}

/// AC 40, immune to every damage type, and a claw that lands only on a natural 20 for 1.
const STONE: &str = r#"
[[monster]]
name = "Stone Warden"
tier = 1
xp = 10
hp = "10d10+100"
ac = 40
abilities = { str = 10, dex = 10, con = 10, int = 10, wis = 10, cha = 10 }
attacks = [{ name = "Tap", to_hit = -5, damage = "1d1", type = "bludgeoning" }]
immunities = ["acid", "bludgeoning", "cold", "fire", "force", "lightning", "necrotic", "piercing", "poison", "psychic", "radiant", "slashing", "thunder"]
"#;

const BUDGET: Duration = Duration::from_millis(800);
/// What a question may take beyond its budget: the duel running when it is spent, the
/// blocking thread's start, the campaign's content read.
const SLACK: Duration = Duration::from_millis(1_500);

fn now() -> DateTimeUtc {
    Utc.with_ymd_and_hms(2026, 12, 3, 12, 0, 0).unwrap()
}

fn stone() -> BalanceAsk {
    BalanceAsk {
        monster: "stone warden".into(),
        count: 1,
        party: "fighter:5".into(),
    }
}

fn limits(workers: usize) -> BalanceLimits {
    BalanceLimits {
        workers,
        budget: BUDGET,
        cooldown: Duration::ZERO,
        queue: 2,
    }
}

async fn server(svc: &Service, guild: &str) -> Result<i64, ServiceError> {
    let camp = svc.campaign_for(guild, "hall", now()).await?.id;
    svc.homebrew_import(camp, STONE, now()).await?;
    Ok(camp)
}

async fn a_monster_nobody_can_hurt_is_a_stalemate_answered_within_the_budget(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db).with_balance_limits(limits(1));
    let camp = server(&svc, "guild-a").await?;
    let asked = Instant::now();
    let answer = svc.homebrew_balance(camp, &stone()).await?;
    let took = asked.elapsed();
    let t = &answer.tally;
    assert!(took < BUDGET + SLACK, "answered in {took:?}");
    assert_eq!(t.verdict(), Verdict::Stalemate, "{t:?}");
    assert!(t.duels >= 1 && t.duels < DUELS, "cut short by the budget: {t:?}");
    assert!(answer.cut_short());
    assert_eq!((t.halted, t.party_wins, t.foe_wins), (t.duels, 0, 0), "{t:?}");
    assert_eq!(
        t.rounds.keys().copied().collect::<Vec<_>>(),
        [engine::combat::MAX_ROUNDS],
        "{t:?}"
    );
    Ok(())
}

async fn six_servers_questions_leave_ordinary_commands_prompt_and_are_answered_within_the_bound(
    db: Db,
) -> Result<(), ServiceError> {
    const WORKERS: usize = 2;
    let svc = Service::new(db).with_balance_limits(limits(WORKERS));
    let mut camps = Vec::new();
    for g in 0..6 {
        camps.push(server(&svc, &format!("guild-{g}")).await?);
    }
    let ordinary = svc.campaign_for("guild-ordinary", "hall", now()).await?.id;
    // Each question's bound: the runs before it (six on two workers: two rounds), its own run.
    let bound = (BUDGET + SLACK) * (6 / WORKERS as u32);
    let asked = Instant::now();
    let questions: Vec<_> = camps
        .iter()
        .map(|&camp| {
            let svc = svc.clone();
            tokio::spawn(async move {
                let answer = svc.homebrew_balance(camp, &stone()).await;
                (answer, asked.elapsed())
            })
        })
        .collect();
    // Ordinary commands meanwhile: a character created and its sheet read, one player after another.
    let mut slowest = Duration::ZERO;
    let mut served = 0;
    while !questions.iter().all(tokio::task::JoinHandle::is_finished) {
        let player = format!("player-{served}");
        let sent = Instant::now();
        svc.create_character(ordinary, &player, &format!("Hero {served}"), "human", "fighter", now())
            .await?;
        svc.sheet(ordinary, &player).await?;
        slowest = slowest.max(sent.elapsed());
        served += 1;
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut slowest_question = Duration::ZERO;
    for q in questions {
        let (answer, took) = q.await.expect("a question never panics");
        let answer = answer?;
        assert_eq!(answer.tally.verdict(), Verdict::Stalemate, "{:?}", answer.tally);
        assert!(took < bound, "a question answered in {took:?}, bound {bound:?}");
        slowest_question = slowest_question.max(took);
    }
    println!(
        "{served} ordinary commands, slowest {slowest:?}; slowest question {slowest_question:?} (bound {bound:?})"
    );
    assert!(served >= 5, "ordinary commands ran meanwhile: {served}");
    assert!(slowest < Duration::from_secs(1), "an ordinary command took {slowest:?}");
    Ok(())
}

async fn one_servers_queue_delays_anothers_question_by_one_run_at_most(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db).with_balance_limits(limits(1));
    let a = server(&svc, "guild-a").await?;
    let b = server(&svc, "guild-b").await?;
    let ask = |camp: i64| {
        let svc = svc.clone();
        tokio::spawn(async move { svc.homebrew_balance(camp, &stone()).await.map(|x| (x, Instant::now())) })
    };
    // A's first runs, its second and third wait; then B asks.
    let a1 = ask(a);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let a2 = ask(a);
    tokio::time::sleep(Duration::from_millis(50)).await;
    let a3 = ask(a);
    tokio::time::sleep(Duration::from_millis(50)).await;
    let b1 = ask(b);
    let (b1, b_done) = b1.await.unwrap()?;
    let (a1, _) = a1.await.unwrap()?;
    let (a2, _) = a2.await.unwrap()?;
    let (a3, a3_done) = a3.await.unwrap()?;
    assert_eq!(
        [a1.queued_behind, a2.queued_behind, a3.queued_behind, b1.queued_behind],
        [0, 0, 1, 1],
        "B waits for A's second question only"
    );
    assert!(b_done < a3_done, "B's question is answered before A's third");
    Ok(())
}

async fn a_server_asking_within_its_cooldown_or_past_its_queue_is_refused(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db).with_balance_limits(BalanceLimits {
        cooldown: Duration::from_mins(1),
        ..limits(1)
    });
    let a = server(&svc, "guild-a").await?;
    let b = server(&svc, "guild-b").await?;
    svc.homebrew_balance(a, &stone()).await?;
    let again = svc
        .homebrew_balance(a, &stone())
        .await
        .expect_err("within the cooldown");
    assert!(again.to_string().contains("ask again in"), "{again}");
    assert!(again.to_string().contains("one every 60s"), "{again}");
    // Another server is not held by A's cooldown.
    svc.homebrew_balance(b, &stone()).await?;

    // A queue of two: a third question waiting is refused.
    let svc = svc.with_balance_limits(limits(1));
    let spawn = |camp: i64| {
        let svc = svc.clone();
        tokio::spawn(async move { svc.homebrew_balance(camp, &stone()).await })
    };
    let running = spawn(a);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let waiting = [spawn(a), spawn(a)];
    tokio::time::sleep(Duration::from_millis(100)).await;
    let refused = svc.homebrew_balance(a, &stone()).await.expect_err("past the queue");
    assert!(
        refused.to_string().contains("already has 2 balance questions waiting"),
        "{refused}"
    );
    running.await.unwrap()?;
    for w in waiting {
        w.await.unwrap()?;
    }
    Ok(())
}
