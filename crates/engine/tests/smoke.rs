use chrono::DateTime;
use engine::content::{Class, Monster, Race};
use engine::{Actor, Combat, Combatant, Command, Controller, Dice, Terrain, apply, log};

#[test]
fn ai_duel_runs_to_an_end() {
    for seed in 0..200 {
        let fighter = Combatant::character(
            "Bo",
            Race::HUMAN,
            Class::FIGHTER,
            5,
            Controller::Ai(engine::content::Behaviour::Aggressive),
        );
        let goblins = (1..=3).map(|i| Combatant::monster(&format!("Goblin {i}"), Monster::GOBLIN));
        let mut combat = Combat::new(std::iter::once(fighter).chain(goblins).collect(), Terrain::default());
        let mut dice = Dice::seeded(seed);
        let events = apply(
            &mut combat,
            Actor::Director,
            Command::Begin,
            &mut dice,
            DateTime::from_timestamp(0, 0).unwrap(),
        )
        .unwrap();
        assert!(
            combat.outcome.is_some(),
            "seed {seed}: {:?}",
            events.iter().map(|e| log::line(&combat, e)).collect::<Vec<_>>()
        );
        if seed == 0 {
            for e in &events {
                println!("{}", log::line(&combat, e));
            }
        }
    }
}
