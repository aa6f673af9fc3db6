//! The gateway spoken to by hand: HELLO, a refused token, IDENTIFY → READY + `GUILD_CREATE` with
//! sequence numbers, heartbeat ACKs, and `compress=zlib-stream` transport compression.

use std::time::Duration;

use fake_discord::FakeDiscord;
use flate2::{Decompress, FlushDecompress};
use futures_util::{SinkExt as _, StreamExt as _};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

const WAIT: Duration = Duration::from_secs(5);

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Reads one payload, inflating it when the connection is zlib-stream compressed.
async fn next(ws: &mut Socket, inflate: Option<&mut Decompress>) -> Value {
    let message = tokio::time::timeout(WAIT, ws.next())
        .await
        .expect("a frame in time")
        .unwrap()
        .unwrap();
    let bytes = match (message, inflate) {
        (Message::Text(text), None) => return serde_json::from_str(&text).unwrap(),
        (Message::Binary(bytes), Some(inflate)) => {
            let mut out = Vec::with_capacity(bytes.len() * 8 + 1024);
            let mut input = &bytes[..];
            while !input.is_empty() {
                out.reserve(4096);
                let before = inflate.total_in();
                inflate.decompress_vec(input, &mut out, FlushDecompress::Sync).unwrap();
                input = &input[usize::try_from(inflate.total_in() - before).unwrap()..];
            }
            out
        }
        (other, _) => panic!("unexpected frame {other:?}"),
    };
    serde_json::from_slice(&bytes).unwrap()
}

fn identify(token: &str) -> Message {
    Message::Text(
        json!({"op": 2, "d": {"token": token, "intents": 1, "properties": {"os": "linux", "browser": "test", "device": "test"}}})
            .to_string(),
    )
}

#[tokio::test]
async fn a_wrong_token_is_closed_with_4004() {
    let fake = FakeDiscord::start().await;
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("{}/?v=10&encoding=json", fake.gateway_url()))
        .await
        .unwrap();
    assert_eq!(next(&mut ws, None).await["op"], 10);
    ws.send(identify("not-the-token")).await.unwrap();
    let frame = tokio::time::timeout(WAIT, ws.next()).await.unwrap().unwrap().unwrap();
    let Message::Close(Some(close)) = frame else {
        panic!("expected a close frame, got {frame:?}")
    };
    assert_eq!(u16::from(close.code), 4004);
}

#[tokio::test]
async fn zlib_stream_identify_ready_guild_create_and_heartbeat() {
    let fake = FakeDiscord::start().await;
    let url = format!("{}/?v=10&encoding=json&compress=zlib-stream", fake.gateway_url());
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let mut inflate = Decompress::new(true);

    let hello = next(&mut ws, Some(&mut inflate)).await;
    assert_eq!(hello["op"], 10);
    assert_eq!(hello["d"]["heartbeat_interval"], 41_250);

    ws.send(identify(&format!("Bot {}", fake.token()))).await.unwrap();
    let ready = next(&mut ws, Some(&mut inflate)).await;
    assert_eq!(
        (ready["op"].as_u64(), ready["s"].as_u64(), ready["t"].as_str()),
        (Some(0), Some(1), Some("READY"))
    );
    assert_eq!(ready["d"]["application"]["id"], fake.application_id().to_json());
    assert_eq!(
        ready["d"]["guilds"][0],
        json!({"id": fake.guild().to_json(), "unavailable": true})
    );
    assert_eq!(ready["d"]["resume_gateway_url"], fake.gateway_url());

    let guild = next(&mut ws, Some(&mut inflate)).await;
    assert_eq!(
        (guild["s"].as_u64(), guild["t"].as_str()),
        (Some(2), Some("GUILD_CREATE"))
    );
    assert_eq!(guild["d"]["channels"][0]["name"], "combat");

    ws.send(Message::Text(json!({"op": 1, "d": 2}).to_string()))
        .await
        .unwrap();
    assert_eq!(next(&mut ws, Some(&mut inflate)).await["op"], 11);
    fake.wait_for_ready(WAIT).await.unwrap();
}

#[tokio::test]
async fn dropping_the_fake_closes_its_connections_and_ports() {
    let fake = FakeDiscord::start().await;
    let (rest, gateway) = (fake.rest_addr(), fake.gateway_addr());
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("{}/?v=10", fake.gateway_url()))
        .await
        .unwrap();
    assert_eq!(next(&mut ws, None).await["op"], 10);

    drop(fake);
    let end = tokio::time::timeout(WAIT, ws.next())
        .await
        .expect("the connection ends");
    assert!(matches!(end, None | Some(Err(_) | Ok(Message::Close(_)))), "{end:?}");
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let rest_open = tokio::net::TcpStream::connect(rest).await.is_ok();
        let gateway_open = tokio::net::TcpStream::connect(gateway).await.is_ok();
        if !rest_open && !gateway_open {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "still listening: rest {rest_open}, gateway {gateway_open}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
