//! `/roll expression:…`: dice outside a fight, in Avrae's d20 syntax (`crates/dice`); a comment after the expression titles the roll.

use super::{Ctx, Invocation, Refused, Reply};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Roll {
    pub expression: String,
}

impl Roll {
    pub fn parse(inv: &Invocation) -> Result<Self, String> {
        Ok(Self {
            expression: inv.need("expression")?.to_owned(),
        })
    }

    pub fn run(self, ctx: &Ctx<'_>) -> Result<Vec<Reply>, Refused> {
        let rolled = ctx.service().roll(&self.expression)?;
        let title = match &rolled.comment {
            Some(comment) => format!("🎲 {comment}: {}", rolled.expression),
            None => format!("🎲 {}", rolled.expression),
        };
        Ok(vec![Reply::public(render::info(
            &title,
            &format!("{} = **{}**", rolled.detail, rolled.total),
        ))])
    }
}
