//! Sharding spoken to by hand: `/gateway/bot` recommends the configured shard count; two
//! connections IDENTIFY as shards 0 and 1 of 2 and each hears only of its own guilds
//! (READY, `GUILD_CREATE`, interactions); a shard id out of range is closed with 4010.

use std::time::Duration;

use fake_discord::{Config, FakeDiscord, shard_of};
use futures_util::{SinkExt as _, StreamExt as _};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

const WAIT: Duration = Duration::from_secs(5);

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn next(ws: &mut Socket) -> Message {
    tokio::time::timeout(WAIT, ws.next())
        .await
        .expect("a frame in time")
        .expect("the connection is open")
        .expect("a frame")
}

async fn next_json(ws: &mut Socket) -> Value {
    match next(ws).await {
        Message::Text(text) => serde_json::from_str(&text).unwrap(),
        other => panic!("unexpected frame {other:?}"),
    }
}

/// Connects and IDENTIFYs with `shard` (`Value::Null`: no shard field).
async fn connect(fake: &FakeDiscord, shard: Value) -> Socket {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("{}/?v=10&encoding=json", fake.gateway_url()))
        .await
        .unwrap();
    assert_eq!(next_json(&mut ws).await["op"], 10);
    let mut d = json!({"token": format!("Bot {}", fake.token()), "intents": 1, "properties": {}});
    if !shard.is_null() {
        d["shard"] = shard;
    }
    ws.send(Message::Text(json!({"op": 2, "d": d}).to_string()))
        .await
        .unwrap();
    ws
}

/// READY and the `GUILD_CREATE`s after it: the shard field and the guild ids, in order.
async fn ready_and_guilds(ws: &mut Socket, guilds: usize) -> (Value, Vec<Value>, Vec<Value>) {
    let ready = next_json(ws).await;
    assert_eq!(ready["t"], "READY");
    let listed = ready["d"]["guilds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].clone())
        .collect();
    let mut created = Vec::new();
    for _ in 0..guilds {
        let frame = next_json(ws).await;
        assert_eq!(frame["t"], "GUILD_CREATE");
        created.push(frame["d"]["id"].clone());
    }
    (ready["d"]["shard"].clone(), listed, created)
}

async fn register_ping(fake: &FakeDiscord) {
    let response = reqwest::Client::new()
        .put(format!(
            "{}/api/v10/applications/{}/commands",
            fake.rest_url(),
            fake.application_id()
        ))
        .header("Authorization", format!("Bot {}", fake.token()))
        .json(&json!([{"name": "ping", "description": "Are you there?", "type": 1}]))
        .send()
        .await
        .unwrap();
    assert!(response.status().is_success(), "{}", response.status());
}

#[tokio::test]
async fn each_shard_gets_only_its_own_guilds_and_their_interactions() {
    let fake = FakeDiscord::start_with(Config {
        shards: 2,
        ..Config::default()
    })
    .await
    .unwrap();
    let gateway_bot: Value = reqwest::Client::new()
        .get(format!("{}/api/v10/gateway/bot", fake.rest_url()))
        .header("Authorization", format!("Bot {}", fake.token()))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(gateway_bot["shards"], 2);

    let owner = fake.user("owner");
    let default = fake.guild();
    let (on_zero, zero_channel) = fake.add_guild_on_shard("Zero", owner, 0);
    let (on_one, one_channel) = fake.add_guild_on_shard("One", owner, 1);
    assert_eq!((shard_of(on_zero, 2), shard_of(on_one, 2)), (0, 1));
    assert_eq!(fake.shard_of(on_one), 1);
    let zero_guilds: Vec<_> = [default, on_zero]
        .into_iter()
        .filter(|g| fake.shard_of(*g) == 0)
        .map(fake_discord::GuildId::to_json)
        .collect();

    let mut zero = connect(&fake, json!([0, 2])).await;
    let (shard, listed, created) = ready_and_guilds(&mut zero, zero_guilds.len()).await;
    assert_eq!((shard, &listed, &created), (json!([0, 2]), &zero_guilds, &zero_guilds));
    let mut one = connect(&fake, json!([1, 2])).await;
    let (shard, listed, created) = ready_and_guilds(&mut one, 1).await;
    assert_eq!(
        (shard, listed, created),
        (json!([1, 2]), vec![on_one.to_json()], vec![on_one.to_json()])
    );
    assert_eq!(fake.wait_for_shard(1, WAIT).await, Ok([1, 2]));
    assert_eq!((fake.sessions_for_shard(0), fake.sessions_for_shard(1)), (1, 1));

    // A guild joined later is announced on its shard only.
    let (late, _) = fake.add_guild_on_shard("Late", owner, 1);
    let frame = next_json(&mut one).await;
    assert_eq!(
        (&frame["t"], &frame["d"]["id"]),
        (&json!("GUILD_CREATE"), &late.to_json())
    );

    // Each interaction goes to the shard owning its guild.
    register_ping(&fake).await;
    let alice = fake.user("alice");
    let to_one = fake
        .send_slash_command(alice, on_one, one_channel, "ping", &[], &json!({}))
        .unwrap();
    let to_zero = fake
        .send_slash_command(alice, on_zero, zero_channel, "ping", &[], &json!({}))
        .unwrap();
    let got = next_json(&mut one).await;
    assert_eq!(
        (&got["t"], &got["d"]["guild_id"]),
        (&json!("INTERACTION_CREATE"), &on_one.to_json())
    );
    let got = next_json(&mut zero).await;
    assert_eq!(
        (&got["t"], &got["d"]["guild_id"]),
        (&json!("INTERACTION_CREATE"), &on_zero.to_json())
    );
    assert_eq!(fake.interaction_shard(to_one), Some([1, 2]));
    assert_eq!(fake.interaction_shard(to_zero), Some([0, 2]));

    // With shard 1 gone, its guilds have no one to dispatch to; shard 0's still do.
    drop(one);
    let deadline = tokio::time::Instant::now() + WAIT;
    while fake
        .send_slash_command(alice, on_one, one_channel, "ping", &[], &json!({}))
        .is_ok()
    {
        assert!(tokio::time::Instant::now() < deadline, "shard 1's session never closed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        fake.send_slash_command(alice, on_zero, zero_channel, "ping", &[], &json!({}))
            .is_ok()
    );
    // A restarted shard 1 takes its guilds back.
    let mut again = connect(&fake, json!([1, 2])).await;
    ready_and_guilds(&mut again, 2).await;
    assert_eq!(fake.sessions_for_shard(1), 2);
    let back = fake
        .send_slash_command(alice, on_one, one_channel, "ping", &[], &json!({}))
        .unwrap();
    assert_eq!(next_json(&mut again).await["d"]["guild_id"], on_one.to_json());
    assert_eq!(fake.interaction_shard(back), Some([1, 2]));
}

#[tokio::test]
async fn an_unsharded_identify_gets_every_guild_and_a_bad_shard_is_closed_with_4010() {
    let fake = FakeDiscord::start_with(Config {
        shards: 2,
        ..Config::default()
    })
    .await
    .unwrap();
    let owner = fake.user("owner");
    fake.add_guild_on_shard("One", owner, 1);
    let mut all = connect(&fake, Value::Null).await;
    let (shard, listed, _) = ready_and_guilds(&mut all, 2).await;
    assert_eq!((shard, listed.len()), (json!([0, 1]), 2));

    for bad in [json!([2, 2]), json!([0, 0]), json!("zero")] {
        let mut ws = connect(&fake, bad.clone()).await;
        let Message::Close(Some(close)) = next(&mut ws).await else {
            panic!("{bad}: expected a close frame")
        };
        assert_eq!(u16::from(close.code), 4010, "{bad}");
    }
}
