//! TDGS (seed 001): REF → LUK → d2 order fixed at scene start, the Instant phase, the turn's
//! 1 action + 1 step + free actions, Interrupts with limits, chains responder-first, Ready,
//! Delay, simultaneous events, and scene-end resets.

mod common;

use common::{Fight, any, monster, now, offered_to, pc, position, puppet};
use engine::content::{Behaviour, Class, Monster, Race, Spell};
use engine::dice::RollMode;
use engine::event::StatInitiative;
use engine::resolve::Step;
use engine::timing::tdgs::{self, Instant, Limit};
use engine::{
    Actor, Band, Combat, Combatant, CombatantId, Command, Controller, Dice, Event, MoveIntent, ReactionKind,
    RuleViolation, Ruleset, Terrain, apply,
};

fn tdgs_fight(combatants: Vec<Combatant>) -> Fight {
    let mut f = Fight::new(combatants);
    f.combat.ruleset = Ruleset::Tdgs;
    f
}

/// Sets REF (DEX) and LUK (CHA).
fn stats(mut c: Combatant, reflex: i32, luck: i32) -> Combatant {
    c.abilities.dex = reflex;
    c.abilities.cha = luck;
    c
}

fn fixed_order(events: &[Event]) -> Vec<StatInitiative> {
    events
        .iter()
        .find_map(|e| match e {
            Event::InitiativeFixed { order } => Some(order.clone()),
            _ => None,
        })
        .expect("the order is fixed")
}

fn instants(events: &[Event]) -> Vec<(CombatantId, Instant, i32)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::InstantResolved {
                id,
                instant,
                instant_ref,
            } => Some((*id, *instant, *instant_ref)),
            _ => None,
        })
        .collect()
}

#[test]
fn initiative_is_ref_then_luk_and_is_not_rolled() {
    let mut f = tdgs_fight(vec![
        stats(pc("Bren", Race::HUMAN, Class::FIGHTER, 1), 14, 12),
        stats(puppet("Goblin", Monster::GOBLIN), 14, 8),
        stats(pc("Aria", Race::HUMAN, Class::CLERIC, 1), 16, 10),
    ]);
    let before = f.dice.position();
    let events = f.direct(Command::Begin);
    let order: Vec<(CombatantId, i32, i32)> = fixed_order(&events).iter().map(|e| (e.id, e.reflex, e.luck)).collect();
    assert_eq!(
        order,
        vec![(f.id("Aria"), 16, 10), (f.id("Bren"), 14, 12), (f.id("Goblin"), 14, 8)]
    );
    assert!(fixed_order(&events).iter().all(|e| e.flips.is_empty()));
    assert_eq!(f.dice.position(), before, "REF 16 IS faster than REF 14: no dice");
    assert_eq!(f.current(), f.id("Aria"));
}

#[test]
fn three_or_more_tied_entities_flip_d2_together_until_resolved() {
    let tied: Vec<(CombatantId, i32, i32)> = (0..4).map(|i| (CombatantId(i), 12, 10)).collect();
    let mut saw_a_second_flip = false;
    for seed in 0..300 {
        let order = tdgs::order_by_ref_luk_d2(&tied, &mut Dice::seeded(seed));
        let ids: std::collections::BTreeSet<_> = order.iter().map(|(id, _)| *id).collect();
        assert_eq!(ids.len(), 4, "a permutation");
        // Everyone flipped in the first round of flips, and each later entry's flips are lower:
        // higher results act before lower ones, remaining ties flipped again.
        for pair in order.windows(2) {
            let (a, b) = (&pair[0].1, &pair[1].1);
            assert!(!a.is_empty() && !b.is_empty());
            let first_difference = a.iter().zip(b).find(|(x, y)| x != y);
            assert!(
                matches!(first_difference, Some((2, 1))),
                "seed {seed}: {order:?} is not resolved by the flips"
            );
        }
        saw_a_second_flip |= order.iter().any(|(_, flips)| flips.len() > 1);
    }
    assert!(saw_a_second_flip);
}

#[test]
fn the_order_persists_across_rounds_and_is_refixed_only_when_ref_or_luk_change() {
    let mut f = tdgs_fight(vec![
        stats(pc("Aria", Race::HUMAN, Class::CLERIC, 1), 14, 10),
        stats(pc("Bren", Race::HUMAN, Class::CLERIC, 1), 14, 10),
        stats(puppet("Goblin", Monster::GOBLIN), 8, 8),
    ]);
    let events = f.direct(Command::Begin);
    let first: Vec<CombatantId> = fixed_order(&events).iter().map(|e| e.id).collect();
    for _ in 0..3 {
        let who = f.current();
        f.act(who, Command::EndTurn);
    }
    assert_eq!(f.combat.round, 2);
    assert!(!any(&f.log[events.len()..], |e| matches!(
        e,
        Event::InitiativeFixed { .. }
    )));
    assert_eq!(f.combat.order, first, "same order in round 2");
    // A change of REF refixes the order at the next round's start.
    let goblin = f.id("Goblin");
    f.get_mut(goblin).abilities.dex = 20;
    let before = f.log.len();
    for _ in 0..3 {
        let who = f.current();
        f.act(who, Command::EndTurn);
    }
    let refixed = fixed_order(&f.log[before..]);
    assert_eq!(refixed[0].id, goblin);
    assert_eq!(f.current(), goblin);
}

#[test]
fn instants_resolve_by_instant_ref_quick_draw_12_battle_cry_8_premonition_5() {
    // Seed 001's example: Fighter "Battle Cry" (8), Rogue "Quick Draw" (12), Wizard "Premonition" (5).
    let mut f = tdgs_fight(vec![
        stats(pc("Fighter", Race::HUMAN, Class::FIGHTER, 1), 18, 10),
        stats(pc("Rogue", Race::HUMAN, Class::ROGUE, 1), 10, 10),
        stats(pc("Wizard", Race::HUMAN, Class::MAGE, 1), 14, 10),
        stats(puppet("Goblin", Monster::GOBLIN), 8, 8),
    ]);
    let (fighter, rogue, wizard) = (f.id("Fighter"), f.id("Rogue"), f.id("Wizard"));
    let order = tdgs::order_instants(
        &f.combat,
        &[
            (fighter, Instant::BattleCry),
            (rogue, Instant::QuickDraw),
            (wizard, Instant::Premonition),
        ],
        &mut Dice::seeded(0),
    );
    assert_eq!(
        order,
        vec![
            (rogue, Instant::QuickDraw),
            (fighter, Instant::BattleCry),
            (wizard, Instant::Premonition)
        ]
    );
    // In play: declared during round 1, resolved in round 2's Instant phase, before any turn.
    f.direct(Command::Begin);
    for (id, instant) in [
        (fighter, Instant::BattleCry),
        (rogue, Instant::QuickDraw),
        (wizard, Instant::Premonition),
    ] {
        // Declaring changes nothing but the declaration: for the next round's Instant phase.
        assert_eq!(
            f.act(id, Command::DeclareInstant(instant)),
            vec![Event::InstantDeclared { id, instant, round: 2 }]
        );
    }
    let before = f.log.len();
    for _ in 0..4 {
        let who = f.current();
        f.act(who, Command::EndTurn);
    }
    let round_two = &f.log[before..];
    assert_eq!(
        instants(round_two),
        vec![
            (rogue, Instant::QuickDraw, 12),
            (fighter, Instant::BattleCry, 8),
            (wizard, Instant::Premonition, 5)
        ]
    );
    let last_instant = round_two
        .iter()
        .rposition(|e| matches!(e, Event::InstantResolved { .. }))
        .unwrap();
    let first_turn = round_two
        .iter()
        .position(|e| matches!(e, Event::TurnStarted { round: 2, .. }))
        .unwrap();
    assert!(last_instant < first_turn, "Instants resolve before the Action phase");
    assert!(
        f.get(rogue).conditions.helped,
        "Quick Draw: advantage on the next attack"
    );
    assert!(f.get(wizard).conditions.helped, "Battle Cry: allies' next attack");
    assert!(f.get(wizard).conditions.dodging, "Premonition");
}

#[test]
fn instant_ties_go_to_luk_and_an_instant_without_its_own_ref_uses_its_user_s() {
    let c = Combat::new(
        vec![
            stats(pc("Rook", Race::HUMAN, Class::ROGUE, 1), 10, 8),
            stats(pc("Rue", Race::HUMAN, Class::ROGUE, 1), 10, 15),
            stats(pc("Robin", Race::HUMAN, Class::RANGER, 1), 9, 10),
        ],
        Terrain::default(),
    );
    assert_eq!(Instant::SteadyAim.reflex_for(c.get(CombatantId(2))), 9);
    let order = tdgs::order_instants(
        &c,
        &[
            (CombatantId(2), Instant::SteadyAim),
            (CombatantId(0), Instant::QuickDraw),
            (CombatantId(1), Instant::QuickDraw),
        ],
        &mut Dice::seeded(0),
    );
    let ids: Vec<CombatantId> = order.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, vec![CombatantId(1), CombatantId(0), CombatantId(2)]);
}

#[test]
fn only_a_class_s_own_instant_may_be_declared_and_only_under_tdgs() {
    let mut f = tdgs_fight(vec![
        pc("Wizard", Race::HUMAN, Class::MAGE, 1),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let wizard = f.id("Wizard");
    f.direct(Command::Begin);
    let why = f.refused_for(wizard, Command::DeclareInstant(Instant::QuickDraw));
    assert!(matches!(why, RuleViolation::NotEligible { .. }));
    let mut g = Fight::new(vec![
        pc("Wizard", Race::HUMAN, Class::MAGE, 1),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    g.direct(Command::Begin);
    let why = g.refused_for(wizard, Command::DeclareInstant(Instant::Premonition));
    assert!(matches!(why, RuleViolation::NotInThisRuleset { .. }));
}

#[test]
fn an_instant_is_once_a_scene_for_a_player_and_the_ai_alike_and_comes_back_next_scene() {
    // The AI: its class's Instant resolves in round 1's Instant phase and never again that scene.
    let rogue = engine::Combatant::character(
        "Rook",
        Race::HUMAN,
        Class::ROGUE,
        5,
        Controller::Ai(Behaviour::Aggressive),
    );
    let mut ogre = monster("Ogre", Monster::OGRE);
    (ogre.hp, ogre.max_hp) = (400, 400);
    let mut combat = Combat::new(vec![rogue, ogre], Terrain::default()).with_ruleset(Ruleset::Tdgs);
    let events = apply(
        &mut combat,
        Actor::Director,
        Command::Begin,
        &mut Dice::seeded(3),
        now(),
    )
    .unwrap();
    let rounds = events
        .iter()
        .filter(|e| matches!(e, Event::RoundStarted { .. }))
        .count();
    assert!(rounds >= 3, "{rounds} rounds");
    let resolved: Vec<_> = instants(&events);
    assert_eq!(
        resolved,
        vec![(CombatantId(0), Instant::QuickDraw, 12)],
        "once, in round 1"
    );

    // A player: declared and resolved once; declaring it again this scene is refused and changes
    // nothing; scene end gives it back.
    let mut f = tdgs_fight(vec![
        pc("Rook", Race::HUMAN, Class::ROGUE, 1),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let rook = f.id("Rook");
    f.act(rook, Command::DeclareInstant(Instant::QuickDraw));
    f.direct(Command::Begin);
    assert_eq!(f.get(rook).tdgs().instants_used, vec![Instant::QuickDraw]);
    let before = f.combat.clone();
    assert_eq!(
        f.refused_for(rook, Command::DeclareInstant(Instant::QuickDraw)),
        RuleViolation::SpentThisScene {
            ability: "Quick Draw".into()
        }
    );
    assert_eq!(f.combat, before);
    tdgs::scene_end(&mut f.combat);
    assert!(f.get(rook).tdgs().instants_used.is_empty());
}

#[test]
fn a_turn_is_one_action_and_one_step_before_or_after_it_never_both() {
    let mut f = tdgs_fight(vec![
        stats(pc("Aria", Race::HUMAN, Class::FIGHTER, 1), 18, 10),
        stats(puppet("Ogre", Monster::OGRE), 8, 8),
    ]);
    let (aria, ogre) = (f.id("Aria"), f.id("Ogre"));
    f.get_mut(ogre).hp = 200;
    f.direct(Command::Begin);
    // Step, then action.
    f.act(aria, Command::Move(MoveIntent::Melee(ogre)));
    f.act(aria, Command::Attack { target: Some(ogre) });
    assert_eq!(
        f.refused_for(aria, Command::Attack { target: Some(ogre) }),
        RuleViolation::ResourceSpent {
            resource: engine::action_economy::Resource::Action
        }
    );
    assert_eq!(
        f.refused_for(aria, Command::Move(MoveIntent::Away)),
        RuleViolation::StepSpent
    );
    f.act(aria, Command::EndTurn);
    f.act(ogre, Command::EndTurn);
    // Action, then step; and the unused action of a turn is not banked.
    f.act(aria, Command::Attack { target: Some(ogre) });
    f.act(aria, Command::Move(MoveIntent::Away));
    f.act(ogre, Command::Pass); // the ogre's Opportunity Attack (monsters have one)
    assert_eq!(f.band(aria, ogre), Band::Near);
    assert_eq!(
        f.refused_for(aria, Command::Move(MoveIntent::Toward)),
        RuleViolation::StepSpent
    );
}

#[test]
fn a_step_is_one_move_its_unused_feet_are_forfeit_and_dash_buys_one_more_move() {
    let mut f = tdgs_fight(vec![
        stats(pc("Aria", Race::HUMAN, Class::FIGHTER, 1), 18, 10),
        stats(puppet("Ogre", Monster::OGRE), 8, 8),
    ]);
    let (aria, ogre) = (f.id("Aria"), f.id("Ogre"));
    f.direct(Command::Begin);
    f.act(
        aria,
        Command::Move(MoveIntent::Shift(engine::movement::Direction::North)),
    );
    assert_eq!(
        f.get(aria).resources.movement_left(),
        0,
        "the step's unused feet are gone"
    );
    f.act(aria, Command::Dash);
    f.act(aria, Command::Move(MoveIntent::Melee(ogre)));
    assert_eq!(f.band(aria, ogre), Band::Melee);
    assert_eq!(
        f.refused_for(aria, Command::Move(MoveIntent::Away)),
        RuleViolation::StepSpent
    );
}

#[test]
fn free_actions_are_unlimited_each_once_a_turn() {
    // Seed 001: "Unlimited FREE ACTIONS"; each free action's own limit ("varies") is once a turn.
    let mut f = tdgs_fight(vec![
        stats(pc("Aria", Race::TIEFLING, Class::FIGHTER, 3), 18, 10),
        stats(puppet("Goblin", Monster::GOBLIN), 8, 8),
    ]);
    let (aria, goblin) = (f.id("Aria"), f.id("Goblin"));
    f.get_mut(aria).hp = 5;
    f.direct(Command::Begin);
    f.act(aria, Command::Bonus(engine::BonusAction::SecondWind));
    f.act(
        aria,
        Command::Bonus(engine::BonusAction::MistyStep { target: Some(goblin) }),
    );
    assert_eq!(
        f.band(aria, goblin),
        Band::Melee,
        "a second free action in the same turn"
    );
    assert_eq!(
        f.refused_for(aria, Command::Bonus(engine::BonusAction::SecondWind)),
        RuleViolation::OncePerTurn {
            action: "Second Wind".into()
        }
    );
    f.act(aria, Command::Dodge);
    assert!(
        f.get(aria).tdgs().action_used,
        "the action is TDGS's own, spent by Dodge"
    );
    assert!(!f.get(aria).resources.action_used, "no GogoBee slot is faked");
}

/// A goblin puppet declares a melee attack on `target`: the interrupt check comes before the
/// roll (a Parry window, or nothing offered and the attack rolled); returns the events.
fn goblin_attacks(f: &mut Fight, goblin: CombatantId, target: CombatantId) -> Vec<Event> {
    f.act(goblin, Command::Attack { target: Some(target) })
}

#[test]
fn parry_is_an_interrupt_one_per_round_at_level_one_and_two_at_level_five() {
    for (level, per_round) in [(1, 1), (5, 2)] {
        let mut f = tdgs_fight(vec![
            stats(puppet("Goblin 1", Monster::GOBLIN), 18, 10),
            stats(puppet("Goblin 2", Monster::GOBLIN), 17, 10),
            stats(puppet("Goblin 3", Monster::GOBLIN), 16, 10),
            stats(pc("Aria", Race::HUMAN, Class::FIGHTER, level), 10, 10),
        ]);
        let aria = f.id("Aria");
        f.get_mut(aria).hp = 200;
        f.get_mut(aria).max_hp = 200;
        f.direct(Command::Begin);
        let mut parried = 0;
        for g in ["Goblin 1", "Goblin 2", "Goblin 3"] {
            let goblin = f.id(g);
            f.melee(goblin, aria);
            let events = goblin_attacks(&mut f, goblin, aria);
            if offered_to(&events, aria) == Some(vec![ReactionKind::Parry]) {
                assert!(
                    !any(&events, |e| matches!(e, Event::AttackRolled { .. })),
                    "declared at the interrupt check, before the attack is rolled"
                );
                let events = f.act(aria, Command::React(ReactionKind::Parry));
                // The Interrupt resolves before the triggering attack completes.
                let parry = position(&events, |e| matches!(e, Event::ParryRolled { .. })).unwrap();
                let rolled = position(&events, |e| matches!(e, Event::AttackRolled { .. })).unwrap_or(usize::MAX);
                let dealt = position(&events, |e| matches!(e, Event::DamageDealt { .. })).unwrap_or(usize::MAX);
                assert!(parry < rolled && parry < dealt);
                parried += 1;
            } else {
                assert_eq!(offered_to(&events, aria), None);
            }
            f.act(goblin, Command::EndTurn);
        }
        assert_eq!(parried, per_round, "level {level}");
        assert_eq!(
            tdgs::interrupt_limit(f.get(aria), ReactionKind::Parry),
            Some(Limit::PerRound(per_round))
        );
        // A new round: Parry is back.
        f.act(aria, Command::EndTurn);
        let goblin = f.id("Goblin 1");
        let events = goblin_attacks(&mut f, goblin, aria);
        assert_eq!(offered_to(&events, aria), Some(vec![ReactionKind::Parry]));
    }
}

#[test]
fn parry_rolls_d20_plus_dex_and_proficiency_against_10_plus_the_attack_bonus_and_deflects_on_success() {
    // Aria: a level-1 Fighter, DEX 13 (+1), proficiency +2: d20 + 3. The goblin's scimitar is
    // +4 to hit: DC 14. A natural 11 or more deflects.
    let fight = || {
        let mut f = tdgs_fight(vec![
            stats(puppet("Goblin", Monster::GOBLIN), 18, 10),
            stats(pc("Aria", Race::HUMAN, Class::FIGHTER, 1), 13, 10),
        ]);
        let (goblin, aria) = (f.id("Goblin"), f.id("Aria"));
        f.melee(goblin, aria);
        f.direct(Command::Begin);
        let events = goblin_attacks(&mut f, goblin, aria);
        assert_eq!(offered_to(&events, aria), Some(vec![ReactionKind::Parry]));
        (f, goblin, aria)
    };
    let parry = |events: &[Event]| {
        events.iter().find_map(|e| match e {
            Event::ParryRolled {
                by,
                attacker,
                roll,
                dc,
                deflected,
            } => Some((*by, *attacker, *roll, *dc, *deflected)),
            _ => None,
        })
    };
    // Success: the attack is deflected — never rolled, no damage.
    let (mut f, goblin, aria) = fight();
    let events = f.act_with(aria, Command::React(ReactionKind::Parry), |e, _| {
        parry(e).is_some_and(|(.., deflected)| deflected)
    });
    let (by, attacker, roll, dc, _) = parry(&events).unwrap();
    assert_eq!((by, attacker, dc), (aria, goblin, 14));
    assert!(roll >= 14 && (4..=23).contains(&roll), "d20 + 3 ≥ 14: {roll}");
    assert!(
        !any(&events, |e| matches!(e, Event::AttackRolled { .. })),
        "deflected: no roll"
    );
    assert_eq!(common::damage_to(&f.log, aria), Vec::<i32>::new());
    assert_eq!(f.get(aria).hp, f.get(aria).max_hp);
    // Failure: the attack goes on as declared.
    let (mut f, _, aria) = fight();
    let events = f.act_with(aria, Command::React(ReactionKind::Parry), |e, _| {
        parry(e).is_some_and(|(.., deflected)| !deflected)
    });
    let (.., roll, dc, _) = parry(&events).unwrap();
    assert!(roll < dc && (4..=13).contains(&roll), "d20 + 3 < 14: {roll}");
    assert_eq!(common::rolls(&events).len(), 1, "the attack continues and is rolled");
    // Exactly the next d20 + 3.
    let (mut f, _, aria) = fight();
    let natural = f.upcoming().d20(RollMode::Normal).natural as i32;
    let (.., roll, _, deflected) = parry(&f.act(aria, Command::React(ReactionKind::Parry))).unwrap();
    assert_eq!((roll, deflected), (natural + 3, natural + 3 >= 14));
}

#[test]
fn there_are_no_free_interrupts_only_those_abilities_grant() {
    let mut f = tdgs_fight(vec![
        stats(puppet("Goblin", Monster::GOBLIN), 18, 10),
        stats(pc("Wizard", Race::HUMAN, Class::MAGE, 1), 10, 10),
        stats(pc("Bren", Race::HUMAN, Class::FIGHTER, 1), 9, 10),
    ]);
    let (goblin, wizard, bren) = (f.id("Goblin"), f.id("Wizard"), f.id("Bren"));
    f.melee(goblin, wizard);
    f.melee(goblin, bren);
    f.direct(Command::Begin);
    let events = f.act(goblin, Command::Move(MoveIntent::Away));
    assert_eq!(offered_to(&events, wizard), None, "a mage has no Opportunity Attack");
    assert_eq!(offered_to(&events, bren), Some(vec![ReactionKind::OpportunityAttack]));
    assert_eq!(
        tdgs::interrupt_limit(f.get(wizard), ReactionKind::OpportunityAttack),
        None
    );
    assert_eq!(
        tdgs::interrupt_limit(f.get(goblin), ReactionKind::OpportunityAttack),
        Some(Limit::PerRound(1))
    );
}

#[test]
fn limits_count_per_round_per_scene_and_per_day() {
    let mut c = pc("Aria", Race::HUMAN, Class::MAGE, 5);
    assert_eq!(
        tdgs::interrupt_limit(&c, ReactionKind::Counterspell),
        Some(Limit::PerScene(1))
    );
    assert!(tdgs::may_interrupt(&c, ReactionKind::Counterspell));
    tdgs::spend_interrupt(&mut c, ReactionKind::Counterspell);
    assert!(!tdgs::may_interrupt(&c, ReactionKind::Counterspell));
    let uses = c.tdgs().uses[0];
    assert_eq!((uses.round, uses.scene, uses.day), (1, 1, 1));
    // Divine Intervention (1/day) in the seed: a per-day limit survives the scene's end.
    assert!(!Limit::PerDay(1).allows(Some(&uses)));
    let mut combat = Combat::new(vec![c], Terrain::default());
    tdgs::scene_end(&mut combat);
    let uses = combat.combatants[0].tdgs().uses[0];
    assert_eq!((uses.round, uses.scene, uses.day), (0, 0, 1));
    assert!(tdgs::may_interrupt(&combat.combatants[0], ReactionKind::Counterspell));
    assert!(!Limit::PerDay(1).allows(Some(&uses)));
    tdgs::long_rest(&mut combat.combatants[0]);
    assert!(Limit::PerDay(1).allows(combat.combatants[0].tdgs().uses.first()));
}

/// A level-5 mage (REF 20, first) against a drow mage.
fn mage_duel() -> (Fight, CombatantId, CombatantId) {
    let mut f = tdgs_fight(vec![
        stats(pc("Aria", Race::HUMAN, Class::MAGE, 5), 20, 10),
        monster("Drow Mage", Monster::DROW_MAGE),
    ]);
    let (aria, drow) = (f.id("Aria"), f.id("Drow Mage"));
    f.get_mut(drow).hp = 200;
    f.direct(Command::Begin);
    assert_eq!(f.current(), aria);
    (f, aria, drow)
}

#[test]
fn a_counterspell_chain_resolves_responder_first_counter_counterspell_then_counterspell_then_fireball() {
    let (mut f, aria, drow) = mage_duel();
    // 1. Wizard A casts Fireball. 2. Wizard B counterspells. 3. A counter-counterspells.
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
    let events = f.act(aria, Command::React(ReactionKind::Counterspell));
    // 4. Resolve: Counter-Counterspell, then Counterspell (if not countered), then Fireball.
    let checks: Vec<CombatantId> = events
        .iter()
        .filter_map(|e| match e {
            Event::SpellCountered { by, .. } | Event::CounterspellFailed { by, .. } => Some(*by),
            _ => None,
        })
        .collect();
    assert_eq!(checks[0], aria, "the responder's interrupt resolves first");
    let fireball_resolved = events
        .iter()
        .position(|e| {
            matches!(e, Event::SavingThrow { .. })
                || matches!(
                    e,
                    Event::SpellCountered {
                        spell: Spell::FIREBALL,
                        ..
                    }
                )
        })
        .expect("the Fireball resolves (or is countered) last");
    let last_check = events
        .iter()
        .rposition(|e| {
            matches!(
                e,
                Event::SpellCountered {
                    spell: Spell::COUNTERSPELL,
                    ..
                } | Event::CounterspellFailed { .. }
            )
        })
        .unwrap();
    assert!(last_check < fireball_resolved);
}

#[test]
fn counterspell_is_once_per_scene() {
    let (mut f, aria, drow) = mage_duel();
    let events = f.act(
        aria,
        Command::Cast {
            spell: Spell::MAGIC_MISSILE,
            target: Some(drow),
        },
    );
    assert!(any(
        &events,
        |e| matches!(e, Event::ReactionTaken { reactor, reaction: ReactionKind::Counterspell } if *reactor == drow)
    ));
    f.act(aria, Command::Pass); // no counter-counterspell
    f.act(aria, Command::EndTurn);
    // The drow's turn: Aria lets whatever it casts through.
    while let Some(window) = f.combat.window.clone() {
        f.act(window.reactor, Command::Pass);
    }
    // Round 2: the drow has used its Counterspell for the scene, though it has slots left.
    assert_eq!(f.current(), aria);
    assert!(f.get(drow).lowest_slot(3).is_some());
    let events = f.act(
        aria,
        Command::Cast {
            spell: Spell::MAGIC_MISSILE,
            target: Some(drow),
        },
    );
    assert!(!any(&events, |e| matches!(e, Event::ReactionTaken { .. })));
    // Scene end resets per-scene abilities.
    f.direct(Command::EndCombat);
    assert!(tdgs::may_interrupt(f.get(drow), ReactionKind::Counterspell));
}

#[test]
fn ready_turns_the_action_into_a_conditional_interrupt_for_those_without_any() {
    let mut f = tdgs_fight(vec![
        stats(pc("Rue", Race::HUMAN, Class::ROGUE, 1), 18, 10),
        stats(puppet("Goblin", Monster::GOBLIN), 8, 8),
    ]);
    let (rue, goblin) = (f.id("Rue"), f.id("Goblin"));
    f.direct(Command::Begin);
    f.act(
        rue,
        Command::Ready {
            text: "attack when the goblin moves into melee range".into(),
        },
    );
    assert!(f.get(rue).tdgs().action_used, "Ready costs the action");
    f.act(rue, Command::EndTurn);
    let events = f.act(goblin, Command::Move(MoveIntent::Melee(rue)));
    assert_eq!(offered_to(&events, rue), Some(vec![ReactionKind::Readied]));
    let events = f.act(rue, Command::React(ReactionKind::Readied));
    assert!(any(
        &events,
        |e| matches!(e, Event::AttackRolled { attacker, .. } if *attacker == rue)
    ));
}

#[test]
fn delay_moves_you_later_this_round_only() {
    let mut f = tdgs_fight(vec![
        stats(pc("Aria", Race::HUMAN, Class::CLERIC, 1), 18, 10),
        stats(pc("Bren", Race::HUMAN, Class::CLERIC, 1), 16, 10),
        stats(puppet("Goblin", Monster::GOBLIN), 14, 10),
    ]);
    let (aria, bren, goblin) = (f.id("Aria"), f.id("Bren"), f.id("Goblin"));
    f.direct(Command::Begin);
    let events = f.act(aria, Command::Delay { after: Some(bren) });
    assert!(events.contains(&Event::Delayed {
        id: aria,
        after: Some(bren)
    }));
    assert_eq!(f.current(), bren);
    f.act(bren, Command::EndTurn);
    assert_eq!(f.current(), aria, "right after the wizard… the cleric");
    f.act(aria, Command::Dodge);
    f.act(aria, Command::EndTurn);
    assert_eq!(f.current(), goblin);
    f.act(goblin, Command::EndTurn);
    assert_eq!(f.combat.round, 2);
    assert_eq!(f.current(), aria, "next round: back to the natural REF order");
    assert_eq!(f.combat.order, vec![aria, bren, goblin]);

    // Not past the next round's start: never after someone who has already acted, nor when last.
    f.act(aria, Command::EndTurn);
    assert!(matches!(
        f.refused_for(bren, Command::Delay { after: Some(aria) }),
        RuleViolation::CannotDelay { .. }
    ));
    f.act(bren, Command::Delay { after: None });
    assert_eq!(f.current(), goblin);
    f.act(goblin, Command::EndTurn);
    assert_eq!(f.current(), bren);
    assert!(matches!(
        f.refused_for(bren, Command::Delay { after: None }),
        RuleViolation::CannotDelay { .. }
    ));
    // Nor after acting.
    f.act(bren, Command::EndTurn);
    f.act(aria, Command::Dodge);
    assert!(matches!(
        f.refused_for(aria, Command::Delay { after: None }),
        RuleViolation::CannotDelay { .. }
    ));
    // And only under TDGS.
    let mut g = Fight::new(vec![
        pc("Aria", Race::HUMAN, Class::CLERIC, 1),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    g.turn_of(CombatantId(0));
    assert!(matches!(
        g.refused_for(CombatantId(0), Command::Delay { after: None }),
        RuleViolation::NotInThisRuleset { .. }
    ));
}

#[test]
fn simultaneous_events_and_mutual_destruction_resolve_by_ref_then_luk_then_d2() {
    let c = Combat::new(
        vec![
            stats(pc("Swift", Race::HUMAN, Class::FIGHTER, 1), 15, 8),
            stats(monster("Slow", Monster::GOBLIN), 12, 18),
            stats(monster("Lucky", Monster::GOBLIN), 15, 12),
            stats(monster("Twin", Monster::GOBLIN), 15, 12),
        ],
        Terrain::default(),
    )
    .with_ruleset(Ruleset::Tdgs);
    let mut dice = Dice::seeded(0);
    assert_eq!(
        tdgs::first_to_resolve(&c, CombatantId(1), CombatantId(0), &mut dice),
        CombatantId(0)
    );
    assert_eq!(
        tdgs::first_to_resolve(&c, CombatantId(0), CombatantId(2), &mut dice),
        CombatantId(2)
    );
    let winners: std::collections::BTreeSet<CombatantId> = (0..40)
        .map(|seed| tdgs::first_to_resolve(&c, CombatantId(2), CombatantId(3), &mut Dice::seeded(seed)))
        .collect();
    assert_eq!(winners.len(), 2, "identical REF and LUK: a fair d2");
}

#[test]
fn simultaneous_reactions_are_offered_in_ref_order_not_turn_order() {
    let mut f = tdgs_fight(vec![
        stats(pc("Slow", Race::HUMAN, Class::FIGHTER, 1), 10, 10),
        stats(puppet("Goblin", Monster::GOBLIN), 16, 10),
        stats(pc("Swift", Race::HUMAN, Class::FIGHTER, 1), 14, 10),
    ]);
    let (slow, goblin, swift) = (f.id("Slow"), f.id("Goblin"), f.id("Swift"));
    f.melee(goblin, slow);
    f.melee(goblin, swift);
    f.direct(Command::Begin);
    assert_eq!(f.current(), goblin);
    f.act(goblin, Command::Move(MoveIntent::Away));
    let queued: Vec<CombatantId> = f
        .combat
        .queue
        .iter()
        .filter_map(|s| match s {
            Step::Offer { reactor, .. } => Some(*reactor),
            _ => None,
        })
        .collect();
    let window = f.combat.window.as_ref().unwrap().reactor;
    assert_eq!(window, swift, "REF 14 before REF 10");
    assert_eq!(queued, vec![slow]);
}

#[test]
fn ai_fights_under_tdgs_run_to_an_end_and_replay_identically() {
    for seed in 0..100 {
        let fighter = Combatant::character(
            "Bo",
            Race::HUMAN,
            Class::FIGHTER,
            5,
            Controller::Ai(Behaviour::Aggressive),
        );
        let rogue = Combatant::character("Ro", Race::ELF, Class::ROGUE, 3, Controller::Ai(Behaviour::Aggressive));
        let mage = Combatant::character("Mo", Race::ELF, Class::MAGE, 5, Controller::Ai(Behaviour::Caster));
        let goblins = (1..=3).map(|i| monster(&format!("Goblin {i}"), Monster::GOBLIN));
        let drow = monster("Drow", Monster::DROW_MAGE);
        let all: Vec<_> = [fighter, rogue, mage]
            .into_iter()
            .chain(goblins)
            .chain([drow])
            .collect();
        let run = || {
            let mut combat = Combat::new(all.clone(), Terrain::default()).with_ruleset(Ruleset::Tdgs);
            let mut dice = Dice::seeded(seed);
            let events = apply(&mut combat, Actor::Director, Command::Begin, &mut dice, now()).unwrap();
            (combat, events)
        };
        let (combat, events) = run();
        assert!(combat.outcome.is_some(), "seed {seed} did not finish");
        assert_eq!(run().1, events, "seed {seed}: same seed, same log");
        assert!(any(&events, |e| matches!(e, Event::InstantResolved { .. })));
    }
}

#[test]
fn the_interrupts_an_entity_has_are_listed_with_their_uses_left_and_none_are_free() {
    // Seed 001 "Interrupt limits": Parry (Lv1) 1/round, (Lv5) 2/round; Counterspell 1/scene.
    let fighter = |level| pc("Aria", Race::HUMAN, Class::FIGHTER, level);
    let list = |c: &Combatant| {
        tdgs::interrupts(c)
            .into_iter()
            .map(|i| (i.kind, i.limit, i.left))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        list(&fighter(1)),
        vec![
            (ReactionKind::OpportunityAttack, Limit::PerRound(1), 1),
            (ReactionKind::Parry, Limit::PerRound(1), 1),
        ]
    );
    let mut veteran = fighter(5);
    tdgs::spend_interrupt(&mut veteran, ReactionKind::Parry);
    assert!(list(&veteran).contains(&(ReactionKind::Parry, Limit::PerRound(2), 1)));
    let mut mage = pc("Wren", Race::HUMAN, Class::MAGE, 5);
    assert_eq!(
        list(&mage),
        vec![
            (ReactionKind::Counterspell, Limit::PerScene(1), 1),
            (ReactionKind::Shield, Limit::PerRound(1), 1),
        ]
    );
    tdgs::spend_interrupt(&mut mage, ReactionKind::Counterspell);
    assert!(list(&mage).contains(&(ReactionKind::Counterspell, Limit::PerScene(1), 0)));
    let mut spent = pc("Cleo", Race::HUMAN, Class::MAGE, 1);
    spent.pools.spell_slots = [0; 9];
    assert_eq!(
        list(&spent),
        vec![],
        "no free interrupts: a mage without a slot has none"
    );
    assert_eq!(
        list(&pc("Rue", Race::HUMAN, Class::ROGUE, 1)),
        vec![],
        "no free interrupts"
    );
    assert_eq!(Limit::PerScene(1).period(), "scene");
}

#[test]
fn the_coming_instant_phase_lists_declared_instants_by_instant_ref_then_luk() {
    // The seed's example: Quick Draw (12), Battle Cry (8), Premonition (5).
    let mut f = tdgs_fight(vec![
        stats(pc("Fighter", Race::HUMAN, Class::FIGHTER, 1), 14, 10),
        stats(pc("Rogue", Race::HUMAN, Class::ROGUE, 1), 10, 10),
        stats(pc("Wizard", Race::HUMAN, Class::MAGE, 1), 16, 10),
        monster("Goblin", Monster::GOBLIN),
    ]);
    let (fighter, rogue, wizard) = (f.id("Fighter"), f.id("Rogue"), f.id("Wizard"));
    f.direct(Command::Begin);
    assert_eq!(tdgs::upcoming_instants(&f.combat), vec![], "players declare their own");
    for (who, instant) in [
        (wizard, Instant::Premonition),
        (fighter, Instant::BattleCry),
        (rogue, Instant::QuickDraw),
    ] {
        f.get_mut(who).tdgs_mut().declared = Some(instant);
    }
    assert_eq!(
        tdgs::upcoming_instants(&f.combat),
        vec![
            (rogue, Instant::QuickDraw, 12),
            (fighter, Instant::BattleCry, 8),
            (wizard, Instant::Premonition, 5),
        ]
    );
}

#[test]
fn an_instant_declared_before_the_scene_starts_resolves_in_round_one_s_instant_phase() {
    let mut f = tdgs_fight(vec![
        stats(pc("Rook", Race::HUMAN, Class::ROGUE, 1), 10, 10),
        stats(puppet("Goblin", Monster::GOBLIN), 14, 8),
    ]);
    let rook = f.id("Rook");
    assert_eq!(
        f.act(rook, Command::DeclareInstant(Instant::QuickDraw)),
        vec![Event::InstantDeclared {
            id: rook,
            instant: Instant::QuickDraw,
            round: 1
        }]
    );
    // Still only its own class's Instant, before the start as after it.
    assert!(matches!(
        f.refused_for(rook, Command::DeclareInstant(Instant::BattleCry)),
        RuleViolation::NotEligible { .. }
    ));
    let events = f.direct(Command::Begin);
    assert_eq!(instants(&events), vec![(rook, Instant::QuickDraw, 12)]);
    let instant = position(&events, |e| matches!(e, Event::InstantResolved { .. })).unwrap();
    let first_turn = position(&events, |e| matches!(e, Event::TurnStarted { round: 1, .. })).unwrap();
    assert!(
        instant < first_turn,
        "round 1's Instant phase comes before its Action phase"
    );
    assert!(
        f.get(rook).conditions.helped,
        "Quick Draw: advantage on the next attack"
    );
    assert_eq!(f.get(rook).tdgs().declared, None, "spent in round 1");
}

#[test]
fn premonition_puts_attacks_on_the_mage_at_disadvantage_until_the_mage_s_turn() {
    let mut f = tdgs_fight(vec![
        stats(pc("Wren", Race::HUMAN, Class::MAGE, 1), 10, 10),
        stats(puppet("Goblin", Monster::GOBLIN), 16, 8),
    ]);
    let (wren, goblin) = (f.id("Wren"), f.id("Goblin"));
    f.melee(wren, goblin);
    f.act(wren, Command::DeclareInstant(Instant::Premonition));
    f.direct(Command::Begin);
    assert_eq!(
        f.current(),
        goblin,
        "REF 16 before REF 10: the goblin swings before Wren's turn"
    );
    let swing = common::rolls(&f.act(goblin, Command::Attack { target: Some(wren) }));
    assert_eq!(swing.len(), 1);
    assert!(
        common::disadvantage(&swing[0].d20),
        "foreseen: the goblin's swing at disadvantage"
    );
    let (kept, other) = (swing[0].d20.natural, swing[0].d20.other.unwrap());
    assert!(kept <= other, "the lower of the two d20s is kept");
    assert_eq!(swing[0].total, kept as i32 + 4, "the lower d20 + the goblin's +4");
    if f.combat.window.is_some() {
        f.act(wren, Command::Pass); // no Shield
    }
    f.act(goblin, Command::EndTurn);
    assert_eq!(f.current(), wren);
    assert!(
        !f.get(wren).conditions.dodging,
        "the premonition ends when the mage's turn comes"
    );
    f.act(wren, Command::EndTurn);
    // Round 2: nothing declared, nothing foreseen.
    assert_eq!(f.current(), goblin);
    let swing = common::rolls(&f.act(goblin, Command::Attack { target: Some(wren) }));
    assert!(!common::disadvantage(&swing[0].d20) && !common::advantage(&swing[0].d20));
}

fn intervention_offered(events: &[Event], ced: CombatantId) -> bool {
    any(events, |e| {
        matches!(e, Event::ReactionOffered { reactor, options, .. }
            if *reactor == ced && options.contains(&ReactionKind::DivineIntervention))
    })
}

/// A TDGS fight: the cleric Ced, the rogue Rook at 1 HP, a goblin (first) in melee with Rook.
fn intervention_fight(ced: Combatant) -> (Fight, CombatantId, CombatantId, CombatantId) {
    let mut f = tdgs_fight(vec![
        stats(puppet("Goblin", Monster::GOBLIN), 18, 10),
        stats(ced, 10, 12),
        stats(pc("Rook", Race::HUMAN, Class::ROGUE, 1), 9, 10),
    ]);
    let (goblin, ced, rook) = (f.id("Goblin"), f.id("Ced"), f.id("Rook"));
    f.get_mut(rook).hp = 1;
    f.melee(goblin, rook);
    f.direct(Command::Begin);
    (f, goblin, ced, rook)
}

#[test]
fn divine_intervention_is_a_per_day_interrupt_that_survives_the_scene_and_returns_with_a_long_rest() {
    let (mut f, goblin, ced, rook) = intervention_fight(pc("Ced", Race::HUMAN, Class::CLERIC, 1));
    assert_eq!(
        tdgs::interrupt_limit(f.get(ced), ReactionKind::DivineIntervention),
        Some(Limit::PerDay(1))
    );
    // A hit that would drop Rook: Ced may intervene, and the blow deals nothing.
    let events = f.act_with(goblin, Command::Attack { target: Some(rook) }, |e, _| {
        offered_to(e, ced).is_some()
    });
    assert_eq!(offered_to(&events, ced), Some(vec![ReactionKind::DivineIntervention]));
    let events = f.act(ced, Command::React(ReactionKind::DivineIntervention));
    let (amount, remaining) = events
        .iter()
        .find_map(|e| match e {
            Event::DamageReduced {
                by,
                reaction: ReactionKind::DivineIntervention,
                amount,
                remaining,
                ..
            } if *by == ced => Some((*amount, *remaining)),
            _ => None,
        })
        .unwrap();
    assert!(amount >= 1, "the whole blow ({amount}) turned aside");
    assert_eq!(remaining, 0);
    assert_eq!(f.get(rook).hp, 1, "Rook still stands");
    let uses = f
        .get(ced)
        .tdgs()
        .uses
        .iter()
        .find(|u| u.kind == ReactionKind::DivineIntervention)
        .copied()
        .unwrap();
    assert_eq!((uses.round, uses.scene, uses.day), (1, 1, 1));
    // Next round: once a day means not again today.
    f.act(goblin, Command::EndTurn);
    f.act(ced, Command::EndTurn);
    f.act(rook, Command::EndTurn);
    assert_eq!(f.current(), goblin);
    let events = f.act_with(goblin, Command::Attack { target: Some(rook) }, |e, _| {
        any(e, |e| matches!(e, Event::AttackRolled { hit: true, .. }))
    });
    assert!(
        !intervention_offered(&events, ced),
        "Divine Intervention is spent for the day"
    );
    // The scene ends: per-scene uses reset, the day's stays — and the cleric carries it into the
    // day's next fight.
    f.direct(Command::EndCombat);
    let uses = f
        .get(ced)
        .tdgs()
        .uses
        .iter()
        .find(|u| u.kind == ReactionKind::DivineIntervention)
        .copied()
        .unwrap();
    assert_eq!((uses.round, uses.scene, uses.day), (0, 0, 1));
    // What the day's next fight is given: a fresh Ced (as from the character's row) with the
    // uses kept from today.
    let today = tdgs::day_uses(f.get(ced));
    assert_eq!(today.len(), 1);
    let mut carried = pc("Ced", Race::HUMAN, Class::CLERIC, 1);
    tdgs::carry_day_uses(&mut carried, &today);
    let (mut g, goblin, ced, rook) = intervention_fight(carried.clone());
    let events = g.act_with(goblin, Command::Attack { target: Some(rook) }, |e, _| {
        any(e, |e| matches!(e, Event::AttackRolled { hit: true, .. }))
    });
    assert!(
        !intervention_offered(&events, ced),
        "still spent in the second fight of the day"
    );
    // A long rest brings it back.
    let mut rested = carried;
    tdgs::long_rest(&mut rested);
    let (mut h, goblin, ced, rook) = intervention_fight(rested);
    let events = h.act_with(goblin, Command::Attack { target: Some(rook) }, |e, _| {
        offered_to(e, ced).is_some()
    });
    assert_eq!(offered_to(&events, ced), Some(vec![ReactionKind::DivineIntervention]));
    // Outside TDGS there is no Divine Intervention.
    assert!(!engine::reactions::grants(
        h.get(ced),
        ReactionKind::DivineIntervention,
        Ruleset::Gogobee
    ));
}

#[test]
fn mutual_destruction_in_play_the_faster_entity_s_action_completes_and_the_loser_s_may_not() {
    // Rook readies "attack when the goblin attacks me"; the goblin attacks Rook. Each blow
    // would stop the other (both at 1 HP): the higher REF completes first.
    for (rook_ref, goblin_ref) in [(16, 10), (10, 16)] {
        let mut f = tdgs_fight(vec![
            stats(pc("Rook", Race::HUMAN, Class::ROGUE, 1), rook_ref, 10),
            stats(puppet("Goblin", Monster::GOBLIN), goblin_ref, 8),
        ]);
        let (rook, goblin) = (f.id("Rook"), f.id("Goblin"));
        f.melee(rook, goblin);
        f.get_mut(rook).hp = 1;
        f.get_mut(goblin).hp = 1;
        f.direct(Command::Begin);
        if f.current() == goblin {
            f.act(goblin, Command::EndTurn);
        }
        f.act(
            rook,
            Command::Ready {
                text: "attack when the goblin attacks me".into(),
            },
        );
        f.act(rook, Command::EndTurn);
        assert_eq!(f.current(), goblin);
        let events = f.act(goblin, Command::Attack { target: Some(rook) });
        assert_eq!(offered_to(&events, rook), Some(vec![ReactionKind::Readied]));
        let faster = if rook_ref > goblin_ref { rook } else { goblin };
        let slower = if faster == rook { goblin } else { rook };
        let events = f.act_with(rook, Command::React(ReactionKind::Readied), |e, _| {
            common::rolls(e).first().is_some_and(|r| r.hit)
        });
        let decided = events.iter().find_map(|e| match e {
            Event::MutualDestruction { first, second, flips } => Some((*first, *second, flips.clone())),
            _ => None,
        });
        assert_eq!(
            decided,
            Some((faster, slower, vec![])),
            "REF {rook_ref} vs {goblin_ref}"
        );
        let swings = common::rolls(&events);
        assert_eq!(
            swings.len(),
            1,
            "the loser never completes its attack\n{}",
            f.transcript()
        );
        assert_eq!((swings[0].attacker, swings[0].target), (faster, slower));
        assert!(!f.get(slower).is_standing());
        assert!(f.get(faster).is_standing());
    }
}
