//! Balance before play (docs/homebrew.md "Is it fair?"): a party fights a group of
//! monsters a few thousand seeded times under a ruleset, every side run by the AI; the tally
//! gives the party's win rate, the rounds a fight lasts and the hit points it costs, and a
//! verdict band (easy, medium, hard, deadly) for that party, or a stalemate when most duels
//! reach the round limit ([`MAX_ROUNDS`]) with both sides standing.
//!
//! The same matchup, seed and number of duels always give the same tally: duel `i` runs on
//! `Dice::seeded(seed + i)`. A run with a budget ([`duel_within`]) stops between two duels when
//! its caller says so, and tallies the duels it ran.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use chrono::DateTime;

use crate::content::Behaviour;
use crate::content::data::{Content, MonsterDef};
use crate::content::{Class, Race};
use crate::state::combat::MAX_ROUNDS;
use crate::{Actor, Combat, Combatant, Command, Controller, Dice, Outcome, Ruleset, Side, Terrain, apply};

/// At most this many characters in a party, and monsters in a group, per side.
pub const MAX_PER_SIDE: u32 = 12;
/// At most this many duels per question.
pub const MAX_DUELS: u32 = 20_000;

/// A party and its foes under a ruleset.
#[derive(Debug, Clone)]
pub struct Matchup {
    pub party: Vec<Combatant>,
    pub foes: Vec<Combatant>,
    pub ruleset: Ruleset,
}

/// Why a side's description was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SpecError(pub String);

/// `fighter:5,cleric:3` (class:level characters) and `goblin:3` (monster:count groups) as
/// combatants on `side`, every one run by the AI; monsters are looked up in `content` (a
/// campaign's homebrew included).
pub fn side(spec: &str, content: &Content, side: Side, tag: &str) -> Result<Vec<Combatant>, SpecError> {
    let mut members = Vec::new();
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (name, number) = part.rsplit_once(':').unwrap_or((part, "1"));
        let (name, number) = (name.trim(), number.trim());
        let number: u32 = number
            .parse()
            .map_err(|_| SpecError(format!("\"{part}\": the number after ':' must be a whole number")))?;
        if let Some(class) = Class::parse(name) {
            if !(1..=20).contains(&number) {
                return Err(SpecError(format!("\"{part}\": a character's level is 1 to 20")));
            }
            let who = format!("{tag} {} {}", class.name(), members.len() + 1);
            members.push(
                Combatant::character(&who, Race::HUMAN, class, number, Controller::Ai(Behaviour::Aggressive))
                    .on_side(side),
            );
        } else if let Some(def) = content.monsters.get(name) {
            if !(1..=MAX_PER_SIDE).contains(&number) {
                return Err(SpecError(format!(
                    "\"{part}\": between 1 and {MAX_PER_SIDE} monsters per group"
                )));
            }
            members.extend(group(def, number, side, tag));
        } else {
            let classes: Vec<&str> = Class::all().iter().map(|c| c.name()).collect();
            return Err(SpecError(format!(
                "\"{name}\" is neither a class ({}) nor a monster of this content",
                classes.join(", ")
            )));
        }
    }
    if members.is_empty() {
        return Err(SpecError(
            "each side needs at least one combatant, e.g. `fighter:3,cleric:3` or `goblin:3`".into(),
        ));
    }
    if members.len() > MAX_PER_SIDE as usize {
        return Err(SpecError(format!("at most {MAX_PER_SIDE} combatants a side")));
    }
    Ok(members)
}

/// `count` of the monster `def` on `side`, numbered.
pub fn group(def: &Arc<MonsterDef>, count: u32, side: Side, tag: &str) -> Vec<Combatant> {
    (1..=count)
        .map(|i| Combatant::of_monster(&format!("{tag} {} {i}", def.name), Arc::clone(def)).on_side(side))
        .collect()
}

/// What a run of duels came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally {
    pub duels: u32,
    /// Duels the party won (every foe down or fled).
    pub party_wins: u32,
    /// Duels the foes won.
    pub foe_wins: u32,
    /// Duels stopped at the round limit ([`MAX_ROUNDS`]) with both sides standing.
    pub halted: u32,
    /// How many duels ended after each number of rounds.
    pub rounds: BTreeMap<u32, u32>,
    /// Party hit points lost, summed over the duels (a member down or dead lost all of them).
    pub hp_lost: u64,
    /// The party's hit points at full health (one duel's).
    pub hp_full: u64,
    /// Party members who ended a duel dead, summed over the duels.
    pub deaths: u32,
    /// The party's highest level and its size, for the verdict's sentence.
    pub party_level: u32,
    pub party_size: u32,
}

impl Tally {
    /// Adds `other`'s counts (duels run elsewhere of the same matchup) to these.
    fn absorb(&mut self, other: &Tally) {
        self.duels += other.duels;
        self.party_wins += other.party_wins;
        self.foe_wins += other.foe_wins;
        self.halted += other.halted;
        for (rounds, n) in &other.rounds {
            *self.rounds.entry(*rounds).or_default() += n;
        }
        self.hp_lost += other.hp_lost;
        self.deaths += other.deaths;
    }

    fn share(&self, n: u32) -> f64 {
        f64::from(n) / f64::from(self.duels.max(1))
    }

    /// The share of duels the party won, 0–1.
    pub fn win_rate(&self) -> f64 {
        self.share(self.party_wins)
    }

    /// The share of duels the foes won, 0–1.
    pub fn loss_rate(&self) -> f64 {
        self.share(self.foe_wins)
    }

    /// The share of duels stopped at the round limit, 0–1.
    pub fn halt_rate(&self) -> f64 {
        self.share(self.halted)
    }

    /// Rounds a duel lasts, on average.
    pub fn mean_rounds(&self) -> f64 {
        let total: u64 = self.rounds.iter().map(|(&r, &n)| u64::from(r) * u64::from(n)).sum();
        total as f64 / f64::from(self.duels.max(1))
    }

    /// The share of its hit points the party loses in a duel, on average, 0–1.
    pub fn mean_hp_lost(&self) -> f64 {
        self.hp_lost as f64 / (self.hp_full.max(1) as f64 * f64::from(self.duels.max(1)))
    }

    /// Party members dead at the end of a duel, on average.
    pub fn mean_deaths(&self) -> f64 {
        f64::from(self.deaths) / f64::from(self.duels.max(1))
    }

    /// The band of these duels: a stalemate when half of them or more reached the round limit,
    /// else [`Verdict::of`] the win rate and the hit points lost.
    pub fn verdict(&self) -> Verdict {
        if self.duels > 0 && self.halt_rate() >= 0.5 {
            Verdict::Stalemate
        } else {
            Verdict::of(self.win_rate(), self.mean_hp_lost())
        }
    }
}

/// How hard a fight is for a party, from its duels (docs/homebrew.md lists the bands):
/// - **deadly**: the party wins fewer than half of them;
/// - **hard**: it wins fewer than 90 %, or loses 60 % or more of its hit points on average;
/// - **medium**: it wins fewer than 98 %, or loses 30 % or more of its hit points;
/// - **easy**: otherwise;
/// - **stalemate**: half the duels or more reached the round limit with both sides standing
///   (neither side can finish the other), whatever the rest did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    Easy,
    Medium,
    Hard,
    Deadly,
    Stalemate,
}

impl Verdict {
    pub const ALL: [Verdict; 5] = [
        Verdict::Easy,
        Verdict::Medium,
        Verdict::Hard,
        Verdict::Deadly,
        Verdict::Stalemate,
    ];

    /// The band of a win rate and a mean share of hit points lost (both 0–1).
    pub fn of(win_rate: f64, hp_lost: f64) -> Verdict {
        if win_rate < 0.5 {
            Verdict::Deadly
        } else if win_rate < 0.9 || hp_lost >= 0.6 {
            Verdict::Hard
        } else if win_rate < 0.98 || hp_lost >= 0.3 {
            Verdict::Medium
        } else {
            Verdict::Easy
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Verdict::Easy => "easy",
            Verdict::Medium => "medium",
            Verdict::Hard => "hard",
            Verdict::Deadly => "deadly",
            Verdict::Stalemate => "stalemate",
        }
    }

    /// What the band means at the table.
    pub fn meaning(self) -> &'static str {
        match self {
            Verdict::Easy => "the party wins almost always and barely gets scratched",
            Verdict::Medium => "the party wins, but it costs hit points and now and then a fight",
            Verdict::Hard => "the party usually wins, hurt, and loses one fight in ten or more",
            Verdict::Deadly => "the party loses more often than it wins",
            Verdict::Stalemate => "neither side can finish the other: most duels reach the round limit",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Runs `duels` seeded duels of `matchup`: duel `i` on `Dice::seeded(seed + i)`, spread over the
/// machine's cores in blocks (each duel on its own seed, so the tally is the same however they
/// are spread). `progress` is told how many have run, now and then.
pub fn duel(matchup: &Matchup, duels: u32, seed: u64, progress: impl FnMut(u32)) -> Tally {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    duel_within(matchup, duels, seed, cores, &|| true, progress)
}

/// [`duel`] on at most `threads` threads (the caller's among them), asking `keep_going` before
/// each duel: once it says no, no further duel starts, and the tally counts the duels that ran
/// (its `duels`). With one thread those are duels `0..n`, the same as `duel(matchup, n, seed)`.
pub fn duel_within(
    matchup: &Matchup,
    duels: u32,
    seed: u64,
    threads: usize,
    keep_going: &(dyn Fn() -> bool + Sync),
    mut progress: impl FnMut(u32),
) -> Tally {
    let hp_full: u64 = matchup.party.iter().map(|c| c.max_hp.max(0) as u64).sum();
    let empty = Tally {
        duels: 0,
        party_wins: 0,
        foe_wins: 0,
        halted: 0,
        rounds: BTreeMap::new(),
        hp_lost: 0,
        hp_full,
        deaths: 0,
        party_level: matchup.party.iter().map(Combatant::level).max().unwrap_or(0),
        party_size: matchup.party.len() as u32,
    };
    let members: Vec<Combatant> = matchup.party.iter().chain(&matchup.foes).cloned().collect();
    let blocks = duels.div_ceil(BLOCK);
    let next = AtomicU32::new(0);
    let done = AtomicU32::new(0);
    let stopped = AtomicBool::new(false);
    // Takes blocks until none is left, into its own tally.
    let work = |tally: &mut Tally, after_block: &mut dyn FnMut()| {
        loop {
            let block = next.fetch_add(1, Ordering::Relaxed);
            if block >= blocks {
                break;
            }
            let end = ((block + 1) * BLOCK).min(duels);
            for i in block * BLOCK..end {
                if !keep_going() {
                    stopped.store(true, Ordering::Relaxed);
                    break;
                }
                one_duel(matchup.ruleset, &members, seed.wrapping_add(u64::from(i)), tally);
                tally.duels += 1;
                done.fetch_add(1, Ordering::Relaxed);
            }
            after_block();
            if stopped.load(Ordering::Relaxed) {
                break;
            }
        }
    };
    let helpers = threads.max(1).min(blocks as usize).saturating_sub(1);
    let mut tally = empty.clone();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..helpers)
            .map(|_| {
                let mut own = empty.clone();
                let work = &work;
                scope.spawn(move || {
                    work(&mut own, &mut || {});
                    own
                })
            })
            .collect();
        work(&mut tally, &mut || progress(done.load(Ordering::Relaxed)));
        for handle in handles {
            let own = handle.join().expect("a duel thread never panics");
            tally.absorb(&own);
        }
    });
    progress(tally.duels);
    tally
}

/// Duels a thread takes at a time.
const BLOCK: u32 = 64;

/// One duel on `Dice::seeded(seed)`, counted into `tally`.
fn one_duel(ruleset: Ruleset, members: &[Combatant], seed: u64, tally: &mut Tally) {
    let now = DateTime::from_timestamp(0, 0).expect("the epoch is a time");
    let mut combat = Combat::new(members.to_vec(), Terrain::default()).with_ruleset(ruleset);
    let mut dice = Dice::seeded(seed);
    // Every side is the AI's: `Begin` runs the whole fight. A matchup the engine refuses
    // (it never is, for sides `side` built) counts as a halted duel.
    let begun = apply(&mut combat, Actor::Director, Command::Begin, &mut dice, now).is_ok();
    match combat.outcome {
        Some(Outcome::Victory) if begun => tally.party_wins += 1,
        Some(Outcome::Defeat) if begun => tally.foe_wins += 1,
        _ => tally.halted += 1,
    }
    *tally.rounds.entry(combat.round.min(MAX_ROUNDS)).or_default() += 1;
    for c in combat.combatants.iter().filter(|c| c.side == Side::Party) {
        let left = if c.is_standing() { c.hp.clamp(0, c.max_hp) } else { 0 };
        tally.hp_lost += (c.max_hp - left).max(0) as u64;
        tally.deaths += u32::from(c.is_dead());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::data::builtin;

    fn matchup(party: &str, foes: &str, ruleset: Ruleset) -> Matchup {
        Matchup {
            party: side(party, builtin(), Side::Party, "A").unwrap(),
            foes: side(foes, builtin(), Side::Enemies, "B").unwrap(),
            ruleset,
        }
    }

    #[test]
    fn the_verdict_bands_follow_the_win_rate_then_the_hit_points_lost() {
        assert_eq!(Verdict::of(0.49, 0.1), Verdict::Deadly);
        assert_eq!(Verdict::of(0.5, 0.1), Verdict::Hard);
        assert_eq!(Verdict::of(0.95, 0.6), Verdict::Hard);
        assert_eq!(Verdict::of(0.97, 0.1), Verdict::Medium);
        assert_eq!(Verdict::of(0.99, 0.3), Verdict::Medium);
        assert_eq!(Verdict::of(0.99, 0.29), Verdict::Easy);
        assert_eq!(Verdict::of(1.0, 0.0), Verdict::Easy);
    }

    #[test]
    fn duels_spread_over_threads_tally_as_the_same_duels_run_in_two_halves() {
        let m = matchup("fighter:3,cleric:3", "goblin:3", Ruleset::Gogobee);
        let whole = duel(&m, 300, 5, |_| {});
        let mut halves = duel(&m, 100, 5, |_| {});
        halves.absorb(&duel(&m, 200, 105, |_| {}));
        assert_eq!(whole, halves);
        assert_eq!(whole, duel(&m, 300, 5, |_| {}), "the same seed, the same tally");
        assert_eq!(whole.party_wins + whole.foe_wins + whole.halted, 300);
    }

    #[test]
    fn a_run_told_to_stop_tallies_the_duels_it_ran_and_no_more() {
        let m = matchup("fighter:3,cleric:3", "goblin:3", Ruleset::Gogobee);
        let started = AtomicU32::new(0);
        let until_100 = || started.fetch_add(1, Ordering::Relaxed) < 100;
        let stopped = duel_within(&m, 2_000, 5, 1, &until_100, |_| {});
        assert_eq!(stopped.duels, 100);
        assert_eq!(stopped.rounds.values().sum::<u32>(), 100);
        assert_eq!(stopped, duel(&m, 100, 5, |_| {}), "one thread runs duels 0..100");
        // On several threads, no duel starts once told to stop.
        let none = duel_within(&m, 2_000, 5, 4, &|| false, |_| {});
        assert_eq!((none.duels, none.party_wins + none.foe_wins + none.halted), (0, 0));
    }

    #[test]
    fn duels_that_mostly_reach_the_round_limit_are_a_stalemate_not_deadly() {
        let mut t = duel(&matchup("fighter:3", "goblin:1", Ruleset::Gogobee), 10, 1, |_| {});
        (t.party_wins, t.foe_wins, t.halted) = (0, 4, 6);
        assert_eq!(t.verdict(), Verdict::Stalemate);
        (t.party_wins, t.foe_wins, t.halted) = (0, 6, 4);
        assert_eq!(t.verdict(), Verdict::Deadly);
    }

    #[test]
    fn a_fifth_level_fighter_against_one_giant_rat_is_easy() {
        // A rat (AC 12, a 1d4+2 bite at +4) against 44 HP and two attacks a turn: the fighter cannot lose.
        let tally = duel(&matchup("fighter:5", "giant rat:1", Ruleset::Gogobee), 300, 1, |_| {});
        assert_eq!(tally.party_wins, 300, "{tally:?}");
        assert!(tally.mean_hp_lost() < 0.1, "{tally:?}");
        assert_eq!(tally.verdict(), Verdict::Easy);
    }

    #[test]
    fn a_first_level_fighter_against_a_young_red_dragon_is_deadly() {
        let tally = duel(
            &matchup("fighter:1", "young red dragon:1", Ruleset::Gogobee),
            200,
            1,
            |_| {},
        );
        assert_eq!(tally.party_wins, 0, "{tally:?}");
        assert_eq!(tally.verdict(), Verdict::Deadly);
        assert!((tally.mean_hp_lost() - 1.0).abs() < 1e-9, "{tally:?}");
    }

    #[test]
    fn mirror_matches_are_won_about_half_the_time() {
        // Two fighters of the same level: initiative decides who swings first, and it favours
        // neither side, so over 2,000 duels the party's share is within a few points of a half.
        for ruleset in Ruleset::ALL {
            let m = Matchup {
                party: side("fighter:3", builtin(), Side::Party, "A").unwrap(),
                foes: side("fighter:3", builtin(), Side::Enemies, "B").unwrap(),
                ruleset,
            };
            let tally = duel(&m, 2_000, 7, |_| {});
            assert!((0.4..=0.6).contains(&tally.win_rate()), "{}: {tally:?}", ruleset.name());
        }
    }

    #[test]
    fn the_counts_add_up_and_the_same_seed_gives_the_same_tally() {
        let m = matchup("fighter:3,cleric:3", "orc:3", Ruleset::Gogobee);
        let a = duel(&m, 400, 3, |_| {});
        assert_eq!(a.party_wins + a.foe_wins + a.halted, 400);
        assert_eq!(a.rounds.values().sum::<u32>(), 400);
        assert_eq!(a.party_size, 2);
        assert_eq!(a.party_level, 3);
        assert_eq!(a, duel(&m, 400, 3, |_| {}));
        assert_ne!(a, duel(&m, 400, 4, |_| {}));
    }

    #[test]
    fn sides_are_refused_with_what_is_allowed() {
        let content = builtin();
        assert_eq!(side("goblin:3", content, Side::Enemies, "B").unwrap().len(), 3);
        assert_eq!(
            side("fighter:5, cleric:2", content, Side::Party, "A").unwrap()[0].level(),
            5
        );
        for bad in ["bard:3", "fighter:0", "fighter:21", "fighter:x", "", "goblin:13"] {
            let e = side(bad, content, Side::Party, "A").unwrap_err();
            assert!(!e.0.is_empty(), "{bad}");
        }
        let e = side("fighter:1,fighter:1,fighter:1,fighter:1,fighter:1,fighter:1,fighter:1,fighter:1,fighter:1,fighter:1,fighter:1,fighter:1,fighter:1", content, Side::Party, "A").unwrap_err();
        assert!(e.0.contains("at most 12"), "{e}");
    }
}
