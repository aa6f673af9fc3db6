//! `/combat start|join|status|end`: the fight in this channel (the status with the battlefield's
//! picture attached); `/combat map`: the battlefield in words and as a picture (ephemeral for a
//! player, public for the GM); `/combat replay combat:N`: a fight's plain referee log, as a text
//! file attached to a short embed.

use super::{Ctx, Invocation, Refused, Reply};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CombatCmd {
    Start,
    Join,
    Status,
    /// The battlefield's picture: ephemeral, or public when the GM asks.
    Map,
    /// Manage Server: end it with no winner.
    End,
    /// The referee log of fight N of this campaign.
    Replay {
        combat: i64,
    },
}

/// How many of a referee log's first lines the embed shows above the attached file.
const PREVIEW_LINES: usize = 6;

impl CombatCmd {
    pub fn parse(sub: &str, inv: &Invocation) -> Result<Self, String> {
        Ok(match sub {
            "start" => Self::Start,
            "join" => Self::Join,
            "status" => Self::Status,
            "map" => Self::Map,
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
            Self::Status => {
                let update = s.combat_status(campaign, channel).await?;
                let mut replies = ctx.app.combat_replies(&update);
                let picture = picture(std::sync::Arc::clone(&update.combat), render::map::attachment).await;
                // On the timeline the status is a running message, edited in place: the picture
                // goes in a message of its own.
                match replies
                    .iter_mut()
                    .find(|r| r.running.is_none() && !r.payload.embeds.is_empty())
                {
                    Some(status) => status.payload.attachments.extend(picture),
                    None => replies.extend(picture.map(|file| {
                        let mut message = render::info("The battlefield", "");
                        message.attachments = vec![file];
                        Reply::public(message)
                    })),
                }
                return Ok(replies);
            }
            Self::Map => {
                let update = s.combat_status(campaign, channel).await?;
                let Some(message) = picture(update.combat, |c, _| render::map::message(c)).await else {
                    return Err(Refused::Input("The battlefield could not be drawn; try again.".into()));
                };
                return Ok(vec![if ctx.gm().is_ok() {
                    Reply::public(message)
                } else {
                    Reply::public(message.ephemeral())
                }]);
            }
            Self::End => {
                ctx.gm()?;
                s.gm_end_combat(campaign, channel, now).await?
            }
            Self::Replay { combat } => {
                let Some(log) = s.combat_log(campaign, combat).await? else {
                    return Err(Refused::Input(format!("There is no fight {combat} in this campaign.")));
                };
                return Ok(vec![Reply::public(log_message(combat, log))]);
            }
        };
        Ok(ctx.app.combat_replies(&update))
    }
}

/// Draws the battlefield of `combat` with `draw` off the async runtime (a picture of 40
/// combatants takes milliseconds of one core); `None` if the drawing failed.
async fn picture<T: Send + 'static>(
    combat: std::sync::Arc<engine::Combat>,
    draw: fn(&engine::Combat, u64) -> T,
) -> Option<T> {
    tokio::task::spawn_blocking(move || draw(&combat, 0)).await.ok()
}

/// Fight `combat`'s referee log: the whole of it as `combat-N.txt`, its first lines in the embed.
fn log_message(combat: i64, log: String) -> render::MessagePayload {
    let lines: Vec<&str> = log.lines().collect();
    let shown = lines.len().min(PREVIEW_LINES);
    let more = match lines.len() - shown {
        0 => String::new(),
        n => format!("… and {n} more lines in the file."),
    };
    let preview = format!("```\n{}\n```{more}", lines[..shown].join("\n"));
    let mut message = render::info(&format!("Combat {combat} — referee log"), &preview).clamp_to_limits();
    let filename = format!("combat-{combat}.txt");
    message.attachments = vec![render::Attachment::text(
        0,
        &filename,
        &format!("The referee log of combat {combat}, one line per event"),
        log,
    )];
    message
}
