//! `INTERACTION_CREATE` payloads shaped like real Discord's, and the checks a Discord client makes
//! before it sends one (the command exists, options fit, the user may use it, the button is
//! there and enabled).

use serde_json::{Map, Value, json};

use crate::ids::{ChannelId, GuildId, MessageId, UserId};
use crate::world::{self, FakeGuild, FakeUser, permissions};
use crate::{DriverError, Shared, State, StoredCommand};

/// Discord's default upload limit for a server without boosts (25 MiB).
const ATTACHMENT_SIZE_LIMIT: u64 = 26_214_400;

/// Builds a slash-command (or, with `focused`, autocomplete) interaction.
#[allow(clippy::too_many_arguments)]
pub(crate) fn command(
    shared: &Shared,
    state: &mut State,
    user: UserId,
    guild: GuildId,
    channel: ChannelId,
    name: &str,
    path: &[&str],
    options: &Value,
    focused: Option<&str>,
) -> Result<Value, DriverError> {
    let invoker = state
        .user(user)
        .ok_or_else(|| DriverError::Unknown(format!("user {user}")))?
        .clone();
    let the_guild = state
        .guild(guild)
        .ok_or_else(|| DriverError::Unknown(format!("guild {guild}")))?
        .clone();
    if !the_guild.channels.iter().any(|c| c.id == channel) {
        return Err(DriverError::Unknown(format!("channel {channel} in guild {guild}")));
    }
    // Guild commands shadow global ones of the same name, as in Discord's client.
    let registered = find_command(&state.commands, Some(guild), name)
        .or_else(|| find_command(&state.commands, None, name))
        .ok_or_else(|| DriverError::UnknownCommand(name.to_owned()))?
        .clone();
    if !in_context(&registered.value, CONTEXT_GUILD) {
        return Err(DriverError::NotInContext {
            command: name.to_owned(),
            context: CONTEXT_GUILD,
        });
    }
    let perms = the_guild.permissions_of(&invoker);
    if let Some(required) = registered.value["default_member_permissions"]
        .as_str()
        .and_then(|p| p.parse::<u64>().ok())
        && perms & permissions::ADMINISTRATOR == 0
        && perms & required != required
        && !state.opened.iter().any(|(g, n)| *g == guild && n == name)
    {
        return Err(DriverError::NotPermitted {
            command: name.to_owned(),
            user,
        });
    }

    let data = command_data(state, &registered, Some(guild), name, path, options, focused)?;
    Ok(base_payload(
        shared,
        state,
        &invoker,
        &the_guild,
        channel,
        if focused.is_some() { 4 } else { 2 },
        data,
    ))
}

/// The `data` of a command interaction: the subcommand path walked down the registered option
/// tree, the options typed by their definitions.
fn command_data(
    state: &State,
    registered: &StoredCommand,
    guild: Option<GuildId>,
    name: &str,
    path: &[&str],
    options: &Value,
    focused: Option<&str>,
) -> Result<Value, DriverError> {
    // Walk the subcommand path down the registered option tree.
    let mut definitions = registered.value["options"].as_array().cloned().unwrap_or_default();
    for step in path {
        let sub = definitions
            .iter()
            .find(|o| o["name"] == *step && matches!(o["type"].as_u64(), Some(1 | 2)))
            .ok_or_else(|| DriverError::UnknownOption(format!("{name} {}", path.join(" "))))?;
        definitions = sub["options"].as_array().cloned().unwrap_or_default();
    }
    if definitions.iter().any(|o| matches!(o["type"].as_u64(), Some(1 | 2))) {
        return Err(DriverError::UnknownOption(format!(
            "{name} {} (a subcommand must be chosen)",
            path.join(" ")
        )));
    }

    let mut resolved = Resolved::default();
    let leaves = match options {
        Value::Array(raw) => raw.clone(),
        Value::Object(given) => typed_options(state, &definitions, given, focused, &mut resolved)?,
        Value::Null => typed_options(state, &definitions, &Map::new(), focused, &mut resolved)?,
        _ => {
            return Err(DriverError::UnknownOption(
                "options must be an object or an array".into(),
            ));
        }
    };
    let mut nested = leaves;
    for (depth, step) in path.iter().enumerate().rev() {
        // The last step is a subcommand (type 1); one above it is a group (type 2).
        let kind = if depth + 1 == path.len() { 1 } else { 2 };
        nested = vec![json!({"name": step, "type": kind, "options": nested})];
    }

    let mut data = json!({
        "id": registered.value["id"].clone(),
        "name": name,
        "type": registered.value["type"].as_u64().unwrap_or(1),
        "options": nested,
    });
    if let (Some(_), Some(guild)) = (registered.guild, guild) {
        data["guild_id"] = guild.to_json();
    }
    if !resolved.is_empty() {
        data["resolved"] = resolved.into_json();
    }
    Ok(data)
}

/// Discord's interaction context types: a server, the bot's DMs, other DMs and group DMs.
pub(crate) const CONTEXT_GUILD: u64 = 0;
pub(crate) const CONTEXT_BOT_DM: u64 = 1;

/// Builds a slash command typed in the user's DMs with the bot. Only global commands whose
/// `contexts` include the bot's DMs are offered there (absent `contexts`: every context, as
/// Discord defaults for a new command).
pub(crate) fn dm_command(
    shared: &Shared,
    state: &mut State,
    user: UserId,
    name: &str,
    path: &[&str],
    options: &Value,
    checked: bool,
) -> Result<(Value, ChannelId), DriverError> {
    let invoker = state
        .user(user)
        .ok_or_else(|| DriverError::Unknown(format!("user {user}")))?
        .clone();
    let registered = find_command(&state.commands, None, name)
        .ok_or_else(|| DriverError::UnknownCommand(name.to_owned()))?
        .clone();
    if checked && !in_context(&registered.value, CONTEXT_BOT_DM) {
        return Err(DriverError::NotInContext {
            command: name.to_owned(),
            context: CONTEXT_BOT_DM,
        });
    }
    let data = command_data(state, &registered, None, name, path, options, None)?;
    let channel = if let Some(channel) = state.dm_channels.iter().find(|c| c.recipient == Some(user)) {
        channel.clone()
    } else {
        let channel = world::FakeChannel {
            id: ChannelId(state.ids.next()),
            name: String::new(),
            guild: None,
            recipient: Some(user),
        };
        state.dm_channels.push(channel.clone());
        channel
    };
    let id = state.ids.next();
    let payload = json!({
        "id": id.to_string(),
        "application_id": shared.config.application_id.to_json(),
        "type": 2,
        "channel": world::channel_json(&channel, 0, None, &state.users),
        "channel_id": channel.id.to_json(),
        "user": world::user_json(&invoker),
        "token": token(id),
        "version": 1,
        "app_permissions": permissions::BOT.to_string(),
        "locale": "en-US",
        "entitlements": [],
        "entitlement_sku_ids": [],
        "authorizing_integration_owners": {"0": shared.config.application_id.to_json()},
        "context": CONTEXT_BOT_DM,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        "data": data,
    });
    Ok((payload, channel.id))
}

/// Whether a registered command is offered in `context` (absent `contexts`: everywhere).
pub(crate) fn in_context(command: &Value, context: u64) -> bool {
    command["contexts"]
        .as_array()
        .is_none_or(|contexts| contexts.iter().any(|c| c.as_u64() == Some(context)))
}

/// Builds a command interaction for `name` whether or not it is registered: what a client
/// with a stale command list (the command renamed or removed since) sends.
pub(crate) fn stale_command(
    shared: &Shared,
    state: &mut State,
    user: UserId,
    guild: GuildId,
    channel: ChannelId,
    name: &str,
) -> Result<Value, DriverError> {
    let invoker = state
        .user(user)
        .ok_or_else(|| DriverError::Unknown(format!("user {user}")))?
        .clone();
    let the_guild = state
        .guild(guild)
        .ok_or_else(|| DriverError::Unknown(format!("guild {guild}")))?
        .clone();
    let data = json!({"id": state.ids.next().to_string(), "name": name, "type": 1, "options": []});
    Ok(base_payload(shared, state, &invoker, &the_guild, channel, 2, data))
}

/// Builds a component interaction for a button or select on a stored message.
#[allow(clippy::too_many_arguments)]
pub(crate) fn component(
    shared: &Shared,
    state: &mut State,
    user: UserId,
    message: MessageId,
    custom_id: &str,
    component_type: u8,
    values: Option<&[&str]>,
    checked: bool,
) -> Result<(Value, ChannelId), DriverError> {
    let invoker = state
        .user(user)
        .ok_or_else(|| DriverError::Unknown(format!("user {user}")))?
        .clone();
    let stored = state
        .messages
        .iter()
        .find(|m| m.id == message)
        .ok_or_else(|| DriverError::Unknown(format!("message {message}")))?
        .clone();
    let channel = state
        .channel(stored.channel)
        .ok_or_else(|| DriverError::Unknown(format!("channel {}", stored.channel)))?;
    let guild_id = channel
        .guild
        .ok_or_else(|| DriverError::Unknown("guild of a DM channel".into()))?;
    let guild = state
        .guild(guild_id)
        .cloned()
        .ok_or_else(|| DriverError::Unknown(format!("guild {guild_id}")))?;
    if checked && !has_enabled_component(&stored.value["components"], custom_id, component_type) {
        return Err(DriverError::NoSuchComponent {
            message,
            custom_id: custom_id.to_owned(),
        });
    }
    let mut data = json!({"custom_id": custom_id, "component_type": component_type});
    if let Some(values) = values {
        data["values"] = json!(values);
    }
    let mut payload = base_payload(shared, state, &invoker, &guild, stored.channel, 3, data);
    let mut shown = stored.value.clone();
    shown["guild_id"] = guild_id.to_json();
    payload["message"] = shown;
    Ok((payload, stored.channel))
}

fn find_command<'a>(commands: &'a [StoredCommand], guild: Option<GuildId>, name: &str) -> Option<&'a StoredCommand> {
    commands
        .iter()
        .find(|c| c.guild == guild && c.value["name"] == name && c.value["type"].as_u64().unwrap_or(1) == 1)
}

fn has_enabled_component(components: &Value, custom_id: &str, component_type: u8) -> bool {
    components.as_array().into_iter().flatten().any(|c| {
        let here = c["custom_id"] == custom_id
            && c["type"].as_u64() == Some(u64::from(component_type))
            && !c["disabled"].as_bool().unwrap_or(false);
        here || has_enabled_component(&c["components"], custom_id, component_type)
    })
}

/// The fields every guild interaction carries.
fn base_payload(
    shared: &Shared,
    state: &mut State,
    invoker: &FakeUser,
    guild: &FakeGuild,
    channel: ChannelId,
    kind: u8,
    data: Value,
) -> Value {
    let id = state.ids.next();
    let perms = guild.permissions_of(invoker);
    let position = guild.channels.iter().position(|c| c.id == channel).unwrap_or(0);
    let channel_json = guild.channels.get(position).map_or(Value::Null, |c| {
        world::channel_json(c, position, Some(perms), &state.users)
    });
    let mut payload = json!({
        "id": id.to_string(),
        "application_id": shared.config.application_id.to_json(),
        "type": kind,
        "guild": {"id": guild.id.to_json(), "locale": "en-US", "features": []},
        "guild_id": guild.id.to_json(),
        "channel": channel_json,
        "channel_id": channel.to_json(),
        "member": world::member_json(invoker, Some(perms)),
        "token": token(id),
        "version": 1,
        "app_permissions": permissions::BOT.to_string(),
        "locale": "en-US",
        "guild_locale": "en-US",
        "entitlements": [],
        "entitlement_sku_ids": [],
        "authorizing_integration_owners": {"0": guild.id.to_json()},
        "context": 0,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    });
    payload["data"] = data;
    payload
}

/// An interaction token: long, URL-safe, unique per interaction (real ones are ~200 chars).
fn token(id: u64) -> String {
    let mut token = format!("aW50ZXJhY3Rpb246{id}");
    let mut x = id ^ 0x9e37_79b9_7f4a_7c15;
    while token.len() < 180 {
        // xorshift: deterministic filler in the token alphabet.
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        token.push(char::from(alphabet[(x % 64) as usize]));
    }
    token
}

#[derive(Default)]
struct Resolved {
    users: Map<String, Value>,
    members: Map<String, Value>,
    channels: Map<String, Value>,
    attachments: Map<String, Value>,
}

impl Resolved {
    fn is_empty(&self) -> bool {
        self.users.is_empty() && self.channels.is_empty() && self.attachments.is_empty()
    }

    fn into_json(self) -> Value {
        let mut out = Map::new();
        if !self.users.is_empty() {
            out.insert("users".into(), Value::Object(self.users));
            out.insert("members".into(), Value::Object(self.members));
        }
        if !self.channels.is_empty() {
            out.insert("channels".into(), Value::Object(self.channels));
        }
        if !self.attachments.is_empty() {
            out.insert("attachments".into(), Value::Object(self.attachments));
        }
        Value::Object(out)
    }
}

/// Turns `{name: value}` into Discord option objects typed by the registered definitions.
fn typed_options(
    state: &State,
    definitions: &[Value],
    given: &Map<String, Value>,
    focused: Option<&str>,
    resolved: &mut Resolved,
) -> Result<Vec<Value>, DriverError> {
    for name in given.keys() {
        if !definitions.iter().any(|d| d["name"] == name.as_str()) {
            return Err(DriverError::UnknownOption(name.clone()));
        }
    }
    if let Some(focused) = focused
        && !definitions.iter().any(|d| d["name"] == focused)
    {
        return Err(DriverError::UnknownOption(focused.to_owned()));
    }
    let mut out = Vec::new();
    for definition in definitions {
        let name = definition["name"].as_str().unwrap_or_default();
        let kind = definition["type"].as_u64().unwrap_or(3);
        let Some(value) = given.get(name) else {
            if focused.is_none() && definition["required"].as_bool().unwrap_or(false) {
                return Err(DriverError::MissingOption(name.to_owned()));
            }
            continue;
        };
        if focused == Some(name) {
            // What the user has typed so far, always a string.
            let typed = value.as_str().map_or_else(|| value.to_string(), str::to_owned);
            out.push(json!({"name": name, "type": kind, "value": typed, "focused": true}));
            continue;
        }
        let value = option_value(state, name, kind, value, resolved)?;
        if let Some(choices) = definition["choices"].as_array().filter(|c| !c.is_empty())
            && !choices.iter().any(|c| c["value"] == value)
        {
            return Err(DriverError::BadOptionValue {
                name: name.to_owned(),
                problem: format!("{value} is not a choice"),
            });
        }
        out.push(json!({"name": name, "type": kind, "value": value}));
    }
    Ok(out)
}

fn option_value(
    state: &State,
    name: &str,
    kind: u64,
    value: &Value,
    resolved: &mut Resolved,
) -> Result<Value, DriverError> {
    let bad = |problem: &str| DriverError::BadOptionValue {
        name: name.to_owned(),
        problem: problem.to_owned(),
    };
    match kind {
        3 => value.as_str().map(|s| json!(s)).ok_or_else(|| bad("expected a string")),
        4 => value
            .as_i64()
            .or_else(|| value.as_str().and_then(|s| s.parse().ok()))
            .map(|n| json!(n))
            .ok_or_else(|| bad("expected an integer")),
        5 => value
            .as_bool()
            .map(|b| json!(b))
            .ok_or_else(|| bad("expected a boolean")),
        10 => value.as_f64().map(|n| json!(n)).ok_or_else(|| bad("expected a number")),
        6 | 9 => {
            let user = lookup_user(state, value).ok_or_else(|| bad("expected a known user (id or username)"))?;
            let key = user.id.to_string();
            resolved.users.insert(key.clone(), world::user_json(user));
            let mut member = world::member_json(user, Some(permissions::MEMBER));
            if let Some(fields) = member.as_object_mut() {
                fields.remove("user");
            }
            resolved.members.insert(key.clone(), member);
            Ok(json!(key))
        }
        7 => {
            let id = value
                .as_u64()
                .or_else(|| value.as_str().and_then(|s| s.parse().ok()))
                .ok_or_else(|| bad("expected a channel id"))?;
            let channel = state
                .channel(ChannelId(id))
                .ok_or_else(|| bad("expected a known channel"))?;
            resolved.channels.insert(
                id.to_string(),
                json!({"id": id.to_string(), "name": channel.name, "type": 0, "permissions": permissions::MEMBER.to_string()}),
            );
            Ok(json!(id.to_string()))
        }
        11 => {
            let id = value
                .as_str()
                .map(str::to_owned)
                .or_else(|| value.as_u64().map(|n| n.to_string()))
                .ok_or_else(|| bad("expected an attachment id (from FakeDiscord::upload)"))?;
            let attachment = state
                .user_files
                .get(&id)
                .ok_or_else(|| bad("expected an uploaded file's id (FakeDiscord::upload)"))?;
            resolved.attachments.insert(id.clone(), attachment.clone());
            Ok(json!(id))
        }
        _ => Ok(value.clone()),
    }
}

fn lookup_user<'a>(state: &'a State, value: &Value) -> Option<&'a FakeUser> {
    let id = value.as_u64().or_else(|| value.as_str().and_then(|s| s.parse().ok()));
    match id {
        Some(id) => state.user(UserId(id)),
        None => value
            .as_str()
            .and_then(|name| state.users.iter().find(|u| u.username == name)),
    }
}
