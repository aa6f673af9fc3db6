//! Engine benchmarks: dice rolls, one Attack command through `apply`, and whole AI fights.
//! Run with `cargo bench -p engine`; figures go in BENCHMARKS.md.

use chrono::DateTime;
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use engine::content::{Behaviour, Class, Monster, Race};
use engine::dice::RollMode;
use engine::{
    Actor, Band, Combat, Combatant, CombatantId, Command, Controller, Dice, Event, Terrain, TurnResources, apply,
};
use std::hint::black_box;

fn now() -> chrono::DateTime<chrono::Utc> {
    DateTime::from_timestamp(0, 0).expect("epoch")
}

/// A level-1 fighter in melee with a goblin, at the start of the fighter's turn.
fn fighter_turn() -> Combat {
    fighter_turn_among(2)
}

/// The same, with `combatants − 2` more goblins standing by at the default distance.
fn fighter_turn_among(combatants: usize) -> Combat {
    let fighter = Combatant::character("Bo", Race::Human, Class::Fighter, 1, Controller::Player("bo".into()));
    let goblins = (1..combatants).map(|i| {
        let mut goblin = Combatant::monster(&format!("Goblin {i}"), Monster::Goblin);
        goblin.hp = 1_000_000;
        goblin.max_hp = 1_000_000;
        goblin
    });
    let mut combat = Combat::new(std::iter::once(fighter).chain(goblins).collect(), Terrain::default());
    combat.set_band(CombatantId(0), CombatantId(1), Band::Melee);
    combat.started = true;
    combat.round = 1;
    combat.order = (0..combatants as u32).map(CombatantId).collect();
    combat.get_mut(CombatantId(0)).resources = TurnResources::fresh(30);
    combat
}

fn ai_fight(seed: u64) -> (Combat, Vec<Event>) {
    let fighter = Combatant::character(
        "Bo",
        Race::Human,
        Class::Fighter,
        5,
        Controller::Ai(Behaviour::Aggressive),
    );
    let goblins = (1..=3).map(|i| Combatant::monster(&format!("Goblin {i}"), Monster::Goblin));
    let mut combat = Combat::new(std::iter::once(fighter).chain(goblins).collect(), Terrain::default());
    let mut dice = Dice::seeded(seed);
    let events = apply(&mut combat, Actor::Director, Command::Begin, &mut dice, now()).expect("a fight begins");
    (combat, events)
}

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
    let start = fighter_turn();
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
                    now(),
                );
                black_box(events.expect("legal attack"))
            },
            BatchSize::SmallInput,
        );
    });
    // The cost of one attack should not grow with the size of the fight (issue 13).
    for combatants in [2, 10, 40] {
        let start = fighter_turn_among(combatants);
        group.bench_function(format!("apply_attack_among_{combatants}"), |b| {
            b.iter_batched_ref(
                || start.clone(),
                |combat| {
                    let events = apply(
                        combat,
                        Actor::Combatant(CombatantId(0)),
                        Command::Attack {
                            target: Some(CombatantId(1)),
                        },
                        &mut d,
                        now(),
                    );
                    black_box(events.expect("legal attack"))
                },
                BatchSize::SmallInput,
            );
        });
    }
    group.finish();
}

fn fights(c: &mut Criterion) {
    let mut group = c.benchmark_group("fight");
    let (_, events) = ai_fight(7);
    let turns = events.iter().filter(|e| matches!(e, Event::TurnStarted { .. })).count() as u64;
    group.throughput(Throughput::Elements(turns));
    group.bench_function(format!("fighter5_vs_3_goblins_{turns}_turns"), |b| {
        b.iter(|| black_box(ai_fight(7)));
    });
    group.finish();
}

criterion_group!(benches, dice, attack, fights);
criterion_main!(benches);
