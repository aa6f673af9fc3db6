//! `/arena challenge|spectate|top`: a duel offered with Accept / Decline buttons only
//! the challenged player may press, the running duels as they stand, and the win streaks. TwinBee
//! referees (`flavor/twinbee_gm.toml`).

use chrono::{DateTime, Utc};
use render::{ActionRow, AllowedMentions, Button, ButtonStyle, Key};
use service::cmd::arena::Challenge;
use service::{Notice, ServiceError};

use super::{Ctx, Invocation, Refused, Reply};
use crate::app::{App, Caller};

/// The buttons' ids: `arena:accept:<duel id>` and `arena:decline:<duel id>`.
const PREFIX: &str = "arena";

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arena {
    Challenge { user: String },
    Spectate,
    Top,
}

impl Arena {
    pub fn parse(sub: &str, inv: &Invocation) -> Result<Self, String> {
        Ok(match sub {
            "challenge" => Self::Challenge {
                user: super::gm::user_id(inv.need("user")?),
            },
            "spectate" => Self::Spectate,
            _ => Self::Top,
        })
    }

    pub async fn run(self, ctx: &Ctx<'_>) -> Result<Vec<Reply>, Refused> {
        let s = ctx.service();
        Ok(match self {
            Self::Challenge { user } => {
                let offer = s
                    .arena_challenge(ctx.campaign, ctx.channel(), ctx.me(), &user, ctx.now)
                    .await?;
                vec![ctx.app.challenge_prompt(&offer)]
            }
            Self::Spectate => {
                let duels = s.arena_spectate(ctx.campaign).await?;
                if duels.is_empty() {
                    return Ok(vec![Reply::public(
                        render::info(
                            "The arena is empty",
                            "No duel is being fought — /arena challenge user:@someone starts one.",
                        )
                        .ephemeral(),
                    )]);
                }
                let mut replies = Vec::new();
                for duel in &duels {
                    // What the duellists see, for the spectator alone: no buttons, no pings.
                    for mut reply in ctx.app.combat_replies(duel) {
                        if reply.to_user.is_some() {
                            continue;
                        }
                        reply.payload.components.clear();
                        reply.payload.content = None;
                        reply.payload.allowed_mentions = Some(AllowedMentions::none());
                        reply.running = None;
                        reply.payload = reply.payload.ephemeral();
                        replies.push(reply);
                    }
                }
                replies
            }
            Self::Top => {
                let ranked = s.arena_top(ctx.campaign).await?;
                let lines: Vec<String> = ranked
                    .iter()
                    .filter(|r| r.streak > 0)
                    .enumerate()
                    .map(|(i, r)| format!("{}. **{}** — {} in a row", i + 1, r.name, in_a_row(r.streak)))
                    .collect();
                let body = if lines.is_empty() {
                    "No one holds a streak yet — win a duel (/arena challenge user:@someone) to head the board."
                        .to_owned()
                } else {
                    lines.join("\n")
                };
                vec![Reply::public(render::info("The arena — win streaks", &body))]
            }
        })
    }
}

impl App {
    /// A challenge, publicly, pinging the challenged player, with their two buttons.
    fn challenge_prompt(&self, offer: &Challenge) -> Reply {
        let mut reply = self.story(
            Key::ArenaChallenge,
            &[("name", &offer.challenger), ("rival", &offer.challenged)],
        );
        let id = &offer.challenged_player;
        if !id.is_empty() && id.len() <= 20 && id.bytes().all(|b| b.is_ascii_digit()) {
            reply.payload.content = Some(format!("<@{id}>"));
            reply.payload.allowed_mentions = Some(AllowedMentions::users([id.clone()]));
        }
        reply.payload.components = vec![ActionRow::new(vec![
            Button::new(
                ButtonStyle::Success,
                "Accept the duel",
                format!("{PREFIX}:accept:{}", offer.duel_id),
            ),
            Button::new(
                ButtonStyle::Secondary,
                "Decline",
                format!("{PREFIX}:decline:{}", offer.duel_id),
            ),
        ])];
        reply.to_user = Some(offer.challenged_player.clone());
        reply
    }

    /// A press of an arena button, if `custom_id` is one (`None`: not ours). Only the challenged
    /// player may answer; anyone else is told so, and nothing changes.
    pub(crate) async fn arena_press(&self, caller: &Caller, custom_id: &str, now: DateTime<Utc>) -> Option<Vec<Reply>> {
        let mut parts = custom_id.split(':');
        if parts.next() != Some(PREFIX) {
            return None;
        }
        let (what, id) = (parts.next(), parts.next().and_then(|i| i.parse::<i64>().ok()));
        let result: Result<Vec<Reply>, ServiceError> = async {
            let campaign = self
                .service
                .campaign_id_for(&caller.guild, &caller.channel, now)
                .await?;
            let id = id.ok_or(ServiceError::StaleButton)?;
            match what {
                Some("accept") => {
                    let update = self.service.arena_accept(campaign, &caller.user, id, now).await?;
                    Ok(self.combat_replies(&update))
                }
                Some("decline") => {
                    let offer = self.service.arena_decline(campaign, &caller.user, id, now).await?;
                    Ok(vec![self.story(
                        Key::ArenaDeclined,
                        &[("name", &offer.challenger), ("rival", &offer.challenged)],
                    )])
                }
                _ => Err(ServiceError::StaleButton),
            }
        }
        .await;
        Some(result.unwrap_or_else(|e| Self::failed(&e)))
    }

    /// The streak line after a duel ended (`Notice::DuelEnded`).
    pub(crate) fn duel_replies(&self, notice: &Notice) -> Option<Reply> {
        let Notice::DuelEnded(end) = notice else {
            return None;
        };
        let (Some((winner, streak)), Some((loser, lost))) = (&end.winner, &end.loser) else {
            return None;
        };
        let streak = in_a_row(*streak);
        Some(if *lost > 0 {
            self.story(
                Key::ArenaStreak,
                &[
                    ("name", winner),
                    ("streak", &streak),
                    ("rival", loser),
                    ("lost", &lost.to_string()),
                ],
            )
        } else {
            self.story(Key::ArenaWinStreak, &[("name", winner), ("streak", &streak)])
        })
    }
}

/// "1 win", "3 wins".
pub fn in_a_row(streak: i32) -> String {
    if streak == 1 {
        "1 win".to_owned()
    } else {
        format!("{streak} wins")
    }
}
