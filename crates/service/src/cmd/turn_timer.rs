//! The campaign's turn timer (seed 004 "a player with none chosen halts the game until
//! they commit — in Discord, the combat waits for that player's command, with the campaign's
//! turn timer").
//!
//! While a fight waits on a player — their turn under `gogobee`, `tdgs` and `ctb`, the timeline
//! halted for their choice under `ticks` — they have `turn_timeout_secs` from when the wait
//! began: the timer bounds the turn, not the pause between two commands, so the player's own
//! commands within the turn (an attack, then a move) leave it as it is. When the wait has run out
//! and the combat still waits on that player in that turn, the turn ends as if they had sent
//! `/endturn` (under `ticks`, `EndTurn` is "wait a tick", the cheapest thing to commit), written
//! like any command.
//!
//! Both this and the reaction window's timeout are kept by the fight's timer, one
//! [`crate::COMBAT_TIMER`] row a fight ([`crate::store::Live::fight_timer`]; a row a wait and a row
//! a window would be two of a command's ≈ five pages of SQLite's WAL). A command that passes the turn
//! or opens a window writes nothing of it: the fight notes when the wait began
//! ([`crate::store::Live::wait_since`]) or the window opened, kept with its snapshot and rebuilt from its log,
//! and the row, armed before that, is due no later than its end. When it fires early, it is armed
//! again and nothing happens; the fight's end deletes it.
//!
//! An abandoned fight pauses: the turns each player let run out in a row are counted
//! (`idle_fights`, valid while no player's command has moved the fight on: a timer's command
//! carries the count to the version it writes). When every player who could act has let
//! [`IDLE_TURNS`] run out, the timer that would end the third does not: the fight stops there —
//! nobody acts, dies or pays — its turn timer taken out, until a player in it sends any command
//! in its channel ([`Service::resume_if_paused`]), which puts the timer back: the player has a
//! full turn from then.

use std::collections::{BTreeMap, HashSet};

use chrono::Duration;
use engine::{Actor, Combat, CombatantId, Command};
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};

use crate::entity::{idle_fight, timer};
use crate::scheduler::{FightPaused, Fired, TurnTimedOut};
use crate::store::COMBAT_TIMER;
pub use crate::store::awaited;
use crate::{DateTimeUtc, Service, ServiceError};

/// Turns in a row every player may let run out before their fight pauses.
pub const IDLE_TURNS: u32 = 3;

/// Turns run out in a row, by combatant index.
type Timeouts = BTreeMap<u32, u32>;

/// The players who could act: player characters neither dead nor down.
fn active_players(combat: &Combat) -> Vec<CombatantId> {
    combat
        .combatants
        .iter()
        .filter(|c| c.player_id().is_some() && !c.is_dead() && !c.is_downed())
        .map(|c| c.id)
        .collect()
}

/// A paused fight picked up again by a player's command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FightResumed {
    pub combat_id: i64,
    /// The returning player's character.
    pub name: String,
}

impl Service {
    /// Fires a fight's timer ([`crate::store::Live::fight_timer`]; or a turn timer of a wait that began
    /// before the fight's one timer (`m20261210_000013`), which is the fight's timer now).
    ///
    /// When the open reaction window's time is up, the reactor passes. When the wait it bounds
    /// has run out — the fight still waits on a player `turn_timeout_secs` after that wait
    /// began — the turn ends as if they had sent `/endturn`. Either is written like any command,
    /// and the timer is armed again ([`crate::store::arm_at`]). When it fired early (a window
    /// opened or a wait began after it was armed), it is only armed again. When it is no longer
    /// the fight's (the fight ended), it is deleted.
    pub(crate) async fn fire_fight_timer(
        &self,
        t: &timer::Model,
        now: DateTimeUtc,
    ) -> Result<Option<Fired>, ServiceError> {
        let Some(combat_id) = t.payload.get("combat_id").and_then(serde_json::Value::as_i64) else {
            timer::Entity::delete_by_id(t.id).exec(self.db().conn()).await?;
            return Ok(None);
        };
        // A paused fight's wait began again when it was resumed (see `resume_if_paused`).
        let resumed = t
            .payload
            .get("resumed_at")
            .and_then(|at| serde_json::from_value::<DateTimeUtc>(at.clone()).ok());
        let idle = idle_fight::Entity::find_by_id(combat_id).one(self.db().conn()).await?;
        let mut counted = Timeouts::new();
        let mut pause: Option<(i64, String, Vec<String>)> = None;
        // What came due: the window (`None`) or the wait on a player.
        let mut due: Option<Option<CombatantId>> = None;
        // When the timer is due again should nothing come due (`None`: it is not the fight's).
        let mut rearm: Option<DateTimeUtc> = None;
        let result = self
            .store
            .run(combat_id, now, |live| {
                (due, pause, rearm) = (None, None, None);
                if live.fight_timer != Some(t.id) {
                    return Err(ServiceError::StaleButton);
                }
                if resumed > live.wait_since && awaited(&live.combat).is_some() {
                    live.wait_since = resumed;
                }
                rearm = Some(crate::store::arm_at(live, now));
                let reaction = Duration::seconds(live.reaction_timeout_secs.max(1));
                if live.combat.window.is_some() {
                    if live.window_since.is_none_or(|since| since + reaction > now) {
                        return Err(ServiceError::StaleButton);
                    }
                    due = Some(None);
                    return crate::store::engine_step(live, Actor::Director, Command::Pass, now);
                }
                let turn = Duration::seconds(live.turn_timeout_secs);
                let Some(id) = awaited(&live.combat).filter(|_| live.turn_timeout_secs > 0) else {
                    return Err(ServiceError::StaleButton);
                };
                if live.wait_since.is_some_and(|since| since + turn > now) {
                    return Err(ServiceError::StaleButton);
                }
                due = Some(Some(id));
                // The count holds while no player's command has moved the fight on.
                counted = idle
                    .as_ref()
                    .filter(|i| i.version == live.version && i.paused_at.is_none())
                    .and_then(|i| serde_json::from_str(&i.timeouts).ok())
                    .unwrap_or_default();
                *counted.entry(id.0).or_default() += 1;
                let players = active_players(&live.combat);
                if !players.is_empty()
                    && players
                        .iter()
                        .all(|p| counted.get(&p.0).is_some_and(|n| *n >= IDLE_TURNS))
                {
                    let names = players.iter().map(|p| live.combat.get(*p).name.clone()).collect();
                    pause = Some((live.version, live.channel_id.clone(), names));
                    // Nothing is written: the fight stops where it is.
                    return Err(ServiceError::StaleButton);
                }
                crate::store::engine_step(live, Actor::Combatant(id), Command::EndTurn, now)
            })
            .await;
        if let Some((version, channel_id, names)) = pause {
            self.pause_fight(t, combat_id, version, &counted, now).await?;
            return Ok(Some(Fired::FightPaused(FightPaused {
                combat_id,
                channel_id,
                names,
            })));
        }
        let written = match result {
            Ok(written) => written,
            // Early, or the engine refused what came due: the timer stays the fight's.
            Err(ServiceError::StaleButton | ServiceError::Rules(_)) if let Some(at) = rearm => {
                // Never due again at once: what came due and was refused tries again later.
                let at = if at > now { at } else { now + Duration::seconds(1) };
                self.arm_fight_timer(t.id, at).await?;
                return Ok(None);
            }
            // Not the fight's timer (a leftover), or the fight is over: the timer is moot.
            Err(ServiceError::StaleButton | ServiceError::Rules(_) | ServiceError::CombatNotFound(_)) => {
                timer::Entity::delete_by_id(t.id).exec(self.db().conn()).await?;
                return Ok(None);
            }
            Err(err) => return Err(err),
        };
        let version = written.live.version;
        if written.live.fight_timer == Some(t.id) {
            self.arm_fight_timer(t.id, crate::store::arm_at(&written.live, now))
                .await?;
        }
        match due.expect("a command is written only when something came due") {
            None => {
                // No player acted: a run of idle turns goes on.
                self.carry_idle(combat_id, version - 1, version).await?;
                let update = Self::update(written.live, written.events, written.extra.1);
                Ok(Some(Fired::ReactionPassed(Box::new(update))))
            }
            Some(id) => {
                self.count_idle(combat_id, version, &counted, None, None).await?;
                let name = written.live.combat.get(id).name.clone();
                let update = Self::update(written.live, written.events, written.extra.1);
                Ok(Some(Fired::TurnTimedOut(Box::new(TurnTimedOut { name, update }))))
            }
        }
    }

    /// Arms a fight's timer (claimed as it fired) to be due at `due`, unclaimed.
    async fn arm_fight_timer(&self, id: i64, due: DateTimeUtc) -> Result<(), ServiceError> {
        timer::Entity::update_many()
            .col_expr(timer::Column::DueAt, Expr::value(due))
            .col_expr(timer::Column::ClaimedBy, Expr::value(Option::<String>::None))
            .col_expr(timer::Column::ClaimedAt, Expr::value(Option::<DateTimeUtc>::None))
            .filter(timer::Column::Id.eq(id))
            .filter(timer::Column::FiredAt.is_null())
            .exec(self.db().conn())
            .await?;
        Ok(())
    }
}

impl Service {
    /// Writes a fight's idle count as of `version` (and, pausing, when and the timer taken out).
    async fn count_idle(
        &self,
        combat_id: i64,
        version: i64,
        timeouts: &Timeouts,
        paused_at: Option<DateTimeUtc>,
        timer: Option<String>,
    ) -> Result<(), ServiceError> {
        let row = idle_fight::ActiveModel {
            combat_id: Set(combat_id),
            version: Set(version),
            timeouts: Set(serde_json::to_string(timeouts).expect("counts serialise")),
            paused_at: Set(paused_at),
            timer: Set(timer),
        };
        idle_fight::Entity::insert(row)
            .on_conflict(
                OnConflict::column(idle_fight::Column::CombatId)
                    .update_columns([
                        idle_fight::Column::Version,
                        idle_fight::Column::Timeouts,
                        idle_fight::Column::PausedAt,
                        idle_fight::Column::Timer,
                    ])
                    .to_owned(),
            )
            .exec(self.db().conn())
            .await?;
        Ok(())
    }

    /// A command a timer made (a reaction that timed out) moved the fight from `from` to `to`:
    /// the idle count carries over, as no player acted.
    pub(crate) async fn carry_idle(&self, combat_id: i64, from: i64, to: i64) -> Result<(), ServiceError> {
        idle_fight::Entity::update_many()
            .col_expr(idle_fight::Column::Version, Expr::value(to))
            .filter(idle_fight::Column::CombatId.eq(combat_id))
            .filter(idle_fight::Column::Version.eq(from))
            .filter(idle_fight::Column::PausedAt.is_null())
            .exec(self.db().conn())
            .await?;
        Ok(())
    }

    /// Pauses a fight nobody plays: its turn timer `t` is taken out (kept in the idle row, to
    /// be put back) and the fight marked paused, in one transaction.
    async fn pause_fight(
        &self,
        t: &timer::Model,
        combat_id: i64,
        version: i64,
        timeouts: &Timeouts,
        now: DateTimeUtc,
    ) -> Result<(), ServiceError> {
        let kept = serde_json::json!({
            "id": t.id,
            "kind": t.kind,
            "payload": t.payload,
            "campaign_id": t.campaign_id,
        });
        timer::Entity::delete_by_id(t.id).exec(self.db().conn()).await?;
        self.count_idle(combat_id, version, timeouts, Some(now), Some(kept.to_string()))
            .await?;
        self.paused_fights()
            .await?
            .lock()
            .expect("paused fights poisoned")
            .insert(combat_id);
        Ok(())
    }

    /// The fights paused for want of players (read from the database once per process).
    async fn paused_fights(&self) -> Result<&std::sync::Mutex<HashSet<i64>>, ServiceError> {
        self.paused_fights
            .get_or_try_init(|| async {
                let paused = idle_fight::Entity::find()
                    .filter(idle_fight::Column::PausedAt.is_not_null())
                    .all(self.db().conn())
                    .await?;
                Ok::<_, ServiceError>(std::sync::Mutex::new(paused.into_iter().map(|r| r.combat_id).collect()))
            })
            .await
    }

    /// A command from `player_id` in `channel_id`: if the channel's fight is paused for want
    /// of players and they are one of its players, it goes on — its turn timer is put back
    /// (due a full turn from now) — and the returning player's character is named.
    pub async fn resume_if_paused(
        &self,
        campaign_id: i64,
        channel_id: &str,
        player_id: &str,
        now: DateTimeUtc,
    ) -> Result<Option<FightResumed>, ServiceError> {
        if self
            .paused_fights()
            .await?
            .lock()
            .expect("paused fights poisoned")
            .is_empty()
        {
            return Ok(None);
        }
        let Some(combat_id) = self.store.in_channel(campaign_id, channel_id).await? else {
            return Ok(None);
        };
        if !self
            .paused_fights()
            .await?
            .lock()
            .expect("paused fights poisoned")
            .contains(&combat_id)
        {
            return Ok(None);
        }
        let live = match self.store.snapshot(combat_id).await {
            Ok(live) => live,
            Err(ServiceError::Rules(_) | ServiceError::CombatNotFound(_)) => return Ok(None),
            Err(err) => return Err(err),
        };
        let Some(returning) = live.combat.combatants.iter().find(|c| c.player_id() == Some(player_id)) else {
            return Ok(None);
        };
        let name = returning.name.clone();
        if let Some(row) = idle_fight::Entity::find_by_id(combat_id).one(self.db().conn()).await?
            && let Some(kept) = row
                .timer
                .as_deref()
                .and_then(|t| serde_json::from_str::<serde_json::Value>(t).ok())
            && let Some(id) = kept["id"].as_i64()
            && live.fight_timer == Some(id)
            && live.turn_timeout_secs > 0
        {
            // The player has a full turn from now: the wait begins again (the fight's timer
            // keeps when, for its own firing), and the timer is armed as at any wait's start.
            let mut payload = kept["payload"].clone();
            payload["resumed_at"] = serde_json::json!(now);
            let mut resumed = live.clone();
            resumed.wait_since = Some(now);
            let row = timer::ActiveModel {
                id: Set(id),
                kind: Set(kept["kind"].as_str().unwrap_or(COMBAT_TIMER).to_owned()),
                due_at: Set(crate::store::arm_at(&resumed, now)),
                payload: Set(payload),
                campaign_id: Set(kept["campaign_id"].as_i64()),
                ..Default::default()
            };
            timer::Entity::insert(row)
                .exec_without_returning(self.db().conn())
                .await?;
        }
        idle_fight::Entity::delete_by_id(combat_id)
            .exec(self.db().conn())
            .await?;
        self.paused_fights()
            .await?
            .lock()
            .expect("paused fights poisoned")
            .remove(&combat_id);
        self.store.wake.notify_one();
        Ok(Some(FightResumed { combat_id, name }))
    }
}
