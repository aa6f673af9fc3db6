//! The fight's timers: which rows a command sets and retires, and when the fight's one timer
//! is due.

use chrono::Duration;
use sea_orm::{ActiveValue::Set, ConnectionTrait, DatabaseTransaction, DbBackend};

use crate::entity::timer;
use crate::{DateTimeUtc, ServiceError};

use super::{Before, Live};

/// The `timers.kind` of a fight's timer ([`Live::fight_timer`]): the open reaction window's
/// timeout and the turn timer, one row a fight.
pub const COMBAT_TIMER: &str = "combat_timer";

/// The `timers.kind` of a reaction window's timeout in fights stored before the fight's one timer (`m20261210_000013`), a row a
/// window, its id the window's token.
pub const REACTION_TIMEOUT: &str = "reaction_timeout";

/// The `timers.kind` of a turn timer in fights stored before the fight's one timer (`m20261210_000013`), a row a wait: fired
/// as [`COMBAT_TIMER`], whose role it held.
pub const TURN_TIMEOUT: &str = "turn_timeout";

/// An id of `timers`' sequence taken inside `txn` (a window's token, a fight's timer), as the
/// group commit's writers take theirs ahead: never anyone else's, and on SQLite without a row.
pub(super) async fn take_timer_id(txn: &DatabaseTransaction) -> Result<i64, ServiceError> {
    use sea_orm::{Statement, TryGetable};
    let backend = txn.get_database_backend();
    let take = if backend == DbBackend::Sqlite {
        txn.execute_unprepared(crate::writer::SQLITE_TIMERS_SEQUENCE_ROW)
            .await?;
        Statement::from_sql_and_values(backend, crate::writer::SQLITE_TAKE_TIMER_IDS, [1_i64.into()])
    } else {
        Statement::from_string(backend, "SELECT nextval(pg_get_serial_sequence('timers', 'id'))")
    };
    let row = txn
        .query_one_raw(take)
        .await?
        .ok_or_else(|| ServiceError::InvalidInput("timers' sequence gave no id".into()))?;
    Ok(i64::try_get_by_index(&row, 0).map_err(sea_orm::DbErr::from)?)
}

/// What a command does to the fight's timers: the rows it retires (ids), the fight's timer it
/// sets (a row to insert, its id taken with the write), and whether the window it opened needs a
/// token.
pub(super) struct TimerChange {
    pub(super) retired: Vec<i64>,
    pub(super) fight_timer: Option<timer::ActiveModel>,
    pub(super) token: bool,
}

impl TimerChange {
    /// How many ids of `timers`' sequence the command takes: its window's token and its timer's.
    pub(super) fn ids(&self) -> usize {
        usize::from(self.token) + usize::from(self.fight_timer.is_some())
    }

    /// Gives the window its token and the fight's timer its id, in that order, from `ids`;
    /// returns the timer's row.
    pub(super) fn take_ids(
        &mut self,
        after: &mut Live,
        ids: impl IntoIterator<Item = i64>,
    ) -> Option<timer::ActiveModel> {
        let mut ids = ids.into_iter();
        if self.token {
            after.window_token = Some(ids.next().expect("an id for the window's token"));
        }
        let mut row = self.fight_timer.take()?;
        let id = ids.next().expect("an id for the fight's timer");
        row.id = Set(id);
        after.fight_timer = Some(id);
        Some(row)
    }
}

/// The timers a command changes (see [`Live::fight_timer`]). A window that opens gets a token,
/// and the fight's timer is set at its first window or wait on a player and retired when it
/// ends; in between, a command only notes when a window opened and a wait began. (A window opened
/// before the fight's one timer (`m20261210_000013`) has a timeout row of its own, its token: once the window closes, the row
/// fires moot and goes.)
pub(super) fn timer_change(before: &Before, after: &mut Live, now: DateTimeUtc) -> TimerChange {
    let mut retired = Vec::new();
    let mut token = false;
    if before.window != after.combat.window {
        after.window_token = None;
        token = after.combat.window.is_some();
    }
    after.track(before.window.as_ref(), before.wait, now);
    let running = after.combat.outcome.is_none();
    let timed = after.combat.window.is_some()
        || (after.turn_timeout_secs > 0 && crate::store::awaited(&after.combat).is_some());
    let mut fight_timer = None;
    match before.fight_timer {
        Some(id) if !running => {
            retired.push(id);
            after.fight_timer = None;
        }
        Some(_) => {}
        None if running && timed => {
            fight_timer = Some(timer::ActiveModel {
                kind: Set(COMBAT_TIMER.to_owned()),
                campaign_id: Set(Some(after.campaign_id)),
                due_at: Set(arm_at(after, now)),
                payload: Set(serde_json::json!({ "combat_id": after.id })),
                ..Default::default()
            });
        }
        None => {}
    }
    TimerChange {
        retired,
        fight_timer,
        token,
    }
}

/// When the fight's timer, armed at `now`, is due ([`Live::fight_timer`]): at the open window's
/// end, the wait's end, or the shorter timeout on, whichever comes first.
pub(crate) fn arm_at(live: &Live, now: DateTimeUtc) -> DateTimeUtc {
    let reaction = Duration::seconds(live.reaction_timeout_secs.max(1));
    let mut due = now + reaction;
    if let Some(since) = live.window_since {
        due = due.min(since + reaction);
    }
    if live.turn_timeout_secs > 0 {
        let turn = Duration::seconds(live.turn_timeout_secs);
        due = due.min(now + turn);
        if let Some(since) = live.wait_since
            && crate::store::awaited(&live.combat).is_some()
        {
            due = due.min(since + turn);
        }
    }
    due
}
