//! The conditions of SRD 5.1 (appendix "Conditions") as statuses hold them (`kind = "condition"`,
//! `crate::statuses`), in every ruleset, with the flags the standard actions set (prone, poisoned,
//! restrained, grappled; seed 000 §2.1, §3.2):
//! - *blinded*: its attacks at disadvantage, attacks against it at advantage;
//! - *frightened*, *poisoned*: its attacks at disadvantage;
//! - *invisible*: its attacks at advantage, attacks against it at disadvantage;
//! - *restrained*: speed 0, its attacks and DEX saves at disadvantage, attacks against it at
//!   advantage;
//! - *grappled*: speed 0;
//! - *incapacitated*, *stunned*, *paralyzed*, *petrified*, *unconscious*: the turn is lost as it
//!   starts (`incapacitates`); but *incapacitated*, they also make speed 0, fail STR and DEX
//!   saves and give attacks against them advantage; a melee hit on the *paralyzed* or
//!   *unconscious* is a critical hit;
//! - *charmed*, *deafened*, *exhaustion*: named for immunities; nothing in a fight.

use crate::content::{Ability, Condition};
use crate::state::combatant::Combatant;

/// Whether `c` has `condition`: from a status that holds it, or from the flags the actions set.
pub fn has(c: &Combatant, condition: Condition) -> bool {
    let flag = match condition {
        Condition::Prone => c.conditions.prone,
        Condition::Poisoned => c.conditions.poisoned,
        Condition::Restrained => c.conditions.restrained,
        Condition::Grappled => c.conditions.grappled_by.is_some(),
        _ => false,
    };
    flag || (!c.statuses.is_empty() && c.statuses.iter().any(|s| s.condition == Some(condition)))
}

/// Whether `condition` takes its holder's turn away.
pub fn incapacitates(condition: Condition) -> bool {
    matches!(
        condition,
        Condition::Incapacitated
            | Condition::Stunned
            | Condition::Paralyzed
            | Condition::Petrified
            | Condition::Unconscious
    )
}

/// Whether a status holds `c` helpless (stunned, paralyzed, petrified or unconscious).
fn helpless(c: &Combatant) -> bool {
    !c.statuses.is_empty()
        && c.statuses.iter().any(|s| {
            s.condition
                .is_some_and(|k| incapacitates(k) && k != Condition::Incapacitated)
        })
}

/// What a status-held condition does to `attacker`'s attack roll against `target`:
/// (advantage, disadvantage).
pub fn attack_sources(attacker: &Combatant, target: &Combatant) -> (bool, bool) {
    if attacker.statuses.is_empty() && target.statuses.is_empty() {
        return (false, false);
    }
    let a = |k| has(attacker, k);
    let t = |k| has(target, k);
    let advantage = a(Condition::Invisible) || t(Condition::Blinded) || t(Condition::Restrained) || helpless(target);
    let disadvantage = a(Condition::Blinded)
        || a(Condition::Frightened)
        || a(Condition::Poisoned)
        || a(Condition::Restrained)
        || t(Condition::Invisible);
    (advantage, disadvantage)
}

/// Whether a hit on `target` from within melee is a critical hit (paralyzed, unconscious).
pub fn melee_hits_crit(target: &Combatant) -> bool {
    !target.statuses.is_empty() && (has(target, Condition::Paralyzed) || has(target, Condition::Unconscious))
}

/// A saving throw of `ability` by `c`: `None` when it fails without a roll (STR and DEX while
/// helpless), else whether it is rolled at disadvantage.
pub fn save(c: &Combatant, ability: Ability) -> Option<bool> {
    let physical = matches!(ability, Ability::Str | Ability::Dex);
    if physical && helpless(c) {
        return None;
    }
    Some(ability == Ability::Dex && has(c, Condition::Restrained))
}

/// Whether a status-held condition stops `c` moving (speed 0).
pub fn holds_still(c: &Combatant) -> bool {
    !c.statuses.is_empty() && (helpless(c) || has(c, Condition::Restrained) || has(c, Condition::Grappled))
}
