//! `/roll <expression>`: free-form dice with [tyche](https://docs.rs/tyche) (`FoundryVTT`
//! syntax): `NdM`, keep highest/lowest (`2d20kh1` is advantage, `2d20kl1` disadvantage,
//! `4d6kh3`), drop lowest/highest (`4d6dl1`, rewritten to the matching keep), rerolls,
//! explosions, and arithmetic with parentheses. Rolls come from the service's seeded
//! stream, never the OS.

use std::fmt::Write as _;

use tyche::dice::DieRoll;
use tyche::dice::roller::Roller;

use crate::{Service, ServiceError};

/// Longest expression accepted.
pub const MAX_EXPRESSION_CHARS: usize = 100;

/// A rolled expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rolled {
    /// The expression as understood (normalised by tyche).
    pub expression: String,
    /// Each die shown, with kept and dropped ones marked, e.g. `2d20kh1[17, 4 (d)]`.
    pub detail: String,
    pub total: i32,
}

/// The engine's seeded dice behind tyche's roller interface.
struct Seeded<'a>(&'a mut engine::Dice);

impl Roller for Seeded<'_> {
    fn roll_die(&mut self, sides: u8) -> DieRoll {
        if sides == 0 {
            DieRoll::new(0)
        } else {
            DieRoll::new(self.0.die(u32::from(sides)) as u8)
        }
    }
}

/// Rewrites `NdMdlK` / `NdMdhK` (drop lowest / highest K) to tyche's keep: `kh(N−K)` / `kl(N−K)`.
fn rewrite_drops(expression: &str) -> Result<String, String> {
    let chars: Vec<char> = expression.chars().collect();
    let mut out = String::with_capacity(expression.len());
    let mut i = 0;
    let digits = |from: usize| {
        let mut end = from;
        while end < chars.len() && chars[end].is_ascii_digit() {
            end += 1;
        }
        end
    };
    while i < chars.len() {
        let start = i;
        let count_end = digits(i);
        if count_end < chars.len() && chars[count_end] == 'd' {
            let sides_end = digits(count_end + 1);
            if sides_end > count_end + 1
                && sides_end + 1 < chars.len()
                && chars[sides_end] == 'd'
                && matches!(chars[sides_end + 1], 'l' | 'h')
            {
                let count: u32 = if count_end == start {
                    1
                } else {
                    chars[start..count_end]
                        .iter()
                        .collect::<String>()
                        .parse()
                        .map_err(|_| "too many dice".to_owned())?
                };
                let drop_end = digits(sides_end + 2);
                let drop: u32 = if drop_end == sides_end + 2 {
                    1
                } else {
                    chars[sides_end + 2..drop_end]
                        .iter()
                        .collect::<String>()
                        .parse()
                        .map_err(|_| "too many dice to drop".to_owned())?
                };
                if drop >= count {
                    return Err(format!("dropping {drop} of {count} dice leaves none"));
                }
                let keep = if chars[sides_end + 1] == 'l' { "kh" } else { "kl" };
                out.extend(&chars[start..sides_end]);
                let _ = write!(out, "{keep}{}", count - drop);
                i = drop_end;
                continue;
            }
            out.extend(&chars[start..count_end.max(start + 1)]);
            i = count_end.max(start + 1);
            continue;
        }
        out.extend(&chars[start..count_end.max(start + 1)]);
        i = count_end.max(start + 1);
    }
    Ok(out)
}

impl Service {
    /// `/roll <expression>`: rolls it from the service's seeded stream.
    pub fn roll(&self, expression: &str) -> Result<Rolled, ServiceError> {
        let bad = |reason: String| ServiceError::BadDiceExpression {
            expression: expression.trim().to_owned(),
            reason,
        };
        let text: String = expression
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if text.is_empty() {
            return Err(bad("it is empty".into()));
        }
        if text.chars().count() > MAX_EXPRESSION_CHARS {
            return Err(bad(format!("it is longer than {MAX_EXPRESSION_CHARS} characters")));
        }
        let text = rewrite_drops(&text).map_err(bad)?;
        let expr: tyche::Expr = text.parse().map_err(|err: tyche::parse::Error| bad(err.details))?;
        let mut dice = self.rolls.lock().expect("roll stream poisoned");
        let evaled = expr.eval(&mut Seeded(&mut dice)).map_err(|err| bad(err.to_string()))?;
        let total = evaled.calc().map_err(|err| bad(err.to_string()))?;
        Ok(Rolled {
            expression: expr.to_string(),
            detail: evaled.to_string(),
            total,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::rewrite_drops;

    #[test]
    fn drops_become_keeps() {
        assert_eq!(rewrite_drops("4d6dl1").unwrap(), "4d6kh3");
        assert_eq!(rewrite_drops("4d6dl").unwrap(), "4d6kh3");
        assert_eq!(rewrite_drops("3d20dh2+5").unwrap(), "3d20kl1+5");
        assert_eq!(rewrite_drops("2d20kh1+d4").unwrap(), "2d20kh1+d4");
        assert_eq!(rewrite_drops("(1d6+2)*10").unwrap(), "(1d6+2)*10");
        assert!(rewrite_drops("2d6dl2").is_err());
    }
}
