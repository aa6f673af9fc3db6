//! Liveness per timing model (seed 000 §1, seed 001 "Action phase", seed 003 §3, seed 004
//! "Resolution"): in any fight of 1–6 players and 1–8 monsters — joined before or after the
//! start, reinforcements spawned mid-fight, in difficult terrain or not — every standing
//! combatant acts within a bounded stretch of the fight, and a melee monster reaches a target that
//! is not fleeing it. The players here stand their ground: they attack what they can reach and
//! otherwise end their turn, so every melee monster has to close the distance itself.
//!
//! A monster's turn counts as acting only when it changes something — it moves, attacks, casts,
//! uses an ability or an item, helps, hides, searches, readies, breaks free: a Dash that moves
//! nothing, a Dodge or an empty turn is idling, and a monster may not idle past the bound.
//!
//! Competence (turn-based models): a melee monster that starts its turn engaged with a standing
//! enemy attacks (or uses an ability or a spell) in at least 95 % of those turns.
//!
//! Also: the same seed and the same commands, joins included, give the same log in every model.

use chrono::{DateTime, Utc};
use engine::content::{Behaviour, Class, Monster, Race};
use engine::timing::ctb;
use engine::{
    Actor, Band, Combat, Combatant, CombatantId, Command, Controller, Dice, Event, Ruleset, Side, Terrain, apply,
};
use proptest::prelude::*;
use std::collections::{HashMap, HashSet};

fn now() -> DateTime<Utc> {
    DateTime::from_timestamp(1_800_000_000, 0).expect("a valid timestamp")
}

#[derive(Debug, Clone)]
enum Member {
    Player { race: Race, class: Class, level: u32 },
    Monster(Monster),
}

impl Member {
    fn combatant(&self, i: usize) -> Combatant {
        match self {
            Member::Player { race, class, level } => Combatant::character(
                &format!("Hero {i}"),
                *race,
                *class,
                *level,
                Controller::Player(format!("player-{i}")),
            ),
            Member::Monster(m) => Combatant::monster(&format!("{} {i}", m.name()), *m),
        }
    }
}

/// A fight to drive: who starts in it, who joins after `Begin` (after how many commands), where.
#[derive(Debug, Clone)]
struct Setup {
    ruleset: Ruleset,
    first_player: Member,
    first_monster: Member,
    /// Further members: `None` joins before the start, `Some(k)` after the k-th command.
    more: Vec<(Member, Option<u8>)>,
    difficult: bool,
    seed: u64,
}

fn player() -> impl Strategy<Value = Member> {
    (
        prop::sample::select(Race::all()),
        prop::sample::select(Class::all()),
        1..=5u32,
    )
        .prop_map(|(race, class, level)| Member::Player { race, class, level })
}

fn monster() -> impl Strategy<Value = Member> {
    prop::sample::select(Monster::all()).prop_map(Member::Monster)
}

fn setup(ruleset: Ruleset) -> impl Strategy<Value = Setup> {
    (
        player(),
        monster(),
        prop::collection::vec((player(), prop::option::of(0..40u8)), 0..=5),
        prop::collection::vec((monster(), prop::option::of(0..40u8)), 0..=7),
        any::<bool>(),
        any::<u64>(),
    )
        .prop_map(
            move |(first_player, first_monster, players, monsters, difficult, seed)| Setup {
                ruleset,
                first_player,
                first_monster,
                more: players.into_iter().chain(monsters).collect(),
                difficult,
                seed,
            },
        )
}

/// A melee-minded monster: it fights only in melee and its profile closes in.
fn melee_minded(c: &Combatant) -> bool {
    c.stat_block().is_some()
        && matches!(
            c.behaviour(),
            Some(Behaviour::Aggressive | Behaviour::Brute | Behaviour::Breather)
        )
        && c.has_melee_attack()
        && !c.has_ranged_attack()
}

/// How far the fight has gone, in the unit each model's bound is stated in: turns started
/// (GogoBee, TDGS) or ticks (CTB's charge race, the tick timeline).
fn clock(combat: &Combat, turns_started: u64) -> u64 {
    match combat.ruleset {
        Ruleset::Gogobee | Ruleset::Tdgs => turns_started,
        Ruleset::Ctb | Ruleset::Ticks => combat.model.tick,
    }
}

/// The longest a standing combatant may go without acting, in [`clock`] units: a turn-based
/// round is at most one turn each (a newcomer placed behind the current turn waits out the rest
/// of this round and its place in the next); the slowest unit in the charge race (speed 9: a
/// zombie) fills its meter in 12 ticks; the longest PER cycle is a 9th-level spell's 16 ticks.
fn act_bound(combat: &Combat) -> u64 {
    let n = combat.combatants.len() as u64;
    match combat.ruleset {
        Ruleset::Gogobee | Ruleset::Tdgs => 2 * n + 2,
        Ruleset::Ctb => 40,
        Ruleset::Ticks => 40,
    }
}

/// How long a melee monster may take to reach a target that stands its ground: the worst case
/// is a zombie (20 ft) in difficult terrain at Far — 110 ft, three turns with a Dash each.
fn reach_bound(combat: &Combat) -> u64 {
    let n = combat.combatants.len() as u64;
    match combat.ruleset {
        Ruleset::Gogobee | Ruleset::Tdgs => 6 * n + 6,
        Ruleset::Ctb => 120,
        Ruleset::Ticks => 120,
    }
}

/// Whom the fight waits on, and what that player does: react? pass; its turn? attack if anything
/// is in reach, else end the turn (never move away).
fn player_move(combat: &Combat, tried_attack: bool) -> Option<(Actor, Command)> {
    if let Some(window) = &combat.window {
        return Some((Actor::Combatant(window.reactor), Command::Pass));
    }
    let waiting = match combat.ruleset {
        Ruleset::Ticks => combat.model.timeline.awaiting,
        _ => combat.current(),
    }?;
    let command = if tried_attack {
        Command::EndTurn
    } else {
        Command::Attack { target: None }
    };
    Some((Actor::Combatant(waiting), command))
}

struct Watch {
    turns_started: u64,
    /// Per combatant: the clock when it last acted, or became standing again, or joined.
    since: Vec<u64>,
    /// Per combatant: the clock it joined at (for the reach bound).
    joined_at: Vec<u64>,
    reached: Vec<bool>,
    /// Per combatant: the clock when it last changed something (monsters only are held to it).
    changed: Vec<u64>,
    /// Turns a melee monster started engaged with a standing enemy, and those it struck in.
    engaged_turns: u64,
    struck_turns: u64,
}

/// Who changed the fight by this event: moved, attacked, cast, used, helped, readied, broke free.
fn changer(e: &Event) -> Option<CombatantId> {
    match e {
        Event::Moved { id, feet, .. } if *feet > 0 => Some(*id),
        Event::Closing { id, .. }
        | Event::StoodUp { id, .. }
        | Event::Teleported { id, .. }
        | Event::EscapeAttempted { id, .. }
        | Event::Helped { id, .. }
        | Event::HideAttempted { id, .. }
        | Event::Searched { id, .. }
        | Event::AbilityUsed { id, .. }
        | Event::ItemUsed { id, .. }
        | Event::MedicineCheck { id, .. }
        | Event::ReadiedActionSet { id, .. }
        | Event::Grappled { id, .. }
        | Event::Shoved { id, .. } => Some(*id),
        Event::AttackRolled { attacker, .. } | Event::SwingLost { attacker, .. } => Some(*attacker),
        Event::SpellCast { caster, .. } => Some(*caster),
        _ => None,
    }
}

/// Whether `e` is `id` striking: an attack, an ability or a spell.
fn strikes(e: &Event, id: CombatantId) -> bool {
    match e {
        Event::AttackRolled { attacker, .. } | Event::SwingLost { attacker, .. } => *attacker == id,
        Event::AbilityUsed { id: by, .. } | Event::Grappled { id: by, .. } | Event::Shoved { id: by, .. } => *by == id,
        Event::SpellCast { caster, .. } => *caster == id,
        _ => false,
    }
}

impl Watch {
    fn grow(&mut self, combat: &Combat) {
        let at = clock(combat, self.turns_started);
        while self.since.len() < combat.combatants.len() {
            self.since.push(at);
            self.joined_at.push(at);
            self.reached.push(false);
            self.changed.push(at);
        }
    }

    /// Tallies the turns of melee monsters that began engaged with a standing enemy, replaying
    /// this command's moves and downings over the fight as it stood before it (turn-based models:
    /// a turn runs from `TurnStarted` to `TurnEnded`).
    fn tally_competence(&mut self, before: &Combat, after: &Combat, events: &[Event]) {
        if matches!(after.ruleset, Ruleset::Ticks) {
            return;
        }
        let key = |a: CombatantId, b: CombatantId| (a.0.min(b.0), a.0.max(b.0));
        let mut moved: HashMap<(u32, u32), Band> = HashMap::new();
        let mut down: HashSet<CombatantId> = before
            .combatants
            .iter()
            .filter(|c| !c.is_standing())
            .map(|c| c.id)
            .collect();
        let mut open: Option<(CombatantId, bool)> = None;
        for e in events {
            match e {
                Event::Moved { id, to, .. } | Event::Teleported { id, to } => {
                    for (other, band) in to {
                        moved.insert(key(*id, *other), *band);
                    }
                }
                Event::Downed { id, .. } | Event::Died { id, .. } => {
                    down.insert(*id);
                }
                Event::Revived { id, .. } | Event::Woke { id } => {
                    down.remove(id);
                }
                Event::Stunned { id } if open.is_some_and(|(o, _)| o == *id) => open = None,
                Event::TurnStarted { id, .. } => {
                    open = None;
                    let Some(me) = before.combatants.get(id.0 as usize) else {
                        continue;
                    };
                    if !melee_minded(me) || me.conditions.restrained || down.contains(id) {
                        continue;
                    }
                    let engaged = before.combatants.iter().any(|o| {
                        o.side != me.side
                            && !down.contains(&o.id)
                            && o.conditions.hidden.is_none()
                            && moved
                                .get(&key(*id, o.id))
                                .copied()
                                .unwrap_or_else(|| before.band(*id, o.id))
                                == Band::Melee
                    });
                    if engaged {
                        open = Some((*id, false));
                    }
                }
                Event::TurnEnded { id } => {
                    if let Some((o, struck)) = open.take()
                        && o == *id
                    {
                        self.engaged_turns += 1;
                        self.struck_turns += u64::from(struck);
                    }
                }
                _ => {}
            }
            if let Some((o, struck)) = &mut open
                && strikes(e, *o)
            {
                *struck = true;
            }
        }
    }

    fn observe(&mut self, before: Option<&Combat>, combat: &Combat, events: &[Event]) -> Result<(), String> {
        if let Some(before) = before {
            self.tally_competence(before, combat, events);
        }
        for e in events {
            if matches!(e, Event::TurnStarted { .. }) {
                self.turns_started += 1;
            }
        }
        self.grow(combat);
        let at = clock(combat, self.turns_started);
        for e in events {
            if let Event::TurnStarted { id, .. } | Event::PhaseStarted { id, .. } | Event::AwaitingCommand { id, .. } =
                e
            {
                self.since[id.0 as usize] = at;
            }
            if let Some(id) = changer(e) {
                self.changed[id.0 as usize] = at;
            }
        }
        if !combat.started || combat.outcome.is_some() {
            return Ok(());
        }
        // A party member got up during this command: the party was down for part of it, so the
        // melee monsters' time to reach someone starts again from here.
        let party_rose = events.iter().any(|e| match e {
            Event::Revived { id, .. } | Event::Woke { id } => combat.get(*id).side == Side::Party,
            _ => false,
        });
        let party_standing = combat.side_alive(Side::Party).any(Combatant::is_standing) && !party_rose;
        for c in &combat.combatants {
            let i = c.id.0 as usize;
            if !c.is_standing() || !party_standing {
                self.since[i] = at;
                self.changed[i] = at;
                if !c.is_standing() {
                    continue;
                }
            }
            let idle = at.saturating_sub(self.since[i]);
            if idle > act_bound(combat) {
                return Err(format!(
                    "{} has not acted for {idle} (bound {}) under {}",
                    c.name,
                    act_bound(combat),
                    combat.ruleset.name()
                ));
            }
            let idling = at.saturating_sub(self.changed[i]);
            if c.stat_block().is_some() && idling > act_bound(combat) {
                return Err(format!(
                    "{} has changed nothing for {idling} (bound {}) under {}",
                    c.name,
                    act_bound(combat),
                    combat.ruleset.name()
                ));
            }
            if melee_minded(c) {
                if combat.bands_of(c.id).iter().any(|(_, b)| *b == Band::Melee) {
                    self.reached[i] = true;
                }
                let out = at.saturating_sub(self.joined_at[i]);
                if party_standing && !self.reached[i] && out > reach_bound(combat) {
                    return Err(format!(
                        "{} has not reached anyone in {out} (bound {}) under {}",
                        c.name,
                        reach_bound(combat),
                        combat.ruleset.name()
                    ));
                }
                if !party_standing {
                    self.joined_at[i] = at;
                }
            }
        }
        Ok(())
    }
}

/// Drives the fight to its end (or 4,000 commands), checking liveness after every command.
/// Returns the referee log.
fn drive(setup: &Setup) -> Result<Vec<Event>, String> {
    drive_watched(setup).map(|(log, _)| log)
}

/// As [`drive`], also returning what the watch saw.
fn drive_watched(setup: &Setup) -> Result<(Vec<Event>, Watch), String> {
    let mut combat_seen = None;
    let mut log = Vec::new();
    let mut watch = Watch {
        turns_started: 0,
        since: Vec::new(),
        joined_at: Vec::new(),
        reached: Vec::new(),
        changed: Vec::new(),
        engaged_turns: 0,
        struck_turns: 0,
    };
    let result = drive_into(setup, &mut combat_seen, &mut log, &mut watch).map(|log| (log, watch));
    result.map_err(|why| match combat_seen {
        // The last 40 lines of the fight, to see why.
        Some(combat) => {
            let tail: Vec<String> = log
                .iter()
                .rev()
                .take(40)
                .rev()
                .map(|e| engine::log::line(&combat, e))
                .collect();
            format!("{why}\n{}", tail.join("\n"))
        }
        None => why,
    })
}

fn drive_into(
    setup: &Setup,
    seen: &mut Option<Combat>,
    log: &mut Vec<Event>,
    watch: &mut Watch,
) -> Result<Vec<Event>, String> {
    let mut initial = vec![setup.first_player.combatant(0), setup.first_monster.combatant(1)];
    let mut later: Vec<(u8, Combatant)> = Vec::new();
    for (i, (m, when)) in setup.more.iter().enumerate() {
        let c = m.combatant(i + 2);
        match when {
            None => initial.push(c),
            Some(k) => later.push((*k, c)),
        }
    }
    let terrain = Terrain {
        difficult: setup.difficult,
        ..Terrain::default()
    };
    let mut combat = Combat::new(initial, terrain).with_ruleset(setup.ruleset);
    let mut dice = Dice::seeded(setup.seed);
    watch.grow(&combat);
    let before = combat.clone();
    let events = apply(&mut combat, Actor::Director, Command::Begin, &mut dice, now()).map_err(|e| e.to_string())?;
    *seen = Some(combat.clone());
    log.extend(events.iter().cloned());
    watch.observe(Some(&before), &combat, &events)?;
    let mut tried_attack = false;
    for step in 0..4_000u32 {
        if combat.outcome.is_some() {
            break;
        }
        if let Some(i) = later.iter().position(|(k, _)| u32::from(*k) <= step) {
            let (_, c) = later.remove(i);
            let events = apply(
                &mut combat,
                Actor::Director,
                Command::Join { combatant: Box::new(c) },
                &mut dice,
                now(),
            )
            .map_err(|e| format!("a join was refused: {e}"))?;
            *seen = Some(combat.clone());
            log.extend(events.iter().cloned());
            watch.observe(None, &combat, &events)?;
            continue;
        }
        let Some((actor, command)) = player_move(&combat, tried_attack) else {
            return Err(format!("the fight waits on nobody under {}", combat.ruleset.name()));
        };
        tried_attack = matches!(command, Command::Attack { .. });
        let before = combat.clone();
        match apply(&mut combat, actor, command, &mut dice, now()) {
            Ok(events) => {
                if events
                    .iter()
                    .any(|e| matches!(e, Event::TurnStarted { .. } | Event::AwaitingCommand { .. }))
                {
                    tried_attack = false;
                }
                watch.observe(Some(&before), &combat, &events)?;
                log.extend(events);
            }
            Err(_) if tried_attack => {}
            Err(e) => return Err(format!("refused: {e}")),
        }
    }
    Ok(log.clone())
}

fn check_liveness(setup: &Setup) -> Result<(), TestCaseError> {
    drive(setup).map(|_| ()).map_err(TestCaseError::fail)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn gogobee_every_standing_combatant_acts_and_melee_monsters_reach_their_targets(s in setup(Ruleset::Gogobee)) {
        check_liveness(&s)?;
    }

    #[test]
    fn tdgs_every_standing_combatant_acts_and_melee_monsters_reach_their_targets(s in setup(Ruleset::Tdgs)) {
        check_liveness(&s)?;
    }

    #[test]
    fn ctb_every_standing_combatant_acts_and_melee_monsters_reach_their_targets(s in setup(Ruleset::Ctb)) {
        check_liveness(&s)?;
    }

    #[test]
    fn ticks_every_standing_combatant_acts_and_melee_monsters_reach_their_targets(s in setup(Ruleset::Ticks)) {
        check_liveness(&s)?;
    }

    #[test]
    fn the_same_seed_and_commands_with_joins_give_the_same_log_in_every_model(
        s in prop::sample::select(Ruleset::ALL.to_vec()).prop_flat_map(setup)
    ) {
        let first = drive(&s).map_err(TestCaseError::fail)?;
        let second = drive(&s).map_err(TestCaseError::fail)?;
        prop_assert_eq!(serde_json::to_string(&first).unwrap(), serde_json::to_string(&second).unwrap());
    }
}

/// Two former defects of the engine, as fixed cases (each fails on an engine that has them).
mod regressions {
    use super::*;

    fn zombie_party(ruleset: Ruleset, difficult: bool) -> Setup {
        Setup {
            ruleset,
            first_player: Member::Player {
                race: Race::DWARF,
                class: Class::FIGHTER,
                level: 5,
            },
            first_monster: Member::Monster(Monster::ZOMBIE),
            more: vec![(
                Member::Player {
                    race: Race::HUMAN,
                    class: Class::CLERIC,
                    level: 5,
                },
                Some(3),
            )],
            difficult,
            seed: 7,
        }
    }

    #[test]
    fn tdgs_a_player_who_joins_after_the_start_gets_turns() {
        let s = zombie_party(Ruleset::Tdgs, false);
        let log = drive(&s).expect("the fight stays live");
        let late = CombatantId(2);
        assert!(log.iter().any(|e| matches!(e, Event::Joined { id, .. } if *id == late)));
        let turns = log
            .iter()
            .filter(|e| matches!(e, Event::TurnStarted { id, .. } if *id == late))
            .count();
        assert!(turns >= 2, "the late joiner took {turns} turns");
    }

    #[test]
    fn ticks_a_zombie_in_difficult_terrain_dashes_and_reaches_its_target() {
        let s = zombie_party(Ruleset::Ticks, true);
        drive(&s).expect("the zombie reaches someone within the bound");
    }

    #[test]
    fn every_model_a_zombie_in_difficult_terrain_reaches_its_target() {
        for ruleset in Ruleset::ALL {
            let s = zombie_party(ruleset, true);
            drive(&s).unwrap_or_else(|e| panic!("{}: {e}", ruleset.name()));
        }
    }

    #[test]
    fn ctb_speed_mapping_makes_the_zombie_the_slowest_unit() {
        let zombie = Combatant::monster("Zombie", Monster::ZOMBIE);
        assert_eq!(ctb::speed(&zombie), 9);
        for m in Monster::all() {
            assert!(ctb::speed(&Combatant::monster("M", m)) >= 9, "{}", m.name());
        }
    }
}

/// Competence over seeded party fights of every shape [`setup`] draws (1–6 players, 1–8
/// monsters, joins before and after the start, difficult terrain or not).
mod competence {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    fn strike_rate(ruleset: Ruleset, fights: usize) -> (u64, u64) {
        let mut runner = TestRunner::deterministic();
        let (mut engaged, mut struck) = (0, 0);
        for _ in 0..fights {
            let s = setup(ruleset).new_tree(&mut runner).expect("a setup").current();
            let (_, watch) = drive_watched(&s).unwrap_or_else(|e| panic!("{}: {e}", ruleset.name()));
            engaged += watch.engaged_turns;
            struck += watch.struck_turns;
        }
        (engaged, struck)
    }

    #[test]
    fn turn_based_models_a_melee_monster_engaged_with_a_standing_enemy_strikes_in_95_percent_of_its_turns() {
        for ruleset in [Ruleset::Gogobee, Ruleset::Tdgs, Ruleset::Ctb] {
            let (engaged, struck) = strike_rate(ruleset, 150);
            eprintln!("{}: struck in {struck} of {engaged} engaged turns", ruleset.name());
            assert!(
                engaged >= 100,
                "{}: only {engaged} engaged turns to judge",
                ruleset.name()
            );
            assert!(
                struck * 100 >= engaged * 95,
                "{}: struck in {struck} of {engaged} engaged turns",
                ruleset.name()
            );
        }
    }
}
