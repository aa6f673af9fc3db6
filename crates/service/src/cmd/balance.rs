//! `/homebrew balance monster:… party:…` (docs/homebrew.md "Is it fair?"): a few
//! thousand seeded duels of the party against the campaign's monster under the campaign's
//! ruleset ([`engine::balance`]), run on a blocking thread so no other command waits for them,
//! one question at a time per process.

use std::sync::OnceLock;

use engine::balance::{self, MAX_PER_SIDE, Matchup, Tally};
use engine::{Ruleset, Side};
use tokio::sync::Semaphore;

use crate::{Service, ServiceError};

/// Duels per question: enough that the win rate is within about ±2 points (95 %).
pub const DUELS: u32 = 2_000;

/// What `/homebrew balance` asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BalanceAsk {
    /// A monster of the campaign's content, by name or alias.
    pub monster: String,
    /// How many of it (1–12).
    pub count: u32,
    /// The party as `class:level` characters: `fighter:3,cleric:3`.
    pub party: String,
}

/// The answer: who fought whom, under which rules, and the tally.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Balance {
    /// "Bog Hag ×1 vs fighter:3, cleric:3".
    pub matchup: String,
    pub ruleset: Ruleset,
    pub tally: Tally,
}

/// One balance question runs at a time in a process (each keeps a core busy for a second or so).
fn one_at_a_time() -> &'static Semaphore {
    static GATE: OnceLock<Semaphore> = OnceLock::new();
    GATE.get_or_init(|| Semaphore::new(1))
}

impl Service {
    /// Runs [`DUELS`] duels of `ask` under the campaign's ruleset, with the campaign's content
    /// (homebrew included). Bad input is refused before anything runs.
    pub async fn homebrew_balance(&self, campaign_id: i64, ask: &BalanceAsk) -> Result<Balance, ServiceError> {
        let content = self.content(campaign_id).await?;
        let campaign = crate::repo::campaigns::get(self.db().conn(), campaign_id).await?;
        let ruleset = Ruleset::parse(&campaign.ruleset).unwrap_or_default();
        let Some(def) = content.monsters.get(&ask.monster) else {
            return Err(ServiceError::Unknown {
                kind: "monster",
                given: ask.monster.trim().to_owned(),
                valid: crate::convert::choices(content.monsters.all().iter().map(|m| &*m.name)),
            });
        };
        if !(1..=MAX_PER_SIDE).contains(&ask.count) {
            return Err(ServiceError::InvalidInput(format!(
                "count: is 1 to {MAX_PER_SIDE} monsters."
            )));
        }
        let party = balance::side(&ask.party, &content, Side::Party, "Party")
            .map_err(|e| ServiceError::InvalidInput(format!("party: {e}.")))?;
        if party.iter().any(|c| !c.is_character()) {
            return Err(ServiceError::InvalidInput(
                "party: is characters only, as class:level (`fighter:3,cleric:3`).".into(),
            ));
        }
        let matchup = Matchup {
            foes: balance::group(def, ask.count, Side::Enemies, "Foe"),
            party,
            ruleset,
        };
        let described = format!(
            "{} ×{} vs {}",
            def.name,
            ask.count,
            ask.party
                .split(',')
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .collect::<Vec<_>>()
                .join(", ")
        );
        let _turn = one_at_a_time().acquire().await.expect("the gate is never closed");
        let seed = self.seed;
        let tally = match tokio::task::spawn_blocking(move || balance::duel(&matchup, DUELS, seed, |_| {})).await {
            Ok(tally) => tally,
            Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
            Err(_) => {
                return Err(ServiceError::InvalidInput(
                    "The duels were cancelled (the bot is stopping).".into(),
                ));
            }
        };
        Ok(Balance {
            matchup: described,
            ruleset,
            tally,
        })
    }
}
