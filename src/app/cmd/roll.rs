//! `/roll expression:…`: dice outside a fight.

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
        Ok(vec![Reply::public(render::info(
            &format!("🎲 {}", rolled.expression),
            &format!("{} = **{}**", rolled.detail, rolled.total),
        ))])
    }
}
