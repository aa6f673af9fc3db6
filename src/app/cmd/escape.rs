//! `/escape` (seed 000 §3.2 "Web / Entangled: half speed until freed", Restrained): the better of
//! a STR (Athletics) and a DEX (Acrobatics) check against what holds you, as your action.

use service::PlayerCommand;

use super::{Ctx, Refused, Reply};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Escape;

impl Escape {
    pub async fn run(self, ctx: &Ctx<'_>) -> Result<Vec<Reply>, Refused> {
        let update = ctx
            .service()
            .act(ctx.campaign, ctx.channel(), ctx.me(), &PlayerCommand::Escape, ctx.now)
            .await?;
        Ok(ctx.app.combat_replies(&update))
    }
}
