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

use chrono::Duration;
use engine::{Actor, Combat, CombatantId, Command};
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};

use crate::entity::timer;
use crate::store::{Live, TURN_TIMEOUT};
use crate::{CombatUpdate, DateTimeUtc, Service, ServiceError};

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
pub(crate) fn wait_key(combat: &Combat) -> Option<(CombatantId, u32, usize, u64, usize)> {
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
    ) -> Result<Option<TurnTimedOut>, ServiceError> {
        let field = |key: &str| t.payload.get(key).and_then(serde_json::Value::as_i64);
        let (Some(combat_id), Some(index)) = (field("combat_id"), field("combatant")) else {
            timer::Entity::delete_by_id(t.id).exec(self.db().conn()).await?;
            return Ok(None);
        };
        let id = CombatantId(u32::try_from(index).unwrap_or(u32::MAX));
        let result = self
            .store
            .run(combat_id, now, |live| {
                if live.turn_timer != Some(t.id) || awaited(&live.combat) != Some(id) {
                    return Err(ServiceError::StaleButton);
                }
                crate::cmd::combat::engine_step(live, Actor::Combatant(id), Command::EndTurn, now)
            })
            .await;
        match result {
            Ok(written) => {
                let name = written.live.combat.get(id).name.clone();
                let update = Self::update(written.live, written.events, written.extra.1);
                Ok(Some(TurnTimedOut { name, update }))
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
