//! Active combats in memory, one writer each, and the one transaction that persists a command.
//!
//! A command on a combat locks that combat's slot (a `tokio::sync::Mutex`, so commands on
//! one combat queue while other combats run), applies itself to the cached state, and writes
//! what happened in ONE transaction: its `combat_events` row (the command, its events, the open
//! window's token and the fight's timer after it), whose key `(combat_id, seq = version read +
//! 1)` is the version guard (inserted or not at all), new `combatants` rows, and the fight's
//! timer when it is set or retired ([`Live::fight_timer`]: once a fight, not a window or a turn).
//! The fight's whole state is written only every [`SNAPSHOT_EVERY`] commands, at a death and when
//! it ends, as its snapshot (`combat_snapshots`, in the same transaction), and with it the combat
//! row (version, timers, status) and the denormalised `turn_resources`, `readied_actions` and
//! `death_save_states` rows, which so always hold what the latest snapshot holds (a
//! command between snapshots writes its log entry, nothing else). [`load`] rebuilds a fight from
//! its latest snapshot and re-applies the commands logged after it through the engine
//! ([`Live::replay`], deterministic: same state + same commands ⇒ same state); the last entry is
//! its version. Another process that wrote first makes the save fail as
//! [`ServiceError::StaleCombat`]: the slot is reloaded from the database and the command retried
//! on the fresh state.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use chrono::Duration;
use engine::combatant::Combatant;
use engine::event::Outcome;
use engine::{Actor, Combat, Command, Dice, DicePosition, Event};
use sea_orm::sea_query::{
    DeleteStatement, InsertStatement, OnConflict, PostgresQueryBuilder, Query, QueryStatementWriter,
    SqliteQueryBuilder, UpdateStatement, Value, inject_parameters,
};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseTransaction, DbBackend, EntityTrait, QueryFilter,
    QueryOrder,
};
use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;

use crate::db::GroupCommit;
use crate::entity::{
    combat, combat_event, combat_snapshot, combatant, death_save_state, readied_action, timer, turn_resources,
};
use crate::writer::{GroupCommitCounts, GroupWrite, Prepared, Statements};
use crate::{DateTimeUtc, Db, ServiceError};

/// Attempts at a command whose save met a newer version written elsewhere.
const MAX_ATTEMPTS: usize = 4;

/// The `timers.kind` of a fight's timer ([`Live::fight_timer`]): the open reaction window's
/// timeout and the turn timer, one row a fight.
pub const COMBAT_TIMER: &str = "combat_timer";

/// The `timers.kind` of a reaction window's timeout in fights stored before the fight's one timer (`m20261210_000013`), a row a
/// window, its id the window's token.
pub const REACTION_TIMEOUT: &str = "reaction_timeout";

/// The `timers.kind` of a turn timer in fights stored before the fight's one timer (`m20261210_000013`), a row a wait: fired
/// as [`COMBAT_TIMER`], whose role it held.
pub const TURN_TIMEOUT: &str = "turn_timeout";

/// A fight's state is written whole (its snapshot) every this many commands, and when it ends;
/// the commands between are only logged. Loading a fight re-applies at most this many minus one
/// (a few microseconds each). 64 (32 and 16 in earlier builds): a snapshot,
/// with the combat row and the denormalised rows it brings, was ≈ 0.4 of a command's ≈ 4 pages
/// over 16 commands; over 32 it was still ≈ 200 bytes of WAL a command (4.08 KB a command
/// with one fight, 3.88 KB every 64: BENCHMARKS.md).
pub const SNAPSHOT_EVERY: i64 = 64;

/// What a snapshot (`combat_snapshots.state`, `combat_starts.state`) holds. The timers' ids in
/// it are those of the snapshot's version; the combat row holds the current ones.
#[derive(Serialize, Deserialize)]
pub(crate) struct StoredState {
    pub combat: Combat,
    pub dice: DicePosition,
    /// The open reaction window's token ([`Live::window_token`]).
    pub reaction_timer: Option<i64>,
    /// The fight's timer ([`Live::fight_timer`]).
    #[serde(default)]
    pub turn_timer: Option<i64>,
    /// When the wait on a player began ([`Live::wait_since`]); absent from snapshots written
    /// before the fight's one timer (`m20261210_000013`), as is `window_since`.
    #[serde(default)]
    pub wait_since: Option<DateTimeUtc>,
    /// When the open reaction window opened ([`Live::window_since`]).
    #[serde(default)]
    pub window_since: Option<DateTimeUtc>,
}

/// [`StoredState`] as written, borrowing the fight.
#[derive(Serialize)]
struct StoredStateRef<'a> {
    combat: &'a Combat,
    dice: DicePosition,
    reaction_timer: Option<i64>,
    turn_timer: Option<i64>,
    wait_since: Option<DateTimeUtc>,
    window_since: Option<DateTimeUtc>,
}

/// A combat as the service holds it between commands.
#[derive(Clone, Debug)]
pub(crate) struct Live {
    pub id: i64,
    pub campaign_id: i64,
    pub channel_id: String,
    pub expedition_id: Option<i64>,
    pub reaction_timeout_secs: i64,
    /// The campaign's turn timeout (`0`: off).
    pub turn_timeout_secs: i64,
    pub version: i64,
    /// Shared with the answers already given (their [`crate::CombatUpdate`]s): a command writes
    /// through [`Arc::make_mut`], which copies only while an answer still holds the fight.
    pub combat: Arc<Combat>,
    pub dice: Dice,
    /// The open reaction window's token, on its buttons: an id of `timers`' sequence that no
    /// row has (in fights stored before the fight's one timer (`m20261210_000013`), the id of the window's own timeout row).
    pub window_token: Option<i64>,
    /// When the open reaction window opened (`None`: no window, or one opened before the fight's one timer (`m20261210_000013`),
    /// which has a timeout row of its own).
    pub window_since: Option<DateTimeUtc>,
    /// The fight's timer ([`COMBAT_TIMER`]): one row from the fight's first window or wait on
    /// a player to its end, not one a window and one a wait — windows open and turns pass
    /// without writing it (those rows would be two of a command's ≈ five WAL pages).
    /// It is due no later than the earliest deadline: the open window's end
    /// ([`Live::window_since`] plus the reaction timeout) and the wait's ([`Live::wait_since`]
    /// plus the turn timeout). Each time it is armed it is due at most the shorter timeout on
    /// ([`arm_at`]), so a window or wait that begins later also ends later. When it fires early,
    /// nothing happens but its arming again (see [`crate::cmd::turn_timer`]).
    pub fight_timer: Option<i64>,
    /// When the wait on the player the fight waits for began (`None`: it waits on no one, or
    /// the wait began before the fight's one timer (`m20261210_000013`), when a turn timer was due at the wait's end).
    pub wait_since: Option<DateTimeUtc>,
    /// The character behind each combatant, by combatant index (`None` for monsters).
    pub characters: Vec<Option<i64>>,
    /// Engine commands applied to this copy so far (not stored): a refused service command
    /// that applied some is forgotten rather than kept half-done.
    pub applied: u64,
    /// The fight's `readied_actions` rows as stored (counted when it is loaded, set with each
    /// snapshot): a snapshot's write replaces them all and counts the rows it deletes.
    pub readied_rows: u64,
}

/// What a command's write compares the fight against: the version it read, its timers, its
/// window and wait, and how many combatants it had — taken before the command instead of a
/// copy of the fight.
#[derive(Clone, Debug)]
pub(crate) struct Before {
    pub id: i64,
    pub version: i64,
    pub fight_timer: Option<i64>,
    status: &'static str,
    window: Option<engine::reactions::ReactionWindow>,
    wait: Option<crate::cmd::turn_timer::WaitKey>,
    combatants: usize,
    readied_rows: u64,
}

impl Before {
    pub fn of(live: &Live) -> Self {
        Self {
            id: live.id,
            version: live.version,
            fight_timer: live.fight_timer,
            status: live.status(),
            window: live.combat.window.clone(),
            wait: crate::cmd::turn_timer::wait_key(&live.combat),
            combatants: live.combat.combatants.len(),
            readied_rows: live.readied_rows,
        }
    }
}

impl Live {
    /// Applies an engine command, keeping `self` untouched on refusal. `now` counts to the
    /// microsecond, as the log's `created_at` keeps it ([`to_micros`]), so a fight rebuilt from
    /// its log comes out exactly as it was applied.
    pub fn apply(&mut self, actor: Actor, command: Command, now: DateTimeUtc) -> Result<Vec<Event>, ServiceError> {
        let now = to_micros(now);
        let events = engine::apply(Arc::make_mut(&mut self.combat), actor, command, &mut self.dice, now)?;
        self.applied += 1;
        Ok(events)
    }

    /// Adds a combatant (a late joiner or a spawned monster) through the engine's `Join`, which
    /// places it by the fight's timing model; returns its id and the events.
    pub fn join(
        &mut self,
        c: Combatant,
        character_id: Option<i64>,
        now: DateTimeUtc,
    ) -> Result<(engine::CombatantId, Vec<Event>), ServiceError> {
        let id = engine::CombatantId(self.combat.combatants.len() as u32);
        let events = self.apply(Actor::Director, Command::Join { combatant: Box::new(c) }, now)?;
        self.characters.push(character_id);
        Ok((id, events))
    }

    /// How a combatant joined before joins were engine commands (logs of that time hold `Join`
    /// and `Spawn` entries): the same placement and the same initiative roll, so their replay comes
    /// out as it did. Returns the roll.
    pub fn legacy_add_combatant(&mut self, mut c: Combatant, character_id: Option<i64>) -> Option<u32> {
        let combat = Arc::make_mut(&mut self.combat);
        let id = engine::CombatantId(combat.combatants.len() as u32);
        c.id = id;
        let far = |x: &Combatant| {
            x.stat_block().is_some()
                && matches!(
                    x.behaviour(),
                    Some(engine::content::Behaviour::Ranged | engine::content::Behaviour::Caster)
                )
        };
        let opponents: Vec<(engine::CombatantId, bool)> = combat
            .combatants
            .iter()
            .filter(|o| o.side != c.side)
            .map(|o| (o.id, far(o)))
            .collect();
        let mut roll = None;
        if combat.started {
            let d20 = self.dice.die(20);
            c.initiative = d20 as i32 + c.modifier(engine::content::Ability::Dex);
            roll = Some(d20);
        }
        let joiner_far = far(&c);
        let initiative = c.initiative;
        combat.combatants.push(c);
        for (other, other_far) in opponents {
            let band = if joiner_far || other_far {
                engine::Band::Far
            } else {
                engine::Band::Near
            };
            combat.set_band(id, other, band);
        }
        if combat.started {
            let at = combat
                .order
                .iter()
                .position(|o| combat.get(*o).initiative < initiative)
                .unwrap_or(combat.order.len());
            combat.order.insert(at, id);
            if at <= combat.turn {
                combat.turn += 1;
            }
        }
        self.characters.push(character_id);
        roll
    }

    /// Re-runs a logged command on this fight (replay), through the calls the service made
    /// when it was first applied: `apply` for an engine command (a join included) or a sequence
    /// of them, [`Live::legacy_add_combatant`] for the `Join` and `Spawn` entries of older logs,
    /// the close of a fight that never began. Returns the events it gives; a join's or spawn's initiative
    /// roll that comes out otherwise than the stored one is an error.
    pub fn replay(&mut self, logged: Logged, now: DateTimeUtc) -> Result<Vec<Event>, String> {
        match logged {
            Logged::Engine { actor, command } => self.apply(actor, command, now).map_err(|e| e.to_string()),
            Logged::Sequence { commands } => {
                let mut events = Vec::new();
                for (actor, command) in commands {
                    events.extend(self.apply(actor, command, now).map_err(|e| e.to_string())?);
                }
                Ok(events)
            }
            Logged::Join {
                combatant,
                character_id,
                initiative_roll,
            } => {
                let roll = self.legacy_add_combatant(*combatant, character_id);
                if roll == initiative_roll {
                    Ok(Vec::new())
                } else {
                    Err(format!(
                        "the joiner's initiative roll came out {roll:?}, stored {initiative_roll:?}"
                    ))
                }
            }
            Logged::Spawn {
                combatants,
                initiative_rolls,
            } => {
                for (c, stored) in combatants.into_iter().zip(initiative_rolls) {
                    let roll = self.legacy_add_combatant(c, None);
                    if roll != stored {
                        return Err(format!(
                            "a spawned monster's initiative roll came out {roll:?}, stored {stored:?}"
                        ));
                    }
                }
                Ok(Vec::new())
            }
            Logged::Close => {
                Arc::make_mut(&mut self.combat).outcome = Some(engine::Outcome::Halted);
                Ok(vec![Event::CombatEnded {
                    outcome: engine::Outcome::Halted,
                    xp: 0,
                }])
            }
        }
    }

    /// Notes when the open reaction window opened and when the wait on a player began, after a
    /// command at `now` that found the fight with `window` open, waiting as `wait`
    /// ([`crate::cmd::turn_timer::wait_key`]).
    pub fn track(
        &mut self,
        window: Option<&engine::reactions::ReactionWindow>,
        wait: Option<crate::cmd::turn_timer::WaitKey>,
        now: DateTimeUtc,
    ) {
        if self.combat.window.as_ref() != window {
            self.window_since = self.combat.window.as_ref().map(|_| to_micros(now));
        }
        let after = crate::cmd::turn_timer::wait_key(&self.combat);
        if after != wait {
            self.wait_since = after.map(|_| to_micros(now));
        }
    }

    /// A fight as stored in `combats.state` (or `combat_starts.state`), for replay.
    pub fn from_state(state: &str) -> Result<Self, String> {
        let stored: StoredState = serde_json::from_str(state).map_err(|e| e.to_string())?;
        let characters = vec![None; stored.combat.combatants.len()];
        Ok(Self {
            id: 0,
            campaign_id: 0,
            channel_id: String::new(),
            expedition_id: None,
            reaction_timeout_secs: 0,
            turn_timeout_secs: 0,
            version: 0,
            combat: Arc::new(stored.combat),
            dice: Dice::at(stored.dice),
            window_token: stored.reaction_timer,
            window_since: stored.window_since,
            fight_timer: stored.turn_timer,
            wait_since: stored.wait_since,
            characters,
            applied: 0,
            readied_rows: 0,
        })
    }

    /// The combatants holding a readied action (each a `readied_actions` row once written).
    fn readied_count(&self) -> u64 {
        self.combat.combatants.iter().filter(|c| c.readied.is_some()).count() as u64
    }

    fn stored(&self) -> StoredStateRef<'_> {
        StoredStateRef {
            combat: &self.combat,
            dice: self.dice.position(),
            reaction_timer: self.window_token,
            turn_timer: self.fight_timer,
            wait_since: self.wait_since,
            window_since: self.window_since,
        }
    }

    pub fn status(&self) -> &'static str {
        status_of(self.combat.outcome)
    }
}

/// The `combats.status` for an outcome.
pub fn status_of(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        None => crate::repo::combats::ACTIVE,
        Some(Outcome::Victory) => "victory",
        Some(Outcome::Defeat) => "defeat",
        Some(Outcome::Halted) => "ended",
    }
}

/// What a command did, for the log: the command as applied and the engine's events.
pub(crate) struct Applied<T> {
    pub logged: Logged,
    pub events: Vec<Event>,
    pub extra: T,
}

/// A command as the combat log stores it: an engine command, several applied in order as one
/// (a spawn of several monsters: one `Join` each), or one the service performs itself.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum Logged {
    Engine {
        actor: Actor,
        command: Command,
    },
    Sequence {
        commands: Vec<(Actor, Command)>,
    },
    /// The GM closed a fight that never began.
    Close,
    /// Written before joins were engine commands: the service added the combatant itself.
    /// Read only, by replay.
    Join {
        combatant: Box<Combatant>,
        character_id: Option<i64>,
        initiative_roll: Option<u32>,
    },
    /// Written before joins were engine commands (see `Join`). Read only, by replay.
    Spawn {
        combatants: Vec<Combatant>,
        initiative_rolls: Vec<Option<u32>>,
    },
}

type Slot = Arc<tokio::sync::Mutex<Option<Live>>>;

/// The cache of active combats, and which combat is active in which channel.
#[derive(Default)]
pub(crate) struct Cache {
    combats: Mutex<HashMap<i64, Slot>>,
    channels: Mutex<HashMap<(i64, String), i64>>,
}

impl Cache {
    fn slot(&self, combat_id: i64) -> Slot {
        self.combats
            .lock()
            .expect("combat cache poisoned")
            .entry(combat_id)
            .or_default()
            .clone()
    }

    fn forget(&self, combat_id: i64, campaign_id: i64, channel_id: &str) {
        self.combats.lock().expect("combat cache poisoned").remove(&combat_id);
        let mut channels = self.channels.lock().expect("channel cache poisoned");
        if channels.get(&(campaign_id, channel_id.to_owned())) == Some(&combat_id) {
            channels.remove(&(campaign_id, channel_id.to_owned()));
        }
    }

    pub fn channel(&self, campaign_id: i64, channel_id: &str) -> Option<i64> {
        self.channels
            .lock()
            .expect("channel cache poisoned")
            .get(&(campaign_id, channel_id.to_owned()))
            .copied()
    }

    pub fn unset_channel(&self, campaign_id: i64, channel_id: &str) {
        self.channels
            .lock()
            .expect("channel cache poisoned")
            .remove(&(campaign_id, channel_id.to_owned()));
    }

    pub fn set_channel(&self, campaign_id: i64, channel_id: &str, combat_id: i64) {
        self.channels
            .lock()
            .expect("channel cache poisoned")
            .insert((campaign_id, channel_id.to_owned()), combat_id);
    }
}

/// Tries at reading a fight's row, snapshot and log consistently while other processes write it.
const LOAD_ATTEMPTS: usize = 8;

/// A fight's state as of its row's version: its latest snapshot at or before that version, and
/// the commands logged after it re-applied ([`Live::replay`]). Returns the row (read first:
/// its version and timers' ids are those of the state) and the state, its `characters` empty.
///
/// No transaction: log rows never change once written, and a snapshot newer than the row
/// (another process wrote in between) makes it read again.
pub(crate) async fn rebuild<R: crate::access::Access>(
    db: &R,
    combat_id: i64,
) -> Result<(combat::Model, Live), ServiceError> {
    let unreadable = |what: String| ServiceError::InvalidInput(format!("combat {combat_id} has {what}"));
    for _ in 0..LOAD_ATTEMPTS {
        let row = crate::repo::combats::get(db, combat_id).await?;
        let Some(snapshot) = crate::access::one(db, combat_snapshot::Entity::find_by_id(combat_id)).await? else {
            return Err(unreadable("no stored state (compacted, or never written)".into()));
        };
        if snapshot.version > row.version {
            continue;
        }
        let mut live =
            Live::from_state(&snapshot.state).map_err(|err| unreadable(format!("an unreadable state: {err}")))?;
        // Every entry after the snapshot: the log, not the row, holds the fight's version.
        let after = combat_event::Entity::find()
            .filter(combat_event::Column::CombatId.eq(combat_id))
            .filter(combat_event::Column::Seq.gt(snapshot.version))
            .order_by_asc(combat_event::Column::Seq);
        let log = crate::access::all(db, after).await?;
        let version = snapshot.version + log.len() as i64;
        if version < row.version
            || log
                .iter()
                .zip(snapshot.version + 1..)
                .any(|(entry, seq)| entry.seq != seq)
        {
            return Err(unreadable(format!(
                "a gap in its log between its snapshot (version {}) and version {}",
                snapshot.version,
                row.version.max(version)
            )));
        }
        // The timers pending at that version: the last entry's, where it is newer than the row
        // (which holds them as of its own version, the latest snapshot's).
        let timers = match log.last() {
            Some(last) if last.seq > row.version => (last.reaction_timer_id, last.turn_timer_id),
            _ => (row.reaction_timer_id, row.turn_timer_id),
        };
        for entry in log {
            let logged: Logged = entry
                .command()
                .map_err(|err| unreadable(format!("an unreadable command {}: {err}", entry.seq)))?;
            let (window, wait) = (
                live.combat.window.clone(),
                crate::cmd::turn_timer::wait_key(&live.combat),
            );
            live.replay(logged, entry.created_at)
                .map_err(|err| unreadable(format!("a command {} that no longer applies: {err}", entry.seq)))?;
            live.track(window.as_ref(), wait, entry.created_at);
        }
        live.id = row.id;
        live.campaign_id = row.campaign_id;
        live.channel_id.clone_from(&row.channel_id);
        live.expedition_id = row.expedition_id;
        live.version = version;
        (live.window_token, live.fight_timer) = timers;
        live.characters.clear();
        return Ok((row, live));
    }
    Err(ServiceError::InvalidInput(format!(
        "combat {combat_id} kept changing while it was read; try again"
    )))
}

/// Loads a combat from the database (see [`rebuild`]).
pub(crate) async fn load<R: crate::access::Access>(db: &R, combat_id: i64) -> Result<Live, ServiceError> {
    let (row, mut live) = rebuild(db, combat_id).await?;
    let campaign = crate::repo::campaigns::get(db, row.campaign_id).await?;
    let members = combatant::Entity::find()
        .filter(combatant::Column::CombatId.eq(combat_id))
        .order_by_asc(combatant::Column::CombatantIndex);
    let members = crate::access::all(db, members).await?;
    let mut characters = vec![None; live.combat.combatants.len()];
    for m in members {
        if let Some(slot) = characters.get_mut(m.combatant_index as usize) {
            *slot = m.character_id;
        }
    }
    live.characters = characters;
    let readied = readied_action::Entity::find().filter(readied_action::Column::CombatId.eq(combat_id));
    live.readied_rows = crate::access::count(db, readied).await?;
    live.reaction_timeout_secs = i64::from(campaign.reaction_timeout_secs);
    live.turn_timeout_secs = crate::repo::campaigns::turn_timeout_secs(&campaign);
    Ok(live)
}

/// A new combat row (version 0) with its combatants and their turn-resource rows; the
/// caller's transaction commits it.
pub(crate) async fn create(
    txn: &DatabaseTransaction,
    live: &mut Live,
    seed: i64,
    now: DateTimeUtc,
) -> Result<(), ServiceError> {
    let backend = txn.get_database_backend();
    let (sql, values) = combat_row(backend, live, seed, now);
    let inserted = match txn
        .query_one_raw(sea_orm::Statement::from_sql_and_values(backend, sql, values))
        .await
    {
        Ok(row) => row.ok_or_else(|| ServiceError::InvalidInput("the new fight's row came back empty".into()))?,
        Err(err) if is_unique_violation(&err) => return Err(ServiceError::CombatInChannel),
        Err(err) => return Err(err.into()),
    };
    live.id = inserted.try_get::<i64>("", sea_orm::IdenStatic::as_str(&combat::Column::Id))?;
    live.version = 0;
    let batch = first_rows(backend, live, now);
    let done = txn.execute_unprepared(&batch.inline()).await?;
    if done.rows_affected() != batch.expected {
        return Err(ServiceError::InvalidInput("combat rows were not all written".into()));
    }
    live.readied_rows = live.readied_count();
    Ok(())
}

/// [`create`] in a transaction of its own on a SQLite file's group commit connection
/// ([`crate::writer::Writer::alone`]), on the caller's task: the fight's row and its first rows
/// without a round trip to sqlx's thread for each statement, its `BEGIN` and `COMMIT`.
pub(crate) async fn create_alone(
    writer: &crate::writer::Writer,
    live: &mut Live,
    seed: i64,
    now: DateTimeUtc,
) -> Result<(), ServiceError> {
    let (sql, values) = combat_row(DbBackend::Sqlite, live, seed, now);
    writer
        .alone(|conn| {
            let bound = values.0.iter().map(crate::writer::Bound);
            let id = match conn
                .prepare_cached(&sql)
                .and_then(|mut insert| insert.query_row(rusqlite::params_from_iter(bound), |row| row.get(0)))
            {
                Ok(id) => id,
                Err(err) if crate::writer::is_unique_violation(&err) => return Err(ServiceError::CombatInChannel),
                Err(err) => return Err(crate::writer::database_error(&err)),
            };
            live.id = id;
            live.version = 0;
            let batch = first_rows(DbBackend::Sqlite, live, now);
            let mut done = 0;
            for (sql, values) in &batch.statements {
                done += crate::writer::execute(conn, sql, values).map_err(|err| crate::writer::database_error(&err))?;
            }
            if done as u64 != batch.expected {
                return Err(ServiceError::InvalidInput("combat rows were not all written".into()));
            }
            Ok(())
        })
        .await?;
    live.readied_rows = live.readied_count();
    Ok(())
}

/// A new fight's row, at version 0 and active, returning its id.
fn combat_row(backend: DbBackend, live: &Live, seed: i64, now: DateTimeUtc) -> Prepared {
    use combat::Column as C;
    let mut insert = Query::insert();
    insert
        .into_table(combat::Entity)
        .columns([
            C::CampaignId,
            C::ChannelId,
            C::ExpeditionId,
            C::Status,
            C::Seed,
            C::InitialState,
            C::State,
            C::Version,
            C::CreatedAt,
            C::UpdatedAt,
        ])
        .values_panic([
            live.campaign_id.into(),
            live.channel_id.clone().into(),
            live.expedition_id.into(),
            crate::repo::combats::ACTIVE.into(),
            seed.into(),
            Option::<String>::None.into(),
            String::new().into(),
            0i64.into(),
            now.into(),
            now.into(),
        ])
        .returning_col(C::Id);
    match backend {
        DbBackend::Postgres => insert.build(PostgresQueryBuilder),
        _ => insert.build(SqliteQueryBuilder),
    }
}

/// What a new fight writes once its row has its id: the fight as it begins (for replay), its
/// first snapshot, and its combatants' rows.
fn first_rows(backend: DbBackend, live: &Live, now: DateTimeUtc) -> Batch {
    let state = serde_json::to_string(&live.stored()).expect("combat state serialises");
    let mut batch = Batch::new(backend);
    // The fight as it begins, for replay (`crate::replay`): the log holds what follows.
    batch.push(
        Query::insert()
            .into_table(crate::entity::combat_start::Entity)
            .columns([
                crate::entity::combat_start::Column::CombatId,
                crate::entity::combat_start::Column::State,
            ])
            .values_panic([live.id.into(), state.clone().into()]),
        1,
    );
    // Its first snapshot: version 0, what the first command applies to.
    batch.push_snapshot(live, state);
    let empty = Before {
        combatants: 0,
        ..Before::of(live)
    };
    batch.rows(&empty, live, true, now)
}

/// Whether `err` is a unique or primary key violation: sqlx's, or one of this process's own
/// SQLite connections' ([`crate::writer::database_error`]).
pub(crate) fn is_unique_violation(err: &sea_orm::DbErr) -> bool {
    matches!(err.sql_err(), Some(sea_orm::SqlErr::UniqueConstraintViolation(_)))
        || matches!(err, sea_orm::DbErr::Custom(said) if said.starts_with(crate::writer::UNIQUE_VIOLATION))
}

/// The statements of one command's write, rendered for one backend, and how many rows they
/// must touch between them.
struct Batch {
    backend: DbBackend,
    /// Each statement with its values, bound parameters in the backend's dialect (the group
    /// commit prepares each distinct statement once; a transaction of its own inlines them).
    statements: Vec<Prepared>,
    expected: u64,
}

/// A time as the log stores it: to the microsecond ([`to_micros`]), so PostgreSQL keeps it exactly.
fn ts(now: DateTimeUtc) -> String {
    to_micros(now).to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
}

/// A time as a bound value: text on SQLite ([`ts`], as sqlx writes it there), a `timestamptz`
/// on PostgreSQL (a text parameter would not convert).
fn at(backend: DbBackend, now: DateTimeUtc) -> sea_orm::sea_query::Value {
    match backend {
        DbBackend::Postgres => to_micros(now).into(),
        _ => ts(now).into(),
    }
}

/// `now` to the microsecond (truncated), as PostgreSQL's `timestamptz` keeps it (it would round
/// a finer time), and as [`Live::apply`] hands it to the engine.
fn to_micros(now: DateTimeUtc) -> DateTimeUtc {
    use chrono::SubsecRound;
    now.trunc_subsecs(6)
}

impl Batch {
    fn new(backend: DbBackend) -> Self {
        Self {
            backend,
            statements: Vec::new(),
            expected: 0,
        }
    }

    fn push(&mut self, statement: &impl QueryStatementWriter, rows: u64) {
        let built = match self.backend {
            DbBackend::Postgres => statement.build(PostgresQueryBuilder),
            _ => statement.build(SqliteQueryBuilder),
        };
        self.statements.push(built);
        self.expected += rows;
    }

    /// Pushes a statement of a fixed shape: its SQL text rendered once ([`Rendered`]), `values`
    /// bound to it.
    fn push_rendered<S: QueryStatementWriter>(
        &mut self,
        sql: &'static Rendered,
        values: Vec<Value>,
        rows: u64,
        statement: impl FnOnce(Vec<Value>) -> S,
    ) {
        let text = sql.text(self.backend, || statement(values.clone()));
        self.statements
            .push((text.to_owned(), sea_orm::sea_query::Values(values)));
        self.expected += rows;
    }

    /// The fight's snapshot, `state` at `live`'s version, in place of the one before.
    fn push_snapshot(&mut self, live: &Live, state: String) {
        let mut upsert = Query::insert();
        upsert
            .into_table(combat_snapshot::Entity)
            .columns([
                combat_snapshot::Column::CombatId,
                combat_snapshot::Column::Version,
                combat_snapshot::Column::State,
            ])
            .values_panic([live.id.into(), live.version.into(), state.into()])
            .on_conflict(
                OnConflict::column(combat_snapshot::Column::CombatId)
                    .update_columns([combat_snapshot::Column::Version, combat_snapshot::Column::State])
                    .to_owned(),
            );
        self.push(&upsert, 1);
    }

    /// The statements as one text with their values inlined, for one `execute_unprepared`.
    fn inline(&self) -> String {
        self.inline_from(0)
    }

    /// [`Batch::inline`] of the statements from the `first` on.
    fn inline_from(&self, first: usize) -> String {
        let texts: Vec<String> = self.statements[first..]
            .iter()
            .map(|(sql, values)| {
                if values.0.is_empty() {
                    sql.clone()
                } else if self.backend == DbBackend::Postgres {
                    inject_parameters(sql, &values.0, &PostgresQueryBuilder)
                } else {
                    inject_parameters(sql, &values.0, &SqliteQueryBuilder)
                }
            })
            .collect();
        texts.join(";\n")
    }

    fn into_statements(self) -> Statements {
        Statements {
            statements: self.statements,
            expected: self.expected,
        }
    }

    /// The `combatants` rows of those who joined since `before`, and — with a snapshot
    /// (`snapshot`) — every denormalised row as `after` holds it: each combatant's turn
    /// resources, the readied actions (those stored replaced), each character's death saves.
    fn rows(mut self, before: &Before, after: &Live, snapshot: bool, now: DateTimeUtc) -> Self {
        let id = after.id;
        let combatants = &after.combat.combatants;
        if combatants.len() > before.combatants {
            let mut insert = Query::insert();
            insert.into_table(combatant::Entity).columns([
                combatant::Column::CombatId,
                combatant::Column::CombatantIndex,
                combatant::Column::CharacterId,
                combatant::Column::Monster,
                combatant::Column::Name,
            ]);
            for (i, c) in combatants.iter().enumerate().skip(before.combatants) {
                let monster = c.monster_name().map(str::to_owned);
                insert.values_panic([
                    id.into(),
                    (i as i32).into(),
                    after.characters[i].into(),
                    monster.into(),
                    c.name.clone().into(),
                ]);
            }
            self.push(&insert, (combatants.len() - before.combatants) as u64);
        }
        if !snapshot {
            return self;
        }

        if !combatants.is_empty() {
            use turn_resources::Column as T;
            let mut upsert = Query::insert();
            upsert.into_table(turn_resources::Entity).columns([
                T::CombatId,
                T::CombatantIndex,
                T::ActionUsed,
                T::BonusUsed,
                T::ReactionUsed,
                T::MovementUsed,
                T::MovementTotal,
            ]);
            for (i, c) in combatants.iter().enumerate() {
                let r = c.resources;
                upsert.values_panic([
                    id.into(),
                    (i as i32).into(),
                    r.action_used.into(),
                    r.bonus_used.into(),
                    r.reaction_used.into(),
                    r.movement_used.into(),
                    r.movement_total.into(),
                ]);
            }
            upsert.on_conflict(
                OnConflict::columns([T::CombatId, T::CombatantIndex])
                    .update_columns([
                        T::ActionUsed,
                        T::BonusUsed,
                        T::ReactionUsed,
                        T::MovementUsed,
                        T::MovementTotal,
                    ])
                    .to_owned(),
            );
            self.push(&upsert, combatants.len() as u64);
        }

        if before.readied_rows > 0 {
            let mut delete = Query::delete();
            delete
                .from_table(readied_action::Entity)
                .and_where(readied_action::Column::CombatId.eq(id));
            self.push(&delete, before.readied_rows);
        }
        let readied: Vec<(usize, &engine::readied::ReadiedAction)> = combatants
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.readied.as_ref().map(|r| (i, r)))
            .collect();
        if !readied.is_empty() {
            use readied_action::Column as R;
            let mut insert = Query::insert();
            insert.into_table(readied_action::Entity).columns([
                R::CombatId,
                R::CombatantIndex,
                R::Action,
                R::TriggerDesc,
                R::ExpiresAt,
                R::Fired,
            ]);
            for &(i, r) in &readied {
                insert.values_panic([
                    id.into(),
                    (i as i32).into(),
                    r.action.describe().into(),
                    r.trigger_desc.clone().into(),
                    (r.expires_at as i32).into(),
                    r.fired.into(),
                ]);
            }
            self.push(&insert, readied.len() as u64);
        }

        let characters: Vec<usize> = (0..combatants.len())
            .filter(|&i| after.characters[i].is_some())
            .collect();
        if !characters.is_empty() {
            use death_save_state::Column as D;
            let mut upsert = Query::insert();
            upsert.into_table(death_save_state::Entity).columns([
                D::CombatId,
                D::CharacterId,
                D::PlayerId,
                D::Downed,
                D::Successes,
                D::Failures,
                D::Stabilized,
                D::UpdatedAt,
            ]);
            for &i in &characters {
                let c = &combatants[i];
                upsert.values_panic([
                    id.into(),
                    after.characters[i].into(),
                    c.player_id().unwrap_or_default().to_owned().into(),
                    c.death.downed.into(),
                    i32::from(c.death.successes).into(),
                    i32::from(c.death.failures).into(),
                    c.death.stabilized.into(),
                    at(self.backend, now).into(),
                ]);
            }
            upsert.on_conflict(
                OnConflict::columns([D::CombatId, D::CharacterId])
                    .update_columns([D::Downed, D::Successes, D::Failures, D::Stabilized, D::UpdatedAt])
                    .to_owned(),
            );
            self.push(&upsert, characters.len() as u64);
        }
        self
    }
}

/// The SQL text of a statement most commands run — their log entry, their timers' inserts and
/// deletions — for each backend, rendered by sea-query the first time it is needed: such a
/// statement differs from one command to the next in its values alone, and rendering it anew
/// each time was ≈ 7 % of a one-fight bench's time.
struct Rendered([OnceLock<String>; 2]);

impl Rendered {
    const fn new() -> Self {
        Self([OnceLock::new(), OnceLock::new()])
    }

    /// The text for `backend`, rendered from `statement` (its placeholders; the values it
    /// holds are not kept) if it has not been yet.
    fn text<S: QueryStatementWriter>(&'static self, backend: DbBackend, statement: impl FnOnce() -> S) -> &'static str {
        let postgres = backend == DbBackend::Postgres;
        self.0[usize::from(postgres)].get_or_init(|| {
            if postgres {
                statement().build(PostgresQueryBuilder).0
            } else {
                statement().build(SqliteQueryBuilder).0
            }
        })
    }
}

static LOG_ENTRY: Rendered = Rendered::new();
static TIMER_INSERT: Rendered = Rendered::new();
static TIMER_DELETE: Rendered = Rendered::new();

/// A log entry's insert (see [`Batch::record`]): `values` in the order of its columns.
fn log_entry_insert(values: Vec<Value>) -> InsertStatement {
    let mut log = Query::insert();
    log.into_table(combat_event::Entity)
        .columns([
            combat_event::Column::CombatId,
            combat_event::Column::Seq,
            combat_event::Column::Command,
            combat_event::Column::Events,
            combat_event::Column::Packed,
            combat_event::Column::CreatedAt,
            combat_event::Column::ReactionTimerId,
            combat_event::Column::TurnTimerId,
        ])
        .values_panic(values.into_iter().map(Into::into))
        .on_conflict(
            OnConflict::columns([combat_event::Column::CombatId, combat_event::Column::Seq])
                .do_nothing()
                .to_owned(),
        );
    log
}

/// A command's new timer's insert, its id taken ahead: `values` in the order of
/// [`timer_values`].
fn timer_insert(values: Vec<Value>) -> InsertStatement {
    let mut insert = Query::insert();
    insert
        .into_table(timer::Entity)
        .columns([
            timer::Column::Id,
            timer::Column::Kind,
            timer::Column::CampaignId,
            timer::Column::DueAt,
            timer::Column::Payload,
        ])
        .values_panic(values.into_iter().map(Into::into));
    insert
}

/// A retired timer's deletion: `values` holds its id.
fn timer_delete(values: Vec<Value>) -> DeleteStatement {
    let mut delete = Query::delete();
    delete
        .from_table(timer::Entity)
        .and_where(timer::Column::Id.is_in(values));
    delete
}

/// The values of a fight's new timer ([`Live::fight_timer`]) for [`timer_insert`].
fn timer_values(row: timer::ActiveModel) -> Vec<Value> {
    [
        row.id.into_value(),
        row.kind.into_value(),
        row.campaign_id.into_value(),
        row.due_at.into_value(),
        row.payload.into_value(),
    ]
    .into_iter()
    .map(|column| column.expect("a new timer's columns are all set"))
    .collect()
}

/// An id of `timers`' sequence taken inside `txn` (a window's token, a fight's timer), as the
/// group commit's writers take theirs ahead: never anyone else's, and on SQLite without a row.
async fn take_timer_id(txn: &DatabaseTransaction) -> Result<i64, ServiceError> {
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

/// Which database engine a connection or transaction talks to.
fn backend(db: &Db) -> DbBackend {
    db.conn().get_database_backend()
}

/// Whether a command's write needs a transaction of its own: a death admits the character
/// to the Hospital and an ended fight is settled, both reading rows as they go.
fn needs_transaction(after: &Live, events: &[Event]) -> bool {
    after.combat.outcome.is_some() || events.iter().any(|e| matches!(e, Event::Died { .. }))
}

/// What a command does to the fight's timers: the rows it retires (ids), the fight's timer it
/// sets (a row to insert, its id taken with the write), and whether the window it opened needs a
/// token.
struct TimerChange {
    retired: Vec<i64>,
    fight_timer: Option<timer::ActiveModel>,
    token: bool,
}

impl TimerChange {
    /// How many ids of `timers`' sequence the command takes: its window's token and its timer's.
    fn ids(&self) -> usize {
        usize::from(self.token) + usize::from(self.fight_timer.is_some())
    }

    /// Gives the window its token and the fight's timer its id, in that order, from `ids`;
    /// returns the timer's row.
    fn take_ids(&mut self, after: &mut Live, ids: impl IntoIterator<Item = i64>) -> Option<timer::ActiveModel> {
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
fn timer_change(before: &Before, after: &mut Live, now: DateTimeUtc) -> TimerChange {
    let mut retired = Vec::new();
    let mut token = false;
    if before.window != after.combat.window {
        after.window_token = None;
        token = after.combat.window.is_some();
    }
    after.track(before.window.as_ref(), before.wait, now);
    let running = after.combat.outcome.is_none();
    let timed = after.combat.window.is_some()
        || (after.turn_timeout_secs > 0 && crate::cmd::turn_timer::awaited(&after.combat).is_some());
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
            && crate::cmd::turn_timer::awaited(&live.combat).is_some()
        {
            due = due.min(since + turn);
        }
    }
    due
}

/// The combat row's update with a snapshot: its version and pending timers' ids as of it, and
/// the status and `updated_at` when the status changed (a fight ends with a snapshot).
///
/// Only with a snapshot: between them the log holds the version (its entry's key is the guard,
/// see [`Batch::record`]) and the timers' ids, so a command writes no page of the row. The
/// status and `updated_at` are indexed (`ix_combats_campaign_channel`, `ix_combats_finished`,
/// `ux_combats_active_channel`) and SQLite rewrites an index entry whenever its column is set,
/// to the same value or not: both are set only when the status changes. `updated_at` is what
/// retention reads of a finished fight: when it finished.
fn combat_update(backend: DbBackend, before: &Before, after: &Live, now: DateTimeUtc) -> UpdateStatement {
    let mut update = Query::update();
    update
        .table(combat::Entity)
        .value(combat::Column::Version, after.version)
        .value(combat::Column::ReactionTimerId, after.window_token)
        .value(combat::Column::TurnTimerId, after.fight_timer);
    let status = after.status();
    if status != before.status {
        update
            .value(combat::Column::Status, status)
            .value(combat::Column::UpdatedAt, at(backend, now));
    }
    update.and_where(combat::Column::Id.eq(after.id));
    update
}

/// A command's statements: its log entry first (the version guard: the writers check that it
/// touched its row), the fight's snapshot and combat row when one is due, the denormalised rows
/// that changed, and the retired timers' deletion.
fn statements(
    backend: DbBackend,
    before: &Before,
    after: &Live,
    packed: Vec<u8>,
    old_timers: &[i64],
    snapshot: bool,
    now: DateTimeUtc,
) -> Batch {
    Batch::new(backend).record(before, after, packed, old_timers, snapshot, now)
}

impl Batch {
    /// What a command adds besides the combat row: see [`statements`].
    fn record(
        mut self,
        before: &Before,
        after: &Live,
        packed: Vec<u8>,
        old_timers: &[i64],
        snapshot: bool,
        now: DateTimeUtc,
    ) -> Self {
        // The version guard: of two commands that read one version, one inserts the next entry
        // and the other nothing (its write then touches a row fewer than it must). The command
        // and its events are packed (`combat_event::pack`); the JSON columns stay empty.
        let entry = vec![
            after.id.into(),
            after.version.into(),
            "".into(),
            "".into(),
            packed.into(),
            at(self.backend, now),
            after.window_token.into(),
            after.fight_timer.into(),
        ];
        self.push_rendered(&LOG_ENTRY, entry, 1, log_entry_insert);
        if snapshot {
            self.push(&combat_update(self.backend, before, after, now), 1);
            let state = serde_json::to_string(&after.stored()).expect("combat state serialises");
            self.push_snapshot(after, state);
        }
        let mut batch = self.rows(before, after, snapshot, now);
        for &old in old_timers {
            batch.push_rendered(&TIMER_DELETE, vec![old.into()], 1, timer_delete);
        }
        batch
    }
}

/// What a command's transaction does besides the fight's own rows, in it: a character who died
/// in the command is admitted to the Hospital (§8.1), before any settlement reads their row;
/// a fight that ended is settled (an arena duel: the streaks, and nothing else of the fight,
/// `cmd::arena`).
async fn aftermath<R: crate::access::Access>(
    txn: &R,
    after: &mut Live,
    events: &[Event],
    now: DateTimeUtc,
) -> Result<Aftermath, ServiceError> {
    let mut aftermath = Vec::new();
    for event in events {
        if let Event::Died { id } = event
            && let Some(admission) = crate::cmd::hospital::admit(txn, after, id.0 as usize, now).await?
        {
            aftermath.push(crate::Notice::Admitted(admission));
        }
    }
    if after.combat.outcome.is_some() && after.combat.duel {
        if let Some(end) = crate::cmd::arena::settle(txn, after, now).await? {
            aftermath.push(crate::Notice::DuelEnded(end));
        }
    } else if after.combat.outcome.is_some() {
        let settled = crate::cmd::combat::settle(txn, after, events, now).await?;
        aftermath.push(crate::Notice::Settled(settled));
    }
    Ok(aftermath)
}

/// Runs commands against cached combats.
pub(crate) struct Store {
    pub db: Db,
    pub cache: Cache,
    /// Woken when this process schedules a timer, so the scheduler task sleeping until the
    /// next one re-reads it.
    pub wake: tokio::sync::Notify,
    /// What the group commit has written (nothing but on a SQLite file).
    pub group_counts: Arc<GroupCommitCounts>,
    /// A command whose version is a multiple of this writes the fight's snapshot
    /// ([`SNAPSHOT_EVERY`] unless set otherwise).
    pub snapshot_every: AtomicI64,
}

/// A command's effect once written: the combat after it and what the caller needs.
pub(crate) struct Written<T> {
    pub live: Live,
    pub events: Vec<Event>,
    pub extra: T,
}

/// What a command's transaction did besides the combat itself, in order: Hospital
/// admissions (a character died), then the settlement if the fight ended.
pub(crate) type Aftermath = Vec<crate::Notice>;

impl Store {
    /// A store over `db`.
    pub fn new(db: Db) -> Self {
        let group_counts = db
            .writer()
            .map_or_else(Arc::default, |writer| Arc::clone(writer.counts()));
        Self {
            db,
            cache: Cache::default(),
            wake: tokio::sync::Notify::new(),
            group_counts,
            snapshot_every: AtomicI64::new(SNAPSHOT_EVERY),
        }
    }

    /// Whether the command that brought the fight to `after` with `events` writes its snapshot
    /// (and the denormalised rows with it): every [`Store::snapshot_every`] versions, at a death
    /// (what `cmd::character::fighting_in` reads), and when it ends (what replay and retention read).
    fn snapshot_due(&self, after: &Live, events: &[Event]) -> bool {
        after.combat.outcome.is_some()
            || after.version % self.snapshot_every.load(Ordering::Relaxed).max(1) == 0
            || events.iter().any(|e| matches!(e, Event::Died { .. }))
    }

    /// Runs `command` on a combat: from the cache (or the database), one writer at a time,
    /// one transaction per command, retried on a stale version.
    pub async fn run<T, F>(
        &self,
        combat_id: i64,
        now: DateTimeUtc,
        mut command: F,
    ) -> Result<Written<(T, Aftermath)>, ServiceError>
    where
        F: FnMut(&mut Live) -> Result<Applied<T>, ServiceError>,
    {
        let slot = self.cache.slot(combat_id);
        let mut guard = slot.lock().await;
        let mut attempt = 0;
        loop {
            attempt += 1;
            if guard.is_none() {
                *guard = Some(load(&self.db, combat_id).await?);
            }
            let live = guard.as_mut().expect("loaded above");
            if live.combat.outcome.is_some() {
                // Ended by another process: its channel no longer has it (see `refresh_channel`).
                let (id, campaign_id, channel_id) = (live.id, live.campaign_id, live.channel_id.clone());
                *guard = None;
                self.cache.forget(id, campaign_id, &channel_id);
                return Err(ServiceError::Rules(engine::RuleViolation::CombatOver));
            }
            // The command works on the cached fight itself: the write needs only what the
            // fight's rows were ([`Before`]), and a failed write drops the cache entry.
            let before = Before::of(live);
            let engine_commands = live.applied;
            let applied = match command(live) {
                Ok(applied) => applied,
                Err(err) => {
                    // A refusal leaves the fight as it was, unless the command applied some
                    // engine commands before it refused (a spawn of several): forget it then.
                    if live.applied != engine_commands {
                        *guard = None;
                    }
                    return Err(err);
                }
            };
            live.version = before.version + 1;
            match self.write(&before, live, &applied, now).await {
                Ok(settled) => {
                    if live.fight_timer.is_some() && live.fight_timer != before.fight_timer {
                        self.wake.notify_one();
                    }
                    let answer = live.clone();
                    if live.combat.outcome.is_some() {
                        let (id, campaign_id, channel_id) = (live.id, live.campaign_id, live.channel_id.clone());
                        *guard = None;
                        self.cache.forget(id, campaign_id, &channel_id);
                    }
                    return Ok(Written {
                        live: answer,
                        events: applied.events,
                        extra: (applied.extra, settled),
                    });
                }
                Err(ServiceError::StaleCombat { .. }) if attempt < MAX_ATTEMPTS => {
                    *guard = None;
                }
                Err(err) => {
                    *guard = None;
                    return Err(err);
                }
            }
        }
    }

    /// The one transaction of a command.
    ///
    /// On a SQLite file, a command whose write is only its own statements (no Hospital
    /// admission, no settlement) goes to the [group commit](crate::writer); the rest write in a
    /// transaction of their own on its connection ([`Store::write_alone`]). Elsewhere each
    /// command is a sea-orm transaction of its own (PostgreSQL's group commit aside).
    async fn write<T>(
        &self,
        before: &Before,
        after: &mut Live,
        applied: &Applied<T>,
        now: DateTimeUtc,
    ) -> Result<Aftermath, ServiceError> {
        let written = match self.db.writer() {
            Some(writer) if !needs_transaction(after, &applied.events) => Some(
                self.group_write(writer, before, after, applied, now)
                    .await
                    .map(|()| Vec::new()),
            ),
            Some(writer @ GroupCommit::Sqlite(sqlite)) => {
                Some(self.write_alone(writer, sqlite, before, after, applied, now).await)
            }
            _ => None,
        };
        if let Some(written) = written {
            return match written {
                Ok(aftermath) => Ok(aftermath),
                Err(err) => Err(self.explain(before, err).await?),
            };
        }
        let txn = self.db.begin_write().await?;
        match self.write_in(&txn, before, after, applied, now).await {
            Ok(settled) => {
                txn.commit().await?;
                Ok(settled)
            }
            Err(err) => {
                txn.rollback().await?;
                Err(self.explain(before, err).await?)
            }
        }
    }

    /// Why a write failed: [`ServiceError::StaleCombat`] when the combat moved on in the
    /// database meanwhile, else `err` itself.
    async fn explain(&self, before: &Before, err: ServiceError) -> Result<ServiceError, ServiceError> {
        let found = crate::repo::combats::version(&self.db, before.id).await?;
        Ok(if found == before.version {
            err
        } else {
            ServiceError::StaleCombat {
                combat_id: before.id,
                expected: before.version,
                found,
            }
        })
    }

    /// Hands a command's statements to the group commit and waits until they are durable.
    async fn group_write<T>(
        &self,
        writer: &GroupCommit,
        before: &Before,
        after: &mut Live,
        applied: &Applied<T>,
        now: DateTimeUtc,
    ) -> Result<(), ServiceError> {
        let timers = self.timers_ahead(writer, before, after, now).await?;
        let (statements, snapshot) = self.rendered(writer.backend(), before, after, applied, timers, now);
        let (done, answer) = oneshot::channel();
        writer
            .write(GroupWrite {
                combat_id: after.id,
                expected_version: before.version,
                statements,
                done,
            })
            .await?;
        answer.await.map_err(|_| crate::writer::stopped())??;
        if snapshot {
            after.readied_rows = after.readied_count();
        }
        Ok(())
    }

    /// A command that admits a character to the Hospital or ends its fight, on a SQLite file
    /// (`writer` is `sqlite`'s group commit):
    /// its admissions, its settlement and its own statements in one transaction of its own on
    /// the group commit's connection, on the command's task (through sqlx it was ≈ 12 round
    /// trips to sqlx's thread, ≈ 1 ms).
    async fn write_alone<T>(
        &self,
        writer: &GroupCommit,
        sqlite: &crate::writer::Writer,
        before: &Before,
        after: &mut Live,
        applied: &Applied<T>,
        now: DateTimeUtc,
    ) -> Result<Aftermath, ServiceError> {
        // Before the transaction: taking ids may take the write gate itself.
        let timers = self.timers_ahead(writer, before, after, now).await?;
        let txn = sqlite.begin().await?;
        let aftermath = aftermath(&txn, after, &applied.events, now).await?;
        // Rendered after the settlement, which rolls the loot from the fight's dice.
        let (statements, snapshot) = self.rendered(DbBackend::Sqlite, before, after, applied, timers, now);
        txn.run(|conn| crate::writer::write_one(conn, after.id, before.version, &statements))?;
        txn.commit()?;
        if snapshot {
            after.readied_rows = after.readied_count();
        }
        Ok(aftermath)
    }

    /// What a command does to its fight's timers, with the ids its new ones take, taken ahead
    /// from the group commit's writer.
    async fn timers_ahead(
        &self,
        writer: &GroupCommit,
        before: &Before,
        after: &mut Live,
        now: DateTimeUtc,
    ) -> Result<(Vec<i64>, Option<timer::ActiveModel>), ServiceError> {
        let mut change = timer_change(before, after, now);
        let mut row = None;
        if change.ids() > 0 {
            let ids = writer.timer_ids(change.ids()).await?;
            row = change.take_ids(after, ids);
        }
        Ok((change.retired, row))
    }

    /// A command's statements rendered whole (state JSON, SQL, values), its timers' among them,
    /// and whether they write its snapshot.
    fn rendered<T>(
        &self,
        backend: DbBackend,
        before: &Before,
        after: &Live,
        applied: &Applied<T>,
        (retired, timer): (Vec<i64>, Option<timer::ActiveModel>),
        now: DateTimeUtc,
    ) -> (crate::writer::Statements, bool) {
        let (mut batch, snapshot) = self.batch(backend, before, after, applied, &retired, now);
        if let Some(row) = timer {
            batch.push_rendered(&TIMER_INSERT, timer_values(row), 1, timer_insert);
        }
        (batch.into_statements(), snapshot)
    }

    /// A command's own statements ([`statements`]: its log entry first, its snapshot when one is
    /// due, its retired timers' deletions), and whether they write its snapshot.
    fn batch<T>(
        &self,
        backend: DbBackend,
        before: &Before,
        after: &Live,
        applied: &Applied<T>,
        retired: &[i64],
        now: DateTimeUtc,
    ) -> (Batch, bool) {
        let packed = combat_event::pack(&applied.logged, &applied.events);
        let snapshot = self.snapshot_due(after, &applied.events);
        let batch = statements(backend, before, after, packed, retired, snapshot, now);
        (batch, snapshot)
    }

    async fn write_in<T>(
        &self,
        txn: &DatabaseTransaction,
        before: &Before,
        after: &mut Live,
        applied: &Applied<T>,
        now: DateTimeUtc,
    ) -> Result<Aftermath, ServiceError> {
        let mut change = timer_change(before, after, now);
        let mut ids = Vec::new();
        for _ in 0..change.ids() {
            ids.push(take_timer_id(txn).await?);
        }
        if let Some(row) = change.take_ids(after, ids) {
            timer::Entity::insert(row).exec_without_returning(txn).await?;
        }
        let old_timers = change.retired;
        let aftermath = aftermath(txn, after, &applied.events, now).await?;
        let (batch, snapshot) = self.batch(backend(&self.db), before, after, applied, &old_timers, now);
        // The log entry first and on its own: it is the version guard, which must touch its row
        // whatever the rest touches (as the group commits check it).
        let (guard, rest) = batch.statements.split_first().expect("a command logs itself");
        let guarded = txn
            .execute_raw(sea_orm::Statement::from_sql_and_values(
                batch.backend,
                guard.0.clone(),
                guard.1.clone(),
            ))
            .await?
            .rows_affected();
        let done = if rest.is_empty() {
            0
        } else {
            txn.execute_unprepared(&batch.inline_from(1)).await?.rows_affected()
        };
        if guarded != 1 || guarded + done != batch.expected {
            return Err(ServiceError::StaleCombat {
                combat_id: after.id,
                expected: before.version,
                found: -1,
            });
        }
        if snapshot {
            after.readied_rows = after.readied_count();
        }
        Ok(aftermath)
    }

    /// The active combat in a channel, if any (cached after the first look-up).
    pub async fn in_channel(&self, campaign_id: i64, channel_id: &str) -> Result<Option<i64>, ServiceError> {
        if let Some(id) = self.cache.channel(campaign_id, channel_id) {
            return Ok(Some(id));
        }
        let found = crate::repo::combats::active_in_channel(&self.db, campaign_id, channel_id).await?;
        if let Some(row) = &found {
            self.cache.set_channel(campaign_id, channel_id, row.id);
        }
        Ok(found.map(|row| row.id))
    }

    /// A combat's current state: from the cache when it is held there and still the stored
    /// version (one read of the row's version: another process may have written it), else
    /// from the database. A fight that is over is refused as
    /// [`engine::RuleViolation::CombatOver`] and forgotten by its channel.
    pub async fn snapshot(&self, combat_id: i64) -> Result<Live, ServiceError> {
        let slot = self.cache.slot(combat_id);
        let mut guard = slot.lock().await;
        if let Some(cached) = guard.as_ref() {
            let stored = crate::repo::combats::version(&self.db, combat_id).await?;
            if stored != cached.version {
                *guard = None;
            }
        }
        if guard.is_none() {
            let live = load(&self.db, combat_id).await?;
            if live.combat.outcome.is_some() {
                self.cache.forget(live.id, live.campaign_id, &live.channel_id);
                return Err(ServiceError::Rules(engine::RuleViolation::CombatOver));
            }
            *guard = Some(live);
        }
        Ok(guard.clone().expect("loaded above"))
    }

    /// Access which combat is active in a channel from the database (not the cache), and
    /// caches that. Returns whether the cache had it otherwise: a command refused because
    /// the cached fight is over (another process ended it, and perhaps opened another) is
    /// worth running again.
    pub async fn refresh_channel(&self, campaign_id: i64, channel_id: &str) -> Result<bool, ServiceError> {
        let cached = self.cache.channel(campaign_id, channel_id);
        let found = crate::repo::combats::active_in_channel(&self.db, campaign_id, channel_id)
            .await?
            .map(|row| row.id);
        match found {
            Some(id) => self.cache.set_channel(campaign_id, channel_id, id),
            None => self.cache.unset_channel(campaign_id, channel_id),
        }
        Ok(found != cached)
    }

    /// Notes a newly created combat (its transaction committed) as its channel's active one,
    /// and caches it as created: its first command need not load it back (the spawn-then-start
    /// of a fight loaded it at once, ≈ 6 reads and the snapshot's JSON).
    pub async fn cache_new(&self, live: &Live) {
        self.cache.set_channel(live.campaign_id, &live.channel_id, live.id);
        *self.cache.slot(live.id).lock().await = Some(live.clone());
    }
}

#[cfg(test)]
mod tests {
    use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};

    use crate::ServiceError;
    use crate::cmd::combat::NewFight;
    use crate::entity::combat_start;

    fn fight(campaign_id: i64) -> NewFight<'static> {
        NewFight {
            campaign_id,
            channel_id: "channel",
            expedition_id: None,
            members: Vec::new(),
            terrain: engine::Terrain::default(),
            duel: false,
        }
    }

    /// A channel keeps one active fight however a new fight is written: a second one, made
    /// ready before the first was stored (so the look-up before found none), is refused by its
    /// own insert as `CombatInChannel` — on the group commit's connection and in a sea-orm
    /// transaction alike — and leaves nothing behind.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_second_active_fight_in_a_channel_is_refused_by_its_insert_either_way() {
        let scratch = crate::scratch::Scratch::new("create").await;
        let (db, svc, camp, now) = (&scratch.db, &scratch.svc, scratch.camp, scratch.now);
        let (mut first, seed) = svc.new_fight(db, fight(camp)).await.expect("the first");
        let (mut second, second_seed) = svc
            .new_fight(db, fight(camp))
            .await
            .expect("the second, before the first is stored");
        let (mut third, third_seed) = svc
            .new_fight(db, fight(camp))
            .await
            .expect("the third, before the first is stored");
        let writer = db.sqlite_writer().expect("a SQLite file's group commit");

        super::create_alone(writer, &mut first, seed, now)
            .await
            .expect("the first is stored");
        assert!(first.id > 0);
        let refused = super::create_alone(writer, &mut second, second_seed, now).await;
        assert!(matches!(refused, Err(ServiceError::CombatInChannel)), "{refused:?}");
        let txn = db.begin_write().await.expect("a transaction");
        let refused = super::create(&txn, &mut third, third_seed, now).await;
        assert!(matches!(refused, Err(ServiceError::CombatInChannel)), "{refused:?}");
        txn.rollback().await.expect("rolled back");

        let fights = crate::repo::combats::count_in_campaign(db, camp)
            .await
            .expect("a count");
        let starts = combat_start::Entity::find()
            .filter(combat_start::Column::CombatId.eq(first.id))
            .count(db.conn())
            .await
            .expect("a count");
        let all_starts = combat_start::Entity::find().count(db.conn()).await.expect("a count");
        assert_eq!((fights, starts, all_starts), (1, 1, 1));
        let stored = super::load(db.conn(), first.id).await.expect("the first loads");
        assert_eq!((stored.version, stored.channel_id.as_str()), (0, "channel"));
        db.clone().close().await.expect("close");
    }
}
