//! Liveness per timing model (seed 000 §1, seed 001 "Action phase", seed 003 §3, seed 004
//! "Resolution"): in any fight of 1–6 players and 1–8 monsters — joined before or after the
//! start, reinforcements spawned mid-fight, in difficult terrain or not — every standing
//! combatant acts within a bounded stretch of the fight, and a melee monster reaches a target that
//! is not fleeing it. The players here stand their ground: they attack what they can reach and
//! otherwise end their turn, so every melee monster has to close the distance itself.
//!
//! Also: the same seed and the same commands, joins included, give the same log in every model.

use chrono::{DateTime, Utc};
use engine::content::{Behaviour, Class, Monster, Race};
use engine::timing::ctb;
use engine::{
    Actor, Band, Combat, Combatant, CombatantId, Command, Controller, Dice, Event, Ruleset, Side, Terrain, apply,
};
use proptest::prelude::*;

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
/// of this round and its place in the next); the slowest unit in the charge race (speed 6: a
/// zombie) fills its meter in 17 ticks; the longest PER cycle is a 9th-level spell's 16 ticks.
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
}

impl Watch {
    fn grow(&mut self, combat: &Combat) {
        let at = clock(combat, self.turns_started);
        while self.since.len() < combat.combatants.len() {
            self.since.push(at);
            self.joined_at.push(at);
            self.reached.push(false);
        }
    }

    fn observe(&mut self, combat: &Combat, events: &[Event]) -> Result<(), String> {
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
            if !c.is_standing() {
                self.since[i] = at;
                continue;
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
    let mut combat_seen = None;
    let mut log = Vec::new();
    let result = drive_into(setup, &mut combat_seen, &mut log);
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

fn drive_into(setup: &Setup, seen: &mut Option<Combat>, log: &mut Vec<Event>) -> Result<Vec<Event>, String> {
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
    let mut watch = Watch {
        turns_started: 0,
        since: Vec::new(),
        joined_at: Vec::new(),
        reached: Vec::new(),
    };
    watch.grow(&combat);
    let events = apply(&mut combat, Actor::Director, Command::Begin, &mut dice, now()).map_err(|e| e.to_string())?;
    *seen = Some(combat.clone());
    log.extend(events.iter().cloned());
    watch.observe(&combat, &events)?;
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
            watch.observe(&combat, &events)?;
            continue;
        }
        let Some((actor, command)) = player_move(&combat, tried_attack) else {
            return Err(format!("the fight waits on nobody under {}", combat.ruleset.name()));
        };
        tried_attack = matches!(command, Command::Attack { .. });
        match apply(&mut combat, actor, command, &mut dice, now()) {
            Ok(events) => {
                if events
                    .iter()
                    .any(|e| matches!(e, Event::TurnStarted { .. } | Event::AwaitingCommand { .. }))
                {
                    tried_attack = false;
                }
                watch.observe(&combat, &events)?;
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
        assert_eq!(ctb::speed(&zombie), 6);
    }
}
