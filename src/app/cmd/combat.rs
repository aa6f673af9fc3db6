//! `/combat start|join|status|end`: the fight in this channel.

use super::{Ctx, Invocation, Refused, Reply};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CombatCmd {
    Start,
    Join,
    Status,
    /// Manage Server: end it with no winner.
    End,
}

impl CombatCmd {
    pub fn parse(sub: &str, _inv: &Invocation) -> Result<Self, String> {
        Ok(match sub {
            "start" => Self::Start,
            "join" => Self::Join,
            "status" => Self::Status,
            "end" => Self::End,
            other => return Err(format!("/combat {other} is not a command.")),
        })
    }

    pub async fn run(self, ctx: &Ctx<'_>) -> Result<Vec<Reply>, Refused> {
        let (s, campaign, channel, now) = (ctx.service(), ctx.campaign, ctx.channel(), ctx.now);
        let update = match self {
            Self::Start => s.start_combat(campaign, channel, ctx.me(), now).await?,
            Self::Join => s.join_combat(campaign, channel, ctx.me(), now).await?,
            Self::Status => s.combat_status(campaign, channel).await?,
            Self::End => {
                ctx.gm()?;
                s.gm_end_combat(campaign, channel, now).await?
            }
        };
        Ok(ctx.app.combat_replies(&update))
    }
}
