//! Speed conditions of seed 000 §3.2 as a player meets them: Restrained "0 ft (cannot move)" by
//! a thrown net (DC 10), Web / Entangled "half speed until freed", the `escape` check (the
//! better of STR and DEX) that frees, and a prone creature "crawling at half speed".

mod common;

use common::{Fight, any, pc, puppet};
use engine::content::{Class, Item, Monster, Race, Spell};
use engine::{Band, Command, Event, MoveIntent, RuleViolation};

#[test]
fn web_or_entangled_is_half_speed_until_freed_not_one_turn() {
    let mut f = Fight::new(vec![
        pc("Aria", Race::HUMAN, Class::MAGE, 3),
        puppet("Orc", Monster::ORC),
    ]);
    let (aria, orc) = (f.id("Aria"), f.id("Orc"));
    f.start_with_order(vec![aria, orc]);
    let dc = f.get(aria).spell_save_dc();
    f.act_with(
        aria,
        Command::Cast {
            spell: Spell::WEB,
            target: Some(orc),
        },
        |e, _| {
            any(
                e,
                |e| matches!(e, Event::ConditionApplied { condition, .. } if condition == "entangled"),
            )
        },
    );
    assert_eq!(f.get(orc).conditions.escape_dc, dc);
    let full = f.get(orc).base_speed();
    assert_eq!(f.get(orc).speed(), full / 2);
    // Turns come and go: still webbed.
    for _ in 0..2 {
        f.act(aria, Command::EndTurn);
        f.act(orc, Command::EndTurn);
    }
    assert_eq!(f.get(orc).conditions.entangled, 1, "until freed");
    assert_eq!(f.get(orc).speed(), full / 2);
    // The orc's turn: escape, STR (Athletics) or DEX (Acrobatics) against the spell's DC.
    f.act(aria, Command::EndTurn);
    let events = f.act_with(orc, Command::Escape, |e, _| {
        any(e, |e| matches!(e, Event::EscapeAttempted { freed: false, .. }))
    });
    let (roll, against) = events
        .iter()
        .find_map(|e| match e {
            Event::EscapeAttempted { roll, dc, .. } => Some((*roll, *dc)),
            _ => None,
        })
        .unwrap();
    assert!(roll < against && against == dc);
    assert_eq!(f.get(orc).conditions.entangled, 1);
    assert!(matches!(
        f.refused_for(orc, Command::Escape),
        RuleViolation::ResourceSpent { .. }
    ));
    f.act(orc, Command::EndTurn);
    f.act(aria, Command::EndTurn);
    f.act_with(orc, Command::Escape, |e, _| {
        any(
            e,
            |e| matches!(e, Event::EscapeAttempted { freed: true, roll, dc: d, .. } if roll >= d),
        )
    });
    assert_eq!(
        (f.get(orc).conditions.entangled, f.get(orc).conditions.escape_dc),
        (0, 0)
    );
    assert_eq!(f.get(orc).speed(), full);
    f.act(orc, Command::EndTurn);
    f.act(aria, Command::EndTurn);
    assert!(matches!(
        f.refused_for(orc, Command::Escape),
        RuleViolation::Pointless { .. }
    ));
}

#[test]
fn a_net_restrains_at_dc_10_zero_feet_until_an_escape_frees() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        pc("Vex", Race::HUMAN, Class::ROGUE, 1),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let (bo, vex, goblin) = (f.id("Bo"), f.id("Vex"), f.id("Goblin"));
    f.get_mut(bo).set_items([(Item::NET, 1)].into());
    f.start_with_order(vec![bo, vex, goblin]);
    assert_eq!(f.band(bo, goblin), Band::Near, "thrown across 30 ft");
    f.act_with(
        bo,
        Command::UseItem {
            item: Item::NET,
            target: Some(goblin),
        },
        |e, _| {
            any(e, |e| {
                matches!(
                    e,
                    Event::SavingThrow {
                        success: false,
                        dc: 10,
                        ..
                    }
                )
            })
        },
    );
    let g = f.get(goblin);
    assert!(g.conditions.restrained);
    assert_eq!((g.conditions.escape_dc, g.speed()), (10, 0));
    assert_eq!(f.get(bo).items.get(&Item::NET), None, "thrown");
    f.act(bo, Command::EndTurn);
    f.act(vex, Command::EndTurn);
    assert!(matches!(
        f.refused_for(goblin, Command::Move(MoveIntent::Melee(bo))),
        RuleViolation::CannotMove { .. }
    ));
    f.act_with(goblin, Command::Escape, |e, _| {
        any(e, |e| {
            matches!(
                e,
                Event::EscapeAttempted {
                    freed: true,
                    dc: 10,
                    ..
                }
            )
        })
    });
    assert!(!f.get(goblin).conditions.restrained);
    assert_eq!(f.get(goblin).speed(), 30);
    // Not at yourself, nor at an ally.
    f.get_mut(vex).set_items([(Item::NET, 1)].into());
    f.act(goblin, Command::EndTurn);
    f.act(bo, Command::EndTurn);
    assert!(matches!(
        f.refused_for(
            vex,
            Command::UseItem {
                item: Item::NET,
                target: Some(bo)
            }
        ),
        RuleViolation::InvalidTarget { .. }
    ));
}

#[test]
fn prone_crawling_at_half_speed_moves_without_standing() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let (bo, goblin) = (f.id("Bo"), f.id("Goblin"));
    f.melee(bo, goblin);
    f.start_with_order(vec![bo, goblin]);
    f.get_mut(bo).conditions.prone = true;
    // Melee → near is 25 ft: crawling, 50 of a 30 ft speed.
    assert_eq!(
        f.refused_for(bo, Command::Crawl(MoveIntent::Ranged)),
        RuleViolation::NotEnoughMovement { needed: 50, left: 30 }
    );
    f.act(bo, Command::Dash);
    let mut events = f.act(bo, Command::Crawl(MoveIntent::Ranged));
    // Leaving the goblin's reach: its opportunity attack comes first (the GM passes).
    events.extend(f.act(goblin, Command::Pass));
    assert!(any(
        &events,
        |e| matches!(e, Event::Moved { id, feet: 50, crawl: true, .. } if *id == bo)
    ));
    assert!(!any(&events, |e| matches!(e, Event::StoodUp { .. })));
    assert!(f.get(bo).conditions.prone, "still prone");
    assert_eq!(f.get(bo).resources.movement_left(), 10);
    assert_eq!(f.band(bo, goblin), Band::Near);
    // On your feet there is nothing to crawl.
    f.get_mut(bo).conditions.prone = false;
    assert!(matches!(
        f.refused_for(bo, Command::Crawl(MoveIntent::Away)),
        RuleViolation::Pointless { .. }
    ));
}
