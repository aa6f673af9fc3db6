//! The state of one fight: combatants, distance bands, initiative, the resolution queue with its
//! open reaction window (DESIGN "Suspension"), and the outcome. Plain serialisable data: a fight
//! saved mid-window resumes with the same result.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use crate::combatant::{Combatant, CombatantId, Side};
use crate::content::Zone;
use crate::event::Outcome;
use crate::movement::Band;
use crate::reactions::ReactionWindow;
use crate::resolve::Step;
use crate::violation::RuleViolation;

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

    /// The name players type and campaigns store.
    pub fn name(self) -> &'static str {
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

/// Where the fight takes place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Terrain {
    pub zone: Option<Zone>,
    /// The room is Difficult Terrain (§3.4): movement costs double.
    pub difficult: bool,
    /// Hidden things a Search may find: (what, DC).
    pub hidden_things: Vec<(String, i32)>,
    /// The hidden things Searches have found here, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub found: Vec<String>,
}

/// The band between two opposing combatants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BandEntry {
    pub a: CombatantId,
    pub b: CombatantId,
    pub band: Band,
}

/// Most rounds a fight may last before it is halted.
pub const MAX_ROUNDS: u32 = 100;

/// One fight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Combat {
    pub ruleset: Ruleset,
    pub terrain: Terrain,
    /// Everyone in the fight; each distinct sheet is stored once (`crate::sheet::roster`).
    #[serde(with = "crate::sheet::roster")]
    pub combatants: Vec<Combatant>,
    /// Pairwise bands between opponents (allies' positions are not tracked).
    pub bands: Vec<BandEntry>,
    /// Initiative order.
    pub order: Vec<CombatantId>,
    /// Index into `order` of whose turn it is.
    pub turn: usize,
    pub round: u32,
    pub started: bool,
    /// Steps of the resolution in progress, front first.
    pub queue: VecDeque<Step>,
    /// An open reaction window: resolution waits until the reactor reacts or passes.
    pub window: Option<ReactionWindow>,
    pub outcome: Option<Outcome>,
    /// Fight-wide state of the timing model (the charge race's clock, TDGS's fixed order, the
    /// tick timeline's loop). Boxed: most fights never need it, and `Combat` stays small.
    #[serde(default)]
    pub model: Box<crate::state::ModelState>,
    /// An arena duel (issue 20): no one dies in the ring — the fight ends as soon as one side
    /// has no one standing (see `outcome::check_outcome`), before any death save is rolled.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub duel: bool,
}

impl Combat {
    /// A fight between `combatants` (ids are assigned in order). Opponents start Near each
    /// other; ranged-minded monsters start Far.
    pub fn new(combatants: Vec<Combatant>, terrain: Terrain) -> Self {
        let combatants: Vec<Combatant> = combatants
            .into_iter()
            .enumerate()
            .map(|(i, mut c)| {
                c.id = CombatantId(i as u32);
                c
            })
            .collect();
        let mut bands = Vec::new();
        for a in &combatants {
            for b in &combatants {
                if a.id < b.id && a.side != b.side {
                    bands.push(BandEntry {
                        a: a.id,
                        b: b.id,
                        band: Self::opening_band(a, b),
                    });
                }
            }
        }
        Self {
            ruleset: Ruleset::Gogobee,
            terrain,
            combatants,
            bands,
            order: Vec::new(),
            turn: 0,
            round: 0,
            started: false,
            queue: VecDeque::new(),
            window: None,
            outcome: None,
            model: Box::default(),
            duel: false,
        }
    }

    /// The same fight as an arena duel: it ends when a side has no one standing, so no one
    /// rolls a death save or dies (before it begins).
    #[must_use]
    pub fn as_duel(mut self) -> Self {
        self.duel = true;
        self
    }

    /// The band two opponents start at: Near, or Far when either is a ranged-minded monster.
    pub fn opening_band(a: &Combatant, b: &Combatant) -> Band {
        let far = [a, b].iter().any(|c| {
            matches!(
                c.behaviour(),
                Some(crate::content::Behaviour::Ranged | crate::content::Behaviour::Caster)
            ) && c.stat_block().is_some()
        });
        if far { Band::Far } else { Band::Near }
    }

    /// The same fight under another timing model (before it begins).
    #[must_use]
    pub fn with_ruleset(mut self, ruleset: Ruleset) -> Self {
        self.ruleset = ruleset;
        self
    }

    pub fn get(&self, id: CombatantId) -> &Combatant {
        &self.combatants[id.0 as usize]
    }

    pub fn get_mut(&mut self, id: CombatantId) -> &mut Combatant {
        &mut self.combatants[id.0 as usize]
    }

    /// Looks an id up, refusing one that is not in this fight.
    pub fn find(&self, id: CombatantId) -> Result<&Combatant, RuleViolation> {
        self.combatants.get(id.0 as usize).ok_or(RuleViolation::NotInCombat)
    }

    /// Finds a combatant by name, case-insensitively (exact, then unique prefix).
    pub fn by_name(&self, name: &str) -> Result<&Combatant, RuleViolation> {
        let wanted = crate::content::normalize(name);
        if let Some(c) = self
            .combatants
            .iter()
            .find(|c| crate::content::normalize(&c.name) == wanted)
        {
            return Ok(c);
        }
        let mut prefixed = self
            .combatants
            .iter()
            .filter(|c| !c.is_dead() && crate::content::normalize(&c.name).starts_with(&wanted));
        match (prefixed.next(), prefixed.next()) {
            (Some(c), None) if !wanted.is_empty() => Ok(c),
            _ => Err(RuleViolation::UnknownTarget { name: name.to_owned() }),
        }
    }

    /// Whose turn it is (after the fight has begun).
    pub fn current(&self) -> Option<CombatantId> {
        if self.started && self.outcome.is_none() {
            self.order.get(self.turn).copied()
        } else {
            None
        }
    }

    /// The band between two combatants; allies count as Melee (positions among allies are not tracked).
    pub fn band(&self, x: CombatantId, y: CombatantId) -> Band {
        if self.get(x).side == self.get(y).side {
            return Band::Melee;
        }
        let (a, b) = if x < y { (x, y) } else { (y, x) };
        self.bands
            .iter()
            .find(|e| e.a == a && e.b == b)
            .map_or(Band::Near, |e| e.band)
    }

    pub fn set_band(&mut self, x: CombatantId, y: CombatantId, band: Band) {
        let (a, b) = if x < y { (x, y) } else { (y, x) };
        if let Some(e) = self.bands.iter_mut().find(|e| e.a == a && e.b == b) {
            e.band = band;
        } else {
            self.bands.push(BandEntry { a, b, band });
        }
    }

    /// Living opponents of `id` with the band to each.
    pub fn bands_of(&self, id: CombatantId) -> Vec<(CombatantId, Band)> {
        let side = self.get(id).side;
        self.combatants
            .iter()
            .filter(|c| c.side != side && !c.is_dead())
            .map(|c| (c.id, self.band(id, c.id)))
            .collect()
    }

    /// Living opponents of `id` in melee with it.
    pub fn engaged_with(&self, id: CombatantId) -> Vec<CombatantId> {
        self.bands_of(id)
            .into_iter()
            .filter(|(_, b)| *b == Band::Melee)
            .map(|(e, _)| e)
            .collect()
    }

    /// Standing (conscious) opponents of `id` in melee with it.
    pub fn standing_engaged_with(&self, id: CombatantId) -> Vec<CombatantId> {
        self.engaged_with(id)
            .into_iter()
            .filter(|e| self.get(*e).is_standing())
            .collect()
    }

    /// Ids of living combatants on `side`.
    pub fn side_alive(&self, side: Side) -> impl Iterator<Item = &Combatant> {
        self.combatants.iter().filter(move |c| c.side == side && !c.is_dead())
    }

    /// Ids in initiative order, starting after the current turn: the default order reactions
    /// resolve in (a model may order them its own way, `TimingModel::reaction_order`).
    pub fn initiative_from_current(&self) -> Vec<CombatantId> {
        if self.order.is_empty() {
            return self.combatants.iter().map(|c| c.id).collect();
        }
        let n = self.order.len();
        (0..n).map(|i| self.order[(self.turn + i) % n]).collect()
    }
}
