//! Status effects the content inflicts (seed 003 §1.C "Status Effect Tick"): damage or
//! healing over time, durations, permanent effects and stun. Their definitions are content data
//! (a status, what a hit inflicts with the save that negates it, a monster's innate statuses —
//! `statuses.toml`, `spells.toml`, `monsters.toml`); this module is the status a unit carries.
//! `crate::statuses` applies them, in every ruleset.
//!
//! A status the target already has is not stacked: its duration becomes the longer of the two.

use serde::{Deserialize, Serialize};

use super::data::{AfflictionDef, SaveEnds, SignedDice, StatusDef, StatusKindDef};
use super::{Ability, Condition, DamageType};

/// What a status effect does at its owner's upkeep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum StatusKind {
    /// Damage over time.
    Dot { amount: i32, damage_type: DamageType },
    /// Healing over time.
    Hot { amount: i32 },
    /// The turn ends as soon as it starts.
    Stun,
    /// Holds its `condition` while it lasts (`crate::conditions`).
    Condition,
    /// Its holder's attack rolls and saving throws gain (or lose) the dice, its armor class the
    /// number, while it lasts (`crate::statuses::modifiers`).
    Modifier {
        attack: Option<SignedDice>,
        saves: Option<SignedDice>,
        ac: i32,
    },
}

/// A status effect on a unit (seed 003 §1.C).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusEffect {
    pub name: String,
    pub kind: StatusKind,
    /// Turns left.
    pub duration: u32,
    /// Never expires.
    pub permanent: bool,
    /// The condition it stands for, if any: a creature immune to that condition is never given it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
    /// The saving throw that ends it at the end of one of its owner's turns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ends_on_save: Option<EndsOnSave>,
    /// The caster whose concentration holds it up: it ends when that concentration does
    /// (`crate::concentration`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concentration: Option<crate::state::ids::CombatantId>,
}

/// A saving throw that ends a status: ability, DC, and whether it resists a spell (Magic
/// Resistance gives advantage on it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndsOnSave {
    pub ability: Ability,
    pub dc: i32,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub spell: bool,
}

impl From<&StatusDef> for StatusEffect {
    fn from(def: &StatusDef) -> Self {
        StatusEffect {
            name: def.name.to_string(),
            kind: match def.kind {
                StatusKindDef::Dot { amount, damage_type } => StatusKind::Dot { amount, damage_type },
                StatusKindDef::Hot { amount } => StatusKind::Hot { amount },
                StatusKindDef::Stun => StatusKind::Stun,
                StatusKindDef::Condition => StatusKind::Condition,
                StatusKindDef::Modifier { attack, saves, ac } => StatusKind::Modifier { attack, saves, ac },
            },
            duration: def.duration,
            permanent: def.permanent,
            condition: def.condition,
            ends_on_save: match def.save_ends {
                Some(SaveEnds::Own(ability, dc)) => Some(EndsOnSave {
                    ability,
                    dc,
                    spell: false,
                }),
                Some(SaveEnds::Inflicting) | None => None,
            },
            concentration: None,
        }
    }
}

/// A status a hit may inflict, and the saving throw (ability, DC) that negates it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Affliction {
    pub status: StatusEffect,
    pub save: Option<(Ability, i32)>,
    /// A spell inflicts it (Magic Resistance gives advantage on its saves).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub spell: bool,
}

impl Affliction {
    /// The same affliction, inflicted by a spell.
    #[must_use]
    pub fn by_spell(mut self) -> Self {
        self.spell = true;
        if let Some(save) = &mut self.status.ends_on_save {
            save.spell = true;
        }
        self
    }
}

impl From<&AfflictionDef> for Affliction {
    fn from(def: &AfflictionDef) -> Self {
        let mut status = StatusEffect::from(&def.status);
        if def.status.save_ends == Some(SaveEnds::Inflicting)
            && let Some((ability, dc)) = def.save
        {
            status.ends_on_save = Some(EndsOnSave {
                ability,
                dc,
                spell: false,
            });
        }
        Affliction {
            status,
            save: def.save,
            spell: false,
        }
    }
}

/// A built-in status by name (for tests and tools).
pub fn builtin(name: &str) -> Option<StatusEffect> {
    super::data::builtin()
        .statuses
        .get(name)
        .map(|d| StatusEffect::from(&**d))
}

/// Burning (built-in): 2 fire damage at each upkeep, for 2 turns.
pub fn burning() -> StatusEffect {
    builtin("Burning").expect("the built-in content defines Burning")
}

/// Paralysed (built-in): the next turn is lost.
pub fn paralysed() -> StatusEffect {
    builtin("Paralysed").expect("the built-in content defines Paralysed")
}

/// Regeneration (built-in): heals 10 at each upkeep, for good.
pub fn regeneration() -> StatusEffect {
    builtin("Regeneration").expect("the built-in content defines Regeneration")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{Monster, Spell};

    #[test]
    fn the_builtin_content_names_real_attacks_and_statuses() {
        let claws = &Monster::GHOUL.def().attacks[0];
        assert_eq!(&*claws.name, "Claws");
        let paralysis = claws.on_hit.as_ref().map(Affliction::from).unwrap();
        assert_eq!(paralysis.status, paralysed());
        assert_eq!(paralysis.save, Some((Ability::Con, 10)));
        assert!(Monster::GOBLIN.def().attacks.iter().all(|a| a.on_hit.is_none()));
        assert_eq!(
            Spell::FIRE_BOLT
                .builtin()
                .unwrap()
                .on_hit
                .as_ref()
                .map(|a| Affliction::from(a).status),
            Some(burning())
        );
        assert!(Spell::ELDRITCH_BLAST.builtin().unwrap().on_hit.is_none());
        assert_eq!(
            Monster::TROLL
                .def()
                .statuses
                .iter()
                .map(StatusEffect::from)
                .collect::<Vec<_>>(),
            vec![regeneration()]
        );
        assert!(regeneration().permanent);
        assert_eq!(
            (burning().kind, burning().duration),
            (
                StatusKind::Dot {
                    amount: 2,
                    damage_type: DamageType::Fire
                },
                2
            )
        );
    }
}
