//! Sends the app's replies to Discord exactly as the renderer made them: each `MessagePayload`
//! is serialised as-is into the interaction response, follow-up or channel message, so what
//! `gogobee play --json` prints is byte for byte what Discord gets.
//!
//! Every interaction is acknowledged within Discord's 3 s: when the work is not done after
//! [`DEFER_AFTER`], the interaction is deferred and answered when it is. Reaction prompts
//! posted here are remembered per channel, so their buttons can be taken away once their
//! window closes (answered, or timed out). Prompts an earlier process posted are recalled from
//! the channel's recent history the first time a window closes there
//! ([`RECALL_LIMIT`] messages back), so a restarted bot takes their buttons away too.
//!
//! A message with files (`MessagePayload::attachments`: `/combat replay`'s referee log) goes as
//! Discord takes files: a multipart/form-data body with the JSON as `payload_json` and each
//! file as `files[<id>]` ([`files`]).
//!
//! What timers post to one channel is batched ([`batch`]): consecutive plain messages become
//! one (up to Discord's 10 embeds and 6,000 characters), and at most [`CHANNEL_BURST`]
//! messages go to a channel in [`CHANNEL_WINDOW`] ([`Outbox::pace`]) — Discord allows about 5
//! per 5 s per channel, and a fight whose players all left must not flood it.
//!
//! A running message (`Reply::running`: the tick timeline) is posted once per channel and key
//! and then edited in place: a command that advances the timeline by many ticks costs one
//! narration message and one edit, never a message per tick (Discord allows a bot about 50
//! requests per second in all). If the message cannot be edited (deleted), it is posted anew.

use std::collections::{HashMap, HashSet};
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

/// How many of a channel's latest messages are searched for prompts an earlier process left
/// on display (Discord's largest page). Older prompts keep their buttons; a press on one is
/// refused as stale.
pub const RECALL_LIMIT: u8 = 100;

/// At most this many timer messages go to one channel in [`CHANNEL_WINDOW`].
pub const CHANNEL_BURST: usize = 4;
/// See [`CHANNEL_BURST`].
pub const CHANNEL_WINDOW: Duration = Duration::from_secs(5);

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

/// The reaction window a prompt's buttons answer: the combat, and the window's token (the
/// combat's version when the prompt was rendered).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Window {
    combat: String,
    token: u64,
}

impl Window {
    fn of(button: &ReactionButton) -> Self {
        Self {
            combat: button.combat_id.clone(),
            token: button.version,
        }
    }
}

/// A reaction prompt on display: its message and the window its buttons answer.
#[derive(Debug, Clone)]
struct Prompt {
    message: serenity::MessageId,
    window: Window,
}

/// Posts replies and keeps track of the reaction prompts and running messages on display.
pub struct Outbox {
    pub http: Arc<serenity::Http>,
    prompts: Mutex<HashMap<serenity::ChannelId, Vec<Prompt>>>,
    /// Channels whose history has been searched for prompts posted before this process
    /// started; held while a search runs, so a channel is searched once.
    recalled: tokio::sync::Mutex<HashSet<serenity::ChannelId>>,
    /// The bot's own user, whose messages those prompts are (looked up once, when needed).
    me: tokio::sync::OnceCell<serenity::UserId>,
    /// The message each running key is shown in, by channel.
    running: Mutex<HashMap<(serenity::ChannelId, String), serenity::MessageId>>,
    /// When the latest timer messages went to each channel (see [`CHANNEL_BURST`]).
    sent: Mutex<HashMap<serenity::ChannelId, std::collections::VecDeque<tokio::time::Instant>>>,
}

/// Whether a reply may share a message with its neighbours: public, for no one in particular,
/// not a prompt (its buttons close on their own) and not a running message (edited in place).
fn mergeable(reply: &Reply) -> bool {
    reply.to_user.is_none()
        && reply.running.is_none()
        && !reply.is_ephemeral()
        && reply.payload.components.is_empty()
        && reply.payload.attachments.is_empty()
}

/// A channel's timer replies as few messages as Discord allows: each run of consecutive
/// mergeable replies becomes one message (their contents joined, their embeds in order, the
/// users each pings), while it stays within 10 embeds, 6,000 embed characters and 2,000
/// characters of content.
pub fn batch(replies: Vec<Reply>) -> Vec<Reply> {
    use render::payload::limits;
    let mut out: Vec<Reply> = Vec::new();
    let mut open = false;
    for reply in replies {
        if !mergeable(&reply) {
            out.push(reply);
            open = false;
            continue;
        }
        if open && let Some(last) = out.last_mut() {
            let (a, b) = (&last.payload, &reply.payload);
            let content = [a.content.as_deref(), b.content.as_deref()]
                .into_iter()
                .flatten()
                .filter(|c| !c.is_empty())
                .collect::<Vec<_>>()
                .join("\n");
            let chars = |p: &MessagePayload| p.embeds.iter().map(render::Embed::char_count).sum::<usize>();
            if a.embeds.len() + b.embeds.len() <= limits::EMBEDS
                && chars(a) + chars(b) <= limits::EMBED_TOTAL
                && content.chars().count() <= limits::CONTENT
            {
                let users: Vec<String> = [&a.allowed_mentions, &b.allowed_mentions]
                    .into_iter()
                    .flatten()
                    .flat_map(|m| m.users.iter().cloned())
                    .collect();
                let payload = &mut last.payload;
                payload.content = (!content.is_empty()).then_some(content);
                payload.embeds.extend(reply.payload.embeds);
                payload.allowed_mentions = Some(render::AllowedMentions::users(users));
                continue;
            }
        }
        out.push(reply);
        open = true;
    }
    out
}

/// The window a prompt's buttons answer, if the payload is a reaction prompt.
fn prompt_window(payload: &MessagePayload) -> Option<Window> {
    payload
        .components
        .iter()
        .flat_map(|row| &row.components)
        .filter(|b| !b.disabled)
        .find_map(|b| ReactionButton::parse(&b.custom_id))
        .map(|b| Window::of(&b))
}

/// The window a message's enabled buttons answer, if it is a reaction prompt still on display.
fn message_window(message: &serenity::Message) -> Option<Window> {
    message
        .components
        .iter()
        .flat_map(|row| &row.components)
        .find_map(|component| match component {
            serenity::ActionRowComponent::Button(serenity::Button {
                data: serenity::ButtonKind::NonLink { custom_id, .. },
                disabled: false,
                ..
            }) => ReactionButton::parse(custom_id),
            _ => None,
        })
        .map(|b| Window::of(&b))
}

/// The files a payload sends, for serenity's multipart body (`files[<id>]` beside
/// `payload_json`). serenity numbers raw uploads `files[0]`: one file per message, which is
/// all the game sends (a render test keeps attachment ids equal to their indexes).
fn files(payload: &MessagePayload) -> Vec<serenity::CreateAttachment> {
    if payload.attachments.len() > 1 {
        tracing::warn!(
            files = payload.attachments.len(),
            "a message with several files: only the first is sent"
        );
    }
    payload
        .attachments
        .iter()
        .take(1)
        .map(|a| {
            let mut file = serenity::CreateAttachment::bytes(a.content.as_slice(), a.filename.as_str());
            file.description.clone_from(&a.description);
            file
        })
        .collect()
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
            recalled: tokio::sync::Mutex::new(HashSet::new()),
            me: tokio::sync::OnceCell::new(),
            running: Mutex::new(HashMap::new()),
            sent: Mutex::new(HashMap::new()),
        }
    }

    /// Waits, if need be, until another timer message may go to `channel` (at most
    /// [`CHANNEL_BURST`] in any [`CHANNEL_WINDOW`]), and counts it.
    async fn pace(&self, channel: serenity::ChannelId) {
        let wait = {
            let mut sent = self.sent.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let times = sent.entry(channel).or_default();
            let now = tokio::time::Instant::now();
            while times.front().is_some_and(|t| now.duration_since(*t) >= CHANNEL_WINDOW) {
                times.pop_front();
            }
            let at = if times.len() >= CHANNEL_BURST {
                times[times.len() - CHANNEL_BURST] + CHANNEL_WINDOW
            } else {
                now
            };
            times.push_back(at);
            at
        };
        tokio::time::sleep_until(wait).await;
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
            running: None,
            picture: None,
        });
        // The first reply answers the interaction: a new message, even for a running one (which
        // then lives there: `/combat status` brings the timeline down to the latest message).
        if deferred {
            // The "thinking…" message is public; a private first reply replaces it privately.
            if first.is_ephemeral() {
                self.http.delete_original_interaction_response(on.token).await?;
            }
            let message = self.follow_up(on, &first.payload).await?;
            self.remember_running(on.channel, &first, message);
        } else {
            let body = json!({ "type": MESSAGE, "data": first.payload });
            self.http
                .create_interaction_response(on.id, on.token, &body, files(&first.payload))
                .await?;
            super::acknowledged(acknowledged);
            let window = prompt_window(&first.payload);
            if window.is_some() || first.running.is_some() {
                let message = self.http.get_original_interaction_response(on.token).await?;
                if let Some(window) = window {
                    self.remember(on.channel, message.id, window);
                }
                self.remember_running(on.channel, &first, message.id);
            }
        }
        for reply in replies {
            self.deliver(on, &reply).await?;
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
            // Other copies of the same prompt (e.g. reposted by /combat status) close too; the
            // pressed one has just lost its buttons.
            let window = Window::of(button);
            self.close_prompts(on.channel, |p| p.window == window && Some(p.message) != on.source)
                .await;
            if let Some(source) = on.source {
                self.forget(on.channel, source);
            }
        }
        for reply in rest {
            self.deliver(on, reply).await?;
        }
        Ok(())
    }

    /// Sends a reply after the interaction's response: a running message known in this channel
    /// is edited in place; anything else is a follow-up.
    async fn deliver(&self, on: &Interaction<'_>, reply: &Reply) -> Result<()> {
        if self.edit_running(on.channel, reply).await {
            return Ok(());
        }
        let message = self.follow_up(on, &reply.payload).await?;
        self.remember_running(on.channel, reply, message);
        Ok(())
    }

    async fn follow_up(&self, on: &Interaction<'_>, payload: &MessagePayload) -> Result<serenity::MessageId> {
        let message = self
            .http
            .create_followup_message(on.token, payload, files(payload))
            .await?;
        if let Some(window) = prompt_window(payload) {
            self.remember(on.channel, message.id, window);
        }
        Ok(message.id)
    }

    /// Edits the message `reply` keeps up to date, if it is running and one is on display in
    /// `channel`; `false` when there is none or the edit failed (it is forgotten then).
    async fn edit_running(&self, channel: serenity::ChannelId, reply: &Reply) -> bool {
        let Some(key) = &reply.running else {
            return false;
        };
        let shown = {
            let running = self.running.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            running.get(&(channel, key.clone())).copied()
        };
        let Some(message) = shown else {
            return false;
        };
        match self.http.edit_message(channel, message, &reply.payload, vec![]).await {
            Ok(_) => true,
            Err(error) => {
                tracing::warn!(%error, %channel, %message, key, "could not edit a running message; posting it anew");
                let mut running = self.running.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                running.remove(&(channel, key.clone()));
                false
            }
        }
    }

    /// Remembers `message` as where `reply`'s running key is shown in `channel`. A channel has
    /// one fight at a time: another key's message there (an earlier fight's) is forgotten.
    fn remember_running(&self, channel: serenity::ChannelId, reply: &Reply, message: serenity::MessageId) {
        if let Some(key) = &reply.running {
            let mut running = self.running.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            running.retain(|(shown_in, _), _| *shown_in != channel);
            running.insert((channel, key.clone()), message);
        }
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
            tracing::info!(%channel, messages = replies.len(), "posting what timers did");
            // A message for one player (a rest is over) goes to their DMs, or here if closed;
            // it says nothing about the channel's reaction prompts.
            let (direct, replies): (Vec<Reply>, Vec<Reply>) = replies
                .into_iter()
                .partition(|r| r.to_user.is_some() && prompt_window(&r.payload).is_none());
            for reply in direct {
                if !self.direct_message(&reply).await
                    && let Err(error) = self
                        .http
                        .send_message(channel, files(&reply.payload), &reply.payload)
                        .await
                {
                    tracing::error!(%error, %channel, "could not post a timer's message");
                }
            }
            if replies.is_empty() {
                continue;
            }
            let still_open: Vec<Window> = replies.iter().filter_map(|r| prompt_window(&r.payload)).collect();
            self.close_prompts(channel, |p| !still_open.contains(&p.window)).await;
            for reply in batch(replies) {
                self.pace(channel).await;
                if self.edit_running(channel, &reply).await {
                    continue;
                }
                match self
                    .http
                    .send_message(channel, files(&reply.payload), &reply.payload)
                    .await
                {
                    Ok(message) => {
                        if let Some(window) = prompt_window(&reply.payload) {
                            self.remember(channel, message.id, window);
                        }
                        self.remember_running(channel, &reply, message.id);
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
        self.http
            .send_message(dm.id, files(&reply.payload), &reply.payload)
            .await
            .is_ok()
    }

    fn remember(&self, channel: serenity::ChannelId, message: serenity::MessageId, window: Window) {
        let mut prompts = self.prompts.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        prompts.entry(channel).or_default().push(Prompt { message, window });
    }

    fn forget(&self, channel: serenity::ChannelId, message: serenity::MessageId) {
        let mut prompts = self.prompts.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(list) = prompts.get_mut(&channel) {
            list.retain(|p| p.message != message);
        }
    }

    /// Remembers the prompts still on display in `channel` that an earlier process posted (so
    /// this one never did): the bot's messages among the channel's latest [`RECALL_LIMIT`] whose
    /// buttons answer a reaction window. Searches each channel once; a failed search is retried
    /// at the next window that closes there.
    async fn recall(&self, channel: serenity::ChannelId) {
        let mut recalled = self.recalled.lock().await;
        if recalled.contains(&channel) {
            return;
        }
        let found = async {
            let me = self
                .me
                .get_or_try_init(|| async { self.http.get_current_user().await.map(|me| me.id) })
                .await?;
            let history = self.http.get_messages(channel, None, Some(RECALL_LIMIT)).await?;
            Ok::<_, serenity::Error>((*me, history))
        };
        let (me, history) = match found.await {
            Ok(found) => found,
            Err(error) => {
                tracing::warn!(%error, %channel, "could not look for earlier reaction prompts");
                return;
            }
        };
        recalled.insert(channel);
        let mut prompts = self.prompts.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let list = prompts.entry(channel).or_default();
        for message in history.iter().filter(|m| m.author.id == me) {
            if let Some(window) = message_window(message)
                && !list.iter().any(|p| p.message == message.id)
            {
                list.push(Prompt {
                    message: message.id,
                    window,
                });
            }
        }
    }

    /// Takes the buttons off the prompts in `channel` that `closed` picks (earlier processes'
    /// included), and forgets them.
    async fn close_prompts(&self, channel: serenity::ChannelId, closed: impl Fn(&Prompt) -> bool) {
        self.recall(channel).await;
        let done: Vec<Prompt> = {
            let mut prompts = self.prompts.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let Some(list) = prompts.get_mut(&channel) else {
                return;
            };
            let (done, open) = std::mem::take(list).into_iter().partition(|p| closed(p));
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

#[cfg(test)]
mod tests {
    use super::*;

    fn line(title: &str) -> Reply {
        Reply {
            payload: render::info(title, "something happened"),
            to_user: None,
            running: None,
            picture: None,
        }
    }

    #[test]
    fn a_channels_timer_messages_are_batched_within_discords_limits() {
        // Thirteen narrations in a row: two messages (10 embeds, then 3).
        let many: Vec<Reply> = (0..13).map(|i| line(&format!("line {i}"))).collect();
        let sent = batch(many);
        assert_eq!(sent.len(), 2);
        assert_eq!(sent[0].payload.embeds.len(), 10);
        assert_eq!(sent[1].payload.embeds.len(), 3);
        assert!(sent.iter().all(|r| r.payload.limit_violations().is_empty()));
        // A prompt is a message of its own, and keeps the order.
        let mut prompt = line("prompt");
        prompt.payload.components = vec![render::ActionRow::new(vec![render::Button::new(
            render::ButtonStyle::Primary,
            "Pass",
            "x".into(),
        )])];
        let sent = batch(vec![line("a"), line("b"), prompt.clone(), line("c")]);
        let titles: Vec<usize> = sent.iter().map(|r| r.payload.embeds.len()).collect();
        assert_eq!(titles, [2, 1, 1]);
        assert_eq!(sent[1], prompt);
        // Pings survive the merge.
        let mut ping = line("your turn");
        ping.payload.content = Some("<@7> your turn".into());
        ping.payload.allowed_mentions = Some(render::AllowedMentions::users(["7".to_owned()]));
        let sent = batch(vec![line("a"), ping]);
        assert_eq!(sent.len(), 1);
        assert_eq!(sent[0].payload.content.as_deref(), Some("<@7> your turn"));
        assert_eq!(sent[0].payload.allowed_mentions.as_ref().unwrap().users, ["7"]);
    }

    #[tokio::test(start_paused = true)]
    async fn at_most_a_burst_of_timer_messages_per_channel_window() {
        let outbox = Outbox::new(Arc::new(serenity::Http::new("token")));
        let channel = serenity::ChannelId::new(5);
        let start = tokio::time::Instant::now();
        let mut at = Vec::new();
        for _ in 0..10 {
            outbox.pace(channel).await;
            at.push(start.elapsed());
        }
        // In any five seconds, at most CHANNEL_BURST messages.
        for (i, t) in at.iter().enumerate() {
            let within = at[i..].iter().filter(|u| **u < *t + CHANNEL_WINDOW).count();
            assert!(within <= CHANNEL_BURST, "{at:?}");
        }
        assert_eq!(at[CHANNEL_BURST], CHANNEL_WINDOW, "{at:?}");
        // Another channel is not held up.
        let before = tokio::time::Instant::now();
        outbox.pace(serenity::ChannelId::new(6)).await;
        assert_eq!(before.elapsed(), Duration::ZERO);
    }
}
