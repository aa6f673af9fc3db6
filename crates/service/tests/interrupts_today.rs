//! Per-day Interrupts (seed 001 "Per day: Resets after long rest"), on every
//! backend: the TDGS Interrupt uses a character spent today (a Cleric's Divine Intervention,
//! 1/day) are kept on its row when a fight ends and given back to it when it joins the day's
//! next fight; on a new day nothing is carried, and the next fight's end clears the row.

#[macro_use]
mod common;

use chrono::{Duration, TimeZone, Utc};
use engine::ReactionKind;
use engine::timing::tdgs::{self, InterruptUses};
use service::InterruptsToday;
use service::repo::characters;
use service::{DateTimeUtc, Db, Service, ServiceError};

on_every_backend! {
    a_day_s_interrupt_uses_follow_the_character_into_its_next_fight => crate::a_day_s_interrupt_uses_follow_the_character_into_its_next_fight;
}

fn now() -> DateTimeUtc {
    Utc.with_ymd_and_hms(2026, 12, 1, 12, 0, 0).unwrap()
}

const CHANNEL: &str = "chapel";

/// Ced's Divine Intervention uses as the fight in the channel holds them: (may use it now, day count).
async fn intervention_in_fight(svc: &Service, camp: i64) -> Result<(bool, u32), ServiceError> {
    let update = svc.combat_status(camp, CHANNEL).await?;
    let ced = update.combat.by_name("Ced")?;
    let day = ced
        .tdgs()
        .uses
        .iter()
        .find(|u| u.kind == ReactionKind::DivineIntervention)
        .map_or(0, |u| u.day);
    Ok((tdgs::may_interrupt(ced, ReactionKind::DivineIntervention), day))
}

/// A fight in the channel: a goblin, Ced joins (at `at`) and it starts; then the GM ends it.
async fn a_fight(svc: &Service, camp: i64, at: DateTimeUtc) -> Result<(bool, u32), ServiceError> {
    svc.gm_spawn(camp, CHANNEL, "goblin", 1, at).await?;
    svc.join_combat(camp, CHANNEL, "bob", at).await?;
    svc.start_combat(camp, CHANNEL, "bob", at).await?;
    let seen = intervention_in_fight(svc, camp).await?;
    svc.gm_end_combat(camp, CHANNEL, at).await?;
    Ok(seen)
}

async fn a_day_s_interrupt_uses_follow_the_character_into_its_next_fight(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db.clone());
    let camp = svc.campaign_for("guild", CHANNEL, now()).await?.id;
    svc.set_ruleset(camp, "tdgs").await?;
    let ced = svc
        .create_character(camp, "bob", "Ced", "human", "cleric", now())
        .await?;
    // A fresh cleric: Divine Intervention is there, and a fight's end keeps nothing.
    assert_eq!(a_fight(&svc, camp, now()).await?, (true, 0));
    assert_eq!(
        characters::get(db.conn(), ced.character_id).await?.interrupts_today,
        None
    );
    // Earlier today Ced called on their god (as a fight's end leaves it on the row).
    let spent = InterruptsToday {
        day: now().date_naive(),
        uses: vec![InterruptUses {
            kind: ReactionKind::DivineIntervention,
            round: 0,
            scene: 0,
            day: 1,
        }],
    };
    let row = characters::get(db.conn(), ced.character_id).await?;
    characters::modify(db.conn(), row, |row| {
        row.interrupts_today = Some(serde_json::to_string(&spent).unwrap());
        Ok(())
    })
    .await?;
    // The day's next fight: spent, and still spent on the row after it.
    let later = now() + Duration::hours(3);
    assert_eq!(a_fight(&svc, camp, later).await?, (false, 1));
    let kept: InterruptsToday = serde_json::from_str(
        &characters::get(db.conn(), ced.character_id)
            .await?
            .interrupts_today
            .unwrap(),
    )
    .unwrap();
    assert_eq!(kept, spent);
    // A long rest at the inn gives them back the same day, even at full HP (and costs its coins).
    let rested_at = later + Duration::hours(1);
    let before = characters::get(db.conn(), ced.character_id).await?;
    characters::modify(db.conn(), before, |row| {
        row.hp = row.max_hp;
        row.coins = 100;
        Ok(())
    })
    .await?;
    let rested = svc
        .rest(camp, "bob", service::cmd::rest::RestKind::Long, rested_at)
        .await?;
    assert!(rested.interrupts_restored);
    assert!(rested.cost > 0 && rested.coins_left == 100 - rested.cost);
    assert_eq!(
        characters::get(db.conn(), ced.character_id).await?.interrupts_today,
        None
    );
    assert_eq!(a_fight(&svc, camp, rested_at).await?, (true, 0));
    // Spent again and a short rest at full HP: refused, nothing changes.
    let row = characters::get(db.conn(), ced.character_id).await?;
    characters::modify(db.conn(), row, |row| {
        row.interrupts_today = Some(serde_json::to_string(&spent).unwrap());
        row.hp = row.max_hp;
        Ok(())
    })
    .await?;
    assert!(matches!(
        svc.rest(camp, "bob", service::cmd::rest::RestKind::Short, rested_at)
            .await,
        Err(ServiceError::InvalidInput(_))
    ));
    assert!(
        characters::get(db.conn(), ced.character_id)
            .await?
            .interrupts_today
            .is_some()
    );
    // The next day: back, and the fight's end clears the row.
    let tomorrow = now() + Duration::days(1);
    assert_eq!(a_fight(&svc, camp, tomorrow).await?, (true, 0));
    assert_eq!(
        characters::get(db.conn(), ced.character_id).await?.interrupts_today,
        None
    );
    Ok(())
}
