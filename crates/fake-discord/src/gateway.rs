//! The gateway over `ws://`: HELLO, IDENTIFY → READY + `GUILD_CREATE`, heartbeats and ACKs,
//! dispatches with increasing sequence numbers, RESUME with replay.
//!
//! Sharding: IDENTIFY's `shard: [id, count]` makes the session shard `id` of `count` (an id
//! out of range is closed with 4010). Its READY and `GUILD_CREATE`s list only the guilds it
//! owns — guild `g` is on shard `(g >> 22) % count`, DMs on shard 0 — and every later dispatch
//! about a guild goes to the connected session of the shard that owns it.
//!
//! Compression: serenity 0.12 connects to `{url}?v=10` (no `compress` query) and sends
//! `"compress": true` in IDENTIFY, which lets Discord zlib-compress single payloads as binary
//! frames; the fake does so for READY and `GUILD_CREATE`, the payloads Discord compresses. A
//! client asking for `compress=zlib-stream` gets transport compression: one zlib stream for the
//! connection, every frame ending in a sync flush.

use std::collections::VecDeque;
use std::io::Write as _;
use std::sync::Arc;
use std::time::Instant;

use flate2::{Compress, Compression, FlushCompress};
use futures_util::{SinkExt as _, StreamExt as _};
use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::handshake::server::{Request, Response};
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use crate::ids::InteractionId;
use crate::{Session, Shared, world};

/// The GUILDS intent: without it Discord sends no `GUILD_CREATE`.
pub(crate) const INTENT_GUILDS: u64 = 1;
/// How many dispatches a session keeps for RESUME.
const REPLAY_LIMIT: usize = 1000;

/// What the fake sends on a connection.
#[derive(Debug)]
pub(crate) enum Outbound {
    /// A payload; `interaction` marks an `INTERACTION_CREATE` whose send time is recorded.
    Frame {
        payload: Value,
        interaction: Option<InteractionId>,
    },
    /// Close the connection with a Discord close code.
    Close(u16, &'static str),
}

pub(crate) fn spawn(shared: Arc<Shared>, listener: TcpListener, mut stopped: watch::Receiver<()>) {
    tokio::spawn(async move {
        loop {
            tokio::select! {
                _ = stopped.changed() => break,
                accepted = listener.accept() => {
                    let Ok((stream, _)) = accepted else { continue };
                    // Frames go one way (to the bot), with nothing to piggyback its ACKs on: with
                    // Nagle's algorithm a frame sent while the last one is unacknowledged would
                    // wait for the bot's delayed ACK (40 ms), and that would count as its latency.
                    let _ = stream.set_nodelay(true);
                    tokio::spawn(connection(Arc::clone(&shared), stream, stopped.clone()));
                }
            }
        }
    });
}

pub(crate) fn send_dispatch(session: &mut Session, t: &str, d: Value, interaction: Option<InteractionId>) -> bool {
    session.seq += 1;
    let mut payload = json!({"op": 0, "s": session.seq, "t": t});
    payload["d"] = d;
    if session.replay.len() == REPLAY_LIMIT {
        session.replay.pop_front();
    }
    session.replay.push_back(payload.clone());
    session
        .sender
        .as_ref()
        .is_some_and(|tx| tx.send(Outbound::Frame { payload, interaction }).is_ok())
}

pub(crate) fn send_reconnect(session: &mut Session) -> bool {
    let payload = json!({"op": 7, "d": null});
    session.sender.as_ref().is_some_and(|tx| {
        tx.send(Outbound::Frame {
            payload,
            interaction: None,
        })
        .is_ok()
    })
}

/// How frames are encoded on one connection.
struct Encoder {
    /// `compress=zlib-stream`: one deflate context for the whole connection.
    stream: Option<Compress>,
    /// IDENTIFY said `compress: true`.
    payload_compression: bool,
}

impl Encoder {
    fn encode(&mut self, payload: &Value) -> Message {
        let text = payload.to_string();
        if let Some(stream) = &mut self.stream {
            let mut out = Vec::with_capacity(text.len() / 2 + 64);
            let mut input = text.as_bytes();
            // Each round has room for the input plus slack, so a few rounds always suffice.
            for _ in 0..16 {
                out.reserve(input.len() + 64);
                let before_in = stream.total_in();
                let status = stream.compress_vec(input, &mut out, FlushCompress::Sync);
                let consumed = usize::try_from(stream.total_in() - before_in).unwrap_or(input.len());
                input = &input[consumed..];
                // Done once all input is in and the sync flush's 00 00 ff ff marker is out.
                if status.is_err() || (input.is_empty() && out.ends_with(&[0, 0, 0xff, 0xff])) {
                    break;
                }
            }
            return Message::Binary(out);
        }
        let big = matches!(payload["t"].as_str(), Some("READY" | "GUILD_CREATE"));
        if self.payload_compression && big {
            let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), Compression::default());
            if encoder.write_all(text.as_bytes()).is_ok()
                && let Ok(bytes) = encoder.finish()
            {
                return Message::Binary(bytes);
            }
        }
        Message::Text(text)
    }
}

async fn connection(shared: Arc<Shared>, stream: TcpStream, mut stopped: watch::Receiver<()>) {
    let mut query = String::new();
    // tungstenite's callback signature fixes the (large) error type.
    #[allow(clippy::result_large_err)]
    let capture = |request: &Request, response: Response| {
        request.uri().query().unwrap_or_default().clone_into(&mut query);
        Ok(response)
    };
    let Ok(mut ws) = tokio_tungstenite::accept_hdr_async(stream, capture).await else {
        return;
    };
    let mut encoder = Encoder {
        stream: query
            .split('&')
            .any(|kv| kv == "compress=zlib-stream")
            .then(|| Compress::new(Compression::default(), true)),
        payload_compression: false,
    };

    let (tx, mut rx) = mpsc::unbounded_channel();
    let hello = json!({"op": 10, "d": {"heartbeat_interval": shared.config.heartbeat_interval.as_millis()}});
    if ws.send(encoder.encode(&hello)).await.is_err() {
        return;
    }
    // The session this connection serves, once IDENTIFY or RESUME named it.
    let mut session_id: Option<String> = None;

    loop {
        tokio::select! {
            _ = stopped.changed() => break,
            outbound = rx.recv() => {
                let Some(outbound) = outbound else { break };
                match outbound {
                    Outbound::Frame { payload, interaction } => {
                        if ws.send(encoder.encode(&payload)).await.is_err() {
                            break;
                        }
                        if let Some(id) = interaction
                            && let Some(record) = shared.lock().interaction_mut(id) {
                                record.dispatched_at = Instant::now();
                            }
                    }
                    Outbound::Close(code, reason) => {
                        let frame = CloseFrame { code: CloseCode::from(code), reason: reason.into() };
                        let _ = ws.send(Message::Close(Some(frame))).await;
                        break;
                    }
                }
            }
            incoming = ws.next() => {
                let Some(Ok(message)) = incoming else { break };
                let text = match message {
                    Message::Text(text) => text,
                    Message::Binary(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                    Message::Close(_) => break,
                    _ => continue,
                };
                let Ok(frame) = serde_json::from_str::<Value>(&text) else {
                    let _ = tx.send(Outbound::Close(4002, "Error while decoding payload."));
                    continue;
                };
                handle_frame(&shared, &frame, &tx, &mut session_id, &mut encoder);
            }
        }
    }
    // Leave the session resumable; a new connection may RESUME it.
    let mut state = shared.lock();
    if let Some(session) = session_id.and_then(|id| state.sessions.iter_mut().find(|s| s.id == id))
        && session.sender.as_ref().is_some_and(|s| s.same_channel(&tx))
    {
        session.sender = None;
    }
    drop(state);
    shared.changed.notify_waiters();
}

/// IDENTIFY's `shard` field: absent means `[0, 1]`; otherwise `[shard_id, shard_count]` with
/// `shard_id < shard_count`, or `None` (Discord closes with 4010 "Invalid shard").
fn shard_of_identify(shard: &Value) -> Option<[u32; 2]> {
    if shard.is_null() {
        return Some([0, 1]);
    }
    let pair = shard.as_array().filter(|a| a.len() == 2)?;
    let number = |v: &Value| v.as_u64().and_then(|n| u32::try_from(n).ok());
    let (id, count) = (number(&pair[0])?, number(&pair[1])?);
    (id < count).then_some([id, count])
}

fn handle_frame(
    shared: &Shared,
    frame: &Value,
    tx: &mpsc::UnboundedSender<Outbound>,
    session_id: &mut Option<String>,
    encoder: &mut Encoder,
) {
    let mut state = shared.lock();
    state.gateway_received.push(frame.clone());
    let d = &frame["d"];
    match frame["op"].as_u64() {
        // Heartbeat → Heartbeat ACK.
        Some(1) => {
            let _ = tx.send(Outbound::Frame {
                payload: json!({"op": 11}),
                interaction: None,
            });
        }
        // Identify.
        Some(2) => {
            let token = d["token"].as_str().unwrap_or_default();
            if token.strip_prefix("Bot ").unwrap_or(token) != shared.config.token {
                let _ = tx.send(Outbound::Close(4004, "Authentication failed."));
            } else if session_id.is_some() {
                let _ = tx.send(Outbound::Close(4005, "Already authenticated."));
            } else if let Some(shard) = shard_of_identify(&d["shard"]) {
                encoder.payload_compression = d["compress"].as_bool().unwrap_or(false);
                let id = format!("fake-session-{}", state.ids.next());
                let intents = d["intents"].as_u64().unwrap_or(0);
                let mut session = Session {
                    id: id.clone(),
                    seq: 0,
                    intents,
                    sender: Some(tx.clone()),
                    replay: VecDeque::new(),
                    shard,
                };
                // A shard hears only of the guilds it owns.
                let guilds: Vec<&world::FakeGuild> = state.guilds.iter().filter(|g| session.owns(Some(g.id))).collect();
                let ready = json!({
                    "v": 10,
                    "user": world::current_user_json(&shared.bot),
                    "user_settings": {},
                    "guilds": guilds.iter().map(|g| json!({"id": g.id.to_json(), "unavailable": true})).collect::<Vec<_>>(),
                    "presences": [],
                    "private_channels": [],
                    "relationships": [],
                    "guild_join_requests": [],
                    "geo_ordered_rtc_regions": ["rotterdam", "frankfurt", "london", "stockholm", "milan"],
                    "session_type": "normal",
                    "session_id": id,
                    "resume_gateway_url": shared.gateway_url,
                    "shard": shard,
                    "application": {"id": shared.config.application_id.to_json(), "flags": 0},
                    "auth": {},
                    "_trace": ["[\"fake-discord\",{\"micros\":0}]"],
                });
                let creates: Vec<Value> = if intents & INTENT_GUILDS == 0 {
                    Vec::new()
                } else {
                    guilds
                        .iter()
                        .map(|g| world::guild_create_json(g, &state.users, &shared.bot))
                        .collect()
                };
                send_dispatch(&mut session, "READY", ready, None);
                for payload in creates {
                    send_dispatch(&mut session, "GUILD_CREATE", payload, None);
                }
                state.sessions.push(session);
                *session_id = Some(id);
            } else {
                let _ = tx.send(Outbound::Close(4010, "Invalid shard."));
            }
        }
        // Resume: replay what the client missed, then RESUMED.
        Some(6) => {
            let token = d["token"].as_str().unwrap_or_default();
            let wanted = d["session_id"].as_str().unwrap_or_default();
            let seen = d["seq"].as_u64().unwrap_or(0);
            let session = state.sessions.iter_mut().find(|s| s.id == wanted);
            match session {
                Some(session) if token.strip_prefix("Bot ").unwrap_or(token) == shared.config.token => {
                    session.sender = Some(tx.clone());
                    for payload in session.replay.iter().filter(|p| p["s"].as_u64().unwrap_or(0) > seen) {
                        let _ = tx.send(Outbound::Frame {
                            payload: payload.clone(),
                            interaction: None,
                        });
                    }
                    send_dispatch(session, "RESUMED", json!({"_trace": []}), None);
                    *session_id = Some(session.id.clone());
                }
                _ => {
                    // Invalid session, not resumable: the client must IDENTIFY afresh.
                    let _ = tx.send(Outbound::Frame {
                        payload: json!({"op": 9, "d": false}),
                        interaction: None,
                    });
                }
            }
        }
        // Presence updates, voice state, guild member requests: recorded, nothing to answer.
        Some(3 | 4 | 8) => {}
        _ => {
            let _ = tx.send(Outbound::Close(4001, "Unknown opcode."));
        }
    }
    drop(state);
    shared.changed.notify_waiters();
}
