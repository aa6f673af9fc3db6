//! Criterion: parse + roll + render of the expressions players type most, from a seeded `ChaCha8` stream like the service's.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The six expressions compared with Avrae's d20 (the same as `scripts/bench-dice`).
pub const EXPRESSIONS: [&str; 6] = ["1d20+5", "4d6kh3", "2d20kh1+7", "8d6", "1d20+1d4+3", "10d10kh5+2"];

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("dice");
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    for text in EXPRESSIONS {
        group.bench_function(text, |b| {
            b.iter(|| dice::roll(black_box(text), &mut |sides| rng.random_range(1..=sides)).unwrap());
        });
    }
    // The most a single expression can cost: 1,000 dice, each rerolled and shown.
    group.bench_function("500d10000ro<10000 (1,000 dice: the budget)", |b| {
        b.iter(|| dice::roll(black_box("500d10000ro<10000"), &mut |sides| rng.random_range(1..=sides)).unwrap());
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
