//! The real serenity client and a tiny poise bot against the fake: READY, command
//! registration, a slash command and its callback, a button, autocomplete, permissions, RESUME,
//! and every body the bot sent valid against Discord's OpenAPI spec.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use fake_discord::{BodyCheck, Config, DriverError, FakeDiscord, GuildId, StartError};
use poise::serenity_prelude as serenity;
use serde_json::json;

const WAIT: Duration = Duration::from_secs(10);

struct Data {
    readies: Arc<AtomicUsize>,
    guild_creates: Arc<AtomicUsize>,
}
type Error = Box<dyn std::error::Error + Send + Sync>;
type Context<'a> = poise::Context<'a, Data, Error>;

/// Answers with Pong! and a button to ask again.
#[poise::command(slash_command)]
async fn ping(ctx: Context<'_>) -> Result<(), Error> {
    let button = serenity::CreateButton::new("ping:again")
        .label("Again")
        .style(serenity::ButtonStyle::Primary);
    let reply = poise::CreateReply::default()
        .content(format!("Pong! <@{}>", ctx.author().id))
        .components(vec![serenity::CreateActionRow::Buttons(vec![button])]);
    ctx.send(reply).await?;
    Ok(())
}

/// Thinks first, then answers twice.
#[poise::command(slash_command)]
async fn slow(ctx: Context<'_>) -> Result<(), Error> {
    ctx.defer().await?;
    ctx.say("Done thinking.").await?;
    ctx.say("One more thing.").await?;
    Ok(())
}

#[allow(clippy::unused_async)] // poise calls autocomplete callbacks as async functions
async fn autocomplete_monster(_ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let choices = ["Goblin 1", "Goblin 2", "Ogre"]
        .into_iter()
        .filter(|m| m.to_lowercase().starts_with(&partial.to_lowercase()))
        .map(serenity::AutocompleteChoice::from)
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// Game-master tools.
#[allow(clippy::unused_async)] // poise commands are async functions, even a parent that does nothing
#[poise::command(slash_command, subcommands("spawn"), default_member_permissions = "MANAGE_GUILD")]
async fn gm(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Spawns monsters.
#[poise::command(slash_command)]
async fn spawn(
    ctx: Context<'_>,
    #[description = "Which monster"]
    #[autocomplete = "autocomplete_monster"]
    monster: String,
    #[description = "How many"] count: Option<u32>,
    #[description = "Who they hunt"] target: Option<serenity::User>,
) -> Result<(), Error> {
    let hunted = target.map(|u| format!(" hunting {}", u.name)).unwrap_or_default();
    ctx.send(
        poise::CreateReply::default()
            .content(format!("{} × {monster}{hunted}", count.unwrap_or(1)))
            .ephemeral(true),
    )
    .await?;
    Ok(())
}

async fn on_event(
    framework: poise::FrameworkContext<'_, Data, Error>,
    event: &serenity::FullEvent,
) -> Result<(), Error> {
    match event {
        serenity::FullEvent::Ready { .. } => {
            framework.user_data.readies.fetch_add(1, Ordering::SeqCst);
        }
        serenity::FullEvent::GuildCreate { .. } => {
            framework.user_data.guild_creates.fetch_add(1, Ordering::SeqCst);
        }
        // poise does not dispatch component interactions: buttons are handled here.
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Component(press),
        } => {
            let update = serenity::CreateInteractionResponseMessage::new()
                .content("Pong again!")
                .components(vec![]);
            press
                .create_response(
                    &framework.serenity_context.http,
                    serenity::CreateInteractionResponse::UpdateMessage(update),
                )
                .await?;
        }
        _ => {}
    }
    Ok(())
}

struct Bot {
    readies: Arc<AtomicUsize>,
    guild_creates: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Bot {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Starts a poise bot against the fake, registering its commands in `guild`.
async fn start_bot(fake: &FakeDiscord, guild: GuildId) -> Bot {
    let readies = Arc::new(AtomicUsize::new(0));
    let guild_creates = Arc::new(AtomicUsize::new(0));
    let data = Data {
        readies: Arc::clone(&readies),
        guild_creates: Arc::clone(&guild_creates),
    };
    let guild = serenity::GuildId::new(guild.0);
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: vec![ping(), gm(), slow()],
            event_handler: |framework, event| Box::pin(on_event(framework, event)),
            ..Default::default()
        })
        .setup(move |ctx, _ready, framework| {
            Box::pin(async move {
                poise::builtins::register_in_guild(ctx, &framework.options().commands, guild).await?;
                Ok(data)
            })
        })
        .build();
    // serenity ignores the proxy unless the ratelimiter is disabled.
    let http = serenity::HttpBuilder::new(fake.token())
        .proxy(fake.rest_url())
        .ratelimiter_disabled(true)
        .build();
    let mut client = serenity::ClientBuilder::new_with_http(http, serenity::GatewayIntents::non_privileged())
        .framework(framework)
        .await
        .expect("building the serenity client");
    let task = tokio::spawn(async move {
        let _ = client.start().await;
    });
    Bot {
        readies,
        guild_creates,
        task,
    }
}

fn assert_all_valid(fake: &FakeDiscord) {
    // Without the spec the fake has already said so loudly; the documented limits still apply.
    let failures = fake.validation_errors();
    assert!(
        failures.is_empty(),
        "bodies breaking Discord's OpenAPI spec: {failures:#?}"
    );
}

#[tokio::test]
async fn serenity_gets_ready_and_poise_answers_a_slash_command() {
    let fake = FakeDiscord::start().await;
    let (guild, channel, alice) = (fake.guild(), fake.channel(), fake.user("alice"));
    let bot = start_bot(&fake, guild).await;

    fake.wait_for_ready(WAIT).await.expect("the bot identifies");
    let commands = fake
        .wait_for_commands(Some(guild), WAIT)
        .await
        .expect("poise registers its commands");
    let names: Vec<&str> = commands.iter().filter_map(|c| c["name"].as_str()).collect();
    assert_eq!(names, ["ping", "gm", "slow"]);

    let id = fake
        .send_slash_command(alice, guild, channel, "ping", &[], &json!({}))
        .expect("dispatched");
    let callback = fake.wait_for_callback(id, WAIT).await.expect("poise answers /ping");
    assert_eq!(callback.status, 204, "accepted within Discord's deadline: {callback:?}");
    assert_eq!(callback.body["type"], 4);
    assert_eq!(callback.body["data"]["content"], format!("Pong! <@{alice}>"));

    let messages = fake.messages_in(channel);
    let message = messages.last().expect("the response is a message in the channel");
    assert_eq!(message["interaction_metadata"]["user"]["id"], alice.to_json());
    assert_eq!(message["mentions"][0]["id"], alice.to_json());
    // What the fake stores and sends must be what serenity can read.
    serde_json::from_value::<serenity::Message>(message.clone()).expect("a serenity Message");
    serde_json::from_value::<serenity::Interaction>(fake.interaction_payload(id).unwrap()).expect("an Interaction");

    // serenity dispatches each event in its own task: give the handlers a moment to count.
    for _ in 0..100 {
        if bot.readies.load(Ordering::SeqCst) == 1 && bot.guild_creates.load(Ordering::SeqCst) == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(bot.readies.load(Ordering::SeqCst), 1);
    assert_eq!(bot.guild_creates.load(Ordering::SeqCst), 1);
    let identify = fake
        .gateway_received()
        .into_iter()
        .find(|f| f["op"] == 2)
        .expect("an IDENTIFY");
    assert_eq!(identify["d"]["compress"], true, "serenity asks for payload compression");

    let callback_request = fake
        .requests()
        .into_iter()
        .find(|r| r.path.ends_with("/callback"))
        .expect("the callback was recorded");
    assert!(
        matches!(callback_request.check, BodyCheck::Valid { .. }),
        "{:?}",
        callback_request.check
    );
    assert_all_valid(&fake);
}

#[tokio::test]
async fn a_button_press_reaches_the_event_handler_and_updates_the_message() {
    let fake = FakeDiscord::start().await;
    let (guild, channel, bob) = (fake.guild(), fake.channel(), fake.user("bob"));
    let _bot = start_bot(&fake, guild).await;
    fake.wait_for_commands(Some(guild), WAIT).await.unwrap();

    let command = fake
        .send_slash_command(bob, guild, channel, "ping", &[], &json!({}))
        .unwrap();
    fake.wait_for_callback(command, WAIT).await.unwrap();
    let message = fake.original_message(command).expect("the reply message");
    let message_id = fake_discord::MessageId(message["id"].as_str().unwrap().parse().unwrap());

    assert_eq!(
        fake.press_button(bob, message_id, "no-such-button"),
        Err(DriverError::NoSuchComponent {
            message: message_id,
            custom_id: "no-such-button".into()
        })
    );
    let press = fake
        .press_button(bob, message_id, "ping:again")
        .expect("the button is there");
    let callback = fake
        .wait_for_callback(press, WAIT)
        .await
        .expect("the event handler answers");
    assert_eq!(callback.body["type"], 7);
    let updated = fake.message(message_id).unwrap();
    assert_eq!(updated["content"], "Pong again!");
    assert_eq!(updated["components"], json!([]));
    // The button is gone, so it cannot be pressed again; a forged press still goes through.
    assert!(fake.press_button(bob, message_id, "ping:again").is_err());
    assert!(fake.press_button_unchecked(bob, message_id, "ping:again").is_ok());
    assert_all_valid(&fake);
}

#[tokio::test]
async fn subcommands_options_autocomplete_and_permissions() {
    let fake = FakeDiscord::start().await;
    let (guild, channel) = (fake.guild(), fake.channel());
    let (owner, alice) = (fake.user("owner"), fake.user("alice"));
    let _bot = start_bot(&fake, guild).await;
    fake.wait_for_commands(Some(guild), WAIT).await.unwrap();

    // /gm needs Manage Server: Discord does not offer it to alice.
    let refused = fake.send_slash_command(alice, guild, channel, "gm", &["spawn"], &json!({"monster": "Ogre"}));
    assert_eq!(
        refused,
        Err(DriverError::NotPermitted {
            command: "gm".into(),
            user: alice
        })
    );
    assert_eq!(
        fake.send_slash_command(owner, guild, channel, "gm", &["spawn"], &json!({})),
        Err(DriverError::MissingOption("monster".into()))
    );

    let typing = fake
        .autocomplete(
            owner,
            guild,
            channel,
            "gm",
            &["spawn"],
            &json!({"monster": "gob"}),
            "monster",
        )
        .unwrap();
    let suggestions = fake
        .wait_for_callback(typing, WAIT)
        .await
        .expect("autocomplete is answered");
    assert_eq!(suggestions.body["type"], 8);
    let names: Vec<&str> = suggestions.body["data"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert_eq!(names, ["Goblin 1", "Goblin 2"]);

    let id = fake
        .send_slash_command(
            owner,
            guild,
            channel,
            "gm",
            &["spawn"],
            &json!({"monster": "Goblin 1", "count": 2, "target": "alice"}),
        )
        .unwrap();
    let callback = fake.wait_for_callback(id, WAIT).await.unwrap();
    assert_eq!(callback.body["data"]["content"], "2 × Goblin 1 hunting alice");
    assert_eq!(callback.body["data"]["flags"], 64, "ephemeral");
    assert_all_valid(&fake);
}

#[tokio::test]
async fn a_deferred_response_is_replaced_by_the_first_follow_up() {
    let fake = FakeDiscord::start().await;
    let (guild, channel, alice) = (fake.guild(), fake.channel(), fake.user("alice"));
    let _bot = start_bot(&fake, guild).await;
    fake.wait_for_commands(Some(guild), WAIT).await.unwrap();

    let id = fake
        .send_slash_command(alice, guild, channel, "slow", &[], &json!({}))
        .unwrap();
    assert_eq!(
        fake.wait_for_callback(id, WAIT).await.unwrap().body["type"],
        5,
        "deferred"
    );
    let more = fake
        .wait_for_message(channel, WAIT, |m| m["content"] == "One more thing.")
        .await
        .unwrap();
    assert_eq!(more["interaction_metadata"]["id"], id.to_json());
    let original = fake.original_message(id).unwrap();
    assert_eq!(original["content"], "Done thinking.");
    assert_eq!(original["flags"], 0, "no longer loading");
    assert_eq!(fake.messages_in(channel).len(), 2);
    assert_all_valid(&fake);
}

#[tokio::test]
async fn serenity_http_reads_what_the_fake_answers() {
    let fake = FakeDiscord::start().await;
    let alice = fake.user("alice");
    let http = serenity::HttpBuilder::new(fake.token())
        .proxy(fake.rest_url())
        .ratelimiter_disabled(true)
        .build();

    let gateway = http.get_bot_gateway().await.unwrap();
    assert_eq!((gateway.url.as_str(), gateway.shards), (fake.gateway_url(), 1));
    assert_eq!(http.get_current_user().await.unwrap().id.get(), fake.bot_user().0);
    let app = http.get_current_application_info().await.unwrap();
    assert_eq!(app.owner.unwrap().id.get(), fake.user("owner").0);
    http.set_application_id(app.id);

    let dm = serenity::UserId::new(alice.0).create_dm_channel(&http).await.unwrap();
    assert_eq!(fake.dm_channel(alice).map(|c| c.0), Some(dm.id.get()));
    let mut sent = dm
        .id
        .send_message(&http, serenity::CreateMessage::new().content(format!("Hi <@{alice}>")))
        .await
        .unwrap();
    assert_eq!(sent.mentions[0].id.get(), alice.0);
    sent.edit(&http, serenity::EditMessage::new().content("Edited"))
        .await
        .unwrap();
    let stored = fake.messages_in(fake_discord::ChannelId(dm.id.get()));
    assert_eq!(stored[0]["content"], "Edited");
    assert!(stored[0]["edited_timestamp"].is_string());

    let channel = serenity::ChannelId::new(fake.channel().0);
    let missing = channel.message(&http, serenity::MessageId::new(1)).await.unwrap_err();
    assert!(missing.to_string().contains("Unknown Message"), "{missing}");
    assert_all_valid(&fake);
}

#[tokio::test]
async fn a_channels_history_reads_newest_first_in_pages() {
    let fake = FakeDiscord::start().await;
    let http = serenity::HttpBuilder::new(fake.token())
        .proxy(fake.rest_url())
        .ratelimiter_disabled(true)
        .build();
    let channel = serenity::ChannelId::new(fake.channel().0);
    let mut sent = Vec::new();
    for n in 1..=4 {
        let message = channel
            .send_message(&http, serenity::CreateMessage::new().content(format!("message {n}")))
            .await
            .unwrap();
        sent.push(message.id);
    }
    let contents = |page: &[serenity::Message]| page.iter().map(|m| m.content.clone()).collect::<Vec<_>>();

    let latest = http.get_messages(channel, None, Some(2)).await.unwrap();
    assert_eq!(contents(&latest), ["message 4", "message 3"]);
    assert!(latest.iter().all(|m| m.author.id.get() == fake.bot_user().0));
    let before = serenity::MessagePagination::Before(sent[2]);
    let older = http.get_messages(channel, Some(before), Some(100)).await.unwrap();
    assert_eq!(contents(&older), ["message 2", "message 1"]);
    let after = serenity::MessagePagination::After(sent[0]);
    let newer = http.get_messages(channel, Some(after), Some(2)).await.unwrap();
    assert_eq!(
        contents(&newer),
        ["message 3", "message 2"],
        "the two right after, newest first"
    );

    let refused = http.get_messages(channel, None, Some(101)).await.unwrap_err();
    assert!(refused.to_string().contains("Invalid Form Body"), "{refused}");
    let unknown = serenity::ChannelId::new(1);
    let missing = http.get_messages(unknown, None, None).await.unwrap_err();
    assert!(missing.to_string().contains("Unknown Channel"), "{missing}");
}

#[tokio::test]
async fn refused_and_repeated_callbacks_are_recorded_with_their_status() {
    let fake = FakeDiscord::start().await;
    let (guild, channel, alice) = (fake.guild(), fake.channel(), fake.user("alice"));
    let _bot = start_bot(&fake, guild).await;
    fake.wait_for_commands(Some(guild), WAIT).await.unwrap();
    let id = fake
        .send_slash_command(alice, guild, channel, "ping", &[], &json!({}))
        .unwrap();
    assert_eq!(fake.wait_for_callback(id, WAIT).await.unwrap().status, 204);

    let token = fake.interaction_payload(id).unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let url = format!("{}/api/v10/interactions/{id}/{token}/callback", fake.rest_url());
    let client = reqwest::Client::new();
    let too_long = json!({"type": 4, "data": {"content": "x".repeat(2001)}});
    assert_eq!(client.post(&url).json(&too_long).send().await.unwrap().status(), 400);
    let again = client
        .post(&url)
        .json(&json!({"type": 4, "data": {"content": "again"}}))
        .send()
        .await
        .unwrap();
    let error: serde_json::Value = again.json().await.unwrap();
    assert_eq!(error["code"], 40060, "already acknowledged");

    let statuses: Vec<u16> = fake.callbacks(id).iter().map(|c| c.status).collect();
    assert_eq!(statuses, [204, 400, 400]);
    let failures = fake.validation_errors();
    assert_eq!(failures.len(), 1);
    assert!(
        failures[0].errors.iter().any(|e| e.starts_with("at `/data/content`")),
        "{:?}",
        failures[0].errors
    );
}

#[tokio::test]
async fn a_guild_added_later_reaches_the_bot_without_the_first_guilds_commands() {
    let fake = FakeDiscord::start().await;
    let guild = fake.guild();
    let bot = start_bot(&fake, guild).await;
    fake.wait_for_commands(Some(guild), WAIT).await.unwrap();

    let dana = fake.add_user("dana", fake_discord::Role::Manager);
    let (second, channel) = fake.add_guild("Second Server", dana);
    let deadline = tokio::time::Instant::now() + WAIT;
    while bot.guild_creates.load(Ordering::SeqCst) < 2 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no GUILD_CREATE for the new guild"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let refused = fake.send_slash_command(dana, second, channel, "ping", &[], &json!({}));
    assert_eq!(refused, Err(DriverError::UnknownCommand("ping".into())));
}

#[tokio::test]
async fn a_reconnect_request_is_resumed_and_dispatches_continue() {
    let fake = FakeDiscord::start_with(Config {
        heartbeat_interval: Duration::from_millis(300),
        ..Config::default()
    })
    .await
    .unwrap();
    let (guild, channel, carol) = (fake.guild(), fake.channel(), fake.user("carol"));
    let bot = start_bot(&fake, guild).await;
    fake.wait_for_commands(Some(guild), WAIT).await.unwrap();

    fake.wait_for_gateway_op(1, WAIT).await.expect("serenity heartbeats");
    assert!(fake.request_reconnect());
    let resume = fake.wait_for_gateway_op(6, WAIT).await.expect("serenity resumes");
    assert!(
        resume["d"]["seq"].as_u64().unwrap() >= 2,
        "READY and GUILD_CREATE were seen: {resume}"
    );

    let id = fake
        .send_slash_command(carol, guild, channel, "ping", &[], &json!({}))
        .unwrap();
    assert_eq!(fake.wait_for_callback(id, WAIT).await.unwrap().status, 204);
    assert_eq!(bot.readies.load(Ordering::SeqCst), 1, "a resume is not a second READY");
}

#[tokio::test]
async fn an_overlong_message_is_flagged_by_the_validator_and_refused() {
    let fake = FakeDiscord::start().await;
    let channel = fake.channel();
    let client = reqwest::Client::new();
    let url = format!("{}/api/v10/channels/{channel}/messages", fake.rest_url());
    let post = |body: serde_json::Value| {
        client
            .post(&url)
            .header("Authorization", format!("Bot {}", fake.token()))
            .json(&body)
            .send()
    };

    let ok = post(json!({"content": "hello"})).await.unwrap();
    assert_eq!(ok.status(), 200);
    let sent: serde_json::Value = ok.json().await.unwrap();
    serde_json::from_value::<serenity::Message>(sent).expect("a message serenity can read");
    assert!(fake.validation_errors().is_empty());

    let too_long = post(json!({"content": "x".repeat(2001)})).await.unwrap();
    assert_eq!(too_long.status(), 400);
    let error: serde_json::Value = too_long.json().await.unwrap();
    assert_eq!(error["code"], 50035);

    let failures = fake.validation_errors();
    assert_eq!(failures.len(), 1, "{failures:#?}");
    assert_eq!(failures[0].method, "POST");
    assert!(
        failures[0].errors.iter().any(|e| e.contains("/content")),
        "{:?}",
        failures[0].errors
    );
    assert_eq!(fake.messages_in(channel).len(), 1, "the refused message was not stored");
}

#[tokio::test]
async fn unknown_routes_are_recorded_and_answered_404() {
    let fake = FakeDiscord::start().await;
    let response = reqwest::Client::new()
        .get(format!("{}/api/v10/guilds/1/audit-logs", fake.rest_url()))
        .header("Authorization", format!("Bot {}", fake.token()))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body, json!({"message": "404: Not Found", "code": 0}));
    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(
        (requests[0].method.as_str(), requests[0].path.as_str()),
        ("GET", "/api/v10/guilds/1/audit-logs")
    );
}

#[tokio::test]
async fn a_missing_spec_stops_the_fake_with_how_to_get_it() {
    let config = Config {
        spec_path: Some("/nonexistent/openapi.json".into()),
        ..Config::default()
    };
    let Err(error) = FakeDiscord::start_with(config).await else {
        panic!("the fake started without Discord's OpenAPI spec");
    };
    assert!(matches!(error, StartError::SpecMissing(_)), "{error:?}");
    let message = error.to_string();
    for needed in [
        "/nonexistent/openapi.json",
        "scripts/test",
        "scripts/discord-spec",
        "DISCORD_OPENAPI_SPEC",
        fake_discord::pinned_spec().url,
    ] {
        assert!(message.contains(needed), "{needed:?} in {message}");
    }
}

#[tokio::test]
async fn a_file_that_is_not_a_spec_stops_the_fake() {
    let path = std::env::temp_dir().join(format!("fake-discord-not-a-spec-{}.json", std::process::id()));
    std::fs::write(&path, "{\"openapi\": \"3.1.0\"}").unwrap();
    let started = FakeDiscord::start_with(Config {
        spec_path: Some(path.clone()),
        ..Config::default()
    })
    .await;
    std::fs::remove_file(&path).unwrap();
    let Err(error) = started else {
        panic!("the fake started with a spec that has no paths");
    };
    assert!(matches!(error, StartError::SpecUnreadable { .. }), "{error:?}");
    assert!(error.to_string().contains("no `paths`"), "{error}");
}

#[tokio::test]
async fn a_body_outside_the_api_or_a_multipart_body_without_json_is_invalid() {
    let fake = FakeDiscord::start().await;
    let client = reqwest::Client::new();
    let outside = client
        .post(format!(
            "{}/api/v9/channels/{}/messages",
            fake.rest_url(),
            fake.channel()
        ))
        .header("Authorization", format!("Bot {}", fake.token()))
        .json(&json!({"content": "hello"}))
        .send()
        .await
        .unwrap();
    assert_eq!(outside.status(), 400);
    let form = client
        .post(format!(
            "{}/api/v10/channels/{}/messages",
            fake.rest_url(),
            fake.channel()
        ))
        .header("Authorization", format!("Bot {}", fake.token()))
        .header("Content-Type", "multipart/form-data; boundary=XYZ")
        .body("--XYZ\r\nContent-Disposition: form-data; name=\"content\"\r\n\r\nhello\r\n--XYZ--\r\n")
        .send()
        .await
        .unwrap();
    assert_eq!(form.status(), 400);
    let failures = fake.validation_errors();
    assert_eq!(failures.len(), 2, "{failures:#?}");
    assert!(failures[0].errors[0].contains("not under /api/v10"), "{failures:#?}");
    assert!(failures[1].errors[0].contains("payload_json"), "{failures:#?}");
    assert!(fake.messages_in(fake.channel()).is_empty());
}
