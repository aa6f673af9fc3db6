//! The campaign's turn timer: a fight waiting on an idle player moves on when the turn has run
//! out, not before; it bounds the turn (a command within the turn leaves it be); ending the turn
//! first starts the next wait's count; `0` turns it off; the halted tick timeline moves on — each
//! on in-memory SQLite, a SQLite file and PostgreSQL (see `common`). The fight keeps one timer row
//! for all its waits and windows (`COMBAT_TIMER`), which may fire early and is armed again.

#[macro_use]
mod common;

use chrono::{Duration, TimeZone, Utc};
use engine::{Combat, CombatantId};
use sea_orm::{ActiveModelTrait, ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};
use service::entity::timer;
use service::{COMBAT_TIMER, CombatUpdate, DateTimeUtc, Db, Fired, Service, ServiceError, TURN_TIMEOUT};

on_every_backend! {
    idle_player_turn_ends_after_the_timeout => crate::idle_player_turn_ends_after_the_timeout;
    a_command_first_makes_the_timer_stale => crate::a_command_first_makes_the_timer_stale;
    the_timer_bounds_the_turn_not_each_command => crate::the_timer_bounds_the_turn_not_each_command;
    zero_turns_the_timer_off => crate::zero_turns_the_timer_off;
    halted_timeline_moves_on_after_the_timeout => crate::halted_timeline_moves_on_after_the_timeout;
}

/// A fixed clock: tests never read the real one.
fn now() -> DateTimeUtc {
    Utc.with_ymd_and_hms(2026, 11, 29, 12, 0, 0).unwrap()
}

const CHANNEL: &str = "channel-1";
const WORKER: &str = "test-worker";

/// A campaign with `ruleset`, Jo the fighter and a goblin, the fight begun.
async fn fight(svc: &Service, ruleset: &str, turn_timeout: Option<i64>) -> Result<(i64, CombatUpdate), ServiceError> {
    let camp = svc.campaign_for("guild", CHANNEL, now()).await?.id;
    svc.set_ruleset(camp, ruleset).await?;
    if let Some(secs) = turn_timeout {
        svc.set_turn_timeout(camp, secs).await?;
    }
    svc.create_character(camp, "jo", "Jo", "human", "fighter", now())
        .await?;
    svc.gm_set_level(camp, "jo", 12).await?;
    svc.gm_spawn(camp, CHANNEL, "goblin", 1, now()).await?;
    let update = svc.start_combat(camp, CHANNEL, "jo", now()).await?;
    Ok((camp, update))
}

/// Jo, whom the fight waits on.
fn jo(combat: &Combat) -> CombatantId {
    let id = service::cmd::turn_timer::awaited(combat).expect("the fight waits on a player");
    assert_eq!(combat.get(id).player_id(), Some("jo"));
    id
}

async fn pending_turn_timers(db: &Db) -> Result<Vec<timer::Model>, ServiceError> {
    Ok(timer::Entity::find()
        .filter(timer::Column::Kind.eq(COMBAT_TIMER))
        .filter(timer::Column::FiredAt.is_null())
        .all(db.conn())
        .await?)
}

fn timed_out(fired: &[Fired]) -> Vec<&service::TurnTimedOut> {
    fired
        .iter()
        .filter_map(|f| match f {
            Fired::TurnTimedOut(ended) => Some(ended.as_ref()),
            _ => None,
        })
        .collect()
}

/// Fires whatever timers are due at each of `at` (seconds after `now()`), in order, as the
/// scheduler would; the turns that timed out.
async fn fire_at(svc: &Service, at: &[i64]) -> Result<Vec<service::TurnTimedOut>, ServiceError> {
    let mut ended = Vec::new();
    for secs in at {
        let fired = svc.fire_due_timers(now() + Duration::seconds(*secs), WORKER).await?;
        ended.extend(timed_out(&fired).into_iter().cloned());
    }
    Ok(ended)
}

async fn idle_player_turn_ends_after_the_timeout(db: Db) -> Result<(), ServiceError> {
    let svc = Service::with_seed(db.clone(), 11);
    let (camp, start) = fight(&svc, "gogobee", None).await?;
    jo(&start.combat);
    let round = start.combat.round;
    // One timer for the fight, due no later than the default five minutes after the fight
    // began waiting on Jo (the reaction timeout, 30 s, arms it sooner: it fires early and
    // is armed again).
    let timers = pending_turn_timers(&db).await?;
    assert_eq!(timers.len(), 1);
    assert!(timers[0].due_at <= now() + Duration::seconds(300));
    assert_eq!(timers[0].payload["combat_id"], start.combat_id);
    let first = timers[0].id;

    // Not a second before the five minutes: the early firings change nothing.
    assert!(fire_at(&svc, &[30, 60, 150, 299]).await?.is_empty());
    assert_eq!(svc.combat_status(camp, CHANNEL).await?.version, start.version);
    let ended = fire_at(&svc, &[300]).await?;
    assert_eq!(ended.len(), 1, "{ended:?}");
    assert_eq!(ended[0].name, "Jo");
    let update = &ended[0].update;
    assert_eq!(update.version, start.version + 1);
    assert!(
        update
            .events
            .iter()
            .any(|e| matches!(e, engine::Event::TurnEnded { .. })),
        "{:?}",
        update.events
    );
    // The goblin took its turn; the fight waits on Jo again, in the next round: five minutes
    // from this turn's start, kept by the same timer.
    if update.combat.outcome.is_none() {
        jo(&update.combat);
        assert!(update.combat.round > round);
        let timers = pending_turn_timers(&db).await?;
        assert_eq!(timers.len(), 1);
        assert_eq!(timers[0].id, first);
        assert!(timers[0].due_at <= now() + Duration::seconds(600));
        assert!(fire_at(&svc, &[330, 599]).await?.is_empty());
        let again = fire_at(&svc, &[600]).await?;
        assert_eq!(again.len(), 1, "{again:?}");
        assert_eq!(again[0].update.version, update.version + 1);
    }
    Ok(())
}

async fn a_command_first_makes_the_timer_stale(db: Db) -> Result<(), ServiceError> {
    let svc = Service::with_seed(db.clone(), 11);
    let (camp, start) = fight(&svc, "gogobee", None).await?;
    // Jo ends the turn herself ten seconds in: the next wait on her has its own five minutes,
    // so nothing times out at the first turn's end — nor in a process that loads the fight anew.
    let acted = svc.end_turn(camp, CHANNEL, "jo", now() + Duration::seconds(10)).await?;
    // A fresh process rebuilds the fight from its log, and with it when the wait began.
    let svc = Service::with_seed(db.clone(), 11);
    assert!(fire_at(&svc, &[300]).await?.is_empty());
    let status = svc.combat_status(camp, CHANNEL).await?;
    assert_eq!(status.version, acted.version);
    // A turn timer left over from an older version (say, by a crash before the fight's one timer (`m20261210_000013`)) is not
    // the fight's: it is deleted and the combat is unchanged.
    let stale = timer::ActiveModel {
        kind: Set(TURN_TIMEOUT.to_owned()),
        campaign_id: Set(Some(camp)),
        due_at: Set(now()),
        payload: Set(serde_json::json!({
            "combat_id": start.combat_id,
            "version": start.version,
            "combatant": jo(&start.combat).0,
        })),
        ..Default::default()
    }
    .insert(db.conn())
    .await?;
    assert!(fire_at(&svc, &[301]).await?.is_empty());
    assert!(timer::Entity::find_by_id(stale.id).one(db.conn()).await?.is_none());
    assert_eq!(svc.combat_status(camp, CHANNEL).await?.version, acted.version);
    // The next wait ends five minutes after Jo's command.
    if acted.combat.outcome.is_none() {
        assert!(fire_at(&svc, &[309]).await?.is_empty());
        let ended = fire_at(&svc, &[310]).await?;
        assert_eq!(ended.len(), 1, "{ended:?}");
        assert_eq!(ended[0].update.version, acted.version + 1);
    }
    Ok(())
}

async fn the_timer_bounds_the_turn_not_each_command(db: Db) -> Result<(), ServiceError> {
    let svc = Service::with_seed(db.clone(), 11);
    let (camp, start) = fight(&svc, "gogobee", None).await?;
    let first = pending_turn_timers(&db).await?.remove(0);
    // Jo dodges ten seconds in: still her turn, so the same timer stands.
    let acted = svc
        .act(
            camp,
            CHANNEL,
            "jo",
            &service::PlayerCommand::Dodge,
            now() + Duration::seconds(10),
        )
        .await?;
    assert_eq!(acted.version, start.version + 1);
    assert_eq!(jo(&acted.combat), jo(&start.combat), "still Jo's turn");
    let timers = pending_turn_timers(&db).await?;
    assert_eq!(timers.len(), 1);
    assert_eq!((timers[0].id, timers[0].due_at), (first.id, first.due_at));
    // And it ends her turn five minutes after the turn began, not after her command.
    assert!(fire_at(&svc, &[299]).await?.is_empty());
    let ended = fire_at(&svc, &[300]).await?;
    assert_eq!(ended.len(), 1);
    assert_eq!(ended[0].update.version, acted.version + 1);
    Ok(())
}

async fn zero_turns_the_timer_off(db: Db) -> Result<(), ServiceError> {
    let svc = Service::with_seed(db.clone(), 11);
    let camp = svc.campaign_for("guild", CHANNEL, now()).await?.id;
    for bad in [-1, 86_401, i64::MAX] {
        let err = svc.set_turn_timeout(camp, bad).await.unwrap_err();
        assert!(matches!(err, ServiceError::InvalidInput(_)), "{err:?}");
    }
    assert_eq!(svc.set_turn_timeout(camp, 60).await?, 60);
    let (_, start) = fight(&svc, "gogobee", Some(0)).await?;
    jo(&start.combat);
    assert!(pending_turn_timers(&db).await?.is_empty());
    assert_eq!(svc.next_timer_due().await?, None);
    assert!(svc.fire_due_timers(now() + Duration::days(1), WORKER).await?.is_empty());
    assert_eq!(svc.combat_status(camp, CHANNEL).await?.version, start.version);
    Ok(())
}

async fn halted_timeline_moves_on_after_the_timeout(db: Db) -> Result<(), ServiceError> {
    let svc = Service::with_seed(db.clone(), 11);
    let (camp, start) = fight(&svc, "ticks", Some(60)).await?;
    let me = jo(&start.combat);
    assert_eq!(start.combat.model.timeline.awaiting, Some(me));
    let tick = start.combat.model.tick;
    let timers = pending_turn_timers(&db).await?;
    assert_eq!(timers.len(), 1);
    assert!(timers[0].due_at <= now() + Duration::seconds(60));
    assert!(fire_at(&svc, &[30, 59]).await?.is_empty());
    let ended = fire_at(&svc, &[60]).await?;
    assert_eq!(ended.len(), 1, "{ended:?}");
    let update = &ended[0].update;
    // Jo waited a tick (the cheapest thing to commit) and the timeline ran on.
    assert!(update.combat.model.tick > tick, "the timeline did not move");
    assert_eq!(svc.combat_status(camp, CHANNEL).await?.version, update.version);
    Ok(())
}
