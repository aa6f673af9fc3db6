//! A fight as the service holds it between commands ([`Live`]): the engine commands applied to
//! it, the replay of a logged command on it, whom it waits for, and what a command's write
//! compares it against ([`Before`]).

use std::sync::Arc;

use engine::combatant::Combatant;
use engine::event::Outcome;
use engine::{Actor, Combat, CombatantId, Command, Dice, DicePosition, Event};
use serde::{Deserialize, Serialize};

use crate::{DateTimeUtc, ServiceError};

use super::Logged;

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
pub(super) struct StoredStateRef<'a> {
    pub(super) combat: &'a Combat,
    pub(super) dice: DicePosition,
    pub(super) reaction_timer: Option<i64>,
    pub(super) turn_timer: Option<i64>,
    pub(super) wait_since: Option<DateTimeUtc>,
    pub(super) window_since: Option<DateTimeUtc>,
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
    /// The campaign's `/campaign map every_turn`: each message that passes the turn carries
    /// the battlefield's picture.
    pub map_every_turn: bool,
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
    /// The fight's timer ([`super::COMBAT_TIMER`]): one row from the fight's first window or wait on
    /// a player to its end, not one a window and one a wait — windows open and turns pass
    /// without writing it (those rows would be two of a command's ≈ five WAL pages).
    /// It is due no later than the earliest deadline: the open window's end
    /// ([`Live::window_since`] plus the reaction timeout) and the wait's ([`Live::wait_since`]
    /// plus the turn timeout). Each time it is armed it is due at most the shorter timeout on
    /// ([`super::arm_at`]), so a window or wait that begins later also ends later. When it fires early,
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
    pub(super) status: &'static str,
    pub(super) window: Option<engine::reactions::ReactionWindow>,
    pub(super) wait: Option<crate::store::WaitKey>,
    pub(super) combatants: usize,
    pub(super) readied_rows: u64,
}

impl Before {
    pub fn of(live: &Live) -> Self {
        Self {
            id: live.id,
            version: live.version,
            fight_timer: live.fight_timer,
            status: live.status(),
            window: live.combat.window.clone(),
            wait: crate::store::wait_key(&live.combat),
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
    /// ([`crate::store::wait_key`]).
    pub fn track(
        &mut self,
        window: Option<&engine::reactions::ReactionWindow>,
        wait: Option<crate::store::WaitKey>,
        now: DateTimeUtc,
    ) {
        if self.combat.window.as_ref() != window {
            self.window_since = self.combat.window.as_ref().map(|_| to_micros(now));
        }
        let after = crate::store::wait_key(&self.combat);
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
            map_every_turn: false,
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
    pub(super) fn readied_count(&self) -> u64 {
        self.combat.combatants.iter().filter(|c| c.readied.is_some()).count() as u64
    }

    pub(super) fn stored(&self) -> StoredStateRef<'_> {
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

/// `now` to the microsecond (truncated), as PostgreSQL's `timestamptz` keeps it (it would round
/// a finer time), and as [`Live::apply`] hands it to the engine.
pub(super) fn to_micros(now: DateTimeUtc) -> DateTimeUtc {
    use chrono::SubsecRound;
    now.trunc_subsecs(6)
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
pub(crate) fn engine_step(
    live: &mut Live,
    actor: Actor,
    command: Command,
    now: DateTimeUtc,
) -> Result<Applied<()>, ServiceError> {
    let events = live.apply(actor, command.clone(), now)?;
    Ok(Applied {
        logged: Logged::Engine { actor, command },
        events,
        extra: (),
    })
}
/// Most combatants one fight may hold. Each snapshot writes the fight's whole state, and each
/// load parses it, which grows with each combatant (1,200 goblins measured 1.45 MB,
/// ≈ 1.2 kB each).
pub const MAX_COMBATANTS: usize = engine::join::MAX_COMBATANTS;
/// Refuses `joining` more combatants past [`MAX_COMBATANTS`] ([`ServiceError::FightFull`]).
pub(crate) fn room_for(combat: &Combat, joining: usize) -> Result<(), ServiceError> {
    let count = combat.combatants.len();
    if count.saturating_add(joining) > MAX_COMBATANTS {
        return Err(ServiceError::FightFull {
            count,
            max: MAX_COMBATANTS,
        });
    }
    Ok(())
}
