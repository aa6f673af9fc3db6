//! Many combats written at once: on a SQLite file their commands share transactions (the group
//! commit), on PostgreSQL (and in-memory SQLite) each has its own. Either way every acknowledged command is in its
//! combat's log exactly once, and nothing that was refused is. Two services on one database
//! (two processes, two caches) make stale writes happen inside groups.

#[macro_use]
mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::{TimeZone, Utc};
use service::repo::combats;
use service::{CombatUpdate, DateTimeUtc, Db, PlayerCommand, Service, ServiceError};
use tokio::sync::Barrier;

on_every_backend! {
    every_acknowledged_command_is_logged_once_across_many_combats => crate::every_acknowledged_command_is_logged_once_across_many_combats;
}

fn now() -> DateTimeUtc {
    Utc.with_ymd_and_hms(2026, 11, 29, 12, 0, 0).unwrap()
}

const COMBATS: usize = 8;
/// Tasks per combat, alternating between the two services.
const RACERS: usize = 4;
/// Commands each racer tries.
const TRIES: usize = 12;

/// The next command a player would send on `update`, if any is theirs to send.
async fn next_command(
    svc: &Service,
    camp: i64,
    channel: &str,
    player: &str,
) -> Result<Option<CombatUpdate>, ServiceError> {
    let update = match svc.combat_status(camp, channel).await {
        Ok(update) => update,
        Err(ServiceError::NoCombatInChannel) => return Ok(None),
        Err(err) => return Err(err),
    };
    if update.combat.outcome.is_some() {
        return Ok(None);
    }
    let result = if update.combat.window.is_some() {
        svc.react(camp, channel, player, "pass", update.window_token, now())
            .await
    } else if update
        .combat
        .current()
        .is_some_and(|id| update.combat.get(id).player_id() == Some(player))
    {
        let acted = update
            .combat
            .get(update.combat.current().unwrap())
            .resources
            .action_used;
        let command = if acted {
            PlayerCommand::EndTurn
        } else {
            PlayerCommand::Dodge
        };
        svc.act(camp, channel, player, &command, now()).await
    } else {
        return Ok(None);
    };
    match result {
        Ok(update) => Ok(Some(update)),
        // Lost a race: the window closed, the turn passed, or the other service kept writing
        // first through every retry.
        Err(
            ServiceError::Rules(_)
            | ServiceError::StaleButton
            | ServiceError::NoCombatInChannel
            | ServiceError::StaleCombat { .. },
        ) => Ok(None),
        Err(err) => Err(err),
    }
}

async fn every_acknowledged_command_is_logged_once_across_many_combats(db: Db) -> Result<(), ServiceError> {
    let a = Service::with_seed(db.clone(), 21);
    let b = Service::with_seed(db.clone(), 21);
    let camp = a.campaign_for("guild", "setup", now()).await?.id;
    let mut started = BTreeMap::new();
    for i in 0..COMBATS {
        let (channel, player) = (format!("channel-{i}"), format!("player-{i}"));
        a.create_character(camp, &player, &format!("Hero {i}"), "dwarf", "fighter", now())
            .await?;
        a.gm_set_level(camp, &player, 10).await?;
        a.gm_spawn(camp, &channel, "giant rat", 2, now()).await?;
        let update = a.start_combat(camp, &channel, &player, now()).await?;
        // Both caches hold every combat, so each service's writes make the other's stale.
        assert_eq!(b.combat_status(camp, &channel).await?.version, update.version);
        started.insert(update.combat_id, (update.version, channel));
    }
    let grouped_before = a.group_commit().commands() + b.group_commit().commands();

    let barrier = Arc::new(Barrier::new(COMBATS * RACERS));
    let mut tasks = Vec::new();
    for i in 0..COMBATS {
        for r in 0..RACERS {
            let svc = if r % 2 == 0 { a.clone() } else { b.clone() };
            let barrier = Arc::clone(&barrier);
            let (channel, player) = (format!("channel-{i}"), format!("player-{i}"));
            tasks.push(tokio::spawn(async move {
                barrier.wait().await;
                let mut acknowledged = Vec::new();
                for _ in 0..TRIES {
                    if let Some(update) = next_command(&svc, camp, &channel, &player).await? {
                        acknowledged.push((update.combat_id, update.version));
                    }
                }
                Ok::<_, ServiceError>(acknowledged)
            }));
        }
    }
    let mut acknowledged: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for task in tasks {
        for (combat, version) in task.await.expect("a racer panicked")? {
            acknowledged.entry(combat).or_default().push(version);
        }
    }
    assert!(!acknowledged.is_empty(), "some commands went through");

    for (combat_id, (start, channel)) in &started {
        let version = combats::version(db.conn(), *combat_id).await?;
        let log = combats::events(db.conn(), *combat_id).await?;
        assert_eq!(
            log.iter().map(|r| r.seq).collect::<Vec<_>>(),
            (1..=version).collect::<Vec<_>>(),
            "{channel}: one log row per version, none missing"
        );
        let mut versions = acknowledged.remove(combat_id).unwrap_or_default();
        versions.sort_unstable();
        let expected: Vec<i64> = (start + 1..=version).collect();
        assert_eq!(
            versions, expected,
            "{channel}: every acknowledged command wrote exactly one version, and nothing else did"
        );
    }

    if db.has_group_commit() {
        let grouped = a.group_commit().commands() + b.group_commit().commands() - grouped_before;
        let transactions = a.group_commit().transactions() + b.group_commit().transactions();
        assert!(grouped > 0, "the group commit wrote these commands");
        assert!(
            transactions < a.group_commit().commands() + b.group_commit().commands(),
            "concurrent commands shared transactions ({transactions} transactions)"
        );
    } else {
        assert_eq!(
            a.group_commit().transactions(),
            0,
            "PostgreSQL and in-memory SQLite write each command itself"
        );
    }
    Ok(())
}
