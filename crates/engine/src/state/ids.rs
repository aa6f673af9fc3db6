//! The names every other part of a fight's state uses: a combatant's id and side, and the
//! ruleset the fight runs under.

use serde::{Deserialize, Serialize};

/// A combatant's index in its combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CombatantId(pub u32);

impl std::fmt::Display for CombatantId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Which side a combatant fights on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    Party,
    Enemies,
}

impl Side {
    pub fn opponent(self) -> Side {
        match self {
            Side::Party => Side::Enemies,
            Side::Enemies => Side::Party,
        }
    }
}

/// The timing model a fight runs under (DESIGN "Timing models"). The serialised names are the
/// variant names and never change; [`Ruleset::name`] and [`Ruleset::parse`] use the lower-case
/// names players type (`/campaign rules ruleset:ctb`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Ruleset {
    /// GogoBee's own (seed 000): d20 + DEX initiative, action / bonus / reaction / movement.
    #[default]
    Gogobee,
    /// TDGS (seed 001): REF → LUK → d2 order, Instant phase, Interrupts with limits, Delay, Step.
    Tdgs,
    /// The charge-meter race (seed 003): speed fills a meter, AP budgets, cooldowns, statuses.
    Ctb,
    /// The tick timeline (seed 004): prep / exec / recover cycles, phase-gated reactions.
    Ticks,
}

impl Ruleset {
    pub const ALL: [Ruleset; 4] = [Ruleset::Gogobee, Ruleset::Tdgs, Ruleset::Ctb, Ruleset::Ticks];

    /// Every ruleset's name, in [`Ruleset::ALL`]'s order: the choices `/campaign rules` offers.
    pub const NAMES: [&'static str; 4] = {
        let mut names = [""; 4];
        let mut i = 0;
        while i < names.len() {
            names[i] = Self::ALL[i].name();
            i += 1;
        }
        names
    };

    /// The name players type and campaigns store.
    pub const fn name(self) -> &'static str {
        match self {
            Ruleset::Gogobee => "gogobee",
            Ruleset::Tdgs => "tdgs",
            Ruleset::Ctb => "ctb",
            Ruleset::Ticks => "ticks",
        }
    }

    /// Parses `gogobee`, `tdgs`, `ctb` or `ticks` (case and surrounding spaces ignored).
    pub fn parse(text: &str) -> Option<Ruleset> {
        let wanted = text.trim().to_ascii_lowercase();
        Self::ALL.into_iter().find(|r| r.name() == wanted)
    }
}
