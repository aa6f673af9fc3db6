//! Dice expressions for `/roll` in Avrae's d20 syntax: parsed once, checked against every limit before a die is rolled, rolled from a stream the caller gives, shown as players expect.
//!
//! ```
//! let mut faces = [2, 5, 3, 6].into_iter();
//! let rolled = dice::roll("4d6kh3", &mut |_sides| faces.next().unwrap()).unwrap();
//! assert_eq!(rolled.detail, "4d6kh3 (~~2~~, 5, 3, **6**)");
//! assert_eq!(rolled.total, 14);
//! ```
//!
//! The syntax (see `parse` for the grammar): `NdM` with 1 to 10,000 sides and `d%` (a d100);
//! keep / drop `kh3` `kl1` `k>4` `p<3` `dh1` `dl1`; reroll `rr1` (until none match), `ro<3`
//! (once), `ra6` (once, adding); explode `e6` `!`; `mi2` `ma5`; `+ - * / // %`, comparisons,
//! parentheses and signs; sets `(1d4, 1d6)kh1`; annotations `1d8+3 [slashing]`; a trailing
//! comment (`1d20+5 to hit`); `adv` / `dis` for `2d20kh1` / `2d20kl1`, as a term or as the first
//! word after the expression (then it applies to a leading `1d20`).
//!
//! Where it differs from d20 (whose `expression.py` is the reference for what each operator
//! does): `d%` is a d100 (1–100; d20 rolls a tens die, 0–90); `/` rounds down on whole numbers
//! (the 5e rule; d20 keeps the fraction until the total); `!`, `dh`, `dl` and `kh`/`kl` without
//! a number are accepted besides d20's `e`, `ph`, `pl`; decimals are refused; a keep or drop
//! that leaves none of the dice asked for (`2d6dl2`) and a reroll or explosion that every face
//! matches are refused (d20 gives 0, or rolls until its 1,000-roll limit).
//!
//! The cost is bounded by construction: at most [`MAX_DICE`] dice are rolled per expression,
//! counting rerolls and explosions (every reroll or explosion pass rolls at least one die, so the
//! budget ends every loop); a reroll or explosion that every face matches is refused before
//! rolling; the text is at most [`MAX_CHARS`] characters and [`MAX_DEPTH`] levels deep.

mod error;
mod parse;
mod roll;
mod show;

pub use error::DiceError;
pub use parse::Expr;
pub use roll::Roller;

/// Most characters in an expression (its comment included).
pub const MAX_CHARS: usize = 200;
/// Most dice rolled for one expression, rerolls and explosions included.
pub const MAX_DICE: u32 = 1000;
/// Most sides on a die.
pub const MAX_SIDES: u32 = 10_000;
/// Deepest nesting of parentheses and signs.
pub const MAX_DEPTH: usize = 20;
/// Longest [`Rolled::detail`]: with ` = **total**` it fits a Discord embed's 4,096-character description.
pub const MAX_DETAIL_CHARS: usize = 3_900;

/// A rolled expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rolled {
    /// Each die shown (Markdown): `4d6kh3 (~~2~~, 5, 3, **6**)`.
    pub detail: String,
    pub total: i64,
    /// Dice rolled, rerolls and explosions included.
    pub dice_rolled: u32,
    /// The sum of the kept dice, each as it counts (after `mi` / `ma`).
    pub kept_dice_sum: i64,
    /// How many dice are kept.
    pub kept_dice: u32,
}

impl Expr {
    /// Rolls the expression with dice from `roller`. Nothing is kept of a roll refused
    /// half-way ([`DiceError::TooManyRolls`]) but the dice `roller` handed out.
    pub fn roll(&self, roller: &mut impl Roller) -> Result<Rolled, DiceError> {
        let (total, tally) = roll::roll(self, roller)?;
        let detail = show::show(self, &tally);
        let kept = || tally.dice.iter().filter(|d| d.kept);
        Ok(Rolled {
            detail,
            total,
            dice_rolled: tally.dice.len() as u32 + tally.history.len() as u32,
            kept_dice_sum: kept().map(|d| i64::from(d.value)).sum(),
            kept_dice: kept().count() as u32,
        })
    }
}

/// Parses and rolls `text` in one go.
pub fn roll(text: &str, roller: &mut impl Roller) -> Result<Rolled, DiceError> {
    Expr::parse(text)?.roll(roller)
}
