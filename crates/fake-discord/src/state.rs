//! What the fake knows, behind one lock held briefly: users, guilds, commands, interactions,
//! messages, requests and gateway sessions.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use serde_json::Value;
use tokio::sync::{Notify, mpsc};

use crate::ids::{ChannelId, GuildId, InteractionId, MessageId, SnowflakeGen, UserId};
use crate::openapi::Spec;
use crate::world::{FakeChannel, FakeGuild, FakeUser};
use crate::{Callback, Config, RecordedRequest, gateway};

/// A message stored by the fake, in creation order.
#[derive(Clone, Debug)]
pub(crate) struct StoredMessage {
    pub id: MessageId,
    pub channel: ChannelId,
    pub value: Value,
}

/// What the fake remembers about an interaction it dispatched.
#[derive(Debug)]
pub(crate) struct InteractionRecord {
    pub id: InteractionId,
    pub token: String,
    /// 2 command, 3 component, 4 autocomplete.
    pub kind: u8,
    pub user: UserId,
    pub channel: ChannelId,
    pub payload: Value,
    /// When the `INTERACTION_CREATE` frame went out (updated once it was written).
    pub dispatched_at: Instant,
    pub callbacks: Vec<Callback>,
    /// Set once a callback was accepted.
    pub acknowledged: bool,
    /// The message the interaction's response created or, for components, the message the
    /// button was on (what `@original` means).
    pub original: Option<MessageId>,
    /// The command's name, for `interaction_metadata`.
    pub name: Option<String>,
    /// The shard (`[id, count]`) of the session it was dispatched on.
    pub shard: [u32; 2],
}

/// A gateway session (survives a reconnect when the bot RESUMEs).
#[derive(Debug)]
pub(crate) struct Session {
    pub id: String,
    pub seq: u64,
    pub intents: u64,
    pub sender: Option<mpsc::UnboundedSender<gateway::Outbound>>,
    /// Recent dispatches, for RESUME.
    pub replay: VecDeque<Value>,
    /// `[shard_id, shard_count]` from IDENTIFY (`[0, 1]` when the bot did not shard).
    pub shard: [u32; 2],
}

impl Session {
    /// Whether this session's shard receives `guild`'s events (`None`: a DM, on shard 0).
    pub(crate) fn owns(&self, guild: Option<GuildId>) -> bool {
        let [id, count] = self.shard;
        guild.map_or(0, |g| crate::shard_of(g, count)) == id
    }

    fn live(&self) -> bool {
        self.sender.as_ref().is_some_and(|tx| !tx.is_closed())
    }
}

/// A registered application command, as the fake answers it.
#[derive(Clone, Debug)]
pub(crate) struct StoredCommand {
    pub guild: Option<GuildId>,
    pub value: Value,
}

/// Everything the fake knows; one lock, held briefly.
pub(crate) struct State {
    pub ids: SnowflakeGen,
    pub users: Vec<FakeUser>,
    pub guilds: Vec<FakeGuild>,
    pub dm_channels: Vec<FakeChannel>,
    pub commands: Vec<StoredCommand>,
    pub interactions: Vec<InteractionRecord>,
    pub messages: Vec<StoredMessage>,
    pub requests: Vec<RecordedRequest>,
    pub sessions: Vec<Session>,
    /// Every frame the bot sent on the gateway, in order.
    pub gateway_received: Vec<Value>,
    /// Guilds the bot was removed from (kicked, banned, or the guild deleted): their channels
    /// answer 403 Missing Access (50001).
    pub removed_from: Vec<GuildId>,
    /// The files of the request being routed (`files[N]` parts of a multipart body).
    pub uploads: Vec<crate::rest::Upload>,
    /// Every file sent as an attachment, by its URL.
    pub files: std::collections::HashMap<String, Vec<u8>>,
    /// Files users have uploaded for an attachment option ([`crate::FakeDiscord::upload`]), by
    /// attachment id: the attachment object a command's `resolved.attachments` carries.
    pub user_files: std::collections::HashMap<String, serde_json::Value>,
    /// Commands a guild lets every member use whatever their `default_member_permissions`
    /// (Server Settings → Integrations), by guild and name.
    pub opened: Vec<(GuildId, String)>,
}

impl State {
    pub(crate) fn user(&self, id: UserId) -> Option<&FakeUser> {
        self.users.iter().find(|u| u.id == id)
    }

    /// Whether the bot may no longer reach `channel` (its guild removed the bot).
    pub(crate) fn locked_out(&self, channel: ChannelId) -> bool {
        self.guilds
            .iter()
            .any(|g| self.removed_from.contains(&g.id) && g.channels.iter().any(|c| c.id == channel))
    }

    pub(crate) fn guild(&self, id: GuildId) -> Option<&FakeGuild> {
        self.guilds.iter().find(|g| g.id == id)
    }

    pub(crate) fn channel(&self, id: ChannelId) -> Option<&FakeChannel> {
        self.guilds
            .iter()
            .flat_map(|g| &g.channels)
            .chain(&self.dm_channels)
            .find(|c| c.id == id)
    }

    pub(crate) fn message_mut(&mut self, id: MessageId) -> Option<&mut StoredMessage> {
        self.messages.iter_mut().find(|m| m.id == id)
    }

    pub(crate) fn interaction_mut(&mut self, id: InteractionId) -> Option<&mut InteractionRecord> {
        self.interactions.iter_mut().find(|i| i.id == id)
    }

    /// The session the bot is connected on now (the newest, whatever its shard), if any.
    pub(crate) fn live_session(&mut self) -> Option<&mut Session> {
        self.sessions.iter_mut().rev().find(|s| s.live())
    }

    /// The newest connected session whose shard owns `guild` (`None`: DMs, shard 0).
    pub(crate) fn live_session_for(&mut self, guild: Option<GuildId>) -> Option<&mut Session> {
        self.sessions.iter_mut().rev().find(|s| s.live() && s.owns(guild))
    }

    /// Sends a dispatch (op 0) about `guild` on the live session of the shard that owns it,
    /// with that session's next sequence number.
    pub(crate) fn dispatch_to(
        &mut self,
        guild: Option<GuildId>,
        t: &str,
        d: Value,
        interaction: Option<InteractionId>,
    ) -> bool {
        let Some(session) = self.live_session_for(guild) else {
            return false;
        };
        gateway::send_dispatch(session, t, d, interaction)
    }
}

pub(crate) struct Shared {
    pub config: Config,
    pub bot: FakeUser,
    pub app_owner: UserId,
    pub started: Instant,
    pub spec: Arc<Spec>,
    pub rest_url: String,
    pub gateway_url: String,
    pub state: Mutex<State>,
    /// Woken on every change, for the `wait_for_*` calls.
    pub changed: Notify,
}

impl Shared {
    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
