//! Reactions (seed 000 §2.3): each row's gate, trigger and effect; a player-controlled reactor
//! gets a `ReactionOffered` event and an open window that only they may answer; monsters choose
//! at once.

mod common;

use common::{Fight, advantage, any, damage_to, offered_to, pc, puppet, rolls};
use engine::action_economy::Resource;
use engine::content::{Class, Monster, Race, Spell};
use engine::{Actor, Band, CombatantId, Command, Event, ReactionKind, ReactionTrigger, RuleViolation};

/// The damage of the hit a reaction window was opened for.
fn pending_hit(f: &Fight) -> i32 {
    match &f.combat.window.as_ref().expect("a window is open").trigger {
        ReactionTrigger::Hit { damage, .. } => *damage,
        other => panic!("not a hit: {other:?}"),
    }
}

/// `attacker` (a puppet whose turn it is) hits `target`, stopping at the first window.
fn hit(f: &mut Fight, attacker: CombatantId, target: CombatantId) -> Vec<Event> {
    f.act_with(attacker, Command::Attack { target: Some(target) }, |e, _| {
        rolls(e).first().is_some_and(|r| r.hit && !r.critical)
    })
}

/// A level-5 fighter, a rogue, and a goblin in melee with both; the goblin acts first.
fn goblin_turn(fighter_level: u32, rogue_level: u32) -> (Fight, CombatantId, CombatantId, CombatantId) {
    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, fighter_level),
        pc("Vex", Race::HUMAN, Class::ROGUE, rogue_level),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let (bo, vex, goblin) = (f.id("Bo"), f.id("Vex"), f.id("Goblin"));
    f.melee(bo, goblin);
    f.melee(vex, goblin);
    f.start_with_order(vec![goblin, bo, vex]);
    (f, bo, vex, goblin)
}

#[test]
fn parry_is_offered_to_a_fighter_of_level_five_hit_in_melee_and_reduces_damage_by_1d8_plus_dex() {
    let (mut f, bo, _, goblin) = goblin_turn(5, 1);
    let hp = f.get(bo).hp;
    let events = hit(&mut f, goblin, bo);
    assert_eq!(offered_to(&events, bo), Some(vec![ReactionKind::Parry]));
    let window = f.combat.window.clone().expect("the attack is suspended");
    assert_eq!(window.reactor, bo);
    assert!(damage_to(&events, bo).is_empty(), "damage waits for the reaction");
    assert_eq!(f.get(bo).hp, hp);
    let damage = pending_hit(&f);
    let mut next = f.upcoming();
    let parry = next.die(8) as i32 + 2; // DEX 14: +2
    let events = f.act(bo, Command::React(ReactionKind::Parry));
    let remaining = (damage - parry).max(0);
    assert!(any(&events, |e| matches!(
        e,
        Event::DamageReduced { reaction: ReactionKind::Parry, amount, remaining: r, .. }
            if *amount == damage - remaining && *r == remaining
    )));
    assert_eq!(f.get(bo).hp, hp - remaining);
    assert!(f.get(bo).resources.reaction_used);
    assert!(f.combat.window.is_none());
}

#[test]
fn parry_is_not_offered_below_fighter_level_five_or_against_a_ranged_hit() {
    let (mut f, bo, _, goblin) = goblin_turn(4, 1);
    let events = hit(&mut f, goblin, bo);
    assert_eq!(offered_to(&events, bo), None);
    assert!(f.combat.window.is_none());

    let (mut f, bo, _, goblin) = goblin_turn(5, 1);
    f.set_band(bo, goblin, Band::Near);
    let events = hit(&mut f, goblin, bo);
    assert_eq!(rolls(&events)[0].target, bo);
    assert_eq!(offered_to(&events, bo), None, "the shortbow is a ranged attack");
}

#[test]
fn uncanny_dodge_halves_the_damage_of_a_seen_attacker_for_a_rogue_of_level_five() {
    let (mut f, _, vex, goblin) = goblin_turn(1, 5);
    let events = hit(&mut f, goblin, vex);
    assert_eq!(offered_to(&events, vex), Some(vec![ReactionKind::UncannyDodge]));
    let damage = pending_hit(&f);
    let events = f.act(vex, Command::React(ReactionKind::UncannyDodge));
    assert_eq!(damage_to(&events, vex), vec![damage / 2]);

    let (mut f, _, vex, goblin) = goblin_turn(1, 4);
    let events = hit(&mut f, goblin, vex);
    assert_eq!(offered_to(&events, vex), None, "level 4 has no Uncanny Dodge");
}

#[test]
fn uncanny_dodge_is_not_offered_against_a_hidden_attacker() {
    let (mut f, _, vex, goblin) = goblin_turn(1, 5);
    f.get_mut(goblin).conditions.hidden = Some(25);
    let events = hit(&mut f, goblin, vex);
    assert!(
        advantage(&rolls(&events)[0].d20),
        "the hidden goblin attacks with advantage"
    );
    assert_eq!(offered_to(&events, vex), None, "Vex could not see the attacker");
    assert_eq!(damage_to(&events, vex).len(), 1);
}

#[test]
fn among_forty_interception_is_offered_only_to_those_who_have_it_and_never_to_the_rest() {
    // Two fighters of level 3 (Interception), 36 of level 1 (none), all in melee with the goblin
    // that hits Vex: the two are asked in turn, the recruits never.
    let mut cast = vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 3),
        pc("Vex", Race::HUMAN, Class::ROGUE, 1),
        puppet("Goblin", Monster::GOBLIN),
    ];
    cast.extend((1..=36).map(|i| pc(&format!("Recruit {i}"), Race::HUMAN, Class::FIGHTER, 1)));
    cast.push(pc("Cy", Race::HUMAN, Class::FIGHTER, 3));
    let mut f = Fight::new(cast);
    assert_eq!(f.combat.combatants.len(), engine::join::MAX_COMBATANTS);
    let (bo, vex, goblin, cy) = (f.id("Bo"), f.id("Vex"), f.id("Goblin"), f.id("Cy"));
    let allies: Vec<CombatantId> = f
        .combat
        .combatants
        .iter()
        .map(|c| c.id)
        .filter(|&id| id != goblin)
        .collect();
    for &ally in &allies {
        f.melee(ally, goblin);
    }
    let mut order = vec![goblin];
    order.extend(&allies);
    f.start_with_order(order);
    let hp = f.get(vex).hp;

    let events = hit(&mut f, goblin, vex);
    assert_eq!(offered_to(&events, bo), Some(vec![ReactionKind::Interception]));
    let damage = pending_hit(&f);
    let events = f.act(bo, Command::Pass);
    assert_eq!(offered_to(&events, cy), Some(vec![ReactionKind::Interception]));
    f.act(cy, Command::Pass);
    assert_eq!(f.get(vex).hp, hp - damage, "both passed: the hit lands whole");
    let asked: Vec<CombatantId> = f
        .log
        .iter()
        .filter_map(|e| match e {
            Event::ReactionOffered { reactor, .. } => Some(*reactor),
            _ => None,
        })
        .collect();
    assert_eq!(asked, [bo, cy], "no recruit is asked");
}

#[test]
fn interception_reduces_damage_to_an_ally_in_melee_by_1d10_plus_proficiency() {
    let (mut f, bo, vex, goblin) = goblin_turn(3, 1);
    let hp = f.get(vex).hp;
    let events = hit(&mut f, goblin, vex);
    assert_eq!(offered_to(&events, bo), Some(vec![ReactionKind::Interception]));
    let damage = pending_hit(&f);
    let mut next = f.upcoming();
    let cut = next.die(10) as i32 + 2;
    f.act(bo, Command::React(ReactionKind::Interception));
    assert_eq!(f.get(vex).hp, hp - (damage - cut).max(0));
    assert!(f.get(bo).resources.reaction_used);

    let (mut f, bo, vex, goblin) = goblin_turn(2, 1);
    let events = hit(&mut f, goblin, vex);
    assert_eq!(offered_to(&events, bo), None, "Interception needs fighter level 3");
}

#[test]
fn shield_of_faith_spends_divine_favor_for_an_advantaged_death_save_when_an_ally_drops() {
    let mut f = Fight::new(vec![
        pc("Mira", Race::HUMAN, Class::CLERIC, 1),
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (mira, bo, ogre) = (f.id("Mira"), f.id("Bo"), f.id("Ogre"));
    f.melee(bo, ogre);
    f.start_with_order(vec![ogre, mira, bo]);
    f.get_mut(bo).hp = 1;
    let events = hit(&mut f, ogre, bo);
    assert!(any(&events, |e| matches!(e, Event::Downed { id } if *id == bo)));
    assert_eq!(offered_to(&events, mira), Some(vec![ReactionKind::ShieldOfFaith]));
    assert!(matches!(
        f.combat.window.as_ref().unwrap().trigger,
        ReactionTrigger::DroppedToZero { ally } if ally == bo
    ));
    let events = f.act(mira, Command::React(ReactionKind::ShieldOfFaith));
    assert_eq!(f.get(mira).pools.divine_favor, 0);
    let save = events
        .iter()
        .find_map(|e| match e {
            Event::DeathSaveRolled { id, d20, .. } if *id == bo => Some(*d20),
            _ => None,
        })
        .expect("the ally makes a death save");
    assert!(advantage(&save));
}

#[test]
fn shield_of_faith_is_not_offered_without_divine_favor() {
    let mut f = Fight::new(vec![
        pc("Mira", Race::HUMAN, Class::CLERIC, 1),
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (mira, bo, ogre) = (f.id("Mira"), f.id("Bo"), f.id("Ogre"));
    f.melee(bo, ogre);
    f.get_mut(mira).pools.divine_favor = 0;
    f.start_with_order(vec![ogre, mira, bo]);
    f.get_mut(bo).hp = 1;
    let events = hit(&mut f, ogre, bo);
    assert!(any(&events, |e| matches!(e, Event::Downed { .. })));
    assert_eq!(offered_to(&events, mira), None);
}

/// A level-5 mage against a drow mage whose turn comes next.
fn mage_duel() -> (Fight, CombatantId, CombatantId) {
    let mut f = Fight::new(vec![
        pc("Aria", Race::HUMAN, Class::MAGE, 5),
        common::monster("Drow Mage", Monster::DROW_MAGE),
    ]);
    let (aria, drow) = (f.id("Aria"), f.id("Drow Mage"));
    f.start_with_order(vec![aria, drow]);
    (f, aria, drow)
}

#[test]
fn counterspell_spends_a_slot_and_cancels_the_spell_on_an_int_check_against_ten_plus_its_level() {
    let (mut f, aria, drow) = mage_duel();
    f.get_mut(drow).pools.spell_slots[2] = 0; // no counter-counterspell
    let events = f.act(aria, Command::EndTurn);
    assert!(any(
        &events,
        |e| matches!(e, Event::SpellCast { caster, spell: Spell::MAGIC_MISSILE, .. } if *caster == drow)
    ));
    assert_eq!(offered_to(&events, aria), Some(vec![ReactionKind::Counterspell]));
    let mut next = f.upcoming();
    let roll = next.die(20) as i32 + 3; // INT 16: +3
    let hp = f.get(aria).hp;
    let events = f.act(aria, Command::React(ReactionKind::Counterspell));
    assert_eq!(f.get(aria).pools.spell_slots[2], 1, "one of two 3rd-level slots");
    assert!(any(
        &events,
        |e| matches!(e, Event::ReactionTaken { reactor, reaction: ReactionKind::Counterspell } if *reactor == aria)
    ));
    if roll >= 11 {
        assert!(any(
            &events,
            |e| matches!(e, Event::SpellCountered { spell: Spell::MAGIC_MISSILE, by, roll: r, dc: 11, .. } if *by == aria && *r == roll)
        ));
        assert!(damage_to(&events, aria).is_empty());
        assert_eq!(f.get(aria).hp, hp);
    } else {
        assert!(any(
            &events,
            |e| matches!(e, Event::CounterspellFailed { roll: r, dc: 11, .. } if *r == roll)
        ));
        assert_eq!(damage_to(&events, aria).len(), 3);
    }
}

#[test]
fn counterspell_succeeds_and_fails_by_the_dc() {
    for want_success in [true, false] {
        let (mut f, aria, drow) = mage_duel();
        f.get_mut(drow).pools.spell_slots[2] = 0;
        f.act(aria, Command::EndTurn);
        let events = f.act_where(
            Actor::Combatant(aria),
            Command::React(ReactionKind::Counterspell),
            |e, _| any(e, |e| matches!(e, Event::SpellCountered { .. })) == want_success,
        );
        if want_success {
            assert!(damage_to(&events, aria).is_empty());
        } else {
            let (roll, dc) = events
                .iter()
                .find_map(|e| match e {
                    Event::CounterspellFailed { roll, dc, .. } => Some((*roll, *dc)),
                    _ => None,
                })
                .unwrap();
            assert_eq!(dc, 10 + 1, "Magic Missile is 1st level");
            assert!(roll < dc);
        }
    }
}

#[test]
fn counterspell_needs_a_mage_of_level_five() {
    let mut f = Fight::new(vec![
        pc("Aria", Race::HUMAN, Class::MAGE, 4),
        common::monster("Drow Mage", Monster::DROW_MAGE),
    ]);
    let (aria, drow) = (f.id("Aria"), f.id("Drow Mage"));
    f.get_mut(drow).pools.spell_slots[2] = 0;
    f.start_with_order(vec![aria, drow]);
    let events = f.act(aria, Command::EndTurn);
    assert!(any(&events, |e| matches!(e, Event::SpellCast { .. })));
    assert_eq!(offered_to(&events, aria), None);
}

#[test]
fn counterspell_chain_resolves_responder_first() {
    let (mut f, aria, drow) = mage_duel();
    // Aria casts Fireball; the drow counterspells at once; Aria is offered a counter-counterspell.
    let events = f.act(
        aria,
        Command::Cast {
            spell: Spell::FIREBALL,
            target: Some(drow),
        },
    );
    assert!(any(
        &events,
        |e| matches!(e, Event::SpellCast { caster, spell: Spell::COUNTERSPELL, .. } if *caster == drow)
    ));
    assert_eq!(offered_to(&events, aria), Some(vec![ReactionKind::Counterspell]));
    assert!(!any(&events, |e| matches!(
        e,
        Event::SpellCountered { .. } | Event::CounterspellFailed { .. }
    )));
    for aria_wins in [true, false] {
        let mut g = Fight {
            combat: f.combat.clone(),
            dice: f.dice.clone(),
            log: vec![],
        };
        let events = g.act_where(
            Actor::Combatant(aria),
            Command::React(ReactionKind::Counterspell),
            |e, _| {
                any(
                    e,
                    |e| matches!(e, Event::SpellCountered { by, spell: Spell::COUNTERSPELL, .. } if *by == aria),
                ) == aria_wins
            },
        );
        // The last counterspell cast (Aria's) is checked first.
        let first_check = events
            .iter()
            .find_map(|e| match e {
                Event::SpellCountered { by, .. } | Event::CounterspellFailed { by, .. } => Some(*by),
                _ => None,
            })
            .unwrap();
        assert_eq!(first_check, aria, "responder first");
        let drow_checked = any(
            &events,
            |e| matches!(e, Event::SpellCountered { by, .. } | Event::CounterspellFailed { by, .. } if *by == drow),
        );
        let fireball_lands = any(&events, |e| matches!(e, Event::SavingThrow { id, .. } if *id == drow));
        if aria_wins {
            assert!(!drow_checked, "a countered counterspell makes no check");
            assert!(fireball_lands);
        } else {
            assert!(drow_checked);
        }
        assert_eq!(
            g.get(aria).pools.spell_slots[2],
            0,
            "Fireball and Counterspell: both 3rd-level slots"
        );
    }
}

#[test]
fn evasion_turns_a_failed_dex_save_into_a_success_for_a_rogue_of_level_seven() {
    for (class, level, offered) in [
        (Class::ROGUE, 7, true),
        (Class::RANGER, 7, true),
        (Class::ROGUE, 6, false),
        (Class::RANGER, 6, false),
    ] {
        let mut f = Fight::new(vec![
            pc("Vex", Race::HUMAN, class, level),
            puppet("Drow Mage", Monster::DROW_MAGE),
        ]);
        let (vex, drow) = (f.id("Vex"), f.id("Drow Mage"));
        f.start_with_order(vec![drow, vex]);
        let events = f.act_with(
            drow,
            Command::Cast {
                spell: Spell::FIREBALL,
                target: Some(vex),
            },
            |e, _| any(e, |e| matches!(e, Event::SavingThrow { success: false, .. })),
        );
        if !offered {
            assert_eq!(offered_to(&events, vex), None, "{class:?} {level}");
            continue;
        }
        assert_eq!(offered_to(&events, vex), Some(vec![ReactionKind::Evasion]));
        let rolled = match f.combat.window.as_ref().unwrap().trigger {
            ReactionTrigger::FailedDexSave { damage, .. } => damage,
            ref other => panic!("{other:?}"),
        };
        let events = f.act(vex, Command::React(ReactionKind::Evasion));
        assert_eq!(
            damage_to(&events, vex),
            vec![rolled / 2],
            "a success against Fireball is half"
        );
    }
}

#[test]
fn only_the_offered_player_may_answer_the_window_and_everything_else_waits() {
    let (mut f, bo, vex, goblin) = goblin_turn(5, 1);
    hit(&mut f, goblin, bo);
    let bo_name = "Bo".to_owned();
    assert_eq!(
        f.refused_for(vex, Command::React(ReactionKind::Parry)),
        RuleViolation::NotYourReaction {
            reactor: bo_name.clone()
        }
    );
    assert_eq!(
        f.refused_for(vex, Command::Pass),
        RuleViolation::NotYourReaction {
            reactor: bo_name.clone()
        }
    );
    assert_eq!(
        f.refused_for(goblin, Command::EndTurn),
        RuleViolation::AwaitingReaction {
            reactor: bo_name.clone()
        }
    );
    assert_eq!(
        f.refused_for(bo, Command::React(ReactionKind::UncannyDodge)),
        RuleViolation::ReactionNotOffered {
            offered: "Parry".into()
        }
    );
    assert_eq!(
        f.refused(Actor::Director, Command::React(ReactionKind::Parry)),
        RuleViolation::NotYourReaction { reactor: bo_name }
    );
}

#[test]
fn passing_closes_the_window_and_the_suspended_action_completes_in_full() {
    let (mut f, bo, _, goblin) = goblin_turn(5, 1);
    let hp = f.get(bo).hp;
    hit(&mut f, goblin, bo);
    let damage = pending_hit(&f);
    let events = f.act(bo, Command::Pass);
    assert!(any(
        &events,
        |e| matches!(e, Event::ReactionPassed { reactor } if *reactor == bo)
    ));
    assert_eq!(damage_to(&events, bo), vec![damage]);
    assert_eq!(f.get(bo).hp, hp - damage);
    assert!(!f.get(bo).resources.reaction_used, "passing keeps the reaction");
    assert!(f.combat.window.is_none());
    assert_eq!(f.refused_for(bo, Command::Pass), RuleViolation::NoReactionPending);
}

#[test]
fn the_director_passes_a_timed_out_window() {
    let (mut f, bo, _, goblin) = goblin_turn(5, 1);
    hit(&mut f, goblin, bo);
    let damage = pending_hit(&f);
    let events = f.direct(Command::Pass);
    assert_eq!(damage_to(&events, bo), vec![damage]);
    assert_eq!(
        f.refused(Actor::Director, Command::Pass),
        RuleViolation::NoReactionPending
    );
}

#[test]
fn a_used_reaction_is_gone_until_the_start_of_the_reactors_next_turn() {
    let (mut f, bo, _, goblin) = goblin_turn(5, 1);
    f.get_mut(goblin).sheet_mut().kind =
        engine::combatant::Kind::Monster(std::sync::Arc::clone(Monster::BANDIT_CAPTAIN.def())); // two swings
    let events = f.act_with(goblin, Command::Attack { target: Some(bo) }, |e, _| {
        rolls(e).first().is_some_and(|r| r.hit && !r.critical)
    });
    assert_eq!(offered_to(&events, bo), Some(vec![ReactionKind::Parry]));
    let events = f.act_with(bo, Command::React(ReactionKind::Parry), |e, _| {
        rolls(e).first().is_some_and(|r| r.hit && !r.critical)
    });
    assert_eq!(rolls(&events)[0].swing, 2);
    assert_eq!(offered_to(&events, bo), None, "the reaction is spent");
    assert!(f.combat.window.is_none());
    f.act(goblin, Command::EndTurn);
    assert_eq!(f.current(), bo);
    assert!(!f.get(bo).resources.reaction_used);
    assert_eq!(f.get(bo).resources.check(Resource::Reaction), Ok(()));
}
