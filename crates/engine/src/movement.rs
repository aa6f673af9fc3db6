//! Movement (seed 000 §3): speed in feet, abstract distance bands (melee / near / far) instead of
//! coordinates, `move melee|ranged|<direction>`, difficult terrain halving movement (§3.2, §3.4).
//! The player states intent; the engine resolves geometry.

use crate::state::ids::CombatantId;
pub use crate::state::movement::{Band, Direction, MoveIntent, MoveOutcome, MovePlan};
use crate::state::violation::RuleViolation;

/// Feet of movement to go from one band to another (difficult terrain not yet applied).
pub fn feet_between(from: Band, to: Band) -> i32 {
    (from.feet() - to.feet()).abs()
}

/// Feet a lateral shift costs (stepping out of an area without changing bands).
pub const SHIFT_FEET: i32 = 10;

/// Difficult terrain doubles what a move costs (halving movement, §3.2, §3.4).
pub fn terrain_cost(feet: i32, difficult: bool) -> i32 {
    if difficult { feet * 2 } else { feet }
}

/// Plans `intent` given the mover's current band to each living enemy.
pub fn plan(intent: MoveIntent, bands: &[(CombatantId, Band)], difficult: bool) -> Result<MovePlan, RuleViolation> {
    let mut changes = Vec::new();
    let mut feet = 0;
    match intent {
        MoveIntent::Melee(target) => {
            let Some(&(_, from)) = bands.iter().find(|(id, _)| *id == target) else {
                return Err(RuleViolation::InvalidTarget {
                    reason: "You can only close to melee with an enemy in this fight.".into(),
                });
            };
            if from == Band::Melee {
                return Err(RuleViolation::Pointless {
                    reason: "You are already in melee with them.".into(),
                });
            }
            feet = feet_between(from, Band::Melee);
            changes.push((target, Band::Melee));
        }
        MoveIntent::Ranged => {
            for &(id, band) in bands {
                if band == Band::Melee {
                    changes.push((id, Band::Near));
                    feet = feet.max(feet_between(Band::Melee, Band::Near));
                }
            }
            if changes.is_empty() {
                return Err(RuleViolation::Pointless {
                    reason: "You are already at range from every enemy.".into(),
                });
            }
        }
        MoveIntent::Toward | MoveIntent::Away => {
            for &(id, band) in bands {
                let to = if intent == MoveIntent::Toward {
                    band.closer()
                } else {
                    band.farther()
                };
                if to != band {
                    feet = feet.max(feet_between(band, to));
                    changes.push((id, to));
                }
            }
            if changes.is_empty() {
                let reason = if intent == MoveIntent::Toward {
                    "You are already as close as you can get."
                } else {
                    "You are already as far away as the room allows."
                };
                return Err(RuleViolation::Pointless { reason: reason.into() });
            }
        }
        MoveIntent::Shift(_) => feet = SHIFT_FEET,
    }
    let leaving: Vec<CombatantId> = changes
        .iter()
        .filter(|(id, to)| *to != Band::Melee && bands.iter().any(|(b, band)| b == id && *band == Band::Melee))
        .map(|(id, _)| *id)
        .collect();
    let entering: Vec<CombatantId> = changes
        .iter()
        .filter(|(_, to)| *to == Band::Melee)
        .map(|(id, _)| *id)
        .collect();
    let outcome = outcome(bands, &changes, &leaving, &entering);
    let from = changes
        .iter()
        .filter_map(|(id, _)| bands.iter().find(|(b, _)| b == id).copied())
        .collect();
    Ok(MovePlan {
        changes,
        feet: terrain_cost(feet, difficult),
        leaving,
        entering,
        teleport: false,
        outcome,
        crawl: false,
        from,
    })
}

/// What changing `changes` from `bands` comes to (see [`MoveOutcome`]).
fn outcome(
    bands: &[(CombatantId, Band)],
    changes: &[(CombatantId, Band)],
    leaving: &[CombatantId],
    entering: &[CombatantId],
) -> MoveOutcome {
    let before = |id: CombatantId| bands.iter().find(|(b, _)| *b == id).map(|(_, band)| *band);
    if let Some(&with) = entering.first() {
        return MoveOutcome::ClosedIn(with);
    }
    if let Some(&of) = leaving.first() {
        return MoveOutcome::LeftReach(of);
    }
    if let Some(&(toward, _)) = changes.iter().find(|(id, to)| before(*id).is_some_and(|b| *to < b)) {
        return MoveOutcome::Advanced(toward);
    }
    if let Some(&(from, _)) = changes.iter().find(|(id, to)| before(*id).is_some_and(|b| *to > b)) {
        return MoveOutcome::FellBack(from);
    }
    match bands.iter().find(|(_, band)| *band == Band::Melee) {
        Some(&(with, _)) => MoveOutcome::ShiftedInMelee(with),
        None => MoveOutcome::Shifted,
    }
}

/// Feet `id` has already covered toward melee with `target` on earlier turns (0 once the band
/// between them has changed).
pub fn banked_toward(combat: &crate::state::combat::Combat, id: CombatantId, target: CombatantId) -> i32 {
    combat
        .get(id)
        .conditions
        .approach
        .filter(|a| a.target == target && a.from == combat.band(id, target))
        .map_or(0, |a| a.feet)
}

/// What closing to melee with an opponent costs now, read without moving (the status shows it
/// before anyone types `/move melee`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeleeCost {
    /// The band between them now (never Melee).
    pub band: Band,
    /// Feet the band stands for on open ground.
    pub open_ground: i32,
    /// Feet on the mover's ground: doubled when the room is difficult terrain for it.
    pub here: i32,
    /// Feet already covered toward them on earlier turns, taken off `here`.
    pub banked: i32,
    /// Feet standing up from prone costs first (half speed).
    pub stand: i32,
}

impl MeleeCost {
    /// Every foot the move spends: the ground left to cover and standing up.
    pub fn total(&self) -> i32 {
        self.here - self.banked + self.stand
    }
}

/// What `/move melee` with `target` would cost `id` now (as `actions::move_to` prices it):
/// `None` when `target` is not a living opponent or is already in melee with it.
pub fn cost_to_melee(combat: &crate::state::combat::Combat, id: CombatantId, target: CombatantId) -> Option<MeleeCost> {
    let bands = combat.bands_of(id);
    let &(_, band) = bands.iter().find(|(o, _)| *o == target)?;
    let difficult = combat.difficult_for(id);
    let plan = plan(MoveIntent::Melee(target), &bands, difficult).ok()?;
    let me = combat.get(id);
    Some(MeleeCost {
        band,
        open_ground: feet_between(band, Band::Melee),
        here: plan.feet,
        banked: banked_toward(combat, id, target),
        stand: if me.conditions.prone { me.speed() / 2 } else { 0 },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: CombatantId = CombatantId(1);
    const B: CombatantId = CombatantId(2);

    #[test]
    fn closing_from_near_to_melee_costs_twenty_five_feet() {
        let p = plan(MoveIntent::Melee(A), &[(A, Band::Near), (B, Band::Near)], false).unwrap();
        assert_eq!(p.feet, 25);
        assert_eq!(p.changes, vec![(A, Band::Melee)]);
        assert_eq!(p.entering, vec![A]);
        assert!(p.leaving.is_empty());
    }

    #[test]
    fn difficult_terrain_halves_movement_by_doubling_cost() {
        let p = plan(MoveIntent::Melee(A), &[(A, Band::Near)], true).unwrap();
        assert_eq!(p.feet, 50);
    }

    #[test]
    fn falling_back_leaves_every_melee() {
        let p = plan(MoveIntent::Ranged, &[(A, Band::Melee), (B, Band::Melee)], false).unwrap();
        assert_eq!(p.feet, 25);
        assert_eq!(p.leaving, vec![A, B]);
    }

    #[test]
    fn a_lateral_shift_changes_no_band() {
        let p = plan(MoveIntent::Shift(Direction::North), &[(A, Band::Melee)], false).unwrap();
        assert_eq!(p.feet, SHIFT_FEET);
        assert!(p.changes.is_empty() && p.leaving.is_empty());
    }

    #[test]
    fn each_move_is_narrated_by_what_it_came_to() {
        let out = |intent, bands: &[(CombatantId, Band)]| plan(intent, bands, false).unwrap().outcome;
        // Toward from far: closer, not "gives ground".
        assert_eq!(out(MoveIntent::Toward, &[(A, Band::Far)]), MoveOutcome::Advanced(A));
        assert_eq!(out(MoveIntent::Toward, &[(A, Band::Near)]), MoveOutcome::ClosedIn(A));
        assert_eq!(
            out(MoveIntent::Melee(B), &[(A, Band::Far), (B, Band::Near)]),
            MoveOutcome::ClosedIn(B)
        );
        assert_eq!(
            out(MoveIntent::Away, &[(A, Band::Melee), (B, Band::Near)]),
            MoveOutcome::LeftReach(A)
        );
        assert_eq!(out(MoveIntent::Away, &[(A, Band::Near)]), MoveOutcome::FellBack(A));
        assert_eq!(
            out(MoveIntent::Ranged, &[(A, Band::Near), (B, Band::Melee)]),
            MoveOutcome::LeftReach(B)
        );
        // A sideways shift in melee stays in melee.
        let east = MoveIntent::Shift(Direction::East);
        assert_eq!(
            out(east, &[(A, Band::Near), (B, Band::Melee)]),
            MoveOutcome::ShiftedInMelee(B)
        );
        assert_eq!(out(east, &[(A, Band::Near)]), MoveOutcome::Shifted);
    }

    #[test]
    fn pointless_moves_are_refused() {
        assert!(plan(MoveIntent::Melee(A), &[(A, Band::Melee)], false).is_err());
        assert!(plan(MoveIntent::Ranged, &[(A, Band::Near)], false).is_err());
        assert!(plan(MoveIntent::Away, &[(A, Band::Far)], false).is_err());
    }

    #[test]
    fn directions_parse() {
        assert_eq!(MoveIntent::parse_direction("away").unwrap(), MoveIntent::Away);
        assert_eq!(
            MoveIntent::parse_direction("North").unwrap(),
            MoveIntent::Shift(Direction::North)
        );
        assert!(MoveIntent::parse_direction("sideways-ish").is_err());
    }
}
