//! Opportunity attacks (seed 000 §4): leaving an enemy's melee reach without Disengage offers it
//! one melee attack, resolved before the mover is gone, as its reaction — suppressed by
//! Disengage, Cunning Action: Disengage, the Quickling's Blur and Misty Step.

mod common;

use common::{Fight, any, monster, offered_to, pc, position, puppet, rolls};
use engine::content::{Class, Monster, Race};
use engine::event::AttackKind;
use engine::movement::Direction;
use engine::{Band, BonusAction, Command, CunningMove, Event, MoveIntent, ReactionKind, ReactionTrigger};

/// A level-1 fighter (player) in melee with a goblin the GM drives; the goblin's turn.
fn goblin_leaving(level: u32) -> (Fight, engine::CombatantId, engine::CombatantId) {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, level),
        puppet("Goblin", Monster::GOBLIN),
        puppet("Goblin Boss", Monster::HOBGOBLIN),
    ]);
    let (bo, goblin, boss) = (f.id("Bo"), f.id("Goblin"), f.id("Goblin Boss"));
    f.melee(bo, goblin);
    f.set_band(bo, boss, Band::Far);
    f.start_with_order(vec![goblin, bo, boss]);
    (f, bo, goblin)
}

fn moved(events: &[Event], id: engine::CombatantId) -> bool {
    any(events, |e| matches!(e, Event::Moved { id: m, .. } if *m == id))
}

#[test]
fn leaving_melee_without_disengage_offers_an_opportunity_attack_before_the_move_completes() {
    let (mut f, bo, goblin) = goblin_leaving(1);
    let events = f.act(goblin, Command::Move(MoveIntent::Ranged));
    assert_eq!(offered_to(&events, bo), Some(vec![ReactionKind::OpportunityAttack]));
    let window = f.combat.window.clone().expect("the move is suspended");
    assert_eq!(window.trigger, ReactionTrigger::LeavesMelee { mover: goblin });
    assert!(!moved(&events, goblin), "the goblin has not left yet");
    assert_eq!(f.band(bo, goblin), Band::Melee);
    assert_eq!(f.get(goblin).resources.movement_left(), 5, "25 ft from melee to near");

    let events = f.act_with(bo, Command::React(ReactionKind::OpportunityAttack), |e, _| {
        moved(e, goblin)
    });
    let swing = position(&events, |e| matches!(e, Event::AttackRolled { .. })).unwrap();
    let left = position(&events, |e| matches!(e, Event::Moved { .. })).unwrap();
    assert!(swing < left, "the attack resolves before the goblin is gone");
    assert_eq!(f.band(bo, goblin), Band::Near);
}

#[test]
fn an_opportunity_attack_is_one_melee_attack_and_spends_the_reaction() {
    let (mut f, bo, goblin) = goblin_leaving(5);
    f.get_mut(goblin).hp = 50;
    f.act(goblin, Command::Move(MoveIntent::Ranged));
    let events = f.act(bo, Command::React(ReactionKind::OpportunityAttack));
    let r = rolls(&events);
    assert_eq!(r.len(), 1, "one attack even for a level-5 fighter");
    assert_eq!((r[0].kind, r[0].swing, r[0].of), (AttackKind::Opportunity, 1, 1));
    assert!(any(
        &events,
        |e| matches!(e, Event::AttackRolled { weapon, .. } if &**weapon == "Longsword")
    ));
    assert!(f.get(bo).resources.reaction_used, "{}", f.transcript());
}

#[test]
fn an_opportunity_attack_that_drops_the_mover_stops_the_move() {
    let (mut f, bo, goblin) = goblin_leaving(1);
    f.get_mut(goblin).hp = 1;
    f.act(goblin, Command::Move(MoveIntent::Ranged));
    let events = f.act_with(bo, Command::React(ReactionKind::OpportunityAttack), |e, _| {
        rolls(e).first().is_some_and(|r| r.hit)
    });
    assert!(any(
        &events,
        |e| matches!(e, Event::MonsterSlain { id, .. } if *id == goblin)
    ));
    assert!(any(
        &events,
        |e| matches!(e, Event::MoveAborted { id } if *id == goblin)
    ));
    assert!(!moved(&events, goblin));
    assert_eq!(f.band(bo, goblin), Band::Melee);
}

#[test]
fn passing_lets_the_mover_leave_untouched() {
    let (mut f, bo, goblin) = goblin_leaving(1);
    f.act(goblin, Command::Move(MoveIntent::Ranged));
    let events = f.act(bo, Command::Pass);
    assert!(rolls(&events).is_empty());
    assert!(moved(&events, goblin));
    assert_eq!(f.band(bo, goblin), Band::Near);
    assert!(!f.get(bo).resources.reaction_used);
}

#[test]
fn disengage_suppresses_opportunity_attacks() {
    let (mut f, bo, goblin) = goblin_leaving(1);
    f.act(goblin, Command::Disengage);
    let events = f.act(goblin, Command::Move(MoveIntent::Ranged));
    assert_eq!(offered_to(&events, bo), None);
    assert!(f.combat.window.is_none());
    assert!(moved(&events, goblin));
    assert_eq!(f.band(bo, goblin), Band::Near);
}

#[test]
fn enemies_take_opportunity_attacks_against_the_player_at_once() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        monster("Goblin", Monster::GOBLIN),
    ]);
    let (bo, goblin) = (f.id("Bo"), f.id("Goblin"));
    f.melee(bo, goblin);
    f.turn_of(bo);
    let events = f.act(bo, Command::Move(MoveIntent::Ranged));
    assert!(
        !any(&events, |e| matches!(e, Event::ReactionOffered { .. })),
        "monsters choose at once"
    );
    assert!(f.combat.window.is_none());
    let r = rolls(&events);
    assert_eq!(r.len(), 1);
    assert_eq!(
        (r[0].attacker, r[0].target, r[0].kind),
        (goblin, bo, AttackKind::Opportunity)
    );
    assert!(any(
        &events,
        |e| matches!(e, Event::AttackRolled { weapon, .. } if &**weapon == "Scimitar")
    ));
    let swing = position(&events, |e| matches!(e, Event::AttackRolled { .. })).unwrap();
    let left = position(&events, |e| matches!(e, Event::Moved { .. })).unwrap();
    assert!(swing < left);
    assert!(f.get(goblin).resources.reaction_used);
}

#[test]
fn cunning_action_disengage_suppresses_opportunity_attacks() {
    let mut f = Fight::new(vec![
        pc("Vex", Race::HUMAN, Class::ROGUE, 2),
        monster("Goblin", Monster::GOBLIN),
    ]);
    let (vex, goblin) = (f.id("Vex"), f.id("Goblin"));
    f.melee(vex, goblin);
    f.turn_of(vex);
    f.act(vex, Command::Bonus(BonusAction::CunningAction(CunningMove::Disengage)));
    let events = f.act(vex, Command::Move(MoveIntent::Ranged));
    assert!(rolls(&events).is_empty());
    assert!(!f.get(goblin).resources.reaction_used);
    assert_eq!(f.band(vex, goblin), Band::Near);
    assert!(!f.get(vex).resources.action_used, "the action is still free");
}

#[test]
fn quickling_blur_suppresses_opportunity_attacks() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Quickling", Monster::QUICKLING),
    ]);
    let (bo, quickling) = (f.id("Bo"), f.id("Quickling"));
    f.melee(bo, quickling);
    f.turn_of(quickling);
    let events = f.act(quickling, Command::Move(MoveIntent::Ranged));
    assert_eq!(offered_to(&events, bo), None);
    assert!(moved(&events, quickling));
    assert_eq!(f.band(bo, quickling), Band::Near);
}

#[test]
fn a_quickling_played_by_the_game_strikes_and_blurs_away_without_provoking() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 4),
        monster("Quickling", Monster::QUICKLING),
    ]);
    let (bo, quickling) = (f.id("Bo"), f.id("Quickling"));
    f.melee(bo, quickling);
    f.start_with_order(vec![bo, quickling]);
    let events = f.act(bo, Command::EndTurn);
    assert_eq!(
        rolls(&events).iter().filter(|r| r.attacker == quickling).count(),
        3,
        "{}",
        f.transcript()
    );
    assert!(moved(&events, quickling), "{}", common::lines(&f.combat, &events));
    assert!(!any(&events, |e| matches!(e, Event::ReactionOffered { .. })));
    assert_eq!(f.band(bo, quickling), Band::Near);
}

#[test]
fn tiefling_misty_step_out_of_melee_provokes_nothing() {
    let mut f = Fight::new(vec![
        pc("Zara", Race::TIEFLING, Class::ROGUE, 1),
        monster("Goblin", Monster::GOBLIN),
    ]);
    let (zara, goblin) = (f.id("Zara"), f.id("Goblin"));
    f.melee(zara, goblin);
    f.turn_of(zara);
    let events = f.act(zara, Command::Bonus(BonusAction::MistyStep { target: None }));
    assert!(rolls(&events).is_empty());
    assert!(any(&events, |e| matches!(e, Event::Teleported { .. })));
    assert_eq!(f.band(zara, goblin), Band::Near);
    assert!(!f.get(goblin).resources.reaction_used);
}

#[test]
fn the_misty_step_spell_out_of_melee_provokes_nothing() {
    let mut f = Fight::new(vec![
        pc("Aria", Race::HUMAN, Class::MAGE, 3),
        monster("Goblin", Monster::GOBLIN),
    ]);
    let (aria, goblin) = (f.id("Aria"), f.id("Goblin"));
    f.melee(aria, goblin);
    f.turn_of(aria);
    let events = f.act(aria, Command::Bonus(BonusAction::MistyStep { target: None }));
    assert!(rolls(&events).is_empty());
    assert_eq!(f.band(aria, goblin), Band::Near);
}

#[test]
fn leaving_two_enemies_offers_each_its_own_opportunity_attack() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        monster("Goblin 1", Monster::GOBLIN),
        monster("Goblin 2", Monster::GOBLIN),
    ]);
    let (bo, g1, g2) = (f.id("Bo"), f.id("Goblin 1"), f.id("Goblin 2"));
    f.melee(bo, g1);
    f.melee(bo, g2);
    f.turn_of(bo);
    let events = f.act(bo, Command::Move(MoveIntent::Ranged));
    let attackers: Vec<_> = rolls(&events).iter().map(|r| r.attacker).collect();
    assert_eq!(attackers.len(), 2);
    assert!(attackers.contains(&g1) && attackers.contains(&g2));
}

#[test]
fn an_enemy_without_its_reaction_gets_no_opportunity_attack() {
    let (mut f, bo, goblin) = goblin_leaving(1);
    f.get_mut(bo).resources.reaction_used = true;
    let events = f.act(goblin, Command::Move(MoveIntent::Ranged));
    assert_eq!(offered_to(&events, bo), None);
    assert!(moved(&events, goblin));
}

#[test]
fn moving_within_melee_or_into_melee_does_not_provoke() {
    let (mut f, bo, goblin) = goblin_leaving(1);
    let events = f.act(goblin, Command::Move(MoveIntent::Shift(Direction::North)));
    assert_eq!(offered_to(&events, bo), None);
    assert_eq!(f.band(bo, goblin), Band::Melee);
    let (mut f, bo, goblin) = goblin_leaving(1);
    f.set_band(bo, goblin, Band::Near);
    let events = f.act(goblin, Command::Move(MoveIntent::Melee(bo)));
    assert_eq!(offered_to(&events, bo), None);
    assert_eq!(f.band(bo, goblin), Band::Melee);
}

#[test]
fn an_opportunity_attack_is_a_melee_attack_even_for_an_archer() {
    let mut f = Fight::new(vec![
        pc("Rook", Race::HUMAN, Class::RANGER, 1),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let (rook, goblin) = (f.id("Rook"), f.id("Goblin"));
    f.melee(rook, goblin);
    f.turn_of(goblin);
    f.act(goblin, Command::Move(MoveIntent::Ranged));
    let events = f.act_with(rook, Command::React(ReactionKind::OpportunityAttack), |e, _| {
        rolls(e).first().is_some_and(|r| r.hit && !r.critical)
    });
    // An unarmed strike: 1 + STR 13 (+1), to hit with STR +1 and proficiency +2.
    assert_eq!(common::damage_to(&events, goblin), vec![2]);
    assert_eq!(rolls(&events)[0].total, rolls(&events)[0].d20.natural as i32 + 3);
    let weapon = events
        .iter()
        .find_map(|e| match e {
            Event::AttackRolled { weapon, .. } => Some(weapon.clone()),
            _ => None,
        })
        .unwrap();
    assert_ne!(&*weapon, "Longbow", "the longbow is not a melee weapon");
    assert_eq!(rolls(&events)[0].d20.mode, engine::dice::RollMode::Normal);
}

#[test]
fn who_would_strike_is_read_before_the_move_and_matches_the_offer() {
    let (mut f, bo, goblin) = goblin_leaving(1);
    assert_eq!(engine::opportunity::would_strike(&f.combat, goblin), vec![bo]);
    // The boss is far: leaving melee provokes no one on the other side.
    assert!(engine::opportunity::would_strike(&f.combat, f.id("Goblin Boss")).is_empty());
    // Bo's reaction spent: no one would strike.
    f.get_mut(bo).resources.reaction_used = true;
    assert!(engine::opportunity::would_strike(&f.combat, goblin).is_empty());
    f.get_mut(bo).resources.reaction_used = false;
    f.act(goblin, Command::Disengage);
    assert!(engine::opportunity::would_strike(&f.combat, goblin).is_empty());
    let events = f.act(goblin, Command::Move(MoveIntent::Ranged));
    assert_eq!(offered_to(&events, bo), None);
}
