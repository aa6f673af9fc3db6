//! Replay (DESIGN "Same seed + same commands ⇒ byte-identical event log"): a stored fight is
//! re-run from the state it was created with (`combat_starts`) through every command of its log
//! (`combat_events`), each by the path it first took ([`Live::replay`](crate::store::Live)), and
//! the events it gives are compared with the stored ones. Also the fight's plain referee log.

use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};
use serde_json::Value;

use crate::entity::{combat, combat_start};
use crate::repo::combats;
use crate::store::{Live, Logged};
use crate::{Db, ServiceError};

/// What replaying one fight found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Every command gave exactly the stored events.
    Identical { commands: usize, events: usize },
    /// The first difference: the log row (`seq`, 1 = the first command), the event's index in
    /// it, and both versions (JSON; `None` where one side has no event there).
    Differs {
        seq: i64,
        index: usize,
        stored: Option<String>,
        replayed: Option<String>,
        why: String,
    },
    /// The fight cannot be re-run: why (no start state stored, an unreadable row).
    NotReplayable(String),
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::Identical { commands, events } => {
                write!(f, "identical ({commands} commands, {events} events)")
            }
            Verdict::Differs {
                seq,
                index,
                stored,
                replayed,
                why,
            } => {
                let none = || "nothing".to_owned();
                write!(
                    f,
                    "DIFFERS at command {seq}, event {index}: {why}\n  stored:   {}\n  replayed: {}",
                    stored.clone().unwrap_or_else(none),
                    replayed.clone().unwrap_or_else(none)
                )
            }
            Verdict::NotReplayable(why) => write!(f, "cannot be replayed: {why}"),
        }
    }
}

/// Every stored fight's id, oldest first.
pub async fn combat_ids(db: &Db) -> Result<Vec<i64>, ServiceError> {
    Ok(combat::Entity::find()
        .select_only()
        .column(combat::Column::Id)
        .order_by_asc(combat::Column::Id)
        .into_tuple::<i64>()
        .all(db.conn())
        .await?)
}

/// Re-runs fight `combat_id` and compares its events with the stored ones.
pub async fn replay(db: &Db, combat_id: i64) -> Result<Verdict, ServiceError> {
    combats::get(db.conn(), combat_id).await?;
    let Some(start) = combat_start::Entity::find()
        .filter(combat_start::Column::CombatId.eq(combat_id))
        .one(db.conn())
        .await?
    else {
        return Ok(Verdict::NotReplayable(
            "its starting state was not stored (fought before replay was recorded)".into(),
        ));
    };
    let mut live = match Live::from_state(&start.state) {
        Ok(live) => live,
        Err(e) => return Ok(Verdict::NotReplayable(format!("its starting state is unreadable: {e}"))),
    };
    let log = combats::events(db.conn(), combat_id).await?;
    let (mut commands, mut events) = (0, 0);
    for row in log {
        let logged: Logged = match row.command() {
            Ok(logged) => logged,
            Err(e) => {
                return Ok(Verdict::NotReplayable(format!(
                    "command {} is unreadable: {e}",
                    row.seq
                )));
            }
        };
        let stored: Vec<Value> = match row.stored_events() {
            Ok(events) => events.into_iter().map(todays_form).collect(),
            Err(e) => {
                return Ok(Verdict::NotReplayable(format!(
                    "the events of command {} are unreadable: {e}",
                    row.seq
                )));
            }
        };
        let replayed = match live.replay(logged, row.created_at) {
            Ok(replayed) => replayed,
            Err(why) => {
                return Ok(Verdict::Differs {
                    seq: row.seq,
                    index: 0,
                    stored: stored.first().map(Value::to_string),
                    replayed: None,
                    why: format!("the command was refused on replay: {why}"),
                });
            }
        };
        let replayed: Vec<Value> = replayed
            .iter()
            .map(|e| serde_json::to_value(e).expect("events serialise"))
            .collect();
        for index in 0..stored.len().max(replayed.len()) {
            let (s, r) = (stored.get(index), replayed.get(index));
            if s != r {
                return Ok(Verdict::Differs {
                    seq: row.seq,
                    index,
                    stored: s.map(Value::to_string),
                    replayed: r.map(Value::to_string),
                    why: "the events differ".into(),
                });
            }
        }
        commands += 1;
        events += stored.len();
    }
    Ok(Verdict::Identical { commands, events })
}

/// A fight's plain referee log: a header with its seed, then one line per event, each command's
/// events in order (`engine::log::line`), re-run from its start so each line reads the fight as
/// it stood. `None` if the fight is not in `campaign_id`.
pub async fn referee_log(db: &Db, campaign_id: i64, combat_id: i64) -> Result<Option<String>, ServiceError> {
    let row = match combats::get(db.conn(), combat_id).await {
        Ok(row) if row.campaign_id == campaign_id => row,
        Ok(_) | Err(ServiceError::CombatNotFound(_)) => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut out = format!(
        "GogoBee referee log — combat {combat_id} · seed {} · {} · {}\n",
        row.seed as u64, row.status, row.created_at
    );
    let start = combat_start::Entity::find()
        .filter(combat_start::Column::CombatId.eq(combat_id))
        .one(db.conn())
        .await?;
    let mut live = start.and_then(|s| Live::from_state(&s.state).ok());
    // Without a start (fought before it was kept), each line reads the fight as it stands.
    let stands = match live {
        Some(_) => None,
        None => crate::store::rebuild(db.conn(), combat_id)
            .await
            .ok()
            .map(|(_, l)| l.combat),
    };
    for entry in combats::events(db.conn(), combat_id).await? {
        let events: Vec<engine::Event> = entry.events().unwrap_or_default();
        // Each line reads the fight as it stood after the command (names, sides).
        if let Some(live) = live.as_mut()
            && let Ok(logged) = entry.command::<Logged>()
        {
            let _ = live.replay(logged, entry.created_at);
        }
        let state = match &live {
            Some(live) => live.combat.clone(),
            None => stands
                .clone()
                .unwrap_or_else(|| std::sync::Arc::new(engine::Combat::new(Vec::new(), engine::Terrain::default()))),
        };
        for event in &events {
            out.push_str(&engine::log::line(&state, event));
            out.push('\n');
        }
    }
    Ok(Some(out))
}

/// A stored event as today's events are written: read and written again, so a log stored in an
/// older form (content named by the enums before ids, `"FireBolt"`) compares in today's
/// (`"firebolt"`). One that does not read as an event is compared as it is (and differs).
fn todays_form(stored: Value) -> Value {
    serde_json::from_value::<engine::Event>(stored.clone())
        .ok()
        .and_then(|event| serde_json::to_value(event).ok())
        .unwrap_or(stored)
}
