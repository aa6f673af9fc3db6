//! `/campaign rules|timeout|turntimeout` (Manage Server): a campaign's settings.

use engine::Ruleset;

use super::{Ctx, Invocation, Refused, Reply};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Campaign {
    Rules { ruleset: Ruleset },
    Timeout { seconds: i64 },
    TurnTimeout { seconds: i64 },
}

impl Campaign {
    pub fn parse(sub: &str, inv: &Invocation) -> Result<Self, String> {
        let seconds = || {
            inv.number::<i64>("seconds")?
                .ok_or_else(|| "Give `seconds`.".to_owned())
        };
        Ok(match sub {
            "rules" => {
                let name = inv.need("ruleset")?;
                let ruleset = Ruleset::parse(name).ok_or_else(|| {
                    format!(
                        "\"{name}\" is not a ruleset: choose one of {}.",
                        Ruleset::NAMES.join(", ")
                    )
                })?;
                Self::Rules { ruleset }
            }
            "timeout" => Self::Timeout { seconds: seconds()? },
            _ => Self::TurnTimeout { seconds: seconds()? },
        })
    }

    pub async fn run(self, ctx: &Ctx<'_>) -> Result<Vec<Reply>, Refused> {
        let s = ctx.service();
        let text = match self {
            Self::Rules { ruleset } => {
                let set = s.set_ruleset(ctx.campaign, ruleset.name()).await?;
                format!("New combats here use the **{set}** rules.")
            }
            Self::Timeout { seconds } => {
                let set = s.set_reaction_timeout(ctx.campaign, seconds).await?;
                format!("Reaction prompts in fights started from now on wait **{set} s** before they pass.")
            }
            Self::TurnTimeout { seconds } => {
                let set = s.set_turn_timeout(ctx.campaign, seconds).await?;
                if set == 0 {
                    "Fights started from now on wait for each player as long as it takes.".to_owned()
                } else {
                    format!(
                        "In fights started from now on, a player has **{set} s** to act before their turn ends by itself."
                    )
                }
            }
        };
        Ok(vec![Reply::public(render::info("Campaign rules", &text))])
    }
}
