//! The tick timeline (seed 004): PER cycles, the tick loop in initiative order, the halt for a
//! player's commit, phase-gated reactions (cancel prep, mitigate exec, exploit recover), pause vs
//! cancel, initiative tiebreakers and its effect on cycle length, seeded jitter, and the
//! property that a faster actor acts more often in the proportion the rules imply.

mod common;

use common::{Fight, any, monster, now, pc, puppet};
use engine::content::{Behaviour, Class, Monster, Race};
use engine::resolve::Ctx;
use engine::timing::ticks::{self, Activity, Cycle, Interruptibility, Phase};
use engine::{
    Actor, Band, Combat, Combatant, CombatantId, Command, Controller, Dice, Event, MoveIntent, ReactionKind,
    RuleViolation, Ruleset, Terrain, apply,
};

fn ticks_fight(combatants: Vec<Combatant>) -> Fight {
    let mut f = Fight::new(combatants);
    f.combat.ruleset = Ruleset::Ticks;
    f
}

fn awaiting(events: &[Event]) -> Option<CombatantId> {
    events.iter().rev().find_map(|e| match e {
        Event::AwaitingCommand { id, .. } => Some(*id),
        _ => None,
    })
}

fn phases(events: &[Event], who: CombatantId) -> Vec<(Phase, u32)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::PhaseStarted { id, phase, ticks, .. } if *id == who => Some((*phase, *ticks)),
            _ => None,
        })
        .collect()
}

/// A cycle in `phase` for tests that set the scene by hand.
fn cycle_in(activity: &Activity, phase: Phase) -> Cycle {
    let mut c = ticks::durations(activity, &[], 10, 0);
    c.entered = Some(phase);
    c.elapsed = match phase {
        Phase::Prep => 1,
        Phase::Exec => c.prep + 1,
        Phase::Recover => c.prep + c.exec + 1,
    };
    c
}

#[test]
fn initiative_shortens_prep_and_recover_never_exec_and_jitter_lands_on_recover() {
    let attack = Activity::Command(Command::Attack { target: None });
    assert_eq!(ticks::base_cycle(&attack, &[]), (3, 1, 3, Interruptibility::Pause));
    let at = |initiative, jitter| {
        let c = ticks::durations(&attack, &[], initiative, jitter);
        (c.prep, c.exec, c.recover)
    };
    assert_eq!(at(10, 0), (3, 1, 3));
    assert_eq!(at(15, 0), (3, 1, 2), "5 over 10: one tick off recover");
    assert_eq!(at(30, 0), (2, 1, 0), "four ticks: recover first, then prep");
    assert_eq!(at(60, 0), (0, 1, 0), "exec is never shortened");
    assert_eq!(at(3, 0), (3, 1, 3), "low initiative never lengthens");
    assert_eq!(at(10, 1), (3, 1, 4));
    assert_eq!(at(10, -1), (3, 1, 2));
    assert_eq!(at(20, -1), (3, 1, 0), "never below 0");
    let spell = Activity::Command(Command::Cast {
        spell: engine::content::Spell::FIREBALL,
        target: None,
    });
    let mage = engine::Combatant::character(
        "Ione",
        engine::content::Race::ELF,
        engine::content::Class::MAGE,
        5,
        engine::Controller::Player("i".into()),
    );
    assert_eq!(
        ticks::base_cycle(&spell, mage.known_spells()),
        (6, 1, 3, Interruptibility::Cancel),
        "Fireball, a 3rd-level spell: prep 3 + 3"
    );
}

#[test]
fn initiative_ties_break_by_dex_then_level_then_pcs_over_monsters_then_the_pre_rolled_coin() {
    let mut c = Combat::new(
        vec![
            pc("Low", Race::HUMAN, Class::FIGHTER, 1),
            pc("Dexy", Race::HUMAN, Class::FIGHTER, 1),
            pc("Veteran", Race::HUMAN, Class::FIGHTER, 5),
            monster("Goblin", Monster::GOBLIN),
            pc("Twin A", Race::HUMAN, Class::FIGHTER, 1),
            pc("Twin B", Race::HUMAN, Class::FIGHTER, 1),
        ],
        Terrain::default(),
    );
    for x in &mut c.combatants {
        x.initiative = 15;
        x.abilities.dex = 14;
    }
    c.combatants[0].initiative = 9;
    c.combatants[1].abilities.dex = 16;
    let heads = ticks::initiative_order(&c, true);
    let id = |i: u32| CombatantId(i);
    assert_eq!(heads, vec![id(1), id(2), id(4), id(5), id(3), id(0)]);
    let tails = ticks::initiative_order(&c, false);
    assert_eq!(
        tails,
        vec![id(1), id(2), id(5), id(4), id(3), id(0)],
        "tails: the coin flips the twins"
    );
}

#[test]
fn initiative_and_the_coin_are_rolled_once_at_the_start() {
    let mut f = ticks_fight(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let mut upcoming = f.upcoming();
    let (r0, r1) = (upcoming.die(20), upcoming.die(20));
    let coin = upcoming.coin();
    let events = f.direct(Command::Begin);
    assert!(any(&events, |e| matches!(e, Event::InitiativeRolled { .. })));
    assert_eq!(f.get(f.id("Aria")).initiative, r0 as i32 + 2);
    assert_eq!(f.get(f.id("Goblin")).initiative, r1 as i32 + 2);
    assert_eq!(f.combat.model.timeline.coin, coin);
}

#[test]
fn a_player_with_no_action_chosen_halts_the_loop_until_they_commit() {
    let mut f = ticks_fight(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
        monster("Goblin", Monster::GOBLIN),
    ]);
    let (aria, goblin) = (f.id("Aria"), f.id("Goblin"));
    f.get_mut(goblin).hp = 50;
    let events = f.direct(Command::Begin);
    assert_eq!(awaiting(&events), Some(aria));
    let tick = f.combat.model.tick;
    assert_eq!(f.current(), aria);
    // Nothing moves until Aria commits: the Director has nothing to push.
    assert!(matches!(
        f.refused(Actor::Combatant(goblin), Command::Dodge),
        RuleViolation::NotYourTurn { .. }
    ));
    assert_eq!(f.combat.model.tick, tick);
    let events = f.act(aria, Command::Move(MoveIntent::Melee(goblin)));
    assert_eq!(
        phases(&events, aria)[0],
        (Phase::Prep, f.get(aria).ticks().current.as_ref().map_or(1, |c| c.prep))
    );
    assert!(f.combat.model.tick > tick, "the clock runs again");
}

#[test]
fn an_illegal_command_is_refused_at_commit_and_changes_nothing() {
    let mut f = ticks_fight(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let goblin = f.id("Goblin");
    let events = f.direct(Command::Begin);
    let first = awaiting(&events).unwrap();
    let other = if first == goblin { f.id("Aria") } else { goblin };
    assert!(matches!(
        f.refused_for(first, Command::Grapple { target: other }),
        RuleViolation::OutOfReach { .. }
    ));
    assert!(matches!(
        f.refused_for(
            first,
            Command::Ready {
                text: "dodge when it moves".into()
            }
        ),
        RuleViolation::NotInThisRuleset { .. }
    ));
}

#[test]
fn an_action_runs_prep_then_exec_then_recover_and_its_effect_comes_at_exec() {
    let mut f = ticks_fight(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let (aria, goblin) = (f.id("Aria"), f.id("Goblin"));
    f.direct(Command::Begin);
    f.get_mut(aria).initiative = 10;
    f.get_mut(goblin).initiative = 10;
    let mut log_from = f.log.len();
    // Whoever is asked first waits; Aria moves into melee (prep 1, exec 2, recover 1 ± jitter).
    while f.current() != aria {
        let who = f.current();
        f.act(who, Command::EndTurn);
    }
    let start_tick = f.combat.model.tick;
    f.act(aria, Command::Move(MoveIntent::Melee(goblin)));
    while f.combat.window.is_some() || f.current() != aria || f.combat.model.timeline.awaiting != Some(aria) {
        if let Some(w) = f.combat.window.clone() {
            f.act(w.reactor, Command::Pass);
        } else {
            let who = f.current();
            f.act(who, Command::EndTurn);
        }
    }
    let events = f.log[log_from..].to_vec();
    let seen: Vec<Phase> = phases(&events, aria).into_iter().map(|(p, _)| p).collect();
    assert_eq!(&seen[..3], &[Phase::Prep, Phase::Exec, Phase::Recover]);
    let exec = events
        .iter()
        .position(|e| matches!(e, Event::PhaseStarted { id, phase: Phase::Exec, .. } if *id == aria))
        .unwrap();
    let moved = events
        .iter()
        .position(|e| matches!(e, Event::Moved { id, .. } if *id == aria))
        .unwrap();
    assert!(exec < moved, "the move happens when exec starts");
    assert_eq!(f.band(aria, goblin), Band::Melee);
    assert!(f.combat.model.tick >= start_tick + 3);
    log_from = f.log.len();
    let _ = log_from;
}

#[test]
fn reactions_are_gated_by_the_reactor_s_own_phase_none_in_exec() {
    let mut c = Combat::new(
        vec![
            pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
            monster("Goblin", Monster::GOBLIN),
        ],
        Terrain::default(),
    )
    .with_ruleset(Ruleset::Ticks);
    c.set_band(CombatantId(0), CombatantId(1), Band::Melee);
    let attack = Activity::Command(Command::Attack { target: None });
    c.combatants[1].ticks_mut().current = Some(cycle_in(&attack, Phase::Recover));
    for (mine, expected) in [
        (None, Some(ReactionKind::Exploit)),
        (Some(Phase::Prep), Some(ReactionKind::Exploit)),
        (Some(Phase::Exec), None),
        (Some(Phase::Recover), Some(ReactionKind::Exploit)),
    ] {
        c.combatants[0].ticks_mut().current = mine.map(|p| cycle_in(&attack, p));
        assert_eq!(
            ticks::reaction_for(&c, CombatantId(0), CombatantId(1), Phase::Recover),
            expected,
            "reactor in {mine:?}"
        );
        assert_eq!(ticks::may_react(&c.combatants[0]), expected.is_some());
    }
}

#[test]
fn what_a_reaction_can_do_is_gated_by_the_observed_phase() {
    let mut c = Combat::new(
        vec![
            pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
            pc("Mira", Race::HUMAN, Class::MAGE, 1),
            monster("Goblin", Monster::GOBLIN),
        ],
        Terrain::default(),
    )
    .with_ruleset(Ruleset::Ticks);
    let (aria, mira, goblin) = (CombatantId(0), CombatantId(1), CombatantId(2));
    c.set_band(aria, goblin, Band::Melee);
    c.set_band(mira, goblin, Band::Melee);
    // Prep: cancel — only for those who can read prep (Perception: the fighter, not the mage).
    assert_eq!(
        ticks::reaction_for(&c, aria, goblin, Phase::Prep),
        Some(ReactionKind::Cancel)
    );
    assert_eq!(ticks::reaction_for(&c, mira, goblin, Phase::Prep), None);
    // Exec: mitigation is GogoBee's reactions during the action, not a phase reaction.
    assert_eq!(ticks::reaction_for(&c, aria, goblin, Phase::Exec), None);
    // Recover: the exploit window, for anyone in reach.
    assert_eq!(
        ticks::reaction_for(&c, mira, goblin, Phase::Recover),
        Some(ReactionKind::Exploit)
    );
    c.set_band(mira, goblin, Band::Far);
    assert_eq!(
        ticks::reaction_for(&c, mira, goblin, Phase::Recover),
        None,
        "out of reach"
    );
}

fn ctx_over<'a>(combat: &'a mut Combat, dice: &'a mut Dice) -> Ctx<'a> {
    Ctx {
        combat,
        dice,
        now: now(),
        events: Vec::new(),
    }
}

#[test]
fn reacting_pauses_a_light_action_and_cancels_a_concentrated_one() {
    let mut c = Combat::new(
        vec![
            pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
            monster("Goblin", Monster::GOBLIN),
        ],
        Terrain::default(),
    )
    .with_ruleset(Ruleset::Ticks);
    let mut dice = Dice::seeded(0);
    let attack = Activity::Command(Command::Attack { target: None });
    c.combatants[0].ticks_mut().current = Some(cycle_in(&attack, Phase::Prep));
    let mut ctx = ctx_over(&mut c, &mut dice);
    ticks::begin_reaction_cycle(&mut ctx, CombatantId(0), ReactionKind::Exploit, CombatantId(1));
    // The reaction's own cycle starts at once: exec, 1 tick (a strike is 0/1/4).
    assert!(matches!(
        ctx.events[..],
        [Event::PhaseStarted {
            phase: Phase::Exec,
            ticks: 1,
            tick: 0,
            ..
        }]
    ));
    let sheet = c.combatants[0].ticks();
    assert!(matches!(
        sheet.current.as_ref().unwrap().activity,
        Activity::Reaction { .. }
    ));
    assert_eq!(sheet.paused.len(), 1, "the attack pauses and will resume");
    assert_eq!(sheet.paused[0].activity, attack);
    assert_eq!(sheet.paused[0].elapsed, 1, "where it left off");

    let spell = Activity::Command(Command::Cast {
        spell: engine::content::Spell::MAGIC_MISSILE,
        target: None,
    });
    *c.combatants[0].ticks_mut() = ticks::TicksSheet::default();
    c.combatants[0].ticks_mut().current = Some(cycle_in(&spell, Phase::Prep));
    let mut ctx = ctx_over(&mut c, &mut dice);
    ticks::begin_reaction_cycle(&mut ctx, CombatantId(0), ReactionKind::Exploit, CombatantId(1));
    assert!(matches!(
        ctx.events[..],
        [Event::ActionCancelled { by: None, .. }, Event::PhaseStarted { .. }]
    ));
    assert!(c.combatants[0].ticks().paused.is_empty(), "the spell is lost");
}

#[test]
fn a_paused_action_resumes_once_the_reaction_fully_completes() {
    // An AI goblin in melee with a player fighter who keeps waiting: the goblin's attacks and
    // the fighter's exploits interleave; every paused action comes back.
    let mut f = ticks_fight(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 5),
        monster("Goblin", Monster::GOBLIN),
    ]);
    let (aria, goblin) = (f.id("Aria"), f.id("Goblin"));
    f.melee(aria, goblin);
    f.get_mut(goblin).hp = 500;
    f.get_mut(goblin).max_hp = 500;
    f.get_mut(aria).hp = 500;
    f.get_mut(aria).max_hp = 500;
    f.direct(Command::Begin);
    let mut exploited = 0;
    for _ in 0..60 {
        if f.combat.outcome.is_some() {
            break;
        }
        if let Some(w) = f.combat.window.clone() {
            if w.options.contains(&ReactionKind::Exploit) && w.reactor == aria {
                f.act(aria, Command::React(ReactionKind::Exploit));
                exploited += 1;
            } else {
                f.act(w.reactor, Command::Pass);
            }
            continue;
        }
        let who = f.current();
        f.act(who, Command::Attack { target: Some(goblin) });
    }
    assert!(exploited > 0);
    assert!(any(&f.log, |e| matches!(
        e,
        Event::ReactionTaken {
            reaction: ReactionKind::Exploit,
            ..
        }
    )));
    let exploit_rolls = f
        .log
        .iter()
        .filter(|e| matches!(e, Event::AttackRolled { attacker, kind: engine::event::AttackKind::Opportunity, d20, .. } if *attacker == aria && d20.mode == engine::dice::RollMode::Advantage))
        .count();
    assert!(exploit_rolls > 0, "an exploit strikes with advantage");
}

#[test]
fn a_cancel_that_hits_breaks_the_windup() {
    let mut f = ticks_fight(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 5),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (aria, ogre) = (f.id("Aria"), f.id("Ogre"));
    f.melee(aria, ogre);
    f.get_mut(ogre).hp = 500;
    f.direct(Command::Begin);
    f.get_mut(aria).initiative = 10;
    f.get_mut(ogre).initiative = 10;
    // Aria waits (keeping out of exec); the ogre winds up an attack: Aria may break it.
    let mut broke = false;
    for _ in 0..60 {
        if let Some(w) = f.combat.window.clone() {
            if w.reactor == aria && w.options.contains(&ReactionKind::Cancel) {
                let events = f.act_with(aria, Command::React(ReactionKind::Cancel), |e, _| {
                    any(e, |e| matches!(e, Event::AttackRolled { hit: true, .. }))
                });
                assert!(any(
                    &events,
                    |e| matches!(e, Event::ActionCancelled { id, by: Some(by), .. } if *id == ogre && *by == aria)
                ));
                assert!(
                    f.get(ogre).ticks().current.is_none()
                        || f.get(ogre).ticks().current.as_ref().unwrap().phase() != Phase::Prep
                );
                broke = true;
                break;
            }
            f.act(w.reactor, Command::Pass);
            continue;
        }
        let who = f.current();
        if who == ogre {
            f.act(ogre, Command::Attack { target: Some(aria) });
        } else {
            f.act(who, Command::EndTurn);
        }
    }
    assert!(broke, "{}", f.transcript());
}

#[test]
fn movement_is_an_action_whose_leaving_triggers_resolve_before_it_arrives() {
    let mut f = ticks_fight(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Goblin 1", Monster::GOBLIN),
    ]);
    let (aria, g1) = (f.id("Aria"), f.id("Goblin 1"));
    f.melee(aria, g1);
    f.direct(Command::Begin);
    for _ in 0..40 {
        if let Some(w) = f.combat.window.clone() {
            // Goblin 1's opportunity attack as Aria leaves: offered (it is not in its own
            // exec: it waits) before she is gone.
            assert_eq!(w.reactor, g1);
            assert_eq!(w.options, vec![ReactionKind::OpportunityAttack]);
            assert_eq!(f.band(aria, g1), Band::Melee, "not yet gone");
            f.act(g1, Command::Pass);
            assert_eq!(f.band(aria, g1), Band::Near);
            return;
        }
        let who = f.current();
        if who == aria {
            f.act(aria, Command::Move(MoveIntent::Away));
        } else {
            f.act(who, Command::EndTurn);
        }
    }
    panic!("no opportunity attack offered\n{}", f.transcript());
}

#[test]
fn ai_fights_on_the_timeline_run_to_an_end_and_replay_identically() {
    for seed in 0..60 {
        let fighter = Combatant::character(
            "Bo",
            Race::HUMAN,
            Class::FIGHTER,
            5,
            Controller::Ai(Behaviour::Aggressive),
        );
        let mage = Combatant::character("Mo", Race::ELF, Class::MAGE, 5, Controller::Ai(Behaviour::Caster));
        let goblins = (1..=3).map(|i| monster(&format!("Goblin {i}"), Monster::GOBLIN));
        let wolf = monster("Wolf", Monster::WOLF);
        let all: Vec<_> = [fighter, mage].into_iter().chain(goblins).chain([wolf]).collect();
        let run = || {
            let mut combat = Combat::new(all.clone(), Terrain::default()).with_ruleset(Ruleset::Ticks);
            let mut dice = Dice::seeded(seed);
            let events = apply(&mut combat, Actor::Director, Command::Begin, &mut dice, now()).unwrap();
            (combat, events)
        };
        let (combat, events) = run();
        assert!(combat.outcome.is_some(), "seed {seed} did not finish");
        assert_eq!(run().1, events, "seed {seed}: same seed, same log");
        assert!(any(&events, |e| matches!(e, Event::PhaseStarted { .. })));
    }
}

/// Runs `ticks` ticks of two players who always Search; counts their Search execs.
fn searches(seed: u64, fast_initiative: i32, slow_initiative: i32, ticks: u64) -> (usize, usize) {
    let mut combat = Combat::new(
        vec![
            pc("Fast", Race::HUMAN, Class::FIGHTER, 1),
            pc("Slow", Race::HUMAN, Class::FIGHTER, 1).on_side(engine::Side::Enemies),
        ],
        Terrain::default(),
    )
    .with_ruleset(Ruleset::Ticks);
    let mut dice = Dice::seeded(seed);
    apply(&mut combat, Actor::Director, Command::Begin, &mut dice, now()).unwrap();
    combat.combatants[0].initiative = fast_initiative;
    combat.combatants[1].initiative = slow_initiative;
    let mut counts = (0, 0);
    while combat.model.tick < ticks {
        let who = combat.current().unwrap();
        let events = apply(&mut combat, Actor::Combatant(who), Command::Search, &mut dice, now()).unwrap();
        for e in &events {
            if let Event::PhaseStarted {
                id, phase: Phase::Exec, ..
            } = e
            {
                if id.0 == 0 {
                    counts.0 += 1;
                } else {
                    counts.1 += 1;
                }
            }
        }
    }
    (counts.0, counts.1)
}

/// Mean length in ticks of a Search cycle at `initiative`, over the jitter (−1, 0, +1).
fn mean_search_cycle(initiative: i32) -> f64 {
    let search = Activity::Command(Command::Search);
    [-1, 0, 1]
        .map(|j| f64::from(ticks::durations(&search, &[], initiative, j).total()))
        .iter()
        .sum::<f64>()
        / 3.0
}

#[test]
fn over_many_seeded_trials_higher_initiative_acts_more_often_in_the_proportion_the_rules_imply() {
    // Initiative 20 takes 2 ticks off each Search cycle (2/1/2 → 2/1/0): cycles average
    // 3.33 ticks against 5 at initiative 10, so 1.5 actions to 1.
    let expected = mean_search_cycle(10) / mean_search_cycle(20);
    assert!((expected - 1.5).abs() < 1e-9, "{expected}");
    let (mut fast, mut slow) = (0, 0);
    for seed in 0..20 {
        let (f, s) = searches(seed, 20, 10, 600);
        fast += f;
        slow += s;
    }
    let ratio = fast as f64 / slow as f64;
    assert!(
        (ratio - expected).abs() < 0.05,
        "{fast} : {slow} = {ratio}, expected {expected}"
    );
}

#[test]
fn an_actor_with_several_queued_reactions_uses_only_the_best_one() {
    // A wolf sees one player's windup (prep) and another's recover in the same tick: it
    // breaks the windup and lets the other opening go.
    let mut c = Combat::new(
        vec![
            pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
            pc("Bren", Race::HUMAN, Class::FIGHTER, 1),
            monster("Wolf", Monster::WOLF),
        ],
        Terrain::default(),
    )
    .with_ruleset(Ruleset::Ticks);
    let (aria, bren, hob) = (CombatantId(0), CombatantId(1), CombatantId(2));
    c.set_band(aria, hob, Band::Melee);
    c.set_band(bren, hob, Band::Melee);
    c.started = true;
    c.order = vec![aria, bren, hob];
    let attack = Activity::Command(Command::Attack { target: Some(hob) });
    c.combatants[0].ticks_mut().current = Some(cycle_in(&attack, Phase::Recover));
    c.combatants[1].ticks_mut().current = Some(cycle_in(&attack, Phase::Prep));
    assert!(
        ticks::reads_prep(&c.combatants[2]),
        "a wolf's keen senses read a windup"
    );
    c.model.timeline.reacting = true;
    c.model.timeline.observed = vec![
        ticks::Observation {
            observer: hob,
            actor: aria,
            phase: Phase::Recover,
        },
        ticks::Observation {
            observer: hob,
            actor: bren,
            phase: Phase::Prep,
        },
    ];
    let best = (ReactionKind::Cancel, bren);
    let mut dice = Dice::seeded(3);
    let mut ctx = ctx_over(&mut c, &mut dice);
    assert!(ticks::pump(&mut ctx));
    let taken: Vec<ReactionKind> = ctx
        .events
        .iter()
        .filter_map(|e| match e {
            Event::ReactionTaken { reaction, .. } => Some(*reaction),
            _ => None,
        })
        .collect();
    assert_eq!(taken, vec![best.0], "one reaction, the best");
    assert!(ctx.combat.model.timeline.observed.is_empty(), "the rest are discarded");
    assert!(matches!(
        ctx.combat.queue.front(),
        Some(engine::resolve::Step::Swing(s)) if s.target == best.1
    ));
}

#[test]
fn a_cycle_tells_how_many_ticks_its_phase_still_lasts() {
    // Attack 3/1/3: one tick in, prep has 2 left; its last prep tick leaves 0 (exec comes next).
    let attack = Activity::Command(Command::Attack { target: None });
    let mut c = ticks::durations(&attack, &[], 10, 0);
    c.entered = Some(Phase::Prep);
    c.elapsed = 1;
    assert_eq!((c.phase(), c.left_in_phase()), (Phase::Prep, 2));
    c.elapsed = 3;
    assert_eq!(c.left_in_phase(), 0);
    c.entered = Some(Phase::Exec);
    c.elapsed = 4;
    assert_eq!((c.phase(), c.left_in_phase()), (Phase::Exec, 0));
    c.entered = Some(Phase::Recover);
    c.elapsed = 5;
    assert_eq!((c.phase(), c.left_in_phase()), (Phase::Recover, 2));
}

/// Aria (a player) in melee with two goblins: one entered its prep this tick, the other its
/// recover — two reactions queued for her in one tick.
fn two_openings_at_once() -> (Combat, CombatantId, CombatantId, CombatantId) {
    let mut c = Combat::new(
        vec![
            pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
            monster("Goblin 1", Monster::GOBLIN),
            monster("Goblin 2", Monster::GOBLIN),
        ],
        Terrain::default(),
    )
    .with_ruleset(Ruleset::Ticks);
    let (aria, winding, recovering) = (CombatantId(0), CombatantId(1), CombatantId(2));
    c.set_band(aria, winding, Band::Melee);
    c.set_band(aria, recovering, Band::Melee);
    c.started = true;
    c.round = 1;
    c.order = vec![winding, recovering, aria];
    let attack = Activity::Command(Command::Attack { target: Some(aria) });
    c.combatants[1].ticks_mut().current = Some(cycle_in(&attack, Phase::Prep));
    c.combatants[2].ticks_mut().current = Some(cycle_in(&attack, Phase::Recover));
    assert!(ticks::reads_prep(&c.combatants[0]), "a fighter reads a windup");
    c.model.timeline.reacting = true;
    c.model.timeline.observed = vec![
        ticks::Observation {
            observer: aria,
            actor: recovering,
            phase: Phase::Recover,
        },
        ticks::Observation {
            observer: aria,
            actor: winding,
            phase: Phase::Prep,
        },
    ];
    (c, aria, winding, recovering)
}

#[test]
fn a_player_with_several_queued_reactions_is_offered_the_choice_and_uses_only_the_one_picked() {
    // Seed 004 "Reaction pass": "An actor with several queued reactions evaluates them and uses
    // the best one ...; the rest are discarded. Monsters rank by profile; the player is offered
    // the choice."
    for (picked, target) in [(ReactionKind::Cancel, 1), (ReactionKind::Exploit, 2)] {
        let (mut c, aria, winding, recovering) = two_openings_at_once();
        let mut dice = Dice::seeded(5);
        let mut ctx = ctx_over(&mut c, &mut dice);
        assert!(ticks::pump(&mut ctx));
        assert!(
            ctx.combat.model.timeline.observed.is_empty(),
            "her queue is emptied into the choice"
        );
        let window = ctx.combat.window.clone().expect("the player chooses");
        assert_eq!(window.reactor, aria);
        assert_eq!(window.options, vec![ReactionKind::Cancel, ReactionKind::Exploit]);
        assert_eq!(
            window.trigger_for(ReactionKind::Cancel),
            &engine::ReactionTrigger::Phase {
                actor: winding,
                phase: Phase::Prep
            }
        );
        assert_eq!(
            window.trigger_for(ReactionKind::Exploit),
            &engine::ReactionTrigger::Phase {
                actor: recovering,
                phase: Phase::Recover
            }
        );
        let events = apply(&mut c, Actor::Combatant(aria), Command::React(picked), &mut dice, now()).unwrap();
        let taken: Vec<ReactionKind> = events
            .iter()
            .filter_map(|e| match e {
                Event::ReactionTaken { reactor, reaction } if *reactor == aria => Some(*reaction),
                _ => None,
            })
            .collect();
        assert_eq!(taken, vec![picked], "one reaction: the one she picked");
        let struck = events.iter().find_map(|e| match e {
            Event::AttackRolled { attacker, target, .. } if *attacker == aria => Some(*target),
            _ => None,
        });
        assert_eq!(struck, Some(CombatantId(target)), "{picked:?} strikes its own target");
    }
}

#[test]
fn a_player_with_one_queued_reaction_gets_a_plain_window() {
    let (mut c, aria, _, recovering) = two_openings_at_once();
    c.model.timeline.observed.retain(|o| o.actor == recovering);
    let mut dice = Dice::seeded(5);
    let mut ctx = ctx_over(&mut c, &mut dice);
    assert!(ticks::pump(&mut ctx));
    let window = c.window.clone().unwrap();
    assert_eq!((window.reactor, window.options), (aria, vec![ReactionKind::Exploit]));
    assert!(window.choices.is_empty());
}

#[test]
fn opportunity_attacks_provoked_by_one_move_resolve_in_initiative_order() {
    let mut f = ticks_fight(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Goblin 1", Monster::GOBLIN),
        puppet("Goblin 2", Monster::GOBLIN),
    ]);
    let (aria, g1, g2) = (f.id("Aria"), f.id("Goblin 1"), f.id("Goblin 2"));
    f.melee(aria, g1);
    f.melee(aria, g2);
    f.direct(Command::Begin);
    // Initiative: Goblin 2 first, then Aria, then Goblin 1. Counting on from the mover (Aria)
    // would put Goblin 1 first; the reaction pass goes in initiative order.
    f.combat.order = vec![g2, aria, g1];
    let mut offered = Vec::new();
    for _ in 0..60 {
        if let Some(w) = f.combat.window.clone() {
            if w.options.contains(&ReactionKind::OpportunityAttack) {
                offered.push(w.reactor);
                assert_eq!(f.band(aria, w.reactor), Band::Melee, "offered before she is gone");
            }
            f.act(w.reactor, Command::Pass);
            if offered.len() == 2 {
                break;
            }
            continue;
        }
        let who = awaiting(&f.log).unwrap_or_else(|| f.current());
        if who == aria && offered.is_empty() && f.band(aria, g1) == Band::Melee {
            f.act(aria, Command::Move(MoveIntent::Away));
        } else {
            f.act(who, Command::EndTurn);
        }
    }
    assert_eq!(offered, vec![g2, g1], "{}", f.transcript());
}

#[test]
fn a_target_in_a_one_tick_recover_can_be_exploited() {
    let mut f = ticks_fight(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let (aria, goblin) = (f.id("Aria"), f.id("Goblin"));
    f.melee(aria, goblin);
    f.direct(Command::Begin);
    let mut committed = false;
    for _ in 0..60 {
        if let Some(w) = f.combat.window.clone() {
            if w.options.contains(&ReactionKind::Exploit) {
                assert_eq!(w.reactor, aria);
                assert_eq!(
                    w.trigger_for(ReactionKind::Exploit),
                    &engine::ReactionTrigger::Phase {
                        actor: goblin,
                        phase: Phase::Recover
                    }
                );
                // The goblin's recover lasted one tick, and that tick is this one.
                let recovers = phases(&f.log, goblin);
                assert_eq!(recovers.last(), Some(&(Phase::Recover, 1)));
                let events = f.act(aria, Command::React(ReactionKind::Exploit));
                let strike = common::rolls(&events);
                assert_eq!(strike.len(), 1, "{}", f.transcript());
                assert_eq!((strike[0].attacker, strike[0].target), (aria, goblin));
                assert!(common::advantage(&strike[0].d20), "Exploit strikes with advantage");
                return;
            }
            f.act(w.reactor, Command::Pass);
            continue;
        }
        let who = awaiting(&f.log).unwrap_or_else(|| f.current());
        if who == goblin && !committed {
            f.act(goblin, Command::Attack { target: Some(aria) });
            // A quick goblin: its swing winds down in a single tick.
            f.get_mut(goblin).ticks_mut().current.as_mut().unwrap().recover = 1;
            committed = true;
        } else {
            f.act(who, Command::EndTurn);
        }
    }
    panic!("no Exploit offered against the one-tick recover\n{}", f.transcript());
}

/// `observer` (a monster) in melee with Aria and Bren, who entered `phases` this tick with
/// `activities`; returns the reaction it takes and its target.
fn queued_choice(
    observer: Monster,
    aria: (Phase, &Activity, i32),
    bren: (Phase, &Activity, i32),
) -> (ReactionKind, CombatantId) {
    let mut c = Combat::new(
        vec![
            pc("Aria", Race::HUMAN, Class::FIGHTER, 1),
            pc("Bren", Race::HUMAN, Class::MAGE, 1),
            monster("Watcher", observer),
        ],
        Terrain::default(),
    )
    .with_ruleset(Ruleset::Ticks);
    let (a, b, watcher) = (CombatantId(0), CombatantId(1), CombatantId(2));
    c.set_band(a, watcher, Band::Melee);
    c.set_band(b, watcher, Band::Melee);
    c.started = true;
    c.order = vec![a, b, watcher];
    c.combatants[0].ticks_mut().current = Some(cycle_in(aria.1, aria.0));
    c.combatants[0].hp = aria.2;
    c.combatants[1].ticks_mut().current = Some(cycle_in(bren.1, bren.0));
    c.combatants[1].hp = bren.2;
    c.model.timeline.reacting = true;
    c.model.timeline.observed = vec![
        ticks::Observation {
            observer: watcher,
            actor: a,
            phase: aria.0,
        },
        ticks::Observation {
            observer: watcher,
            actor: b,
            phase: bren.0,
        },
    ];
    let mut dice = Dice::seeded(3);
    let mut ctx = ctx_over(&mut c, &mut dice);
    assert!(ticks::pump(&mut ctx));
    let taken: Vec<ReactionKind> = ctx
        .events
        .iter()
        .filter_map(|e| match e {
            Event::ReactionTaken { reaction, .. } => Some(*reaction),
            _ => None,
        })
        .collect();
    assert_eq!(taken.len(), 1, "one reaction, the rest discarded");
    let target = match ctx.combat.queue.front() {
        Some(engine::resolve::Step::Swing(s)) => s.target,
        other => panic!("no strike queued: {other:?}"),
    };
    (taken[0], target)
}

#[test]
fn monsters_choose_among_queued_reactions_by_their_behaviour_profile() {
    let (aria, bren) = (CombatantId(0), CombatantId(1));
    let attack = Activity::Command(Command::Attack {
        target: Some(CombatantId(2)),
    });
    let cast = Activity::Command(Command::Cast {
        spell: engine::content::Spell::FIRE_BOLT,
        target: Some(CombatantId(2)),
    });
    for m in [Monster::WOLF, Monster::QUICKLING, Monster::DROW_MAGE] {
        assert!(ticks::reads_prep(&monster("Watcher", m)), "{m:?} reads a windup");
    }
    // Aria (earlier) winds down, Bren winds up. An aggressive wolf breaks the windup; a
    // skirmishing quickling takes the opening instead.
    let recover_and_prep = || ((Phase::Recover, &attack, 12), (Phase::Prep, &attack, 12));
    let (a, b) = recover_and_prep();
    assert_eq!(queued_choice(Monster::WOLF, a, b), (ReactionKind::Cancel, bren));
    let (a, b) = recover_and_prep();
    assert_eq!(queued_choice(Monster::QUICKLING, a, b), (ReactionKind::Exploit, aria));
    // Both wind down; Bren is the weaker. A wolf strikes the earlier, a brute ogre the weaker.
    let both_recover = || ((Phase::Recover, &attack, 12), (Phase::Recover, &attack, 3));
    let (a, b) = both_recover();
    assert_eq!(queued_choice(Monster::WOLF, a, b), (ReactionKind::Exploit, aria));
    let (a, b) = both_recover();
    assert_eq!(queued_choice(Monster::OGRE, a, b), (ReactionKind::Exploit, bren));
    // Both wind up, Bren a spell. A wolf breaks the earlier; a caster the spell.
    let both_prep = || ((Phase::Prep, &attack, 12), (Phase::Prep, &cast, 12));
    let (a, b) = both_prep();
    assert_eq!(queued_choice(Monster::WOLF, a, b), (ReactionKind::Cancel, aria));
    let (a, b) = both_prep();
    assert_eq!(queued_choice(Monster::DROW_MAGE, a, b), (ReactionKind::Cancel, bren));
}
