//! Commands: what a player (or the game, as the Director) asks the rules to do.

pub use crate::state::movement::ShoveMode;
use serde::{Deserialize, Serialize};

use crate::content::{Item, Spell};
use crate::state::combatant::CunningStrike;
use crate::state::ids::CombatantId;
use crate::state::movement::MoveIntent;
use crate::state::repertoire::ReactionKind;

/// Who issues a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Actor {
    /// A combatant, controlled by its player.
    Combatant(CombatantId),
    /// The game itself: begins the fight, passes timed-out reaction windows, runs GM tools.
    Director,
}

/// Something to do in combat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Roll initiative and start round 1 (Director).
    Begin,
    /// A combatant joins (Director): before the start it waits for `Begin`; after it, the timing
    /// model gives it its place (seed 000: d20 + DEX; seed 001: the REF → LUK order; seed 003:
    /// an empty charge meter; seed 004: initiative rolled once).
    Join {
        /// Logged with its sheet inline; a log written before sheets names its content instead.
        #[serde(deserialize_with = "crate::state::roster::legacy::deserialize")]
        combatant: Box<crate::state::combatant::Combatant>,
    },
    /// The Attack action: the whole multi-attack sequence (§2.1, §6).
    Attack { target: Option<CombatantId> },
    /// Cast Spell: an action, or the bonus action for bonus-action spells (§2.1).
    Cast { spell: Spell, target: Option<CombatantId> },
    /// Dash: double movement this turn.
    Dash,
    /// Disengage: move without provoking opportunity attacks this turn.
    Disengage,
    /// Dodge: attacks against you at disadvantage, DEX saves at advantage, until your next turn.
    Dodge,
    /// Help: an ally's next attack or check at advantage.
    Help { ally: CombatantId },
    /// Hide: Stealth against the enemies' passive Perception.
    Hide,
    /// Ready: `<action> when <trigger>` (§5).
    Ready { text: String },
    /// Use Item: drink or administer a consumable.
    UseItem { item: Item, target: Option<CombatantId> },
    /// Search: Perception or Investigation against hidden things.
    Search,
    /// Grapple: STR (Athletics) against STR (Athletics) or DEX (Acrobatics).
    Grapple { target: CombatantId },
    /// Shove: the same contest; knock prone or push out of melee.
    Shove { target: CombatantId, mode: ShoveMode },
    /// Stabilise a downed ally: an action, DC 10 Medicine (§7.2).
    Stabilize { ally: CombatantId },
    /// A bonus action granted by class, race, spell or item (§2.2).
    Bonus(BonusAction),
    /// Move (§3.3).
    Move(MoveIntent),
    /// Crawl while prone, at half speed (§3.2 "crawling at half speed"): a move that does not
    /// stand up.
    Crawl(MoveIntent),
    /// Break free of a web, vines or a net: the better of a STR (Athletics) and a DEX
    /// (Acrobatics) check against its DC (an action).
    Escape,
    /// Take an offered reaction.
    React(ReactionKind),
    /// Decline the offered reaction (also sent by the Director on timeout).
    Pass,
    /// End your turn.
    EndTurn,
    /// TDGS: act later this round — after `after`, or at the end of the round (seed 001 "Delay").
    Delay { after: Option<CombatantId> },
    /// TDGS: declare an Instant for the next round's Instant phase (seed 001 "Instant phase").
    DeclareInstant(crate::state::tdgs::Instant),
    /// GM tool: change a combatant's HP by `delta` (Director).
    AdjustHp { target: CombatantId, delta: i32 },
    /// GM tool: end the fight now, no winner (Director).
    EndCombat,
}

/// The bonus actions of §2.2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BonusAction {
    /// Any, with a Light weapon in the off hand: no ability modifier to damage.
    OffHandAttack { target: Option<CombatantId> },
    /// Fighter: heal 1d10 + level.
    SecondWind,
    /// Rogue 2+: Dash, Disengage or Hide.
    CunningAction(CunningMove),
    /// Cleric: 1d4 + WIS to self or an ally.
    HealingWord { target: CombatantId },
    /// Ranger: mark a target (+1d6 on your weapon hits against it).
    HuntersMark { target: CombatantId },
    /// Orc (racial) or Berserker.
    Rage,
    /// Tiefling (racial) or the spell: teleport without provoking; into melee with `target` or out of melee.
    MistyStep { target: Option<CombatantId> },
    /// Rogue 5+: a rider for this turn's Sneak Attack.
    CunningStrike(CunningStrike),
}

/// The three moves of Cunning Action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CunningMove {
    Dash,
    Disengage,
    Hide,
}
