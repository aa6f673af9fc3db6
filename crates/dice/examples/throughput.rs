//! Rolls each expression given on the command line for about a second (parse + roll + render, seeded `ChaCha8` dice) and prints `expression<TAB>ns per roll`; `scripts/bench-dice` runs it beside Avrae's Python d20.

use std::hint::black_box;
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() {
    let seconds: f64 = std::env::var("BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    for text in std::env::args().skip(1) {
        let budget = Duration::from_secs_f64(seconds);
        let (mut rolls, started) = (0u64, Instant::now());
        while started.elapsed() < budget {
            for _ in 0..1000 {
                black_box(dice::roll(black_box(&text), &mut |sides| rng.random_range(1..=sides)).expect("rolls"));
            }
            rolls += 1000;
        }
        println!("{text}\t{:.1}", started.elapsed().as_nanos() as f64 / rolls as f64);
    }
}
