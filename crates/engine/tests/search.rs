//! Search (seed 000 §2.1 "examine surroundings for hidden things (Perception or Investigation)"):
//! every zone's rooms hide something as content data — a trap, a cache, a hidden door — found
//! against its DC; and a monster that hides (the Quickling) is found the same way.

mod common;

use common::{Fight, any, monster, pc};
use engine::content::data::{HiddenKind, builtin};
use engine::content::{Class, Monster, Race, Skill};
use engine::{Command, Event};

#[test]
fn every_zone_hides_a_trap_a_cache_and_a_hidden_door_with_their_dcs() {
    for def in builtin().zones.all() {
        let kinds: Vec<HiddenKind> = def.hidden.iter().map(|h| h.kind).collect();
        assert_eq!(kinds.len(), 3, "{}", def.name);
        assert_eq!(kinds[0], HiddenKind::Trap, "{}", def.name);
        assert!(
            matches!(kinds[1], HiddenKind::Cache { coins } if coins >= 15),
            "{}",
            def.name
        );
        assert_eq!(kinds[2], HiddenKind::Door, "{}", def.name);
        for h in &*def.hidden {
            assert!((11..=17).contains(&h.dc), "{}: {} DC {}", def.name, h.what, h.dc);
        }
    }
    // Tier 1's cache is 15 coins behind DC 12; tier 5's 80 behind DC 15.
    let forest = builtin().zone("forest of shadows").expect("the forest");
    assert_eq!(
        (forest.hidden[1].kind, forest.hidden[1].dc),
        (HiddenKind::Cache { coins: 15 }, 12)
    );
    let abyss = builtin().zone("abyss portal").expect("the portal");
    assert_eq!(
        (abyss.hidden[1].kind, abyss.hidden[1].dc),
        (HiddenKind::Cache { coins: 80 }, 15)
    );
}

#[test]
fn a_quickling_hides_out_of_reach_and_a_search_that_beats_its_stealth_finds_it() {
    let mut f = Fight::new(vec![
        pc("Aria", Race::HUMAN, Class::MAGE, 5),
        pc("Vex", Race::HALFLING, Class::ROGUE, 5),
        monster("Quickling", Monster::QUICKLING),
    ]);
    let (aria, vex, quickling) = (f.id("Aria"), f.id("Vex"), f.id("Quickling"));
    f.start_with_order(vec![aria, vex, quickling]);
    f.act(aria, Command::EndTurn);
    // Its turn (played by the game) comes after Vex's: no one in its reach, it hides.
    let events = f.act_with(vex, Command::EndTurn, |e, c| {
        any(e, |e| {
            matches!(e, Event::HideAttempted { id, hidden: true, roll, .. } if *id == c.combatants[2].id && *roll <= 24)
        })
    });
    let stealth = events
        .iter()
        .find_map(|e| match e {
            Event::HideAttempted { id, roll, .. } if *id == quickling => Some(*roll),
            _ => None,
        })
        .expect("it hides");
    assert_eq!(f.get(quickling).conditions.hidden, Some(stealth));
    // Found by Perception or Investigation against its Stealth, the roll shown on the event.
    let current = f.current();
    let events = f.act_with(current, Command::Search, |e, _| {
        any(e, |e| matches!(e, Event::Searched { roll, .. } if *roll >= stealth))
    });
    assert!(any(
        &events,
        |e| matches!(e, Event::Revealed { id } if *id == quickling)
    ));
    assert!(any(&events, |e| matches!(
        e,
        Event::Searched {
            skill: Skill::Perception | Skill::Investigation,
            ..
        }
    )));
    assert_eq!(f.get(quickling).conditions.hidden, None);
}

#[test]
fn a_search_keeps_what_it_found_for_the_room() {
    let terrain = engine::Terrain {
        hidden_things: vec![("a fey purse of 50 coins".into(), 1)],
        ..engine::Terrain::default()
    };
    let mut f = Fight::in_room(
        vec![pc("Aria", Race::HUMAN, Class::MAGE, 1), monster("Ogre", Monster::OGRE)],
        terrain,
    );
    let aria = f.id("Aria");
    f.turn_of(aria);
    f.act(aria, Command::Search);
    assert_eq!(f.combat.terrain.found, vec!["a fey purse of 50 coins".to_owned()]);
    assert!(f.combat.terrain.hidden_things.is_empty());
}
