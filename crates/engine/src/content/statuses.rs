//! Status effects the shared content inflicts (seed 003 §1.C "Status Effect Tick"): damage or
//! healing over time, durations, permanent effects and stun. Statuses tick at the start of a
//! charge-race turn, so only the `ctb` model applies them; under the other models this content
//! does what it always did.
//!
//! | source | status | what it does at its owner's upkeep |
//! |---|---|---|
//! | Fire Bolt, on a hit | Burning | 2 fire damage, 2 turns |
//! | a Ghoul's Claws, on a hit (CON save DC 10 negates) | Paralysed | stun, 1 turn |
//! | a Troll, from the start of the fight | Regeneration | heals 10, permanent |
//!
//! A status the target already has is not stacked: its duration becomes the longer of the two.

use serde::{Deserialize, Serialize};

use super::{Ability, DamageType, Monster, Spell};
use crate::timing::ctb::{StatusEffect, StatusKind};

/// A status a hit may inflict, and the saving throw (ability, DC) that negates it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Affliction {
    pub status: StatusEffect,
    pub save: Option<(Ability, i32)>,
}

/// Burning: 2 fire damage at each upkeep, for 2 turns.
pub fn burning() -> StatusEffect {
    StatusEffect {
        name: "Burning".into(),
        kind: StatusKind::Dot {
            amount: 2,
            damage_type: DamageType::Fire,
        },
        duration: 2,
        permanent: false,
    }
}

/// Paralysed: the next turn is lost (a stun of 1 turn).
pub fn paralysed() -> StatusEffect {
    StatusEffect {
        name: "Paralysed".into(),
        kind: StatusKind::Stun,
        duration: 1,
        permanent: false,
    }
}

/// Regeneration: heals 10 at each upkeep, for good.
pub fn regeneration() -> StatusEffect {
    StatusEffect {
        name: "Regeneration".into(),
        kind: StatusKind::Hot { amount: 10 },
        duration: 0,
        permanent: true,
    }
}

/// What a spell attack that hits inflicts.
pub fn on_spell_hit(spell: Spell) -> Option<Affliction> {
    match spell {
        Spell::FireBolt => Some(Affliction {
            status: burning(),
            save: None,
        }),
        _ => None,
    }
}

/// What a monster's attack (by index in its stat block) inflicts when it hits.
pub fn on_natural_hit(monster: Monster, attack: usize) -> Option<Affliction> {
    let name = monster.stats().attacks.get(attack)?.name;
    match (monster, name) {
        (Monster::Ghoul, "Claws") => Some(Affliction {
            status: paralysed(),
            save: Some((Ability::Con, 10)),
        }),
        _ => None,
    }
}

/// The statuses a monster has from the start of a fight.
pub fn innate(monster: Monster) -> Vec<StatusEffect> {
    match monster {
        Monster::Troll => vec![regeneration()],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_names_real_attacks() {
        assert!(
            on_natural_hit(Monster::Ghoul, 0).is_some(),
            "the Ghoul's first attack is its Claws"
        );
        assert!(on_natural_hit(Monster::Ghoul, 9).is_none());
        assert!(on_natural_hit(Monster::Goblin, 0).is_none());
        assert_eq!(
            on_spell_hit(Spell::FireBolt).map(|a| a.status.name),
            Some("Burning".into())
        );
        assert!(on_spell_hit(Spell::EldritchBlast).is_none());
        assert!(innate(Monster::Troll)[0].permanent);
    }
}
