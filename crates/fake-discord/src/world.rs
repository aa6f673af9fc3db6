//! The people and places of the fake: users, guilds and channels, and the JSON objects Discord
//! would send for them (user, member, guild, channel, message).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use crate::ids::{ApplicationId, ChannelId, GuildId, MessageId, UserId};

/// Permission bits (Discord's `permissions` integers), the ones the fake hands out.
pub mod permissions {
    /// `CREATE_INSTANT_INVITE`.
    pub const CREATE_INSTANT_INVITE: u64 = 1;
    /// `ADMINISTRATOR`.
    pub const ADMINISTRATOR: u64 = 1 << 3;
    /// `MANAGE_GUILD` — "Manage Server", required by `/campaign` and `/gm`.
    pub const MANAGE_GUILD: u64 = 1 << 5;
    /// `ADD_REACTIONS`.
    pub const ADD_REACTIONS: u64 = 1 << 6;
    /// `VIEW_CHANNEL`.
    pub const VIEW_CHANNEL: u64 = 1 << 10;
    /// `SEND_MESSAGES`.
    pub const SEND_MESSAGES: u64 = 1 << 11;
    /// `MANAGE_MESSAGES`.
    pub const MANAGE_MESSAGES: u64 = 1 << 13;
    /// `EMBED_LINKS`.
    pub const EMBED_LINKS: u64 = 1 << 14;
    /// `ATTACH_FILES`.
    pub const ATTACH_FILES: u64 = 1 << 15;
    /// `READ_MESSAGE_HISTORY`.
    pub const READ_MESSAGE_HISTORY: u64 = 1 << 16;
    /// `MENTION_EVERYONE`.
    pub const MENTION_EVERYONE: u64 = 1 << 17;
    /// `USE_EXTERNAL_EMOJIS`.
    pub const USE_EXTERNAL_EMOJIS: u64 = 1 << 18;
    /// `CONNECT`.
    pub const CONNECT: u64 = 1 << 20;
    /// `SPEAK`.
    pub const SPEAK: u64 = 1 << 21;
    /// `CHANGE_NICKNAME`.
    pub const CHANGE_NICKNAME: u64 = 1 << 26;
    /// `USE_APPLICATION_COMMANDS`.
    pub const USE_APPLICATION_COMMANDS: u64 = 1 << 31;
    /// `CREATE_PUBLIC_THREADS`.
    pub const CREATE_PUBLIC_THREADS: u64 = 1 << 35;
    /// `SEND_MESSAGES_IN_THREADS`.
    pub const SEND_MESSAGES_IN_THREADS: u64 = 1 << 38;

    /// What `@everyone` may do in a fresh server: what a plain player gets.
    pub const MEMBER: u64 = CREATE_INSTANT_INVITE
        | ADD_REACTIONS
        | VIEW_CHANNEL
        | SEND_MESSAGES
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | USE_EXTERNAL_EMOJIS
        | CONNECT
        | SPEAK
        | CHANGE_NICKNAME
        | USE_APPLICATION_COMMANDS
        | CREATE_PUBLIC_THREADS
        | SEND_MESSAGES_IN_THREADS;

    /// A member with a role granting Manage Server.
    pub const MANAGER: u64 = MEMBER | MANAGE_GUILD;

    /// What Discord reports for a server owner: every permission.
    pub const OWNER: u64 = (1 << 51) - 1;

    /// What the bot holds (its `app_permissions`): `@everyone`'s and what GogoBee's invite asks
    /// for (View Channel, Send Messages, Send Messages in Threads, Embed Links, Attach Files,
    /// Read Message History), which `@everyone` already has in a fresh server.
    pub const BOT: u64 = MEMBER
        | VIEW_CHANNEL
        | SEND_MESSAGES
        | SEND_MESSAGES_IN_THREADS
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY;
}

/// How much a user may do in the fake's guilds (the owner of a guild always gets everything).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A plain player: `@everyone`'s permissions.
    Member,
    /// A player with a role granting Manage Server.
    Manager,
}

/// A user the fake knows.
#[derive(Clone, Debug)]
pub struct FakeUser {
    /// The user's id.
    pub id: UserId,
    /// The unique username (`alice`).
    pub username: String,
    /// The role the user holds in every guild they are a member of.
    pub role: Role,
    /// Whether this is a bot account.
    pub bot: bool,
}

/// A guild the fake knows, with its text channels.
#[derive(Clone, Debug)]
pub struct FakeGuild {
    /// The guild's id.
    pub id: GuildId,
    /// The guild's name.
    pub name: String,
    /// The owner, who holds every permission.
    pub owner: UserId,
    /// Text channels, in display order.
    pub channels: Vec<FakeChannel>,
}

/// A guild text channel or a DM channel.
#[derive(Clone, Debug)]
pub struct FakeChannel {
    /// The channel's id.
    pub id: ChannelId,
    /// The name (`combat`); DM channels have none.
    pub name: String,
    /// The guild it belongs to, or `None` for a DM channel.
    pub guild: Option<GuildId>,
    /// For a DM channel, the user at the other end.
    pub recipient: Option<UserId>,
}

impl FakeGuild {
    /// The permissions a user has in this guild, as Discord computes them.
    pub fn permissions_of(&self, user: &FakeUser) -> u64 {
        if user.id == self.owner {
            permissions::OWNER
        } else {
            match user.role {
                Role::Member => permissions::MEMBER,
                Role::Manager => permissions::MANAGER,
            }
        }
    }
}

/// Wall-clock time as Discord's ISO 8601 timestamps.
pub(crate) fn timestamp(at: SystemTime) -> String {
    let since = at.duration_since(UNIX_EPOCH).unwrap_or(Duration::ZERO);
    let secs = i64::try_from(since.as_secs()).unwrap_or(i64::MAX);
    chrono::DateTime::from_timestamp(secs, since.subsec_nanos())
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Micros, false)
}

pub(crate) fn now() -> String {
    timestamp(SystemTime::now())
}

/// A user object.
pub(crate) fn user_json(user: &FakeUser) -> Value {
    json!({
        "id": user.id.to_json(),
        "username": user.username,
        "discriminator": "0",
        "global_name": if user.bot { Value::Null } else { Value::String(capitalised(&user.username)) },
        "avatar": null,
        "bot": user.bot,
        "system": false,
        "banner": null,
        "accent_color": null,
        "public_flags": 0,
        "flags": 0,
        "avatar_decoration_data": null,
        "collectibles": null,
        "primary_guild": null,
    })
}

/// The bot's own user as `/users/@me` and READY describe it.
pub(crate) fn current_user_json(bot: &FakeUser) -> Value {
    let mut user = user_json(bot);
    let fields = user.as_object_mut().expect("user_json builds an object");
    fields.insert("verified".into(), json!(true));
    fields.insert("mfa_enabled".into(), json!(false));
    fields.insert("email".into(), Value::Null);
    fields.insert("locale".into(), json!("en-US"));
    user
}

/// A guild member object; `permissions` is added in interactions.
pub(crate) fn member_json(user: &FakeUser, permissions: Option<u64>) -> Value {
    let mut member = json!({
        "user": user_json(user),
        "nick": null,
        "avatar": null,
        "banner": null,
        "roles": [],
        "joined_at": "2026-01-01T00:00:00.000000+00:00",
        "premium_since": null,
        "deaf": false,
        "mute": false,
        "flags": 0,
        "pending": false,
        "communication_disabled_until": null,
        "unusual_dm_activity_until": null,
    });
    if let Some(bits) = permissions {
        member["permissions"] = json!(bits.to_string());
    }
    member
}

/// A channel object; for interactions, `permissions` is the invoking user's.
pub(crate) fn channel_json(
    channel: &FakeChannel,
    position: usize,
    permissions: Option<u64>,
    users: &[FakeUser],
) -> Value {
    let mut value = match channel.guild {
        Some(guild) => json!({
            "id": channel.id.to_json(),
            "type": 0,
            "guild_id": guild.to_json(),
            "name": channel.name,
            "position": position,
            "permission_overwrites": [],
            "topic": null,
            "nsfw": false,
            "last_message_id": null,
            "rate_limit_per_user": 0,
            "parent_id": null,
            "last_pin_timestamp": null,
            "flags": 0,
        }),
        None => json!({
            "id": channel.id.to_json(),
            "type": 1,
            "last_message_id": null,
            "flags": 0,
            "recipients": users
                .iter()
                .filter(|u| Some(u.id) == channel.recipient)
                .map(user_json)
                .collect::<Vec<_>>(),
        }),
    };
    if let Some(bits) = permissions {
        value["permissions"] = json!(bits.to_string());
    }
    value
}

/// The `GUILD_CREATE` payload for a guild the bot is in.
pub(crate) fn guild_create_json(guild: &FakeGuild, users: &[FakeUser], bot: &FakeUser) -> Value {
    let members: Vec<Value> = std::iter::once(bot)
        .chain(users.iter().filter(|u| !u.bot))
        .map(|u| member_json(u, None))
        .collect();
    let channels: Vec<Value> = guild
        .channels
        .iter()
        .enumerate()
        .map(|(i, c)| channel_json(c, i, None, users))
        .collect();
    json!({
        "id": guild.id.to_json(),
        "name": guild.name,
        "icon": null,
        "icon_hash": null,
        "splash": null,
        "discovery_splash": null,
        "owner_id": guild.owner.to_json(),
        "region": null,
        "afk_channel_id": null,
        "afk_timeout": 300,
        "widget_enabled": false,
        "widget_channel_id": null,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [{
            "id": guild.id.to_json(),
            "name": "@everyone",
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
            "hoist": false,
            "icon": null,
            "unicode_emoji": null,
            "position": 0,
            "permissions": permissions::MEMBER.to_string(),
            "managed": false,
            "mentionable": false,
            "flags": 0,
        }],
        "emojis": [],
        "features": [],
        "mfa_level": 0,
        "application_id": null,
        "system_channel_id": guild.channels.first().map(|c| c.id.to_json()),
        "system_channel_flags": 0,
        "rules_channel_id": null,
        "max_presences": null,
        "max_members": 500_000,
        "vanity_url_code": null,
        "description": null,
        "banner": null,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": null,
        "max_video_channel_users": 25,
        "max_stage_video_channel_users": 50,
        "nsfw_level": 0,
        "stickers": [],
        "premium_progress_bar_enabled": false,
        "safety_alerts_channel_id": null,
        "incidents_data": null,
        "joined_at": "2026-01-01T00:00:00.000000+00:00",
        "large": false,
        "unavailable": false,
        "member_count": members.len(),
        "voice_states": [],
        "members": members,
        "channels": channels,
        "threads": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "embedded_activities": [],
        "lazy": true,
    })
}

/// A message as Discord returns it from REST, built from the fields the bot sent.
pub(crate) struct NewMessage<'a> {
    pub id: MessageId,
    pub channel: ChannelId,
    pub author: &'a FakeUser,
    pub body: &'a Value,
    /// Discord message type: 0 default, 19 reply, 20 chat-input command response.
    pub kind: u8,
    /// Set for messages created through an interaction webhook.
    pub webhook: Option<ApplicationId>,
    /// `interaction_metadata` for interaction responses.
    pub interaction_metadata: Option<Value>,
    pub mentions: Vec<Value>,
}

pub(crate) fn message_json(new: &NewMessage<'_>) -> Value {
    let body = new.body;
    let field = |name: &str| body.get(name).filter(|v| !v.is_null()).cloned();
    let embeds: Vec<Value> = field("embeds")
        .and_then(|e| e.as_array().cloned())
        .unwrap_or_default()
        .into_iter()
        .map(|mut embed| {
            if embed.get("type").is_none() {
                embed["type"] = json!("rich");
            }
            embed
        })
        .collect();
    let mut message = json!({
        "id": new.id.to_json(),
        "channel_id": new.channel.to_json(),
        "author": user_json(new.author),
        "content": field("content").unwrap_or(json!("")),
        "timestamp": now(),
        "edited_timestamp": null,
        "tts": field("tts").unwrap_or(json!(false)),
        "mention_everyone": false,
        "mentions": new.mentions,
        "mention_roles": [],
        "attachments": [],
        "embeds": embeds,
        "pinned": false,
        "type": new.kind,
        "flags": field("flags").unwrap_or(json!(0)),
        "components": field("components").unwrap_or(json!([])),
    });
    if let Some(app) = new.webhook {
        message["webhook_id"] = app.to_json();
        message["application_id"] = app.to_json();
    }
    if let Some(metadata) = &new.interaction_metadata {
        message["interaction_metadata"] = metadata.clone();
    }
    if let Some(reference) = field("message_reference") {
        message["message_reference"] = reference;
    }
    message
}

/// Applies an edit body to a stored message, as Discord's PATCH does.
pub(crate) fn apply_edit(message: &mut Value, edit: &Value, mentions: Vec<Value>) {
    for name in ["content", "embeds", "components", "flags", "attachments"] {
        if let Some(v) = edit.get(name) {
            let v = if v.is_null() {
                match name {
                    "content" => json!(""),
                    "flags" => json!(0),
                    _ => json!([]),
                }
            } else {
                v.clone()
            };
            message[name] = v;
        }
    }
    if edit.get("content").is_some() {
        message["mentions"] = Value::Array(mentions);
    }
    message["edited_timestamp"] = json!(now());
}

/// User ids pinged in a message's content (`<@123>` or `<@!123>`).
pub(crate) fn mentioned_ids(content: &str) -> Vec<UserId> {
    let mut ids = Vec::new();
    let mut rest = content;
    while let Some(start) = rest.find("<@") {
        rest = &rest[start + 2..];
        let digits = rest.strip_prefix('!').unwrap_or(rest);
        let end = digits.find('>').unwrap_or(0);
        if let Ok(id) = digits[..end].parse::<u64>()
            && !ids.contains(&UserId(id))
        {
            ids.push(UserId(id));
        }
    }
    ids
}

fn capitalised(name: &str) -> String {
    let mut chars = name.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_are_found_in_both_spellings_once_each() {
        assert_eq!(
            mentioned_ids("hi <@12> and <@!34>, <@12> again, <@&56> <@x>"),
            vec![UserId(12), UserId(34)]
        );
    }

    #[test]
    fn timestamps_are_iso_8601() {
        let t = UNIX_EPOCH + Duration::from_millis(1_767_225_600_123);
        assert_eq!(timestamp(t), "2026-01-01T00:00:00.123000+00:00");
    }
}
