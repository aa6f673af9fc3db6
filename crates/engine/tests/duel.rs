//! Arena duels (seed 000 §8.2's arena streak): two characters on opposite sides, under
//! every timing model; the fight ends the moment one of them drops to 0 HP — no death save is
//! rolled and no one dies.

mod common;

use common::{Fight, any, pc};
use engine::content::{Class, Race};
use engine::{Actor, Combat, Command, Dice, Event, Outcome, Ruleset, Side, Terrain, apply};

fn duel(ruleset: Ruleset) -> Combat {
    Combat::new(
        vec![
            pc("Aria", Race::ELF, Class::ROGUE, 1),
            pc("Bram", Race::DWARF, Class::FIGHTER, 1).on_side(Side::Enemies),
        ],
        Terrain::default(),
    )
    .with_ruleset(ruleset)
    .as_duel()
}

#[test]
fn a_duel_ends_at_zero_hp_without_a_death_save() {
    let mut f = Fight::new(Vec::new());
    f.combat = duel(Ruleset::Gogobee);
    let (aria, bram) = (f.id("Aria"), f.id("Bram"));
    f.melee(aria, bram);
    f.turn_of(aria);
    f.direct(Command::AdjustHp {
        target: bram,
        delta: -1_000,
    });
    let bram_c = f.get(bram);
    assert_eq!(bram_c.hp, 0);
    assert!(!bram_c.is_dead(), "no one dies in the ring");
    assert_eq!(f.combat.outcome, Some(Outcome::Victory), "Aria's side won");
    assert!(any(&f.log, |e| matches!(
        e,
        Event::CombatEnded {
            outcome: Outcome::Victory,
            xp: 0
        }
    )));
    assert!(!any(&f.log, |e| matches!(
        e,
        Event::DeathSaveRolled { .. } | Event::Died { .. }
    )));
}

#[test]
fn every_ruleset_plays_a_duel_to_its_end_and_no_one_dies() {
    for ruleset in Ruleset::ALL {
        for seed in 0..8 {
            let mut combat = duel(ruleset);
            let mut dice = Dice::seeded(seed);
            let mut events = apply(&mut combat, Actor::Director, Command::Begin, &mut dice, common::now()).unwrap();
            for _ in 0..2_000 {
                if combat.outcome.is_some() {
                    break;
                }
                // Whoever waits: attack the other (close in first), else end the turn.
                let me = combat
                    .window
                    .as_ref()
                    .map(|w| w.reactor)
                    .or(combat.model.timeline.awaiting)
                    .or_else(|| combat.current())
                    .expect("someone acts");
                let other = combat.combatants.iter().find(|c| c.id != me).unwrap().id;
                let tries = if combat.window.is_some() {
                    vec![Command::Pass]
                } else {
                    vec![
                        Command::Attack { target: Some(other) },
                        Command::Move(engine::MoveIntent::Melee(other)),
                        Command::EndTurn,
                    ]
                };
                let done = tries
                    .into_iter()
                    .find_map(|c| apply(&mut combat, Actor::Combatant(me), c, &mut dice, common::now()).ok())
                    .unwrap_or_else(|| panic!("{ruleset:?} seed {seed}: {} is stuck", combat.get(me).name));
                events.extend(done);
            }
            assert!(combat.outcome.is_some(), "{ruleset:?} seed {seed}: the duel ended");
            assert!(
                !any(&events, |e| matches!(
                    e,
                    Event::Died { .. } | Event::DeathSaveRolled { .. }
                )),
                "{ruleset:?} seed {seed}: no death in the ring"
            );
            assert!(combat.combatants.iter().all(|c| !c.is_dead()));
            let loser = combat.combatants.iter().find(|c| !c.is_standing());
            assert!(loser.is_some_and(|l| l.hp == 0), "{ruleset:?}: the loser is at 0 HP");
        }
    }
}
