//! `gogobee bot`: the Discord adapter — the only module that knows serenity and poise.
//!
//! The slash commands ([`commands`]) are built from their one declaration: a command's options
//! become an [`Invocation`], the shared [`App`] handles it, and [`send`] delivers the renderer's
//! payloads as they are. Buttons arrive in the event handler (poise does not dispatch component
//! interactions); due timers (reaction windows that time out) are fired by one task in
//! [`timers`]. One [`on_error`] turns anything unexpected into a logged error id and a short
//! apology. SIGINT/SIGTERM close the shards and let in-flight commands finish.
//!
//! Sharding: autosharded by default; `SHARD_IDS`/`SHARD_COUNT` run a range of shards per
//! process ([`config::Sharding`]), and the service then fires only the timers of the guilds on
//! them. Each interaction is handled in its own `tracing` span ([`interaction_span`]).

mod attachment;
pub(crate) mod commands;
mod config;
pub(crate) mod invite;
mod send;
mod timers;
mod watchdog;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context as _, Result};
use chrono::Utc;
use poise::serenity_prelude as serenity;
use render::{ReactionButton, Renderer};
use service::{Db, Service};
use tokio::sync::RwLock;

use crate::app::spec::Spec;
use crate::app::{App, Caller, Invocation, Reply};
use crate::clock::Clock;
use crate::ops::Ops;
pub use config::Config;
use send::{Interaction, Outbox};

/// What every command and event sees.
pub struct Data {
    pub app: Arc<App>,
    pub outbox: Arc<Outbox>,
    /// Held (read) by each command, press and timer run; shutdown takes it (write) to wait for them.
    pub busy: Arc<RwLock<()>>,
    pub ops: Arc<Ops>,
    /// The game's time (`GOGOBEE_CLOCK_OFFSET` ahead of the real time).
    pub clock: Clock,
    /// Fetches attached files ([`attachment`]).
    pub files: reqwest::Client,
}

pub type Error = anyhow::Error;
pub type Context<'a> = poise::Context<'a, Data, Error>;

/// Runs the bot until SIGINT/SIGTERM.
pub async fn run(config: Config) -> Result<()> {
    let db = Db::connect(&config.database_url)
        .await
        .with_context(|| format!("opening the database {}", config::redact_url(&config.database_url)))?;
    let renderer = Renderer::load().context("loading the narration files")?;
    service::goods::world().context("loading the shop and the recipes")?;
    // This process touches only the guilds of its shards (their interactions reach no one
    // else; the service fires only their timers).
    let owned = config.sharding.owned();
    tracing::info!(sharding = ?config.sharding, owns = %owned, "starting");
    let mut service = Service::with_seed(db, config.seed).owning(owned);
    if config.retention_days > 0 {
        service = service.with_retention(chrono::Duration::days(i64::from(config.retention_days)));
    }
    let app = Arc::new(App::new(service, renderer, config.seed));
    let clock = Clock::system(config.clock_offset);
    if !config.clock_offset.is_zero() {
        let offset_seconds = config.clock_offset.num_seconds();
        tracing::warn!(offset_seconds, now = %clock.now(), "the game's clock is offset (GOGOBEE_CLOCK_OFFSET)");
    }

    let mut http = serenity::HttpBuilder::new(&config.token);
    if let Some(base) = &config.api_base {
        // serenity ignores the proxy while its ratelimiter is on; the proxy (or fake) limits.
        http = http.proxy(base).ratelimiter_disabled(true);
    }
    let busy = Arc::new(RwLock::new(()));
    let ops = Arc::new(Ops::new()?);
    // `/healthz` answers for every shard this process runs, connected or not yet.
    if let config::Sharding::Range { first, last, .. } = config.sharding {
        for shard in first..=last {
            ops.shard(shard, crate::ops::Gateway::Connecting);
        }
    }
    if let Some(addr) = config.ops_addr {
        let (ops, service) = (Arc::clone(&ops), app.service.clone());
        tokio::spawn(async move {
            if let Err(error) = crate::ops::serve(addr, ops, service).await {
                tracing::error!(%error, "the operations endpoint failed");
            }
        });
    }
    // The outbox needs the client's HTTP handle, which the framework's setup is the first to see.
    let (outbox_ready, outbox) = tokio::sync::oneshot::channel::<Arc<Outbox>>();
    let (game, lock, metrics) = (Arc::clone(&app), Arc::clone(&busy), Arc::clone(&ops));
    let dev_guild = config.dev_guild.map(serenity::GuildId::new);
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: commands::all(),
            on_error: |error| Box::pin(on_error(error)),
            event_handler: |framework, event| Box::pin(on_event(framework, event)),
            ..Default::default()
        })
        .setup(move |ctx, ready, _framework| {
            Box::pin(async move {
                let commands = commands::registered();
                match dev_guild {
                    Some(guild) => guild.set_commands(ctx, commands).await?,
                    None => serenity::Command::set_global_commands(ctx, commands).await?,
                };
                tracing::info!(user = %ready.user.name, guilds = ready.guilds.len(), ?dev_guild, "ready; commands registered");
                metrics.shard(ready.shard.map_or(0, |s| s.id.0), crate::ops::Gateway::Connected);
                let outbox = Arc::new(Outbox::new(Arc::clone(&ctx.http)));
                let _ = outbox_ready.send(Arc::clone(&outbox));
                Ok(Data {
                    app: game,
                    outbox,
                    busy: lock,
                    ops: metrics,
                    clock,
                    files: reqwest::Client::new(),
                })
            })
        })
        .build();
    // Slash commands and buttons arrive whatever the intents; GUILDS alone tells the bot which
    // servers it is in (GUILD_CREATE, GUILD_DELETE).
    let mut client = serenity::ClientBuilder::new_with_http(http.build(), serenity::GatewayIntents::GUILDS)
        .framework(framework)
        .await
        .context("building the Discord client")?;

    let (stop, stopped) = tokio::sync::watch::channel(false);
    let timers = timers::Timers {
        app: Arc::clone(&app),
        clock,
        busy: Arc::clone(&busy),
        ops: Arc::clone(&ops),
    };
    let ticker = tokio::spawn(timers.run(outbox, stopped));
    let shards = Arc::clone(&client.shard_manager);
    // SIGTERM or the watchdog: the shards are closed, given CLOSE_SHARDS at most (a gateway
    // that is down may never answer), and the bot goes on to finish what is in flight.
    let (closed_tx, closed) = tokio::sync::oneshot::channel::<()>();
    // Why the watchdog stopped the bot (read once the gateway has ended, whichever way).
    let gave_up = Arc::new(std::sync::Mutex::new(None::<String>));
    let watchdog_said = Arc::clone(&gave_up);
    let watched = watchdog::watch(
        Arc::clone(&client.shard_manager.runners),
        Arc::clone(&ops),
        config.gateway_down_limit,
    );
    tokio::spawn(async move {
        let gave_up = tokio::select! {
            () = shutdown_signal() => {
                tracing::info!("shutting down: closing the shards, finishing in-flight commands");
                None
            }
            why = watched => {
                tracing::error!(%why, "the gateway is down: stopping so the bot is restarted");
                Some(why)
            }
        };
        *watchdog_said.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = gave_up;
        if tokio::time::timeout(CLOSE_SHARDS, shards.shutdown_all()).await.is_err() {
            tracing::warn!(
                "the shards did not close within {} s; stopping anyway",
                CLOSE_SHARDS.as_secs()
            );
        }
        let _ = closed_tx.send(());
    });
    let gateway = async {
        match config.sharding {
            // As many shards as Discord recommends (`GET /gateway/bot`), all here.
            config::Sharding::Auto => client.start_autosharded().await,
            config::Sharding::Range { first, last, count } if first == last => client.start_shard(first, count).await,
            // serenity 0.12 takes the range's end as the last shard to start (inclusive).
            config::Sharding::Range { first, last, count } => client.start_shard_range(first..last, count).await,
        }
    };
    tokio::select! {
        ended = gateway => ended.context("connecting to Discord")?,
        _ = closed => {}
    }
    let gave_up = gave_up.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();

    // The shards are closed: let what is in flight finish, then stop the timers.
    let drained = tokio::time::timeout(std::time::Duration::from_secs(10), busy.write()).await;
    if drained.is_err() {
        tracing::warn!("some commands were still running after 10 s");
    }
    drop(drained);
    let _ = stop.send(true);
    let _ = ticker.await;
    tracing::info!("stopped");
    match gave_up {
        Some(why) => Err(anyhow::anyhow!(why)),
        None => Ok(()),
    }
}

/// How long closing the shards may take when the bot stops.
const CLOSE_SHARDS: std::time::Duration = std::time::Duration::from_secs(3);

async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let Ok(mut term) = signal(SignalKind::terminate()) else {
            let _ = tokio::signal::ctrl_c().await;
            return;
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = tokio::signal::ctrl_c().await;
}

/// Who sent an interaction, and where.
fn caller(
    guild: Option<serenity::GuildId>,
    channel: serenity::ChannelId,
    user: &serenity::User,
    member: Option<&serenity::Member>,
) -> Caller {
    let manage_server = member
        .and_then(|m| m.permissions)
        .is_some_and(|p| p.manage_guild() || p.administrator());
    Caller {
        // Outside a server (a DM), the channel is its own campaign.
        guild: guild.map_or_else(|| format!("dm-{channel}"), |g| g.to_string()),
        channel: channel.to_string(),
        user: user.id.to_string(),
        manage_server,
    }
}

/// An error id for the log line and the apology that quotes it.
fn error_id() -> String {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let stamp = Utc::now().timestamp_millis() % 1_000_000;
    format!("E{stamp:06}-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

fn apology(id: &str) -> Reply {
    Reply {
        payload: render::refusal_text(&format!(
            "Sorry — something went wrong on our side (error {id}). Nothing was changed; please try again."
        )),
        to_user: None,
        running: None,
        picture: None,
    }
}

/// Counts an interaction and times it from now until its replies are ready (the span's
/// `work_ms`).
fn measured(
    ops: &Arc<Ops>,
    command: String,
    work: impl Future<Output = Vec<Reply>>,
) -> impl Future<Output = Vec<Reply>> {
    let (ops, started) = (Arc::clone(ops), std::time::Instant::now());
    async move {
        let replies = work.await;
        let outcome = if replies.first().is_some_and(Reply::is_ephemeral) {
            "refused"
        } else {
            "ok"
        };
        let elapsed = started.elapsed();
        ops.interaction(&command, outcome, elapsed);
        tracing::Span::current().record("work_ms", elapsed.as_secs_f64() * 1000.0);
        replies
    }
}

/// The span one interaction is handled in (`fly logs` shows it on every line logged meanwhile):
/// its kind and command, the shard it came on, guild, channel and user ids, and, once it is
/// answered, two times: `work_ms`, the game's own (parse → service → render, recorded by
/// [`measured`]), and `latency_ms`, until its response and follow-ups are sent to Discord
/// (recorded by [`traced`]). Never the interaction's token.
pub(crate) fn interaction_span(
    kind: &str,
    command: &str,
    shard: serenity::ShardId,
    guild: Option<serenity::GuildId>,
    channel: serenity::ChannelId,
    user: &serenity::User,
) -> tracing::Span {
    tracing::info_span!(
        "interaction",
        kind,
        command,
        shard = shard.0,
        guild = %guild.map_or_else(|| "dm".to_owned(), |g| g.to_string()),
        channel = %channel,
        user = %user.id,
        work_ms = tracing::field::Empty,
        latency_ms = tracing::field::Empty,
    )
}

/// How loudly [`traced`] reports an interaction once it is answered.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Report {
    /// One INFO line: commands and buttons.
    Info,
    /// DEBUG only: autocomplete, which comes with every keystroke.
    Debug,
}

/// Handles an interaction inside its span, then records the latency and logs one line.
pub(crate) async fn traced<T>(span: tracing::Span, report: Report, work: impl Future<Output = T>) -> T {
    use tracing::Instrument as _;
    let started = std::time::Instant::now();
    let result = work.instrument(span.clone()).await;
    let latency_ms = started.elapsed().as_secs_f64() * 1000.0;
    span.record("latency_ms", latency_ms);
    span.in_scope(|| match report {
        Report::Info => tracing::info!(latency_ms, "interaction"),
        Report::Debug => tracing::debug!(latency_ms, "interaction"),
    });
    result
}

/// Starts app work in its own task at once (so a panic in it becomes an apology, not silence,
/// and the adapter's future stays small); the returned future waits for its replies.
fn guarded(work: impl Future<Output = Vec<Reply>> + Send + 'static) -> impl Future<Output = Vec<Reply>> {
    use tracing::Instrument as _;
    // In the interaction's span, so what the game logs is tied to the interaction.
    let task = tokio::spawn(work.in_current_span());
    async move {
        match task.await {
            Ok(replies) => replies,
            Err(error) => {
                let id = error_id();
                tracing::error!(error_id = %id, %error, "the game failed on an interaction");
                vec![apology(&id)]
            }
        }
    }
}

/// A slash command: the invocation goes to the app, its replies to Discord.
pub async fn play(
    ctx: Context<'_>,
    spec: &Spec,
    options: commands::Options,
    file: Option<attachment::File>,
) -> Result<(), Error> {
    let poise::Context::Application(actx) = ctx else {
        return Ok(());
    };
    let i = actx.interaction;
    let span = interaction_span(
        "command",
        &spec.path.join(" "),
        ctx.serenity_context().shard_id,
        i.guild_id,
        i.channel_id,
        &i.user,
    );
    traced(span, Report::Info, answer(ctx, actx, spec, options, file)).await
}

/// The invocation with its attached file's text, fetched only once the caller may use the
/// command and the file is what a command takes; or the refusal.
async fn with_file(
    files: &reqwest::Client,
    gm: bool,
    caller: &Caller,
    mut invocation: Invocation,
    file: Option<attachment::File>,
) -> Result<Invocation, Vec<Reply>> {
    let Some(file) = file else { return Ok(invocation) };
    let text = if gm && !caller.manage_server {
        // Nothing fetched: the app refuses the command for want of Manage Server.
        String::new()
    } else {
        let checked = file.check();
        match checked {
            Ok(()) => file.fetch(files, attachment::TIME_LIMIT).await,
            Err(why) => Err(why),
        }
        .map_err(|why| {
            vec![Reply {
                payload: render::refusal_text(&why),
                to_user: None,
                running: None,
                picture: None,
            }]
        })?
    };
    invocation.options.insert(file.option, text);
    Ok(invocation)
}

async fn answer(
    ctx: Context<'_>,
    actx: poise::ApplicationContext<'_, Data, Error>,
    spec: &Spec,
    options: commands::Options,
    file: Option<attachment::File>,
) -> Result<(), Error> {
    let path = spec.path;
    let i = actx.interaction;
    let data = ctx.data();
    let name = path.first().copied().unwrap_or_default();
    if i.guild_id.is_none() && !commands::in_dms(name) {
        // A stale client offered a server command in a DM: say where it works.
        let text = format!(
            "/{name} works in a server's channels, where your campaign and characters live — not in DMs. \
             Here you can use {}.",
            commands::usable_in_dms().join(", ")
        );
        ctx.send(poise::CreateReply::default().content(text).ephemeral(true))
            .await?;
        return Ok(());
    }
    let _busy = data.busy.read().await;
    let caller = caller(i.guild_id, i.channel_id, &i.user, i.member.as_deref());
    let invocation = Invocation {
        path: path.iter().map(|p| (*p).to_owned()).collect(),
        options,
    };
    let (app, now) = (Arc::clone(&data.app), data.clock.now());
    // The file is fetched inside the work the outbox defers when it is slow, so a slow download
    // is acknowledged in time like any slow command.
    let (files, gm) = (data.files.clone(), spec.gm);
    let work = measured(
        &data.ops,
        path.join(" "),
        guarded(async move {
            match with_file(&files, gm, &caller, invocation, file).await {
                Ok(invocation) => app.command(&caller, &invocation, now).await,
                Err(refusal) => refusal,
            }
        }),
    );
    let on = Interaction {
        id: i.id,
        token: &i.token,
        channel: i.channel_id,
        source: None,
    };
    data.outbox
        .answer_command(&on, actx.has_sent_initial_response, work)
        .await
}

/// A button press: only reaction buttons exist; the app checks each against stored state.
async fn press(data: &Data, press: &serenity::ComponentInteraction) -> Result<(), Error> {
    let _busy = data.busy.read().await;
    let caller = caller(press.guild_id, press.channel_id, &press.user, press.member.as_ref());
    let custom_id = press.data.custom_id.clone();
    let button = ReactionButton::parse(&custom_id);
    let (app, now) = (Arc::clone(&data.app), data.clock.now());
    let work = measured(
        &data.ops,
        "button".to_owned(),
        guarded(async move { app.press(&caller, &custom_id, now).await }),
    );
    let on = Interaction {
        id: press.id,
        token: &press.token,
        channel: press.channel_id,
        source: Some(press.message.id),
    };
    data.outbox.answer_press(&on, button.as_ref(), work).await
}

async fn on_event(
    framework: poise::FrameworkContext<'_, Data, Error>,
    event: &serenity::FullEvent,
) -> Result<(), Error> {
    match event {
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Component(component),
        } => {
            let span = interaction_span(
                "button",
                "button",
                framework.serenity_context.shard_id,
                component.guild_id,
                component.channel_id,
                &component.user,
            );
            traced(span, Report::Info, press(framework.user_data, component)).await?;
        }
        // Removed from a guild (kicked, banned, or the guild deleted; not an outage): its fights
        // and timers pause, the campaign kept, until the bot is back — across restarts too.
        serenity::FullEvent::GuildDelete { incomplete, .. } if !incomplete.unavailable => {
            let guild = incomplete.id.to_string();
            let data = framework.user_data;
            match data.app.service.pause_guild(&guild, data.clock.now()).await {
                Ok(()) => tracing::info!(%guild, "removed from a guild: its fights and timers pause"),
                Err(error) => tracing::error!(%guild, %error, "removed from a guild, but could not pause its fights"),
            }
        }
        serenity::FullEvent::GuildCreate { guild, .. } => {
            let data = framework.user_data;
            match data.app.service.resume_guild(&guild.id.to_string()).await {
                Ok(true) => tracing::info!(guild = %guild.id, "back in a guild: its fights and timers resume"),
                Ok(false) => {}
                Err(error) => {
                    tracing::error!(guild = %guild.id, %error, "back in a guild, but could not resume its fights");
                }
            }
        }
        serenity::FullEvent::Ready { data_about_bot } => framework.user_data.ops.shard(
            data_about_bot.shard.map_or(0, |s| s.id.0),
            crate::ops::Gateway::Connected,
        ),
        // Events are dispatched concurrently, so a late "Identifying" may follow Ready: only
        // the two ends of the lifecycle change a shard's state.
        serenity::FullEvent::ShardStageUpdate { event } => {
            let ops = &framework.user_data.ops;
            match event.new {
                serenity::ConnectionStage::Connected => ops.shard(event.shard_id.0, crate::ops::Gateway::Connected),
                serenity::ConnectionStage::Disconnected => ops.shard(event.shard_id.0, crate::ops::Gateway::Down),
                _ => {}
            }
        }
        _ => {}
    }
    Ok(())
}

/// The one error handler: unknown errors are logged with an id, and the player sees a short
/// apology quoting it (privately); nothing panics and nothing goes unanswered.
async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    let id = error_id();
    let text = match &error {
        poise::FrameworkError::ArgumentParse { error, input, .. } => {
            let input = input.as_deref().unwrap_or("an option");
            format!("I couldn't read {input}: {error}. Check the option and try again.")
        }
        poise::FrameworkError::MissingUserPermissions { .. } => "That needs the Manage Server permission.".to_owned(),
        poise::FrameworkError::Setup { error, .. } => {
            // Without its commands the bot is no use: stop, so the supervisor restarts it.
            tracing::error!(error_id = %id, %error, "could not register the commands");
            std::process::exit(1);
        }
        poise::FrameworkError::UnknownInteraction {
            interaction, framework, ..
        } => {
            // A client with a stale command list (renamed or removed since): answer, so Discord
            // does not show "The application did not respond".
            tracing::warn!(command = %interaction.data.name, "an interaction for a command this bot does not have");
            let text = format!(
                "/{} is not one of my commands any more — type / to see the current ones.",
                interaction.data.name
            );
            let answer = serenity::CreateInteractionResponse::Message(
                serenity::CreateInteractionResponseMessage::new()
                    .content(text)
                    .ephemeral(true)
                    .allowed_mentions(serenity::CreateAllowedMentions::new()),
            );
            if let Err(send) = interaction.create_response(framework.serenity_context, answer).await {
                tracing::error!(error_id = %id, error = %send, "could not answer an unknown command");
            }
            return;
        }
        other => {
            tracing::error!(error_id = %id, error = %other, "interaction failed");
            format!("Sorry — something went wrong on our side (error {id}). Nothing was changed; please try again.")
        }
    };
    let Some(ctx) = error.ctx() else {
        return;
    };
    let reply = poise::CreateReply::default().content(text).ephemeral(true);
    if let Err(send) = ctx.send(reply).await {
        tracing::error!(error_id = %id, error = %send, "could not tell the player about an error");
    }
}

/// Marks an interaction acknowledged, for poise (its error replies then follow up).
pub fn acknowledged(flag: &AtomicBool) {
    flag.store(true, Ordering::SeqCst);
}
