//! Ready's data (seed 000 §5): a readied action, its trigger and what was observed. Parsing and
//! firing them are `crate::readied`.

use serde::{Deserialize, Serialize};

use crate::content::Spell;
use crate::state::ids::CombatantId;

/// A readied action waiting for its trigger (seed 000 §9 `ReadiedAction`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadiedAction {
    pub action: HeldAction,
    pub trigger: Trigger,
    /// The trigger as the player wrote it.
    pub trigger_desc: String,
    /// The round at whose owner's turn it expires (the initiative count of §9).
    pub expires_at: u32,
    pub fired: bool,
}

/// The action held for the trigger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum HeldAction {
    /// One melee or ranged attack, at the named target or the trigger's creature.
    Attack {
        target: Option<CombatantId>,
    },
    /// A spell, cast when it fires (the slot is spent then).
    Cast {
        spell: Spell,
        target: Option<CombatantId>,
    },
    Dodge,
    /// Get away at once: one band farther from every enemy (it may provoke).
    Dash,
    /// Slip out of every enemy's reach without provoking.
    Disengage,
    /// Give an ally (the named one, or the one the trigger's attack is aimed at) advantage.
    Help {
        ally: Option<CombatantId>,
    },
    /// Stealth against the enemies' passive Perception (not with an enemy in reach).
    Hide,
    /// Shove the named enemy or the trigger's creature (in reach): prone or pushed away.
    Shove {
        target: Option<CombatantId>,
        mode: crate::state::movement::ShoveMode,
    },
    /// Grab the named enemy or the trigger's creature (in reach).
    Grapple {
        target: Option<CombatantId>,
    },
    /// Drink a consumable, or give it to an ally in reach.
    UseItem {
        item: crate::content::Item,
        target: Option<CombatantId>,
    },
}

/// Whose doing sets the trigger off.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Who {
    /// Any enemy of the readier.
    AnyEnemy,
    /// One named combatant.
    Named(CombatantId),
    /// Any enemy whose name contains these words ("the goblin" matches Goblin 1 and Goblin 2).
    Kind(String),
}

/// Whom the attack in an `attacks` trigger must target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Victim {
    Anyone,
    Me,
    AnyAlly,
    Named(CombatantId),
}

/// A structured trigger.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Trigger {
    /// Moves into melee range of the readier.
    EntersMelee(Who),
    /// Leaves the readier's melee range.
    LeavesMelee(Who),
    /// Moves at all.
    Moves(Who),
    /// Casts a spell (any, or the named one).
    CastsSpell(Who, Option<Spell>),
    /// Uses a named ability (breath weapon, second wind, rage, misty step, …), normalised.
    UsesAbility(Who, String),
    /// Attacks someone.
    Attacks(Who, Victim),
}

/// Something that happened which a readied action may be waiting for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Observed {
    EntersMelee { mover: CombatantId, with: CombatantId },
    LeavesMelee { mover: CombatantId, from: CombatantId },
    Moves { mover: CombatantId },
    CastsSpell { caster: CombatantId, spell: Spell },
    UsesAbility { user: CombatantId, ability: String },
    Attacks { attacker: CombatantId, target: CombatantId },
}
