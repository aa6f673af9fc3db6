//! Spells the seed names (Cast Spell §2.1, Healing Word / Hunter's Mark / Misty Step §2.2,
//! Counterspell §2.3, Haste and Web §3.2, Eldritch Blast §6) and a few staples per caster.

use serde::{Deserialize, Serialize};

use super::{Ability, Class, DamageType, find_by_name};
use crate::dice::DiceExpr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Spell {
    FireBolt,
    SacredFlame,
    EldritchBlast,
    MagicMissile,
    CureWounds,
    HealingWord,
    HuntersMark,
    Entangle,
    Web,
    MistyStep,
    Haste,
    Fireball,
    Counterspell,
}

/// How long casting takes: which resource of the action economy it spends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CastingTime {
    Action,
    BonusAction,
    Reaction,
}

/// What a spell does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpellEffect {
    /// A ranged spell attack; cantrip dice grow at levels 5, 11 and 17.
    Attack { damage: DiceExpr, damage_type: DamageType },
    /// One spell attack per beam: 1 beam, 2 at level 5, 3 at 11, 4 at 17 (the seed's multi-attack exception).
    Beams { damage: DiceExpr, damage_type: DamageType },
    /// Darts that always hit.
    Darts { count: u32, damage: DiceExpr },
    /// A saving throw against the caster's DC; `area` also catches everyone in melee with the target.
    Save {
        ability: Ability,
        damage: DiceExpr,
        damage_type: DamageType,
        half_on_save: bool,
        area: bool,
    },
    /// Heal an ally (or self): dice + casting modifier.
    Heal { dice: DiceExpr },
    /// Mark a target: +1d6 on the caster's weapon hits against it.
    HuntersMark,
    /// Entangle the target on a failed save: half speed (§3.2 Web / Entangled).
    Entangle { ability: Ability },
    /// Teleport: leaves melee without provoking (§4).
    MistyStep,
    /// +30 ft speed for the rest of the fight (§3.2).
    Haste,
    /// Cancel a spell being cast: INT check against DC 10 + the spell's level (§2.3).
    Counterspell,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpellStats {
    pub name: &'static str,
    /// 0 for cantrips.
    pub level: u32,
    pub casting_time: CastingTime,
    pub classes: &'static [Class],
    pub effect: SpellEffect,
    /// Targets an ally (or the caster) rather than an enemy.
    pub targets_ally: bool,
    /// Needs a target at all.
    pub needs_target: bool,
}

impl Spell {
    pub const ALL: [Spell; 13] = [
        Spell::FireBolt,
        Spell::SacredFlame,
        Spell::EldritchBlast,
        Spell::MagicMissile,
        Spell::CureWounds,
        Spell::HealingWord,
        Spell::HuntersMark,
        Spell::Entangle,
        Spell::Web,
        Spell::MistyStep,
        Spell::Haste,
        Spell::Fireball,
        Spell::Counterspell,
    ];

    pub fn stats(self) -> SpellStats {
        use CastingTime::{Action, BonusAction, Reaction};
        use Class::{Cleric, Mage, Ranger};
        let s = |name, level, casting_time, classes, effect, targets_ally, needs_target| SpellStats {
            name,
            level,
            casting_time,
            classes,
            effect,
            targets_ally,
            needs_target,
        };
        match self {
            Spell::FireBolt => s(
                "Fire Bolt",
                0,
                Action,
                &[Mage],
                SpellEffect::Attack {
                    damage: DiceExpr::new(1, 10, 0),
                    damage_type: DamageType::Fire,
                },
                false,
                true,
            ),
            Spell::SacredFlame => s(
                "Sacred Flame",
                0,
                Action,
                &[Cleric],
                SpellEffect::Save {
                    ability: Ability::Dex,
                    damage: DiceExpr::new(1, 8, 0),
                    damage_type: DamageType::Radiant,
                    half_on_save: false,
                    area: false,
                },
                false,
                true,
            ),
            Spell::EldritchBlast => s(
                "Eldritch Blast",
                0,
                Action,
                &[Mage],
                SpellEffect::Beams {
                    damage: DiceExpr::new(1, 10, 0),
                    damage_type: DamageType::Force,
                },
                false,
                true,
            ),
            Spell::MagicMissile => s(
                "Magic Missile",
                1,
                Action,
                &[Mage],
                SpellEffect::Darts {
                    count: 3,
                    damage: DiceExpr::new(1, 4, 1),
                },
                false,
                true,
            ),
            Spell::CureWounds => s(
                "Cure Wounds",
                1,
                Action,
                &[Cleric, Ranger],
                SpellEffect::Heal {
                    dice: DiceExpr::new(2, 8, 0),
                },
                true,
                true,
            ),
            Spell::HealingWord => s(
                "Healing Word",
                1,
                BonusAction,
                &[Cleric],
                SpellEffect::Heal {
                    dice: DiceExpr::new(1, 4, 0),
                },
                true,
                true,
            ),
            Spell::HuntersMark => s(
                "Hunter's Mark",
                1,
                BonusAction,
                &[Ranger],
                SpellEffect::HuntersMark,
                false,
                true,
            ),
            Spell::Entangle => s(
                "Entangle",
                1,
                Action,
                &[Ranger],
                SpellEffect::Entangle { ability: Ability::Str },
                false,
                true,
            ),
            Spell::Web => s(
                "Web",
                2,
                Action,
                &[Mage],
                SpellEffect::Entangle { ability: Ability::Dex },
                false,
                true,
            ),
            Spell::MistyStep => s(
                "Misty Step",
                2,
                BonusAction,
                &[Mage],
                SpellEffect::MistyStep,
                false,
                false,
            ),
            Spell::Haste => s("Haste", 3, Action, &[Mage], SpellEffect::Haste, true, true),
            Spell::Fireball => s(
                "Fireball",
                3,
                Action,
                &[Mage],
                SpellEffect::Save {
                    ability: Ability::Dex,
                    damage: DiceExpr::new(8, 6, 0),
                    damage_type: DamageType::Fire,
                    half_on_save: true,
                    area: true,
                },
                false,
                true,
            ),
            Spell::Counterspell => s(
                "Counterspell",
                3,
                Reaction,
                &[Mage],
                SpellEffect::Counterspell,
                false,
                false,
            ),
        }
    }

    pub fn name(self) -> &'static str {
        self.stats().name
    }

    pub fn parse(text: &str) -> Option<Spell> {
        find_by_name(&Self::ALL, Self::name, text)
    }

    pub fn level(self) -> u32 {
        self.stats().level
    }
}

/// Cantrip damage dice multiply at character levels 5, 11 and 17.
pub fn cantrip_multiplier(level: u32) -> u32 {
    match level {
        17.. => 4,
        11.. => 3,
        5.. => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bonus_action_spells_are_healing_word_hunters_mark_and_misty_step() {
        let bonus: Vec<Spell> = Spell::ALL
            .iter()
            .copied()
            .filter(|s| s.stats().casting_time == CastingTime::BonusAction)
            .collect();
        assert_eq!(bonus, vec![Spell::HealingWord, Spell::HuntersMark, Spell::MistyStep]);
    }

    #[test]
    fn counterspell_is_a_third_level_mage_reaction() {
        let stats = Spell::Counterspell.stats();
        assert_eq!(
            (stats.level, stats.casting_time, stats.classes),
            (3, CastingTime::Reaction, &[Class::Mage][..])
        );
    }

    #[test]
    fn mages_learn_counterspell_at_level_five() {
        assert!(!Class::Mage.known_spells(4).contains(&Spell::Counterspell));
        assert!(Class::Mage.known_spells(5).contains(&Spell::Counterspell));
    }

    #[test]
    fn cantrips_scale_at_five_eleven_seventeen() {
        let m: Vec<u32> = [1, 4, 5, 10, 11, 16, 17, 20]
            .iter()
            .map(|&l| cantrip_multiplier(l))
            .collect();
        assert_eq!(m, vec![1, 1, 2, 2, 3, 3, 4, 4]);
    }

    #[test]
    fn spells_parse_by_name() {
        assert_eq!(Spell::parse("magic missile"), Some(Spell::MagicMissile));
        assert_eq!(Spell::parse("hunters mark"), Some(Spell::HuntersMark));
        assert_eq!(Spell::parse("wish"), None);
    }
}
