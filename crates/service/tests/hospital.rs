//! Death and the Hospital (seed 000 §8) through the service, on every backend: admission in
//! the killing command's transaction (fee with its zone, cleric and cap modifiers; materials
//! dropped; streak reset; expedition abandoned; gear kept), `/hospital pay` with and without
//! the coins, the debt's XP penalty until it is paid, the recovery rest blocking expeditions
//! and nothing else, and the rest ending through the scheduler — on time with a virtual clock,
//! at once after a restart, under a paused tokio clock, and exactly once with two workers
//! racing over thousands of timers. (The numbers themselves are tested in `engine::hospital`.)

#[macro_use]
mod common;

use std::collections::HashMap;
use std::time::Duration as StdDuration;

use chrono::{Duration, TimeZone, Utc};
use engine::{Event, RuleViolation};
use sea_orm::{ActiveModelTrait, ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};
use service::cmd::gm::HpAdjusted;
use service::entity::{character, debt, expedition, hospital_record, timer};
use service::{
    Admission, CombatUpdate, DateTimeUtc, Db, Fired, Notice, Payment, PlayerCommand, RECOVERY_REST, Service,
    ServiceError,
};

on_every_backend! {
    death_admits_to_the_hospital => crate::death_admits_to_the_hospital;
    the_fee_counts_a_cleric_ally_and_is_capped => crate::the_fee_counts_a_cleric_ally_and_is_capped;
    paying_starts_a_rest_that_blocks_expeditions_and_nothing_else => crate::paying_starts_a_rest_that_blocks_expeditions_and_nothing_else;
    an_unpaid_fee_becomes_a_debt_that_costs_xp_until_paid => crate::an_unpaid_fee_becomes_a_debt_that_costs_xp_until_paid;
    the_fee_never_exceeds_forty_percent_of_the_current_coin_balance => crate::the_fee_never_exceeds_forty_percent_of_the_current_coin_balance;
    a_rest_due_while_down_ends_at_once_on_restart => crate::a_rest_due_while_down_ends_at_once_on_restart;
    setting_out_after_the_rest_discharges_once => crate::setting_out_after_the_rest_discharges_once;
    two_workers_fire_each_of_two_thousand_timers_once => crate::two_workers_fire_each_of_two_thousand_timers_once;
}

fn now() -> DateTimeUtc {
    Utc.with_ymd_and_hms(2026, 11, 29, 12, 0, 0).unwrap()
}

const CHANNEL: &str = "channel-1";

async fn campaign(svc: &Service) -> Result<i64, ServiceError> {
    Ok(svc.campaign_for("guild", CHANNEL, now()).await?.id)
}

/// A character of `class` at `level` holding exactly `coins`.
async fn hero(
    svc: &Service,
    camp: i64,
    player: &str,
    class: &str,
    level: u32,
    coins: i64,
) -> Result<character::Model, ServiceError> {
    svc.create_character(camp, player, &capitalise(player), "human", class, now())
        .await?;
    svc.gm_set_level(camp, player, level).await?;
    let held = svc.inventory(camp, player).await?.coins;
    svc.gm_grant_coins(camp, player, coins - held).await?;
    Ok(service::repo::characters::for_player(svc.db().conn(), camp, player)
        .await?
        .expect("created"))
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// Drops `name` to 0 HP and hits them while downed until three failures kill them; returns the
/// killing update.
async fn kill(svc: &Service, camp: i64, channel: &str, name: &str) -> Result<CombatUpdate, ServiceError> {
    let mut delta = -1000;
    for _ in 0..5 {
        let HpAdjusted::InCombat(update) = svc.gm_adjust_hp(camp, channel, name, delta, now()).await? else {
            panic!("{name} is not in the fight");
        };
        if update.events.iter().any(|e| matches!(e, Event::Died { .. })) {
            return Ok(update);
        }
        delta = -1;
    }
    panic!("{name} did not die");
}

fn admission(update: &CombatUpdate) -> &Admission {
    update
        .notices
        .iter()
        .find_map(|n| match n {
            Notice::Admitted(a) => Some(a),
            _ => None,
        })
        .expect("an admission notice")
}

/// A fight in `channel` against a goblin, with the given players in it, begun.
async fn gm_fight(svc: &Service, camp: i64, channel: &str, players: &[&str]) -> Result<CombatUpdate, ServiceError> {
    svc.gm_spawn(camp, channel, "goblin", 1, now()).await?;
    for p in players {
        svc.join_combat(camp, channel, p, now()).await?;
    }
    svc.start_combat(camp, channel, players[0], now()).await
}

/// `vic` (level 7 fighter, 1,000 coins, arena streak 5) dies in a Feywild Crossing (tier 4)
/// encounter holding harvested materials, with a fighter ally beside them.
async fn die_on_an_expedition(svc: &Service, camp: i64) -> Result<(character::Model, CombatUpdate), ServiceError> {
    let before = hero(svc, camp, "vic", "fighter", 7, 1000).await?;
    hero(svc, camp, "ally", "fighter", 10, 0).await?;
    character::Entity::update_many()
        .col_expr(character::Column::ArenaStreak, sea_orm::sea_query::Expr::value(5))
        .filter(character::Column::Id.eq(before.id))
        .exec(svc.db().conn())
        .await?;
    svc.start_expedition(camp, "vic", "feywild crossing", now()).await?;
    let mut fight = None;
    for _ in 0..10 {
        if let Some(f) = svc.advance(camp, CHANNEL, "vic", now()).await?.encounter {
            fight = Some(f);
            break;
        }
    }
    let fight = fight.expect("an encounter");
    let exp_id = svc.expedition(camp, "vic").await?.expect("exploring").expedition_id;
    expedition::Entity::update(expedition::ActiveModel {
        id: Set(exp_id),
        harvested_materials: Set(serde_json::json!(["Fey silk", "Fey silk"])),
        ..Default::default()
    })
    .exec(svc.db().conn())
    .await?;
    assert!(fight.combat.outcome.is_none());
    svc.join_combat(camp, CHANNEL, "ally", now()).await?;
    let killed = kill(svc, camp, CHANNEL, "Vic").await?;
    // The fight goes on for the ally, until the GM calls it. The dead take no part in it and
    // have left it: out-of-combat commands work.
    assert!(killed.combat.outcome.is_none());
    assert!(matches!(
        svc.act(camp, CHANNEL, "vic", &PlayerCommand::Dodge, now()).await,
        Err(ServiceError::Dead { .. })
    ));
    svc.unequip(camp, "vic", "shield").await?;
    svc.equip(camp, "vic", "shield", false).await?;
    svc.gm_end_combat(camp, CHANNEL, now()).await?;
    Ok((before, killed))
}

async fn death_admits_to_the_hospital(db: Db) -> Result<(), ServiceError> {
    let svc = Service::with_seed(db.clone(), 21);
    let camp = campaign(&svc).await?;
    let (before, killed) = die_on_an_expedition(&svc, camp).await?;
    let a = admission(&killed);
    // Level 7: 120; tier 4: +15 % = 138; 40 % of 1,000 = 400 does not bite.
    assert_eq!((a.fee.base, a.fee.fee, a.fee.capped), (120, 138, false));
    assert_eq!((a.tier, a.cleric_in_party, a.coins), (4, false, 1000));
    assert_eq!(a.expedition_abandoned.as_deref(), Some("Feywild Crossing"));
    assert_eq!(a.materials_lost, vec!["Fey silk".to_owned(), "Fey silk".to_owned()]);

    let record = hospital_record::Entity::find()
        .filter(hospital_record::Column::CharacterId.eq(before.id))
        .one(db.conn())
        .await?
        .expect("a hospital record");
    assert_eq!(record.fee, 138);
    assert_eq!(record.zone_died_in, "Feywild Crossing");
    assert_eq!(record.admitted_at, now());
    assert!(!record.fee_paid && record.paid_at.is_none() && record.recovery_ends.is_none());
    assert_eq!(record.death_saves["failures"], 3);
    let exp = expedition::Entity::find_by_id(record.expedition_id.expect("expedition"))
        .one(db.conn())
        .await?
        .expect("row");
    assert_eq!(exp.status, "abandoned");
    assert_eq!(exp.harvested_materials, serde_json::json!([]));

    // Kept: level, XP, gear, inventory, coins (until the fee is paid), pet, housing.
    let after = service::repo::characters::get(db.conn(), before.id).await?;
    assert_eq!(after.arena_streak, 0);
    assert_eq!(after.hp, 0);
    assert_eq!(
        (
            after.level,
            after.xp,
            after.coins,
            &after.weapon,
            &after.armor,
            &after.shield
        ),
        (
            before.level,
            before.xp,
            before.coins,
            &before.weapon,
            &before.armor,
            &before.shield
        )
    );
    assert_eq!((&after.inventory, &after.gear), (&before.inventory, &before.gear));
    assert_eq!((&after.pet, &after.housing), (&before.pet, &before.housing));

    // No expedition, and no fight, before the fee is settled.
    assert!(matches!(
        svc.start_expedition(camp, "vic", "underdark", now()).await,
        Err(ServiceError::InHospital { fee: 138, .. })
    ));
    let view = svc.hospital(camp, "vic", now()).await?;
    assert_eq!((view.awaiting_payment, view.debt, view.rest), (Some(138), 0, None));
    Ok(())
}

async fn the_fee_counts_a_cleric_ally_and_is_capped(db: Db) -> Result<(), ServiceError> {
    let svc = Service::with_seed(db.clone(), 4);
    let camp = campaign(&svc).await?;
    // Outside any zone (a GM fight): tier 3, the base. A Cleric ally: −25 %.
    hero(&svc, camp, "vic", "fighter", 7, 1000).await?;
    hero(&svc, camp, "cleo", "cleric", 10, 0).await?;
    gm_fight(&svc, camp, "chapel", &["vic", "cleo"]).await?;
    let killed = kill(&svc, camp, "chapel", "Vic").await?;
    let a = admission(&killed);
    assert_eq!((a.tier, a.zone, a.cleric_in_party), (3, None, true));
    assert_eq!((a.fee.after_zone, a.fee.fee), (120, 90));
    let record = hospital_record::Entity::find()
        .filter(hospital_record::Column::PlayerId.eq("vic"))
        .one(db.conn())
        .await?
        .expect("record");
    assert_eq!((record.zone_died_in.as_str(), record.expedition_id), ("none", None));

    // Poor: 100 coins caps a level-16 fee (600) at 40.
    hero(&svc, camp, "poor", "wizard", 16, 100).await?;
    hero(&svc, camp, "pal", "fighter", 10, 0).await?;
    gm_fight(&svc, camp, "alley", &["poor", "pal"]).await?;
    let a = admission(&kill(&svc, camp, "alley", "Poor").await?).clone();
    assert_eq!(
        (a.fee.after_cleric, a.fee.cap, a.fee.fee, a.fee.capped),
        (600, 40, 40, true)
    );
    // Broke: nothing held, nothing charged.
    hero(&svc, camp, "broke", "rogue", 3, 0).await?;
    hero(&svc, camp, "mate", "fighter", 10, 0).await?;
    gm_fight(&svc, camp, "gutter", &["broke", "mate"]).await?;
    assert_eq!(admission(&kill(&svc, camp, "gutter", "Broke").await?).fee.fee, 0);
    Ok(())
}

async fn paying_starts_a_rest_that_blocks_expeditions_and_nothing_else(db: Db) -> Result<(), ServiceError> {
    let svc = Service::with_seed(db.clone(), 21);
    let camp = campaign(&svc).await?;
    let (before, _) = die_on_an_expedition(&svc, camp).await?;
    let paid_at = now() + Duration::minutes(5);
    let paid = svc.hospital_pay(camp, "inn", "vic", paid_at).await?;
    assert_eq!(
        paid.payment,
        Payment::Paid {
            fee: 138,
            admission_fee: 138,
            rest: Duration::hours(4),
            coins_left: 862
        }
    );
    // The rest is a timer, written with the payment.
    let rest = timer::Entity::find()
        .filter(timer::Column::Kind.eq(RECOVERY_REST))
        .one(db.conn())
        .await?
        .expect("a rest timer");
    let ends = paid_at + Duration::hours(4);
    assert_eq!((rest.due_at, rest.fired_at), (ends, None));
    assert_eq!(rest.payload["channel_id"], "inn");
    assert_eq!(svc.next_timer_due().await?, Some(ends));
    // Paying again: nothing owed.
    assert_eq!(
        svc.hospital_pay(camp, "inn", "vic", paid_at).await?.payment,
        Payment::NothingOwed
    );

    // An hour in: no expedition (with the time left), everything else open.
    let later = paid_at + Duration::hours(1);
    match svc.start_expedition(camp, "vic", "underdark", later).await {
        Err(ServiceError::Resting { remaining, .. }) => assert_eq!(remaining, Duration::hours(3)),
        other => panic!("expected a rest refusal, got {other:?}"),
    }
    let view = svc.hospital(camp, "vic", later).await?;
    assert_eq!(view.rest, Some((ends, Duration::hours(3))));
    svc.sheet(camp, "vic").await?;
    svc.inventory(camp, "vic").await?;
    svc.unequip(camp, "vic", "shield").await?;
    svc.equip(camp, "vic", "shield", false).await?;
    svc.roll("1d20+5")?;

    // The scheduler ends the rest on time, exactly once.
    assert!(svc.fire_due_timers(ends - Duration::seconds(1), "w1").await?.is_empty());
    let fired = svc.fire_due_timers(ends, "w1").await?;
    assert_eq!(fired.len(), 1);
    let Fired::RestOver {
        player_id, channel_id, ..
    } = &fired[0]
    else {
        panic!("expected a rest-over, got {fired:?}");
    };
    assert_eq!((player_id.as_str(), channel_id.as_deref()), ("vic", Some("inn")));
    assert!(svc.fire_due_timers(ends + Duration::hours(1), "w1").await?.is_empty());
    assert_eq!(svc.next_timer_due().await?, None);
    let fired_row = timer::Entity::find_by_id(rest.id).one(db.conn()).await?.expect("kept");
    assert_eq!(
        (fired_row.fired_at, fired_row.claimed_by.as_deref()),
        (Some(ends), Some("w1"))
    );
    let sheet = svc.sheet(camp, "vic").await?;
    assert_eq!(sheet.hp, sheet.max_hp);

    // The first outing after the stay is TwinBee's return; the next is an ordinary start.
    let back = svc.start_expedition(camp, "vic", "underdark", ends).await?;
    assert!(back.returning_from_hospital);
    svc.leave_expedition(camp, "vic", ends).await?;
    let again = svc.start_expedition(camp, "vic", "underdark", ends).await?;
    assert!(!again.returning_from_hospital);
    let after = service::repo::characters::get(db.conn(), before.id).await?;
    assert_eq!(after.coins, 862);
    Ok(())
}

/// Plays `players`' turns (close, attack, end turn; take offered reactions) until the fight ends.
async fn win(svc: &Service, camp: i64, channel: &str, mut update: CombatUpdate) -> Result<CombatUpdate, ServiceError> {
    let at = now() + Duration::days(1);
    for _ in 0..500 {
        if update.combat.outcome.is_some() {
            return Ok(update);
        }
        if let Some(window) = &update.combat.window {
            let player = update.combat.get(window.reactor).player_id().unwrap().to_owned();
            let label = window.options[0].label();
            update = svc
                .react(camp, channel, &player, label, update.window_token, at)
                .await?;
            continue;
        }
        let current = update.combat.get(update.combat.current().expect("a turn"));
        let player = current.player_id().expect("monsters act inside apply").to_owned();
        let enemy = update
            .combat
            .combatants
            .iter()
            .find(|c| c.side == engine::Side::Enemies && !c.is_dead())
            .map(|c| c.name.clone())
            .unwrap();
        let attack = PlayerCommand::Attack {
            target: Some(enemy.clone()),
        };
        update = match svc.act(camp, channel, &player, &attack, at).await {
            Ok(u) => u,
            Err(ServiceError::Rules(RuleViolation::OutOfReach { .. })) => {
                svc.act(camp, channel, &player, &PlayerCommand::MoveMelee { target: enemy }, at)
                    .await?
            }
            Err(ServiceError::Rules(RuleViolation::ResourceSpent { .. } | RuleViolation::Incapacitated)) => {
                svc.end_turn(camp, channel, &player, at).await?
            }
            Err(err) => return Err(err),
        };
    }
    panic!("the fight did not end");
}

/// The XP `player` gained in a won fight, and the fight's total.
async fn xp_from_a_won_fight(
    svc: &Service,
    camp: i64,
    channel: &str,
    player: &str,
) -> Result<(u32, u32), ServiceError> {
    svc.gm_spawn(camp, channel, "goblin", 2, now()).await?;
    svc.join_combat(camp, channel, player, now()).await?;
    let start = svc.start_combat(camp, channel, player, now()).await?;
    let end = win(svc, camp, channel, start).await?;
    let settled = end
        .notices
        .iter()
        .find_map(|n| match n {
            Notice::Settled(s) => Some(s),
            _ => None,
        })
        .expect("settled");
    assert_eq!(settled.outcome, engine::Outcome::Victory);
    Ok((settled.shares[0].xp, settled.xp_total))
}

async fn an_unpaid_fee_becomes_a_debt_that_costs_xp_until_paid(db: Db) -> Result<(), ServiceError> {
    let svc = Service::with_seed(db.clone(), 21);
    let camp = campaign(&svc).await?;
    let (before, _) = die_on_an_expedition(&svc, camp).await?;
    // A debt stored before the cap at payment (a fee deferred when the coins were gone): it
    // still costs XP until paid. Paying the fee now starts the rest.
    svc.hospital_pay(camp, CHANNEL, "vic", now()).await?;
    svc.gm_grant_coins(camp, "vic", -862 + 100).await?;
    let record = hospital_record::Entity::find().one(db.conn()).await?.expect("record");
    debt::ActiveModel {
        character_id: Set(before.id),
        hospital_record_id: Set(Some(record.id)),
        amount: Set(138),
        created_at: Set(now()),
        paid_at: Set(None),
        ..Default::default()
    }
    .insert(db.conn())
    .await?;
    assert_eq!(svc.hospital(camp, "vic", now()).await?.debt, 138);
    assert_eq!(
        svc.hospital_pay(camp, CHANNEL, "vic", now()).await?.payment,
        Payment::StillOwed {
            amount: 138,
            coins: 100
        }
    );
    let ends = now() + Duration::hours(4);
    assert_eq!(svc.fire_due_timers(ends, "w").await?.len(), 1);

    // In debt: 10 % less XP, rounded down.
    let (gained, total) = xp_from_a_won_fight(&svc, camp, "pit", "vic").await?;
    assert!(total > 0);
    assert_eq!(gained, engine::hospital::xp_gain(total, true));
    assert!(gained < total);
    let xp_in_debt = svc.sheet(camp, "vic").await?.xp;
    assert_eq!(xp_in_debt, u32::try_from(before.xp).unwrap() + gained);

    // Paid later, once the coins are there: the debt is cleared and XP is whole again.
    svc.gm_grant_coins(camp, "vic", 100).await?;
    let coins = svc.inventory(camp, "vic").await?.coins;
    assert_eq!(
        svc.hospital_pay(camp, CHANNEL, "vic", ends).await?.payment,
        Payment::DebtCleared {
            amount: 138,
            coins_left: coins - 138
        }
    );
    let record = hospital_record::Entity::find().one(db.conn()).await?.expect("record");
    assert_eq!((record.fee_paid, record.paid_at), (true, Some(ends)));
    assert_eq!(svc.hospital(camp, "vic", ends).await?.debt, 0);
    let (gained, total) = xp_from_a_won_fight(&svc, camp, "pit", "vic").await?;
    assert_eq!(gained, total);
    Ok(())
}

async fn the_fee_never_exceeds_forty_percent_of_the_current_coin_balance(db: Db) -> Result<(), ServiceError> {
    let svc = Service::with_seed(db.clone(), 21);
    let camp = campaign(&svc).await?;
    let (before, killed) = die_on_an_expedition(&svc, camp).await?;
    // 138 fixed at admission with 1,000 held; 900 spent before paying: 40 % of 100 is 40.
    assert_eq!(admission(&killed).fee.fee, 138);
    svc.gm_grant_coins(camp, "vic", -900).await?;
    let view = svc.hospital(camp, "vic", now()).await?;
    assert_eq!((view.awaiting_payment, view.coins), (Some(40), 100));
    let paid = svc.hospital_pay(camp, CHANNEL, "vic", now()).await?;
    assert_eq!(
        paid.payment,
        Payment::Paid {
            fee: 40,
            admission_fee: 138,
            rest: Duration::hours(4),
            coins_left: 60
        }
    );
    // No debt: the capped fee is the whole fee.
    assert!(debt::Entity::find().all(db.conn()).await?.is_empty());
    let record = hospital_record::Entity::find().one(db.conn()).await?.expect("record");
    assert_eq!((record.fee_paid, record.paid_at), (true, Some(now())));
    assert_eq!(svc.hospital(camp, "vic", now()).await?.debt, 0);
    assert_eq!(service::repo::characters::get(db.conn(), before.id).await?.coins, 60);
    Ok(())
}

async fn a_rest_due_while_down_ends_at_once_on_restart(db: Db) -> Result<(), ServiceError> {
    let first = Service::with_seed(db.clone(), 21);
    let camp = campaign(&first).await?;
    die_on_an_expedition(&first, camp).await?;
    first.hospital_pay(camp, CHANNEL, "vic", now()).await?;
    drop(first);
    // The bot was down past the rest's end; a fresh process fires it at its first look.
    let second = Service::with_seed(db.clone(), 21);
    let restart = now() + Duration::hours(9);
    assert_eq!(second.next_timer_due().await?, Some(now() + Duration::hours(4)));
    let fired = second.fire_due_timers(restart, "w2").await?;
    assert!(matches!(&fired[..], [Fired::RestOver { player_id, .. }] if player_id == "vic"));
    let sheet = second.sheet(camp, "vic").await?;
    assert_eq!(sheet.hp, sheet.max_hp);
    Ok(())
}

async fn setting_out_after_the_rest_discharges_once(db: Db) -> Result<(), ServiceError> {
    let svc = Service::with_seed(db.clone(), 21);
    let camp = campaign(&svc).await?;
    die_on_an_expedition(&svc, camp).await?;
    svc.hospital_pay(camp, CHANNEL, "vic", now()).await?;
    let ends = now() + Duration::hours(4);
    // The player sets out the moment the rest ends, before the scheduler has fired it.
    let view = svc.start_expedition(camp, "vic", "underdark", ends).await?;
    assert!(view.returning_from_hospital);
    let sheet = svc.sheet(camp, "vic").await?;
    assert_eq!(sheet.hp, sheet.max_hp);
    // The timer then fires silently (no second "rest over"), and is done with.
    assert!(svc.fire_due_timers(ends, "w").await?.is_empty());
    assert_eq!(svc.next_timer_due().await?, None);
    Ok(())
}

/// `n` characters in the Hospital, each with a paid fee and a rest timer due at `due(i)`.
pub async fn hospital_full_of_resters(
    db: &Db,
    camp: i64,
    n: usize,
    due: impl Fn(usize) -> DateTimeUtc,
) -> Result<(), ServiceError> {
    let conn = db.conn();
    for chunk in (0..n).collect::<Vec<_>>().chunks(500) {
        let rows = chunk.iter().map(|i| character::ActiveModel {
            campaign_id: Set(camp),
            player_id: Set(format!("p{i}")),
            name: Set(format!("Rester {i}")),
            race: Set("Human".into()),
            class: Set("Fighter".into()),
            level: Set(1),
            xp: Set(0),
            coins: Set(0),
            hp: Set(0),
            max_hp: Set(12),
            inventory: Set(serde_json::json!({})),
            gear: Set(serde_json::json!({})),
            arena_streak: Set(0),
            created_at: Set(now()),
            ..Default::default()
        });
        character::Entity::insert_many(rows).exec(conn).await?;
    }
    let ids: HashMap<String, i64> = character::Entity::find()
        .filter(character::Column::CampaignId.eq(camp))
        .all(conn)
        .await?
        .into_iter()
        .map(|c| (c.player_id, c.id))
        .collect();
    for chunk in (0..n).collect::<Vec<_>>().chunks(500) {
        let rows = chunk.iter().map(|i| hospital_record::ActiveModel {
            character_id: Set(ids[&format!("p{i}")]),
            player_id: Set(format!("p{i}")),
            admitted_at: Set(now()),
            fee: Set(0),
            fee_paid: Set(true),
            paid_at: Set(Some(now())),
            recovery_ends: Set(Some(due(*i))),
            zone_died_in: Set("none".into()),
            death_saves: Set(serde_json::json!({})),
            ..Default::default()
        });
        hospital_record::Entity::insert_many(rows).exec(conn).await?;
    }
    let records: HashMap<i64, i64> = hospital_record::Entity::find()
        .all(conn)
        .await?
        .into_iter()
        .map(|r| (r.character_id, r.id))
        .collect();
    for chunk in (0..n).collect::<Vec<_>>().chunks(500) {
        let rows = chunk.iter().map(|i| {
            let character_id = ids[&format!("p{i}")];
            timer::ActiveModel {
                kind: Set(RECOVERY_REST.into()),
                due_at: Set(due(*i)),
                payload: Set(serde_json::json!({
                    "hospital_record_id": records[&character_id],
                    "character_id": character_id,
                    "player_id": format!("p{i}"),
                    "campaign_id": camp,
                    "channel_id": "inn",
                })),
                ..Default::default()
            }
        });
        timer::Entity::insert_many(rows).exec(conn).await?;
    }
    Ok(())
}

async fn two_workers_fire_each_of_two_thousand_timers_once(db: Db) -> Result<(), ServiceError> {
    const N: usize = 2000;
    let a = Service::with_seed(db.clone(), 1);
    let b = Service::with_seed(db.clone(), 1);
    let camp = campaign(&a).await?;
    // Due over ten virtual seconds; each worker steps its own clock through them.
    hospital_full_of_resters(&db, camp, N, |i| now() + Duration::milliseconds((i * 5) as i64)).await?;
    let worker = |svc: Service, name: &'static str| {
        tokio::spawn(async move {
            let mut seen = Vec::new();
            for step in 0..=110 {
                let at = now() + Duration::milliseconds(step * 100);
                for f in svc.fire_due_timers(at, name).await? {
                    if let Fired::RestOver { player_id, .. } = f {
                        seen.push(player_id);
                    }
                }
            }
            Ok::<_, ServiceError>(seen)
        })
    };
    let (ta, tb) = (worker(a.clone(), "a"), worker(b.clone(), "b"));
    let (sa, sb) = (ta.await.expect("worker a")?, tb.await.expect("worker b")?);
    let mut all: Vec<&String> = sa.iter().chain(sb.iter()).collect();
    let total = all.len();
    all.sort();
    all.dedup();
    assert_eq!((total, all.len()), (N, N), "each rest fires exactly once");
    let rows = timer::Entity::find().all(db.conn()).await?;
    assert!(rows.iter().all(|t| t.fired_at.is_some()));
    let by_worker = |w: &str| rows.iter().filter(|t| t.claimed_by.as_deref() == Some(w)).count();
    assert_eq!(by_worker("a") + by_worker("b"), N);
    assert_eq!((by_worker("a"), by_worker("b")), (sa.len(), sb.len()));
    let healed = character::Entity::find()
        .filter(character::Column::Hp.eq(12))
        .all(db.conn())
        .await?;
    assert_eq!(healed.len(), N);
    Ok(())
}

/// The scheduler loop on the real clock: one task sleeps until the rest is due (woken when the
/// payment schedules it) and fires it. (`tokio::time::pause` cannot drive this loop: its
/// auto-advance jumps over the database pool's acquire timeout while a query is in flight on
/// SQLite's worker thread, failing it with `PoolTimedOut`; the virtual-clock tests above cover
/// the firing logic, this one the sleeping and waking.)
#[tokio::test]
async fn the_scheduler_task_sleeps_until_the_rest_ends() {
    let db = Db::connect("sqlite::memory:").await.expect("database");
    let svc = Service::with_seed(db.clone(), 21);
    let camp = campaign(&svc).await.unwrap();
    die_on_an_expedition(&svc, camp).await.unwrap();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let scheduler = {
        let svc = svc.clone();
        tokio::spawn(async move {
            loop {
                svc.wait_for_timers(Utc::now(), StdDuration::from_secs(30)).await?;
                for fired in svc.fire_due_timers(Utc::now(), "real").await? {
                    tx.send((Utc::now(), fired)).expect("receiver");
                }
            }
            #[allow(unreachable_code)]
            Ok::<(), ServiceError>(())
        })
    };
    // Paid "four hours ago, less 300 ms": the rest ends 300 ms from now.
    let paid_at = Utc::now() - Duration::hours(4) + Duration::milliseconds(300);
    svc.hospital_pay(camp, CHANNEL, "vic", paid_at).await.unwrap();
    let ends = paid_at + Duration::hours(4);
    let (at, fired) = tokio::time::timeout(StdDuration::from_secs(10), rx.recv())
        .await
        .expect("the rest ended within ten seconds")
        .expect("a fired timer");
    assert!(matches!(fired, Fired::RestOver { .. }));
    assert!(at >= ends, "fired at {at}, before it was due at {ends}");
    scheduler.abort();
}
