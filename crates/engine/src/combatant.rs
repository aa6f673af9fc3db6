//! A combatant: a player character or a monster, with its stats, resources and conditions.
//! Built from the content tables; carries everything the rules read during a fight.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::action_economy::TurnResources;
use crate::content::classes::{Casting, proficiency_bonus};
use crate::content::gear::SHIELD_WEIGHT_LB;
use crate::content::{Abilities, Ability, Armor, Behaviour, Class, Item, Monster, Race, Skill, Spell, Weapon};
use crate::death_saves::DeathSaveState;
use crate::readied::ReadiedAction;

/// A combatant's index in its combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CombatantId(pub u32);

impl std::fmt::Display for CombatantId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Which side a combatant fights on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    Party,
    Enemies,
}

impl Side {
    pub fn opponent(self) -> Side {
        match self {
            Side::Party => Side::Enemies,
            Side::Enemies => Side::Party,
        }
    }
}

/// Who decides a combatant's turn and reactions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Controller {
    /// A player (a Discord user id or a table name): turns wait for commands, reactions are offered.
    Player(String),
    /// The game: turns and reactions are chosen at once by a behaviour profile.
    Ai(Behaviour),
}

/// What a combatant is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    Character { race: Race, class: Class, level: u32 },
    Monster(Monster),
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
    pub restrained: bool,
    /// Web / Entangled: half speed; turns left.
    pub entangled: u8,
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
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(n: &i32) -> bool {
    *n == 0
}

/// Closing in over several turns (§3.3): the feet spent toward melee with `target`, from the
/// band `from`; void once the band changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Approach {
    pub target: CombatantId,
    pub from: crate::movement::Band,
    pub feet: i32,
}

/// Per-combat pools of class and racial resources.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Pools {
    /// Spell slots left by level (index 0 = 1st).
    pub spell_slots: [u8; 9],
    pub second_wind: u8,
    pub rage: u8,
    pub divine_favor: u8,
    /// Racial once-per-combat uses not yet spent.
    pub racial_rage: bool,
    pub racial_misty_step: bool,
    /// A breath weapon is charged.
    pub breath_ready: bool,
}

/// One combatant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Combatant {
    pub id: CombatantId,
    pub name: String,
    pub side: Side,
    pub controller: Controller,
    pub kind: Kind,
    pub abilities: Abilities,
    pub hp: i32,
    pub max_hp: i32,
    pub weapon: Weapon,
    pub off_hand: Option<Weapon>,
    pub armor: Armor,
    pub shield: bool,
    /// Pounds carried besides weapons and armor.
    pub pack_lb: i32,
    pub initiative: i32,
    pub resources: TurnResources,
    pub conditions: Conditions,
    pub pools: Pools,
    /// Consumables on hand.
    pub items: BTreeMap<Item, u32>,
    pub death: DeathSaveState,
    pub readied: Option<ReadiedAction>,
    /// The charge race's sheet (seed 003): charge, AP, cooldowns, status effects.
    #[serde(default)]
    pub ctb: crate::timing::ctb::CtbSheet,
    /// TDGS's sheet (seed 001): interrupt uses, the declared Instant.
    #[serde(default)]
    pub tdgs: crate::timing::tdgs::TdgsSheet,
    /// The tick timeline's sheet (seed 004): the PER cycle in progress and paused ones.
    #[serde(default)]
    pub ticks: crate::timing::ticks::TicksSheet,
}

impl Combatant {
    /// A player character at full health with its class kit.
    pub fn character(name: &str, race: Race, class: Class, level: u32, controller: Controller) -> Self {
        let level = level.clamp(1, crate::content::classes::MAX_LEVEL);
        let abilities = class.base_abilities().plus(race.ability_bonus());
        let max_hp = class.max_hp(level, abilities.modifier(Ability::Con));
        let kit = class.kit();
        let mut items = BTreeMap::new();
        items.insert(Item::PotionOfHealing, 1);
        Self {
            id: CombatantId(0),
            name: name.to_owned(),
            side: Side::Party,
            controller,
            kind: Kind::Character { race, class, level },
            abilities,
            hp: max_hp,
            max_hp,
            weapon: kit.weapon,
            off_hand: kit.off_hand,
            armor: kit.armor,
            shield: kit.shield,
            pack_lb: 10,
            initiative: 0,
            resources: TurnResources::default(),
            conditions: Conditions::default(),
            pools: Pools {
                spell_slots: class.spell_slots(level),
                second_wind: class.second_wind_uses(level),
                rage: class.rage_uses(level),
                divine_favor: class.divine_favor(level),
                racial_rage: race.grants_rage(),
                racial_misty_step: race.grants_misty_step(),
                breath_ready: false,
            },
            items,
            death: DeathSaveState::default(),
            readied: None,
            ctb: crate::timing::ctb::CtbSheet::default(),
            tdgs: crate::timing::tdgs::TdgsSheet::default(),
            ticks: crate::timing::ticks::TicksSheet::default(),
        }
    }

    /// A monster with average hit points.
    pub fn monster(name: &str, monster: Monster) -> Self {
        let stats = monster.stats();
        let hp = stats.hit_points.average().max(1);
        Self {
            id: CombatantId(0),
            name: name.to_owned(),
            side: Side::Enemies,
            controller: Controller::Ai(stats.behaviour),
            kind: Kind::Monster(monster),
            abilities: stats.abilities,
            hp,
            max_hp: hp,
            weapon: Weapon::Unarmed,
            off_hand: None,
            armor: Armor::None,
            shield: false,
            pack_lb: 0,
            initiative: 0,
            resources: TurnResources::default(),
            conditions: Conditions::default(),
            pools: Pools {
                spell_slots: stats.spell_slots,
                breath_ready: stats.breath.is_some(),
                ..Pools::default()
            },
            items: BTreeMap::new(),
            death: DeathSaveState::default(),
            readied: None,
            ctb: crate::timing::ctb::CtbSheet::default(),
            tdgs: crate::timing::tdgs::TdgsSheet::default(),
            ticks: crate::timing::ticks::TicksSheet::default(),
        }
    }

    pub fn on_side(mut self, side: Side) -> Self {
        self.side = side;
        self
    }

    pub fn controlled_by(mut self, controller: Controller) -> Self {
        self.controller = controller;
        self
    }

    pub fn is_player(&self) -> bool {
        matches!(self.controller, Controller::Player(_))
    }

    pub fn player_id(&self) -> Option<&str> {
        match &self.controller {
            Controller::Player(id) => Some(id),
            Controller::Ai(_) => None,
        }
    }

    pub fn is_character(&self) -> bool {
        matches!(self.kind, Kind::Character { .. })
    }

    pub fn class(&self) -> Option<Class> {
        match self.kind {
            Kind::Character { class, .. } => Some(class),
            Kind::Monster(_) => None,
        }
    }

    pub fn race(&self) -> Option<Race> {
        match self.kind {
            Kind::Character { race, .. } => Some(race),
            Kind::Monster(_) => None,
        }
    }

    pub fn monster_kind(&self) -> Option<Monster> {
        match self.kind {
            Kind::Monster(m) => Some(m),
            Kind::Character { .. } => None,
        }
    }

    /// Character level (monsters count as level 1 for level-gated rules, which they never pass).
    pub fn level(&self) -> u32 {
        match self.kind {
            Kind::Character { level, .. } => level,
            Kind::Monster(_) => 1,
        }
    }

    /// Whether this is `class` at `level` or higher.
    pub fn is_class_at_least(&self, class: Class, level: u32) -> bool {
        self.class() == Some(class) && self.level() >= level
    }

    pub fn proficiency(&self) -> i32 {
        match self.kind {
            Kind::Character { level, .. } => proficiency_bonus(level),
            Kind::Monster(m) => m.stats().proficiency,
        }
    }

    pub fn modifier(&self, ability: Ability) -> i32 {
        self.abilities.modifier(ability)
    }

    /// Dead: a monster at 0 HP, or a character with three failed death saves.
    pub fn is_dead(&self) -> bool {
        match self.kind {
            Kind::Character { .. } => self.death.dead,
            Kind::Monster(_) => self.hp <= 0,
        }
    }

    /// Downed (0 HP) but not dead: unconscious.
    pub fn is_downed(&self) -> bool {
        self.death.downed && !self.death.dead
    }

    /// Conscious and alive: can act and react.
    pub fn is_standing(&self) -> bool {
        !self.is_dead() && !self.death.downed
    }

    pub fn armor_class(&self) -> i32 {
        let base = match self.kind {
            Kind::Character { .. } => self.armor.armor_class(self.modifier(Ability::Dex), self.shield),
            Kind::Monster(m) => m.stats().armor_class,
        };
        base + self.conditions.ac_bonus
    }

    /// Carried weight: weapons, armor, shield and pack.
    pub fn carried_lb(&self) -> i32 {
        self.weapon.stats().weight_lb
            + self.off_hand.map_or(0, |w| w.stats().weight_lb)
            + self.armor.stats().weight_lb
            + if self.shield { SHIELD_WEIGHT_LB } else { 0 }
            + self.pack_lb
    }

    pub fn encumbrance(&self) -> Encumbrance {
        if self.monster_kind().is_some() {
            return Encumbrance::Unencumbered;
        }
        let strength = self.abilities.str;
        let carried = self.carried_lb();
        if carried > strength * 10 {
            Encumbrance::HeavilyEncumbered
        } else if carried > strength * 5 {
            Encumbrance::Encumbered
        } else {
            Encumbrance::Unencumbered
        }
    }

    /// Base speed: the race's (§3.1) or the monster's.
    pub fn base_speed(&self) -> i32 {
        match self.kind {
            Kind::Character { race, .. } => race.speed(),
            Kind::Monster(m) => m.stats().speed,
        }
    }

    /// Speed after the modifiers of §3.2 (difficult terrain is applied to movement cost, not here).
    pub fn speed(&self) -> i32 {
        let c = &self.conditions;
        if c.restrained || c.grappled_by.is_some() {
            return 0;
        }
        let mut speed = self.base_speed();
        let armor = self.armor.stats();
        let exempt = self.race().is_some_and(Race::ignores_heavy_armor_speed_penalty);
        if armor.heavy && self.abilities.str < armor.str_requirement && !exempt {
            speed -= 10;
        }
        speed -= match self.encumbrance() {
            Encumbrance::Unencumbered => 0,
            Encumbrance::Encumbered => 10,
            Encumbrance::HeavilyEncumbered => 20,
        };
        if c.hasted {
            speed += 30;
        }
        if c.entangled > 0 {
            speed /= 2;
        }
        speed.max(0)
    }

    pub fn proficient_in(&self, skill: Skill) -> bool {
        match self.kind {
            Kind::Character { class, race, .. } => {
                class.skills().contains(&skill) || (skill == Skill::Perception && race.perception_proficient())
            }
            Kind::Monster(m) => {
                let s = m.stats();
                (skill == Skill::Perception && s.perception > 0)
                    || (skill == Skill::Stealth && s.stealth > 0)
                    || skill == Skill::Athletics
            }
        }
    }

    /// Skill check bonus.
    pub fn skill_bonus(&self, skill: Skill) -> i32 {
        if let Kind::Monster(m) = self.kind {
            let s = m.stats();
            match skill {
                Skill::Perception if s.perception > 0 => return s.perception,
                Skill::Stealth if s.stealth > 0 => return s.stealth,
                _ => {}
            }
        }
        self.modifier(skill.ability())
            + if self.proficient_in(skill) {
                self.proficiency()
            } else {
                0
            }
    }

    /// Passive Perception: 10 + Perception bonus.
    pub fn passive_perception(&self) -> i32 {
        10 + self.skill_bonus(Skill::Perception)
    }

    /// Saving throw bonus.
    pub fn save_bonus(&self, ability: Ability) -> i32 {
        let proficient = self.class().is_some_and(|c| c.saving_throws().contains(&ability));
        self.modifier(ability) + if proficient { self.proficiency() } else { 0 }
    }

    /// The spellcasting ability modifier (0 for non-casters).
    pub fn casting_modifier(&self) -> i32 {
        match self.kind {
            Kind::Character { class, .. } => match class.casting() {
                Casting::Full(a) | Casting::Half(a) => self.modifier(a),
                Casting::None => 0,
            },
            Kind::Monster(m) => m.stats().casting_mod,
        }
    }

    /// Spell save DC: 8 + proficiency + casting modifier.
    pub fn spell_save_dc(&self) -> i32 {
        8 + self.proficiency() + self.casting_modifier()
    }

    /// Spells it can cast.
    pub fn known_spells(&self) -> Vec<Spell> {
        match self.kind {
            Kind::Character { class, level, .. } => class.known_spells(level),
            Kind::Monster(m) => m.stats().spells.to_vec(),
        }
    }

    pub fn knows(&self, spell: Spell) -> bool {
        self.known_spells().contains(&spell)
    }

    /// The lowest slot level (1–9) at or above `min_level` with a slot left.
    pub fn lowest_slot(&self, min_level: u32) -> Option<u32> {
        (min_level.max(1)..=9).find(|&l| self.pools.spell_slots[l as usize - 1] > 0)
    }

    /// Attacks per Attack action (§6; a monster's Multiattack).
    pub fn attacks_per_action(&self) -> u32 {
        match self.kind {
            Kind::Character { class, level, .. } => class.attacks_per_action(level),
            Kind::Monster(m) => m.stats().multiattack,
        }
    }

    /// Whether it can attack in melee at all (to make opportunity attacks).
    pub fn has_melee_attack(&self) -> bool {
        match self.kind {
            Kind::Character { .. } => true,
            Kind::Monster(m) => m.stats().attacks.iter().any(|a| !a.ranged),
        }
    }

    /// Its best ranged attack, if any.
    pub fn has_ranged_attack(&self) -> bool {
        match self.kind {
            Kind::Character { .. } => self.weapon.stats().ranged,
            Kind::Monster(m) => m.stats().attacks.iter().any(|a| a.ranged),
        }
    }

    pub fn behaviour(&self) -> Option<Behaviour> {
        match self.controller {
            Controller::Ai(b) => Some(b),
            Controller::Player(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hero(race: Race, class: Class) -> Combatant {
        Combatant::character("Hero", race, class, 1, Controller::Player("p".into()))
    }

    #[test]
    fn heavy_armor_without_the_strength_requirement_costs_ten_feet() {
        let mut mage = hero(Race::Human, Class::Mage);
        mage.armor = Armor::Plate;
        mage.abilities.str = 14;
        mage.pack_lb = 0;
        mage.weapon = Weapon::Dagger;
        assert_eq!(mage.encumbrance(), Encumbrance::Unencumbered);
        assert_eq!(mage.speed(), 20);
    }

    #[test]
    fn dwarves_are_not_slowed_by_heavy_armor() {
        let mut dwarf = hero(Race::Dwarf, Class::Mage);
        dwarf.armor = Armor::Plate;
        dwarf.abilities.str = 14;
        dwarf.weapon = Weapon::Dagger;
        dwarf.pack_lb = 0;
        assert_eq!(dwarf.speed(), 25);
    }

    #[test]
    fn encumbered_costs_ten_feet_and_heavily_encumbered_twenty() {
        let mut rogue = hero(Race::Human, Class::Rogue);
        let strength = rogue.abilities.str;
        rogue.pack_lb = strength * 5 + 1 - (rogue.carried_lb() - rogue.pack_lb);
        assert_eq!(rogue.encumbrance(), Encumbrance::Encumbered);
        assert_eq!(rogue.speed(), 20);
        rogue.pack_lb += strength * 5;
        assert_eq!(rogue.encumbrance(), Encumbrance::HeavilyEncumbered);
        assert_eq!(rogue.speed(), 10);
    }

    #[test]
    fn haste_adds_thirty_feet_and_restrained_is_zero() {
        let mut elf = hero(Race::Elf, Class::Rogue);
        elf.conditions.hasted = true;
        assert_eq!(elf.speed(), 65);
        elf.conditions.restrained = true;
        assert_eq!(elf.speed(), 0);
    }

    #[test]
    fn web_or_entangled_halves_speed() {
        let mut human = hero(Race::Human, Class::Rogue);
        human.conditions.entangled = 1;
        assert_eq!(human.speed(), 15);
    }

    #[test]
    fn fighter_kit_gives_chain_mail_and_shield_armor_class() {
        let f = hero(Race::Human, Class::Fighter);
        assert_eq!(f.armor_class(), 18);
    }
}
