//! The one timer task: sleeps until the earliest stored timer is due — for at most [`POLL`],
//! since another process may set an earlier one, and woken at once when this process sets
//! one — fires what is due at the [`Clock`]'s `now`, and hands the messages to a [`Post`]: the
//! bot's [`Outbox`] (channels, and DMs for a rest that is over), or a list in tests. Timers
//! live in the database, so a restarted bot picks up where the last one stopped.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{RwLock, oneshot, watch};

use super::send::Outbox;
use crate::app::{App, Reply};
use crate::clock::Clock;
use crate::ops::Ops;

/// The longest the task sleeps before looking for timers again.
pub const POLL: Duration = Duration::from_secs(1);

/// Where fired timers' messages go, as `(channel, reply)` pairs.
pub trait Post: Send + Sync {
    fn post(&self, posts: Vec<(String, Reply)>) -> impl Future<Output = ()> + Send;
}

impl Post for Outbox {
    fn post(&self, posts: Vec<(String, Reply)>) -> impl Future<Output = ()> + Send {
        self.post_timed(posts)
    }
}

/// What the timer task works with.
pub struct Timers {
    pub app: Arc<App>,
    pub clock: Clock,
    /// Held (read) while a batch fires and posts, so shutdown waits for it.
    pub busy: Arc<RwLock<()>>,
    pub ops: Arc<Ops>,
}

/// What the task does after looking at the timers.
enum Next {
    /// Look again at once (a batch fired; more may be due).
    Again,
    /// Sleep until the next timer is due, or a new one is set.
    Wait,
    /// Sleep for [`POLL`]: the timers could not be read, or a due one could not fire.
    Poll,
}

impl Timers {
    /// Runs until `stop` changes; starts once the bot is connected and hands it the `outbox`.
    pub async fn run(self, outbox: oneshot::Receiver<Arc<Outbox>>, mut stop: watch::Receiver<bool>) {
        let outbox = tokio::select! {
            outbox = outbox => match outbox {
                Ok(outbox) => outbox,
                Err(_) => return,
            },
            _ = stop.changed() => return,
        };
        self.fire_until_stopped(outbox.as_ref(), stop).await;
    }

    /// The loop: fires what is due and posts it, then waits for the next timer; until `stop`
    /// changes.
    pub async fn fire_until_stopped(&self, post: &impl Post, mut stop: watch::Receiver<bool>) {
        loop {
            let next = self.fire_due(post).await;
            let wait = async {
                match next {
                    Next::Again => {}
                    Next::Poll => tokio::time::sleep(POLL).await,
                    Next::Wait => {
                        if let Err(error) = self.app.service.wait_for_timers(self.clock.now(), POLL).await {
                            tracing::error!(%error, "could not read the timers");
                            tokio::time::sleep(POLL).await;
                        }
                    }
                }
            };
            tokio::select! {
                () = wait => {}
                _ = stop.changed() => return,
            }
        }
    }

    /// Fires the timers due now, if any, and posts their messages.
    async fn fire_due(&self, post: &impl Post) -> Next {
        let now = self.clock.now();
        match self.app.service.next_timer_due().await {
            Ok(Some(due)) if due <= now => {
                let _busy = self.busy.read().await;
                let posts = self.app.timers(now).await;
                if posts.is_empty() {
                    // Another process fired it, or it could not fire and stays due: don't spin.
                    Next::Poll
                } else {
                    self.ops
                        .timer_lag
                        .observe((now - due).to_std().unwrap_or_default().as_secs_f64());
                    post.post(posts).await;
                    Next::Again
                }
            }
            Ok(_) => Next::Wait,
            Err(error) => {
                tracing::error!(%error, "could not read the timers");
                Next::Poll
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! The timer task on tokio's paused clock, over a SQLite file: a recovery rest fires when it
    //! is due and not a second before, exactly once, at once after a restart, and at once when
    //! a timer that is already due is set while the task sleeps.

    use std::path::{Path, PathBuf};
    use std::sync::Mutex;

    use chrono::{DateTime, TimeDelta, TimeZone, Utc};
    use render::Renderer;
    use service::{Db, Service};

    use super::*;
    use crate::app::{Caller, Invocation};
    use crate::script::{Line, parse_line};

    const CHANNEL: &str = "channel-7";
    const HOUR: Duration = Duration::from_hours(1);

    fn base() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 29, 12, 0, 0).unwrap()
    }

    /// Keeps the paused clock still while SQLite works on its own threads: tokio does not
    /// auto-advance while a blocking task runs, so time moves only by `advance`. (Auto-advance
    /// would jump over the pool's acquire timeout while a query is in flight.)
    struct Still(#[allow(dead_code)] std::sync::mpsc::Sender<()>);

    fn hold_still() -> Still {
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        tokio::task::spawn_blocking(move || {
            let _ = rx.recv();
        });
        Still(tx)
    }

    /// Lets the task run for a moment of real time (the paused clock stands still).
    async fn settle() {
        tokio::task::spawn_blocking(|| std::thread::sleep(Duration::from_millis(150)))
            .await
            .unwrap();
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("gogobee-timers-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A process's game over the database in `dir`.
    async fn open(dir: &Path) -> Arc<App> {
        let url = format!("sqlite://{}?mode=rwc", dir.join("gogobee.db").display());
        let db = Db::connect(&url).await.unwrap();
        Arc::new(App::new(Service::with_seed(db, 7), Renderer::load().unwrap(), 7))
    }

    /// One script line (`@user /command options`) at `now`; the replies as text.
    async fn play(app: &App, now: DateTime<Utc>, line: &str) -> String {
        let Some(Line::Command { user, command }) = parse_line(line).unwrap() else {
            panic!("not a command: {line}");
        };
        let caller = Caller {
            guild: "guild-7".into(),
            channel: CHANNEL.into(),
            user: user.clone(),
            manage_server: user == "owner",
        };
        let invocation = Invocation {
            path: command.path,
            options: command.options,
        };
        let replies = app.command(&caller, &invocation, now).await;
        replies
            .iter()
            .map(|r| text_of(&r.payload))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// A payload's words: its content, and each embed's title, description, fields and footer.
    fn text_of(payload: &render::MessagePayload) -> String {
        let mut parts: Vec<&str> = payload.content.iter().map(String::as_str).collect();
        for embed in &payload.embeds {
            parts.extend(embed.title.as_deref());
            parts.extend(embed.description.as_deref());
            for field in &embed.fields {
                parts.extend([field.name.as_str(), field.value.as_str()]);
            }
            parts.extend(embed.footer.as_ref().map(|f| f.text.as_str()));
        }
        parts.join("\n")
    }

    /// Aria (level 1, 20 coins) dies in a fight beside Bram and pays Thom's 8 coins at `now`:
    /// her two-hour recovery rest ends at `now` + 2 h. The campaign's turn timer is off, so the
    /// rest is the only timer (a fight played hours in the past would otherwise time out turns).
    async fn die_and_pay(app: &App, now: DateTime<Utc>) {
        for line in [
            "@owner /campaign turntimeout seconds:0",
            "@alice /character create name:Aria race:human class:fighter",
            "@bob /character create name:Bram race:dwarf class:fighter",
            "@owner /gm spawn monster:\"giant rat\" count:1",
            "@alice /combat join",
            "@bob /combat join",
            "@alice /combat start",
            "@owner /gm hp target:Aria delta:-100",
            "@owner /gm hp target:Aria delta:-1",
            "@owner /gm hp target:Aria delta:-1",
        ] {
            play(app, now, line).await;
        }
        let died = play(app, now, "@owner /gm hp target:Aria delta:-1").await;
        assert!(died.contains("\"Again,\" Thom says, not unkindly."), "{died}");
        play(app, now, "@owner /gm end").await;
        let paid = play(app, now, "@alice /hospital pay").await;
        assert!(paid.contains("8 coins") && paid.contains("2 hours"), "{paid}");
    }

    /// What the task posted, with the clock's time when it did.
    struct Recorder {
        clock: Clock,
        posts: Mutex<Vec<(DateTime<Utc>, String, Reply)>>,
    }

    impl Post for Recorder {
        async fn post(&self, posts: Vec<(String, Reply)>) {
            let now = self.clock.now();
            let mut seen = self.posts.lock().unwrap();
            seen.extend(posts.into_iter().map(|(channel, reply)| (now, channel, reply)));
        }
    }

    impl Recorder {
        fn posts(&self) -> Vec<(DateTime<Utc>, String, Reply)> {
            self.posts.lock().unwrap().clone()
        }
    }

    /// A running timer task: what it posted, its metrics, and how to stop it.
    struct Task {
        recorder: Arc<Recorder>,
        ops: Arc<Ops>,
        stop: watch::Sender<bool>,
        handle: tokio::task::JoinHandle<()>,
    }

    fn start(app: &Arc<App>, clock: Clock) -> Task {
        let recorder = Arc::new(Recorder {
            clock,
            posts: Mutex::new(Vec::new()),
        });
        let ops = Arc::new(Ops::new().unwrap());
        let timers = Timers {
            app: Arc::clone(app),
            clock,
            busy: Arc::new(RwLock::new(())),
            ops: Arc::clone(&ops),
        };
        let (stop, stopped) = watch::channel(false);
        let post = Arc::clone(&recorder);
        let handle = tokio::spawn(async move { timers.fire_until_stopped(post.as_ref(), stopped).await });
        Task {
            recorder,
            ops,
            stop,
            handle,
        }
    }

    impl Task {
        async fn stop(self) {
            self.stop.send(true).unwrap();
            self.handle.await.unwrap();
        }
    }

    /// Waits (up to 10 s of real time) until the tasks have posted `n` messages between them.
    async fn wait_for_posts(tasks: &[&Task], n: usize) -> Vec<(DateTime<Utc>, String, Reply)> {
        for _ in 0..70 {
            let posts: Vec<_> = tasks.iter().flat_map(|t| t.recorder.posts()).collect();
            if posts.len() >= n {
                return posts;
            }
            settle().await;
        }
        panic!("fewer than {n} posts after 10 s");
    }

    fn assert_rest_over(post: &(DateTime<Utc>, String, Reply), at: DateTime<Utc>) {
        let (when, channel, reply) = post;
        assert_eq!(*when, at);
        assert_eq!(channel, CHANNEL, "the channel where she paid (the fallback to her DMs)");
        assert_eq!(reply.to_user.as_deref(), Some("alice"));
        let text = text_of(&reply.payload);
        assert!(text.contains("**Aria**") && text.ends_with("Thom Krooke"), "{text}");
    }

    #[tokio::test(start_paused = true)]
    async fn a_rest_fires_when_due_exactly_once() {
        let _still = hold_still();
        let dir = scratch("due");
        let app = open(&dir).await;
        let clock = Clock::starting_at(base());
        die_and_pay(&app, clock.now()).await;
        let task = start(&app, clock);

        settle().await;
        tokio::time::advance(Duration::from_secs(2 * 3600 - 1)).await;
        settle().await;
        assert_eq!(clock.now(), base() + TimeDelta::seconds(7199));
        assert!(task.recorder.posts().is_empty(), "nothing is due a second early");
        let sheet = play(&app, clock.now(), "@alice /character sheet").await;
        assert!(sheet.contains("0/12"), "still resting: {sheet}");

        tokio::time::advance(Duration::from_secs(1)).await;
        let posts = wait_for_posts(&[&task], 1).await;
        assert_eq!(posts.len(), 1);
        assert_rest_over(&posts[0], base() + TimeDelta::hours(2));
        assert_eq!(task.ops.timer_lag.get_sample_count(), 1);
        assert!(
            task.ops.timer_lag.get_sample_sum().abs() < f64::EPSILON,
            "fired on time"
        );
        let sheet = play(&app, clock.now(), "@alice /character sheet").await;
        assert!(sheet.contains("12/12"), "HP restored: {sheet}");

        for _ in 0..3 {
            tokio::time::advance(4 * HOUR).await;
            settle().await;
        }
        assert_eq!(task.recorder.posts().len(), 1, "never again");
        assert_eq!(task.ops.timer_lag.get_sample_count(), 1);
        task.stop().await;
        let _ = std::fs::remove_dir_all(dir);
    }

    #[tokio::test(start_paused = true)]
    async fn a_rest_due_while_down_fires_at_once_on_restart_exactly_once() {
        let _still = hold_still();
        let dir = scratch("restart");
        let clock = Clock::starting_at(base());
        let first = open(&dir).await;
        die_and_pay(&first, clock.now()).await;
        let task = start(&first, clock);
        settle().await;
        tokio::time::advance(HOUR).await;
        settle().await;
        assert!(task.recorder.posts().is_empty(), "an hour into a two-hour rest");
        task.stop().await;
        drop(first);

        // Down for two hours; then two processes come up over the same database at once.
        tokio::time::advance(2 * HOUR).await;
        let (b, c) = (open(&dir).await, open(&dir).await);
        let (tb, tc) = (start(&b, clock), start(&c, clock));
        let posts = wait_for_posts(&[&tb, &tc], 1).await;
        assert_rest_over(&posts[0], base() + TimeDelta::hours(3));
        let lag: f64 = [&tb, &tc].iter().map(|t| t.ops.timer_lag.get_sample_sum()).sum();
        assert!((lag - 3600.0).abs() < 1e-6, "an hour late: {lag}");

        tokio::time::advance(4 * HOUR).await;
        settle().await;
        let posts = tb.recorder.posts().len() + tc.recorder.posts().len();
        assert_eq!(posts, 1, "fired by one process, once");
        tb.stop().await;
        tc.stop().await;
        let _ = std::fs::remove_dir_all(dir);
    }

    #[tokio::test(start_paused = true)]
    async fn setting_a_due_timer_wakes_the_sleeping_task() {
        let _still = hold_still();
        let dir = scratch("wake");
        let app = open(&dir).await;
        let clock = Clock::starting_at(base());
        let task = start(&app, clock);
        settle().await;
        assert!(task.recorder.posts().is_empty());

        // Paid two hours ago: the rest is due now. The clock does not move; the task, asleep
        // for up to POLL, fires it only because paying woke it.
        die_and_pay(&app, clock.now() - TimeDelta::hours(2)).await;
        let posts = wait_for_posts(&[&task], 1).await;
        assert_rest_over(&posts[0], base());
        task.stop().await;
        let _ = std::fs::remove_dir_all(dir);
    }

    /// Every reply's words, one block per post.
    fn words(posts: &[(String, Reply)]) -> String {
        posts
            .iter()
            .map(|(_, r)| text_of(&r.payload))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Aria and Bram (level 12) against a goblin, the campaign's turn timeout at 30 s, begun
    /// at `now`; nobody types again.
    async fn abandoned_fight(app: &App, now: DateTime<Utc>) {
        let refused = play(app, now, "@owner /campaign turntimeout seconds:5").await;
        assert!(refused.contains("between 30 seconds and 86400"), "{refused}");
        for line in [
            "@owner /campaign turntimeout seconds:30",
            "@alice /character create name:Aria race:human class:fighter",
            "@bob /character create name:Bram race:dwarf class:fighter",
            "@owner /gm level player:alice level:12",
            "@owner /gm level player:bob level:12",
            "@owner /gm spawn monster:goblin count:1",
            "@alice /combat join",
            "@bob /combat join",
            "@alice /combat start",
        ] {
            play(app, now, line).await;
        }
    }

    /// Fires what is due every 31 s from `now` until `until` shows up (at most `steps` times);
    /// returns the time it did and everything posted.
    async fn fire_until(app: &App, mut now: DateTime<Utc>, until: &str, steps: usize) -> (DateTime<Utc>, String) {
        let mut seen = String::new();
        for _ in 0..steps {
            now += TimeDelta::seconds(31);
            seen.push_str(&words(&app.timers(now).await));
            seen.push('\n');
            if seen.contains(until) {
                return (now, seen);
            }
        }
        panic!("no {until:?} after {steps} steps:\n{seen}");
    }

    #[tokio::test]
    async fn an_abandoned_fight_pauses_until_a_player_returns_even_after_a_restart() {
        let dir = scratch("abandoned");
        let app = open(&dir).await;
        abandoned_fight(&app, base()).await;

        // Turn after turn runs out, each said; when both have let three go, the fight pauses.
        let (paused_at, said) = fire_until(&app, base(), "The fight is paused", 30).await;
        assert!(said.contains("**Aria**") && said.contains("**Bram**"), "{said}");
        assert!(said.contains("even `/combat status`"), "{said}");
        // The GM (no one in the fight) looking changes nothing; nobody acts, falls or pays for a day.
        let before = play(&app, paused_at, "@owner /combat status").await;
        assert!(!before.contains("is back"), "{before}");
        for hours in [1, 6, 24] {
            let later = paused_at + TimeDelta::hours(hours);
            assert!(app.timers(later).await.is_empty(), "nothing fires while paused");
        }
        // A restart keeps it paused.
        drop(app);
        let app = open(&dir).await;
        let day = paused_at + TimeDelta::hours(25);
        assert!(app.timers(day).await.is_empty(), "still paused after a restart");
        let after = play(&app, day, "@owner /combat status").await;
        assert_eq!(before, after, "the fight stood still");

        // Bram comes back: any command of his resumes it, and the channel hears so.
        let back = play(&app, day, "@bob /character sheet").await;
        assert!(back.contains("**Bram** is back: the fight goes on."), "{back}");
        let again = play(&app, day, "@bob /character sheet").await;
        assert!(!again.contains("is back"), "said once: {again}");
        // The turn it stopped on has a full turn again, then runs out as before.
        assert!(app.timers(day + TimeDelta::seconds(29)).await.is_empty());
        let (_, said) = fire_until(&app, day, "Bram", 2).await;
        assert!(!said.contains("paused"), "{said}");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[tokio::test]
    async fn a_guild_that_removed_the_bot_stays_paused_across_a_restart() {
        let dir = scratch("guild-gone");
        let app = open(&dir).await;
        abandoned_fight(&app, base()).await;
        app.service.pause_guild("guild-7", base()).await.unwrap();
        drop(app);
        let app = open(&dir).await;
        let later = base() + TimeDelta::hours(3);
        assert!(app.timers(later).await.is_empty(), "its timers wait, restart or not");
        assert!(app.service.resume_guild("guild-7").await.unwrap());
        assert!(!app.service.resume_guild("guild-7").await.unwrap(), "resumed once");
        let posts = app.timers(later).await;
        assert!(!posts.is_empty(), "back: what fell due fires");
        assert!(posts.iter().all(|(channel, _)| channel == CHANNEL));
        let _ = std::fs::remove_dir_all(dir);
    }
}
