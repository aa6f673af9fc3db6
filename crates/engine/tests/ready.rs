//! The Ready action (seed 000 §5): `<action> when <trigger>` parsed into a structured trigger;
//! it fires as the readier's reaction, and unfired by the start of their next turn it expires
//! with the action and the reaction both spent.

mod common;

use common::{Fight, advantage, any, healed, monster, offered_to, pc, position, puppet, rolls};
use engine::action_economy::Resource;
use engine::content::{Class, Monster, Race, Spell};
use engine::event::AttackKind;
use engine::readied::READY_FORMS;
use engine::{Band, CombatantId, Command, Event, MoveIntent, ReactionKind, RuleViolation};

/// A level-1 fighter (player) with a goblin the GM drives at Near; the fighter's turn.
fn fighter_and_goblin() -> (Fight, CombatantId, CombatantId) {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let (bo, goblin) = (f.id("Bo"), f.id("Goblin"));
    f.get_mut(goblin).hp = 40;
    f.start_with_order(vec![bo, goblin]);
    (f, bo, goblin)
}

fn ready(f: &mut Fight, id: CombatantId, text: &str) -> Vec<Event> {
    f.act(id, Command::Ready { text: text.into() })
}

#[test]
fn readying_spends_the_action_now_and_holds_the_reaction_for_the_trigger() {
    let (mut f, bo, _) = fighter_and_goblin();
    let events = ready(&mut f, bo, "attack when the goblin moves into melee range");
    assert!(any(&events, |e| matches!(
        e,
        Event::ReadiedActionSet { id, action, trigger }
            if *id == bo && action == "attack" && trigger == "the goblin moves into melee range"
    )));
    let r = f.get(bo).resources;
    assert!(r.action_used && r.reaction_used);
    assert!(!r.bonus_used);
    assert_eq!(r.movement_left(), 30, "Ready costs no movement");
}

#[test]
fn readied_attack_fires_when_the_goblin_moves_into_melee_range() {
    let (mut f, bo, goblin) = fighter_and_goblin();
    ready(&mut f, bo, "attack when the goblin moves into melee range");
    f.act(bo, Command::EndTurn);
    let events = f.act(goblin, Command::Move(MoveIntent::Melee(bo)));
    assert!(any(&events, |e| matches!(e, Event::Moved { id, .. } if *id == goblin)));
    assert_eq!(f.band(bo, goblin), Band::Melee, "the trigger is arriving in melee");
    assert_eq!(offered_to(&events, bo), Some(vec![ReactionKind::Readied]));
    let events = f.act(bo, Command::React(ReactionKind::Readied));
    let fired = position(&events, |e| {
        matches!(e, Event::ReadiedActionTriggered { id, trigger_by, action, .. } if *id == bo && *trigger_by == goblin && action == "attack")
    })
    .expect("the readied attack fires");
    let swing = position(&events, |e| matches!(e, Event::AttackRolled { .. })).unwrap();
    assert!(fired < swing);
    let r = &rolls(&events)[0];
    assert_eq!((r.attacker, r.target, r.kind), (bo, goblin, AttackKind::Readied));
    assert_eq!(r.total, r.d20.natural as i32 + 5);
}

#[test]
fn unfired_readied_action_expires_at_start_of_next_turn() {
    let (mut f, bo, goblin) = fighter_and_goblin();
    ready(&mut f, bo, "attack when the goblin moves into melee range");
    f.act(bo, Command::EndTurn);
    let events = f.act(goblin, Command::EndTurn);
    let expired = position(
        &events,
        |e| matches!(e, Event::ReadiedActionExpired { id, action } if *id == bo && action == "attack"),
    )
    .expect("the readied attack lapses");
    let started = position(&events, |e| matches!(e, Event::TurnStarted { id, .. } if *id == bo)).unwrap();
    assert!(expired <= started + 1);
    assert!(f.get(bo).readied.is_none());
    let r = f.get(bo).resources;
    assert!(!r.action_used && !r.reaction_used, "the new turn's resources are fresh");
    // The trigger coming later no longer fires anything.
    f.act(bo, Command::EndTurn);
    let events = f.act(goblin, Command::Move(MoveIntent::Melee(bo)));
    assert_eq!(offered_to(&events, bo), None);
}

#[test]
fn ready_text_that_cannot_be_parsed_is_refused_listing_the_accepted_forms() {
    let (mut f, bo, _) = fighter_and_goblin();
    for text in [
        "attack",
        "attack when the moon rises",
        "attack when the troll moves",
        "juggle when the goblin moves",
    ] {
        let why = f.refused_for(bo, Command::Ready { text: text.into() });
        match why {
            RuleViolation::UnparsableReady { forms, .. } => assert_eq!(forms, READY_FORMS, "{text}"),
            other => panic!("{text}: {other:?}"),
        }
    }
}

#[test]
fn ready_needs_both_the_action_and_the_reaction() {
    let (mut f, bo, _) = fighter_and_goblin();
    f.get_mut(bo).resources.reaction_used = true;
    assert_eq!(
        f.refused_for(
            bo,
            Command::Ready {
                text: "attack when the goblin moves".into()
            }
        ),
        RuleViolation::ResourceSpent {
            resource: Resource::Reaction
        }
    );
}

#[test]
fn a_readied_action_fires_only_once() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Goblin 1", Monster::GOBLIN),
        puppet("Goblin 2", Monster::GOBLIN),
    ]);
    let (bo, g1, g2) = (f.id("Bo"), f.id("Goblin 1"), f.id("Goblin 2"));
    f.get_mut(g1).hp = 40;
    f.start_with_order(vec![bo, g1, g2]);
    ready(&mut f, bo, "attack when a goblin moves into melee range");
    f.act(bo, Command::EndTurn);
    f.act(g1, Command::Move(MoveIntent::Melee(bo)));
    f.act(bo, Command::React(ReactionKind::Readied));
    f.act(g1, Command::EndTurn);
    let events = f.act(g2, Command::Move(MoveIntent::Melee(bo)));
    assert_eq!(offered_to(&events, bo), None);
}

#[test]
fn passing_on_a_readied_trigger_keeps_it_for_a_later_one() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Goblin 1", Monster::GOBLIN),
        puppet("Goblin 2", Monster::GOBLIN),
    ]);
    let (bo, g1, g2) = (f.id("Bo"), f.id("Goblin 1"), f.id("Goblin 2"));
    f.start_with_order(vec![bo, g1, g2]);
    ready(&mut f, bo, "attack when a goblin moves into melee range");
    f.act(bo, Command::EndTurn);
    f.act(g1, Command::Move(MoveIntent::Melee(bo)));
    f.act(bo, Command::Pass);
    f.act(g1, Command::EndTurn);
    let events = f.act(g2, Command::Move(MoveIntent::Melee(bo)));
    assert_eq!(offered_to(&events, bo), Some(vec![ReactionKind::Readied]));
}

#[test]
fn readied_attack_fires_when_an_enemy_leaves_melee_even_after_it_disengages() {
    let (mut f, bo, goblin) = fighter_and_goblin();
    f.melee(bo, goblin);
    ready(&mut f, bo, "attack when the goblin leaves melee");
    f.act(bo, Command::EndTurn);
    f.act(goblin, Command::Disengage);
    let events = f.act(goblin, Command::Move(MoveIntent::Ranged));
    assert_eq!(offered_to(&events, bo), Some(vec![ReactionKind::Readied]));
    let events = f.act(bo, Command::React(ReactionKind::Readied));
    let swing = position(&events, |e| matches!(e, Event::AttackRolled { .. })).unwrap();
    let left = position(&events, |e| matches!(e, Event::Moved { .. })).unwrap();
    assert!(swing < left, "it strikes before the goblin is gone");
}

#[test]
fn readied_attack_on_an_attack_against_an_ally_strikes_before_the_enemys_roll() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        pc("Vex", Race::HUMAN, Class::ROGUE, 1),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let (bo, vex, goblin) = (f.id("Bo"), f.id("Vex"), f.id("Goblin"));
    f.get_mut(goblin).hp = 40;
    f.melee(bo, goblin);
    f.melee(vex, goblin);
    f.start_with_order(vec![bo, vex, goblin]);
    ready(&mut f, bo, "attack when the goblin attacks an ally");
    f.act(bo, Command::EndTurn);
    f.act(vex, Command::EndTurn);
    let events = f.act(goblin, Command::Attack { target: Some(vex) });
    assert_eq!(offered_to(&events, bo), Some(vec![ReactionKind::Readied]));
    assert!(rolls(&events).is_empty(), "the goblin's swing waits");
    let events = f.act(bo, Command::React(ReactionKind::Readied));
    let attackers: Vec<_> = rolls(&events).iter().map(|r| r.attacker).collect();
    assert_eq!(attackers, vec![bo, goblin]);
}

#[test]
fn readied_cast_fires_when_an_enemy_casts_a_spell_and_spends_its_slot_then() {
    let mut f = Fight::new(vec![
        pc("Aria", Race::HUMAN, Class::MAGE, 1),
        puppet("Drow Mage", Monster::DROW_MAGE),
    ]);
    let (aria, drow) = (f.id("Aria"), f.id("Drow Mage"));
    f.get_mut(drow).pools.spell_slots[2] = 0;
    f.start_with_order(vec![aria, drow]);
    ready(&mut f, aria, "cast magic missile when an enemy casts a spell");
    assert_eq!(f.get(aria).pools.spell_slots[0], 2, "no slot is spent until it fires");
    f.act(aria, Command::EndTurn);
    let events = f.act(
        drow,
        Command::Cast {
            spell: Spell::MAGIC_MISSILE,
            target: Some(aria),
        },
    );
    assert_eq!(offered_to(&events, aria), Some(vec![ReactionKind::Readied]));
    let drow_hp = f.get(drow).hp;
    let events = f.act(aria, Command::React(ReactionKind::Readied));
    assert!(any(&events, |e| matches!(
        e,
        Event::SpellCast { caster, spell: Spell::MAGIC_MISSILE, slot: Some(1), target: Some(t) } if *caster == aria && *t == drow
    )));
    assert_eq!(f.get(aria).pools.spell_slots[0], 1);
    // Set off by the spell, and said so: not "… moves."
    assert!(any(&events, |e| matches!(
        e,
        Event::ReadiedActionTriggered { id, observed: Some(engine::readied::Observed::CastsSpell { caster, spell: Spell::MAGIC_MISSILE }), .. }
            if *id == aria && *caster == drow
    )));
    let to_drow: i32 = common::damage_to(&events, drow).iter().sum();
    assert_eq!(common::damage_to(&events, drow).len(), 3);
    assert_eq!(f.get(drow).hp, drow_hp - to_drow);
}

#[test]
fn readied_dodge_fires_when_the_dragon_uses_breath_weapon_before_the_breath_lands() {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 5),
        monster("Dragon", Monster::RED_DRAGON_WYRMLING),
    ]);
    let (bo, dragon) = (f.id("Bo"), f.id("Dragon"));
    f.set_band(bo, dragon, Band::Near);
    f.start_with_order(vec![bo, dragon]);
    assert!(engine::abilities::ready(f.get(dragon), 0));
    ready(&mut f, bo, "dodge when the dragon uses breath weapon");
    let events = f.act(bo, Command::EndTurn);
    assert!(any(
        &events,
        |e| matches!(e, Event::AbilityUsed { ability, .. } if ability == "Fire Breath")
    ));
    assert_eq!(offered_to(&events, bo), Some(vec![ReactionKind::Readied]));
    assert!(
        !any(&events, |e| matches!(e, Event::SavingThrow { .. })),
        "the breath waits"
    );
    let events = f.act(bo, Command::React(ReactionKind::Readied));
    let dodge = position(&events, |e| matches!(e, Event::Dodging { id } if *id == bo)).unwrap();
    let (at, d20) = events
        .iter()
        .enumerate()
        .find_map(|(i, e)| match e {
            Event::SavingThrow { id, d20, .. } if *id == bo => Some((i, *d20)),
            _ => None,
        })
        .unwrap();
    assert!(dodge < at);
    assert!(advantage(&d20), "Dodge gives the DEX save advantage");
}

// §5 "prepare an action to fire on a specified trigger": any of §2.1's actions that make sense
// as a reaction, each with its real effect.

/// Bo and Vex (level 1 fighter, rogue) against a goblin the GM drives, at Near; Bo's turn.
fn party_and_goblin() -> (Fight, CombatantId, CombatantId, CombatantId) {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        pc("Vex", Race::HUMAN, Class::ROGUE, 1),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let (bo, vex, goblin) = (f.id("Bo"), f.id("Vex"), f.id("Goblin"));
    f.get_mut(goblin).hp = 40;
    f.start_with_order(vec![bo, vex, goblin]);
    (f, bo, vex, goblin)
}

#[test]
fn ready_disengage_slips_out_of_reach_without_provoking_when_the_goblin_moves_into_melee() {
    let (mut f, bo, vex, goblin) = party_and_goblin();
    ready(&mut f, bo, "disengage when the goblin moves into melee range");
    f.act(bo, Command::EndTurn);
    f.act(vex, Command::EndTurn);
    let events = f.act(goblin, Command::Move(MoveIntent::Melee(bo)));
    assert_eq!(offered_to(&events, bo), Some(vec![ReactionKind::Readied]));
    let events = f.act(bo, Command::React(ReactionKind::Readied));
    assert!(any(&events, |e| matches!(e, Event::Disengaged { id } if *id == bo)));
    assert!(any(&events, |e| matches!(e, Event::Moved { id, .. } if *id == bo)));
    assert_eq!(f.band(bo, goblin), Band::Near, "out of its reach again");
    assert_eq!(offered_to(&events, goblin), None, "a Disengage provokes nothing");
}

/// A Disengage lasts the turn it is taken on: a held one, fired on the goblin's turn, is over
/// when that turn ends, and Bo's own next retreat provokes.
#[test]
fn a_held_disengage_ends_with_the_turn_it_fired_on() {
    let (mut f, bo, vex, goblin) = party_and_goblin();
    ready(&mut f, bo, "disengage when the goblin moves into melee range");
    f.act(bo, Command::EndTurn);
    f.act(vex, Command::EndTurn);
    f.act(goblin, Command::Move(MoveIntent::Melee(bo)));
    f.act(bo, Command::React(ReactionKind::Readied));
    assert!(f.get(bo).conditions.disengaged, "for the rest of the goblin's turn");
    f.act(goblin, Command::EndTurn);
    assert!(!f.get(bo).conditions.disengaged, "over with the goblin's turn");
    f.melee(bo, goblin);
    let events = f.act(bo, Command::Move(MoveIntent::Ranged));
    assert_eq!(
        offered_to(&events, goblin),
        Some(vec![ReactionKind::OpportunityAttack]),
        "Bo's own retreat provokes"
    );
}

/// A held Dash set off by the goblin's move runs before the goblin arrives: the goblin's move,
/// planned toward where Bo stood, does not land in melee with him.
#[test]
fn a_held_dash_outruns_the_move_that_set_it_off() {
    let (mut f, bo, vex, goblin) = party_and_goblin();
    ready(&mut f, bo, "dash when the goblin moves");
    f.act(bo, Command::EndTurn);
    f.act(vex, Command::EndTurn);
    let events = f.act(goblin, Command::Move(MoveIntent::Melee(bo)));
    assert_eq!(offered_to(&events, bo), Some(vec![ReactionKind::Readied]));
    let events = f.act(bo, Command::React(ReactionKind::Readied));
    assert!(any(&events, |e| matches!(e, Event::Dashed { id, .. } if *id == bo)));
    assert_ne!(
        f.band(bo, goblin),
        Band::Melee,
        "Bo is gone before the goblin gets there"
    );
    assert!(
        !any(
            &events,
            |e| matches!(e, Event::Moved { id, to, .. } if *id == goblin && to.contains(&(bo, Band::Melee)))
        ),
        "the goblin's move says it did not close in"
    );
}

#[test]
fn ready_dash_gets_away_a_band_when_the_goblin_moves() {
    let (mut f, bo, vex, goblin) = party_and_goblin();
    ready(&mut f, bo, "dash when the goblin moves");
    f.act(bo, Command::EndTurn);
    f.act(vex, Command::EndTurn);
    let events = f.act(
        goblin,
        Command::Move(MoveIntent::Shift(engine::movement::Direction::East)),
    );
    assert_eq!(offered_to(&events, bo), Some(vec![ReactionKind::Readied]));
    let events = f.act(bo, Command::React(ReactionKind::Readied));
    assert!(any(
        &events,
        |e| matches!(e, Event::Dashed { id, movement: 30 } if *id == bo)
    ));
    assert_eq!(f.band(bo, goblin), Band::Far, "near → far: 30 ft away");
}

#[test]
fn ready_help_gives_the_attacked_ally_advantage() {
    let (mut f, bo, vex, goblin) = party_and_goblin();
    f.melee(bo, goblin);
    f.act(bo, Command::EndTurn);
    ready(&mut f, vex, "help when the goblin attacks Bo");
    f.act(vex, Command::EndTurn);
    let events = f.act(goblin, Command::Attack { target: Some(bo) });
    assert_eq!(offered_to(&events, vex), Some(vec![ReactionKind::Readied]));
    let events = f.act(vex, Command::React(ReactionKind::Readied));
    assert!(any(
        &events,
        |e| matches!(e, Event::Helped { id, ally } if *id == vex && *ally == bo)
    ));
    assert!(f.get(bo).conditions.helped, "Bo's next attack has advantage");
}

#[test]
fn ready_hide_rolls_stealth_against_the_goblins_passive_perception() {
    let (mut f, bo, vex, goblin) = party_and_goblin();
    f.act(bo, Command::EndTurn);
    ready(&mut f, vex, "hide when the goblin moves");
    f.act(vex, Command::EndTurn);
    let events = f.act(goblin, Command::Move(MoveIntent::Melee(bo)));
    assert_eq!(offered_to(&events, vex), Some(vec![ReactionKind::Readied]));
    let events = f.act(vex, Command::React(ReactionKind::Readied));
    let (roll, against, hidden) = events
        .iter()
        .find_map(|e| match e {
            Event::HideAttempted {
                id,
                roll,
                against,
                hidden,
            } if *id == vex => Some((*roll, *against, *hidden)),
            _ => None,
        })
        .expect("Vex tries to hide");
    assert_eq!(against, f.get(goblin).passive_perception());
    assert_eq!(hidden, roll >= against);
    assert_eq!(f.get(vex).conditions.hidden.is_some(), hidden);
}

#[test]
fn ready_shove_prone_and_grapple_contest_str_when_the_goblin_closes_in() {
    for (text, prone) in [
        ("shove prone when the goblin moves into melee", true),
        ("grapple when the goblin moves into melee", false),
    ] {
        let (mut f, bo, vex, goblin) = party_and_goblin();
        ready(&mut f, bo, text);
        f.act(bo, Command::EndTurn);
        f.act(vex, Command::EndTurn);
        let events = f.act(goblin, Command::Move(MoveIntent::Melee(bo)));
        assert_eq!(offered_to(&events, bo), Some(vec![ReactionKind::Readied]), "{text}");
        let events = f.act(bo, Command::React(ReactionKind::Readied));
        let won = events
            .iter()
            .find_map(|e| match e {
                Event::Contest { id, target, won, .. } if *id == bo && *target == goblin => Some(*won),
                _ => None,
            })
            .expect("a STR contest");
        if prone {
            assert_eq!(f.get(goblin).conditions.prone, won, "{text}");
        } else {
            assert_eq!(f.get(goblin).conditions.grappled_by == Some(bo), won, "{text}");
            assert_eq!(f.get(goblin).speed() == 0, won, "grappled: speed 0");
        }
    }
}

#[test]
fn ready_use_item_gives_the_attacked_ally_a_potion() {
    let (mut f, bo, vex, goblin) = party_and_goblin();
    f.melee(bo, goblin);
    f.get_mut(vex)
        .set_items([(engine::content::Item::POTION_OF_HEALING, 1)].into());
    f.direct(Command::AdjustHp { target: bo, delta: -9 });
    f.act(bo, Command::EndTurn);
    ready(&mut f, vex, "use potion of healing on Bo when the goblin attacks Bo");
    f.act(vex, Command::EndTurn);
    let hp = f.get(bo).hp;
    let events = f.act(goblin, Command::Attack { target: Some(bo) });
    assert_eq!(offered_to(&events, vex), Some(vec![ReactionKind::Readied]));
    let mut next = f.upcoming();
    let amount = (next.die(4) + next.die(4)) as i32 + 2;
    let events = f.act(vex, Command::React(ReactionKind::Readied));
    assert!(any(
        &events,
        |e| matches!(e, Event::ItemUsed { id, target, .. } if *id == vex && *target == bo)
    ));
    assert_eq!(healed(&events, bo), vec![amount.min(f.get(bo).max_hp - hp)]);
    assert_eq!(f.get(vex).items.get(&engine::content::Item::POTION_OF_HEALING), None);
}

#[test]
fn a_held_action_that_cannot_be_done_now_stays_held_for_a_later_trigger() {
    // A shove needs the goblin in reach: its move at range passes the readied shove by.
    let (mut f, bo, vex, goblin) = party_and_goblin();
    f.set_band(bo, goblin, Band::Far);
    ready(&mut f, bo, "shove when the goblin moves");
    f.act(bo, Command::EndTurn);
    f.act(vex, Command::EndTurn);
    let events = f.act(goblin, Command::Move(MoveIntent::Toward));
    assert_eq!(offered_to(&events, bo), None, "far → near: still out of reach");
    assert!(f.get(bo).readied.as_ref().is_some_and(|r| !r.fired));
}
