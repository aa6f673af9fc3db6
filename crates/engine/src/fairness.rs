//! Each ruleset a fair game (seeds 001, 003 and 004 beside 000): a grid of matchups — parties
//! of one to four characters of levels 1–20 against the tiers' monsters, and mirror matches —
//! each fought the same seeded number of times under every timing model, so that a model's win
//! rate can be set beside the default ruleset's.

use crate::Ruleset;
use crate::Side;
use crate::balance::{self, Matchup, SpecError, Tally};
use crate::content::data::Content;

/// One row of the grid: side A (the party) against side B, both in `balance::side`'s form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    pub a: &'static str,
    pub b: &'static str,
    /// Both sides the same: every model should give side A 40–60 %.
    pub mirror: bool,
}

const fn row(a: &'static str, b: &'static str) -> Row {
    Row { a, b, mirror: false }
}

const fn mirror(a: &'static str) -> Row {
    Row { a, b: a, mirror: true }
}

/// The grid: the first tier's skirmishes to four level-20 characters against a pack of trolls.
pub const GRID: &[Row] = &[
    row("fighter:1", "goblin:2"),
    row("rogue:1", "kobold:3"),
    row("mage:1,cleric:1", "giant rat:4"),
    row("fighter:3", "wolf:2"),
    row("fighter:3,cleric:3", "skeleton:4"),
    row("mage:3", "zombie:2"),
    row("fighter:5", "quickling:1"),
    row("fighter:5,cleric:5", "troll:1"),
    row("rogue:5", "bandit captain:1"),
    row("fighter:4,rogue:4,mage:4", "orc:4"),
    row("fighter:5,cleric:5,rogue:5,mage:5", "hobgoblin:6"),
    row("fighter:6,cleric:6", "ghoul:4"),
    row("fighter:7,rogue:7,mage:7", "bugbear:4"),
    row("fighter:8,cleric:8,mage:8", "drow mage:2"),
    row("fighter:9,cleric:9,rogue:9", "ogre:3"),
    row("fighter:10,cleric:10,rogue:10,mage:10", "young red dragon:1"),
    row("fighter:12,cleric:12", "red dragon wyrmling:2"),
    row("fighter:14,cleric:14,mage:14", "vrock:2"),
    row("fighter:17,cleric:17,rogue:17,mage:17", "troll:6"),
    row("fighter:20,rogue:20,mage:20,cleric:20", "troll:8"),
    mirror("fighter:5"),
    mirror("fighter:3,cleric:3"),
    mirror("orc:3"),
];

/// A row's results: side A's win rate under each ruleset, in `Ruleset::ALL` order.
#[derive(Debug, Clone, PartialEq)]
pub struct RowResult {
    pub row: Row,
    pub tallies: Vec<(Ruleset, Tally)>,
}

impl RowResult {
    /// Side A's win rate under `ruleset`, if it was run.
    pub fn win_rate(&self, ruleset: Ruleset) -> Option<f64> {
        self.tallies
            .iter()
            .find(|(r, _)| *r == ruleset)
            .map(|(_, t)| t.win_rate())
    }

    /// The largest gap, in points, between another model's win rate and the default ruleset's.
    pub fn spread(&self) -> f64 {
        let Some(base) = self.win_rate(Ruleset::Gogobee) else {
            return 0.0;
        };
        self.tallies
            .iter()
            .map(|(_, t)| (t.win_rate() - base).abs() * 100.0)
            .fold(0.0, f64::max)
    }

    /// Whether the row holds: within `points` of the default ruleset, or a mirror at 40–60 %
    /// under every model.
    pub fn fair(&self, points: f64) -> bool {
        if self.row.mirror {
            self.tallies.iter().all(|(_, t)| (0.40..=0.60).contains(&t.win_rate()))
        } else {
            self.spread() <= points
        }
    }
}

/// The matchup a row names under `ruleset`.
pub fn matchup(row: Row, content: &Content, ruleset: Ruleset) -> Result<Matchup, SpecError> {
    Ok(Matchup {
        party: balance::side(row.a, content, Side::Party, "A")?,
        foes: balance::side(row.b, content, Side::Enemies, "B")?,
        ruleset,
    })
}

/// Runs `rows`, `duels` seeded duels per row and ruleset (the same seeds under every model).
/// `progress` is told after each (row, ruleset) pair.
pub fn run(
    rows: &[Row],
    rulesets: &[Ruleset],
    content: &Content,
    duels: u32,
    seed: u64,
    mut progress: impl FnMut(usize),
) -> Result<Vec<RowResult>, SpecError> {
    let mut results = Vec::with_capacity(rows.len());
    let mut done = 0;
    for &row in rows {
        let mut tallies = Vec::with_capacity(rulesets.len());
        for &ruleset in rulesets {
            let tally = balance::duel(&matchup(row, content, ruleset)?, duels, seed, |_| {});
            tallies.push((ruleset, tally));
            done += 1;
            progress(done);
        }
        results.push(RowResult { row, tallies });
    }
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::data::builtin;

    #[test]
    fn the_grid_has_twenty_matchups_of_one_to_four_characters_from_level_one_to_twenty() {
        let content = builtin();
        let fights: Vec<Row> = GRID.iter().copied().filter(|r| !r.mirror).collect();
        assert!(fights.len() >= 20, "{} matchups", fights.len());
        let mut levels = Vec::new();
        for row in fights {
            let m = matchup(row, content, Ruleset::Gogobee).unwrap_or_else(|e| panic!("{row:?}: {e}"));
            assert!((1..=4).contains(&m.party.len()), "{row:?}");
            assert!(
                !m.foes.is_empty() && m.foes.iter().all(|f| f.stat_block().is_some()),
                "{row:?}"
            );
            levels.extend(m.party.iter().map(crate::Combatant::level));
        }
        assert_eq!(levels.iter().min(), Some(&1));
        assert_eq!(levels.iter().max(), Some(&20));
    }

    #[test]
    fn a_row_is_fair_within_the_points_of_the_default_ruleset_and_a_mirror_at_forty_to_sixty() {
        let content = builtin();
        let results = run(&GRID[..1], &Ruleset::ALL, content, 8, 3, |_| {}).expect("the grid parses");
        let again = run(&GRID[..1], &Ruleset::ALL, content, 8, 3, |_| {}).expect("the grid parses");
        assert_eq!(results, again, "the same seed gives the same grid");
        let r = &results[0];
        let base = r.win_rate(Ruleset::Gogobee).expect("the default ruleset ran");
        let widest = Ruleset::ALL
            .iter()
            .map(|&m| (r.win_rate(m).expect("every model ran") - base).abs() * 100.0)
            .fold(0.0, f64::max);
        assert!((r.spread() - widest).abs() < 1e-9);
        assert!(r.fair(widest));
        if widest > 0.0 {
            assert!(!r.fair(widest - 0.5));
        }
    }
}
