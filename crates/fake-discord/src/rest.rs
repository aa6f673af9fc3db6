//! The REST server over `http://`: the routes serenity 0.12 and poise 0.7 call, each answered
//! with the object Discord returns; anything else is recorded and answered 404 with a
//! Discord-shaped error body. Every JSON body is checked against the OpenAPI spec first.

use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State as AxumState;
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::ids::{ChannelId, GuildId, InteractionId, MessageId, UserId};
use crate::limits;
use crate::world::{self, FakeChannel, NewMessage};
use crate::{BodyCheck, Callback, RecordedRequest, Shared, State, StoredCommand, StoredMessage};

/// The API prefix serenity uses.
const PREFIX: &str = "/api/v10";

/// Where the fake serves uploaded files (Discord's CDN): `{rest_url}/attachments/{id}/{name}`.
pub(crate) const ATTACHMENTS: &str = "/attachments/";

/// Message flags.
const EPHEMERAL: u64 = 1 << 6;
const LOADING: u64 = 1 << 7;

pub(crate) fn spawn(shared: Arc<Shared>, listener: TcpListener, mut stopped: watch::Receiver<()>) {
    let app = Router::new().fallback(handle).with_state(shared);
    // No Nagle delay on answers (see the gateway's listener).
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        let _ = tcp.set_nodelay(true);
    });
    tokio::spawn(async move {
        let _ = axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                let _ = stopped.changed().await;
            })
            .await;
    });
}

/// A reply: status and optional JSON body.
struct Reply {
    status: u16,
    body: Option<Value>,
}

impl Reply {
    fn ok(body: Value) -> Self {
        Self {
            status: 200,
            body: Some(body),
        }
    }

    fn no_content() -> Self {
        Self {
            status: 204,
            body: None,
        }
    }

    fn error(status: u16, code: u32, message: &str) -> Self {
        Self {
            status,
            body: Some(json!({"message": message, "code": code})),
        }
    }

    fn not_found() -> Self {
        Self::error(404, 0, "404: Not Found")
    }

    fn unknown(what: &str, code: u32) -> Self {
        Self::error(404, code, &format!("Unknown {what}"))
    }
}

async fn handle(
    AxumState(shared): AxumState<Arc<Shared>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    bytes: Bytes,
) -> Response {
    let received = Instant::now();
    let path = uri.path().to_owned();
    if method == Method::GET && path.starts_with(ATTACHMENTS) {
        return file(&shared, &path, received);
    }
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();

    let (body, parse_error) = parse_body(content_type, &bytes);
    let uploads = if content_type.starts_with("multipart/form-data") {
        multipart_files(content_type, &bytes)
    } else {
        Vec::new()
    };
    let relative = path.strip_prefix(PREFIX).filter(|r| r.starts_with('/'));
    let check = match (&body, relative) {
        (None, _) if content_type.starts_with("multipart/") && !bytes.is_empty() => BodyCheck::Invalid {
            operation: None,
            errors: vec!["a multipart body without a `payload_json` part holding JSON".into()],
        },
        (None, _) => BodyCheck::NoBody,
        (Some(_), None) => BodyCheck::Invalid {
            operation: None,
            errors: vec![format!("a body sent to {path}, which is not under {PREFIX}")],
        },
        (Some(body), Some(relative)) => shared.spec.check(method.as_str(), relative, body),
    };
    let check = with_limits(check, relative, body.as_ref());
    let check = with_uploads(check, body.as_ref(), &uploads);

    let authorised = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v == format!("Bot {}", shared.config.token));

    let reply = if let Some(error) = parse_error {
        Reply::error(
            400,
            50109,
            &format!("The request body contains invalid JSON. ({error})"),
        )
    } else if check.is_invalid() && shared.config.reject_invalid_bodies {
        let reply = invalid_form_body(&check);
        if let (Some(relative), Some(body)) = (relative, &body) {
            record_refused_callback(&shared, relative, body, received, reply.status);
        }
        reply
    } else if let Some(relative) = relative {
        let segments: Vec<&str> = relative.split('/').skip(1).collect();
        let mut state = shared.lock();
        // The request's files, for the message it creates or edits (see `attachments`).
        state.uploads = uploads;
        let reply = route(
            &shared,
            &mut state,
            &method,
            &segments,
            Request {
                query: uri.query(),
                body: body.as_ref(),
                authorised,
                received,
            },
        );
        state.uploads.clear();
        reply
    } else {
        Reply::not_found()
    };

    let mut state = shared.lock();
    state.requests.push(RecordedRequest {
        method: method.to_string(),
        path,
        query: uri.query().map(str::to_owned),
        body,
        at: received.duration_since(shared.started),
        status: reply.status,
        check,
    });
    drop(state);
    shared.changed.notify_waiters();

    let status = StatusCode::from_u16(reply.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    match reply.body {
        Some(body) => (status, [(header::CONTENT_TYPE, "application/json")], body.to_string()).into_response(),
        None => status.into_response(),
    }
}

/// A GET of an uploaded file's URL (the CDN: no token needed): its bytes, or 404.
fn file(shared: &Shared, path: &str, received: Instant) -> Response {
    let mut state = shared.lock();
    let bytes = state.files.get(&format!("{}{path}", shared.rest_url)).cloned();
    let status = if bytes.is_some() { 200 } else { 404 };
    state.requests.push(RecordedRequest {
        method: Method::GET.to_string(),
        path: path.to_owned(),
        query: None,
        body: None,
        at: received.duration_since(shared.started),
        status,
        check: BodyCheck::NoBody,
    });
    drop(state);
    shared.changed.notify_waiters();
    match bytes {
        Some(bytes) => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            bytes,
        )
            .into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// A callback refused for its body still counts as the bot's answer to the interaction (one
/// that failed), so `wait_for_callback` shows it instead of timing out.
fn record_refused_callback(shared: &Shared, relative: &str, body: &Value, received: Instant, status: u16) {
    let ["interactions", id, token, "callback"] = relative.split('/').skip(1).collect::<Vec<_>>()[..] else {
        return;
    };
    let mut state = shared.lock();
    if let Some(record) = parse(id)
        .and_then(|id| state.interaction_mut(InteractionId(id)))
        .filter(|r| r.token == token)
    {
        let latency = received.saturating_duration_since(record.dispatched_at);
        record.callbacks.push(Callback {
            interaction: record.id,
            body: body.clone(),
            latency,
            status,
        });
    }
}

/// Adds the documented limits the spec does not express to the spec's verdict.
fn with_limits(check: BodyCheck, relative: Option<&str>, body: Option<&Value>) -> BodyCheck {
    let (Some(relative), Some(body)) = (relative, body) else {
        return check;
    };
    let mut broken = limits::check(relative, body);
    if broken.is_empty() {
        return check;
    }
    match check {
        BodyCheck::Valid { operation } => BodyCheck::Invalid {
            operation: Some(operation),
            errors: broken,
        },
        BodyCheck::Invalid { operation, mut errors } => {
            errors.append(&mut broken);
            BodyCheck::Invalid { operation, errors }
        }
        BodyCheck::NoBody => BodyCheck::Invalid {
            operation: None,
            errors: broken,
        },
    }
}

/// The JSON body, from `application/json` or a multipart `payload_json` part.
fn parse_body(content_type: &str, bytes: &[u8]) -> (Option<Value>, Option<String>) {
    if bytes.is_empty() {
        return (None, None);
    }
    if content_type.starts_with("multipart/form-data") {
        return (multipart_payload_json(content_type, bytes), None);
    }
    match serde_json::from_slice(bytes) {
        Ok(value) => (Some(value), None),
        Err(why) => (None, Some(why.to_string())),
    }
}

/// A file part of a multipart body: `files[<index>]`, its file name and bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Upload {
    pub index: u64,
    pub filename: String,
    pub content: Vec<u8>,
}

/// The `files[N]` parts of a multipart body.
fn multipart_files(content_type: &str, bytes: &[u8]) -> Vec<Upload> {
    let Some(boundary) = content_type.split("boundary=").nth(1).map(|b| b.trim_matches('"')) else {
        return Vec::new();
    };
    let delimiter = format!("--{boundary}");
    let mut uploads = Vec::new();
    for part in split_bytes(bytes, delimiter.as_bytes()) {
        let Some(head_end) = find_bytes(part, b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&part[..head_end]);
        let mut content = &part[head_end + 4..];
        content = content.strip_suffix(b"\r\n").unwrap_or(content);
        let disposition = head
            .lines()
            .find(|l| l.to_ascii_lowercase().starts_with("content-disposition:"))
            .unwrap_or_default();
        let param = |name: &str| {
            disposition
                .split(';')
                .map(str::trim)
                .find_map(|p| p.strip_prefix(name)?.strip_prefix('='))
                .map(|v| v.trim_matches('"').to_owned())
        };
        let Some(index) = param("name").and_then(|n| n.strip_prefix("files[")?.strip_suffix(']')?.parse::<u64>().ok())
        else {
            continue;
        };
        uploads.push(Upload {
            index,
            filename: param("filename").unwrap_or_default(),
            content: content.to_vec(),
        });
    }
    uploads
}

fn find_bytes(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn split_bytes<'a>(bytes: &'a [u8], delimiter: &[u8]) -> Vec<&'a [u8]> {
    let mut parts = Vec::new();
    let mut rest = bytes;
    while let Some(at) = find_bytes(rest, delimiter) {
        parts.push(&rest[..at]);
        rest = &rest[at + delimiter.len()..];
    }
    parts.push(rest);
    parts
}

/// Discord's rules for files: every `files[N]` part is named by an `attachments` entry with id
/// `N` (and a file name), and a new attachment entry (a small id, not an existing attachment's
/// snowflake) has its `files[N]` part.
fn with_uploads(check: BodyCheck, body: Option<&Value>, uploads: &[Upload]) -> BodyCheck {
    // A message body lists them at the top; an interaction response, in its `data`.
    let listed: Vec<(u64, &Value)> = body
        .and_then(|b| {
            b["attachments"]
                .as_array()
                .or_else(|| b["data"]["attachments"].as_array())
        })
        .into_iter()
        .flatten()
        .filter_map(|a| {
            let id = a["id"]
                .as_str()
                .and_then(|id| id.parse().ok())
                .or_else(|| a["id"].as_u64())?;
            Some((id, a))
        })
        .collect();
    let mut broken = Vec::new();
    for upload in uploads {
        if !listed.iter().any(|(id, _)| *id == upload.index) {
            broken.push(format!(
                "files[{}]: no attachments entry has id \"{}\"",
                upload.index, upload.index
            ));
        }
        if upload.filename.is_empty() {
            broken.push(format!("files[{}]: the part has no filename", upload.index));
        }
    }
    for (id, _) in &listed {
        if *id < NEW_ATTACHMENT_IDS && !uploads.iter().any(|u| u.index == *id) {
            broken.push(format!("attachments: id \"{id}\" names no files[{id}] part"));
        }
    }
    if broken.is_empty() {
        return check;
    }
    match check {
        BodyCheck::Invalid { operation, mut errors } => {
            errors.append(&mut broken);
            BodyCheck::Invalid { operation, errors }
        }
        BodyCheck::Valid { operation } => BodyCheck::Invalid {
            operation: Some(operation),
            errors: broken,
        },
        BodyCheck::NoBody => BodyCheck::Invalid {
            operation: None,
            errors: broken,
        },
    }
}

/// Attachment ids below this name a file of the request; above, an attachment already stored.
const NEW_ATTACHMENT_IDS: u64 = 1 << 22;

/// A message body's `attachments` as stored: each new one (a file of this request) gets a
/// snowflake, its size and a URL, and its bytes are kept ([`State::files`]); entries naming an
/// attachment already on `existing` keep it.
fn attachments(state: &mut State, channel: ChannelId, body: &Value, existing: Option<&Value>) -> Value {
    let mut out = Vec::new();
    for entry in body["attachments"].as_array().into_iter().flatten() {
        let id = entry["id"]
            .as_str()
            .and_then(|id| id.parse::<u64>().ok())
            .or_else(|| entry["id"].as_u64());
        let Some(id) = id else { continue };
        if let Some(upload) = state.uploads.iter().find(|u| u.index == id).cloned() {
            let snowflake = state.ids.next();
            let filename = entry["filename"].as_str().unwrap_or(&upload.filename).to_owned();
            let url = format!("https://cdn.discordapp.test/attachments/{channel}/{snowflake}/{filename}");
            let mut stored = json!({
                "id": snowflake.to_string(),
                "filename": filename,
                "size": upload.content.len(),
                "url": url,
                "proxy_url": url,
                "content_type": if std::path::Path::new(&filename).extension().is_some_and(|e| e.eq_ignore_ascii_case("png")) { "image/png" } else { "text/plain; charset=utf-8" },
            });
            if let Some(description) = entry["description"].as_str() {
                stored["description"] = json!(description);
            }
            state.files.insert(url, upload.content);
            out.push(stored);
        } else if let Some(kept) = existing
            .and_then(|m| m["attachments"].as_array())
            .into_iter()
            .flatten()
            .find(|a| a["id"].as_str() == Some(&id.to_string()))
        {
            out.push(kept.clone());
        }
    }
    Value::Array(out)
}

fn multipart_payload_json(content_type: &str, bytes: &[u8]) -> Option<Value> {
    let boundary = content_type.split("boundary=").nth(1)?.trim_matches('"');
    let text = String::from_utf8_lossy(bytes);
    text.split(&format!("--{boundary}"))
        .find(|part| part.contains("name=\"payload_json\""))
        .and_then(|part| {
            let (_, content) = part.split_once("\r\n\r\n")?;
            serde_json::from_str(content.trim_end_matches("\r\n")).ok()
        })
}

fn invalid_form_body(check: &BodyCheck) -> Reply {
    let BodyCheck::Invalid { errors, .. } = check else {
        return Reply::error(400, 50035, "Invalid Form Body");
    };
    let errors: Vec<Value> = errors
        .iter()
        .map(|e| json!({"code": "OPENAPI_SCHEMA", "message": e}))
        .collect();
    Reply {
        status: 400,
        body: Some(json!({"message": "Invalid Form Body", "code": 50035, "errors": {"_errors": errors}})),
    }
}

/// What a route needs of a request besides its method and path.
#[derive(Clone, Copy)]
struct Request<'a> {
    query: Option<&'a str>,
    body: Option<&'a Value>,
    authorised: bool,
    received: Instant,
}

fn route(shared: &Shared, state: &mut State, method: &Method, segments: &[&str], request: Request<'_>) -> Reply {
    let Request {
        query,
        body,
        authorised,
        received,
    } = request;
    let empty = json!({});
    let body = body.unwrap_or(&empty);
    // Interaction callbacks and webhook-token routes are authorised by their token.
    let by_token = matches!(segments, ["interactions" | "webhooks", ..]);
    if !authorised && !by_token {
        return Reply::error(401, 0, "401: Unauthorized");
    }
    let app = shared.config.application_id.to_string();
    let m = method.as_str();
    match (m, segments) {
        ("GET", ["gateway"]) => Reply::ok(json!({"url": shared.gateway_url})),
        ("GET", ["gateway", "bot"]) => Reply::ok(json!({
            "url": shared.gateway_url,
            "shards": shared.config.shards,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 14_400_000, "max_concurrency": 1},
        })),
        ("GET", ["oauth2", "applications", "@me"] | ["applications", "@me"]) => {
            Reply::ok(application_json(shared, state))
        }
        ("GET", ["users", "@me"]) => Reply::ok(world::current_user_json(&shared.bot)),
        ("GET", ["users", id]) => match parse(id).and_then(|id| state.user(UserId(id))) {
            Some(user) => Reply::ok(world::user_json(user)),
            None => Reply::unknown("User", 10013),
        },
        ("POST", ["users", "@me", "channels"]) => dm_channel(state, body),
        (_, ["applications", a, "commands", rest @ ..]) if *a == app => commands(shared, state, m, None, rest, body),
        (_, ["applications", a, "guilds", g, "commands", rest @ ..]) if *a == app => {
            match parse(g).map(GuildId).filter(|g| state.guild(*g).is_some()) {
                Some(guild) => commands(shared, state, m, Some(guild), rest, body),
                None => Reply::unknown("Guild", 10004),
            }
        }
        ("POST", ["interactions", id, token, "callback"]) => callback(shared, state, id, token, body, received),
        (_, ["webhooks", a, token, rest @ ..]) if *a == app => webhook(shared, state, m, token, rest, body),
        (_, ["webhooks", ..]) => Reply::unknown("Webhook", 10015),
        ("GET", ["channels", c, "messages"]) => match parse(c).map(ChannelId).filter(|c| state.channel(*c).is_some()) {
            Some(channel) => channel_history(state, channel, query),
            None => Reply::unknown("Channel", 10003),
        },
        (_, ["channels", c, ..]) if parse(c).is_some_and(|c| state.locked_out(ChannelId(c))) => {
            Reply::error(403, 50001, "Missing Access")
        }
        ("POST", ["channels", c, "messages"]) => {
            match parse(c).map(ChannelId).filter(|c| state.channel(*c).is_some()) {
                Some(channel) => match create_message(shared, state, channel, body, 0, None) {
                    Ok(message) => Reply::ok(message),
                    Err(reply) => reply,
                },
                None => Reply::unknown("Channel", 10003),
            }
        }
        (_, ["channels", c, "messages", mid]) => channel_message(shared, state, m, c, mid, body),
        _ => Reply::not_found(),
    }
}

fn parse(id: &str) -> Option<u64> {
    id.parse().ok()
}

fn application_json(shared: &Shared, state: &State) -> Value {
    let owner = state.user(shared.app_owner).map_or(Value::Null, world::user_json);
    json!({
        "id": shared.config.application_id.to_json(),
        "name": shared.config.bot_name,
        "icon": null,
        "description": "Tactical tabletop combat (fake Discord)",
        "summary": "",
        "type": null,
        "bot": world::user_json(&shared.bot),
        "bot_public": true,
        "bot_require_code_grant": false,
        "verify_key": "0".repeat(64),
        "flags": 0,
        "hook": true,
        "is_monetized": false,
        "owner": owner,
        "team": null,
        "rpc_origins": [],
        "redirect_uris": [],
        "interactions_endpoint_url": null,
        "role_connections_verification_url": null,
        "tags": [],
        "integration_types_config": {"0": {}},
        "approximate_guild_count": state.guilds.len(),
        "approximate_user_install_count": 0,
    })
}

fn dm_channel(state: &mut State, body: &Value) -> Reply {
    let Some(user) = body["recipient_id"]
        .as_str()
        .and_then(parse)
        .or_else(|| body["recipient_id"].as_u64())
        .map(UserId)
    else {
        return Reply::error(400, 50035, "Invalid Form Body");
    };
    if state.user(user).is_none() {
        return Reply::unknown("User", 10013);
    }
    let channel = if let Some(channel) = state.dm_channels.iter().find(|c| c.recipient == Some(user)) {
        channel.clone()
    } else {
        let channel = FakeChannel {
            id: ChannelId(state.ids.next()),
            name: String::new(),
            guild: None,
            recipient: Some(user),
        };
        state.dm_channels.push(channel.clone());
        channel
    };
    Reply::ok(world::channel_json(&channel, 0, None, &state.users))
}

/// Global (`guild: None`) or guild command registration.
fn commands(
    shared: &Shared,
    state: &mut State,
    method: &str,
    guild: Option<GuildId>,
    rest: &[&str],
    body: &Value,
) -> Reply {
    match (method, rest) {
        ("GET", []) => Reply::ok(Value::Array(
            state
                .commands
                .iter()
                .filter(|c| c.guild == guild)
                .map(|c| c.value.clone())
                .collect(),
        )),
        ("PUT", []) => {
            let Some(list) = body.as_array() else {
                return Reply::error(400, 50035, "Invalid Form Body");
            };
            let previous: Vec<StoredCommand> = state.commands.iter().filter(|c| c.guild == guild).cloned().collect();
            state.commands.retain(|c| c.guild != guild);
            let mut out = Vec::new();
            for command in list {
                let existing = previous
                    .iter()
                    .find(|c| same_command(&c.value, command))
                    .map(|c| c.value["id"].clone());
                let stored = stored_command(shared, state, guild, command, existing);
                out.push(stored.clone());
                state.commands.push(StoredCommand { guild, value: stored });
            }
            Reply::ok(Value::Array(out))
        }
        ("POST", []) => {
            let position = state
                .commands
                .iter()
                .position(|c| c.guild == guild && same_command(&c.value, body));
            let existing = position.map(|i| state.commands[i].value["id"].clone());
            let created = existing.is_none();
            let stored = stored_command(shared, state, guild, body, existing);
            match position {
                Some(i) => state.commands[i].value = stored.clone(),
                None => state.commands.push(StoredCommand {
                    guild,
                    value: stored.clone(),
                }),
            }
            Reply {
                status: if created { 201 } else { 200 },
                body: Some(stored),
            }
        }
        ("GET" | "PATCH" | "DELETE", [id]) => {
            let Some(i) = state
                .commands
                .iter()
                .position(|c| c.guild == guild && c.value["id"] == *id)
            else {
                return Reply::unknown("application command", 10063);
            };
            match method {
                "GET" => Reply::ok(state.commands[i].value.clone()),
                "DELETE" => {
                    state.commands.remove(i);
                    Reply::no_content()
                }
                _ => {
                    let mut merged = state.commands[i].value.clone();
                    if let (Some(fields), Some(edits)) = (merged.as_object_mut(), body.as_object()) {
                        fields.extend(edits.clone());
                    }
                    let stored = stored_command(shared, state, guild, &merged, Some(merged["id"].clone()));
                    state.commands[i].value = stored.clone();
                    Reply::ok(stored)
                }
            }
        }
        _ => Reply::not_found(),
    }
}

fn same_command(a: &Value, b: &Value) -> bool {
    a["name"] == b["name"] && a["type"].as_u64().unwrap_or(1) == b["type"].as_u64().unwrap_or(1)
}

/// A command as Discord stores and returns it, with the defaults it fills in.
fn stored_command(
    shared: &Shared,
    state: &mut State,
    guild: Option<GuildId>,
    sent: &Value,
    id: Option<Value>,
) -> Value {
    let mut command = sent.clone();
    let id = id.unwrap_or_else(|| json!(state.ids.next().to_string()));
    let version = state.ids.next().to_string();
    let Some(fields) = command.as_object_mut() else {
        return command;
    };
    fields.insert("id".into(), id);
    fields.insert("application_id".into(), shared.config.application_id.to_json());
    fields.insert("version".into(), json!(version));
    let defaults = [
        ("type", json!(1)),
        ("description", json!("")),
        ("options", json!([])),
        ("default_member_permissions", Value::Null),
        ("nsfw", json!(false)),
        ("name_localizations", Value::Null),
        ("description_localizations", Value::Null),
        ("integration_types", json!([0])),
        ("contexts", Value::Null),
    ];
    for (key, default) in defaults {
        if fields.get(key).is_none_or(Value::is_null) {
            fields.insert(key.into(), default);
        }
    }
    match guild {
        Some(guild) => {
            fields.insert("guild_id".into(), guild.to_json());
        }
        None => {
            fields.entry("dm_permission").or_insert(json!(true));
        }
    }
    command
}

/// `POST /interactions/{id}/{token}/callback`.
fn callback(shared: &Shared, state: &mut State, id: &str, token: &str, body: &Value, received: Instant) -> Reply {
    let deadline = shared.config.callback_deadline;
    let Some(record) = parse(id)
        .and_then(|id| state.interaction_mut(InteractionId(id)))
        .filter(|r| r.token == token)
    else {
        return Reply::unknown("interaction", 10062);
    };
    let latency = received.saturating_duration_since(record.dispatched_at);
    let status = if latency > deadline {
        404
    } else if record.acknowledged {
        400
    } else {
        204
    };
    record.callbacks.push(Callback {
        interaction: record.id,
        body: body.clone(),
        latency,
        status,
    });
    match status {
        404 => return Reply::unknown("interaction", 10062),
        400 => return Reply::error(400, 40060, "Interaction has already been acknowledged."),
        _ => record.acknowledged = true,
    }
    let (interaction, channel, original, kind) = (record.id, record.channel, record.original, record.kind);
    let data = body.get("data").cloned().unwrap_or_else(|| json!({}));
    match body["type"].as_u64() {
        // CHANNEL_MESSAGE_WITH_SOURCE and DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE create the
        // original response; a deferred one shows "thinking…" (LOADING) until edited.
        Some(t @ (4 | 5)) => {
            let mut data = data;
            if t == 5 {
                let flags = data["flags"].as_u64().unwrap_or(0) & EPHEMERAL;
                data = json!({"content": "", "flags": flags | LOADING});
            }
            let message_kind = if kind == 2 { 20 } else { 19 };
            match create_message(shared, state, channel, &data, message_kind, Some(interaction)) {
                Ok(message) => {
                    let id = message["id"].as_str().and_then(parse).map(MessageId);
                    if let Some(record) = state.interaction_mut(interaction) {
                        record.original = id;
                    }
                }
                Err(reply) => return reply,
            }
        }
        // UPDATE_MESSAGE edits the message the component was on.
        Some(7) => {
            if let Some(message) = original {
                edit_message(state, message, &data);
            }
        }
        // PONG, DEFERRED_UPDATE_MESSAGE, autocomplete results, modals: nothing to store.
        _ => {}
    }
    Reply::no_content()
}

/// Follow-ups and `@original` / `{message_id}` on an interaction token.
fn webhook(shared: &Shared, state: &mut State, method: &str, token: &str, rest: &[&str], body: &Value) -> Reply {
    let Some(record) = state.interactions.iter().find(|i| i.token == token) else {
        return Reply::unknown("Webhook", 10015);
    };
    let (interaction, channel, original, acknowledged) =
        (record.id, record.channel, record.original, record.acknowledged);
    match (method, rest) {
        ("POST", []) => {
            if !acknowledged {
                return Reply::unknown("Webhook", 10015);
            }
            // The first follow-up after a deferred response replaces its "thinking…" message
            // (which keeps the deferral's ephemerality).
            let loading = original.filter(|id| {
                state
                    .messages
                    .iter()
                    .any(|m| m.id == *id && m.value["flags"].as_u64().unwrap_or(0) & LOADING != 0)
            });
            if let Some(original) = loading {
                let mut edit = body.clone();
                if let Some(fields) = edit.as_object_mut() {
                    fields.remove("flags");
                }
                return Reply::ok(edit_message(state, original, &edit));
            }
            match create_message(shared, state, channel, body, 0, Some(interaction)) {
                Ok(message) => Reply::ok(message),
                Err(reply) => reply,
            }
        }
        (_, ["messages", which]) => {
            let target = if *which == "@original" {
                original
            } else {
                parse(which).map(MessageId)
            };
            let Some(target) = target.filter(|id| state.messages.iter().any(|m| m.id == *id && m.channel == channel))
            else {
                return Reply::unknown("Message", 10008);
            };
            match method {
                "GET" => Reply::ok(stored(state, target)),
                "PATCH" => Reply::ok(edit_message(state, target, body)),
                "DELETE" => {
                    state.messages.retain(|m| m.id != target);
                    Reply::no_content()
                }
                _ => Reply::not_found(),
            }
        }
        _ => Reply::not_found(),
    }
}

/// `GET`/`PATCH`/`DELETE /channels/{id}/messages/{id}`.
fn channel_message(
    shared: &Shared,
    state: &mut State,
    method: &str,
    channel: &str,
    message: &str,
    body: &Value,
) -> Reply {
    let Some(channel) = parse(channel).map(ChannelId).filter(|c| state.channel(*c).is_some()) else {
        return Reply::unknown("Channel", 10003);
    };
    let Some(stored_message) = parse(message).and_then(|m| {
        state
            .messages
            .iter()
            .find(|s| s.id == MessageId(m) && s.channel == channel)
    }) else {
        return Reply::unknown("Message", 10008);
    };
    let (id, own) = (
        stored_message.id,
        stored_message.value["author"]["id"] == shared.bot.id.to_json(),
    );
    match method {
        "GET" => Reply::ok(stored(state, id)),
        "PATCH" if !own => Reply::error(403, 50005, "Cannot edit a message authored by another user"),
        "PATCH" => Reply::ok(edit_message(state, id, body)),
        "DELETE" => {
            state.messages.retain(|m| m.id != id);
            Reply::no_content()
        }
        _ => Reply::not_found(),
    }
}

/// `GET /channels/{id}/messages`: the channel's history, newest first — at most `limit`
/// messages (1–100, 50 by default), `before` or `after` a message id (without either, the
/// latest). Ephemeral messages are in nobody's history.
fn channel_history(state: &State, channel: ChannelId, query: Option<&str>) -> Reply {
    let param = |name: &str| {
        query
            .into_iter()
            .flat_map(|q| q.split('&'))
            .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
    };
    let limit = match param("limit").map(str::parse::<usize>) {
        None => 50,
        Some(Ok(limit @ 1..=100)) => limit,
        Some(_) => return Reply::error(400, 50035, "Invalid Form Body"),
    };
    let (before, after) = (param("before").and_then(parse), param("after").and_then(parse));
    let history = state.messages.iter().filter(|m| {
        m.channel == channel
            && m.value["flags"].as_u64().unwrap_or(0) & EPHEMERAL == 0
            && before.is_none_or(|b| m.id.0 < b)
            && after.is_none_or(|a| m.id.0 > a)
    });
    let page: Vec<Value> = if after.is_some() {
        // The `limit` messages right after `after`, still sent newest first.
        let mut oldest: Vec<Value> = history.take(limit).map(|m| m.value.clone()).collect();
        oldest.reverse();
        oldest
    } else {
        history.rev().take(limit).map(|m| m.value.clone()).collect()
    };
    Reply::ok(Value::Array(page))
}

fn stored(state: &State, id: MessageId) -> Value {
    state
        .messages
        .iter()
        .find(|m| m.id == id)
        .map_or(Value::Null, |m| m.value.clone())
}

/// Stores a message the bot sent and returns it as Discord would.
fn create_message(
    shared: &Shared,
    state: &mut State,
    channel: ChannelId,
    body: &Value,
    kind: u8,
    interaction: Option<InteractionId>,
) -> Result<Value, Reply> {
    let has = |name: &str| {
        body.get(name)
            .is_some_and(|v| !v.is_null() && v != "" && v != &json!([]))
    };
    let loading = body["flags"].as_u64().unwrap_or(0) & LOADING != 0;
    if !loading
        && !["content", "embeds", "components", "attachments", "sticker_ids", "poll"]
            .into_iter()
            .any(has)
    {
        return Err(Reply::error(400, 50006, "Cannot send an empty message"));
    }
    let id = MessageId(state.ids.next());
    let record = interaction.and_then(|i| state.interactions.iter().find(|r| r.id == i));
    let metadata = record.and_then(|record| {
        let user = state.user(record.user)?;
        let mut metadata = json!({
            "id": record.id.to_json(),
            "type": record.kind,
            "user": world::user_json(user),
            "authorizing_integration_owners": record.payload["authorizing_integration_owners"].clone(),
        });
        if let Some(name) = &record.name {
            metadata["name"] = json!(name);
        }
        if let (Some(original), true) = (record.original, record.kind == 3) {
            metadata["interacted_message_id"] = original.to_json();
        }
        Some(metadata)
    });
    let content = body["content"].as_str().unwrap_or_default();
    let mentions = mention_objects(state, content);
    let value = world::message_json(&NewMessage {
        id,
        channel,
        author: &shared.bot,
        body,
        kind: if kind == 0 && body.get("message_reference").is_some() {
            19
        } else {
            kind
        },
        webhook: interaction.map(|_| shared.config.application_id),
        interaction_metadata: metadata,
        mentions,
    });
    let mut value = value;
    value["attachments"] = attachments(state, channel, body, None);
    state.messages.push(StoredMessage {
        id,
        channel,
        value: value.clone(),
    });
    let ephemeral = value["flags"].as_u64().unwrap_or(0) & EPHEMERAL != 0;
    if !ephemeral {
        let guild = state.channel(channel).and_then(|c| c.guild);
        let mut event = value.clone();
        if let Some(guild) = guild {
            event["guild_id"] = guild.to_json();
        }
        if state
            .live_session_for(guild)
            .is_some_and(|s| s.intents & message_intent(guild) != 0)
        {
            state.dispatch_to(guild, "MESSAGE_CREATE", event, None);
        }
    }
    Ok(value)
}

/// `GUILD_MESSAGES` (1 << 9) or `DIRECT_MESSAGES` (1 << 12).
fn message_intent(guild: Option<GuildId>) -> u64 {
    if guild.is_some() { 1 << 9 } else { 1 << 12 }
}

fn edit_message(state: &mut State, id: MessageId, edit: &Value) -> Value {
    let content = edit["content"].as_str().map(str::to_owned);
    let mentions = content
        .as_deref()
        .map(|c| mention_objects(state, c))
        .unwrap_or_default();
    let files = state.messages.iter().find(|m| m.id == id).map(|m| {
        let existing = m.value.clone();
        (m.channel, existing)
    });
    let stored_files = match (&files, edit.get("attachments")) {
        (Some((channel, existing)), Some(_)) => Some(attachments(state, *channel, edit, Some(existing))),
        _ => None,
    };
    let Some(message) = state.message_mut(id) else {
        return Value::Null;
    };
    let was_loading = message.value["flags"].as_u64().unwrap_or(0) & LOADING != 0;
    world::apply_edit(&mut message.value, edit, mentions);
    if let Some(files) = stored_files {
        message.value["attachments"] = files;
    }
    if was_loading {
        // Editing a deferred response replaces the "thinking…" state.
        let flags = message.value["flags"].as_u64().unwrap_or(0) & !LOADING;
        message.value["flags"] = json!(flags);
    }
    message.value.clone()
}

fn mention_objects(state: &State, content: &str) -> Vec<Value> {
    world::mentioned_ids(content)
        .into_iter()
        .filter_map(|id| state.user(id))
        .map(world::user_json)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_payload_json_part_of_a_multipart_body_is_the_body() {
        let body = "--XyZ\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"map.png\"\r\n\r\n\u{89}PNG\r\n\
                    --XyZ\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\r\n{\"content\":\"see map\"}\r\n--XyZ--\r\n";
        let (parsed, error) = parse_body("multipart/form-data; boundary=XyZ", body.as_bytes());
        assert_eq!((parsed, error), (Some(json!({"content": "see map"})), None));
    }

    #[test]
    fn a_file_part_must_be_named_by_an_attachment_entry() {
        let body = "--XyZ\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"log.txt\"\r\nContent-Type: text/plain\r\n\r\nline 1\r\nline 2\r\n\
                    --XyZ\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\r\n{}\r\n--XyZ--\r\n";
        let uploads = multipart_files("multipart/form-data; boundary=XyZ", body.as_bytes());
        assert_eq!(
            uploads,
            vec![Upload {
                index: 0,
                filename: "log.txt".into(),
                content: b"line 1\r\nline 2".to_vec(),
            }]
        );
        let valid = || BodyCheck::Valid {
            operation: "createMessage".into(),
        };
        let named = json!({"attachments": [{"id": "0", "filename": "log.txt"}]});
        assert!(!with_uploads(valid(), Some(&named), &uploads).is_invalid());
        // A file nobody names, and an entry with no file.
        assert!(with_uploads(valid(), Some(&json!({})), &uploads).is_invalid());
        assert!(with_uploads(valid(), Some(&named), &[]).is_invalid());
    }

    #[test]
    fn broken_json_is_reported_not_guessed() {
        let (parsed, error) = parse_body("application/json", b"{\"content\": ");
        assert!(parsed.is_none() && error.is_some());
    }
}
