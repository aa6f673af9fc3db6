//! The battlefield picture's cost (layout, drawing and PNG encoding) and size for 2, 6 and 40
//! combatants, everyone in melee groups with conditions to mark.
//! Run with `cargo bench -p render --bench map`; figures go in BENCHMARKS.md.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use engine::content::{Class, Monster, Race};
use engine::{Band, Combat, Combatant, CombatantId, Controller, Terrain, TurnResources};

/// `n` combatants, a quarter of them players, each player in melee with its share of goblins,
/// at the first player's turn.
fn fight(n: usize) -> Combat {
    let players = n.div_ceil(4);
    let mut all: Vec<Combatant> = (0..players)
        .map(|i| {
            Combatant::character(
                &format!("Adventurer {i}"),
                Race::HUMAN,
                Class::FIGHTER,
                5,
                Controller::Player(format!("p{i}")),
            )
        })
        .collect();
    all.extend((0..n - players).map(|i| Combatant::monster(&format!("Goblin Skirmisher {i}"), Monster::GOBLIN)));
    let mut c = Combat::new(all, Terrain::default());
    for g in players..n {
        c.set_band(CombatantId((g % players) as u32), CombatantId(g as u32), Band::Melee);
    }
    for x in &mut c.combatants {
        x.conditions.prone = true;
        x.conditions.concentration = Some("Bless".into());
        x.resources = TurnResources::fresh(x.speed());
    }
    c.order = c.combatants.iter().map(|x| x.id).collect();
    c.started = true;
    c.round = 1;
    c
}

fn picture(c: &mut Criterion) {
    let mut group = c.benchmark_group("map");
    for n in [2, 6, 40] {
        let combat = fight(n);
        let (png, layout) = render::map::picture(&combat);
        println!(
            "map of {n} combatants: {} bytes, {}×{} px",
            png.len(),
            layout.width,
            layout.height
        );
        group.bench_function(format!("picture of {n} combatants"), |b| {
            b.iter(|| black_box(render::map::picture(black_box(&combat))));
        });
    }
    group.finish();
}

criterion_group!(benches, picture);
criterion_main!(benches);
