//! The campaign's turn timer (issue 5, seed 004 "a player with none chosen halts the game until
//! they commit — in Discord, the combat waits for that player's command, with the campaign's
//! turn timer").
//!
//! While a fight waits on a player — their turn under `gogobee`, `tdgs` and `ctb`, the timeline
//! halted for their choice under `ticks` — a [`TURN_TIMEOUT`] timer is due `turn_timeout_secs`
//! after the wait began: the timer bounds the turn, not the pause between two commands, so the
//! player's own commands within the turn (an attack, then a move) leave it as it is. A command
//! that ends the wait (the turn passes, a reaction window opens, the player commits under
//! `ticks`) retires it, and the next wait gets a fresh one. When it fires and the combat still
//! waits on that player in that turn, the turn ends as if they had sent `/endturn` (under
//! `ticks`, `EndTurn` is "wait a tick", the cheapest thing to commit), written like any command.
//!
//! An abandoned fight pauses (issue 16): the turns each player let run out in a row are counted
//! (`idle_fights`, valid while no player's command has moved the fight on: a timer's command
//! carries the count to the version it writes). When every player who could act has let
//! [`IDLE_TURNS`] run out, the timer that would end the third does not: the fight stops there —
//! nobody acts, dies or pays — its turn timer taken out, until a player in it sends any command
//! in its channel ([`Service::resume_if_paused`]), which puts the timer back.

use std::collections::{BTreeMap, HashSet};

use chrono::Duration;
use engine::{Actor, Combat, CombatantId, Command};
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};

use crate::entity::{idle_fight, timer};
use crate::scheduler::Fired;
use crate::store::{Live, TURN_TIMEOUT};
use crate::{CombatUpdate, DateTimeUtc, Service, ServiceError};

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

/// A fight that paused because nobody played: its channel and the players it waits for.
#[derive(Debug, Clone)]
pub struct FightPaused {
    pub combat_id: i64,
    pub channel_id: String,
    /// The characters of the players who let their turns run out.
    pub names: Vec<String>,
}

/// A paused fight picked up again by a player's command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FightResumed {
    pub combat_id: i64,
    /// The returning player's character.
    pub name: String,
}

/// The player whose command the fight waits for: none while a reaction window is open (its own
/// timer runs), before the start or after the end.
pub fn awaited(combat: &Combat) -> Option<CombatantId> {
    if combat.window.is_some() || !combat.queue.is_empty() {
        return None;
    }
    let id = match combat.ruleset {
        engine::Ruleset::Ticks => combat.model.timeline.awaiting.filter(|_| combat.outcome.is_none())?,
        _ => combat.current()?,
    };
    combat.get(id).player_id().is_some().then_some(id)
}

/// One wait on a player: who, and which turn (round and place in the order; the charge race's
/// tick; the timeline's position). Two states with the same key are the same wait.
/// Who the fight waits on, and where in it (see [`wait_key`]).
pub(crate) type WaitKey = (CombatantId, u32, usize, u64, usize);

pub(crate) fn wait_key(combat: &Combat) -> Option<WaitKey> {
    let id = awaited(combat)?;
    Some((
        id,
        combat.round,
        combat.turn,
        combat.model.tick,
        combat.model.timeline.cursor,
    ))
}

/// The turn timer for the player `after` waits on, if the campaign's timer is on.
pub(crate) fn timer_row(after: &Live, now: DateTimeUtc) -> Option<timer::ActiveModel> {
    if after.turn_timeout_secs <= 0 {
        return None;
    }
    let id = awaited(&after.combat)?;
    let player = after.combat.get(id);
    Some(timer::ActiveModel {
        kind: Set(TURN_TIMEOUT.to_owned()),
        campaign_id: Set(Some(after.campaign_id)),
        due_at: Set(now + Duration::seconds(after.turn_timeout_secs)),
        payload: Set(serde_json::json!({
            "combat_id": after.id,
            "version": after.version,
            "combatant": id.0,
            "name": player.name,
            "player_id": player.player_id(),
        })),
        ..Default::default()
    })
}

/// A turn that ran out: who, and what ending it did.
#[derive(Debug, Clone)]
pub struct TurnTimedOut {
    /// The player's character.
    pub name: String,
    pub update: CombatUpdate,
}

impl Service {
    /// Ends the turn a due turn timer belongs to, if the combat still waits on that player
    /// under that timer (else the turn ended meanwhile, or the fight is over: the timer is moot,
    /// deleted, and nothing happens).
    pub(crate) async fn time_out_turn(
        &self,
        t: &timer::Model,
        now: DateTimeUtc,
    ) -> Result<Option<Fired>, ServiceError> {
        let field = |key: &str| t.payload.get(key).and_then(serde_json::Value::as_i64);
        let (Some(combat_id), Some(index)) = (field("combat_id"), field("combatant")) else {
            timer::Entity::delete_by_id(t.id).exec(self.db().conn()).await?;
            return Ok(None);
        };
        let id = CombatantId(u32::try_from(index).unwrap_or(u32::MAX));
        let idle = idle_fight::Entity::find_by_id(combat_id).one(self.db().conn()).await?;
        let mut counted = Timeouts::new();
        let mut pause: Option<(i64, String, Vec<String>)> = None;
        let result = self
            .store
            .run(combat_id, now, |live| {
                if live.turn_timer != Some(t.id) || awaited(&live.combat) != Some(id) {
                    return Err(ServiceError::StaleButton);
                }
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
                crate::cmd::combat::engine_step(live, Actor::Combatant(id), Command::EndTurn, now)
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
        match result {
            Ok(written) => {
                self.count_idle(combat_id, written.live.version, &counted, None, None)
                    .await?;
                let name = written.live.combat.get(id).name.clone();
                let update = Self::update(written.live, written.events, written.extra.1);
                Ok(Some(Fired::TurnTimedOut(Box::new(TurnTimedOut { name, update }))))
            }
            // Acted in the meantime, or the fight is over: the timer is moot.
            Err(ServiceError::StaleButton | ServiceError::CombatNotFound(_)) => {
                timer::Entity::delete_by_id(t.id).exec(self.db().conn()).await?;
                Ok(None)
            }
            // The engine refused to end the turn: the timer is spent but stays the combat's
            // (its next command retires the row), so it is marked fired, not deleted.
            Err(ServiceError::Rules(_)) => {
                timer::Entity::update_many()
                    .col_expr(timer::Column::FiredAt, Expr::value(now))
                    .filter(timer::Column::Id.eq(t.id))
                    .exec(self.db().conn())
                    .await?;
                Ok(None)
            }
            Err(err) => Err(err),
        }
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
            && live.turn_timer == Some(id)
            && live.turn_timeout_secs > 0
        {
            let row = timer::ActiveModel {
                id: Set(id),
                kind: Set(kept["kind"].as_str().unwrap_or(TURN_TIMEOUT).to_owned()),
                due_at: Set(now + Duration::seconds(live.turn_timeout_secs)),
                payload: Set(kept["payload"].clone()),
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
