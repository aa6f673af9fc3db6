//! The resolution queue's data (DESIGN "Suspension"): the steps an action resolves in, saved
//! with the fight so a suspended action resumes. Running them is `crate::resolve`.

use serde::{Deserialize, Serialize};

use crate::content::{DamageType, Spell};
use crate::state::damage::{DamagePart, ExtraParts};
use crate::state::event::AttackKind;
use crate::state::ids::CombatantId;
use crate::state::movement::MovePlan;
use crate::state::reactions::ReactionTrigger;

/// What an attack swings with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Strike {
    MainHand,
    OffHand,
    /// A monster's attack, by index in its stat block.
    Natural(usize),
    /// A character's unarmed strike (1 + STR): the melee attack an archer makes for an
    /// opportunity attack (§4).
    Unarmed,
    /// A spell attack (Fire Bolt, one beam of Eldritch Blast).
    Spell(Spell),
}

/// One attack roll waiting to be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Swing {
    pub attacker: CombatantId,
    pub target: CombatantId,
    pub strike: Strike,
    pub kind: AttackKind,
    /// 1-based position in the sequence, and its length.
    pub swing: u32,
    pub of: u32,
    /// Readied "attacks" triggers were already offered for this swing.
    pub declared: bool,
}

/// Damage rolled and waiting for reactions (Parry, Uncanny Dodge, Interception, Evasion) before it lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingDamage {
    pub source: Option<CombatantId>,
    pub target: CombatantId,
    pub amount: i32,
    pub damage_type: DamageType,
    pub critical: bool,
    /// The hit's parts of other types, within `amount` (a reaction that cuts `amount` cuts
    /// them in proportion).
    #[serde(default, skip_serializing_if = "ExtraParts::is_empty")]
    pub extra: ExtraParts,
    /// Dealt by a non-magical weapon or natural attack (what "resistance to nonmagical
    /// attacks" holds against).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mundane: bool,
}

impl PendingDamage {
    /// Damage of one type, from a spell, a breath or a status (nothing else to it).
    pub fn single(source: Option<CombatantId>, target: CombatantId, amount: i32, damage_type: DamageType) -> Self {
        PendingDamage {
            source,
            target,
            amount,
            damage_type,
            critical: false,
            extra: ExtraParts::NONE,
            mundane: false,
        }
    }

    /// Cuts the whole to `to`, each part in proportion (the first part keeps the rest).
    pub fn cut_to(&mut self, to: i32) {
        let from = self.amount;
        self.amount = to.clamp(0, from.max(0));
        self.extra.scale(from, self.amount);
    }

    /// Its parts: the first (the whole less the others), then the others.
    pub fn parts(&self) -> impl Iterator<Item = DamagePart> + '_ {
        let first = DamagePart {
            amount: (self.amount - self.extra.total()).max(0),
            damage_type: self.damage_type,
        };
        std::iter::once(first).chain(self.extra.iter())
    }
}

/// A spell whose effect waits for counterspells and readied actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpellCast {
    pub caster: CombatantId,
    pub spell: Spell,
    pub target: Option<CombatantId>,
    /// Slot level spent (None for cantrips and scrolls).
    pub slot: Option<u32>,
    pub countered: bool,
}

/// One step of a resolution in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Step {
    StartTurn(CombatantId),
    /// An AI-controlled combatant decides its next command.
    Think(CombatantId),
    EndTurn(CombatantId),
    /// Offer `reactor` its legal reactions to `trigger` (a window for players, a choice for AI).
    Offer {
        reactor: CombatantId,
        trigger: ReactionTrigger,
    },
    /// The mover arrives where it was going (unless an opportunity attack dropped it).
    Arrive {
        mover: CombatantId,
        plan: MovePlan,
    },
    Swing(Swing),
    Damage(PendingDamage),
    Spell(SpellCast),
    /// A Counterspell's INT check against the spell it targets.
    Counterspell {
        reactor: CombatantId,
        caster: CombatantId,
        spell: Spell,
        countered: bool,
    },
    /// An area ability's effect (`crate::abilities`), after readied reactions to it.
    #[serde(alias = "Breath")]
    Ability {
        monster: CombatantId,
        /// Its index among the monster's area abilities (a stored breath weapon's: 0).
        #[serde(default)]
        ability: u8,
    },
    /// A hit's status effect takes hold of the target (after its damage), unless it saves.
    Afflict {
        source: CombatantId,
        target: CombatantId,
        affliction: crate::content::statuses::Affliction,
    },
    /// Tick timeline: a Cancel's strike hit — the target's windup breaks.
    BreakWindup {
        reactor: CombatantId,
        target: CombatantId,
    },
}
