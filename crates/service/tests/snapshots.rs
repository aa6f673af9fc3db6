//! Write what happened, not the whole fight, on every backend: a command logs itself
//! and the fight's whole state is written only every few commands (its snapshot) and when it
//! ends. A fight read back from the database — its latest snapshot and the commands logged after
//! it, re-applied — is the fight as it was applied, after every command, for every snapshot
//! interval, past a snapshot and between two; a process gone between snapshots (its cache gone
//! with it) loses nothing: another continues the fight from the database; and a fight stored
//! whole, before snapshots, loads and continues once the schema is upgraded.

mod applied;
#[macro_use]
mod common;
mod rows;

use applied::{assert_replays_identically, assert_stored_as_applied};
use chrono::{TimeZone, Utc};
use migration::{Migrator, MigratorTrait};
use sea_orm::{ConnectionTrait, EntityTrait};
use service::entity::{combat, combat_snapshot};
use service::repo::combats;
use service::{CombatUpdate, DateTimeUtc, Db, PlayerCommand, Service, ServiceError};

on_every_backend! {
    a_fight_read_back_after_every_command_is_the_fight_applied => crate::a_fight_read_back_after_every_command_is_the_fight_applied;
    a_process_gone_between_snapshots_loses_nothing => crate::a_process_gone_between_snapshots_loses_nothing;
    a_fight_stored_whole_before_snapshots_loads_and_continues => crate::a_fight_stored_whole_before_snapshots_loads_and_continues;
    a_partys_denormalised_rows_are_written_with_each_snapshot_and_by_no_command_between => crate::a_partys_denormalised_rows_are_written_with_each_snapshot_and_by_no_command_between;
    between_snapshots_the_log_alone_holds_the_version_and_the_pending_timers => crate::between_snapshots_the_log_alone_holds_the_version_and_the_pending_timers;
    a_fight_stored_before_the_log_guarded_its_version_loads_and_continues => crate::a_fight_stored_before_the_log_guarded_its_version_loads_and_continues;
    a_fight_logged_in_json_before_entries_were_packed_loads_continues_and_replays => crate::a_fight_logged_in_json_before_entries_were_packed_loads_continues_and_replays;
}

fn now() -> DateTimeUtc {
    // Sub-microsecond on purpose: PostgreSQL keeps the log's times to the microsecond.
    Utc.with_ymd_and_hms(2026, 12, 2, 12, 0, 0).unwrap() + chrono::Duration::nanoseconds(123_456_789)
}

const GUILD: &str = "snapshots";

/// A fighter of `level` for `player` in a fight against two goblins in `channel`, begun.
async fn fight(svc: &Service, channel: &str, player: &str, level: u32) -> Result<(i64, CombatUpdate), ServiceError> {
    let camp = svc.campaign_for(GUILD, channel, now()).await?.id;
    svc.create_character(camp, player, &format!("Hero {player}"), "human", "fighter", now())
        .await?;
    svc.gm_set_level(camp, player, level).await?;
    svc.gm_spawn(camp, channel, "goblin", 2, now()).await?;
    svc.join_combat(camp, channel, player, now()).await?;
    let begun = svc.start_combat(camp, channel, player, now()).await?;
    Ok((camp, begun))
}

/// The player's next command on `update`: pass a reaction prompt, attack (or dodge) while the
/// action is unused, else end the turn. `None` once the fight is over.
async fn next(
    svc: &Service,
    camp: i64,
    channel: &str,
    player: &str,
    update: &CombatUpdate,
    attack: bool,
) -> Result<Option<CombatUpdate>, ServiceError> {
    if update.combat.outcome.is_some() {
        return Ok(None);
    }
    let result = if update.combat.window.is_some() {
        svc.react(camp, channel, player, "pass", update.window_token, now())
            .await
    } else {
        let Some(current) = update.combat.current() else {
            return Ok(None);
        };
        let command = if update.combat.get(current).resources.action_used {
            PlayerCommand::EndTurn
        } else if attack {
            PlayerCommand::Attack { target: None }
        } else {
            PlayerCommand::Dodge
        };
        svc.act(camp, channel, player, &command, now()).await
    };
    match result {
        Ok(update) => Ok(Some(update)),
        // An attack with nobody in reach: end the turn instead.
        Err(ServiceError::Rules(_)) => svc
            .act(camp, channel, player, &PlayerCommand::EndTurn, now())
            .await
            .map(Some),
        Err(err) => Err(err),
    }
}

/// The version of a fight's latest snapshot.
async fn snapshot_version(db: &Db, combat_id: i64) -> Result<i64, ServiceError> {
    Ok(combat_snapshot::Entity::find_by_id(combat_id)
        .one(db.conn())
        .await?
        .expect("every fight has a snapshot")
        .version)
}

async fn a_fight_read_back_after_every_command_is_the_fight_applied(db: Db) -> Result<(), ServiceError> {
    for every in [1_i64, 2, 3, 7, 16] {
        let svc = Service::with_seed(db.clone(), 5).with_snapshot_every(every as u32);
        let (channel, player) = (format!("channel-{every}"), format!("player-{every}"));
        let (camp, mut update) = fight(&svc, &channel, &player, 3).await?;
        let combat_id = update.combat_id;
        assert_stored_as_applied(&svc, &update).await?;
        let (mut on_snapshot, mut between) = (0, 0);
        // A death writes a snapshot of its own (with the rows the Hospital reads).
        let mut died_at = 0;
        for command in 0..60 {
            if command == 6 {
                // A reinforcement mid-fight: a sequence of joins in one logged command.
                update = svc.gm_spawn(camp, &channel, "goblin", 1, now()).await?;
                assert_stored_as_applied(&svc, &update).await?;
            }
            let Some(after) = next(&svc, camp, &channel, &player, &update, true).await? else {
                break;
            };
            update = after;
            assert_stored_as_applied(&svc, &update).await?;
            rows::check_denormalised_rows(&db, combat_id).await?;
            if update.events.iter().any(|e| matches!(e, engine::Event::Died { .. })) {
                died_at = update.version;
            }
            let snapshot = snapshot_version(&db, combat_id).await?;
            if update.combat.outcome.is_some() {
                assert_eq!(snapshot, update.version, "an ended fight's last state is its snapshot");
            } else {
                assert_eq!(
                    snapshot,
                    (update.version - update.version % every).max(died_at),
                    "snapshot every {every}, and at each death"
                );
            }
            if snapshot == update.version {
                on_snapshot += 1;
            } else {
                between += 1;
            }
        }
        assert!(on_snapshot > 0, "every {every}: no command wrote a snapshot");
        assert!(
            every == 1 || between > 0,
            "every {every}: no command fell between snapshots"
        );
        // The log holds every command once, in order.
        let log = combats::events(db.conn(), combat_id).await?;
        assert_eq!(
            log.iter().map(|r| r.seq).collect::<Vec<_>>(),
            (1..=update.version).collect::<Vec<_>>()
        );
        // Replay from the start agrees with the snapshots and the log.
        assert_replays_identically(&svc, combat_id).await?;
    }
    Ok(())
}

async fn a_process_gone_between_snapshots_loses_nothing(db: Db) -> Result<(), ServiceError> {
    let (channel, player) = ("channel-gone", "gone");
    let first = Service::with_seed(db.clone(), 9).with_snapshot_every(16);
    let (camp, mut update) = fight(&first, channel, player, 12).await?;
    // Past the first snapshot (version 16) and part of the way to the next.
    while update.version < 20 {
        update = next(&first, camp, channel, player, &update, false)
            .await?
            .expect("the fight lasts twenty commands");
    }
    assert_eq!(snapshot_version(&db, update.combat_id).await?, 16);
    // The first process is gone, and its cache with it: a second reads the fight from the
    // database and finds every answered command there.
    drop(first);
    let second = Service::with_seed(db.clone(), 9).with_snapshot_every(16);
    let status = second.combat_status(camp, channel).await?;
    assert_eq!(status.version, update.version);
    assert_eq!(
        serde_json::to_value(&status.combat).unwrap(),
        serde_json::to_value(&update.combat).unwrap()
    );
    assert_eq!(
        status.window_token, update.window_token,
        "the open window's timer is the same"
    );
    // It continues the fight where the first left it, and nothing is doubled.
    let after = next(&second, camp, channel, player, &status, false)
        .await?
        .expect("the fight goes on");
    assert_eq!(after.version, update.version + 1);
    assert_stored_as_applied(&second, &after).await?;
    let log = combats::events(db.conn(), after.combat_id).await?;
    assert_eq!(
        log.iter().map(|r| r.seq).collect::<Vec<_>>(),
        (1..=after.version).collect::<Vec<_>>()
    );
    Ok(())
}

/// The player whose turn or prompt `update` waits on: the reactor of an open window, else the
/// combatant whose turn it is (`None` on a monster's).
fn awaited(update: &CombatUpdate) -> Option<String> {
    let id = match &update.combat.window {
        Some(window) => window.reactor,
        None => update.combat.current()?,
    };
    update.combat.get(id).player_id().map(str::to_owned)
}

async fn a_partys_denormalised_rows_are_written_with_each_snapshot_and_by_no_command_between(
    db: Db,
) -> Result<(), ServiceError> {
    let channel = "channel-party-rows";
    let every = 4;
    let first = Service::with_seed(db.clone(), 17).with_snapshot_every(every);
    let camp = first.campaign_for(GUILD, channel, now()).await?.id;
    for (player, class) in [("ana", "fighter"), ("ben", "rogue"), ("cy", "cleric")] {
        first
            .create_character(camp, player, &format!("Hero {player}"), "human", class, now())
            .await?;
        first.gm_set_level(camp, player, 8).await?;
    }
    first.gm_spawn(camp, channel, "goblin", 2, now()).await?;
    first.join_combat(camp, channel, "ana", now()).await?;
    first.join_combat(camp, channel, "ben", now()).await?;
    let mut update = first.start_combat(camp, channel, "ana", now()).await?;
    let combat_id = update.combat_id;
    // A third player joins once the fight has begun.
    update = first.join_combat(camp, channel, "cy", now()).await?;
    rows::check_denormalised_rows(&db, combat_id).await?;

    let mut svc = first;
    let (mut lagging, mut readied_stored, mut restarted) = (0, 0, false);
    for command in 0..80 {
        if update.combat.outcome.is_some() {
            break;
        }
        if command == 25 {
            // A restart between snapshots: the next process counts the readied rows stored and
            // replaces them with its next snapshot.
            drop(svc);
            svc = Service::with_seed(db.clone(), 17).with_snapshot_every(every);
            update = svc.combat_status(camp, channel).await?;
            restarted = true;
        }
        let Some(player) = awaited(&update) else {
            update = svc.combat_status(camp, channel).await?;
            continue;
        };
        let result = if update.combat.window.is_some() {
            svc.react(camp, channel, &player, "pass", update.window_token, now())
                .await
        } else {
            let me = update.combat.get(update.combat.current().expect("a turn"));
            let command = if me.resources.action_used {
                PlayerCommand::EndTurn
            } else {
                // Each player readies an attack: the readied rows fill, fire and empty.
                PlayerCommand::Ready {
                    text: "attack when the goblin moves into melee range".into(),
                }
            };
            svc.act(camp, channel, &player, &command, now()).await
        };
        update = match result {
            Ok(next) => next,
            Err(ServiceError::Rules(_)) => svc.end_turn(camp, channel, &player, now()).await?,
            Err(err) => return Err(err),
        };
        rows::check_denormalised_rows(&db, combat_id).await?;
        let snapshot = snapshot_version(&db, combat_id).await?;
        let stored = service::entity::turn_resources::Entity::find()
            .all(db.conn())
            .await?
            .into_iter()
            .filter(|r| r.combat_id == combat_id)
            .map(|r| (r.combatant_index, r.movement_total, r.action_used))
            .collect::<Vec<_>>();
        let live: Vec<_> = update
            .combat
            .combatants
            .iter()
            .enumerate()
            .map(|(i, c)| (i as i32, c.resources.movement_total, c.resources.action_used))
            .collect();
        if snapshot == update.version {
            let mut stored = stored;
            stored.sort_unstable();
            assert_eq!(stored, live, "a snapshot's command writes the rows as they are");
        } else if stored.len() != live.len() || stored.iter().any(|r| !live.contains(r)) {
            lagging += 1;
        }
        readied_stored += service::entity::readied_action::Entity::find()
            .all(db.conn())
            .await?
            .iter()
            .filter(|r| r.combat_id == combat_id)
            .count();
    }
    assert!(restarted, "the fight lasted past the restart");
    assert!(readied_stored > 0, "no readied action was ever stored");
    assert!(
        lagging > 0,
        "no command between snapshots left the rows as the snapshot had them"
    );
    Ok(())
}

async fn a_fight_stored_whole_before_snapshots_loads_and_continues(db: Db) -> Result<(), ServiceError> {
    let (channel, player) = ("channel-old", "old");
    // With a snapshot after every command, the snapshot is exactly what `combats.state` held
    // before: the whole state at the row's version, its timers' ids in it.
    let first = Service::with_seed(db.clone(), 13).with_snapshot_every(1);
    let (camp, mut update) = fight(&first, channel, player, 12).await?;
    for _ in 0..5 {
        update = next(&first, camp, channel, player, &update, false)
            .await?
            .expect("the fight lasts five commands");
    }
    let combat_id = update.combat_id;
    let mut whole: serde_json::Value = serde_json::from_str(
        &combat_snapshot::Entity::find_by_id(combat_id)
            .one(db.conn())
            .await?
            .expect("a snapshot")
            .state,
    )
    .unwrap();
    // The timers' ids as of the row's version, as the whole state held them.
    let timers = combat::Entity::find_by_id(combat_id)
        .one(db.conn())
        .await?
        .expect("the fight");
    whole["reaction_timer"] = serde_json::json!(timers.reaction_timer_id);
    whole["turn_timer"] = serde_json::json!(timers.turn_timer_id);
    assert_eq!(timers.reaction_timer_id, update.window_token);
    let whole = whole.to_string();
    let start = service::entity::combat_start::Entity::find_by_id(combat_id)
        .one(db.conn())
        .await?
        .expect("a start")
        .state;
    drop(first);

    // The schema before snapshots, and the fight as it stored it: whole in `combats.state`.
    Migrator::down(db.conn(), Some(migrations_since("m20261206_000013_combat_snapshots"))).await?;
    let backend = db.conn().get_database_backend();
    db.conn()
        .execute_raw(sea_orm::Statement::from_sql_and_values(
            backend,
            match backend {
                sea_orm::DbBackend::Postgres => "UPDATE combats SET state = $1, initial_state = $2 WHERE id = $3",
                _ => "UPDATE combats SET state = ?, initial_state = ? WHERE id = ?",
            },
            [whole.into(), start.into(), combat_id.into()],
        ))
        .await?;
    Migrator::up(db.conn(), None).await?;

    let row = combat::Entity::find_by_id(combat_id)
        .one(db.conn())
        .await?
        .expect("the fight");
    assert_eq!((row.state.as_str(), row.initial_state.as_deref()), ("", None));
    assert_eq!(
        (row.reaction_timer_id, row.turn_timer_id),
        (timers.reaction_timer_id, timers.turn_timer_id)
    );
    let second = Service::with_seed(db.clone(), 13);
    let status = second.combat_status(camp, channel).await?;
    assert_eq!(status.version, update.version);
    assert_eq!(
        serde_json::to_value(&status.combat).unwrap(),
        serde_json::to_value(&update.combat).unwrap()
    );
    assert_eq!(status.window_token, update.window_token);
    let after = next(&second, camp, channel, player, &status, false)
        .await?
        .expect("the fight goes on");
    assert_eq!(after.version, update.version + 1);
    assert_stored_as_applied(&second, &after).await?;
    assert_replays_identically(&second, combat_id).await?;
    Ok(())
}

/// The timers a fight has pending (not fired), by id.
async fn pending_timers_of(db: &Db, combat_id: i64) -> Result<Vec<i64>, ServiceError> {
    use sea_orm::{ColumnTrait, QueryFilter};
    let mut ids: Vec<i64> = service::entity::timer::Entity::find()
        .filter(service::entity::timer::Column::FiredAt.is_null())
        .all(db.conn())
        .await?
        .into_iter()
        .filter(|t| t.payload["combat_id"] == serde_json::json!(combat_id))
        .map(|t| t.id)
        .collect();
    ids.sort_unstable();
    Ok(ids)
}

/// The timer the fight's last log entry names as pending after it (its `turn_timer_id`, the
/// fight's timer; its `reaction_timer_id` is the open window's token, which no row has).
async fn timers_named_by_the_log(db: &Db, combat_id: i64) -> Result<Vec<i64>, ServiceError> {
    let log = combats::events(db.conn(), combat_id).await?;
    let last = log.last().expect("a logged command");
    Ok(last.turn_timer_id.into_iter().collect())
}

/// The window token the fight's last log entry names.
async fn token_named_by_the_log(db: &Db, combat_id: i64) -> Result<Option<i64>, ServiceError> {
    let log = combats::events(db.conn(), combat_id).await?;
    Ok(log.last().expect("a logged command").reaction_timer_id)
}

/// The fight played on from `update` until a reaction prompt waits on the player (its timer
/// pending), past a few commands.
async fn until_a_prompt(
    svc: &Service,
    camp: i64,
    channel: &str,
    player: &str,
    mut update: CombatUpdate,
) -> Result<CombatUpdate, ServiceError> {
    for _ in 0..60 {
        if update.combat.window.is_some() && update.version > 3 {
            return Ok(update);
        }
        update = next(svc, camp, channel, player, &update, false)
            .await?
            .expect("the fight lasts");
    }
    panic!("no reaction prompt in sixty commands");
}

async fn between_snapshots_the_log_alone_holds_the_version_and_the_pending_timers(db: Db) -> Result<(), ServiceError> {
    let (channel, player) = ("channel-log-guard", "guard");
    // Snapshots far apart: past the fight's first, every command is only logged.
    let first = Service::with_seed(db.clone(), 21).with_snapshot_every(1_000);
    let (camp, begun) = fight(&first, channel, player, 12).await?;
    let combat_id = begun.combat_id;
    let mut update = until_a_prompt(&first, camp, channel, player, begun).await?;
    // The combat row is as the fight's one snapshot left it; the log holds the version.
    let row = combat::Entity::find_by_id(combat_id)
        .one(db.conn())
        .await?
        .expect("the fight");
    assert_eq!(row.version, snapshot_version(&db, combat_id).await?);
    assert!(
        row.version < update.version,
        "a command between snapshots wrote the combat row"
    );
    assert_eq!(combats::version(db.conn(), combat_id).await?, update.version);
    let pending = pending_timers_of(&db, combat_id).await?;
    assert_eq!(pending, timers_named_by_the_log(&db, combat_id).await?);
    assert_eq!(pending.len(), 1, "the fight's one timer");
    assert_eq!(token_named_by_the_log(&db, combat_id).await?, update.window_token);
    assert!(update.window_token.is_some(), "a prompt's token");

    // Another process reads the fight from the database: the same window, the same timers.
    drop(first);
    let second = Service::with_seed(db.clone(), 21).with_snapshot_every(1_000);
    let status = second.combat_status(camp, channel).await?;
    assert_eq!(status.version, update.version);
    assert_eq!(status.window_token, update.window_token);
    // It goes on; each command's entry names the fight's timer and the open window's token.
    update = status;
    for _ in 0..12 {
        let Some(after) = next(&second, camp, channel, player, &update, false).await? else {
            break;
        };
        update = after;
        assert_stored_as_applied(&second, &update).await?;
        if update.combat.outcome.is_none() {
            assert_eq!(
                pending_timers_of(&db, combat_id).await?,
                timers_named_by_the_log(&db, combat_id).await?,
                "version {}: the timers pending are those the log names",
                update.version
            );
            assert_eq!(token_named_by_the_log(&db, combat_id).await?, update.window_token);
        }
    }
    // A process holding the fight in its cache sees another's commands: its cached copy is
    // checked against the log, the row being behind between snapshots.
    let other = Service::with_seed(db.clone(), 21).with_snapshot_every(1_000);
    let seen = other.combat_status(camp, channel).await?;
    assert_eq!(seen.version, update.version);
    if let Some(moved) = next(&second, camp, channel, player, &update, false).await?
        && moved.combat.outcome.is_none()
    {
        let now_seen = other.combat_status(camp, channel).await?;
        assert_eq!(now_seen.version, moved.version);
        assert_eq!(
            serde_json::to_value(&now_seen.combat).unwrap(),
            serde_json::to_value(&moved.combat).unwrap()
        );
    }
    Ok(())
}

async fn a_fight_stored_before_the_log_guarded_its_version_loads_and_continues(db: Db) -> Result<(), ServiceError> {
    let (channel, player) = ("channel-before-guard", "before-guard");
    let first = Service::with_seed(db.clone(), 23).with_snapshot_every(1_000);
    let (camp, begun) = fight(&first, channel, player, 12).await?;
    let update = until_a_prompt(&first, camp, channel, player, begun).await?;
    let combat_id = update.combat_id;
    drop(first);
    // The schema before the log guarded the version: the row holds the version and the
    // timers (the migration's `down` brings it up to the log), the log entries no timers.
    // That migration and every one after it are undone.
    let since = migrations_since("m20261211_000013_log_guards_the_version");
    Migrator::down(db.conn(), Some(since)).await?;
    let row = combat::Entity::find_by_id(combat_id)
        .one(db.conn())
        .await?
        .expect("the fight");
    assert_eq!(row.version, update.version);
    assert_eq!(row.reaction_timer_id, update.window_token);
    Migrator::up(db.conn(), None).await?;
    let log = combats::events(db.conn(), combat_id).await?;
    assert!(
        log.iter()
            .all(|e| e.reaction_timer_id.is_none() && e.turn_timer_id.is_none())
    );

    let second = Service::with_seed(db.clone(), 23).with_snapshot_every(1_000);
    let status = second.combat_status(camp, channel).await?;
    assert_eq!(status.version, update.version);
    assert_eq!(status.window_token, update.window_token);
    assert_eq!(
        serde_json::to_value(&status.combat).unwrap(),
        serde_json::to_value(&update.combat).unwrap()
    );
    let after = next(&second, camp, channel, player, &status, false)
        .await?
        .expect("the fight goes on");
    assert_eq!(after.version, update.version + 1);
    assert_stored_as_applied(&second, &after).await?;
    if after.combat.outcome.is_none() {
        assert_eq!(
            pending_timers_of(&db, combat_id).await?,
            timers_named_by_the_log(&db, combat_id).await?
        );
    }
    Ok(())
}

async fn a_fight_logged_in_json_before_entries_were_packed_loads_continues_and_replays(
    db: Db,
) -> Result<(), ServiceError> {
    let (channel, player) = ("channel-before-packing", "before-packing");
    // No snapshot past the first: loading the fight re-applies every entry of its log.
    let first = Service::with_seed(db.clone(), 31).with_snapshot_every(1_000);
    let (camp, begun) = fight(&first, channel, player, 12).await?;
    let update = until_a_prompt(&first, camp, channel, player, begun).await?;
    let combat_id = update.combat_id;
    let packed = combats::events(db.conn(), combat_id).await?;
    assert!(
        packed
            .iter()
            .all(|e| e.packed.is_some() && e.command.is_empty() && e.events.is_empty()),
        "today's entries are packed"
    );
    drop(first);
    // The schema before entries were packed: `down` writes each one back as the JSON the engine
    // serialised, the only form it had.
    Migrator::down(db.conn(), Some(migrations_since("m20261213_000013_packed_log"))).await?;
    Migrator::up(db.conn(), None).await?;
    let json = combats::events(db.conn(), combat_id).await?;
    assert_eq!(json.len(), packed.len());
    for (json, packed) in json.iter().zip(&packed) {
        assert!(json.packed.is_none(), "entry {} is JSON again", json.seq);
        let as_engine_wrote_it = serde_json::from_str::<serde_json::Value>(&json.command).expect("JSON");
        assert_eq!(
            as_engine_wrote_it,
            packed.command_json().expect("the packed command reads")
        );
        assert_eq!(
            json.stored_events(),
            packed.stored_events(),
            "entry {}'s events",
            json.seq
        );
    }

    // A process reads the fight from its JSON log, continues it in packed entries, and a replay
    // reads both forms.
    let second = Service::with_seed(db.clone(), 31).with_snapshot_every(1_000);
    let status = second.combat_status(camp, channel).await?;
    assert_eq!(status.version, update.version);
    assert_eq!(
        serde_json::to_value(&status.combat).unwrap(),
        serde_json::to_value(&update.combat).unwrap()
    );
    let mut after = status;
    for _ in 0..4 {
        let Some(next) = next(&second, camp, channel, player, &after, false).await? else {
            break;
        };
        after = next;
        assert_stored_as_applied(&second, &after).await?;
    }
    assert!(after.version > update.version, "the fight went on");
    let log = combats::events(db.conn(), combat_id).await?;
    assert_eq!(
        log.iter().map(|e| (e.seq, e.packed.is_some())).collect::<Vec<_>>(),
        (1..=after.version)
            .map(|seq| (seq, seq > update.version))
            .collect::<Vec<_>>(),
        "the old entries as JSON, the new ones packed"
    );
    assert_replays_identically(&second, combat_id).await?;
    Ok(())
}

/// How many migrations `name` and those after it are (what `down` takes to undo them).
fn migrations_since(name: &str) -> u32 {
    Migrator::migrations()
        .iter()
        .rev()
        .position(|m| m.name() == name)
        .unwrap_or_else(|| panic!("no migration {name}")) as u32
        + 1
}
