//! A fake Discord on loopback, for GogoBee's end-to-end tests.
//!
//! [`FakeDiscord::start`] binds two ephemeral ports on 127.0.0.1: a REST server over `http://`
//! (what serenity 0.12 and poise 0.7 call: gateway lookup, application info, command
//! registration, interaction callbacks, follow-ups, message edits, channel messages, DM
//! channels; anything else is recorded and answered 404) and a gateway over `ws://` (HELLO,
//! IDENTIFY → READY + `GUILD_CREATE`, heartbeats and ACKs, sequenced dispatches, RESUME).
//!
//! Sharding as Discord does it: `/gateway/bot` recommends [`Config::shards`]; a bot (or each
//! of several bot processes) IDENTIFYs with `shard: [id, count]`, and a guild's events —
//! `GUILD_CREATE`, its interactions, its messages — go only to the connected session of the
//! shard that owns it, `(guild_id >> 22) % count` ([`shard_of`]; DMs on shard 0).
//! [`FakeDiscord::add_guild_on_shard`] places a guild on a given shard;
//! [`FakeDiscord::interaction_shard`] says which shard an interaction went to.
//!
//! Tests drive it as Discord would — [`FakeDiscord::send_slash_command`],
//! [`FakeDiscord::press_button`], [`FakeDiscord::autocomplete`] — and read back what the bot
//! did: [`FakeDiscord::wait_for_callback`] (with the latency from dispatch to callback),
//! [`FakeDiscord::requests`], [`FakeDiscord::messages_in`]. Every JSON body the bot sends is
//! checked against Discord's official OpenAPI spec ([`FakeDiscord::validation_errors`]). The
//! spec is never copied into the repository: [`spec_path`] finds it (`DISCORD_OPENAPI_SPEC`, else
//! `../shared/discord-api-spec/openapi.json` beside the clone, else the cache `scripts/test`
//! downloads the pinned version into), and without it the fake does not start
//! ([`StartError::SpecMissing`], saying how to get it): bodies are always checked.
//!
//! Point serenity at it with
//! `HttpBuilder::new(fake.token()).proxy(fake.rest_url()).ratelimiter_disabled(true)` (serenity
//! ignores the proxy while its ratelimiter is on); the gateway URL then comes from `/gateway`.
//! Everything stops when the handle is dropped.
//!
//! ```no_run
//! use std::time::Duration;
//!
//! use fake_discord::FakeDiscord;
//! use serde_json::json;
//!
//! # async fn example() -> Result<(), fake_discord::DriverError> {
//! let fake = FakeDiscord::start().await;
//! // Start the bot here with DISCORD_API_BASE = fake.rest_url() and DISCORD_TOKEN = fake.token().
//! let wait = Duration::from_secs(10);
//! fake.wait_for_ready(wait).await?;
//! let (guild, channel, alice) = (fake.guild(), fake.channel(), fake.user("alice"));
//! fake.wait_for_commands(Some(guild), wait).await?;
//!
//! let id = fake.send_slash_command(alice, guild, channel, "character", &["create"], &json!({"name": "Aria"}))?;
//! let callback = fake.wait_for_callback(id, wait).await?;
//! assert_eq!(callback.status, 204, "acknowledged within 3 s with a valid body");
//! println!("answered in {:?}: {}", callback.latency, callback.body);
//! assert!(fake.validation_errors().is_empty());
//! # Ok(())
//! # }
//! ```
//!
//! Where the fake is stricter or looser than the spec, it follows Discord: integers written as
//! decimal strings are accepted (`default_member_permissions: "32"`, as serenity sends it);
//! bot message `content` is capped at 2000 characters and a message's embeds at 6000 in all
//! (the spec says 4000 and checks no total); empty messages are refused (50006); a second
//! callback to one interaction is refused (40060), as is one after the 3-second deadline
//! (10062); a multipart body carries its JSON in a `payload_json` part (Discord also takes
//! plain form fields; serenity never sends them); and a body that breaks the schema is answered
//! 400 "Invalid Form Body" (50035) unless [`Config::reject_invalid_bodies`] is off.

// `json!` objects as big as a GUILD_CREATE need a deeper macro recursion.
#![recursion_limit = "256"]

mod gateway;
mod ids;
mod interactions;
mod limits;
mod openapi;
mod rest;
mod spec_file;
mod state;
mod world;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::net::TcpListener;
use tokio::sync::{Notify, watch};

pub use ids::{ApplicationId, ChannelId, CommandId, GuildId, InteractionId, MessageId, UserId};
pub use openapi::BodyCheck;
pub use spec_file::{PinnedSpec, SPEC_ENV, SpecMissing, pinned_spec, spec_beside_clone, spec_cache_file, spec_path};
pub use world::{FakeChannel, FakeGuild, FakeUser, Role, permissions};

use ids::SnowflakeGen;
pub(crate) use state::{InteractionRecord, Session, Shared, State, StoredCommand, StoredMessage};

/// How the fake behaves; [`Config::default`] is what real Discord does.
#[derive(Clone, Debug)]
pub struct Config {
    /// The bot token the fake accepts (REST `Authorization: Bot …` and gateway IDENTIFY).
    pub token: String,
    /// The bot's application id (also its user id, as for bots created since 2020).
    pub application_id: ApplicationId,
    /// The bot's username.
    pub bot_name: String,
    /// Sent in HELLO. Discord's is 41.25 s.
    pub heartbeat_interval: Duration,
    /// How long the bot has to send an interaction callback; later ones are refused with
    /// "Unknown interaction" (10062), as Discord does after 3 s.
    pub callback_deadline: Duration,
    /// Answer a body that breaks the OpenAPI schema with 400 "Invalid Form Body" (50035), as
    /// Discord would, instead of carrying it out. Either way it is in `validation_errors()`.
    pub reject_invalid_bodies: bool,
    /// Discord's OpenAPI spec; `None` is wherever [`spec_path`] finds it.
    pub spec_path: Option<PathBuf>,
    /// The shard count `GET /gateway/bot` recommends (what an autosharding bot starts). Bots
    /// may IDENTIFY with any `[id, count]`; each session gets the guilds its shard owns.
    pub shards: u32,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            token: "ZmFrZS1nb2dvYmVl.fake-discord.token".into(),
            application_id: ApplicationId(1_300_000_000_000_000_001),
            bot_name: "GogoBee".into(),
            heartbeat_interval: Duration::from_millis(41_250),
            callback_deadline: Duration::from_secs(3),
            reject_invalid_bodies: true,
            spec_path: None,
            shards: 1,
        }
    }
}

/// Why the fake could not start. Its `Debug` is its message, so an `unwrap` shows how to mend it.
#[derive(thiserror::Error)]
pub enum StartError {
    /// No ephemeral port on 127.0.0.1.
    #[error("binding 127.0.0.1 on an ephemeral port: {0}")]
    Bind(#[from] std::io::Error),
    /// Discord's OpenAPI spec is not there; the message says how to get it.
    #[error("{0}")]
    SpecMissing(#[from] SpecMissing),
    /// The spec's file is there but is not a spec (unreadable, not JSON, no `paths`).
    #[error("Discord's OpenAPI spec at {path} could not be read: {why}")]
    SpecUnreadable {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
}

impl std::fmt::Debug for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

/// Why a driver call could not do what a Discord client would have done.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DriverError {
    /// No bot is connected and identified on the gateway (on the shard that owns the guild),
    /// so there is no one to dispatch to.
    #[error("no gateway session is identified (for that guild's shard): start the bot (and wait_for_ready) first")]
    NoGatewaySession,
    /// The command is not registered (globally or in that guild): no Discord client offers it.
    #[error("the bot registered no command `/{0}` for this guild")]
    UnknownCommand(String),
    /// The subcommand path or an option name is not part of the registered command.
    #[error("`{0}` is not part of the registered command")]
    UnknownOption(String),
    /// A required option was left out; Discord's client does not let a user send that.
    #[error("the required option `{0}` is missing")]
    MissingOption(String),
    /// An option value does not fit the option's type or choices.
    #[error("option `{name}`: {problem}")]
    BadOptionValue {
        /// The option.
        name: String,
        /// What is wrong with the value.
        problem: String,
    },
    /// The command's `default_member_permissions` exclude this user, so Discord hides it.
    #[error("user {user} lacks the permissions /{command} requires")]
    NotPermitted {
        /// The command's name.
        command: String,
        /// The user.
        user: UserId,
    },
    /// The command's `contexts` leave out where it was typed (1: the bot's DMs, 0: a
    /// server), so Discord's client does not offer it there.
    #[error("/{command} is not offered in interaction context {context}")]
    NotInContext {
        /// The command's name.
        command: String,
        /// The context it was typed in.
        context: u64,
    },
    /// No user, guild, channel or message with that id or name.
    #[error("unknown {0}")]
    Unknown(String),
    /// The message has no enabled component with that custom id.
    #[error("message {message} has no enabled component `{custom_id}`")]
    NoSuchComponent {
        /// The message.
        message: MessageId,
        /// The custom id looked for.
        custom_id: String,
    },
    /// Nothing happened within the time allowed.
    #[error("timed out waiting for {0}")]
    Timeout(String),
}

/// One HTTP request the bot made to the fake.
#[derive(Clone, Debug)]
pub struct RecordedRequest {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The full path, e.g. `/api/v10/channels/1/messages`.
    pub path: String,
    /// The query string, if any.
    pub query: Option<String>,
    /// The JSON body (for multipart requests, the `payload_json` part).
    pub body: Option<Value>,
    /// When it arrived, measured from the fake's start.
    pub at: Duration,
    /// The status the fake answered with.
    pub status: u16,
    /// What the OpenAPI check found.
    pub check: BodyCheck,
}

/// A request body that broke Discord's OpenAPI schema.
#[derive(Clone, Debug)]
pub struct ValidationFailure {
    /// `POST`, `PATCH`, ...
    pub method: String,
    /// The full request path.
    pub path: String,
    /// The spec's `operationId`, or `None` when no operation matches.
    pub operation: Option<String>,
    /// One line per violation.
    pub errors: Vec<String>,
    /// The offending body.
    pub body: Value,
}

/// The bot's answer to an interaction.
#[derive(Clone, Debug)]
pub struct Callback {
    /// The interaction answered.
    pub interaction: InteractionId,
    /// The callback body (`{"type": 4, "data": {...}}`).
    pub body: Value,
    /// From the moment the `INTERACTION_CREATE` frame was written to the socket to the moment
    /// the callback request arrived.
    pub latency: Duration,
    /// What the fake answered: 204 when accepted; 404 when later than the deadline; 400 for an
    /// invalid body or a second acknowledgement.
    pub status: u16,
}

/// The shard Discord puts a guild on with `shard_count` shards: `(guild_id >> 22) % shard_count`.
pub fn shard_of(guild: GuildId, shard_count: u32) -> u32 {
    u32::try_from((guild.0 >> 22) % u64::from(shard_count.max(1))).unwrap_or(0)
}

/// A running fake Discord. Dropping it stops both servers and closes the bot's connections.
pub struct FakeDiscord {
    shared: Arc<Shared>,
    rest_addr: SocketAddr,
    gateway_addr: SocketAddr,
    /// Dropping the sender tells every task to stop.
    shutdown: watch::Sender<()>,
}

impl FakeDiscord {
    /// Starts a fake with [`Config::default`] and the default world: guild "GogoBee Test"
    /// (channels `#combat` and `#tavern`) owned by `owner`, with members `alice`, `bob` and
    /// `carol`, and the bot.
    ///
    /// # Panics
    /// When it cannot start, with the reason (for a missing spec, how to get it).
    pub async fn start() -> Self {
        Self::start_with(Config::default())
            .await
            .unwrap_or_else(|e| panic!("the fake Discord did not start: {e}"))
    }

    /// Starts a fake with the given configuration and the default world; without Discord's
    /// OpenAPI spec it does not start.
    pub async fn start_with(config: Config) -> Result<Self, StartError> {
        let spec_path = match &config.spec_path {
            Some(path) => path.clone(),
            None => spec_path()?,
        };
        let spec = openapi::spec(&spec_path)?;
        let rest_listener = TcpListener::bind(("127.0.0.1", 0)).await?;
        let gateway_listener = TcpListener::bind(("127.0.0.1", 0)).await?;
        let rest_addr = rest_listener.local_addr()?;
        let gateway_addr = gateway_listener.local_addr()?;

        let mut ids = SnowflakeGen::new();
        let bot = FakeUser {
            id: UserId(config.application_id.0),
            username: config.bot_name.clone(),
            role: Role::Member,
            bot: true,
        };
        let mut users = vec![bot.clone()];
        for (name, role) in [
            ("owner", Role::Member),
            ("alice", Role::Member),
            ("bob", Role::Member),
            ("carol", Role::Member),
        ] {
            users.push(FakeUser {
                id: UserId(ids.next()),
                username: name.into(),
                role,
                bot: false,
            });
        }
        let owner = users[1].id;
        let guild_id = GuildId(ids.next());
        let channels = ["combat", "tavern"]
            .into_iter()
            .map(|name| FakeChannel {
                id: ChannelId(ids.next()),
                name: name.into(),
                guild: Some(guild_id),
                recipient: None,
            })
            .collect();
        let guild = FakeGuild {
            id: guild_id,
            name: "GogoBee Test".into(),
            owner,
            channels,
        };

        let shared = Arc::new(Shared {
            config,
            bot,
            app_owner: owner,
            started: Instant::now(),
            spec,
            rest_url: format!("http://{rest_addr}"),
            gateway_url: format!("ws://{gateway_addr}"),
            state: Mutex::new(State {
                ids,
                users,
                guilds: vec![guild],
                dm_channels: Vec::new(),
                commands: Vec::new(),
                interactions: Vec::new(),
                messages: Vec::new(),
                requests: Vec::new(),
                sessions: Vec::new(),
                gateway_received: Vec::new(),
                removed_from: Vec::new(),
                uploads: Vec::new(),
                files: std::collections::HashMap::new(),
                user_files: std::collections::HashMap::new(),
                opened: Vec::new(),
            }),
            changed: Notify::new(),
        });

        let (shutdown, stopped) = watch::channel(());
        rest::spawn(Arc::clone(&shared), rest_listener, stopped.clone());
        gateway::spawn(Arc::clone(&shared), gateway_listener, stopped);
        Ok(Self {
            shared,
            rest_addr,
            gateway_addr,
            shutdown,
        })
    }

    /// The REST base to give serenity's `HttpBuilder::proxy`: `http://127.0.0.1:PORT` (serenity
    /// replaces `https://discord.com` with it, so requests arrive at `/api/v10/...`).
    pub fn rest_url(&self) -> &str {
        &self.shared.rest_url
    }

    /// The gateway URL (`ws://127.0.0.1:PORT`), also what `/gateway` and `/gateway/bot` answer.
    pub fn gateway_url(&self) -> &str {
        &self.shared.gateway_url
    }

    /// The REST server's address.
    pub fn rest_addr(&self) -> SocketAddr {
        self.rest_addr
    }

    /// The gateway's address.
    pub fn gateway_addr(&self) -> SocketAddr {
        self.gateway_addr
    }

    /// The bot token the fake accepts.
    pub fn token(&self) -> &str {
        &self.shared.config.token
    }

    /// The bot's application id.
    pub fn application_id(&self) -> ApplicationId {
        self.shared.config.application_id
    }

    /// The bot's user id.
    pub fn bot_user(&self) -> UserId {
        self.shared.bot.id
    }

    /// The default guild.
    pub fn guild(&self) -> GuildId {
        self.shared.lock().guilds[0].id
    }

    /// The default guild's first channel (`#combat`).
    pub fn channel(&self) -> ChannelId {
        self.shared.lock().guilds[0].channels[0].id
    }

    /// A channel of a guild by name (`"tavern"`).
    pub fn channel_named(&self, guild: GuildId, name: &str) -> Option<ChannelId> {
        let state = self.shared.lock();
        state
            .guild(guild)?
            .channels
            .iter()
            .find(|c| c.name == name)
            .map(|c| c.id)
    }

    /// A user by username (`"owner"`, `"alice"`, `"bob"`, `"carol"`, or one added since).
    ///
    /// # Panics
    /// When there is no such user: a typo in a test.
    pub fn user(&self, name: &str) -> UserId {
        let state = self.shared.lock();
        state.users.iter().find(|u| u.username == name).map_or_else(
            || {
                let known: Vec<&str> = state.users.iter().map(|u| u.username.as_str()).collect();
                panic!("fake-discord has no user `{name}` (known: {known:?})")
            },
            |u| u.id,
        )
    }

    /// A file a user uploads for a command's attachment option (type 11), as Discord's client
    /// does before it sends the command: returns the attachment's id, to give as that option's
    /// value. The file is served at the attachment's `url` on the REST address (Discord's CDN
    /// here), so the bot's `Attachment::download` fetches these bytes.
    pub fn upload(&self, filename: &str, bytes: &[u8]) -> String {
        self.upload_as(filename, bytes, bytes.len(), Some("text/plain; charset=utf-8"))
    }

    /// [`FakeDiscord::upload`] with the size and content type the attachment declares given
    /// apart from the bytes served (a file larger than Discord said, an image, no type at all).
    pub fn upload_as(&self, filename: &str, bytes: &[u8], size: usize, content_type: Option<&str>) -> String {
        let mut state = self.shared.lock();
        let id = state.ids.next().to_string();
        let url = format!("{}{}{id}/{filename}", self.shared.rest_url, rest::ATTACHMENTS);
        let mut attachment = serde_json::json!({
            "id": id,
            "filename": filename,
            "size": size,
            "url": url,
            "proxy_url": url,
            "ephemeral": true,
        });
        if let Some(kind) = content_type {
            attachment["content_type"] = kind.into();
        }
        state.files.insert(url, bytes.to_vec());
        state.user_files.insert(id.clone(), attachment);
        id
    }

    /// The guild's owner lets every member use `/name` whatever the permissions the bot asked
    /// for it (Discord's Server Settings → Integrations): its members' interactions then carry
    /// their own permissions, Manage Server or not.
    pub fn open_command(&self, guild: GuildId, name: &str) {
        self.shared.lock().opened.push((guild, name.to_owned()));
    }

    /// Discord goes away: the gateway closes every connection and takes no new one, and the
    /// REST server stops (a lost network, an outage). For good: nothing restarts them.
    pub fn stop(&self) {
        let _ = self.shutdown.send(());
    }

    /// Adds a user who is a member of every guild, with the given role.
    pub fn add_user(&self, name: &str, role: Role) -> UserId {
        let mut state = self.shared.lock();
        let id = UserId(state.ids.next());
        state.users.push(FakeUser {
            id,
            username: name.into(),
            role,
            bot: false,
        });
        id
    }

    /// Adds a guild (owned by `owner`, with one text channel `#combat`) and tells the bot it
    /// joined, with `GUILD_CREATE` on the shard that owns it, as Discord does when the bot is
    /// invited.
    pub fn add_guild(&self, name: &str, owner: UserId) -> (GuildId, ChannelId) {
        let mut state = self.shared.lock();
        let id = GuildId(state.ids.next());
        Self::join_guild(&self.shared, &mut state, id, name, owner)
    }

    /// Adds a guild as [`FakeDiscord::add_guild`] does, with an id that puts it on `shard` of
    /// [`Config::shards`] (`(id >> 22) % shards == shard`).
    ///
    /// # Panics
    /// When `shard` is not below [`Config::shards`]: a typo in a test.
    pub fn add_guild_on_shard(&self, name: &str, owner: UserId, shard: u32) -> (GuildId, ChannelId) {
        let count = self.shared.config.shards.max(1);
        assert!(
            shard < count,
            "shard {shard} does not exist: the fake has {count} shard(s)"
        );
        let mut state = self.shared.lock();
        let n = state.ids.next();
        let (count, shard) = (u64::from(count), u64::from(shard));
        let stamp = n >> 22;
        let stamp = stamp + (shard + count - stamp % count) % count;
        // Worker id 1 (bits 17–21) keeps these apart from the generator's ids (worker 0).
        let id = GuildId((stamp << 22) | (1 << 17) | (n & 0xfff));
        Self::join_guild(&self.shared, &mut state, id, name, owner)
    }

    /// The shard that owns `guild` with [`Config::shards`] shards.
    pub fn shard_of(&self, guild: GuildId) -> u32 {
        shard_of(guild, self.shared.config.shards.max(1))
    }

    fn join_guild(shared: &Shared, state: &mut State, id: GuildId, name: &str, owner: UserId) -> (GuildId, ChannelId) {
        let channel = ChannelId(state.ids.next());
        let guild = FakeGuild {
            id,
            name: name.into(),
            owner,
            channels: vec![FakeChannel {
                id: channel,
                name: "combat".into(),
                guild: Some(id),
                recipient: None,
            }],
        };
        let payload = world::guild_create_json(&guild, &state.users, &shared.bot);
        state.guilds.push(guild);
        if state
            .live_session_for(Some(id))
            .is_some_and(|s| s.intents & gateway::INTENT_GUILDS != 0)
        {
            state.dispatch_to(Some(id), "GUILD_CREATE", payload, None);
        }
        (id, channel)
    }

    /// Waits until a bot has identified on the gateway and READY was sent.
    pub async fn wait_for_ready(&self, timeout: Duration) -> Result<(), DriverError> {
        self.wait_until(timeout, "a gateway IDENTIFY", |state| state.live_session().map(|_| ()))
            .await
    }

    /// Waits until a session for shard `shard` is connected (READY sent), the newest one
    /// identified for that shard; returns its `[shard_id, shard_count]`.
    pub async fn wait_for_shard(&self, shard: u32, timeout: Duration) -> Result<[u32; 2], DriverError> {
        self.wait_until(timeout, &format!("a session for shard {shard}"), |state| {
            state
                .sessions
                .iter()
                .rev()
                .find(|s| s.shard[0] == shard)
                .filter(|s| s.sender.as_ref().is_some_and(|tx| !tx.is_closed()))
                .map(|s| s.shard)
        })
        .await
    }

    /// How many sessions have identified for shard `shard` so far (one per bot start; a
    /// RESUME keeps its session).
    pub fn sessions_for_shard(&self, shard: u32) -> usize {
        self.shared
            .lock()
            .sessions
            .iter()
            .filter(|s| s.shard[0] == shard)
            .count()
    }

    /// The shard (`[shard_id, shard_count]`) of the session an interaction was dispatched on.
    pub fn interaction_shard(&self, interaction: InteractionId) -> Option<[u32; 2]> {
        let state = self.shared.lock();
        state.interactions.iter().find(|i| i.id == interaction).map(|i| i.shard)
    }

    /// Waits until at least one command is registered globally (`guild: None`) or in `guild`,
    /// and returns them as Discord would list them.
    pub async fn wait_for_commands(
        &self,
        guild: Option<GuildId>,
        timeout: Duration,
    ) -> Result<Vec<Value>, DriverError> {
        self.wait_until(timeout, "command registration", |state| {
            let commands: Vec<Value> = state
                .commands
                .iter()
                .filter(|c| c.guild == guild)
                .map(|c| c.value.clone())
                .collect();
            (!commands.is_empty()).then_some(commands)
        })
        .await
    }

    /// The commands registered globally (`None`) or in a guild.
    pub fn commands(&self, guild: Option<GuildId>) -> Vec<Value> {
        self.shared
            .lock()
            .commands
            .iter()
            .filter(|c| c.guild == guild)
            .map(|c| c.value.clone())
            .collect()
    }

    /// Dispatches a slash command (`INTERACTION_CREATE`, type 2) as `user` typed it in `channel`.
    ///
    /// `path` is the subcommand path (`&["create"]` for `/character create`, `&[]` for none).
    /// `options` is either an object of `name: value` — typed from the registered command's
    /// option definitions; a user option takes a user id or a username — or an array of raw
    /// Discord option objects, sent as they are. The command must be registered (in the guild
    /// or globally), required options present, choices respected, and the user allowed by
    /// the command's `default_member_permissions`, as a Discord client would ensure.
    pub fn send_slash_command(
        &self,
        user: UserId,
        guild: GuildId,
        channel: ChannelId,
        name: &str,
        path: &[&str],
        options: &Value,
    ) -> Result<InteractionId, DriverError> {
        let mut state = self.shared.lock();
        let payload = interactions::command(
            &self.shared,
            &mut state,
            user,
            guild,
            channel,
            name,
            path,
            options,
            None,
        )?;
        Self::dispatch_interaction(&mut state, payload, 2, user, channel, Some(name), None)
    }

    /// Dispatches a slash command `user` typed in their DMs with the bot (context 1: no guild,
    /// `user` instead of `member`). Only global commands whose `contexts` include the bot's DMs
    /// are offered there, as in Discord's client ([`DriverError::NotInContext`] otherwise).
    /// Returns the interaction and the DM channel.
    pub fn send_dm_command(
        &self,
        user: UserId,
        name: &str,
        path: &[&str],
        options: &Value,
    ) -> Result<(InteractionId, ChannelId), DriverError> {
        self.dm_command(user, name, path, options, true)
    }

    /// Dispatches a global command in `user`'s DMs even if its `contexts` leave DMs out: what a
    /// client with a stale command list sends.
    pub fn send_dm_command_unchecked(
        &self,
        user: UserId,
        name: &str,
        path: &[&str],
        options: &Value,
    ) -> Result<(InteractionId, ChannelId), DriverError> {
        self.dm_command(user, name, path, options, false)
    }

    fn dm_command(
        &self,
        user: UserId,
        name: &str,
        path: &[&str],
        options: &Value,
        checked: bool,
    ) -> Result<(InteractionId, ChannelId), DriverError> {
        let mut state = self.shared.lock();
        let (payload, channel) =
            interactions::dm_command(&self.shared, &mut state, user, name, path, options, checked)?;
        let id = Self::dispatch_interaction(&mut state, payload, 2, user, channel, Some(name), None)?;
        Ok((id, channel))
    }

    /// Dispatches `/name` in a guild channel whether or not the bot registered it: what a
    /// client whose command list is stale (renamed or removed since) sends.
    pub fn send_stale_command(
        &self,
        user: UserId,
        guild: GuildId,
        channel: ChannelId,
        name: &str,
    ) -> Result<InteractionId, DriverError> {
        let mut state = self.shared.lock();
        let payload = interactions::stale_command(&self.shared, &mut state, user, guild, channel, name)?;
        Self::dispatch_interaction(&mut state, payload, 2, user, channel, Some(name), None)
    }

    /// Removes the bot from `guild` (kicked, as a server owner does): `GUILD_DELETE` without
    /// `unavailable` on the shard that owns it, and from then on the guild's channels answer
    /// 403 Missing Access (50001). Returns whether a session got the event.
    pub fn remove_bot_from_guild(&self, guild: GuildId) -> bool {
        let mut state = self.shared.lock();
        if !state.removed_from.contains(&guild) {
            state.removed_from.push(guild);
        }
        let sent = state.dispatch_to(
            Some(guild),
            "GUILD_DELETE",
            serde_json::json!({"id": guild.to_json()}),
            None,
        );
        self.shared.changed.notify_waiters();
        sent
    }

    /// Invites the bot back into a guild it was removed from: `GUILD_CREATE` again, and its
    /// channels answer again. Returns whether a session got the event.
    pub fn readd_bot_to_guild(&self, guild: GuildId) -> bool {
        let mut state = self.shared.lock();
        state.removed_from.retain(|g| *g != guild);
        let Some(payload) = state
            .guild(guild)
            .map(|g| world::guild_create_json(g, &state.users, &self.shared.bot))
        else {
            return false;
        };
        let sent = state.dispatch_to(Some(guild), "GUILD_CREATE", payload, None);
        self.shared.changed.notify_waiters();
        sent
    }

    /// Dispatches an autocomplete request (`INTERACTION_CREATE`, type 4): the user is typing
    /// `focused`'s value (a string, as Discord sends it); other options as for slash commands.
    #[allow(clippy::too_many_arguments)]
    pub fn autocomplete(
        &self,
        user: UserId,
        guild: GuildId,
        channel: ChannelId,
        name: &str,
        path: &[&str],
        options: &Value,
        focused: &str,
    ) -> Result<InteractionId, DriverError> {
        let mut state = self.shared.lock();
        let payload = interactions::command(
            &self.shared,
            &mut state,
            user,
            guild,
            channel,
            name,
            path,
            options,
            Some(focused),
        )?;
        Self::dispatch_interaction(&mut state, payload, 4, user, channel, Some(name), None)
    }

    /// Presses a button on a message (`INTERACTION_CREATE`, type 3). The message must carry an
    /// enabled button with that custom id, as only those can be clicked.
    pub fn press_button(
        &self,
        user: UserId,
        message: MessageId,
        custom_id: &str,
    ) -> Result<InteractionId, DriverError> {
        self.component(user, message, custom_id, 2, None, true)
    }

    /// Picks values in a string select menu on a message.
    pub fn select(
        &self,
        user: UserId,
        message: MessageId,
        custom_id: &str,
        values: &[&str],
    ) -> Result<InteractionId, DriverError> {
        self.component(user, message, custom_id, 3, Some(values), true)
    }

    /// Sends a button interaction for any custom id on a message, whether or not the message
    /// has such a button: a forged or stale press, as a modified client could send.
    pub fn press_button_unchecked(
        &self,
        user: UserId,
        message: MessageId,
        custom_id: &str,
    ) -> Result<InteractionId, DriverError> {
        self.component(user, message, custom_id, 2, None, false)
    }

    fn component(
        &self,
        user: UserId,
        message: MessageId,
        custom_id: &str,
        component_type: u8,
        values: Option<&[&str]>,
        checked: bool,
    ) -> Result<InteractionId, DriverError> {
        let mut state = self.shared.lock();
        let (payload, channel) = interactions::component(
            &self.shared,
            &mut state,
            user,
            message,
            custom_id,
            component_type,
            values,
            checked,
        )?;
        Self::dispatch_interaction(&mut state, payload, 3, user, channel, None, Some(message))
    }

    #[allow(clippy::too_many_arguments)]
    fn dispatch_interaction(
        state: &mut State,
        payload: Value,
        kind: u8,
        user: UserId,
        channel: ChannelId,
        name: Option<&str>,
        source: Option<MessageId>,
    ) -> Result<InteractionId, DriverError> {
        let id = InteractionId(
            payload["id"]
                .as_str()
                .and_then(|s| s.parse().ok())
                .expect("payload has an id"),
        );
        let token = payload["token"].as_str().unwrap_or_default().to_owned();
        // Sent on the shard that owns the guild (a DM's, on shard 0).
        let guild = payload["guild_id"].as_str().and_then(|g| g.parse().ok()).map(GuildId);
        let Some(shard) = state.live_session_for(guild).map(|s| s.shard) else {
            return Err(DriverError::NoGatewaySession);
        };
        state.interactions.push(InteractionRecord {
            id,
            token,
            kind,
            user,
            channel,
            payload: payload.clone(),
            dispatched_at: Instant::now(),
            callbacks: Vec::new(),
            acknowledged: false,
            original: source,
            name: name.map(str::to_owned),
            shard,
        });
        state.dispatch_to(guild, "INTERACTION_CREATE", payload, Some(id));
        Ok(id)
    }

    /// Waits for the bot's callback to an interaction; returns the first one, accepted or not.
    pub async fn wait_for_callback(
        &self,
        interaction: InteractionId,
        timeout: Duration,
    ) -> Result<Callback, DriverError> {
        self.wait_until(
            timeout,
            &format!("the callback to interaction {interaction}"),
            |state| {
                state
                    .interactions
                    .iter()
                    .find(|i| i.id == interaction)
                    .and_then(|i| i.callbacks.first().cloned())
            },
        )
        .await
    }

    /// Every callback the bot sent to an interaction, in order (more than one is a bug).
    pub fn callbacks(&self, interaction: InteractionId) -> Vec<Callback> {
        let state = self.shared.lock();
        state
            .interactions
            .iter()
            .find(|i| i.id == interaction)
            .map(|i| i.callbacks.clone())
            .unwrap_or_default()
    }

    /// The `INTERACTION_CREATE` payload the fake sent.
    pub fn interaction_payload(&self, interaction: InteractionId) -> Option<Value> {
        let state = self.shared.lock();
        state
            .interactions
            .iter()
            .find(|i| i.id == interaction)
            .map(|i| i.payload.clone())
    }

    /// The message an interaction's response created (or, for a button, the message it was on).
    pub fn original_message(&self, interaction: InteractionId) -> Option<Value> {
        let state = self.shared.lock();
        let original = state.interactions.iter().find(|i| i.id == interaction)?.original?;
        state
            .messages
            .iter()
            .find(|m| m.id == original)
            .map(|m| m.value.clone())
    }

    /// Every request the bot made, in arrival order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.lock().requests.clone()
    }

    /// How many requests the bot has made: [`FakeDiscord::requests`]`().len()` without copying
    /// them (a test polling for quiet would otherwise copy the whole log, bodies and all, each
    /// time, holding the fake's lock while the bot waits for its answers).
    pub fn request_count(&self) -> usize {
        self.shared.lock().requests.len()
    }

    /// Waits for a request matching `matches` (including ones already made).
    pub async fn wait_for_request(
        &self,
        timeout: Duration,
        matches: impl Fn(&RecordedRequest) -> bool,
    ) -> Result<RecordedRequest, DriverError> {
        self.wait_until(timeout, "a matching request", |state| {
            state.requests.iter().find(|r| matches(r)).cloned()
        })
        .await
    }

    /// The messages in a channel, oldest first, as Discord's message objects. Ephemeral ones
    /// (flag 64) are included; they carry `interaction_metadata.user` for who saw them.
    pub fn messages_in(&self, channel: ChannelId) -> Vec<Value> {
        let state = self.shared.lock();
        state
            .messages
            .iter()
            .filter(|m| m.channel == channel)
            .map(|m| m.value.clone())
            .collect()
    }

    /// The files attached to a message (as stored: its `attachments`), as (file name, bytes).
    pub fn attachments(&self, message: &Value) -> Vec<(String, Vec<u8>)> {
        let state = self.shared.lock();
        message["attachments"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|a| {
                let bytes = state.files.get(a["url"].as_str()?)?.clone();
                Some((a["filename"].as_str().unwrap_or_default().to_owned(), bytes))
            })
            .collect()
    }

    /// One message by id.
    pub fn message(&self, id: MessageId) -> Option<Value> {
        let state = self.shared.lock();
        state.messages.iter().find(|m| m.id == id).map(|m| m.value.clone())
    }

    /// Waits for a message in `channel` matching `matches` (including ones already there).
    pub async fn wait_for_message(
        &self,
        channel: ChannelId,
        timeout: Duration,
        matches: impl Fn(&Value) -> bool,
    ) -> Result<Value, DriverError> {
        self.wait_until(timeout, &format!("a matching message in channel {channel}"), |state| {
            state
                .messages
                .iter()
                .find(|m| m.channel == channel && matches(&m.value))
                .map(|m| m.value.clone())
        })
        .await
    }

    /// The DM channel the bot opened with a user, if it did.
    pub fn dm_channel(&self, user: UserId) -> Option<ChannelId> {
        self.shared
            .lock()
            .dm_channels
            .iter()
            .find(|c| c.recipient == Some(user))
            .map(|c| c.id)
    }

    /// Every request body that broke Discord's OpenAPI schema, in order.
    pub fn validation_errors(&self) -> Vec<ValidationFailure> {
        let state = self.shared.lock();
        state
            .requests
            .iter()
            .filter_map(|r| match &r.check {
                BodyCheck::Invalid { operation, errors } => Some(ValidationFailure {
                    method: r.method.clone(),
                    path: r.path.clone(),
                    operation: operation.clone(),
                    errors: errors.clone(),
                    body: r.body.clone().unwrap_or(Value::Null),
                }),
                _ => None,
            })
            .collect()
    }

    /// Every frame the bot sent on the gateway (IDENTIFY, heartbeats, RESUME, ...), in order.
    pub fn gateway_received(&self) -> Vec<Value> {
        self.shared.lock().gateway_received.clone()
    }

    /// Waits for the bot to send a gateway frame with opcode `op` (1 heartbeat, 2 identify,
    /// 6 resume, ...), including frames already sent; returns the first.
    pub async fn wait_for_gateway_op(&self, op: u64, timeout: Duration) -> Result<Value, DriverError> {
        self.wait_until(timeout, &format!("a gateway frame with op {op}"), |state| {
            state
                .gateway_received
                .iter()
                .find(|f| f["op"].as_u64() == Some(op))
                .cloned()
        })
        .await
    }

    /// Asks the connected bot to reconnect and resume (op 7 RECONNECT), as Discord does when
    /// it moves a session. Returns whether a bot was connected.
    pub fn request_reconnect(&self) -> bool {
        let mut state = self.shared.lock();
        state.live_session().is_some_and(gateway::send_reconnect)
    }

    async fn wait_until<T>(
        &self,
        timeout: Duration,
        what: &str,
        mut ready: impl FnMut(&mut State) -> Option<T>,
    ) -> Result<T, DriverError> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let changed = self.shared.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            if let Some(found) = ready(&mut self.shared.lock()) {
                return Ok(found);
            }
            if tokio::time::timeout_at(deadline, changed).await.is_err() {
                return Err(DriverError::Timeout(what.to_owned()));
            }
        }
    }
}
