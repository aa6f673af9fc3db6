//! `/campaign rules|timeout|turntimeout|map` (Manage Server): a campaign's settings.

use engine::Ruleset;

use super::{Ctx, Invocation, Refused, Reply};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Campaign {
    Rules {
        ruleset: Ruleset,
    },
    Timeout {
        seconds: i64,
    },
    TurnTimeout {
        seconds: i64,
    },
    /// Whether each message that passes the turn carries the battlefield's picture.
    Map {
        every_turn: bool,
    },
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
            "map" => Self::Map {
                every_turn: match inv.need("show")? {
                    "every_turn" => true,
                    "on_request" => false,
                    other => return Err(format!("\"{other}\" is not a choice: every_turn or on_request.")),
                },
            },
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
            Self::Map { every_turn } => {
                if s.set_map_every_turn(ctx.campaign, every_turn).await? {
                    "Each turn's message in this campaign's fights now carries a picture of the battlefield.".to_owned()
                } else {
                    "The battlefield's picture now comes on request: `/combat status` or `/combat map`.".to_owned()
                }
            }
        };
        Ok(vec![Reply::public(render::info("Campaign rules", &text))])
    }
}
