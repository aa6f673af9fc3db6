//! `/combat start|join|status|end`: the fight in this channel; `/combat replay combat:N`: a
//! fight's plain referee log.

use super::{Ctx, Invocation, Refused, Reply};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CombatCmd {
    Start,
    Join,
    Status,
    /// Manage Server: end it with no winner.
    End,
    /// The referee log of fight N of this campaign.
    Replay {
        combat: i64,
    },
}

/// How much of a referee log fits an embed (Discord: 4096 characters in a description).
const LOG_LIMIT: usize = 3900;

impl CombatCmd {
    pub fn parse(sub: &str, inv: &Invocation) -> Result<Self, String> {
        Ok(match sub {
            "start" => Self::Start,
            "join" => Self::Join,
            "status" => Self::Status,
            "end" => Self::End,
            "replay" => Self::Replay {
                combat: inv.number::<i64>("combat")?.ok_or("Give `combat`.")?,
            },
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
            Self::Replay { combat } => {
                let Some(log) = s.combat_log(campaign, combat).await? else {
                    return Err(Refused::Input(format!("There is no fight {combat} in this campaign.")));
                };
                return Ok(vec![Reply::public(render::info(
                    &format!("Combat {combat} — referee log"),
                    &format!("```\n{}\n```", fit(&log)),
                ))]);
            }
        };
        Ok(ctx.app.combat_replies(&update))
    }
}

/// The log's first lines that fit an embed, and how many more there are.
fn fit(log: &str) -> String {
    let mut out = String::new();
    let lines: Vec<&str> = log.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if out.len() + line.len() + 40 > LOG_LIMIT {
            let more = lines.len() - i;
            out.push_str("… ");
            out.push_str(&more.to_string());
            out.push_str(" more lines");
            break;
        }
        out.push_str(line);
        out.push('\n');
    }
    out.trim_end().to_owned()
}
