//! Content benchmarks: loading and validating the built-in content files — and ten times their
//! spells, items, statuses and monsters — against parsing the same TOML alone, and sharing a
//! monster's definition (an `Arc` clone) against copying it.
//! Run with `cargo bench -p engine --bench content`; figures go in BENCHMARKS.md.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use engine::content::data::{BUILTIN, Content, ContentFile, MonsterDef};

/// The kinds a server's content grows in: spells, items, statuses, monsters.
const GROWING: [&str; 4] = ["spells.toml", "items.toml", "statuses.toml", "monsters.toml"];

/// Copy `k` of a built-in file: every entry renamed `… k`, no aliases (they must stay unique).
fn copy_of(text: &str, k: usize) -> String {
    text.lines()
        .filter(|line| !line.starts_with("aliases"))
        .map(
            |line| match line.strip_prefix("name = \"").and_then(|rest| rest.strip_suffix('"')) {
                Some(name) => format!("name = \"{name} {k}\""),
                None => line.to_owned(),
            },
        )
        .collect::<Vec<_>>()
        .join("\n")
}

/// The built-in files and nine renamed copies of its spells, items, statuses and monsters:
/// ten times today's entries of the kinds that grow.
fn ten_times() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = BUILTIN.iter().map(|f| (f.path.to_owned(), f.text.to_owned())).collect();
    for k in 2..=10 {
        for file in BUILTIN.iter().filter(|f| GROWING.iter().any(|g| f.path.ends_with(g))) {
            files.push((format!("{k}/{}", file.path), copy_of(file.text, k)));
        }
    }
    files
}

fn load(c: &mut Criterion) {
    let grown = ten_times();
    let grown: Vec<ContentFile<'_>> = grown.iter().map(|(path, text)| ContentFile { path, text }).collect();
    let tenfold = Content::load(&grown).expect("the tenfold content loads");
    assert_eq!(tenfold.monsters.len(), 10 * Content::builtin().unwrap().monsters.len());
    let mut group = c.benchmark_group("content");
    group.bench_function(
        "Content::load, ten times the spells, items, statuses and monsters",
        |b| {
            b.iter(|| black_box(Content::load(black_box(&grown)).expect("it loads")));
        },
    );
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
