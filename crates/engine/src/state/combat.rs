//! The state of one fight: combatants, distance bands, initiative, the resolution queue with its
//! open reaction window (DESIGN "Suspension"), and the outcome. Plain serialisable data: a fight
//! saved mid-window resumes with the same result.

use std::collections::VecDeque;

pub use crate::state::ids::Ruleset;
use serde::{Deserialize, Serialize};

use crate::content::Zone;
use crate::state::combatant::Combatant;
use crate::state::event::Outcome;
use crate::state::ids::{CombatantId, Side};
use crate::state::movement::Band;
use crate::state::reactions::ReactionWindow;
use crate::state::step::Step;
use crate::state::violation::RuleViolation;

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

impl BandEntry {
    /// The entry's other end, seen from `id` (`None` if `id` is neither).
    pub fn other(&self, id: CombatantId) -> Option<CombatantId> {
        if self.a == id {
            Some(self.b)
        } else if self.b == id {
            Some(self.a)
        } else {
            None
        }
    }
}

/// Most rounds a fight may last before it is halted.
pub const MAX_ROUNDS: u32 = 100;

/// One fight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Combat {
    pub ruleset: Ruleset,
    pub terrain: Terrain,
    /// Everyone in the fight; each distinct sheet is stored once (`crate::state::roster`).
    #[serde(with = "crate::state::roster")]
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
    /// An arena duel: no one dies in the ring — the fight ends as soon as one side
    /// has no one standing (see `outcome::check_outcome`), before any death save is rolled.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub duel: bool,
    /// Whether someone may hold a readied action: when no one can, an attack or a move asks no
    /// combatant for one (see [`ReadiedHint`]). Never stored.
    #[serde(skip)]
    pub(crate) readied: ReadiedHint,
    /// An Attack action's only swing, set aside by `actions::perform` instead of being returned
    /// in a `Vec` of its own: `dispatch` runs it at once, `resolve::perform` puts it in front of
    /// the steps. `None` outside `apply`; never stored.
    #[serde(skip)]
    pub(crate) first_swing: Option<crate::state::step::Swing>,
}

/// A fight-wide hint beside the combatants' `readied` fields: `false` only when no one holds a
/// readied action, so the triggers that readied actions answer skip reading every combatant's
/// record. Set when an action is readied or someone joins holding one, worked out afresh at
/// each turn's start; a fight read back (or otherwise made) assumes someone may. Debug builds
/// check at every readied offer that it hides no readied action. Not part of the fight's
/// state: any two values compare equal.
#[derive(Clone, Copy)]
pub(crate) struct ReadiedHint {
    pub(crate) maybe: bool,
}

impl Default for ReadiedHint {
    /// Unknown: someone may.
    fn default() -> Self {
        Self { maybe: true }
    }
}

impl PartialEq for ReadiedHint {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for ReadiedHint {}

impl std::fmt::Debug for ReadiedHint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.maybe { "maybe" } else { "none" })
    }
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
            readied: ReadiedHint { maybe: false },
            first_swing: None,
        }
        .with_readied_hint()
    }

    /// The fight with its readied hint worked out from the combatants.
    fn with_readied_hint(mut self) -> Self {
        self.refresh_readied_hint();
        self
    }

    /// Works the readied hint out afresh from the combatants.
    pub(crate) fn refresh_readied_hint(&mut self) {
        self.readied.maybe = self.combatants.iter().any(|c| c.readied.is_some());
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

    /// The living opponent of `id` that `wanted` accepts at the least band (the lowest id among
    /// those), each at the band [`Combat::bands_of`] gives it — without collecting them: one pass
    /// over the bands, one over the fight (ids under 64, as in any fight joins allow; a larger
    /// one goes through `bands_of`).
    pub fn nearest_opponent(&self, id: CombatantId, wanted: impl Fn(&Combatant, Band) -> bool) -> Option<CombatantId> {
        if self.combatants.len() > 64 {
            return self.nearest_of_bands(id, &wanted);
        }
        let side = self.get(id).side;
        let mut best: Option<(Band, CombatantId)> = None;
        let mut consider = |c: &Combatant, band: Band| {
            if c.side != side && !c.is_dead() && best.is_none_or(|b| (band, c.id) < b) && wanted(c, band) {
                best = Some((band, c.id));
            }
        };
        // Opponents met in the bands, the first entry of a pair winning; then the others, Near.
        let mut met = 0u64;
        for e in &self.bands {
            let Some(other) = e.other(id) else {
                continue;
            };
            let Some(c) = self.combatants.get(other.0 as usize) else {
                continue;
            };
            let bit = 1u64 << other.0;
            if met & bit == 0 {
                met |= bit;
                consider(c, e.band);
            }
        }
        for c in &self.combatants {
            if met & (1u64 << c.id.0) == 0 {
                consider(c, Band::Near);
            }
        }
        let nearest = best.map(|(_, t)| t);
        debug_assert_eq!(
            nearest,
            self.nearest_of_bands(id, &wanted),
            "bands_of would say otherwise"
        );
        nearest
    }

    /// [`Combat::nearest_opponent`] through [`Combat::bands_of`].
    fn nearest_of_bands(&self, id: CombatantId, wanted: &impl Fn(&Combatant, Band) -> bool) -> Option<CombatantId> {
        self.bands_of(id)
            .into_iter()
            .filter(|&(t, band)| wanted(self.get(t), band))
            .map(|(t, band)| (band, t))
            .min()
            .map(|(_, t)| t)
    }

    /// Whether the room's terrain is difficult for `id` (§3.4): a flyer crosses it at no extra cost.
    pub fn difficult_for(&self, id: CombatantId) -> bool {
        self.terrain.difficult && !self.get(id).flies()
    }

    /// Living opponents of `id` with the band to each, in combatant order.
    ///
    /// One pass over the bands instead of a lookup per opponent (an attack's cost does
    /// not grow with the square of the fight). The first entry of a pair wins, as in [`Combat::band`].
    pub fn bands_of(&self, id: CombatantId) -> Vec<(CombatantId, Band)> {
        let side = self.get(id).side;
        let mut opponents: Vec<(CombatantId, Band)> = self
            .combatants
            .iter()
            .filter(|c| c.side != side && !c.is_dead())
            .map(|c| (c.id, Band::Near))
            .collect();
        if opponents.is_empty() {
            return opponents;
        }
        // Combatants are stored by id, so an opponent's place in `opponents` is found by a binary
        // search on the id; walking the bands backwards lets the first entry of a pair win.
        for e in self.bands.iter().rev() {
            let Some(other) = e.other(id) else {
                continue;
            };
            if let Ok(i) = opponents.binary_search_by_key(&other, |(o, _)| *o) {
                opponents[i].1 = e.band;
            }
        }
        opponents
    }

    /// Living opponents of `id` in melee with it, in combatant order.
    pub fn engaged_with(&self, id: CombatantId) -> Vec<CombatantId> {
        let mut engaged: Vec<CombatantId> = self.melee_opponents(id).filter(|o| !self.get(*o).is_dead()).collect();
        // A pair listed twice in `bands` is one opponent.
        engaged.sort_unstable();
        engaged.dedup();
        engaged
    }

    /// Standing (conscious) opponents of `id` in melee with it, in combatant order.
    pub fn standing_engaged_with(&self, id: CombatantId) -> Vec<CombatantId> {
        let mut engaged: Vec<CombatantId> = self
            .melee_opponents(id)
            .filter(|o| self.get(*o).is_standing())
            .collect();
        engaged.sort_unstable();
        engaged.dedup();
        engaged
    }

    /// Whether a standing (conscious) opponent is in melee with `id` (`standing_engaged_with` is
    /// not empty), without listing them.
    pub fn is_engaged(&self, id: CombatantId) -> bool {
        self.melee_opponents(id).any(|o| self.get(o).is_standing())
    }

    /// Opponents of `id` whose band to it is Melee (a pair listed twice may come twice), from one
    /// pass over the bands.
    fn melee_opponents(&self, id: CombatantId) -> impl Iterator<Item = CombatantId> + '_ {
        let side = self.get(id).side;
        self.bands.iter().filter_map(move |e| {
            if e.band != Band::Melee {
                return None;
            }
            let other = e.other(id)?;
            let o = self.combatants.get(other.0 as usize)?;
            // The pair's first entry decides its band (`band`), and allies have none.
            (o.side != side && self.band(id, other) == Band::Melee).then_some(other)
        })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{Class, Monster, Race};
    use crate::state::combatant::Controller;

    /// Two fighters against four goblins: goblin 1 in melee with Ana, goblin 2 with both, goblin 3
    /// dead in melee with Ana, goblin 4 far; and a stray second entry for Ana and goblin 4.
    fn skirmish() -> Combat {
        let ana = Combatant::character("Ana", Race::HUMAN, Class::FIGHTER, 1, Controller::Player("a".into()));
        let bo = Combatant::character("Bo", Race::HUMAN, Class::FIGHTER, 1, Controller::Player("b".into()));
        let goblins = (1..=4).map(|i| Combatant::monster(&format!("Goblin {i}"), Monster::GOBLIN));
        let mut c = Combat::new([ana, bo].into_iter().chain(goblins).collect(), Terrain::default());
        let (ana, bo) = (CombatantId(0), CombatantId(1));
        c.set_band(ana, CombatantId(2), Band::Melee);
        c.set_band(CombatantId(3), ana, Band::Melee);
        c.set_band(bo, CombatantId(3), Band::Melee);
        c.set_band(ana, CombatantId(4), Band::Melee);
        c.get_mut(CombatantId(4)).hp = 0;
        c.set_band(ana, CombatantId(5), Band::Far);
        // A pair listed twice: the first entry is its band, as `band` reads it.
        c.bands.push(BandEntry {
            a: ana,
            b: CombatantId(5),
            band: Band::Melee,
        });
        c
    }

    #[test]
    fn bands_of_lists_living_opponents_in_order_with_the_band_each_pair_reads() {
        let c = skirmish();
        let ana = CombatantId(0);
        assert_eq!(
            c.bands_of(ana),
            [
                (CombatantId(2), Band::Melee),
                (CombatantId(3), Band::Melee),
                (CombatantId(5), Band::Far)
            ]
        );
        for id in (0..6).map(CombatantId) {
            let expected: Vec<(CombatantId, Band)> = c
                .combatants
                .iter()
                .filter(|o| o.side != c.get(id).side && !o.is_dead())
                .map(|o| (o.id, c.band(id, o.id)))
                .collect();
            assert_eq!(c.bands_of(id), expected, "{id:?}");
        }
    }

    #[test]
    fn nearest_opponent_reads_the_bands_as_bands_of_does_without_collecting_them() {
        let c = skirmish();
        let ana = CombatantId(0);
        assert_eq!(c.nearest_opponent(ana, |_, _| true), Some(CombatantId(2)));
        assert_eq!(
            c.nearest_opponent(ana, |_, band| band != Band::Melee),
            Some(CombatantId(5)),
            "a pair listed twice is at its first entry's band (Far), not Melee"
        );
        assert_eq!(c.nearest_opponent(ana, |_, band| band == Band::Near), None);
        for id in (0..6).map(CombatantId) {
            for far_only in [false, true] {
                let wanted = |_: &Combatant, band: Band| !far_only || band == Band::Far;
                let expected = c
                    .bands_of(id)
                    .into_iter()
                    .filter(|&(t, band)| wanted(c.get(t), band))
                    .map(|(t, band)| (band, t))
                    .min()
                    .map(|(_, t)| t);
                assert_eq!(c.nearest_opponent(id, wanted), expected, "{id:?}");
            }
        }
    }

    #[test]
    fn engaged_with_skips_the_dead_and_a_pair_listed_twice_counts_once_by_its_first_band() {
        let mut c = skirmish();
        let ana = CombatantId(0);
        assert_eq!(c.engaged_with(ana), [CombatantId(2), CombatantId(3)]);
        assert_eq!(c.engaged_with(CombatantId(3)), [CombatantId(0), CombatantId(1)]);
        assert!(c.is_engaged(ana));
        assert!(
            !c.is_engaged(CombatantId(5)),
            "Goblin 4 is Far from Ana: its second entry is not read"
        );
        // Goblins 1 and 2 go down: Ana is still engaged with nobody standing.
        c.get_mut(CombatantId(2)).hp = 0;
        c.get_mut(CombatantId(3)).hp = 0;
        assert!(c.standing_engaged_with(ana).is_empty());
        assert!(!c.is_engaged(ana));
    }
}
