//! The arena through the service, on every backend: a challenge only the challenged
//! player may answer, a real engine duel under the campaign's ruleset that ends at 0 HP (no
//! death, no Hospital, HP as it was before), the streaks (winner +1, loser to 0), the running
//! duel for spectators, and every refusal: yourself, no character, already fighting, a fight in
//! the channel, joining or spawning into a duel, a stale button.

#[macro_use]
mod common;

use chrono::{TimeZone, Utc};
use engine::Event;
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use service::cmd::gm::HpAdjusted;
use service::entity::hospital_record;
use service::repo::characters;
use service::{CombatUpdate, DateTimeUtc, Db, Notice, PlayerCommand, Service, ServiceError};

on_every_backend! {
    a_duel_is_fought_to_zero_hp_and_changes_only_the_streaks => crate::a_duel_is_fought_to_zero_hp_and_changes_only_the_streaks;
    challenges_are_refused_for_who_cannot_duel => crate::challenges_are_refused_for_who_cannot_duel;
    a_duel_played_blow_by_blow_under_every_ruleset_ends_without_a_death => crate::a_duel_played_blow_by_blow_under_every_ruleset_ends_without_a_death;
    retiring_voids_the_characters_open_challenges => crate::retiring_voids_the_characters_open_challenges;
}

fn now() -> DateTimeUtc {
    Utc.with_ymd_and_hms(2026, 12, 3, 12, 0, 0).unwrap()
}

const CHANNEL: &str = "arena-channel";

async fn campaign(svc: &Service) -> Result<i64, ServiceError> {
    Ok(svc.campaign_for("guild", CHANNEL, now()).await?.id)
}

async fn row(svc: &Service, camp: i64, player: &str) -> Result<service::entity::character::Model, ServiceError> {
    Ok(characters::for_player(svc.db().conn(), camp, player)
        .await?
        .expect("a character"))
}

fn refusal<T: std::fmt::Debug>(result: Result<T, ServiceError>) -> String {
    match result {
        Err(ServiceError::Arena(text)) => text,
        other => panic!("expected an arena refusal, got {other:?}"),
    }
}

fn duel_end(update: &CombatUpdate) -> Option<&service::cmd::arena::DuelEnd> {
    update.notices.iter().find_map(|n| match n {
        Notice::DuelEnded(end) => Some(end),
        _ => None,
    })
}

async fn a_duel_is_fought_to_zero_hp_and_changes_only_the_streaks(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = campaign(&svc).await?;
    svc.create_character(camp, "alice", "Aria", "elf", "rogue", now())
        .await?;
    svc.create_character(camp, "bob", "Bram", "dwarf", "fighter", now())
        .await?;
    // Aria comes to the ring hurt: she fights at full HP and leaves as she came.
    svc.gm_adjust_hp(camp, CHANNEL, "Aria", -3, now()).await?;
    let (aria_before, bram_before) = (row(&svc, camp, "alice").await?, row(&svc, camp, "bob").await?);

    let offer = svc.arena_challenge(camp, CHANNEL, "alice", "bob", now()).await?;
    assert_eq!((offer.challenger.as_str(), offer.challenged.as_str()), ("Aria", "Bram"));
    // Only Bram may answer.
    let not_hers = refusal(svc.arena_accept(camp, "alice", offer.duel_id, now()).await);
    assert!(not_hers.contains("Only Bram may answer Aria's challenge"), "{not_hers}");
    refusal(svc.arena_decline(camp, "carol", offer.duel_id, now()).await);
    // The same challenge twice waits for its answer.
    let twice = refusal(svc.arena_challenge(camp, CHANNEL, "alice", "bob", now()).await);
    assert!(twice.contains("already challenged"), "{twice}");

    let begun = svc.arena_accept(camp, "bob", offer.duel_id, now()).await?;
    assert!(begun.combat.duel && begun.combat.started);
    assert_eq!(begun.combat.combatants.len(), 2);
    assert!(
        begun.combat.combatants.iter().all(|c| c.hp == c.max_hp),
        "full HP in the ring"
    );
    assert_ne!(begun.combat.combatants[0].side, begun.combat.combatants[1].side);
    // A second press of Accept is stale; the duel is the channel's fight.
    assert!(matches!(
        svc.arena_accept(camp, "bob", offer.duel_id, now()).await,
        Err(ServiceError::StaleButton)
    ));
    assert_eq!(svc.arena_spectate(camp).await?.len(), 1);
    // Nobody joins a duel, not even a GM's monsters.
    svc.create_character(camp, "carol", "Cora", "human", "cleric", now())
        .await?;
    assert!(matches!(
        svc.join_combat(camp, CHANNEL, "carol", now()).await,
        Err(ServiceError::ArenaDuel)
    ));
    assert!(matches!(
        svc.gm_spawn(camp, CHANNEL, "goblin", 1, now()).await,
        Err(ServiceError::ArenaDuel)
    ));
    // Both duellists are busy: no other challenge for either.
    let busy = refusal(svc.arena_challenge(camp, CHANNEL, "carol", "alice", now()).await);
    assert!(busy.contains("Aria is already in a fight"), "{busy}");

    // Bram drops to 0 HP: the duel is over at once, Aria's streak 1, Bram's 0; nobody died.
    let HpAdjusted::InCombat(end) = svc.gm_adjust_hp(camp, CHANNEL, "Bram", -1_000, now()).await? else {
        panic!("Bram is in the duel");
    };
    assert!(end.combat.outcome.is_some());
    assert!(!end.events.iter().any(|e| matches!(e, Event::Died { .. })));
    let settled = duel_end(&end).expect("the duel ended");
    assert_eq!(settled.winner, Some(("Aria".to_owned(), 1)));
    assert_eq!(settled.loser, Some(("Bram".to_owned(), 0)));
    let (aria, bram) = (row(&svc, camp, "alice").await?, row(&svc, camp, "bob").await?);
    assert_eq!((aria.arena_streak, bram.arena_streak), (1, 0));
    assert_eq!(
        (aria.hp, bram.hp),
        (aria_before.hp, bram_before.hp),
        "HP as before the duel"
    );
    assert_eq!(aria.hp, aria.max_hp - 3);
    assert_eq!(
        (aria.inventory.clone(), bram.inventory.clone()),
        (aria_before.inventory, bram_before.inventory)
    );
    assert_eq!(
        hospital_record::Entity::find()
            .filter(hospital_record::Column::CharacterId.is_in([aria.id, bram.id]))
            .count(svc.db().conn())
            .await?,
        0,
        "no Hospital after a duel"
    );
    assert!(svc.arena_spectate(camp).await?.is_empty());
    let top = svc.arena_top(camp).await?;
    assert_eq!((top[0].name.as_str(), top[0].streak), ("Aria", 1));
    assert_eq!(
        svc.leaderboard(camp, service::cmd::roster::Standing::Streak).await?,
        top,
        "/leaderboard by:streak reads the same streak"
    );

    // A rematch Aria loses resets her streak; Bram's goes to 1.
    let again = svc.arena_challenge(camp, CHANNEL, "bob", "alice", now()).await?;
    svc.arena_accept(camp, "alice", again.duel_id, now()).await?;
    let HpAdjusted::InCombat(end) = svc.gm_adjust_hp(camp, CHANNEL, "Aria", -1_000, now()).await? else {
        panic!("Aria is in the duel");
    };
    let settled = duel_end(&end).expect("the rematch ended");
    assert_eq!(settled.winner, Some(("Bram".to_owned(), 1)));
    assert_eq!(settled.loser, Some(("Aria".to_owned(), 1)));
    assert_eq!(row(&svc, camp, "alice").await?.arena_streak, 0);
    // A declined challenge starts nothing.
    let third = svc.arena_challenge(camp, CHANNEL, "alice", "bob", now()).await?;
    svc.arena_decline(camp, "bob", third.duel_id, now()).await?;
    assert!(matches!(
        svc.arena_accept(camp, "bob", third.duel_id, now()).await,
        Err(ServiceError::StaleButton)
    ));
    assert!(svc.arena_spectate(camp).await?.is_empty());
    Ok(())
}

async fn challenges_are_refused_for_who_cannot_duel(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = campaign(&svc).await?;
    assert!(matches!(
        svc.arena_challenge(camp, CHANNEL, "alice", "bob", now()).await,
        Err(ServiceError::NoCharacter)
    ));
    svc.create_character(camp, "alice", "Aria", "elf", "rogue", now())
        .await?;
    let myself = refusal(svc.arena_challenge(camp, CHANNEL, "alice", "alice", now()).await);
    assert!(myself.contains("can't challenge yourself"), "{myself}");
    let nobody = refusal(svc.arena_challenge(camp, CHANNEL, "alice", "bob", now()).await);
    assert!(nobody.contains("<@bob> has no character here"), "{nobody}");
    svc.create_character(camp, "bob", "Bram", "dwarf", "fighter", now())
        .await?;
    // Bram is out exploring.
    svc.start_expedition(camp, "bob", "Forest of Shadows", now()).await?;
    let away = refusal(svc.arena_challenge(camp, CHANNEL, "alice", "bob", now()).await);
    assert!(away.contains("Bram is out exploring"), "{away}");
    svc.leave_expedition(camp, "bob", now()).await?;
    // A challenge accepted while another fight holds the channel waits for the floor.
    let offer = svc.arena_challenge(camp, CHANNEL, "alice", "bob", now()).await?;
    svc.gm_spawn(camp, CHANNEL, "goblin", 1, now()).await?;
    let floor = refusal(svc.arena_accept(camp, "bob", offer.duel_id, now()).await);
    assert!(floor.contains("A fight is under way in this channel"), "{floor}");
    // Nothing changed: the challenge still stands, and nobody is in a duel.
    assert_eq!(svc.arena_offer(camp, offer.duel_id).await?.challenged, "Bram");
    Ok(())
}

/// Whoever the duel waits on attacks the other (closing in first), passes reactions, and the
/// duel ends with one of them at 0 HP, under each ruleset.
async fn a_duel_played_blow_by_blow_under_every_ruleset_ends_without_a_death(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    for (i, ruleset) in ["gogobee", "tdgs", "ctb", "ticks"].into_iter().enumerate() {
        let guild = format!("guild-{ruleset}");
        let camp = svc.campaign_for(&guild, CHANNEL, now()).await?.id;
        svc.set_ruleset(camp, ruleset).await?;
        svc.create_character(camp, "alice", "Aria", "elf", "rogue", now())
            .await?;
        svc.create_character(camp, "bob", "Bram", "dwarf", "fighter", now())
            .await?;
        let offer = svc.arena_challenge(camp, CHANNEL, "alice", "bob", now()).await?;
        let mut update = svc.arena_accept(camp, "bob", offer.duel_id, now()).await?;
        assert_eq!(update.combat.ruleset.name(), ruleset);
        let mut steps = 0;
        while update.combat.outcome.is_none() {
            steps += 1;
            assert!(steps < 500, "{ruleset}: the duel goes on for ever");
            let combat = &update.combat;
            if let Some(window) = &combat.window {
                let player = combat.get(window.reactor).player_id().unwrap().to_owned();
                update = svc
                    .react(camp, CHANNEL, &player, "pass", update.window_token, now())
                    .await?;
                continue;
            }
            let me = combat
                .model
                .timeline
                .awaiting
                .or_else(|| combat.current())
                .expect("someone acts");
            let player = combat.get(me).player_id().unwrap().to_owned();
            let other = combat.combatants.iter().find(|c| c.id != me).unwrap().name.clone();
            let tries = [
                PlayerCommand::Attack {
                    target: Some(other.clone()),
                },
                PlayerCommand::MoveMelee { target: other },
                PlayerCommand::EndTurn,
            ];
            let mut done = None;
            for t in &tries {
                if let Ok(u) = svc.act(camp, CHANNEL, &player, t, now()).await {
                    done = Some(u);
                    break;
                }
            }
            update = done.expect("one of attack, close in, end turn is legal");
        }
        let end = duel_end(&update).expect("the duel settled");
        let (winner, _) = end.winner.clone().expect("someone won");
        let (aria, bram) = (row(&svc, camp, "alice").await?, row(&svc, camp, "bob").await?);
        let streaks = if winner == "Aria" { (1, 0) } else { (0, 1) };
        assert_eq!((aria.arena_streak, bram.arena_streak), streaks, "{ruleset} #{i}");
        assert_eq!(
            (aria.hp, bram.hp),
            (aria.max_hp, bram.max_hp),
            "{ruleset}: HP as before"
        );
    }
    Ok(())
}

/// A challenge made before its challenger (or the challenged) retires cannot be accepted: the
/// retired side is no one's to play. Retiring voids the open challenges; no duel starts.
async fn retiring_voids_the_characters_open_challenges(db: Db) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    let camp = campaign(&svc).await?;
    for (player, name) in [("alice", "Aria"), ("bob", "Bram"), ("carol", "Cato")] {
        svc.create_character(camp, player, name, "human", "fighter", now())
            .await?;
    }
    let to_bram = svc.arena_challenge(camp, CHANNEL, "carol", "bob", now()).await?;
    let to_cato = svc.arena_challenge(camp, CHANNEL, "alice", "carol", now()).await?;
    let asked = svc.retire_ask(camp, "carol").await?;
    svc.retire_confirm(camp, "carol", asked.character_id, asked.version)
        .await?;
    for offer in [&to_bram, &to_cato] {
        let answerer = if offer.challenged == "Bram" { "bob" } else { "carol" };
        let refused = svc.arena_accept(camp, answerer, offer.duel_id, now()).await;
        assert!(refused.is_err(), "a void challenge accepted: {refused:?}");
        assert!(svc.arena_offer(camp, offer.duel_id).await.is_err(), "still offered");
    }
    assert!(
        svc.combat_status(camp, CHANNEL).await.is_err(),
        "no duel started in the channel"
    );
    // Bram can be challenged again, by someone who plays.
    svc.arena_challenge(camp, CHANNEL, "alice", "bob", now()).await?;
    Ok(())
}
