//! How the game plays monsters (behaviour profiles, monsters.toml): a monster held in melee whose
//! chosen target is out of reach fights whom it can reach, in every ruleset, instead of dashing
//! in place beside them.

use chrono::{DateTime, Utc};
use engine::content::{Behaviour, Class, Monster, Race};
use engine::{Actor, Band, Combat, Combatant, Command, Controller, Dice, Event, Ruleset, Side, Terrain, apply};

fn now() -> DateTime<Utc> {
    DateTime::from_timestamp(1_800_000_000, 0).expect("a valid timestamp")
}

/// A level-1 fighter holds `monster` in melee; a level-1 mage — the weakest, the brute's pick —
/// stands far off. Every side is the AI's, so `Begin` plays the fight out.
fn held_in_melee(monster: Monster, ruleset: Ruleset, seed: u64) -> (Combat, Vec<Event>) {
    let fighter = Combatant::character(
        "Aria",
        Race::HUMAN,
        Class::FIGHTER,
        1,
        Controller::Ai(Behaviour::Aggressive),
    );
    let mage = Combatant::character("Mira", Race::HUMAN, Class::MAGE, 1, Controller::Ai(Behaviour::Caster));
    // Sturdy enough to get a few turns before the party brings it down.
    let mut foe = Combatant::monster("Foe", monster);
    (foe.hp, foe.max_hp) = (120, 120);
    let mut combat = Combat::new(vec![fighter, mage, foe], Terrain::default()).with_ruleset(ruleset);
    let (aria, mira, foe) = (
        combat.combatants[0].id,
        combat.combatants[1].id,
        combat.combatants[2].id,
    );
    combat.set_band(aria, foe, Band::Melee);
    combat.set_band(mira, foe, Band::Far);
    combat.set_band(aria, mira, Band::Far);
    let mut dice = Dice::seeded(seed);
    let events = apply(&mut combat, Actor::Director, Command::Begin, &mut dice, now()).expect("the fight begins");
    (combat, events)
}

#[test]
fn a_brute_held_in_melee_strikes_whom_it_can_reach_in_every_ruleset() {
    for ruleset in Ruleset::ALL {
        for monster in [Monster::ZOMBIE, Monster::OGRE] {
            let mut acted = 0;
            for seed in 0..6 {
                let (combat, events) = held_in_melee(monster, ruleset, seed);
                let foe = combat.combatants.iter().find(|c| c.side == Side::Enemies).unwrap().id;
                let first_act = events.iter().find(
                    |e| matches!(e, Event::AttackRolled { attacker: id, .. } | Event::Dashed { id, .. } if *id == foe),
                );
                let Some(first_act) = first_act else {
                    continue;
                };
                acted += 1;
                assert!(
                    matches!(first_act, Event::AttackRolled { .. }),
                    "{} {monster:?} seed {seed}: dashed beside the fighter instead of striking\n{}",
                    ruleset.name(),
                    events
                        .iter()
                        .map(|e| engine::log::line(&combat, e))
                        .collect::<Vec<_>>()
                        .join("\n")
                );
            }
            assert!(
                acted >= 5,
                "{} {monster:?}: the foe acted in {acted} fights of 6",
                ruleset.name()
            );
        }
    }
}
