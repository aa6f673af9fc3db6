//! A real fight, driven through the engine: players act by the engine's own behaviour profile,
//! take the first offered reaction (or pass, alternately), and every command is rendered.

#![allow(dead_code)]

use chrono::DateTime;
use engine::behaviour::{self, Choice};
use engine::content::{Class, Monster, Race, Zone};
use engine::{Actor, Combat, Combatant, Command, Controller, Dice, Event, Terrain, apply};
use render::{RenderContext, Rendered, Renderer};

/// One command's outcome: the events and their render.
pub struct Step {
    pub command: Command,
    pub events: Vec<Event>,
    pub rendered: Rendered,
}

pub fn renderer() -> Renderer {
    Renderer::load().expect("the embedded flavor files load")
}

/// A party of a numeric-id fighter (Parry at 5) and a table-name rogue against goblins in a
/// flooded Sunken Temple room.
pub fn party_vs_goblins(goblins: u32) -> Combat {
    let fighter = Combatant::character(
        "Bo",
        Race::HUMAN,
        Class::FIGHTER,
        5,
        Controller::Player("123456789012345678".into()),
    );
    let rogue = Combatant::character("Aria", Race::ELF, Class::ROGUE, 5, Controller::Player("alice".into()));
    let mut all = vec![fighter, rogue];
    all.extend((1..=goblins).map(|i| Combatant::monster(&format!("Goblin {i}"), Monster::GOBLIN)));
    Combat::new(
        all,
        Terrain {
            zone: Some(Zone::SUNKEN_TEMPLE),
            difficult: true,
            hidden_things: vec![],
            found: vec![],
        },
    )
}

/// Drives `combat` to its end (or `max_steps` commands), rendering each command.
pub fn drive(combat: &mut Combat, seed: u64, max_steps: usize, r: &Renderer) -> Vec<Step> {
    let now = DateTime::from_timestamp(0, 0).unwrap();
    let mut dice = Dice::seeded(seed);
    let mut steps = Vec::new();
    let mut command = Command::Begin;
    let mut actor = Actor::Director;
    let mut passes = false;
    for version in 1..=max_steps as u64 {
        let events = match apply(combat, actor, command.clone(), &mut dice, now) {
            Ok(events) => events,
            Err(_) if command != Command::EndTurn => {
                // The behaviour chose something the rules refuse: end the turn instead.
                let Some(id) = combat.current() else { break };
                actor = Actor::Combatant(id);
                command = Command::EndTurn;
                continue;
            }
            Err(e) => panic!("end turn refused: {e}"),
        };
        let ctx = RenderContext::new("c-42", version, seed).unwrap();
        let rendered = r.combat(combat, &events, &ctx);
        steps.push(Step {
            command: command.clone(),
            events,
            rendered,
        });
        if combat.outcome.is_some() {
            break;
        }
        if let Some(window) = &combat.window {
            actor = Actor::Combatant(window.reactor);
            passes = !passes;
            command = if passes {
                Command::React(window.options[0])
            } else {
                Command::Pass
            };
            continue;
        }
        let Some(id) = combat.current() else { break };
        actor = Actor::Combatant(id);
        command = match behaviour::decide(combat, id) {
            Choice::Do(c) => c,
            Choice::Ability(_) => Command::EndTurn,
        };
    }
    steps
}
