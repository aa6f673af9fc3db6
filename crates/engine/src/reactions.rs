//! Reactions (seed 000 §2.3): what may be taken in response to a trigger, by whom. A trigger
//! that offers a player a legal reaction suspends the action in progress behind a
//! [`ReactionWindow`]; monsters choose by their behaviour profile at once.

use serde::{Deserialize, Serialize};

use crate::combat::Combat;
use crate::combatant::{Combatant, CombatantId};
use crate::content::{Class, Spell};
use crate::movement::Band;
use crate::readied::{HeldAction, Observed};

/// The reactions of §2.3, plus a readied action firing (§5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ReactionKind {
    /// Any: an enemy leaves your melee range without Disengaging — one melee attack.
    OpportunityAttack,
    /// Fighter 5+: hit by a melee attack — reduce the damage by 1d8 + DEX.
    Parry,
    /// Rogue 5+: hit by an attacker you can see — halve the damage.
    UncannyDodge,
    /// Cleric: an ally drops to 0 HP — spend 1 Divine Favor; the ally makes a death save at advantage.
    ShieldOfFaith,
    /// Fighter 3+: an ally within melee range is hit — reduce the damage by 1d10 + proficiency.
    Interception,
    /// Mage 5+: an enemy casts a spell — spend a slot; INT check against DC 10 + spell level cancels it.
    Counterspell,
    /// Rogue / Ranger 7+: failing a DEX save — succeed instead (half damage against a save-for-half).
    Evasion,
    /// A readied action's trigger occurred.
    Readied,
    /// Tick timeline: strike an enemy in its prep; a hit breaks the windup (only for those who
    /// can read prep).
    Cancel,
    /// Tick timeline: strike an enemy in its recover, with advantage.
    Exploit,
}

impl ReactionKind {
    pub const ALL: [ReactionKind; 10] = [
        ReactionKind::OpportunityAttack,
        ReactionKind::Parry,
        ReactionKind::UncannyDodge,
        ReactionKind::ShieldOfFaith,
        ReactionKind::Interception,
        ReactionKind::Counterspell,
        ReactionKind::Evasion,
        ReactionKind::Readied,
        ReactionKind::Cancel,
        ReactionKind::Exploit,
    ];

    /// The button label.
    pub fn label(self) -> &'static str {
        match self {
            ReactionKind::OpportunityAttack => "Opportunity Attack",
            ReactionKind::Parry => "Parry",
            ReactionKind::UncannyDodge => "Uncanny Dodge",
            ReactionKind::ShieldOfFaith => "Shield of Faith",
            ReactionKind::Interception => "Interception",
            ReactionKind::Counterspell => "Counterspell",
            ReactionKind::Evasion => "Evasion",
            ReactionKind::Readied => "Readied Action",
            ReactionKind::Cancel => "Break Their Windup",
            ReactionKind::Exploit => "Exploit the Opening",
        }
    }

    /// Parses a button label or a typed name.
    pub fn parse(text: &str) -> Option<ReactionKind> {
        let wanted = crate::content::normalize(text);
        Self::ALL.into_iter().find(|k| {
            let label = crate::content::normalize(k.label());
            label == wanted
                || (k == &ReactionKind::OpportunityAttack && wanted == "oa")
                || (k == &ReactionKind::Readied && wanted == "readied")
        })
    }
}

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
        phase: crate::timing::ticks::Phase,
    },
}

impl ReactionTrigger {
    /// Who set the trigger off.
    pub fn source(&self) -> CombatantId {
        match self {
            ReactionTrigger::LeavesMelee { mover } => *mover,
            ReactionTrigger::Hit { attacker, .. } => *attacker,
            ReactionTrigger::DroppedToZero { ally } => *ally,
            ReactionTrigger::CastsSpell { caster, .. } => *caster,
            ReactionTrigger::FailedDexSave { target, .. } => *target,
            ReactionTrigger::Readied { observed } => observed.actor(),
            ReactionTrigger::Phase { actor, .. } => *actor,
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

fn has_counterspell(reactor: &Combatant) -> bool {
    let eligible = reactor
        .class()
        .is_none_or(|class| reactor.is_class_at_least(Class::Mage, 5) && class == Class::Mage);
    eligible && reactor.knows(Spell::Counterspell) && reactor.lowest_slot(3).is_some()
}

/// Whether `c` has the reaction `kind` at all — its class, level, monster traits and the
/// resources it spends — whatever the trigger and whether its reaction is spent (the gates
/// [`options`] applies before a trigger's own conditions). Readied actions and the tick
/// timeline's Cancel and Exploit come from the timing model, not from an ability: `false`.
pub fn grants(c: &Combatant, kind: ReactionKind, ruleset: crate::combat::Ruleset) -> bool {
    match kind {
        ReactionKind::OpportunityAttack => c.has_melee_attack(),
        ReactionKind::Parry => {
            let level = if ruleset == crate::combat::Ruleset::Tdgs { 1 } else { 5 };
            c.is_class_at_least(Class::Fighter, level) || c.monster_kind().is_some_and(|m| m.stats().parry)
        }
        ReactionKind::UncannyDodge => c.is_class_at_least(Class::Rogue, 5),
        ReactionKind::Interception => c.is_class_at_least(Class::Fighter, 3),
        ReactionKind::ShieldOfFaith => c.class() == Some(Class::Cleric) && c.pools.divine_favor > 0,
        ReactionKind::Counterspell => has_counterspell(c),
        ReactionKind::Evasion => c.is_class_at_least(Class::Rogue, 7) || c.is_class_at_least(Class::Ranger, 7),
        ReactionKind::Readied | ReactionKind::Cancel | ReactionKind::Exploit => false,
    }
}

/// The reactions `reactor` may legally take now in answer to `trigger`.
pub fn options(combat: &Combat, reactor: CombatantId, trigger: &ReactionTrigger) -> Vec<ReactionKind> {
    let r = combat.get(reactor);
    let mut offered = Vec::new();
    // Whether it may react now is the timing model's call (GogoBee: standing, reaction unspent —
    // a readied action has its reaction reserved; TDGS: an Interrupt with uses left).
    let mut offer = |kind: ReactionKind, legal: bool| {
        if legal && crate::timing::may_react(combat, reactor, kind) {
            offered.push(kind);
        }
    };
    match trigger {
        ReactionTrigger::LeavesMelee { mover } => {
            let m = combat.get(*mover);
            offer(
                ReactionKind::OpportunityAttack,
                m.side != r.side && r.has_melee_attack() && combat.band(reactor, *mover) == Band::Melee && !m.is_dead(),
            );
        }
        ReactionTrigger::Hit {
            attacker,
            target,
            melee,
            unseen,
            ..
        } => {
            if *target == reactor {
                // TDGS's Parry is a Fighter's from level 1 (seed 001: "Parry (Lv1): 1/round").
                let parry_level = if combat.ruleset == crate::combat::Ruleset::Tdgs {
                    1
                } else {
                    5
                };
                let parries = r.is_class_at_least(Class::Fighter, parry_level)
                    || r.monster_kind().is_some_and(|m| m.stats().parry);
                offer(ReactionKind::Parry, *melee && parries);
                offer(
                    ReactionKind::UncannyDodge,
                    r.is_class_at_least(Class::Rogue, 5) && !*unseen,
                );
            } else {
                let ally = combat.get(*target).side == r.side;
                offer(
                    ReactionKind::Interception,
                    ally && r.is_class_at_least(Class::Fighter, 3) && combat.band(reactor, *attacker) == Band::Melee,
                );
            }
        }
        ReactionTrigger::DroppedToZero { ally } => {
            let a = combat.get(*ally);
            offer(
                ReactionKind::ShieldOfFaith,
                *ally != reactor
                    && a.side == r.side
                    && a.is_character()
                    && r.class() == Some(Class::Cleric)
                    && r.pools.divine_favor > 0,
            );
        }
        ReactionTrigger::CastsSpell { caster, .. } => {
            offer(
                ReactionKind::Counterspell,
                combat.get(*caster).side != r.side && has_counterspell(r),
            );
        }
        ReactionTrigger::FailedDexSave { target, .. } => {
            let evades = r.is_class_at_least(Class::Rogue, 7) || r.is_class_at_least(Class::Ranger, 7);
            offer(ReactionKind::Evasion, *target == reactor && evades);
        }
        ReactionTrigger::Phase { actor, phase } => {
            let kind = crate::timing::ticks::reaction_for(combat, reactor, *actor, *phase);
            for k in [ReactionKind::Cancel, ReactionKind::Exploit] {
                offer(k, kind == Some(k));
            }
        }
        ReactionTrigger::Readied { observed } => {
            let legal = r
                .readied
                .as_ref()
                .is_some_and(|readied| !readied.fired && readied_feasible(combat, r, readied.action, observed.actor()));
            offer(ReactionKind::Readied, legal);
        }
    }
    offered
}

/// Whether a held action can be carried out against the trigger's creature now.
pub fn readied_feasible(combat: &Combat, reactor: &Combatant, action: HeldAction, trigger_by: CombatantId) -> bool {
    match action {
        HeldAction::Dodge => true,
        HeldAction::Attack { target } => {
            let target = target.unwrap_or(trigger_by);
            let t = combat.get(target);
            t.side != reactor.side
                && !t.is_dead()
                && (combat.band(reactor.id, target) == Band::Melee || reactor.has_ranged_attack())
        }
        HeldAction::Cast { spell, .. } => spell.level() == 0 || reactor.lowest_slot(spell.level()).is_some(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reaction_labels_round_trip() {
        for k in ReactionKind::ALL {
            assert_eq!(ReactionKind::parse(k.label()), Some(k));
        }
        assert_eq!(ReactionKind::parse("oa"), Some(ReactionKind::OpportunityAttack));
        assert_eq!(ReactionKind::parse("sneeze"), None);
    }
}
