//! Why an expression is refused: each limit and each malformed input has its own variant and message.

use std::fmt;

/// An expression that cannot be rolled. Refused before any die is rolled, except
/// [`DiceError::TooManyRolls`], found while rolling (and then nothing of the roll is kept).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiceError {
    /// Nothing to roll.
    Empty,
    /// Longer than [`crate::MAX_CHARS`] characters.
    TooLong { chars: usize },
    /// Something other than what the grammar allows at this point (column counts from 1).
    Unexpected {
        column: usize,
        found: String,
        expected: &'static str,
    },
    /// Two terms with no operator between them (`d20 d20`).
    Adjacent { column: usize },
    /// Parentheses and signs nested deeper than [`crate::MAX_DEPTH`].
    TooDeep,
    /// A die with no sides or more than [`crate::MAX_SIDES`].
    Sides { sides: u64 },
    /// More than [`crate::MAX_DICE`] dice asked for before any reroll or explosion.
    TooManyDice { dice: u64 },
    /// A keep or drop that leaves none of the dice asked for (`2d6dl2`, `4d6kh0`).
    LeavesNone { op: &'static str, n: u64, count: u64 },
    /// Rerolls and explosions took the dice rolled past [`crate::MAX_DICE`].
    TooManyRolls,
    /// A reroll (`rr`) or explosion (`e`, `!`) that every face of the die matches: it would never stop.
    NeverStops { op: &'static str, dice: String },
    /// `mi` / `ma` take a plain number, not a `h`/`l`/`<`/`>` selector.
    MinMaxSelector { op: &'static str },
    /// An operator that only works on dice (`rr`, `ro`, `ra`, `e`, `mi`, `ma`) after a set.
    DiceOnly { op: &'static str },
    /// A number past what the expression allows.
    TooLarge { what: &'static str, max: u64 },
    /// A decimal number: only whole numbers are rolled.
    Decimal { column: usize },
    /// An annotation `[…` with no closing `]`.
    UnclosedAnnotation { column: usize },
    /// `adv` / `dis` after an expression that does not start with a single d20.
    AdvantageNeedsD20 { word: &'static str },
    /// Division or remainder by zero.
    DivideByZero,
    /// The total does not fit in 64 bits.
    Overflow,
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

impl fmt::Display for DiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::{MAX_CHARS, MAX_DEPTH, MAX_DICE, MAX_SIDES};
        match self {
            Self::Empty => write!(f, "it is empty"),
            Self::TooLong { chars } => {
                write!(f, "it is {chars} characters long; the most is {MAX_CHARS}")
            }
            Self::Unexpected {
                column,
                found,
                expected,
            } => {
                if found.is_empty() {
                    write!(f, "it ends where {expected} should follow")
                } else {
                    write!(f, "\"{found}\" at column {column} should be {expected}")
                }
            }
            Self::Adjacent { column } => write!(
                f,
                "there is no operator before column {column}: join the terms with + or - (e.g. 1d20 + 1d4)"
            ),
            Self::TooDeep => write!(f, "it nests parentheses and signs more than {MAX_DEPTH} deep"),
            Self::Sides { sides } => write!(
                f,
                "a die has 1 to {} sides, not {}",
                thousands(u64::from(MAX_SIDES)),
                thousands(*sides)
            ),
            Self::TooManyDice { dice } => write!(
                f,
                "it rolls {} dice; the most is {}",
                thousands(*dice),
                thousands(u64::from(MAX_DICE))
            ),
            Self::LeavesNone { op, n, count } => write!(f, "{op} {n} of {count} dice leaves none"),
            Self::TooManyRolls => write!(
                f,
                "its rerolls and explosions went past {} dice",
                thousands(u64::from(MAX_DICE))
            ),
            Self::NeverStops { op, dice } => {
                write!(f, "every face of {dice} matches its {op}, so it would never stop")
            }
            Self::MinMaxSelector { op } => {
                write!(f, "{op} takes a plain number (e.g. {op}2), not h, l, < or >")
            }
            Self::DiceOnly { op } => {
                write!(
                    f,
                    "{op} works on dice only; a set in parentheses takes k (keep) and p (drop)"
                )
            }
            Self::TooLarge { what, max } => write!(f, "{what} is more than {}", thousands(*max)),
            Self::Decimal { column } => write!(f, "the number at column {column} is not whole; dice use whole numbers"),
            Self::UnclosedAnnotation { column } => {
                write!(f, "the [ at column {column} is never closed with ]")
            }
            Self::AdvantageNeedsD20 { word } => {
                write!(f, "\"{word}\" at the end needs the expression to start with 1d20")
            }
            Self::DivideByZero => write!(f, "it divides by zero"),
            Self::Overflow => write!(f, "its total is too large to count"),
        }
    }
}

impl std::error::Error for DiceError {}
