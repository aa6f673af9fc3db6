//! The one timer task: sleeps until the earliest stored timer is due (or [`POLL`], since a
//! command may set an earlier one meanwhile), fires what is due, and posts the replies.
//! Timers live in the database, so a restarted bot picks up where the last one stopped.

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use tokio::sync::{RwLock, oneshot, watch};

use super::send::Outbox;
use crate::app::App;
use crate::ops::Ops;

/// The longest the task sleeps before looking for timers again.
const POLL: Duration = Duration::from_secs(1);

/// Runs until `stop` changes; starts once the bot is connected and hands it the `outbox`.
pub async fn run(
    app: Arc<App>,
    outbox: oneshot::Receiver<Arc<Outbox>>,
    busy: Arc<RwLock<()>>,
    ops: Arc<Ops>,
    mut stop: watch::Receiver<bool>,
) {
    let outbox = tokio::select! {
        outbox = outbox => match outbox {
            Ok(outbox) => outbox,
            Err(_) => return,
        },
        _ = stop.changed() => return,
    };
    loop {
        let now = Utc::now();
        let wait = match app.service.next_timer_due().await {
            Ok(Some(due)) if due <= now => {
                ops.timer_lag
                    .observe((now - due).to_std().unwrap_or_default().as_secs_f64());
                let fired = {
                    let _busy = busy.read().await;
                    let posts = app.timers(now).await;
                    let fired = !posts.is_empty();
                    outbox.post_timed(posts).await;
                    fired
                };
                // A timer that could not fire stays due: don't spin on it.
                if fired { Duration::ZERO } else { POLL }
            }
            Ok(Some(due)) => (due - now).to_std().unwrap_or_default().min(POLL),
            Ok(None) => POLL,
            Err(error) => {
                tracing::error!(%error, "could not read the timers");
                POLL
            }
        };
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            _ = stop.changed() => return,
        }
    }
}
