//! Movement (seed 000 §3): base speed by race, the §3.2 modifiers, abstract bands with
//! `move melee|ranged|<direction>`, difficult terrain doubling the cost, and Dash.

mod common;

use common::{Fight, any, pc, puppet};
use engine::content::{Armor, Class, Item, Monster, Race, Spell, Zone};
use engine::movement::Direction;
use engine::{Actor, Band, Command, Event, MoveIntent, RuleViolation, Terrain};

/// The feet `TurnStarted` grants the first of `combatants` when its turn comes round.
fn turn_movement(hero: engine::Combatant) -> i32 {
    let mut f = Fight::new(vec![hero, puppet("Ogre", Monster::OGRE)]);
    let (hero, ogre) = (engine::CombatantId(0), f.id("Ogre"));
    f.start_with_order(vec![ogre, hero]);
    let events = f.act(ogre, Command::EndTurn);
    events
        .iter()
        .find_map(|e| match e {
            Event::TurnStarted { id, movement, .. } if *id == hero => Some(*movement),
            _ => None,
        })
        .expect("the hero's turn starts")
}

#[test]
fn base_speed_follows_the_race_table() {
    for (race, speed) in [
        (Race::HUMAN, 30),
        (Race::ELF, 35),
        (Race::DWARF, 25),
        (Race::HALFLING, 25),
        (Race::ORC, 30),
        (Race::TIEFLING, 30),
        (Race::HALF_ELF, 30),
    ] {
        assert_eq!(turn_movement(pc("Hero", race, Class::ROGUE, 1)), speed, "{race:?}");
    }
}

#[test]
fn heavy_armor_without_the_strength_requirement_costs_ten_feet() {
    let mut hero = pc("Hero", Race::HUMAN, Class::ROGUE, 1);
    hero.set_armor(Armor::CHAIN_MAIL); // STR 13 needed; the rogue has 9
    hero.pack_lb = 0;
    hero.abilities.str = 12; // carries 58 lb: not encumbered (60), still short of 13
    assert_eq!(turn_movement(hero.clone()), 20);
    hero.abilities.str = 13;
    assert_eq!(turn_movement(hero), 30);
}

#[test]
fn encumbered_costs_ten_feet_and_heavily_encumbered_twenty() {
    let mut hero = pc("Hero", Race::HUMAN, Class::FIGHTER, 1);
    let strength = hero.abilities.str;
    let base = hero.carried_lb() - hero.pack_lb;
    hero.pack_lb = strength * 5 + 1 - base;
    assert_eq!(turn_movement(hero.clone()), 20);
    hero.pack_lb = strength * 10 + 1 - base;
    assert_eq!(turn_movement(hero), 10);
}

#[test]
fn haste_adds_thirty_feet_at_once_and_for_the_rest_of_the_fight() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (bo, ogre) = (f.id("Bo"), f.id("Ogre"));
    f.get_mut(bo).give(Item::POTION_OF_HASTE, 1);
    f.turn_of(bo);
    f.act(
        bo,
        Command::UseItem {
            item: Item::POTION_OF_HASTE,
            target: None,
        },
    );
    assert_eq!(f.get(bo).resources.movement_left(), 60);
    f.act(bo, Command::EndTurn);
    let events = f.act(ogre, Command::EndTurn);
    assert!(any(
        &events,
        |e| matches!(e, Event::TurnStarted { id, movement: 60, .. } if *id == bo)
    ));
}

#[test]
fn the_haste_spell_adds_thirty_feet() {
    let mut f = Fight::new(vec![
        pc("Aria", Race::HUMAN, Class::MAGE, 5),
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (aria, bo) = (f.id("Aria"), f.id("Bo"));
    f.start_with_order(vec![aria, bo, f.id("Ogre")]);
    f.act(
        aria,
        Command::Cast {
            spell: Spell::HASTE,
            target: Some(bo),
        },
    );
    let events = f.act(aria, Command::EndTurn);
    assert!(any(
        &events,
        |e| matches!(e, Event::TurnStarted { id, movement: 60, .. } if *id == bo)
    ));
}

#[test]
fn restrained_is_zero_speed_and_any_move_is_refused() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (bo, ogre) = (f.id("Bo"), f.id("Ogre"));
    f.get_mut(bo).conditions.restrained = true;
    f.turn_of(bo);
    assert_eq!(f.get(bo).resources.movement_left(), 0);
    assert_eq!(
        f.refused_for(bo, Command::Move(MoveIntent::Melee(ogre))),
        RuleViolation::CannotMove {
            reason: "restrained".into()
        }
    );
    f.act(bo, Command::Dash);
    assert_eq!(f.get(bo).resources.movement_left(), 0, "twice nothing is nothing");
}

#[test]
fn standing_up_from_prone_costs_half_speed() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (bo, ogre) = (f.id("Bo"), f.id("Ogre"));
    f.get_mut(bo).conditions.prone = true;
    f.turn_of(bo);
    // Standing (15 ft) plus closing from near (25 ft) is more than 30 ft.
    assert_eq!(
        f.refused_for(bo, Command::Move(MoveIntent::Melee(ogre))),
        RuleViolation::NotEnoughMovement { needed: 40, left: 30 }
    );
    let events = f.act(bo, Command::Move(MoveIntent::Shift(Direction::North)));
    assert!(any(&events, |e| matches!(e, Event::StoodUp { feet: 15, .. })));
    assert!(!f.get(bo).conditions.prone);
    assert_eq!(f.get(bo).resources.movement_left(), 30 - 15 - 10);
}

#[test]
fn webbed_or_entangled_moves_at_half_speed() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Drow Mage", Monster::DROW_MAGE),
    ]);
    let (bo, drow) = (f.id("Bo"), f.id("Drow Mage"));
    f.start_with_order(vec![drow, bo]);
    f.act_with(
        drow,
        Command::Cast {
            spell: Spell::WEB,
            target: Some(bo),
        },
        |e, _| {
            any(
                e,
                |e| matches!(e, Event::ConditionApplied { condition, .. } if condition == "entangled"),
            )
        },
    );
    let events = f.act(drow, Command::EndTurn);
    assert!(any(
        &events,
        |e| matches!(e, Event::TurnStarted { id, movement: 15, .. } if *id == bo)
    ));
}

#[test]
fn difficult_terrain_doubles_the_cost_of_every_foot() {
    let terrain = Terrain {
        zone: Some(Zone::SUNKEN_TEMPLE),
        difficult: true,
        ..Terrain::default()
    };
    let mut f = Fight::in_room(
        vec![pc("Bo", Race::HUMAN, Class::FIGHTER, 1), puppet("Ogre", Monster::OGRE)],
        terrain,
    );
    let (bo, ogre) = (f.id("Bo"), f.id("Ogre"));
    f.turn_of(bo);
    assert_eq!(
        f.refused_for(bo, Command::Move(MoveIntent::Melee(ogre))),
        RuleViolation::NotEnoughMovement { needed: 50, left: 30 }
    );
    f.act(bo, Command::Dash);
    let events = f.act(bo, Command::Move(MoveIntent::Melee(ogre)));
    assert!(any(&events, |e| matches!(
        e,
        Event::Moved {
            feet: 50,
            difficult_terrain: true,
            ..
        }
    )));
    assert_eq!(f.get(bo).resources.movement_left(), 10);
    assert_eq!(f.band(bo, ogre), Band::Melee);
}

#[test]
fn move_melee_closes_to_the_target_and_move_ranged_falls_back_from_every_enemy() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Ogre", Monster::OGRE),
        puppet("Orc", Monster::ORC),
    ]);
    let (bo, ogre, orc) = (f.id("Bo"), f.id("Ogre"), f.id("Orc"));
    f.start_with_order(vec![bo, ogre, orc]);
    let events = f.act(bo, Command::Move(MoveIntent::Melee(ogre)));
    assert!(any(&events, |e| matches!(e, Event::Moved { feet: 25, .. })));
    assert_eq!((f.band(bo, ogre), f.band(bo, orc)), (Band::Melee, Band::Near));
    f.act(bo, Command::EndTurn);
    f.act(ogre, Command::EndTurn);
    f.act(orc, Command::EndTurn);
    f.act(bo, Command::Move(MoveIntent::Ranged));
    f.act(ogre, Command::Pass); // the ogre's opportunity attack
    assert_eq!((f.band(bo, ogre), f.band(bo, orc)), (Band::Near, Band::Near));
    assert_eq!(f.get(bo).resources.movement_left(), 5);
}

#[test]
fn move_toward_and_away_shift_every_band_by_one() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::ELF, Class::FIGHTER, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (bo, ogre) = (f.id("Bo"), f.id("Ogre"));
    f.set_band(bo, ogre, Band::Far);
    f.turn_of(bo);
    f.act(bo, Command::Move(MoveIntent::Toward));
    assert_eq!(f.band(bo, ogre), Band::Near);
    assert_eq!(f.get(bo).resources.movement_left(), 35 - 30);
    assert_eq!(
        f.refused_for(bo, Command::Move(MoveIntent::Away)),
        RuleViolation::NotEnoughMovement { needed: 30, left: 5 }
    );
    assert!(matches!(
        MoveIntent::parse_direction("sideways-ish"),
        Err(RuleViolation::UnknownDirection { .. })
    ));
}

#[test]
fn pointless_moves_are_refused() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (bo, ogre) = (f.id("Bo"), f.id("Ogre"));
    f.melee(bo, ogre);
    f.turn_of(bo);
    assert!(matches!(
        f.refused_for(bo, Command::Move(MoveIntent::Melee(ogre))),
        RuleViolation::Pointless { .. }
    ));
    assert!(matches!(
        f.refused_for(bo, Command::Move(MoveIntent::Melee(bo))),
        RuleViolation::InvalidTarget { .. }
    ));
    let _ = f.refused(Actor::Director, Command::Move(MoveIntent::Toward));
}

#[test]
fn every_zone_names_its_difficult_terrain() {
    let expected = [
        (Zone::SUNKEN_TEMPLE, "flooded"),
        (Zone::FOREST_OF_SHADOWS, "undergrowth"),
        (Zone::HAUNTED_MANOR, "collapsed floor"),
        (Zone::UNDERFORGE, "lava"),
        (Zone::UNDERDARK, "stalagmite"),
        (Zone::FEYWILD_CROSSING, "vines"),
        (Zone::DRAGONS_LAIR, "coin"),
        (Zone::ABYSS_PORTAL, "reality"),
    ];
    assert_eq!(engine::content::data::builtin().zones.len(), expected.len());
    for (zone, words) in expected {
        let source = zone
            .builtin()
            .expect("a built-in zone")
            .difficult_terrain
            .to_lowercase();
        assert!(source.contains(words), "{zone:?}: {source}");
    }
}

#[test]
fn the_cost_to_melee_read_before_moving_is_what_the_move_spends() {
    let terrain = Terrain {
        zone: Some(Zone::SUNKEN_TEMPLE),
        difficult: true,
        ..Terrain::default()
    };
    let mut f = Fight::in_room(
        vec![
            pc("Dain", Race::DWARF, Class::FIGHTER, 1),
            puppet("Ogre", Monster::OGRE),
            puppet("Orc", Monster::ORC),
        ],
        terrain,
    );
    let (dain, ogre, orc) = (f.id("Dain"), f.id("Ogre"), f.id("Orc"));
    f.set_band(dain, orc, Band::Far);
    f.turn_of(dain);
    let cost = engine::movement::cost_to_melee(&f.combat, dain, ogre).unwrap();
    assert_eq!(
        (cost.band, cost.open_ground, cost.here, cost.banked, cost.stand),
        (Band::Near, 25, 50, 0, 0)
    );
    assert_eq!(cost.total(), 50);
    let far = engine::movement::cost_to_melee(&f.combat, dain, orc).unwrap();
    assert_eq!((far.open_ground, far.here), (55, 110));
    // Prone: standing costs half of the dwarf's 25 ft first.
    f.get_mut(dain).conditions.prone = true;
    assert_eq!(
        engine::movement::cost_to_melee(&f.combat, dain, ogre).unwrap().total(),
        62
    );
    f.get_mut(dain).conditions.prone = false;
    // The move is refused for exactly that much; after a Dash it spends it.
    assert_eq!(
        f.refused_for(dain, Command::Move(MoveIntent::Melee(ogre))),
        RuleViolation::NotEnoughMovement { needed: 50, left: 25 }
    );
    f.act(dain, Command::Dash);
    let events = f.act(dain, Command::Move(MoveIntent::Melee(ogre)));
    assert!(any(&events, |e| matches!(e, Event::Moved { feet: 50, .. })));
    // In melee now: nothing to close.
    assert_eq!(engine::movement::cost_to_melee(&f.combat, dain, ogre), None);
    // Allies have no band to close.
    assert_eq!(engine::movement::cost_to_melee(&f.combat, ogre, orc), None);
}
