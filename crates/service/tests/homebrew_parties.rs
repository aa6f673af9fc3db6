//! Homebrew as a party meets it, in every ruleset and on every backend: the GM
//! spawns goblins (`replaces = "goblin"` makes them the file's Marsh Goblins), two players join
//! before the start, a third after it, the GM brings two more as reinforcements mid-fight, and
//! every player gets turns until the party has won.

#[macro_use]
mod common;

use std::collections::BTreeSet;

use chrono::{Duration, TimeZone, Utc};
use engine::{Outcome, RuleViolation, Ruleset, Side};
use service::{CombatUpdate, DateTimeUtc, Db, PlayerCommand, Service, ServiceError};

on_every_backend! {
    a_party_of_three_with_a_late_joiner_beats_homebrew_and_its_reinforcements_in_every_ruleset => crate::a_party_of_three_with_a_late_joiner_beats_homebrew_and_its_reinforcements_in_every_ruleset;
}

const EXAMPLE: &str = include_str!("../../../examples/homebrew/marsh-raiders.toml");
const CHANNEL: &str = "marsh";
const PARTY: [(&str, &str, &str); 3] = [
    ("alice", "Aria", "fighter"),
    ("bob", "Bram", "cleric"),
    ("carol", "Cora", "rogue"),
];

fn now() -> DateTimeUtc {
    Utc.with_ymd_and_hms(2026, 12, 3, 12, 0, 0).unwrap()
}

/// Plays the fight out: whoever's turn it is attacks the first standing enemy (closing in, or
/// dashing first, when out of reach), a reaction prompt takes its first choice. Returns the
/// end and the players whose turns came.
async fn play_out(
    svc: &Service,
    camp: i64,
    mut update: CombatUpdate,
) -> Result<(CombatUpdate, BTreeSet<String>), ServiceError> {
    let mut at = now();
    let mut acted = BTreeSet::new();
    for _ in 0..1_500 {
        if update.combat.outcome.is_some() {
            return Ok((update, acted));
        }
        at += Duration::seconds(1);
        if let Some(window) = &update.combat.window {
            let player = update.combat.get(window.reactor).player_id().unwrap().to_owned();
            let label = window.options[0].label();
            update = svc
                .react(camp, CHANNEL, &player, label, update.window_token, at)
                .await?;
            continue;
        }
        let current = update.combat.get(update.combat.current().expect("a turn"));
        let player = current.player_id().expect("monsters act inside apply").to_owned();
        acted.insert(player.clone());
        let Some(enemy) = update
            .combat
            .combatants
            .iter()
            .find(|c| c.side == Side::Enemies && c.is_standing())
            .map(|c| c.name.clone())
        else {
            update = svc.end_turn(camp, CHANNEL, &player, at).await?;
            continue;
        };
        let spent = |e: &ServiceError| {
            matches!(
                e,
                ServiceError::Rules(
                    RuleViolation::ResourceSpent { .. }
                        | RuleViolation::Incapacitated
                        | RuleViolation::CannotMove { .. }
                        | RuleViolation::NotEnoughMovement { .. }
                        | RuleViolation::NotEnoughAp { .. }
                )
            )
        };
        // One command a step: attack; out of reach, close in; too far for a walk, Dash (the
        // next step closes in); nothing left to spend, end the turn.
        let attack = PlayerCommand::Attack {
            target: Some(enemy.clone()),
        };
        let tried = match svc.act(camp, CHANNEL, &player, &attack, at).await {
            Err(ServiceError::Rules(RuleViolation::OutOfReach { .. })) => {
                match svc
                    .act(camp, CHANNEL, &player, &PlayerCommand::MoveMelee { target: enemy }, at)
                    .await
                {
                    Err(ServiceError::Rules(RuleViolation::NotEnoughMovement { .. })) => {
                        svc.act(camp, CHANNEL, &player, &PlayerCommand::Dash, at).await
                    }
                    other => other,
                }
            }
            other => other,
        };
        update = match tried {
            Ok(u) => u,
            Err(e) if spent(&e) => svc.end_turn(camp, CHANNEL, &player, at).await?,
            Err(e) => return Err(e),
        };
    }
    panic!("the fight did not end: {:?}", update.combat.outcome);
}

async fn a_party_of_three_with_a_late_joiner_beats_homebrew_and_its_reinforcements_in_every_ruleset(
    db: Db,
) -> Result<(), ServiceError> {
    let svc = Service::new(db);
    for ruleset in Ruleset::ALL {
        let guild = format!("guild-{}", ruleset.name());
        let camp = svc.campaign_for(&guild, CHANNEL, now()).await?.id;
        svc.set_ruleset(camp, ruleset.name()).await?;
        svc.homebrew_import(camp, EXAMPLE, now()).await?;
        for (player, name, class) in PARTY {
            svc.create_character(camp, player, name, "human", class, now()).await?;
            svc.gm_set_level(camp, player, 6).await?;
        }
        svc.gm_spawn(camp, CHANNEL, "goblin", 2, now()).await?;
        svc.join_combat(camp, CHANNEL, "alice", now()).await?;
        svc.join_combat(camp, CHANNEL, "bob", now()).await?;
        svc.start_combat(camp, CHANNEL, "alice", now()).await?;
        // A late joiner, then the GM's homebrew reinforcements, both after the start.
        svc.join_combat(camp, CHANNEL, "carol", now()).await?;
        let reinforced = svc.gm_spawn(camp, CHANNEL, "goblin", 2, now()).await?;
        let foes: Vec<(&str, i32, i32)> = reinforced
            .combat
            .combatants
            .iter()
            .filter(|c| c.side == Side::Enemies)
            .map(|c| (c.monster_name().unwrap(), c.armor_class(), c.max_hp))
            .collect();
        assert_eq!(foes, [("Marsh Goblin", 14, 10); 4], "{}", ruleset.name());
        let (end, acted) = play_out(&svc, camp, reinforced).await?;
        let left: Vec<(&str, i32)> = end.combat.combatants.iter().map(|c| (c.name.as_str(), c.hp)).collect();
        assert_eq!(
            end.combat.outcome,
            Some(Outcome::Victory),
            "{}: {left:?} round {}",
            ruleset.name(),
            end.combat.round
        );
        assert_eq!(
            acted,
            BTreeSet::from(PARTY.map(|(p, _, _)| p.to_owned())),
            "{}: every player, the late joiner too, had turns",
            ruleset.name()
        );
    }
    Ok(())
}
