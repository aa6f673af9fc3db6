//! `/homebrew balance`'s cost: 2,000 seeded duels of four level-20 characters (fighter, rogue,
//! mage, cleric) against a challenge-20 monster (the Pit Fiend of
//! `examples/homebrew/srd-legends.toml`), under each ruleset, against a baseline measured in the
//! same run — 2,000 duels of a level-1 fighter against a goblin.
//! Run with `cargo bench -p engine --bench balance`; figures go in BENCHMARKS.md.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use engine::Ruleset;
use engine::Side;
use engine::balance::{self, Matchup};
use engine::content::data::{BUILTIN, Content, ContentFile};

const DUELS: u32 = 2_000;

fn matchup(content: &Content, party: &str, foes: &str, ruleset: Ruleset) -> Matchup {
    Matchup {
        party: balance::side(party, content, Side::Party, "A").expect("a party"),
        foes: balance::side(foes, content, Side::Enemies, "B").expect("foes"),
        ruleset,
    }
}

fn duels(c: &mut Criterion) {
    let mut files = BUILTIN.to_vec();
    files.push(ContentFile {
        path: "srd-legends.toml",
        text: include_str!("../../../examples/homebrew/srd-legends.toml"),
    });
    let content = Content::load(&files).expect("the example loads");
    let mut group = c.benchmark_group("balance");
    group.sample_size(10);
    let baseline = matchup(&content, "fighter:1", "goblin:1", Ruleset::Gogobee);
    group.bench_function("2,000 duels: fighter 1 vs goblin (baseline)", |b| {
        b.iter(|| black_box(balance::duel(black_box(&baseline), DUELS, 1, |_| {})));
    });
    for ruleset in Ruleset::ALL {
        let m = matchup(
            &content,
            "fighter:20,rogue:20,mage:20,cleric:20",
            "pit fiend:1",
            ruleset,
        );
        let tally = balance::duel(&m, 200, 1, |_| {});
        eprintln!(
            "{}: party wins {:.1} %, {:.1} rounds",
            ruleset.name(),
            100.0 * tally.win_rate(),
            tally.mean_rounds()
        );
        group.bench_function(
            format!("2,000 duels: four level-20 vs Pit Fiend ({})", ruleset.name()),
            |b| {
                b.iter(|| black_box(balance::duel(black_box(&m), DUELS, 1, |_| {})));
            },
        );
    }
    group.finish();
}

criterion_group!(benches, duels);
criterion_main!(benches);
