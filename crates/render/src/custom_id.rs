//! Reaction button ids: `rx:<combat_id>:<version>:<reactor index>:<kind index | pass>`.
//!
//! The id names the exact state it was made for (combat, version, reactor, option); the service
//! checks a pressed id against stored state with [`ReactionButton::is_current`], so a forged or
//! stale press is refused. Every id fits Discord's 100-character limit: combat ids are at most
//! [`MAX_COMBAT_ID`] characters.

use std::fmt;

use engine::{Combat, CombatantId, ReactionKind};

use crate::payload::limits;

/// The longest combat id a button can carry (the rest of the id takes at most 40 characters).
pub const MAX_COMBAT_ID: usize = 60;

const PREFIX: &str = "rx";
const PASS: &str = "pass";

/// What a reaction button does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReactionChoice {
    Take(ReactionKind),
    Pass,
}

/// A parsed reaction button id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReactionButton {
    pub combat_id: String,
    /// The combat's stored version when the prompt was rendered.
    pub version: u64,
    pub reactor: CombatantId,
    pub choice: ReactionChoice,
}

/// Whether a combat id may be carried in a custom id: 1–60 ASCII letters, digits, `-` or `_`.
pub fn valid_combat_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_COMBAT_ID
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn kind_index(kind: ReactionKind) -> usize {
    ReactionKind::ALL
        .iter()
        .position(|k| *k == kind)
        .expect("ReactionKind::ALL lists every kind")
}

impl ReactionButton {
    /// Parses a custom id; `None` for anything that is not a well-formed reaction button id.
    pub fn parse(custom_id: &str) -> Option<ReactionButton> {
        if custom_id.len() > limits::CUSTOM_ID {
            return None;
        }
        let mut parts = custom_id.split(':');
        let (prefix, combat_id, version, reactor, choice) = (
            parts.next()?,
            parts.next()?,
            parts.next()?,
            parts.next()?,
            parts.next()?,
        );
        if prefix != PREFIX || parts.next().is_some() || !valid_combat_id(combat_id) {
            return None;
        }
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !digits(version) || !digits(reactor) {
            return None;
        }
        let choice = if choice == PASS {
            ReactionChoice::Pass
        } else if digits(choice) {
            ReactionChoice::Take(*ReactionKind::ALL.get(choice.parse::<usize>().ok()?)?)
        } else {
            return None;
        };
        Some(ReactionButton {
            combat_id: combat_id.to_owned(),
            version: version.parse().ok()?,
            reactor: CombatantId(reactor.parse().ok()?),
            choice,
        })
    }

    /// Whether this press answers the window open in `combat` right now: the same combat and
    /// version, the window's reactor, and an offered option (or Pass).
    pub fn is_current(&self, combat_id: &str, version: u64, combat: &Combat) -> bool {
        let Some(window) = &combat.window else {
            return false;
        };
        self.combat_id == combat_id
            && self.version == version
            && self.reactor == window.reactor
            && match self.choice {
                ReactionChoice::Pass => true,
                ReactionChoice::Take(kind) => window.options.contains(&kind),
            }
    }
}

impl ReactionButton {
    /// Whether `user_id` controls the reactor (only that player may press its buttons).
    pub fn pressed_by(&self, combat: &Combat, user_id: &str) -> bool {
        combat
            .combatants
            .get(self.reactor.0 as usize)
            .and_then(|c| c.player_id())
            == Some(user_id)
    }
}

impl fmt::Display for ReactionButton {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{PREFIX}:{}:{}:{}:", self.combat_id, self.version, self.reactor.0)?;
        match self.choice {
            ReactionChoice::Pass => f.write_str(PASS),
            ReactionChoice::Take(kind) => write!(f, "{}", kind_index(kind)),
        }
    }
}
