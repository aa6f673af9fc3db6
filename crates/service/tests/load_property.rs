//! Write what happened, not the whole fight, as a property: a fight loaded from the
//! database after any command — its latest snapshot and the log entries after it, re-applied —
//! is the fight as it was applied, for random parties of 1–4 players (any class and level, some
//! joining after the start), monsters, reinforcements mid-fight, rulesets, snapshot intervals
//! and commands; and a replay of the whole log reads every entry back identically.

mod applied;
#[allow(unused_macros)]
mod common;

use applied::{assert_replays_identically, assert_stored_as_applied};
use chrono::{TimeZone, Utc};
use proptest::prelude::*;
use service::{CombatUpdate, DateTimeUtc, Db, PlayerCommand, Service, ServiceError};

const RULESETS: [&str; 4] = engine::Ruleset::NAMES;
const CLASSES: [&str; 6] = ["fighter", "rogue", "ranger", "cleric", "mage", "berserker"];
const RACES: [&str; 3] = ["human", "elf", "dwarf"];
const MONSTERS: [&str; 4] = ["goblin", "giant rat", "kobold", "orc"];
const CHANNEL: &str = "channel-property";

fn now() -> DateTimeUtc {
    Utc.with_ymd_and_hms(2026, 12, 6, 12, 0, 0).unwrap() + chrono::Duration::microseconds(123_456)
}

/// One random fight: who plays, against what, under which rules, and what they press.
#[derive(Debug, Clone)]
struct Fight {
    seed: u64,
    ruleset: usize,
    snapshot_every: u32,
    /// Each player's class, level, race, and the command after which they join (`None`: before
    /// the start).
    party: Vec<(usize, u32, usize, Option<usize>)>,
    monster: usize,
    monsters: u32,
    /// A reinforcement spawned after this command, if any.
    reinforcement: Option<usize>,
    /// Each command the awaited player sends, by number (see [`command`]).
    presses: Vec<u8>,
}

fn fight() -> impl Strategy<Value = Fight> {
    (
        any::<u64>(),
        0..RULESETS.len(),
        prop_oneof![Just(1_u32), 2_u32..8, Just(64)],
        prop::collection::vec(
            (
                0..CLASSES.len(),
                1_u32..13,
                0..RACES.len(),
                prop::option::weighted(0.3, 1_usize..12),
            ),
            1..5,
        ),
        0..MONSTERS.len(),
        1_u32..4,
        prop::option::weighted(0.5, 2_usize..20),
        prop::collection::vec(0_u8..8, 10..50),
    )
        .prop_map(
            |(seed, ruleset, snapshot_every, party, monster, monsters, reinforcement, presses)| Fight {
                seed,
                ruleset,
                snapshot_every,
                party,
                monster,
                monsters,
                reinforcement,
                presses,
            },
        )
}

/// The player whose turn or prompt `update` waits on (`None` when no player is awaited).
fn awaited(update: &CombatUpdate) -> Option<String> {
    let id = match &update.combat.window {
        Some(window) => window.reactor,
        None => update.combat.current()?,
    };
    update.combat.get(id).player_id().map(str::to_owned)
}

/// Press `n` on the awaited player's turn.
fn command(n: u8) -> PlayerCommand {
    match n {
        0 | 1 => PlayerCommand::Attack { target: None },
        2 => PlayerCommand::Dodge,
        3 => PlayerCommand::Dash,
        4 => PlayerCommand::Disengage,
        5 => PlayerCommand::Cast {
            spell: "fire bolt".into(),
            target: None,
        },
        6 => PlayerCommand::SecondWind,
        _ => PlayerCommand::EndTurn,
    }
}

async fn play(db: Db, fight: Fight) -> Result<(), ServiceError> {
    let svc = Service::with_seed(db, fight.seed).with_snapshot_every(fight.snapshot_every);
    let camp = svc.campaign_for("property", CHANNEL, now()).await?.id;
    svc.set_ruleset(camp, RULESETS[fight.ruleset]).await?;
    let players: Vec<String> = (0..fight.party.len()).map(|i| format!("player-{i}")).collect();
    for (player, &(class, level, race, _)) in players.iter().zip(&fight.party) {
        svc.create_character(
            camp,
            player,
            &format!("Hero {player}"),
            RACES[race],
            CLASSES[class],
            now(),
        )
        .await?;
        svc.gm_set_level(camp, player, level).await?;
    }
    svc.gm_spawn(camp, CHANNEL, MONSTERS[fight.monster], fight.monsters, now())
        .await?;
    let mut first = None;
    for (player, &(.., late)) in players.iter().zip(&fight.party) {
        if late.is_none() {
            svc.join_combat(camp, CHANNEL, player, now()).await?;
            first.get_or_insert(player.clone());
        }
    }
    let starter = first.unwrap_or_else(|| players[0].clone());
    if fight.party.iter().all(|&(.., late)| late.is_some()) {
        svc.join_combat(camp, CHANNEL, &starter, now()).await?;
    }
    let mut update = svc.start_combat(camp, CHANNEL, &starter, now()).await?;
    assert_stored_as_applied(&svc, &update).await?;
    for (i, &press) in fight.presses.iter().enumerate() {
        if update.combat.outcome.is_some() {
            break;
        }
        // Late joiners and reinforcements arrive between commands.
        for (player, &(.., late)) in players.iter().zip(&fight.party) {
            if late == Some(i) && *player != starter {
                match svc.join_combat(camp, CHANNEL, player, now()).await {
                    Ok(joined) => update = joined,
                    Err(ServiceError::Rules(_) | ServiceError::InvalidInput(_)) => continue,
                    Err(err) => return Err(err),
                }
                assert_stored_as_applied(&svc, &update).await?;
            }
        }
        if fight.reinforcement == Some(i) {
            update = svc.gm_spawn(camp, CHANNEL, MONSTERS[fight.monster], 1, now()).await?;
            assert_stored_as_applied(&svc, &update).await?;
        }
        let Some(player) = awaited(&update) else {
            break;
        };
        let answer = match &update.combat.window {
            Some(window) => {
                let reaction = match window.options.first() {
                    Some(kind) if press % 2 == 1 => kind.reaction().label(),
                    _ => "pass",
                };
                svc.react(camp, CHANNEL, &player, reaction, update.window_token, now())
                    .await
            }
            None => svc.act(camp, CHANNEL, &player, &command(press), now()).await,
        };
        update = match answer {
            Ok(answered) => answered,
            // Refused (nobody in reach, no such spell, already used): the turn ends instead.
            Err(ServiceError::Rules(_) | ServiceError::Unknown { .. } | ServiceError::InvalidInput(_)) => {
                match svc.act(camp, CHANNEL, &player, &PlayerCommand::EndTurn, now()).await {
                    Ok(ended) => ended,
                    Err(ServiceError::Rules(_)) => continue,
                    Err(err) => return Err(err),
                }
            }
            Err(err) => return Err(err),
        };
        assert_stored_as_applied(&svc, &update).await?;
    }
    assert_replays_identically(&svc, update.combat_id).await
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn a_fight_loaded_after_any_command_is_the_fight_applied(fight in fight()) {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        // Each backend's write path in turn: sea-orm in memory, the group commit's connection on
        // a file, PostgreSQL's group commit.
        let backend = [common::Backend::SqliteMemory, common::Backend::SqliteFile, common::Backend::Postgres]
            [(fight.seed % 3) as usize];
        runtime.block_on(common::run(backend, move |db| play(db, fight)));
    }
}
