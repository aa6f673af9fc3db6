//! The storage suite: every test body runs on in-memory SQLite, a SQLite file and
//! PostgreSQL (see `common`).

#[macro_use]
mod common;

use std::sync::Arc;

use chrono::{TimeZone, Utc};
use migration::{Migrator, MigratorTrait};
use sea_orm::{ConnectionTrait, DbBackend, Statement, TransactionTrait};
use service::entity::character;
use service::repo::characters::NewCharacter;
use service::repo::combats::{self, CombatWrite, NewCombat, save_combat};
use service::repo::{campaigns, characters};
use service::{DateTimeUtc, Db, ServiceError};
use tokio::sync::Barrier;

on_every_backend! {
    migrations_run_twice_idempotently => crate::migrations_run_twice_idempotently;
    campaign_get_or_create_isolates_guilds => crate::campaign_get_or_create_isolates_guilds;
    concurrent_get_or_create_makes_one_campaign => crate::concurrent_get_or_create_makes_one_campaign;
    campaign_ids_remembered_per_channel_match_the_database => crate::campaign_ids_remembered_per_channel_match_the_database;
    second_character_for_same_player_is_refused => crate::second_character_for_same_player_is_refused;
    refused_character_leaves_the_transaction_usable => crate::refused_character_leaves_the_transaction_usable;
    character_update_round_trips => crate::character_update_round_trips;
    stale_save_is_refused_and_changes_nothing => crate::stale_save_is_refused_and_changes_nothing;
    concurrent_saves_have_exactly_one_winner => crate::concurrent_saves_have_exactly_one_winner;
}

/// The campaign id a command looks up (remembered per channel after the first) is the
/// campaign the database gives that channel: one per guild, shared by its channels.
async fn campaign_ids_remembered_per_channel_match_the_database(db: Db) -> Result<(), ServiceError> {
    let svc = service::Service::new(db.clone());
    let first = svc.campaign_id_for("guild-a", "one", now()).await?;
    assert_eq!(first, svc.campaign_for("guild-a", "one", now()).await?.id);
    assert_eq!(svc.campaign_id_for("guild-a", "one", now()).await?, first, "remembered");
    assert_eq!(
        svc.campaign_id_for("guild-a", "two", now()).await?,
        first,
        "one campaign per guild"
    );
    let other = svc.campaign_id_for("guild-b", "one", now()).await?;
    assert_ne!(other, first, "guilds never share a campaign");
    // Another service (another process) on the same database agrees.
    let fresh = service::Service::new(db);
    assert_eq!(fresh.campaign_id_for("guild-b", "one", now()).await?, other);
    Ok(())
}

/// A fixed clock: tests never read the real one.
fn now() -> DateTimeUtc {
    Utc.with_ymd_and_hms(2026, 11, 29, 12, 0, 0).unwrap()
}

fn new_character(campaign_id: i64, player_id: &str, name: &str) -> NewCharacter {
    NewCharacter {
        campaign_id,
        player_id: player_id.to_owned(),
        name: name.to_owned(),
        race: "elf".to_owned(),
        class: "rogue".to_owned(),
        max_hp: 9,
        coins: 15,
        weapon: Some("shortsword".to_owned()),
        off_hand: None,
        armor: Some("leather".to_owned()),
        shield: None,
        inventory: serde_json::json!([]),
        gear: serde_json::json!({}),
    }
}

/// A campaign with one combat at version 0.
async fn combat_fixture(db: &Db) -> Result<i64, ServiceError> {
    let campaign = campaigns::get_or_create(db.conn(), "guild", None, now()).await?;
    let combat = combats::create(
        db.conn(),
        NewCombat {
            campaign_id: campaign.id,
            channel_id: "channel".to_owned(),
            expedition_id: None,
            seed: 42,
            state: "s0".to_owned(),
        },
        now(),
    )
    .await?;
    assert_eq!(combat.version, 0);
    Ok(combat.id)
}

/// One command's transaction: save, then commit, or roll back on refusal.
async fn save(db: &Db, combat_id: i64, expected: i64, tag: &str) -> Result<i64, ServiceError> {
    let txn = db.begin_write().await?;
    let write = CombatWrite {
        state: &format!("state after {tag}"),
        command: &format!("command {tag}"),
        events: &format!("events of {tag}"),
        now: now(),
    };
    match save_combat(&txn, combat_id, expected, write).await {
        Ok(version) => {
            txn.commit().await?;
            Ok(version)
        }
        Err(err) => {
            txn.rollback().await?;
            Err(err)
        }
    }
}

async fn migrations_run_twice_idempotently(db: Db) -> Result<(), ServiceError> {
    // `Db::connect` already ran them once.
    Migrator::up(db.conn(), None).await?;
    Migrator::up(db.conn(), None).await?;
    assert!(Migrator::get_pending_migrations(db.conn()).await?.is_empty());
    // The schema is whole and usable afterwards.
    combat_fixture(&db).await?;
    Ok(())
}

async fn campaign_get_or_create_isolates_guilds(db: Db) -> Result<(), ServiceError> {
    let conn = db.conn();
    let one = campaigns::get_or_create(conn, "guild-1", None, now()).await?;
    let two = campaigns::get_or_create(conn, "guild-2", None, now()).await?;
    assert_ne!(one.id, two.id);
    assert_eq!(one.ruleset, "gogobee");
    assert_eq!(one.reaction_timeout_secs, 30);

    let again = campaigns::get_or_create(conn, "guild-1", None, now()).await?;
    assert_eq!(again, one);

    let channel = campaigns::get_or_create(conn, "guild-1", Some("chan-1"), now()).await?;
    assert_ne!(channel.id, one.id);
    let channel_again = campaigns::get_or_create(conn, "guild-1", Some("chan-1"), now()).await?;
    assert_eq!(channel_again.id, channel.id);
    let other_guild_channel = campaigns::get_or_create(conn, "guild-2", Some("chan-1"), now()).await?;
    assert_ne!(other_guild_channel.id, channel.id);

    // A setting changed in one guild stays there.
    let changed = campaigns::set_ruleset(conn, one.id, "tdgs").await?;
    assert_eq!(changed.ruleset, "tdgs");
    assert_eq!(campaigns::get(conn, two.id).await?.ruleset, "gogobee");
    assert_eq!(campaigns::get(conn, channel.id).await?.ruleset, "gogobee");
    assert!(matches!(
        campaigns::set_ruleset(conn, one.id, "chess").await,
        Err(ServiceError::UnknownRuleset(name)) if name == "chess"
    ));
    assert!(matches!(
        campaigns::get(conn, 9999).await,
        Err(ServiceError::CampaignNotFound(9999))
    ));

    // Characters in one guild's campaign are invisible from the other's.
    characters::create(conn, new_character(one.id, "alice", "Aria"), now()).await?;
    assert!(characters::for_player(conn, two.id, "alice").await?.is_none());
    assert!(characters::list(conn, two.id).await?.is_empty());
    Ok(())
}

async fn concurrent_get_or_create_makes_one_campaign(db: Db) -> Result<(), ServiceError> {
    let racers = 4;
    let barrier = Arc::new(Barrier::new(racers));
    let mut tasks = Vec::new();
    for _ in 0..racers {
        let (db, barrier) = (db.clone(), barrier.clone());
        tasks.push(tokio::spawn(async move {
            barrier.wait().await;
            campaigns::get_or_create(db.conn(), "racing-guild", None, now()).await
        }));
    }
    let mut ids = Vec::new();
    for task in tasks {
        ids.push(task.await.expect("task panicked")?.id);
    }
    ids.dedup();
    assert_eq!(ids.len(), 1, "every caller gets the same campaign: {ids:?}");
    Ok(())
}

async fn second_character_for_same_player_is_refused(db: Db) -> Result<(), ServiceError> {
    let conn = db.conn();
    let campaign = campaigns::get_or_create(conn, "guild", None, now()).await?;
    let aria = characters::create(conn, new_character(campaign.id, "alice", "Aria"), now()).await?;
    assert_eq!((aria.level, aria.xp, aria.hp, aria.max_hp), (1, 0, 9, 9));

    let refused = characters::create(conn, new_character(campaign.id, "alice", "Bree"), now()).await;
    let Err(err) = refused else {
        panic!("a second character for alice was accepted: {refused:?}");
    };
    assert!(
        matches!(&err, ServiceError::CharacterExists { campaign_id, player_id }
            if *campaign_id == campaign.id && player_id == "alice"),
        "{err:?}"
    );
    // What the player reads: no internal ids.
    assert_eq!(
        err.to_string(),
        "You already have a character here (one per player in a server) — /character sheet shows it."
    );

    // The first character is untouched; other players and other campaigns are fine.
    let kept = characters::for_player(conn, campaign.id, "alice").await?;
    assert_eq!(kept.as_ref().map(|c| c.name.as_str()), Some("Aria"));
    characters::create(conn, new_character(campaign.id, "bob", "Bram"), now()).await?;
    let elsewhere = campaigns::get_or_create(conn, "guild", Some("side-quest"), now()).await?;
    characters::create(conn, new_character(elsewhere.id, "alice", "Bree"), now()).await?;
    let names: Vec<_> = characters::list(conn, campaign.id)
        .await?
        .into_iter()
        .map(|c| c.name)
        .collect();
    assert_eq!(names, ["Aria", "Bram"]);
    Ok(())
}

async fn refused_character_leaves_the_transaction_usable(db: Db) -> Result<(), ServiceError> {
    let campaign = campaigns::get_or_create(db.conn(), "guild", None, now()).await?;
    characters::create(db.conn(), new_character(campaign.id, "alice", "Aria"), now()).await?;
    // On PostgreSQL a failed INSERT would abort the whole transaction; ON CONFLICT DO
    // NOTHING does not, so the command can go on and commit its other writes.
    let txn = db.conn().begin().await?;
    let refused = characters::create(&txn, new_character(campaign.id, "alice", "Bree"), now()).await;
    assert!(matches!(refused, Err(ServiceError::CharacterExists { .. })));
    characters::create(&txn, new_character(campaign.id, "bob", "Bram"), now()).await?;
    txn.commit().await?;
    assert_eq!(characters::list(db.conn(), campaign.id).await?.len(), 2);
    Ok(())
}

async fn character_update_round_trips(db: Db) -> Result<(), ServiceError> {
    let conn = db.conn();
    let campaign = campaigns::get_or_create(conn, "guild", None, now()).await?;
    let mut aria = characters::create(conn, new_character(campaign.id, "alice", "Aria"), now()).await?;
    aria.xp = 300;
    aria.level = 2;
    aria.coins -= 5;
    aria.hp = 4;
    aria.shield = Some("buckler".to_owned());
    aria.inventory = serde_json::json!([{"item": "potion", "count": 2}]);
    aria.pet = Some("ferret".to_owned());
    let saved = characters::update(conn, aria.clone()).await?;
    let written = character::Model {
        version: aria.version + 1,
        ..aria.clone()
    };
    assert_eq!(saved, written);
    assert_eq!(characters::get(conn, aria.id).await?, written);

    // A write of the row as it was before that one is refused and changes nothing.
    let mut late = aria.clone();
    late.coins = 1_000;
    assert!(matches!(
        characters::update(conn, late).await,
        Err(ServiceError::StaleCharacter { expected, found, .. }) if expected == aria.version && found == aria.version + 1
    ));
    assert_eq!(characters::get(conn, aria.id).await?, written);

    let mut ghost = aria.clone();
    ghost.id = 9999;
    assert!(matches!(
        characters::update(conn, ghost).await,
        Err(ServiceError::CharacterNotFound(9999))
    ));
    Ok(())
}

async fn stale_save_is_refused_and_changes_nothing(db: Db) -> Result<(), ServiceError> {
    let combat_id = combat_fixture(&db).await?;
    assert_eq!(save(&db, combat_id, 0, "first").await?, 1);

    // A command that read version 0 comes in late.
    let late = save(&db, combat_id, 0, "late").await;
    assert!(
        matches!(
            late,
            Err(ServiceError::StaleCombat { combat_id: id, expected: 0, found: 1 }) if id == combat_id
        ),
        "{late:?}"
    );
    // One from the future is refused too.
    assert!(matches!(
        save(&db, combat_id, 7, "future").await,
        Err(ServiceError::StaleCombat { found: 1, .. })
    ));
    assert!(matches!(
        save(&db, 9999, 0, "nowhere").await,
        Err(ServiceError::CombatNotFound(9999))
    ));

    let combat = combats::get(db.conn(), combat_id).await?;
    assert_eq!(combat.version, 1);
    assert_eq!(combat.state, "state after first");
    let log = combats::events(db.conn(), combat_id).await?;
    assert_eq!(log.len(), 1);
    assert_eq!(
        (log[0].seq, log[0].command.as_str(), log[0].events.as_str()),
        (1, "command first", "events of first")
    );
    Ok(())
}

async fn concurrent_saves_have_exactly_one_winner(db: Db) -> Result<(), ServiceError> {
    let combat_id = combat_fixture(&db).await?;
    let (rounds, racers) = (5_i64, 4_usize);
    let mut winners = Vec::new();
    for round in 0..rounds {
        // Everyone has read version `round`; they press their buttons at once.
        let barrier = Arc::new(Barrier::new(racers));
        let mut tasks = Vec::new();
        for racer in 0..racers {
            let (db, barrier) = (db.clone(), barrier.clone());
            tasks.push(tokio::spawn(async move {
                barrier.wait().await;
                let tag = format!("round {round} racer {racer}");
                (tag.clone(), save(&db, combat_id, round, &tag).await)
            }));
        }
        let mut won = Vec::new();
        for task in tasks {
            match task.await.expect("task panicked") {
                (tag, Ok(version)) => {
                    assert_eq!(version, round + 1);
                    won.push(tag);
                }
                (_, Err(ServiceError::StaleCombat { expected, .. })) => {
                    assert_eq!(expected, round);
                }
                (tag, Err(err)) => panic!("{tag} failed: {err}"),
            }
        }
        assert_eq!(won.len(), 1, "round {round} winners: {won:?}");
        winners.extend(won);
    }

    let combat = combats::get(db.conn(), combat_id).await?;
    assert_eq!(combat.version, rounds);
    assert_eq!(combat.state, format!("state after {}", winners[winners.len() - 1]));
    let log = combats::events(db.conn(), combat_id).await?;
    let seqs: Vec<i64> = log.iter().map(|row| row.seq).collect();
    assert_eq!(seqs, (1..=rounds).collect::<Vec<_>>());
    let commands: Vec<String> = log.into_iter().map(|row| row.command).collect();
    let expected: Vec<String> = winners.iter().map(|tag| format!("command {tag}")).collect();
    assert_eq!(commands, expected);
    Ok(())
}

/// A SQLite file runs in WAL mode with `synchronous = NORMAL` on each pooled connection.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_file_runs_in_wal_with_synchronous_normal() {
    common::run(common::Backend::SqliteFile, |db| async move {
        assert_eq!(db.backend(), service::Backend::Sqlite);
        let conn = db.conn();
        // The pool's one connection (writers queue in-process rather than in SQLite's busy handler).
        let journal: String = pragma(conn, "journal_mode").await?;
        let synchronous: i32 = pragma(conn, "synchronous").await?;
        assert_eq!((journal.as_str(), synchronous), ("wal", 1));
        Ok(())
    })
    .await;
}

async fn pragma<T: sea_orm::TryGetable>(conn: &impl ConnectionTrait, name: &str) -> Result<T, ServiceError> {
    let row = conn
        .query_one_raw(Statement::from_string(DbBackend::Sqlite, format!("PRAGMA {name}")))
        .await?
        .expect("a PRAGMA returns a row");
    Ok(row.try_get_by_index(0)?)
}

/// A SQLite file's WAL is copied into the database in the background: commands never pay
/// for a checkpoint (and its two fsyncs) at commit, and SQLite's own automatic checkpoint is
/// only a far-off backstop.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_file_wal_is_checkpointed_in_the_background() {
    let path = std::env::temp_dir().join(format!(
        "gogobee-checkpoint-{}-{}.db",
        std::process::id(),
        Utc::now().timestamp_nanos_opt().unwrap_or_default()
    ));
    let db = Db::connect(&format!("sqlite://{}?mode=rwc", path.display()))
        .await
        .expect("open a SQLite file");
    let backstop: i64 = pragma(db.conn(), "wal_autocheckpoint").await.expect("a pragma");
    assert!(
        backstop > 10_000,
        "the automatic checkpoint is only a backstop: {backstop} pages"
    );
    // Let the checkpointer copy the schema, then write enough to grow the database.
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    let size = || std::fs::metadata(&path).map(|m| m.len()).unwrap_or_default();
    let before = size();
    let svc = service::Service::new(db.clone());
    let camp = svc
        .campaign_for("guild", "channel", now())
        .await
        .expect("a campaign")
        .id;
    for i in 0..200 {
        svc.create_character(
            camp,
            &format!("player-{i}"),
            &format!("Hero {i}"),
            "human",
            "fighter",
            now(),
        )
        .await
        .expect("a character");
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while size() <= before {
        assert!(
            std::time::Instant::now() < deadline,
            "the database file stayed at {before} bytes: nothing checkpointed the WAL"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    drop(svc);
    db.close().await.expect("close");
    service::remove_sqlite_files(&path);
}
