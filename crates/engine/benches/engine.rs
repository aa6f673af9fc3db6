//! Engine benchmarks: dice rolls, one Attack command through `apply`, and whole AI fights.
//! Run with `cargo bench -p engine --bench engine`; figures go in BENCHMARKS.md. After criterion's
//! own report, each benchmark's median is printed as a multiple of the median d20 roll of the same
//! run (times move with the machine's load; the ratio much less).

mod fixtures;

use criterion::{BatchSize, Criterion, Throughput, criterion_group};
use engine::dice::RollMode;
use engine::{Actor, CombatantId, Command, Dice, Event, apply};
use fixtures::{ai_fight, epoch, fighter_turn_among};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::SystemTime;

fn dice(c: &mut Criterion) {
    let mut group = c.benchmark_group("dice");
    group.throughput(Throughput::Elements(1));
    let mut d = Dice::seeded(1);
    group.bench_function("d20", |b| b.iter(|| black_box(d.die(20))));
    group.bench_function("d20_advantage", |b| b.iter(|| black_box(d.d20(RollMode::Advantage))));
    group.bench_function("8d6", |b| b.iter(|| black_box(d.roll(8, 6))));
    group.finish();
}

fn attack(c: &mut Criterion) {
    let mut group = c.benchmark_group("attack");
    group.throughput(Throughput::Elements(1));
    let start = fighter_turn_among(2);
    let mut d = Dice::seeded(2);
    group.bench_function("apply_attack_command", |b| {
        b.iter_batched_ref(
            || start.clone(),
            |combat| {
                let events = apply(
                    combat,
                    Actor::Combatant(CombatantId(0)),
                    Command::Attack { target: None },
                    &mut d,
                    epoch(),
                );
                black_box(events.expect("legal attack"))
            },
            BatchSize::SmallInput,
        );
    });
    // The cost of one attack should not grow with the size of the fight.
    for combatants in [2, 10, 40] {
        let start = fighter_turn_among(combatants);
        group.bench_function(format!("apply_attack_among_{combatants}"), |b| {
            b.iter_batched_ref(
                || start.clone(),
                |combat| black_box(fixtures::attack(combat, &mut d)),
                BatchSize::SmallInput,
            );
        });
    }
    group.finish();
}

/// The fight's name carries its number of turns (the throughput).
fn fight_name() -> String {
    let (_, events) = ai_fight(7);
    let turns = events.iter().filter(|e| matches!(e, Event::TurnStarted { .. })).count();
    format!("fighter5_vs_3_goblins_{turns}_turns")
}

fn fights(c: &mut Criterion) {
    let mut group = c.benchmark_group("fight");
    let (_, events) = ai_fight(7);
    let turns = events.iter().filter(|e| matches!(e, Event::TurnStarted { .. })).count() as u64;
    group.throughput(Throughput::Elements(turns));
    group.bench_function(fight_name(), |b| {
        b.iter(|| black_box(ai_fight(7)));
    });
    group.finish();
}

criterion_group!(benches, dice, attack, fights);

/// Where criterion keeps its estimates: `$CRITERION_HOME`, else the target directory's `criterion`.
fn criterion_home() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return home.into();
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"),
        PathBuf::from,
    );
    target.join("criterion")
}

/// The median (ns) criterion estimated for `group/bench` in this run (`None` when it did not run
/// now: a filtered run leaves older estimates behind).
fn median_ns(group: &str, bench: &str, since: SystemTime) -> Option<f64> {
    let path = criterion_home().join(group).join(bench).join("new/estimates.json");
    let fresh = std::fs::metadata(&path).and_then(|m| m.modified()).ok()? >= since;
    if !fresh {
        return None;
    }
    let estimates: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).ok()?).ok()?;
    estimates["median"]["point_estimate"].as_f64()
}

/// Prints each benchmark's median as a multiple of the d20 roll's median of the same run.
fn ratios(since: SystemTime) {
    let Some(d20) = median_ns("dice", "d20", since) else {
        println!("(ratios to one d20 roll: run the dice/d20 benchmark in the same run to get them)");
        return;
    };
    println!("\nmedians as multiples of one d20 roll ({d20:.2} ns) in this run:");
    let fight = fight_name();
    let benches = [
        ("dice", "d20_advantage"),
        ("dice", "8d6"),
        ("attack", "apply_attack_command"),
        ("attack", "apply_attack_among_2"),
        ("attack", "apply_attack_among_10"),
        ("attack", "apply_attack_among_40"),
        ("fight", fight.as_str()),
    ];
    for (group, bench) in benches {
        if let Some(ns) = median_ns(group, bench, since) {
            println!("  {group}/{bench}: {ns:.1} ns = {:.0} d20 rolls", ns / d20);
        }
    }
    if let (Some(two), Some(forty)) = (
        median_ns("attack", "apply_attack_among_2", since),
        median_ns("attack", "apply_attack_among_40", since),
    ) {
        println!("  an attack among 40 ÷ among 2: {:.2}×", forty / two);
    }
}

fn main() {
    let since = SystemTime::now();
    benches();
    Criterion::default().configure_from_args().final_summary();
    ratios(since);
}
