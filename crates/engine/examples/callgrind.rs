//! A driver for instruction counts under callgrind, which repeat exactly on a busy machine
//! (criterion's times do not). BENCHMARKS.md reads `engine::resolve::apply`'s inclusive count
//! divided by its calls, against one d20 roll's (`baseline_d20`, called 1,000 times):
//!
//! ```sh
//! cargo build --release -p engine --example callgrind
//! valgrind --tool=callgrind --callgrind-out-file=cg.out target/release/examples/callgrind attack 40 1000
//! callgrind_annotate --inclusive=yes cg.out | grep -E 'resolve::apply \[|baseline_d20 \('
//! ```
//!
//! `attack N K`: K Attack commands through `apply`, each on a fresh copy of a fight of N
//! combatants (a fighter in melee with the first of N − 1 goblins). `fight K`: K whole AI fights,
//! a level-5 fighter against three goblins. Both also roll the baseline, 1,000 d20s.

#[path = "../benches/fixtures/mod.rs"]
mod fixtures;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

/// One d20 roll, the unit the figures are counted in: what `Dice` does for one (a `ChaCha8`
/// stream, a uniform 1..=20), compiled here, in this file, so that the unit is the same code
/// whatever the engine's own inlining makes of `Dice::d20` (which moved 46 ↔ 71 instructions
/// between two builds of the same dice code); its own function, so callgrind counts it apart.
#[inline(never)]
fn baseline_d20(rng: &mut ChaCha8Rng) -> u32 {
    rng.random_range(1..=20)
}

/// The baseline: 1,000 d20 rolls in a row (a roll's share of the stream's refills included, as
/// in criterion's `dice/d20`).
fn d20_baseline() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..1000 {
        black_box(baseline_d20(&mut rng));
    }
}

fn attacks(combatants: usize, times: usize) {
    let start = fixtures::fighter_turn_among(combatants);
    let mut dice = engine::Dice::seeded(2);
    for _ in 0..times {
        let mut combat = start.clone();
        black_box(fixtures::attack(&mut combat, &mut dice));
    }
}

fn fights(times: usize) {
    for _ in 0..times {
        black_box(fixtures::ai_fight(7));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: usize| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    match args.first().map(String::as_str) {
        Some("attack") => attacks(number(1, 2), number(2, 1000)),
        Some("fight") => fights(number(1, 100)),
        _ => {
            eprintln!("usage: callgrind attack COMBATANTS TIMES | callgrind fight TIMES");
            return;
        }
    }
    d20_baseline();
}
