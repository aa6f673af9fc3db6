//! Multi-attack (seed 000 §6): one Attack action resolves the whole sequence — by class and level
//! for characters, by stat block for monsters — each swing its own event.

use crate::state::combat::Combat;
use crate::state::combatant::Combatant;
use crate::state::event::AttackKind;
use crate::state::ids::CombatantId;
use crate::state::movement::Band;
use crate::state::step::{Step, Strike, Swing};

/// Whether `strike` by `attacker` reaches `target` from where they stand.
pub fn reaches(combat: &Combat, attacker: &Combatant, target: CombatantId, strike: Strike) -> bool {
    ranged(attacker, strike) || combat.band(attacker.id, target) == Band::Melee
}

/// Whether a strike is a ranged attack.
pub fn ranged(attacker: &Combatant, strike: Strike) -> bool {
    match strike {
        Strike::MainHand => attacker.weapon().ranged,
        Strike::OffHand | Strike::Unarmed => false,
        Strike::Natural(i) => attacker
            .stat_block()
            .is_some_and(|m| m.attacks.get(i).is_some_and(|a| a.ranged)),
        Strike::Spell(_) => true,
    }
}

/// The strike `attacker` uses against `target`: a monster with a multiattack pattern uses the
/// pattern's attack for `swing` when it suits the band (a melee one only in melee); otherwise it
/// picks a melee attack in melee and a ranged one at range (`swing` picks among several: the
/// first, then the last).
pub fn strike_for(combat: &Combat, attacker: &Combatant, target: CombatantId, swing: u32) -> Option<Strike> {
    let Some(monster) = attacker.stat_block() else {
        return reaches(combat, attacker, target, Strike::MainHand).then_some(Strike::MainHand);
    };
    let attacks = &monster.attacks;
    let in_melee = combat.band(attacker.id, target) == Band::Melee;
    if !monster.pattern.is_empty() {
        let step = (swing.max(1) as usize - 1) % monster.pattern.len();
        let i = usize::from(monster.pattern[step]);
        if attacks.get(i).is_some_and(|a| a.ranged || in_melee) {
            return Some(Strike::Natural(i));
        }
    }
    // The attacks that suit the band (else the ranged ones): the first for the first swing, the
    // last for the others.
    let first_and_last = |suits: &dyn Fn(usize) -> bool| {
        let first = (0..attacks.len()).find(|&i| suits(i))?;
        let last = (0..attacks.len()).rev().find(|&i| suits(i))?;
        Some((first, last))
    };
    let (first, last) =
        first_and_last(&|i| attacks[i].ranged != in_melee).or_else(|| first_and_last(&|i| attacks[i].ranged))?;
    Some(Strike::Natural(if swing <= 1 { first } else { last }))
}

/// The strike of an opportunity attack, which is always a melee attack (§4): a character whose
/// main weapon is ranged strikes unarmed; a monster uses a melee attack of its stat block.
pub fn opportunity_strike(combat: &Combat, attacker: &Combatant, target: CombatantId) -> Option<Strike> {
    if attacker.stat_block().is_none() && attacker.weapon().ranged {
        return Some(Strike::Unarmed);
    }
    strike_for(combat, attacker, target, 1)
}

/// The swings of one Attack action against `target`.
pub fn sequence(combat: &Combat, attacker: &Combatant, target: CombatantId) -> Vec<Step> {
    let of = attacker.attacks_per_action();
    let mut swings = Vec::with_capacity(of as usize);
    swings.extend((1..=of).filter_map(|swing| action_swing(combat, attacker, target, swing, of).map(Step::Swing)));
    swings
}

/// The sequence's swings when it has one: `Some` of what [`sequence`] would hold (no swing if
/// no strike suits), `None` when the sequence is longer.
pub fn lone_swing(combat: &Combat, attacker: &Combatant, target: CombatantId) -> Option<Option<Swing>> {
    (attacker.attacks_per_action() == 1).then(|| action_swing(combat, attacker, target, 1, 1))
}

/// Swing `swing` of `of` in an Attack action against `target`.
fn action_swing(combat: &Combat, attacker: &Combatant, target: CombatantId, swing: u32, of: u32) -> Option<Swing> {
    let strike = strike_for(combat, attacker, target, swing)?;
    Some(Swing {
        attacker: attacker.id,
        target,
        strike,
        kind: AttackKind::Action,
        swing,
        of,
        declared: false,
    })
}

/// A new target for a swing whose target fell: a standing enemy within reach, nearest first.
pub fn retarget(combat: &Combat, swing: &Swing) -> Option<CombatantId> {
    let attacker = combat.get(swing.attacker);
    combat.nearest_opponent(attacker.id, |t, _| {
        t.is_standing() && reaches(combat, attacker, t.id, swing.strike)
    })
}
