//! A combatant's state: a player character or a monster — its sheet (what it is, fixed when it
//! joins), its hit points, resources and conditions. Data only: the rules that read and change it
//! are in the rule modules (`crate::combatant` holds the derived figures: AC, speed, encumbrance).

use std::collections::BTreeMap;
use std::sync::Arc;

pub use crate::state::ids::{CombatantId, Side};
use serde::{Deserialize, Serialize};

use crate::content::data::{MAX_ABILITIES, MAX_INNATE};
use crate::content::{Abilities, Behaviour, Item};
use crate::state::ctb::CtbSheet;
use crate::state::death_saves::DeathSaveState;
use crate::state::readied::ReadiedAction;
use crate::state::repertoire::Repertoire;
use crate::state::resources::TurnResources;
pub use crate::state::sheet::{CharacterDef, Kind, Sheet};
use crate::state::tdgs::TdgsSheet;
use crate::state::ticks::TicksSheet;

/// Who decides a combatant's turn and reactions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Controller {
    /// A player (a Discord user id or a table name): turns wait for commands, reactions are offered.
    Player(String),
    /// The game: turns and reactions are chosen at once by a behaviour profile.
    Ai(Behaviour),
}

/// Encumbrance from carried weight (§3.2): over 5 × STR lb encumbered, over 10 × STR heavily.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Encumbrance {
    Unencumbered,
    Encumbered,
    HeavilyEncumbered,
}

/// A Cunning Strike rider waiting for this turn's Sneak Attack (§2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CunningStrike {
    /// The target falls prone (DEX save).
    Trip,
    /// The target is poisoned: disadvantage on its attacks (CON save).
    Poison,
    /// The rogue may leave melee without provoking this turn.
    Withdraw,
}

/// Conditions and lasting effects.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Conditions {
    /// Dodge: attacks against it at disadvantage and DEX saves at advantage until its next turn.
    pub dodging: bool,
    /// Disengage: its movement provokes no opportunity attacks this turn.
    pub disengaged: bool,
    /// Hidden, with the Stealth total that hid it.
    pub hidden: Option<i32>,
    /// Help: advantage on its next attack or ability check.
    pub helped: bool,
    pub prone: bool,
    pub grappled_by: Option<CombatantId>,
    /// Restrained (a net): speed 0 until freed (§3.2).
    pub restrained: bool,
    /// Web / Entangled: half speed until freed (§3.2); nonzero while held.
    pub entangled: u8,
    /// The DC of the STR or DEX check (`escape`) that frees it from a web, vines or a net.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub escape_dc: i32,
    pub poisoned: bool,
    /// Haste: +30 ft speed.
    pub hasted: bool,
    pub raging: bool,
    /// The target of this combatant's Hunter's Mark.
    pub hunters_mark: Option<CombatantId>,
    pub cunning_strike: Option<CunningStrike>,
    pub sneak_attack_used: bool,
    /// Attacks made with the Attack action this turn (the off-hand attack follows one).
    pub attacked_this_turn: bool,
    /// Feet already covered toward closing to melee with someone out of reach this turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approach: Option<Approach>,
    /// A bonus to AC until the start of its next turn (a reaction such as Shield).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub ac_bonus: i32,
    /// The spell it concentrates on (`crate::concentration`), whose statuses last while it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concentration: Option<String>,
    /// The auras (holder, aura name) it is immune to, having saved against them (`crate::auras`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aura_immune: Vec<(CombatantId, String)>,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(n: &i32) -> bool {
    *n == 0
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero_u8(n: &u8) -> bool {
    *n == 0
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn no_uses(uses: &[u8; MAX_ABILITIES]) -> bool {
    uses.iter().all(|&n| n == 0)
}

fn charged() -> bool {
    true
}

/// Closing in over several turns (§3.3): the feet spent toward melee with `target`, from the
/// band `from`; void once the band changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Approach {
    pub target: CombatantId,
    pub from: crate::state::movement::Band,
    pub feet: i32,
}

/// Per-combat pools of class and racial resources.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pools {
    /// Spell slots left by level (index 0 = 1st).
    pub spell_slots: [u8; 9],
    pub second_wind: u8,
    pub rage: u8,
    pub divine_favor: u8,
    /// Racial once-per-combat uses not yet spent.
    pub racial_rage: bool,
    pub racial_misty_step: bool,
    /// Uses spent of each area ability (`crate::abilities`): a recharging one is ready at 0.
    #[serde(default, skip_serializing_if = "no_uses")]
    pub ability_uses: [u8; MAX_ABILITIES],
    /// A fight stored before area abilities said whether the breath weapon was charged: read
    /// back into `ability_uses` (`Combatant::adopt_stored`), never written.
    #[serde(default = "charged", rename = "breath_ready", skip_serializing)]
    pub stored_breath_ready: bool,
    /// Legendary Resistance uses left this fight.
    #[serde(default, skip_serializing_if = "is_zero_u8")]
    pub legendary_resistance: u8,
    /// Legendary action points left until its next turn (`crate::legendary`).
    #[serde(default, skip_serializing_if = "is_zero_u8")]
    pub legendary_actions: u8,
    /// Damage that stops its Regeneration landed since its last turn (`crate::regeneration`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub regeneration_stopped: bool,
    /// Casts spent of each innate spell (`MonsterDef::innate_spells`) this fight.
    #[serde(default, skip_serializing_if = "no_innate_casts")]
    pub innate_spent: [u8; MAX_INNATE],
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn no_innate_casts(spent: &[u8; MAX_INNATE]) -> bool {
    spent.iter().all(|&n| n == 0)
}

impl Default for Pools {
    fn default() -> Self {
        Pools {
            spell_slots: [0; 9],
            second_wind: 0,
            rage: 0,
            divine_favor: 0,
            racial_rage: false,
            racial_misty_step: false,
            ability_uses: [0; MAX_ABILITIES],
            stored_breath_ready: true,
            legendary_resistance: 0,
            legendary_actions: 0,
            regeneration_stopped: false,
            innate_spent: [0; MAX_INNATE],
        }
    }
}
/// One combatant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Combatant {
    pub id: CombatantId,
    pub name: String,
    pub side: Side,
    pub controller: Controller,
    /// What it is, fixed when it joined: the only place the rules read its content from.
    /// Changed through [`Combatant::sheet_mut`], which keeps `repertoire` in step with it.
    #[serde(with = "crate::state::sheet::slot", default = "crate::state::sheet::slot::unset")]
    pub sheet: Arc<Sheet>,
    /// The reactions its sheet could ever give it, under each ruleset: worked out from `sheet`
    /// whenever the sheet is made or changed, not stored (see [`Repertoire`]).
    #[serde(skip)]
    pub(crate) repertoire: Repertoire,
    pub abilities: Abilities,
    pub hp: i32,
    pub max_hp: i32,
    /// Temporary hit points (`crate::temp_hp`): lost before `hp`, never stacked.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub temp_hp: i32,
    /// Pounds carried besides weapons and armor.
    pub pack_lb: i32,
    pub initiative: i32,
    pub resources: TurnResources,
    pub conditions: Conditions,
    pub pools: Pools,
    /// Consumables on hand (their definitions are on the sheet).
    pub items: BTreeMap<Item, u32>,
    pub death: DeathSaveState,
    pub readied: Option<ReadiedAction>,
    /// Status effects on it (`crate::statuses`): damage or healing over time, stuns.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub statuses: Vec<crate::content::statuses::StatusEffect>,
    /// Its sheet under the fight's timing model (seed 001, 003, 004): what that model keeps on it.
    #[serde(default, skip_serializing_if = "ModelSheet::is_blank")]
    pub model: ModelSheet,
    /// The charge race's, TDGS's and the tick timeline's sheets as fights stored them before
    /// [`ModelSheet`], all three on every combatant: read, folded into `model` as the fight is
    /// read back (`Combatant::adopt_stored`), never written.
    #[serde(default, rename = "ctb", skip_serializing)]
    pub(crate) stored_ctb: Option<CtbSheet>,
    #[serde(default, rename = "tdgs", skip_serializing)]
    pub(crate) stored_tdgs: Option<TdgsSheet>,
    #[serde(default, rename = "ticks", skip_serializing)]
    pub(crate) stored_ticks: Option<TicksSheet>,
}

/// A combatant's sheet under the fight's timing model (DESIGN "Timing models"): each alternative
/// model keeps its own state on a combatant, GogoBee's own keeps none. A combatant holds the
/// sheet of one model: the first write through [`Combatant::ctb_mut`] (or `tdgs_mut`,
/// `ticks_mut`) gives it that model's blank sheet, and a sheet not yet written reads as blank.
/// A blank sheet and none are the same state: they compare equal and neither is stored.
#[derive(Debug, Clone, Eq, Serialize, Deserialize, Default)]
pub enum ModelSheet {
    /// No model sheet: GogoBee's own rules, or a model that has not written one yet.
    #[default]
    Gogobee,
    Tdgs(TdgsSheet),
    Ctb(CtbSheet),
    Ticks(TicksSheet),
}

impl ModelSheet {
    /// Whether it holds nothing a blank sheet does not.
    pub fn is_blank(&self) -> bool {
        match self {
            ModelSheet::Gogobee => true,
            ModelSheet::Tdgs(s) => *s == TdgsSheet::default(),
            ModelSheet::Ctb(s) => *s == CtbSheet::default(),
            ModelSheet::Ticks(s) => *s == TicksSheet::default(),
        }
    }
}

/// Blank and none are equal (see [`ModelSheet`]).
impl PartialEq for ModelSheet {
    fn eq(&self, other: &ModelSheet) -> bool {
        match (self, other) {
            (ModelSheet::Tdgs(a), ModelSheet::Tdgs(b)) => a == b,
            (ModelSheet::Ctb(a), ModelSheet::Ctb(b)) => a == b,
            (ModelSheet::Ticks(a), ModelSheet::Ticks(b)) => a == b,
            _ => self.is_blank() && other.is_blank(),
        }
    }
}

/// Reads and writes of the model sheets: each reads blank until its model first writes it.
macro_rules! model_sheet {
    ($($read:ident, $write:ident, $variant:ident, $sheet:ty;)*) => {
        impl Combatant {
            $(
                #[doc = concat!("Its ", stringify!($variant), " sheet (blank if the model has not written one).")]
                pub fn $read(&self) -> &$sheet {
                    static BLANK: std::sync::LazyLock<$sheet> = std::sync::LazyLock::new(<$sheet>::default);
                    match &self.model {
                        ModelSheet::$variant(sheet) => sheet,
                        _ => &BLANK,
                    }
                }

                #[doc = concat!("Its ", stringify!($variant), " sheet, open for changes: a blank one if it has none.")]
                pub fn $write(&mut self) -> &mut $sheet {
                    if !matches!(self.model, ModelSheet::$variant(_)) {
                        debug_assert!(
                            self.model.is_blank(),
                            "{} holds another model's sheet: {:?}",
                            self.name,
                            self.model
                        );
                        self.model = ModelSheet::$variant(<$sheet>::default());
                    }
                    match &mut self.model {
                        ModelSheet::$variant(sheet) => sheet,
                        _ => unreachable!("the sheet was just set"),
                    }
                }
            )*
        }
    };
}

model_sheet! {
    ctb, ctb_mut, Ctb, CtbSheet;
    tdgs, tdgs_mut, Tdgs, TdgsSheet;
    ticks, ticks_mut, Ticks, TicksSheet;
}
