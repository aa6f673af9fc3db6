//! `/homebrew balance monster:… party:…` (docs/homebrew.md "Is it fair?"): a few
//! thousand seeded duels of the party against the campaign's monster under the campaign's
//! ruleset ([`engine::balance`]), run on blocking threads so no other command waits for them.
//!
//! Bounded, so that no server's questions stall the bot or another server ([`BalanceLimits`]):
//! each question runs on one thread and stops at its time budget (each duel at the rules' round
//! limit); a few questions run at once, no more than the machine has cores; the questions
//! waiting are served one campaign at a time in turn, so one campaign's queue delays another's
//! question by at most one run of each; a campaign has at most [`BalanceLimits::queue`]
//! questions waiting and asks again only after [`BalanceLimits::cooldown`].

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use engine::balance::{self, MAX_PER_SIDE, Matchup, Tally};
use engine::{Ruleset, Side};
use tokio::sync::oneshot;

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
    /// The duels that ran: [`DUELS`], or fewer when the budget ran out first.
    pub tally: Tally,
    /// Questions waiting ahead of this one when it was asked (those already running not
    /// counted): its position in the line, 0 for the first.
    pub queued_behind: usize,
}

impl Balance {
    /// The budget ran out before [`DUELS`] duels.
    pub fn cut_short(&self) -> bool {
        self.tally.duels < DUELS
    }
}

/// How `/homebrew balance` shares the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BalanceLimits {
    /// Questions running at once, each on one thread.
    pub workers: usize,
    /// The most one question runs (one core's time): its duels stop when it is spent.
    pub budget: Duration,
    /// A campaign asks its next question no sooner than this after its last.
    pub cooldown: Duration,
    /// Questions a campaign may have waiting to run.
    pub queue: usize,
}

impl Default for BalanceLimits {
    /// One worker per core up to four, 5 s a question, a 10 s cooldown, two waiting a campaign.
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        Self {
            workers: cores.clamp(1, 4),
            budget: Duration::from_secs(5),
            cooldown: Duration::from_secs(10),
            queue: 2,
        }
    }
}

/// The questions running and waiting in this process.
#[derive(Debug)]
pub(crate) struct BalancePool {
    limits: BalanceLimits,
    state: Mutex<PoolState>,
}

#[derive(Debug, Default)]
struct PoolState {
    running: usize,
    /// Each campaign's waiting questions, in the order asked.
    waiting: HashMap<i64, VecDeque<oneshot::Sender<()>>>,
    /// Campaigns with questions waiting, in the order they are served: the front one's first
    /// question starts next, and the campaign goes to the back if it has more.
    turns: VecDeque<i64>,
    /// When each campaign last asked.
    asked: HashMap<i64, Instant>,
}

impl PoolState {
    /// How many waiting questions start before a new one of `campaign`'s, taking turns.
    fn ahead_of_new(&self, campaign: i64) -> usize {
        let own = self.waiting.get(&campaign).map_or(0, VecDeque::len);
        // Each other campaign gets a turn before each of `campaign`'s — as many as it has,
        // up to one more than `campaign`'s own waiting (those before it in the turns) or as
        // many (those after).
        let position = self.turns.iter().position(|c| *c == campaign);
        let others: usize = self
            .turns
            .iter()
            .enumerate()
            .filter(|(_, c)| **c != campaign)
            .map(|(i, c)| {
                let theirs = self.waiting.get(c).map_or(0, VecDeque::len);
                let before = position.is_none_or(|p| i < p);
                theirs.min(own + usize::from(before))
            })
            .sum();
        own + others
    }

    /// Starts waiting questions while a worker is free, one campaign at a time in turn.
    fn start_next(&mut self, workers: usize) {
        while self.running < workers {
            let Some(campaign) = self.turns.pop_front() else { return };
            let queue = self.waiting.get_mut(&campaign).expect("a campaign in turn waits");
            let Some(next) = queue.pop_front() else { continue };
            if queue.is_empty() {
                self.waiting.remove(&campaign);
            } else {
                self.turns.push_back(campaign);
            }
            // A question whose asker has gone (the command was cancelled) takes no worker.
            if next.send(()).is_ok() {
                self.running += 1;
            }
        }
    }
}

/// A running question's worker, given back when it is dropped.
struct Worker(Arc<BalancePool>);

impl Drop for Worker {
    fn drop(&mut self) {
        let mut state = self.0.state.lock().expect("never poisoned");
        state.running -= 1;
        state.start_next(self.0.limits.workers);
    }
}

impl BalancePool {
    pub(crate) fn new(limits: BalanceLimits) -> Self {
        Self {
            limits: BalanceLimits {
                workers: limits.workers.max(1),
                ..limits
            },
            state: Mutex::default(),
        }
    }

    /// Waits for `campaign`'s turn and a free worker; refuses a question asked within the
    /// cooldown or past the campaign's queue. Returns the worker and how many questions were
    /// ahead when it was asked.
    async fn turn(self: &Arc<Self>, campaign: i64) -> Result<(Worker, usize), ServiceError> {
        let (ahead, started) = {
            let mut state = self.state.lock().expect("never poisoned");
            let now = Instant::now();
            if let Some(last) = state.asked.get(&campaign) {
                let since = now.duration_since(*last);
                if let Some(left) = self.limits.cooldown.checked_sub(since)
                    && !left.is_zero()
                {
                    let wait = left.as_secs().max(1);
                    return Err(ServiceError::InvalidInput(format!(
                        "This server asked a balance question {}s ago; ask again in {wait}s (one every {}s).",
                        since.as_secs(),
                        self.limits.cooldown.as_secs()
                    )));
                }
            }
            let own = state.waiting.get(&campaign).map_or(0, VecDeque::len);
            if own >= self.limits.queue {
                return Err(ServiceError::InvalidInput(format!(
                    "This server already has {own} balance questions waiting; ask again when they are answered."
                )));
            }
            state.asked.insert(campaign, now);
            let ahead = state.ahead_of_new(campaign);
            let (tx, rx) = oneshot::channel();
            let queue = state.waiting.entry(campaign).or_default();
            queue.push_back(tx);
            if queue.len() == 1 {
                state.turns.push_back(campaign);
            }
            state.start_next(self.limits.workers);
            (ahead, rx)
        };
        started
            .await
            .map_err(|_| ServiceError::InvalidInput("The balance queue was dropped (the bot is stopping).".into()))?;
        Ok((Worker(Arc::clone(self)), ahead))
    }
}

impl Service {
    /// This service's `/homebrew balance` limits instead of [`BalanceLimits::default`].
    pub fn with_balance_limits(mut self, limits: BalanceLimits) -> Self {
        self.balance = Arc::new(BalancePool::new(limits));
        self
    }

    /// Runs up to [`DUELS`] duels of `ask` under the campaign's ruleset, with the campaign's
    /// content (homebrew included), within the budget. Bad input is refused before anything
    /// runs or waits.
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
        let (worker, queued_behind) = self.balance.turn(campaign_id).await?;
        let seed = self.seed;
        let budget = self.balance.limits.budget;
        // The worker goes with the duels: it is free again when they stop, even if the
        // command that asked was dropped meanwhile.
        let run = tokio::task::spawn_blocking(move || {
            let _worker = worker;
            let deadline = Instant::now() + budget;
            balance::duel_within(&matchup, DUELS, seed, 1, &|| Instant::now() < deadline, |_| {})
        });
        let tally = match run.await {
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
            queued_behind,
        })
    }
}
