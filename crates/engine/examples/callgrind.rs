//! A driver for instruction counts under callgrind, which repeat exactly on a busy machine
//! (criterion's times do not). BENCHMARKS.md reads `engine::resolve::apply`'s inclusive count
//! divided by the calls, against `engine::dice::Dice::d20`'s:
//!
//! ```sh
//! cargo build --release -p engine --example callgrind
//! valgrind --tool=callgrind --callgrind-out-file=cg.out target/release/examples/callgrind attack 40 1000
//! callgrind_annotate --inclusive=yes cg.out | grep -E 'resolve::apply \[|Dice::d20 \('
//! ```
//!
//! `attack N K`: K Attack commands through `apply`, each on a fresh copy of a fight of N
//! combatants (a fighter in melee with the first of N − 1 goblins), plus one d20 roll each as
//! the baseline. `fight K`: K whole AI fights, a level-5 fighter against three goblins.

use chrono::{DateTime, Utc};
use engine::content::{Behaviour, Class, Monster, Race};
use engine::{Actor, Band, Combat, Combatant, CombatantId, Command, Controller, Dice, Terrain, TurnResources, apply};
use std::hint::black_box;

fn epoch() -> DateTime<Utc> {
    DateTime::from_timestamp(0, 0).expect("epoch")
}

/// A fighter's turn in melee with a goblin, with `combatants − 2` more goblins standing by.
fn fighter_turn(combatants: u32) -> Combat {
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
    combat.order = (0..combatants).map(CombatantId).collect();
    combat.get_mut(CombatantId(0)).resources = TurnResources::fresh(30);
    combat
}

fn attacks(combatants: u32, times: usize) {
    let start = fighter_turn(combatants);
    let mut dice = Dice::seeded(2);
    for _ in 0..times {
        let mut combat = start.clone();
        let attack = Command::Attack {
            target: Some(CombatantId(1)),
        };
        let events = apply(
            &mut combat,
            Actor::Combatant(CombatantId(0)),
            attack,
            &mut dice,
            epoch(),
        );
        black_box(events.expect("a legal attack"));
        black_box(dice.d20(engine::dice::RollMode::Normal));
    }
}

fn fights(times: usize) {
    for _ in 0..times {
        let fighter = Combatant::character(
            "Bo",
            Race::Human,
            Class::Fighter,
            5,
            Controller::Ai(Behaviour::Aggressive),
        );
        let goblins = (1..=3).map(|i| Combatant::monster(&format!("Goblin {i}"), Monster::Goblin));
        let mut combat = Combat::new(std::iter::once(fighter).chain(goblins).collect(), Terrain::default());
        let mut dice = Dice::seeded(7);
        black_box(apply(&mut combat, Actor::Director, Command::Begin, &mut dice, epoch()).expect("a fight begins"));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: usize| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    match args.first().map(String::as_str) {
        Some("attack") => attacks(u32::try_from(number(1, 2)).expect("a small fight"), number(2, 1000)),
        Some("fight") => fights(number(1, 100)),
        _ => eprintln!("usage: callgrind attack COMBATANTS TIMES | callgrind fight TIMES"),
    }
}
