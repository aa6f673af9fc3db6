//! Damage resistances, immunities and vulnerabilities, and condition immunities (SRD 5.1 "Damage
//! Resistance and Vulnerability"; seed 000 §2.2 Rage's resistance): applied to each part of
//! damage as it lands, in every ruleset. Resistance halves (rounded down) and then vulnerability
//! doubles; several sources of resistance count once; immunity takes it all.

use crate::content::Condition;
use crate::content::data::Defences;
use crate::ctx::Ctx;
use crate::state::combatant::Combatant;
use crate::state::damage::{DamagePart, Defence};
use crate::state::event::Event;
use crate::state::ids::CombatantId;

/// What `defences` (and a rage, `raging`) leave of `part`; `mundane` says it comes from a
/// non-magical weapon or natural attack. The second value is what each defence took or added.
pub fn adjust(
    defences: &Defences,
    raging: bool,
    part: DamagePart,
    mundane: bool,
) -> (i32, [Option<(Defence, i32)>; 2]) {
    let DamagePart { amount, damage_type } = part;
    let amount = amount.max(0);
    if amount == 0 {
        return (0, [None, None]);
    }
    if defences.immunities.holds(damage_type, mundane) {
        return (0, [Some((Defence::Immunity, amount)), None]);
    }
    let mut left = amount;
    let mut done = [None, None];
    let rage = raging && damage_type.is_physical();
    if rage || defences.resistances.holds(damage_type, mundane) {
        let kept = left / 2;
        done[0] = Some((Defence::Resistance, left - kept));
        left = kept;
    }
    if defences.vulnerabilities.holds(damage_type, mundane) {
        done[1] = Some((Defence::Vulnerability, left));
        left *= 2;
    }
    (left, done)
}

/// Lands `part` on `target` through its defences, reporting each; the damage left.
pub fn take(ctx: &mut Ctx, target: CombatantId, part: DamagePart, mundane: bool) -> i32 {
    let t = ctx.combat.get(target);
    let raging = t.conditions.raging;
    let (left, done) = adjust(&t.defences(), raging, part, mundane);
    for (defence, amount) in done.into_iter().flatten() {
        // A rage's resistance keeps its own line (§2.2).
        let event = if defence == Defence::Resistance && raging && part.damage_type.is_physical() {
            Event::Resisted { target, amount }
        } else {
            Event::Defended {
                target,
                damage_type: part.damage_type,
                defence,
                amount,
            }
        };
        ctx.emit(event);
    }
    left
}

/// Whether `c` cannot be given `condition` (a stat block's condition immunities); when so, the
/// attempt is reported and comes to nothing.
pub fn shrugs_off(ctx: &mut Ctx, id: CombatantId, condition: Condition) -> bool {
    if !immune(ctx.combat.get(id), condition) {
        return false;
    }
    ctx.emit(Event::ConditionImmune { id, condition });
    true
}

/// Whether `c` is immune to `condition`.
pub fn immune(c: &Combatant, condition: Condition) -> bool {
    c.defences().condition_immunities.contains(condition)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{DamageSet, DamageType};

    fn part(amount: i32, damage_type: DamageType) -> DamagePart {
        DamagePart { amount, damage_type }
    }

    fn fire(set: &str) -> Defences {
        let fire = DamageSet::of(&[DamageType::Fire]);
        match set {
            "resist" => Defences {
                resistances: fire,
                ..Defences::default()
            },
            "immune" => Defences {
                immunities: fire,
                ..Defences::default()
            },
            "vulnerable" => Defences {
                vulnerabilities: fire,
                ..Defences::default()
            },
            _ => Defences {
                resistances: fire,
                vulnerabilities: fire,
                ..Defences::default()
            },
        }
    }

    #[test]
    fn resistance_halves_rounding_down() {
        assert_eq!(adjust(&fire("resist"), false, part(7, DamageType::Fire), false).0, 3);
        assert_eq!(adjust(&fire("resist"), false, part(1, DamageType::Fire), false).0, 0);
        assert_eq!(adjust(&fire("resist"), false, part(7, DamageType::Cold), false).0, 7);
    }

    #[test]
    fn immunity_takes_all_of_it() {
        let (left, done) = adjust(&fire("immune"), false, part(23, DamageType::Fire), false);
        assert_eq!(left, 0);
        assert_eq!(done[0], Some((Defence::Immunity, 23)));
    }

    #[test]
    fn vulnerability_doubles() {
        assert_eq!(
            adjust(&fire("vulnerable"), false, part(9, DamageType::Fire), false).0,
            18
        );
    }

    #[test]
    fn resistance_applies_before_vulnerability() {
        // 9 → 4 (halved, rounded down) → 8, not 9 → 18 → 9.
        assert_eq!(adjust(&fire("both"), false, part(9, DamageType::Fire), false).0, 8);
    }

    #[test]
    fn rage_and_a_stat_block_resistance_count_once() {
        let stone = Defences {
            resistances: DamageSet::of(&[DamageType::Slashing]),
            ..Defences::default()
        };
        assert_eq!(adjust(&stone, true, part(10, DamageType::Slashing), true).0, 5);
    }

    #[test]
    fn nonmagical_resistance_holds_only_against_mundane_weapons() {
        let mut set = DamageSet::EMPTY;
        set.insert(DamageType::Slashing, true);
        let ghost = Defences {
            resistances: set,
            ..Defences::default()
        };
        assert_eq!(adjust(&ghost, false, part(10, DamageType::Slashing), true).0, 5);
        assert_eq!(adjust(&ghost, false, part(10, DamageType::Slashing), false).0, 10);
    }
}
