//! Reactions' data (seed 000 §2.3; seed 001 "Interrupts"; seed 004 "Reactions"): what set a
//! reaction window off, the open window, the kinds and the Interrupt limits. What each reaction
//! does is its module under `crate::reactions`.

use serde::{Deserialize, Serialize};

use crate::content::Spell;
use crate::state::ids::CombatantId;
use crate::state::readied::Observed;
pub use crate::state::repertoire::{ReactionKind, ReactionSet, Repertoire};
pub use crate::state::tdgs::{InterruptUses, Limit};

/// What set a reaction window off.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReactionTrigger {
    /// `mover` is leaving the reactor's melee range without Disengaging.
    LeavesMelee { mover: CombatantId },
    /// `attacker` hit `target` for `damage` (not yet applied); `unseen` when the attacker was
    /// hidden as it struck (the attack reveals it, but not before the hit lands).
    Hit {
        attacker: CombatantId,
        target: CombatantId,
        melee: bool,
        damage: i32,
        unseen: bool,
        /// The attack total and whether it was a critical (for reactions that change AC).
        #[serde(default)]
        total: i32,
        #[serde(default)]
        critical: bool,
    },
    /// TDGS's interrupt check: `attacker` declared an attack on `target` (not yet rolled).
    AttackDeclared {
        attacker: CombatantId,
        target: CombatantId,
        melee: bool,
    },
    /// `ally` just dropped to 0 HP.
    DroppedToZero { ally: CombatantId },
    /// `caster` is casting `spell`.
    CastsSpell { caster: CombatantId, spell: Spell },
    /// The reactor failed a DEX save against `damage`.
    FailedDexSave {
        target: CombatantId,
        damage: i32,
        half_on_save: bool,
    },
    /// A readied action's trigger: `observed`.
    Readied { observed: Observed },
    /// Tick timeline: `actor` entered `phase` of its action.
    Phase {
        actor: CombatantId,
        phase: crate::state::ticks::Phase,
    },
}

impl ReactionTrigger {
    /// Who set the trigger off.
    pub fn source(&self) -> CombatantId {
        match self {
            ReactionTrigger::LeavesMelee { mover } => *mover,
            ReactionTrigger::Hit { attacker, .. } | ReactionTrigger::AttackDeclared { attacker, .. } => *attacker,
            ReactionTrigger::DroppedToZero { ally } => *ally,
            ReactionTrigger::CastsSpell { caster, .. } => *caster,
            ReactionTrigger::FailedDexSave { target, .. } => *target,
            ReactionTrigger::Readied { observed } => observed.actor(),
            ReactionTrigger::Phase { actor, .. } => *actor,
        }
    }
}

/// The kind of a [`ReactionTrigger`], what [`Reaction::triggers`] lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TriggerKind {
    LeavesMelee,
    Hit,
    AttackDeclared,
    DroppedToZero,
    CastsSpell,
    FailedDexSave,
    Readied,
    Phase,
}

impl TriggerKind {
    /// Every kind, in [`ReactionTrigger`]'s order (the index's order).
    pub const ALL: [TriggerKind; 8] = [
        TriggerKind::LeavesMelee,
        TriggerKind::Hit,
        TriggerKind::AttackDeclared,
        TriggerKind::DroppedToZero,
        TriggerKind::CastsSpell,
        TriggerKind::FailedDexSave,
        TriggerKind::Readied,
        TriggerKind::Phase,
    ];
}

impl ReactionTrigger {
    /// The one it happens to, for the reactions only they may take ([`Reaction::target_only`]):
    /// the one hit or attacked, the one failing a DEX save.
    pub fn target(&self) -> Option<CombatantId> {
        match self {
            ReactionTrigger::Hit { target, .. }
            | ReactionTrigger::AttackDeclared { target, .. }
            | ReactionTrigger::FailedDexSave { target, .. } => Some(*target),
            _ => None,
        }
    }

    /// Its kind. The match is exhaustive and [`TriggerKind::ALL`] lists the kinds in this
    /// order, so the kind is also its place in the index.
    pub fn kind(&self) -> TriggerKind {
        match self {
            ReactionTrigger::LeavesMelee { .. } => TriggerKind::LeavesMelee,
            ReactionTrigger::Hit { .. } => TriggerKind::Hit,
            ReactionTrigger::AttackDeclared { .. } => TriggerKind::AttackDeclared,
            ReactionTrigger::DroppedToZero { .. } => TriggerKind::DroppedToZero,
            ReactionTrigger::CastsSpell { .. } => TriggerKind::CastsSpell,
            ReactionTrigger::FailedDexSave { .. } => TriggerKind::FailedDexSave,
            ReactionTrigger::Readied { .. } => TriggerKind::Readied,
            ReactionTrigger::Phase { .. } => TriggerKind::Phase,
        }
    }
}

/// An open reaction window: resolution waits for `reactor` to choose one of `options` or pass.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReactionWindow {
    pub reactor: CombatantId,
    pub trigger: ReactionTrigger,
    pub options: Vec<ReactionKind>,
    /// Tick timeline (seed 004 "Reaction pass"): a player with several queued reactions is
    /// offered the choice — each offered kind with the trigger it answers (the best of its kind).
    /// Empty when every option answers `trigger`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<(ReactionKind, ReactionTrigger)>,
}

impl ReactionWindow {
    /// A window where every option answers `trigger`.
    pub fn new(reactor: CombatantId, trigger: ReactionTrigger, options: Vec<ReactionKind>) -> Self {
        Self {
            reactor,
            trigger,
            options,
            choices: Vec::new(),
        }
    }

    /// The trigger that taking `kind` answers.
    pub fn trigger_for(&self, kind: ReactionKind) -> &ReactionTrigger {
        self.choices
            .iter()
            .find(|(k, _)| *k == kind)
            .map_or(&self.trigger, |(_, trigger)| trigger)
    }
}
