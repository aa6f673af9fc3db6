//! `/roll <expression>`: free-form dice in Avrae's d20 syntax (the `dice` crate), rolled from the service's seeded stream, never the OS.
//!
//! No lock is held while dice roll: the roll runs on a copy of the stream, and the copy
//! replaces the stream only if no other roll moved it meanwhile (compare-and-swap; a roll that
//! lost the race rolls again from the new position). So a refused roll — refused before
//! rolling, or half-way at the dice budget — leaves the stream exactly where it was, and the
//! rolls of one seed come out the same whatever the threads.

use crate::{Service, ServiceError};

/// A rolled expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rolled {
    /// The expression as typed, without its comment.
    pub expression: String,
    /// The comment after the expression (`1d20+5 to hit` → `to hit`), if any.
    pub comment: Option<String>,
    /// Each die shown (Markdown): dropped and rerolled ones struck through, 1s and highest
    /// faces bold: `4d6kh3 (~~2~~, 5, 3, **6**)`.
    pub detail: String,
    pub total: i64,
}

impl Service {
    /// `/roll <expression>`: rolls it from the service's seeded stream.
    pub fn roll(&self, expression: &str) -> Result<Rolled, ServiceError> {
        let bad = |err: dice::DiceError| ServiceError::BadDiceExpression {
            expression: expression.trim().to_owned(),
            reason: err.to_string(),
        };
        let expr = dice::Expr::parse(expression).map_err(bad)?;
        loop {
            let mut stream = self.rolls.lock().expect("roll stream poisoned").clone();
            let from = stream.position();
            let rolled = expr.roll(&mut |sides| stream.die(sides)).map_err(bad)?;
            let mut shared = self.rolls.lock().expect("roll stream poisoned");
            if shared.position() == from {
                *shared = stream;
                return Ok(Rolled {
                    expression: expr.text().to_owned(),
                    comment: expr.comment().map(str::to_owned),
                    detail: rolled.detail,
                    total: rolled.total,
                });
            }
        }
    }
}
