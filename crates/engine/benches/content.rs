//! Content benchmarks: loading and validating the built-in content files against parsing the
//! same TOML alone, and sharing a monster's definition (an `Arc` clone) against copying it.
//! Run with `cargo bench -p engine --bench content`; figures go in BENCHMARKS.md.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use engine::content::data::{BUILTIN, Content, MonsterDef};

fn load(c: &mut Criterion) {
    let mut group = c.benchmark_group("content");
    group.bench_function("toml parse only (8 files)", |b| {
        b.iter(|| {
            for file in BUILTIN {
                black_box(toml::from_str::<toml::Table>(black_box(file.text)).expect("valid TOML"));
            }
        });
    });
    group.bench_function("Content::builtin (parse + validate)", |b| {
        b.iter(|| black_box(Content::builtin().expect("the built-in content loads")));
    });
    group.finish();
}

fn share(c: &mut Criterion) {
    let content = Content::builtin().expect("the built-in content loads");
    let dragon: Arc<MonsterDef> = Arc::clone(content.monsters.get("Young Red Dragon").expect("a dragon"));
    let mut group = c.benchmark_group("monster definition");
    group.bench_function("Arc clone", |b| b.iter(|| black_box(Arc::clone(black_box(&dragon)))));
    group.bench_function("deep clone", |b| {
        b.iter(|| black_box(MonsterDef::clone(black_box(&dragon))));
    });
    group.finish();
}

criterion_group!(benches, load, share);
criterion_main!(benches);
