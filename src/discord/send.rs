//! Sends the app's replies to Discord exactly as the renderer made them: each `MessagePayload`
//! is serialised as-is into the interaction response, follow-up or channel message, so what
//! `gogobee play --json` prints is byte for byte what Discord gets.
//!
//! Every interaction is acknowledged within Discord's 3 s: when the work is not done after
//! [`DEFER_AFTER`], the interaction is deferred and answered when it is. Reaction prompts
//! posted here are remembered per channel, so their buttons can be taken away once their
//! window closes (answered, or timed out).

use std::collections::HashMap;
use std::future::Future;
use std::pin::pin;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Result;
use poise::serenity_prelude as serenity;
use render::{MessagePayload, ReactionButton};
use serde_json::json;

use crate::app::Reply;

/// How long a command may run before its interaction is deferred (Discord allows 3 s in all,
/// gateway and network included).
pub const DEFER_AFTER: Duration = Duration::from_millis(1200);

/// Interaction callback types.
const MESSAGE: u8 = 4;
const DEFERRED_MESSAGE: u8 = 5;
const DEFERRED_UPDATE: u8 = 6;
const UPDATE_MESSAGE: u8 = 7;

/// The interaction being answered.
pub struct Interaction<'a> {
    pub id: serenity::InteractionId,
    pub token: &'a str,
    pub channel: serenity::ChannelId,
    /// The message a pressed button is on.
    pub source: Option<serenity::MessageId>,
}

/// A reaction prompt on display: its message and the window its buttons answer.
#[derive(Debug, Clone, Copy)]
struct Prompt {
    message: serenity::MessageId,
    window: u64,
}

/// Posts replies and keeps track of the reaction prompts on display.
pub struct Outbox {
    pub http: Arc<serenity::Http>,
    prompts: Mutex<HashMap<serenity::ChannelId, Vec<Prompt>>>,
}

/// The window a prompt's buttons answer, if the payload is a reaction prompt.
fn prompt_window(payload: &MessagePayload) -> Option<u64> {
    payload
        .components
        .iter()
        .flat_map(|row| &row.components)
        .filter(|b| !b.disabled)
        .find_map(|b| ReactionButton::parse(&b.custom_id))
        .map(|b| b.version)
}

/// The edit that takes a prompt's buttons away (content and embeds stay as they are).
fn no_buttons() -> serde_json::Value {
    json!({ "components": MessagePayload::default().without_buttons().components })
}

impl Outbox {
    pub fn new(http: Arc<serenity::Http>) -> Self {
        Self {
            http,
            prompts: Mutex::new(HashMap::new()),
        }
    }

    /// Awaits `work`; if it is not done after [`DEFER_AFTER`], defers the interaction (with
    /// callback type `defer`) and then waits for it. Returns the replies and whether it deferred.
    async fn in_time(
        &self,
        on: &Interaction<'_>,
        defer: u8,
        acknowledged: Option<&AtomicBool>,
        work: impl Future<Output = Vec<Reply>>,
    ) -> Result<(Vec<Reply>, bool)> {
        let mut work = pin!(work);
        if let Ok(replies) = tokio::time::timeout(DEFER_AFTER, &mut work).await {
            return Ok((replies, false));
        }
        let body = json!({ "type": defer });
        self.http
            .create_interaction_response(on.id, on.token, &body, vec![])
            .await?;
        if let Some(flag) = acknowledged {
            super::acknowledged(flag);
        }
        Ok((work.await, true))
    }

    /// Answers a slash command with the replies `work` produces: the first as the response
    /// (deferred first if `work` is slow), the rest as follow-ups.
    /// `acknowledged` is set once the interaction has its response.
    pub async fn answer_command(
        &self,
        on: &Interaction<'_>,
        acknowledged: &AtomicBool,
        work: impl Future<Output = Vec<Reply>>,
    ) -> Result<()> {
        let (replies, deferred) = self.in_time(on, DEFERRED_MESSAGE, Some(acknowledged), work).await?;
        let mut replies = replies.into_iter();
        let first = replies.next().unwrap_or_else(|| Reply {
            payload: render::refusal_text("Done."),
            to_user: None,
        });
        if deferred {
            // The "thinking…" message is public; a private first reply replaces it privately.
            if first.is_ephemeral() {
                self.http.delete_original_interaction_response(on.token).await?;
            }
            self.follow_up(on, &first.payload).await?;
        } else {
            let body = json!({ "type": MESSAGE, "data": first.payload });
            self.http
                .create_interaction_response(on.id, on.token, &body, vec![])
                .await?;
            super::acknowledged(acknowledged);
            if let Some(window) = prompt_window(&first.payload) {
                let message = self.http.get_original_interaction_response(on.token).await?;
                self.remember(on.channel, message.id, window);
            }
        }
        for reply in replies {
            self.follow_up(on, &reply.payload).await?;
        }
        Ok(())
    }

    /// Answers a button press. A refusal (an ephemeral first reply) is shown to the presser
    /// only; otherwise the window is closed: the prompt loses its buttons (the response
    /// updates its message) and the replies follow.
    pub async fn answer_press(
        &self,
        on: &Interaction<'_>,
        pressed: Option<&ReactionButton>,
        work: impl Future<Output = Vec<Reply>>,
    ) -> Result<()> {
        let (replies, deferred) = self.in_time(on, DEFERRED_UPDATE, None, work).await?;
        let refused = replies.first().is_none_or(Reply::is_ephemeral);
        let mut rest = replies.as_slice();
        match (refused, deferred) {
            (true, false) => {
                let first = replies
                    .first()
                    .map_or_else(|| render::refusal_text("Nothing happened."), |r| r.payload.clone());
                let body = json!({ "type": MESSAGE, "data": first });
                self.http
                    .create_interaction_response(on.id, on.token, &body, vec![])
                    .await?;
                rest = replies.get(1..).unwrap_or_default();
            }
            (false, false) => {
                let body = json!({ "type": UPDATE_MESSAGE, "data": no_buttons() });
                self.http
                    .create_interaction_response(on.id, on.token, &body, vec![])
                    .await?;
            }
            (false, true) => {
                self.http
                    .edit_original_interaction_response(on.token, &no_buttons(), vec![])
                    .await?;
            }
            (true, true) => {}
        }
        if !refused && let Some(button) = pressed {
            // Other copies of the same prompt (e.g. reposted by /combat status) close too.
            self.close_prompts(on.channel, |p| {
                p.window == button.version && Some(p.message) != on.source
            })
            .await;
        }
        for reply in rest {
            self.follow_up(on, &reply.payload).await?;
        }
        Ok(())
    }

    async fn follow_up(&self, on: &Interaction<'_>, payload: &MessagePayload) -> Result<()> {
        let message = self.http.create_followup_message(on.token, payload, vec![]).await?;
        if let Some(window) = prompt_window(payload) {
            self.remember(on.channel, message.id, window);
        }
        Ok(())
    }

    /// Posts timer replies to their channels. Windows that timed out lose their buttons.
    pub async fn post_timed(&self, posts: Vec<(String, Reply)>) {
        let mut by_channel: Vec<(serenity::ChannelId, Vec<Reply>)> = Vec::new();
        for (channel, reply) in posts {
            let Ok(id) = channel.parse::<u64>() else {
                tracing::warn!(channel, "a timer fired for a channel that is not a Discord channel");
                continue;
            };
            let id = serenity::ChannelId::new(id);
            match by_channel.iter_mut().find(|(c, _)| *c == id) {
                Some((_, replies)) => replies.push(reply),
                None => by_channel.push((id, vec![reply])),
            }
        }
        for (channel, replies) in by_channel {
            // A message for one player (a rest is over) goes to their DMs, or here if closed;
            // it says nothing about the channel's reaction prompts.
            let (direct, replies): (Vec<Reply>, Vec<Reply>) = replies
                .into_iter()
                .partition(|r| r.to_user.is_some() && prompt_window(&r.payload).is_none());
            for reply in direct {
                if !self.direct_message(&reply).await
                    && let Err(error) = self.http.send_message(channel, vec![], &reply.payload).await
                {
                    tracing::error!(%error, %channel, "could not post a timer's message");
                }
            }
            if replies.is_empty() {
                continue;
            }
            let still_open: Vec<u64> = replies.iter().filter_map(|r| prompt_window(&r.payload)).collect();
            self.close_prompts(channel, |p| !still_open.contains(&p.window)).await;
            for reply in replies {
                match self.http.send_message(channel, vec![], &reply.payload).await {
                    Ok(message) => {
                        if let Some(window) = prompt_window(&reply.payload) {
                            self.remember(channel, message.id, window);
                        }
                    }
                    Err(error) => tracing::error!(%error, %channel, "could not post a timer's message"),
                }
            }
        }
    }

    /// Sends `reply` to its player's DMs; `false` when they can't be reached that way.
    async fn direct_message(&self, reply: &Reply) -> bool {
        let Some(user) = reply.to_user.as_deref().and_then(|u| u.parse::<u64>().ok()) else {
            return false;
        };
        let Ok(dm) = self
            .http
            .create_private_channel(&json!({ "recipient_id": user.to_string() }))
            .await
        else {
            return false;
        };
        self.http.send_message(dm.id, vec![], &reply.payload).await.is_ok()
    }

    fn remember(&self, channel: serenity::ChannelId, message: serenity::MessageId, window: u64) {
        let mut prompts = self.prompts.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        prompts.entry(channel).or_default().push(Prompt { message, window });
    }

    /// Takes the buttons off the prompts in `channel` that `closed` picks, and forgets them.
    async fn close_prompts(&self, channel: serenity::ChannelId, closed: impl Fn(&Prompt) -> bool) {
        let done: Vec<Prompt> = {
            let mut prompts = self.prompts.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let Some(list) = prompts.get_mut(&channel) else {
                return;
            };
            let (done, open) = list.iter().partition(|p| closed(p));
            *list = open;
            done
        };
        for prompt in done {
            if let Err(error) = self
                .http
                .edit_message(channel, prompt.message, &no_buttons(), vec![])
                .await
            {
                tracing::warn!(%error, %channel, message = %prompt.message, "could not take a closed prompt's buttons away");
            }
        }
    }
}
