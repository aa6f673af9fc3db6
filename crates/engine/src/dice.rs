//! Dice: every random number in a fight comes from one seeded `ChaCha` stream (DESIGN: "time and dice are inputs").
//!
//! The stream's position is plain data (`seed`, `word_pos`), so a combat saved mid-fight
//! resumes with exactly the rolls it would have had.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// A seeded dice roller. Cloning it forks the stream at the same position.
#[derive(Debug, Clone)]
pub struct Dice {
    seed: u64,
    rng: ChaCha8Rng,
}

/// Where a [`Dice`] stream stands: enough to rebuild it exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DicePosition {
    pub seed: u64,
    pub word_pos: u128,
}

impl Dice {
    /// A fresh stream from `seed`.
    pub fn seeded(seed: u64) -> Self {
        Self {
            seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Rebuilds a stream at a saved position.
    pub fn at(position: DicePosition) -> Self {
        let mut dice = Self::seeded(position.seed);
        dice.rng.set_word_pos(position.word_pos);
        dice
    }

    /// The stream's current position.
    pub fn position(&self) -> DicePosition {
        DicePosition {
            seed: self.seed,
            word_pos: self.rng.get_word_pos(),
        }
    }

    /// One die with `sides` faces: 1..=sides.
    pub fn die(&mut self, sides: u32) -> u32 {
        debug_assert!(sides > 0);
        self.rng.random_range(1..=sides)
    }

    /// `count` dice of `sides` faces, summed.
    pub fn roll(&mut self, count: u32, sides: u32) -> u32 {
        (0..count).map(|_| self.die(sides)).sum()
    }

    /// A d20 with advantage or disadvantage.
    pub fn d20(&mut self, mode: RollMode) -> D20 {
        let first = self.die(20);
        match mode {
            RollMode::Normal => D20 {
                natural: first,
                other: None,
                mode,
            },
            RollMode::Advantage | RollMode::Disadvantage => {
                let second = self.die(20);
                let natural = if mode == RollMode::Advantage {
                    first.max(second)
                } else {
                    first.min(second)
                };
                let other = if natural == first { second } else { first };
                D20 {
                    natural,
                    other: Some(other),
                    mode,
                }
            }
        }
    }

    /// A fair coin: `true` half the time (the d2 of TDGS, the tick model's pre-rolled coin).
    pub fn coin(&mut self) -> bool {
        self.die(2) == 2
    }
}

/// Normal, advantage (roll two d20, keep the higher) or disadvantage (keep the lower).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum RollMode {
    #[default]
    Normal,
    Advantage,
    Disadvantage,
}

impl RollMode {
    /// Combines sources: any advantage and any disadvantage cancel to a normal roll.
    pub fn from_sources(advantage: bool, disadvantage: bool) -> Self {
        match (advantage, disadvantage) {
            (true, false) => Self::Advantage,
            (false, true) => Self::Disadvantage,
            _ => Self::Normal,
        }
    }
}

/// A rolled d20: the kept natural result, and the discarded one when rolled twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct D20 {
    pub natural: u32,
    pub other: Option<u32>,
    pub mode: RollMode,
}

/// A dice expression of the content tables: `count`d`sides` + `bonus`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceExpr {
    pub count: u32,
    pub sides: u32,
    pub bonus: i32,
}

impl DiceExpr {
    pub const fn new(count: u32, sides: u32, bonus: i32) -> Self {
        Self { count, sides, bonus }
    }

    /// Rolls it; a critical hit rolls the dice twice, never the bonus.
    pub fn roll(self, dice: &mut Dice, critical: bool) -> i32 {
        let count = if critical { self.count * 2 } else { self.count };
        dice.roll(count, self.sides) as i32 + self.bonus
    }

    /// The average, rounded down (monster hit points, level-up HP).
    pub fn average(self) -> i32 {
        (self.count * (self.sides + 1) / 2) as i32 + self.bonus
    }
}

impl std::fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}d{}", self.count, self.sides)?;
        match self.bonus {
            0 => Ok(()),
            b if b > 0 => write!(f, "+{b}"),
            b => write!(f, "{b}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_gives_the_same_rolls() {
        let mut a = Dice::seeded(7);
        let mut b = Dice::seeded(7);
        let ra: Vec<u32> = (0..50).map(|_| a.die(20)).collect();
        let rb: Vec<u32> = (0..50).map(|_| b.die(20)).collect();
        assert_eq!(ra, rb);
    }

    #[test]
    fn a_saved_position_resumes_the_stream() {
        let mut a = Dice::seeded(99);
        for _ in 0..13 {
            a.die(6);
        }
        let mut resumed = Dice::at(a.position());
        let next: Vec<u32> = (0..20).map(|_| a.die(20)).collect();
        let again: Vec<u32> = (0..20).map(|_| resumed.die(20)).collect();
        assert_eq!(next, again);
    }

    #[test]
    fn advantage_keeps_the_higher_and_disadvantage_the_lower() {
        let mut dice = Dice::seeded(3);
        for _ in 0..200 {
            let adv = dice.d20(RollMode::Advantage);
            assert!(adv.natural >= adv.other.unwrap());
            let dis = dice.d20(RollMode::Disadvantage);
            assert!(dis.natural <= dis.other.unwrap());
        }
    }

    #[test]
    fn advantage_and_disadvantage_cancel() {
        assert_eq!(RollMode::from_sources(true, true), RollMode::Normal);
        assert_eq!(RollMode::from_sources(true, false), RollMode::Advantage);
        assert_eq!(RollMode::from_sources(false, true), RollMode::Disadvantage);
    }

    #[test]
    fn critical_hits_double_the_dice_not_the_bonus() {
        let expr = DiceExpr::new(1, 1, 3);
        let mut dice = Dice::seeded(1);
        assert_eq!(expr.roll(&mut dice, false), 4);
        assert_eq!(expr.roll(&mut dice, true), 5);
    }

    #[test]
    fn dice_stay_within_their_faces() {
        let mut dice = Dice::seeded(5);
        for _ in 0..1000 {
            let r = dice.die(8);
            assert!((1..=8).contains(&r));
        }
    }
}
