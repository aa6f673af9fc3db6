//! The charge-meter race (seed 003): the tick loop, the tiebreak, start of turn (AP, cooldowns,
//! status upkeep, stun), end of turn (charge − 100, flags reset), AP costs, and the property that
//! a unit twice as fast acts twice as often.

mod common;

use common::{Fight, monster, now, pc, puppet};
use engine::command::BonusAction;
use engine::content::{Behaviour, Class, DamageType, Monster, Race};
use engine::timing::ctb::{self, StatusEffect, StatusKind};
use engine::{Actor, Combat, CombatantId, Command, Controller, Dice, Event, RuleViolation, Ruleset, Terrain, apply};

fn ctb_fight(combatants: Vec<engine::Combatant>) -> Fight {
    let mut f = Fight::new(combatants);
    f.combat.ruleset = Ruleset::Ctb;
    f
}

fn turns_started(events: &[Event]) -> Vec<CombatantId> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::TurnStarted { id, .. } => Some(*id),
            _ => None,
        })
        .collect()
}

#[test]
fn ruleset_names_parse_and_round_trip() {
    for r in Ruleset::ALL {
        assert_eq!(Ruleset::parse(r.name()), Some(r));
    }
    assert_eq!(Ruleset::parse(" CTB "), Some(Ruleset::Ctb));
    assert_eq!(Ruleset::parse("chess"), None);
    assert_eq!(serde_json::to_string(&Ruleset::Ctb).unwrap(), "\"Ctb\"");
    assert_eq!(serde_json::to_string(&Ruleset::Gogobee).unwrap(), "\"Gogobee\"");
}

#[test]
fn speed_is_ten_plus_a_twentieth_of_the_feet_past_thirty_and_ap_is_three_plus_a_fifth_of_speed() {
    let human = pc("Aria", Race::HUMAN, Class::FIGHTER, 1);
    let elf = pc("Elowen", Race::ELF, Class::ROGUE, 1);
    let dwarf = pc("Durin", Race::DWARF, Class::CLERIC, 1);
    let wolf = monster("Wolf", Monster::WOLF);
    let zombie = monster("Zombie", Monster::ZOMBIE);
    let quickling = monster("Quickling", Monster::QUICKLING);
    assert_eq!(
        [&human, &elf, &dwarf, &wolf, &zombie, &quickling].map(ctb::speed),
        [10, 10, 9, 10, 9, 14]
    );
    assert_eq!([10, 9, 14].map(ctb::max_ap), [5, 4, 5]);
    let mut hasted = human.clone();
    hasted.conditions.hasted = true;
    assert_eq!(ctb::speed(&hasted), 20);
    assert_eq!(ctb::max_ap(20), 7);
}

#[test]
fn the_race_adds_speed_every_tick_until_someone_reaches_100_and_the_highest_charge_acts() {
    let mut f = ctb_fight(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Quickling", Monster::QUICKLING),
    ]);
    let events = f.direct(Command::Begin);
    // The Quickling's 14 a tick reach 112 at tick 8; Aria has 80.
    let race = events
        .iter()
        .find_map(|e| match e {
            Event::ChargeRace {
                ticks, winner, charges, ..
            } => Some((*ticks, *winner, charges.clone())),
            _ => None,
        })
        .unwrap();
    assert_eq!(race.0, 8);
    assert_eq!(race.1, f.id("Quickling"));
    let charge_of = |id| race.2.iter().find(|e| e.id == id).unwrap().charge;
    assert_eq!(charge_of(f.id("Quickling")), 112);
    assert_eq!(charge_of(f.id("Aria")), 80);
    assert_eq!(f.current(), f.id("Quickling"));
    assert_eq!(f.combat.model.tick, 8);
}

#[test]
fn ending_a_turn_pays_100_and_keeps_the_excess() {
    let mut f = ctb_fight(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let (aria, goblin) = (f.id("Aria"), f.id("Goblin"));
    f.get_mut(aria).ctb_mut().charge = 115;
    f.direct(Command::Begin);
    assert_eq!(f.current(), aria, "115 is already past 100: no ticks needed");
    let events = f.act(aria, Command::EndTurn);
    // A unit at 115 keeps 15: nine ticks later Aria has 15 + 90 = 105 and the goblin 90.
    let race = events
        .iter()
        .find_map(|e| match e {
            Event::ChargeRace { ticks, charges, .. } => Some((*ticks, charges.clone())),
            _ => None,
        })
        .unwrap();
    assert_eq!(race.0, 9);
    assert_eq!(race.1[0].charge, 105);
    assert_eq!(race.1[1].charge, 90);
    assert_eq!(f.current(), aria, "the 15 kept is a head start in the next race");
    f.act(aria, Command::EndTurn);
    assert_eq!(f.current(), goblin);
    f.get_mut(goblin).ctb_mut().charge = 40; // whatever it holds, it never goes below 0
    f.act(goblin, Command::EndTurn);
    // max(0, 40 − 100) = 0: the goblin has 0 + 9 × 10 when Aria (15 + 90) acts again.
    assert_eq!(f.current(), aria);
    assert_eq!((f.get(aria).ctb().charge, f.get(goblin).ctb().charge), (105, 90));
}

#[test]
fn ties_go_to_the_higher_speed_then_initiative_then_dex_then_the_lower_id_and_never_to_a_side() {
    let mut c = Combat::new(
        vec![
            pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
            monster("Quickling", Monster::QUICKLING),
            monster("Goblin", Monster::GOBLIN),
            monster("Goblin 2", Monster::GOBLIN),
        ],
        Terrain::default(),
    )
    .with_ruleset(Ruleset::Ctb);
    for x in &mut c.combatants {
        x.ctb_mut().charge = 100;
        x.initiative = 10;
    }
    assert_eq!(ctb::leader(&c), Some(CombatantId(1)), "the Quickling is fastest (14)");
    c.combatants[1].ctb_mut().charge = 99;
    // Aria (human, DEX 14) and the goblins (DEX 14): speed 10 and initiative 10 alike.
    assert_eq!(c.combatants[0].abilities.dex, c.combatants[2].abilities.dex);
    assert_eq!(ctb::leader(&c), Some(CombatantId(0)), "between equals, the lower id");
    c.combatants[3].initiative = 11;
    assert_eq!(
        ctb::leader(&c),
        Some(CombatantId(3)),
        "the higher initiative, an enemy with the highest id"
    );
    c.combatants[0].initiative = 11;
    c.combatants[0].abilities.dex = 16;
    assert_eq!(
        ctb::leader(&c),
        Some(CombatantId(0)),
        "equal initiative: the higher DEX"
    );
    c.combatants[2].ctb_mut().charge = 101;
    assert_eq!(ctb::leader(&c), Some(CombatantId(2)), "the highest charge first of all");
}

#[test]
fn initiative_is_rolled_once_as_the_race_begins_and_a_mirror_match_is_an_even_game() {
    let content = engine::content::data::builtin();
    let side = |s| engine::balance::side("fighter:5", content, s, "X").unwrap();
    let matchup = engine::balance::Matchup {
        party: side(engine::Side::Party),
        foes: side(engine::Side::Enemies),
        ruleset: Ruleset::Ctb,
    };
    let tally = engine::balance::duel(&matchup, 400, 11, |_| {});
    assert!(
        (0.40..=0.60).contains(&tally.win_rate()),
        "side A won {} of 400 mirror duels",
        tally.party_wins
    );
    let mut f = ctb_fight(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    f.direct(Command::Begin);
    let dex = |who| f.get(f.id(who)).modifier(engine::content::Ability::Dex);
    for who in ["Aria", "Goblin"] {
        let roll = f.get(f.id(who)).initiative - dex(who);
        assert!((1..=20).contains(&roll), "{who}: d20 + DEX, rolled {roll}");
    }
}

#[test]
fn each_turn_grants_ap_that_do_not_roll_over() {
    let mut f = ctb_fight(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let aria = f.id("Aria");
    f.get_mut(aria).ctb_mut().charge = 100;
    let goblin = f.id("Goblin");
    f.get_mut(goblin).ctb_mut().charge = 50;
    f.direct(Command::Begin);
    assert_eq!(f.current(), aria);
    assert_eq!(f.get(aria).ctb().ap, 5);
    f.act(aria, Command::Dodge);
    assert_eq!(f.get(aria).ctb().ap, 2, "an action costs 3");
    f.act(aria, Command::Move(engine::MoveIntent::Away));
    f.act(aria, Command::EndTurn);
    assert_eq!(f.get(aria).ctb().ap, 0, "leftover AP are gone at the end of the turn");
    let r = f.get(aria).resources;
    assert!(
        !r.action_used && !r.bonus_used && r.movement_used == 0,
        "action flags reset at the end of the turn: {r:?}"
    );
    assert_eq!(f.current(), goblin);
    f.act(goblin, Command::EndTurn);
    assert_eq!(f.current(), aria);
    assert_eq!(f.get(aria).ctb().ap, 5, "back to the maximum, not 5 + 1");
}

#[test]
fn an_action_costs_three_ap_so_five_buy_one_and_a_hasted_unit_attacks_twice() {
    let mut f = ctb_fight(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (aria, ogre) = (f.id("Aria"), f.id("Ogre"));
    f.melee(aria, ogre);
    f.get_mut(aria).ctb_mut().charge = 100;
    f.direct(Command::Begin);
    assert_eq!(f.current(), aria);
    let events = f.act(aria, Command::Attack { target: Some(ogre) });
    assert!(events.contains(&Event::ActionPointsSpent {
        id: aria,
        cost: 3,
        left: 2
    }));
    let why = f.refused_for(aria, Command::Attack { target: Some(ogre) });
    assert_eq!(
        why,
        RuleViolation::NotEnoughAp {
            action: "Attack".into(),
            cost: 3,
            left: 2
        },
        "5 AP buy one action, as a GogoBee turn does"
    );
    let why = f.refused_for(aria, Command::Dodge);
    assert!(
        matches!(why, RuleViolation::NotEnoughAp { cost: 3, left: 2, .. }),
        "{why:?}"
    );

    // Hasted: speed 20, 7 AP — two actions and a move.
    let mut f = ctb_fight(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (aria, ogre) = (f.id("Aria"), f.id("Ogre"));
    f.melee(aria, ogre);
    f.get_mut(aria).conditions.hasted = true;
    f.get_mut(aria).ctb_mut().charge = 100;
    f.direct(Command::Begin);
    assert_eq!(f.get(aria).ctb().ap, 7);
    f.act(aria, Command::Attack { target: Some(ogre) });
    f.act(aria, Command::Attack { target: Some(ogre) });
    assert_eq!(f.get(aria).ctb().ap, 1);
}

#[test]
fn a_move_costs_one_ap_besides_its_feet() {
    let mut f = ctb_fight(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (aria, ogre) = (f.id("Aria"), f.id("Ogre"));
    f.get_mut(aria).ctb_mut().charge = 100;
    f.direct(Command::Begin);
    f.act(aria, Command::Move(engine::MoveIntent::Melee(ogre)));
    assert_eq!(f.get(aria).ctb().ap, 4);
    assert_eq!(f.band(aria, ogre), engine::Band::Melee);
}

#[test]
fn the_cost_table_prices_an_action_or_a_spell_at_three_a_bonus_action_at_one_and_spells_cool_down_by_level() {
    use engine::content::Spell;
    let cast = |spell| Command::Cast { spell, target: None };
    let mage = pc("Ione", Race::ELF, Class::MAGE, 5);
    let cleric = pc("Mira", Race::HUMAN, Class::CLERIC, 5);
    assert_eq!(ctb::ap_cost(&mage, &cast(Spell::FIRE_BOLT)), Some(3));
    assert_eq!(ctb::ap_cost(&mage, &cast(Spell::MAGIC_MISSILE)), Some(3));
    assert_eq!(ctb::ap_cost(&mage, &cast(Spell::FIREBALL)), Some(3));
    assert_eq!(
        ctb::ap_cost(&cleric, &cast(Spell::HEALING_WORD)),
        Some(1),
        "a bonus-action spell"
    );
    assert_eq!(ctb::ap_cost(&mage, &Command::Attack { target: None }), Some(3));
    assert_eq!(ctb::ap_cost(&mage, &Command::Dash), Some(3));
    assert_eq!(ctb::ap_cost(&mage, &Command::Move(engine::MoveIntent::Away)), Some(1));
    assert_eq!(ctb::ap_cost(&mage, &Command::Bonus(BonusAction::SecondWind)), Some(1));
    assert_eq!(ctb::ap_cost(&mage, &Command::EndTurn), None);
    assert_eq!(
        ctb::cooldown(&mage, &cast(Spell::FIREBALL)),
        Some(("Fireball".into(), 3))
    );
    assert_eq!(ctb::cooldown(&mage, &cast(Spell::FIRE_BOLT)), None);
}

#[test]
fn a_cooldown_drops_by_one_each_turn_start_and_a_one_turn_cooldown_is_ready_next_turn() {
    let mut f = ctb_fight(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 3),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let (aria, goblin) = (f.id("Aria"), f.id("Goblin"));
    f.get_mut(aria).hp = 5;
    f.get_mut(aria).ctb_mut().charge = 100;
    f.get_mut(goblin).ctb_mut().charge = 50;
    f.direct(Command::Begin);
    let events = f.act(aria, Command::Bonus(BonusAction::SecondWind));
    assert!(events.contains(&Event::CooldownStarted {
        id: aria,
        ability: "Second Wind".into(),
        turns: 2
    }));
    assert_eq!(
        f.refused_for(aria, Command::Bonus(BonusAction::SecondWind)),
        RuleViolation::OnCooldown {
            ability: "Second Wind".into(),
            turns: 2
        }
    );
    f.act(aria, Command::EndTurn);
    f.act(goblin, Command::EndTurn);
    assert_eq!(f.current(), aria);
    assert_eq!(f.get(aria).ctb().cooldowns.get("Second Wind"), Some(&1));
    f.refused_for(aria, Command::Bonus(BonusAction::SecondWind));
    f.act(aria, Command::EndTurn);
    f.act(goblin, Command::EndTurn);
    assert!(f.get(aria).ctb().cooldowns.is_empty());
    f.act(aria, Command::Bonus(BonusAction::SecondWind));

    // Seed 003 §1.B: a skill used on turn 1 with a 1-turn cooldown is ready again on turn 2.
    let mut f = ctb_fight(vec![
        pc("Cleo", Race::HUMAN, Class::CLERIC, 3),
        pc("Aria", Race::HUMAN, Class::FIGHTER, 3),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let (cleo, aria) = (f.id("Cleo"), f.id("Aria"));
    f.get_mut(cleo).ctb_mut().charge = 100;
    f.get_mut(aria).hp = 3;
    f.direct(Command::Begin);
    assert_eq!(f.current(), cleo);
    f.act(cleo, Command::Bonus(BonusAction::HealingWord { target: aria }));
    f.act(cleo, Command::EndTurn);
    while f.current() != cleo {
        let who = f.current();
        f.act(who, Command::EndTurn);
    }
    f.act(cleo, Command::Bonus(BonusAction::HealingWord { target: aria }));
}

#[test]
fn statuses_tick_at_turn_start_lose_a_turn_and_expire_unless_permanent() {
    let mut f = ctb_fight(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 5),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let (aria, goblin) = (f.id("Aria"), f.id("Goblin"));
    let hp = f.get(aria).hp;
    f.get_mut(aria).statuses = vec![
        StatusEffect {
            name: "Burning".into(),
            kind: StatusKind::Dot {
                amount: 3,
                damage_type: DamageType::Fire,
            },
            duration: 2,
            permanent: false,
            condition: None,
            ends_on_save: None,
            concentration: None,
        },
        StatusEffect {
            name: "Regeneration".into(),
            kind: StatusKind::Hot { amount: 1 },
            duration: 1,
            permanent: true,
            condition: None,
            ends_on_save: None,
            concentration: None,
        },
    ];
    f.get_mut(aria).ctb_mut().charge = 100;
    f.get_mut(goblin).ctb_mut().charge = 50;
    let events = f.direct(Command::Begin);
    assert!(events.contains(&Event::StatusTicked {
        id: aria,
        status: "Burning".into(),
        amount: -3,
        remaining: 1,
        permanent: false
    }));
    assert!(events.contains(&Event::StatusTicked {
        id: aria,
        status: "Regeneration".into(),
        amount: 1,
        remaining: 1,
        permanent: true
    }));
    assert_eq!(f.get(aria).hp, hp - 3 + 1);
    f.act(aria, Command::EndTurn);
    f.act(goblin, Command::EndTurn);
    let events: Vec<Event> = f
        .log
        .iter()
        .rev()
        .take_while(|e| !matches!(e, Event::TurnEnded { .. }))
        .cloned()
        .collect();
    assert!(events.contains(&Event::StatusExpired {
        id: aria,
        status: "Burning".into()
    }));
    assert_eq!(f.get(aria).hp, hp - 6 + 2);
    assert_eq!(f.get(aria).statuses.len(), 1, "the permanent one stays");
    assert_eq!(f.get(aria).statuses[0].name, "Regeneration");
}

#[test]
fn a_stunned_unit_s_turn_ends_at_once_and_a_one_turn_stun_takes_one_turn() {
    let mut f = ctb_fight(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let (aria, goblin) = (f.id("Aria"), f.id("Goblin"));
    f.get_mut(aria).ctb_mut().charge = 100;
    f.get_mut(aria).statuses = vec![StatusEffect {
        name: "Stun".into(),
        kind: StatusKind::Stun,
        duration: 1,
        permanent: false,
        condition: None,
        ends_on_save: None,
        concentration: None,
    }];
    f.get_mut(goblin).ctb_mut().charge = 50;
    let events = f.direct(Command::Begin);
    let stunned = events.iter().position(|e| *e == Event::Stunned { id: aria }).unwrap();
    assert_eq!(events[stunned + 1], Event::TurnEnded { id: aria });
    assert_eq!(
        f.get(aria).ctb().charge,
        50,
        "the lost turn still pays its 100: 0, then 5 ticks until the goblin's 50 reaches 100"
    );
    assert_eq!(f.current(), goblin);
    f.act(goblin, Command::EndTurn);
    assert_eq!(f.current(), aria);
    f.act(aria, Command::Dodge);
}

#[test]
fn a_refused_command_costs_nothing() {
    let mut f = ctb_fight(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let aria = f.id("Aria");
    f.get_mut(aria).ctb_mut().charge = 100;
    f.direct(Command::Begin);
    let goblin = f.id("Goblin");
    // Out of reach: refused by the shared rules, AP and slots untouched.
    f.refused_for(aria, Command::Attack { target: Some(goblin) });
    assert_eq!(f.get(aria).ctb().ap, 5);
}

/// Plays `turns` turns of a race where everyone just ends their turn; counts turns per unit.
fn count_turns(mut combat: Combat, dice: &mut Dice, turns: usize) -> Vec<usize> {
    let mut counts = vec![0; combat.combatants.len()];
    let events = apply(&mut combat, Actor::Director, Command::Begin, dice, now()).unwrap();
    for id in turns_started(&events) {
        counts[id.0 as usize] += 1;
    }
    for _ in 1..turns {
        let who = combat.current().unwrap();
        let events = apply(&mut combat, Actor::Combatant(who), Command::EndTurn, dice, now()).unwrap();
        for id in turns_started(&events) {
            counts[id.0 as usize] += 1;
        }
    }
    counts
}

#[test]
fn over_many_seeded_trials_a_unit_twice_as_fast_acts_twice_as_often() {
    // A hasted human (speed 20) against an ordinary one (speed 10): each turn costs 100 charge,
    // so over a long fight turns are in proportion to speed — 2 : 1. Each trial starts the
    // meters at seeded random charges.
    let (mut fast_turns, mut slow_turns) = (0, 0);
    for seed in 0..200 {
        let mut dice = Dice::seeded(seed);
        let mut fast = pc("Fast", Race::HUMAN, Class::FIGHTER, 1);
        fast.conditions.hasted = true;
        fast.ctb_mut().charge = dice.die(100) as i32 - 1;
        let mut slow = pc("Slow", Race::HUMAN, Class::FIGHTER, 1).on_side(engine::Side::Enemies);
        slow.ctb_mut().charge = dice.die(100) as i32 - 1;
        let combat = Combat::new(vec![fast, slow], Terrain::default()).with_ruleset(Ruleset::Ctb);
        let counts = count_turns(combat, &mut dice, 90);
        assert!(counts[0].abs_diff(2 * counts[1]) <= 3, "seed {seed}: {counts:?}");
        fast_turns += counts[0];
        slow_turns += counts[1];
    }
    let ratio = fast_turns as f64 / slow_turns as f64;
    assert!((ratio - 2.0).abs() < 0.05, "{fast_turns} : {slow_turns} = {ratio}");
}

#[test]
fn turns_follow_the_speed_ratio_the_rules_imply_for_any_speeds() {
    // The race alone (no fight): a Quickling (speed 14) against a zombie (9) — 14 : 9 ≈ 1.56.
    let mut combat = Combat::new(
        vec![
            monster("Quickling", Monster::QUICKLING),
            monster("Zombie", Monster::ZOMBIE),
        ],
        Terrain::default(),
    )
    .with_ruleset(Ruleset::Ctb);
    let mut counts = [0usize; 2];
    for _ in 0..1900 {
        ctb::run_ticks(&mut combat);
        let who = ctb::leader(&combat).unwrap();
        counts[who.0 as usize] += 1;
        let c = combat.get_mut(who);
        c.ctb_mut().charge = (c.ctb_mut().charge - ctb::THRESHOLD).max(0);
    }
    let ratio = counts[0] as f64 / counts[1] as f64;
    assert!((ratio - 14.0 / 9.0).abs() < 0.02, "{counts:?}");
}

#[test]
fn ai_fights_under_ctb_run_to_an_end_and_replay_identically() {
    for seed in 0..100 {
        let fighter = engine::Combatant::character(
            "Bo",
            Race::HUMAN,
            Class::FIGHTER,
            5,
            Controller::Ai(Behaviour::Aggressive),
        );
        let mage = engine::Combatant::character("Mo", Race::ELF, Class::MAGE, 5, Controller::Ai(Behaviour::Caster));
        let goblins = (1..=3).map(|i| monster(&format!("Goblin {i}"), Monster::GOBLIN));
        let wolf = monster("Wolf", Monster::WOLF);
        let all: Vec<_> = [fighter, mage].into_iter().chain(goblins).chain([wolf]).collect();
        let run = || {
            let mut combat = Combat::new(all.clone(), Terrain::default()).with_ruleset(Ruleset::Ctb);
            let mut dice = Dice::seeded(seed);
            let events = apply(&mut combat, Actor::Director, Command::Begin, &mut dice, now()).unwrap();
            (combat, events)
        };
        let (combat, events) = run();
        assert!(combat.outcome.is_some(), "seed {seed} did not finish");
        assert_eq!(run().1, events, "seed {seed}: same seed, same log");
        for c in &combat.combatants {
            assert!(c.hp <= c.max_hp && c.hp >= 0);
        }
    }
}

/// Ends turns, whoever's they are, until `until` holds for the events so far; returns them.
fn end_turns_until(f: &mut Fight, until: impl Fn(&[Event]) -> bool) -> Vec<Event> {
    let mut seen = Vec::new();
    for _ in 0..40 {
        let who = f.current();
        seen.extend(f.act(who, Command::EndTurn));
        if until(&seen) {
            return seen;
        }
    }
    panic!("it never happened:\n{}", f.transcript());
}

fn status_ticks(events: &[Event], who: CombatantId) -> Vec<(i32, u32)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::StatusTicked {
                id, amount, remaining, ..
            } if *id == who => Some((*amount, *remaining)),
            _ => None,
        })
        .collect()
}

#[test]
fn fire_bolt_sets_its_target_burning_two_fire_damage_a_turn_for_two_turns_then_it_expires() {
    // Seed 003 §1.C: a DoT applies at each upkeep, loses a turn of duration, expires at 0.
    let mut f = ctb_fight(vec![
        pc("Mira", Race::HUMAN, Class::MAGE, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (mira, ogre) = (f.id("Mira"), f.id("Ogre"));
    f.get_mut(mira).ctb_mut().charge = 100;
    f.get_mut(ogre).ctb_mut().charge = 50;
    f.direct(Command::Begin);
    assert_eq!(f.current(), mira);
    let bolt = Command::Cast {
        spell: engine::content::Spell::FIRE_BOLT,
        target: Some(ogre),
    };
    let events = f.act_with(mira, bolt, |events, _| {
        events
            .iter()
            .any(|e| matches!(e, Event::DamageDealt { target, .. } if *target == ogre))
    });
    let damage = events
        .iter()
        .position(|e| matches!(e, Event::DamageDealt { target, .. } if *target == ogre))
        .unwrap();
    let applied = Event::StatusApplied {
        id: ogre,
        status: "Burning".into(),
        by: Some(mira),
        turns: 2,
        permanent: false,
    };
    let took_hold = events
        .iter()
        .position(|e| *e == applied)
        .expect("the hit sets it burning");
    assert!(damage < took_hold, "the status takes hold after the hit's damage");
    assert_eq!(f.get(ogre).statuses, vec![engine::content::statuses::burning()]);

    let hp = f.get(ogre).hp;
    let later = end_turns_until(&mut f, |seen| {
        seen.iter()
            .any(|e| matches!(e, Event::StatusExpired { id, .. } if *id == ogre))
    });
    assert_eq!(status_ticks(&later, ogre), vec![(-2, 1), (-2, 0)]);
    assert_eq!(f.get(ogre).hp, hp - 4, "two upkeeps of 2 fire damage, nothing else");
    assert!(f.get(ogre).statuses.is_empty(), "expired at 0");
}

#[test]
fn fire_bolt_burns_under_gogobees_own_ruleset_too() {
    let mut f = Fight::new(vec![
        pc("Mira", Race::HUMAN, Class::MAGE, 1),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (mira, ogre) = (f.id("Mira"), f.id("Ogre"));
    f.turn_of(mira);
    let bolt = Command::Cast {
        spell: engine::content::Spell::FIRE_BOLT,
        target: Some(ogre),
    };
    let events = f.act_with(mira, bolt, |events, _| {
        events
            .iter()
            .any(|e| matches!(e, Event::DamageDealt { target, .. } if *target == ogre))
    });
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::StatusApplied { id, status, .. } if *id == ogre && status == "Burning"))
    );
    assert_eq!(f.get(ogre).statuses, vec![engine::content::statuses::burning()]);
}

fn ghoul_clawing_aria() -> (Fight, CombatantId, CombatantId) {
    let mut f = ctb_fight(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Ghoul", Monster::GHOUL),
    ]);
    let (aria, ghoul) = (f.id("Aria"), f.id("Ghoul"));
    f.melee(aria, ghoul);
    f.get_mut(ghoul).ctb_mut().charge = 100;
    f.get_mut(aria).ctb_mut().charge = 50;
    f.direct(Command::Begin);
    assert_eq!(f.current(), ghoul);
    (f, aria, ghoul)
}

fn con_save(events: &[Event], who: CombatantId) -> Option<bool> {
    events.iter().find_map(|e| match e {
        Event::SavingThrow {
            id,
            ability: engine::content::Ability::Con,
            dc: 10,
            success,
            ..
        } if *id == who => Some(*success),
        _ => None,
    })
}

#[test]
fn a_ghoul_s_claws_paralyse_on_a_failed_con_save_and_the_stun_takes_the_next_turn() {
    // Seed 003 §1.C: "If a STUN status is active, skip the Action Phase and immediately trigger End Turn."
    let (mut f, aria, ghoul) = ghoul_clawing_aria();
    let events = f.act_with(ghoul, Command::Attack { target: Some(aria) }, |events, c| {
        con_save(events, aria) == Some(false) && c.get(aria).is_standing()
    });
    assert!(events.contains(&Event::StatusApplied {
        id: aria,
        status: "Paralysed".into(),
        by: Some(ghoul),
        turns: 1,
        permanent: false,
    }));
    let later = end_turns_until(&mut f, |seen| seen.contains(&Event::Stunned { id: aria }));
    let stunned = later.iter().position(|e| *e == Event::Stunned { id: aria }).unwrap();
    assert_eq!(
        later[stunned + 1],
        Event::TurnEnded { id: aria },
        "the turn ends at once"
    );
    assert!(later.contains(&Event::StatusExpired {
        id: aria,
        status: "Paralysed".into()
    }));
    assert!(f.get(aria).statuses.is_empty(), "one turn lost, no more");
}

#[test]
fn a_ghoul_s_claws_do_not_paralyse_on_a_successful_save() {
    let (mut f, aria, ghoul) = ghoul_clawing_aria();
    let events = f.act_with(ghoul, Command::Attack { target: Some(aria) }, |events, _| {
        con_save(events, aria) == Some(true)
    });
    assert!(!events.iter().any(|e| matches!(e, Event::StatusApplied { .. })));
    assert!(f.get(aria).statuses.is_empty());
}

#[test]
fn a_troll_regenerates_ten_at_each_upkeep_for_good_but_never_past_its_maximum() {
    // Seed 003 §1.C: a HoT applies at each upkeep; a permanent effect never expires.
    let mut f = ctb_fight(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Troll", Monster::TROLL),
    ]);
    let troll = f.id("Troll");
    let begun = f.direct(Command::Begin);
    assert!(begun.contains(&Event::StatusApplied {
        id: troll,
        status: "Regeneration".into(),
        by: None,
        turns: 0,
        permanent: true,
    }));
    let max = f.get(troll).max_hp;
    f.get_mut(troll).hp = max - 25;
    let later = end_turns_until(&mut f, |seen| status_ticks(seen, troll).len() == 4);
    assert_eq!(
        status_ticks(&later, troll),
        vec![(10, 0), (10, 0), (5, 0), (0, 0)],
        "+10, +10, the last 5 missing, then nothing to mend"
    );
    assert_eq!(f.get(troll).hp, max);
    assert_eq!(f.get(troll).statuses, vec![engine::content::statuses::regeneration()]);
    let heals = later
        .iter()
        .filter(|e| matches!(e, Event::Healed { target, .. } if *target == troll))
        .count();
    assert_eq!(heals, 3, "no heal is reported at full HP");
}

#[test]
fn the_forecast_names_who_acts_next_after_the_active_unit_pays_its_100() {
    // Seed 003 §2.A and §3: the Quickling (14) acts at tick 8 with 112 and keeps 12; Aria (10)
    // has 80 and needs 2 more ticks (100), the Quickling reaching 40 — so Aria acts next, 2 ticks
    // on.
    let mut f = ctb_fight(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Quickling", Monster::QUICKLING),
    ]);
    let (aria, wolf) = (f.id("Aria"), f.id("Quickling"));
    f.direct(Command::Begin);
    assert_eq!(f.current(), wolf);
    let before = f.combat.clone();
    assert_eq!(ctb::next_to_act(&f.combat), Some((aria, 2)));
    assert_eq!(f.combat, before, "a forecast changes nothing");
    let events = f.act(wolf, Command::EndTurn);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::ChargeRace { ticks: 2, winner, .. } if *winner == aria))
    );
}
