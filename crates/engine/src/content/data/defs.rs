//! The owned definitions content files describe (docs/content.md): one type per kind of
//! content, self-contained — a class carries its spells and kit, a monster its attacks, spells
//! and statuses — so a fight can keep a copy of each combatant's definition that later content
//! changes never reach.

use serde::{Deserialize, Serialize};
use std::sync::Arc;

use crate::content::{Abilities, Ability, Condition, ConditionSet, DamageSet, DamageType, Skill};
use crate::dice::DiceExpr;

/// Highest character level; per-level tables hold one row per level 1..=`LEVELS`.
pub const LEVELS: usize = 20;

/// The row of a per-level table for `level` (clamped to 1..=20).
fn row(level: u32) -> usize {
    level.clamp(1, LEVELS as u32) as usize - 1
}

/// A racial trait the rules implement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RaceTrait {
    /// A bonus-action Rage once per combat (+2 melee weapon damage while raging).
    Rage,
    /// A bonus-action Misty Step once per combat.
    MistyStep,
    /// Heavy armor never costs speed (§3.2 applies only to the other races).
    ArmoredStride,
    /// Proficiency in Perception.
    KeenSenses,
}

impl RaceTrait {
    pub const ALL: [RaceTrait; 4] = [
        RaceTrait::Rage,
        RaceTrait::MistyStep,
        RaceTrait::ArmoredStride,
        RaceTrait::KeenSenses,
    ];

    /// The trait as a content file names it.
    pub fn name(self) -> &'static str {
        match self {
            RaceTrait::Rage => "Rage",
            RaceTrait::MistyStep => "Misty Step",
            RaceTrait::ArmoredStride => "Armored Stride",
            RaceTrait::KeenSenses => "Keen Senses",
        }
    }
}

/// A playable race.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaceDef {
    pub name: Box<str>,
    /// Base walking speed in feet.
    pub speed: i32,
    /// Ability score increases.
    pub ability_bonus: Abilities,
    pub traits: Box<[RaceTrait]>,
}

impl RaceDef {
    pub fn has(&self, t: RaceTrait) -> bool {
        self.traits.contains(&t)
    }
}

/// A weapon characters wield.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WeaponDef {
    /// Shared: an attack's event names it without copying it.
    pub name: Arc<str>,
    pub damage: DiceExpr,
    pub damage_type: DamageType,
    /// Attack and damage may use DEX instead of STR.
    pub finesse: bool,
    /// May be wielded in the off hand for the off-hand bonus attack.
    pub light: bool,
    pub heavy: bool,
    /// Fired from Near or Far.
    pub ranged: bool,
    pub weight_lb: i32,
    /// A magic weapon's bonus to attack and damage rolls (a +1 Longsword: 1); its hits are
    /// magical (no "nonmagical" resistance holds against them).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub magic: i32,
}

/// An armor characters wear.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArmorDef {
    pub name: Box<str>,
    pub base_ac: i32,
    /// The most DEX modifier that counts; `None` is uncapped.
    pub dex_cap: Option<i32>,
    pub heavy: bool,
    /// Heavy armor's STR requirement: below it, speed −10 ft (§3.2).
    pub str_requirement: i32,
    pub weight_lb: i32,
    /// Magic armor's bonus to armor class (+1 Chain Mail: 1).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub magic: i32,
}

impl ArmorDef {
    /// Armor class with this armor, a DEX modifier and a shield's bonus (0 without one).
    pub fn armor_class(&self, dex_mod: i32, shield_bonus: i32) -> i32 {
        let dex = self.dex_cap.map_or(dex_mod, |cap| dex_mod.min(cap));
        self.base_ac + self.magic + dex + shield_bonus
    }
}

/// The shield: its AC bonus and weight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShieldDef {
    pub ac_bonus: i32,
    pub weight_lb: i32,
}

/// What a status does at its owner's upkeep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum StatusKindDef {
    /// Damage over time.
    Dot { amount: i32, damage_type: DamageType },
    /// Healing over time.
    Hot { amount: i32 },
    /// The turn ends as soon as it starts.
    Stun,
    /// Nothing at the upkeep: the status holds its `condition` (`crate::conditions`) while it lasts.
    Condition,
    /// Nothing at the upkeep: while it lasts its holder's attack rolls and saving throws gain (or
    /// lose) the dice, and its armor class the number (Bless, Bane, Shield of Faith;
    /// `crate::statuses::modifiers`).
    Modifier {
        attack: Option<SignedDice>,
        saves: Option<SignedDice>,
        ac: i32,
    },
}

/// Dice added to a roll, or taken from it (Bless's +1d4, Bane's −1d4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignedDice {
    pub dice: DiceExpr,
    pub minus: bool,
}

impl SignedDice {
    /// Rolls it: the total, negative for a penalty.
    pub fn roll(self, dice: &mut crate::dice::Dice) -> i32 {
        let rolled = self.dice.roll(dice, false);
        if self.minus { -rolled } else { rolled }
    }
}

/// A status effect (seed 003 §1.C).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusDef {
    pub name: Box<str>,
    pub kind: StatusKindDef,
    /// Upkeeps it lasts (0 when permanent).
    pub duration: u32,
    /// Never expires.
    pub permanent: bool,
    /// The condition it stands for (`"paralyzed"`), if any: a creature immune to it is never
    /// given the status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
    /// It ends early when its owner succeeds on a saving throw at the end of one of its turns
    /// (`crate::statuses::at_turn_end`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub save_ends: Option<SaveEnds>,
}

/// The saving throw that ends a status at the end of its owner's turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SaveEnds {
    /// The save that inflicted it, repeated (the stat block's "repeat the saving throw").
    Inflicting,
    /// A save of its own: ability and DC.
    Own(Ability, i32),
}

/// A status a hit inflicts, and the saving throw (ability, DC) that negates it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AfflictionDef {
    pub status: StatusDef,
    pub save: Option<(Ability, i32)>,
}

/// Whom a spell is cast at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SpellTarget {
    /// An enemy.
    Enemy,
    /// An ally or the caster.
    Ally,
    /// No target at all.
    None,
}

/// What a spell does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SpellEffectDef {
    /// A ranged spell attack; cantrip dice grow with the caster's level.
    Attack { damage: DiceExpr, damage_type: DamageType },
    /// One spell attack per beam (beams grow like cantrip dice).
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
    /// Temporary hit points for an ally (or self): the dice, no modifier (`crate::temp_hp`).
    TempHp { dice: DiceExpr },
    /// Mark a target: +1d6 on the caster's weapon hits against it.
    HuntersMark,
    /// Entangle the target on a failed save: half speed.
    Entangle { ability: Ability },
    /// Teleport: leaves melee without provoking.
    MistyStep,
    /// +30 ft speed for the rest of the fight.
    Haste,
    /// Cancel a spell being cast.
    Counterspell,
    /// A saving throw against the caster's DC or the spell's `status` (Hold Person, Bane): the
    /// target and up to `targets − 1` more enemies within Near; the status's `save_ends = true`
    /// repeats this save.
    Afflict { ability: Ability, targets: u32 },
    /// The spell's `status` on the target ally and up to `targets − 1` more allies, no save
    /// (Bless, Shield of Faith).
    Buff { targets: u32 },
}

/// A spell a monster casts innately (SRD 5.1 "Innate Spellcasting"): no slot, at will
/// (`per_day` 0) or `per_day` times a fight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InnateSpell {
    pub spell: Box<str>,
    pub per_day: u8,
}

/// The most innate spells a stat block lists.
pub const MAX_INNATE: usize = 8;

/// A reaction a stat block defines (SRD 5.1 "Reactions", such as a Bandit Captain's Parry): what
/// sets it off and what it does, taken through the registry's stat-block reaction
/// (`crate::reactions`), once a round like any reaction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReactionDef {
    pub name: Box<str>,
    pub on: ReactsTo,
    pub effect: ReactionEffect,
}

/// What sets a stat block's reaction off: an attack by a creature it can see that hits it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReactsTo {
    /// Any attack.
    Hit,
    /// A melee attack.
    MeleeHit,
    /// A ranged attack.
    RangedHit,
}

impl ReactsTo {
    /// Whether a hit by a melee (`true`) or ranged attack sets it off.
    pub fn answers(self, melee: bool) -> bool {
        match self {
            ReactsTo::Hit => true,
            ReactsTo::MeleeHit => melee,
            ReactsTo::RangedHit => !melee,
        }
    }
}

/// What a stat block's reaction does to the hit that set it off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReactionEffect {
    /// Adds this much to its AC against that one attack: a hit that no longer beats it misses
    /// (a critical hit lands whatever the AC).
    Ac(i32),
    /// Reduces the damage by this roll.
    Reduce(DiceExpr),
    /// Halves the damage (rounded down).
    Halve,
}

/// The most reactions a stat block lists.
pub const MAX_REACTIONS: usize = 2;

/// A creature's type (SRD 5.1 "Monsters": aberration, beast … undead): what a spell that affects
/// only some types asks (Hold Person's humanoid). Every player character is a humanoid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum CreatureType {
    Aberration,
    Beast,
    Celestial,
    Construct,
    Dragon,
    Elemental,
    Fey,
    Fiend,
    Giant,
    Humanoid,
    Monstrosity,
    Ooze,
    Plant,
    Undead,
}

impl CreatureType {
    pub const ALL: [CreatureType; 14] = [
        CreatureType::Aberration,
        CreatureType::Beast,
        CreatureType::Celestial,
        CreatureType::Construct,
        CreatureType::Dragon,
        CreatureType::Elemental,
        CreatureType::Fey,
        CreatureType::Fiend,
        CreatureType::Giant,
        CreatureType::Humanoid,
        CreatureType::Monstrosity,
        CreatureType::Ooze,
        CreatureType::Plant,
        CreatureType::Undead,
    ];

    /// Whether a creature of type `kind` is among `types` (empty: every creature, a type or none).
    pub fn affected(types: &[CreatureType], kind: Option<CreatureType>) -> bool {
        types.is_empty() || kind.is_some_and(|k| types.contains(&k))
    }

    /// As content writes it: `humanoid`.
    pub fn name(self) -> &'static str {
        match self {
            CreatureType::Aberration => "aberration",
            CreatureType::Beast => "beast",
            CreatureType::Celestial => "celestial",
            CreatureType::Construct => "construct",
            CreatureType::Dragon => "dragon",
            CreatureType::Elemental => "elemental",
            CreatureType::Fey => "fey",
            CreatureType::Fiend => "fiend",
            CreatureType::Giant => "giant",
            CreatureType::Humanoid => "humanoid",
            CreatureType::Monstrosity => "monstrosity",
            CreatureType::Ooze => "ooze",
            CreatureType::Plant => "plant",
            CreatureType::Undead => "undead",
        }
    }
}

/// A spell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpellDef {
    pub name: Box<str>,
    /// 0 for cantrips.
    pub level: u32,
    pub casting_time: CastingTime,
    pub target: SpellTarget,
    pub effect: SpellEffectDef,
    /// What a spell attack that hits inflicts.
    pub on_hit: Option<AfflictionDef>,
    /// What an `Afflict` spell's failed save gives, a `Buff` spell bestows, or a `Save` spell's
    /// failed save gives besides its damage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<StatusDef>,
    /// Its `status` lasts only while the caster concentrates on it (`crate::concentration`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub concentration: bool,
    /// The creature types it affects (Hold Person: humanoids); empty, every creature.
    #[serde(default, skip_serializing_if = "<[_]>::is_empty")]
    pub affects: Box<[CreatureType]>,
}

impl SpellDef {
    /// Whether it affects a creature of type `kind` (`None`: a stat block that names none, which
    /// only a spell for every creature affects).
    pub fn affects(&self, kind: Option<CreatureType>) -> bool {
        CreatureType::affected(&self.affects, kind)
    }

    pub fn targets_ally(&self) -> bool {
        self.target == SpellTarget::Ally
    }

    pub fn needs_target(&self) -> bool {
        self.target != SpellTarget::None
    }
}

/// What using an item does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ItemEffectDef {
    /// Restores HP; on a downed character it also stabilises.
    Heal(DiceExpr),
    /// Temporary hit points for whoever drinks it (`crate::temp_hp`).
    TempHp(DiceExpr),
    /// +30 ft speed for the rest of the fight.
    Haste,
    /// Casts the spell without a slot.
    Scroll(Box<SpellDef>),
    /// Ends the poisoned condition.
    CurePoison,
    /// Thrown at an enemy within 30 ft: restrained unless it makes a DEX save against `dc`;
    /// a STR or DEX check against the same DC frees it (a net, §3.2 Restrained).
    Restrain { dc: i32 },
    /// The status takes hold of whoever drinks it, no save (a Potion of Heroism's blessing).
    Status(Box<StatusDef>),
}

/// A consumable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemDef {
    pub name: Box<str>,
    /// Other names it answers to.
    pub aliases: Box<[Box<str>]>,
    pub effect: ItemEffectDef,
    pub price: u32,
    /// Weight in tenths of a pound.
    pub weight_tenths: i32,
}

impl ItemDef {
    /// Whether it may be given to an ally (potions may be administered).
    pub fn can_administer(&self) -> bool {
        matches!(
            self.effect,
            ItemEffectDef::Heal(_) | ItemEffectDef::TempHp(_) | ItemEffectDef::CurePoison | ItemEffectDef::Status(_)
        )
    }
}

/// A class feature the rules implement, granted from a level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Feature {
    SecondWind,
    CunningAction,
    CunningStrike,
    SneakAttack,
    UncannyDodge,
    Evasion,
    Interception,
    Parry,
    ShieldOfFaith,
    Rage,
    /// TDGS Instant (Fighter, Berserker).
    BattleCry,
    /// TDGS Instant (Rogue).
    QuickDraw,
    /// TDGS Instant (Mage).
    Premonition,
    /// TDGS Instant (Ranger).
    SteadyAim,
    /// TDGS: opportunity attacks as an Interrupt.
    Opportunist,
    /// TDGS: a Cleric's per-day Interrupt (1/day).
    DivineIntervention,
    /// The Shield reaction: +5 AC against the triggering hit, for a level-1 slot.
    Shield,
}

impl Feature {
    pub const ALL: [Feature; 17] = [
        Feature::SecondWind,
        Feature::CunningAction,
        Feature::CunningStrike,
        Feature::SneakAttack,
        Feature::UncannyDodge,
        Feature::Evasion,
        Feature::Interception,
        Feature::Parry,
        Feature::ShieldOfFaith,
        Feature::Rage,
        Feature::BattleCry,
        Feature::QuickDraw,
        Feature::Premonition,
        Feature::SteadyAim,
        Feature::Opportunist,
        Feature::DivineIntervention,
        Feature::Shield,
    ];

    /// The feature as a content file names it.
    pub fn name(self) -> &'static str {
        match self {
            Feature::SecondWind => "Second Wind",
            Feature::CunningAction => "Cunning Action",
            Feature::CunningStrike => "Cunning Strike",
            Feature::SneakAttack => "Sneak Attack",
            Feature::UncannyDodge => "Uncanny Dodge",
            Feature::Evasion => "Evasion",
            Feature::Interception => "Interception",
            Feature::Parry => "Parry",
            Feature::ShieldOfFaith => "Shield of Faith",
            Feature::Rage => "Rage",
            Feature::BattleCry => "Battle Cry",
            Feature::QuickDraw => "Quick Draw",
            Feature::Premonition => "Premonition",
            Feature::SteadyAim => "Steady Aim",
            Feature::Opportunist => "Opportunist",
            Feature::DivineIntervention => "Divine Intervention",
            Feature::Shield => "Shield",
        }
    }
}

/// A feature and the level it comes at (under TDGS, possibly another).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeatureGrant {
    pub feature: Feature,
    pub level: u32,
    pub tdgs_level: u32,
}

/// One row of a class's per-level table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ClassLevel {
    /// Attacks per Attack action.
    pub attacks: u8,
    pub second_wind: u8,
    pub rage: u8,
    pub rage_damage: u8,
    pub divine_favor: u8,
    pub sneak_attack_dice: u8,
    /// Parry Interrupts per round under TDGS.
    pub tdgs_parries: u8,
    /// Spell slots by spell level (index 0 = 1st).
    pub spell_slots: [u8; 9],
}

/// A spell of a class's list and the level it is known from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassSpell {
    pub from_level: u32,
    pub spell: SpellDef,
}

/// A class's starting kit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KitDef {
    pub weapon: WeaponDef,
    pub off_hand: Option<WeaponDef>,
    pub armor: ArmorDef,
    pub shield: bool,
}

/// A class, levels 1–20.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassDef {
    pub name: Box<str>,
    pub aliases: Box<[Box<str>]>,
    pub hit_die: i32,
    /// Scores before racial bonuses.
    pub base_abilities: Abilities,
    pub saving_throws: [Ability; 2],
    pub skills: Box<[Skill]>,
    pub kit: KitDef,
    /// The spellcasting ability; `None` for a class that does not cast.
    pub casting_ability: Option<Ability>,
    pub spells: Box<[ClassSpell]>,
    pub features: Box<[FeatureGrant]>,
    /// One row per level, level 1 first (`LEVELS` rows).
    pub levels: Box<[ClassLevel]>,
}

impl ClassDef {
    /// The per-level row for `level` (clamped to 1–20).
    pub fn at(&self, level: u32) -> &ClassLevel {
        &self.levels[row(level)]
    }

    /// Whether the class has `feature` at `level` (under TDGS when `tdgs`).
    pub fn has_feature(&self, feature: Feature, level: u32, tdgs: bool) -> bool {
        self.features
            .iter()
            .any(|g| g.feature == feature && level >= if tdgs { g.tdgs_level } else { g.level })
    }

    /// The spells known at `level`, in the class list's order.
    pub fn known_spells(&self, level: u32) -> impl Iterator<Item = &SpellDef> {
        self.spells
            .iter()
            .filter(move |s| s.from_level <= level)
            .map(|s| &s.spell)
    }

    /// Maximum HP: the full hit die at level 1, then the die's average rounded up per level;
    /// CON modifier every level; at least 1 per level.
    pub fn max_hp(&self, level: u32, con_mod: i32) -> i32 {
        let level = level.clamp(1, LEVELS as u32) as i32;
        let per_level = self.hit_die / 2 + 1;
        let hp = self.hit_die + con_mod + (level - 1) * (per_level + con_mod);
        hp.max(level)
    }
}

/// How a monster fights: what it does on its turn and which reactions it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Behaviour {
    /// Closes to melee with the nearest standing enemy and attacks; never retreats.
    Aggressive,
    /// Attacks, then falls back out of melee (provoking opportunity attacks unless it has Blur).
    Skirmisher,
    /// Keeps its distance and shoots.
    Ranged,
    /// Goes for the weakest standing enemy it can reach.
    Brute,
    /// Casts its strongest spell, counterspells enemy casters, and fights at range.
    Caster,
    /// Breathes when its breath weapon is charged, otherwise fights in melee.
    Breather,
}

/// How long casting takes: which resource of the action economy it spends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CastingTime {
    Action,
    BonusAction,
    Reaction,
}

/// What changes with character level for everyone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelsDef {
    /// XP needed to reach each level (index = level − 1).
    pub xp: Box<[u32]>,
    pub proficiency: Box<[i32]>,
    /// Cantrip dice multiplier (and Eldritch Blast's beams).
    pub cantrip_dice: Box<[u32]>,
}

impl LevelsDef {
    /// The level a character with `xp` experience has reached.
    pub fn level_for_xp(&self, xp: u32) -> u32 {
        self.xp.iter().rposition(|&need| xp >= need).map_or(1, |i| i as u32 + 1)
    }

    pub fn proficiency_bonus(&self, level: u32) -> i32 {
        self.proficiency[row(level)]
    }

    pub fn cantrip_multiplier(&self, level: u32) -> u32 {
        self.cantrip_dice[row(level)]
    }
}

/// One more part of a hit's damage, of a type of its own ("plus 1d6 fire").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamagePartDef {
    pub damage: DiceExpr,
    pub damage_type: DamageType,
}

/// The most extra damage parts one attack may have.
pub const MAX_EXTRA_PARTS: usize = 2;

/// A stat block's defences (SRD 5.1 "Damage Resistance and Vulnerability", a stat block's
/// condition immunities), applied by `crate::defences` in every ruleset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Defences {
    #[serde(default, skip_serializing_if = "DamageSet::is_empty")]
    pub resistances: DamageSet,
    #[serde(default, skip_serializing_if = "DamageSet::is_empty")]
    pub immunities: DamageSet,
    #[serde(default, skip_serializing_if = "DamageSet::is_empty")]
    pub vulnerabilities: DamageSet,
    #[serde(default, skip_serializing_if = "ConditionSet::is_empty")]
    pub condition_immunities: ConditionSet,
}

impl Defences {
    pub fn is_empty(&self) -> bool {
        *self == Defences::default()
    }
}

/// Speeds besides walking, in feet (0: the creature has none), and hovering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Speeds {
    #[serde(default, skip_serializing_if = "is_zero")]
    pub fly: i32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub swim: i32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub climb: i32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub burrow: i32,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hover: bool,
}

impl Speeds {
    pub fn is_empty(&self) -> bool {
        *self == Speeds::default()
    }
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(n: &i32) -> bool {
    *n == 0
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero_u8(n: &u8) -> bool {
    *n == 0
}

/// A natural attack of a stat block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackDef {
    /// Shared: an attack's event names it without copying it.
    pub name: Arc<str>,
    pub to_hit: i32,
    pub damage: DiceExpr,
    pub damage_type: DamageType,
    pub ranged: bool,
    /// What a hit inflicts.
    pub on_hit: Option<AfflictionDef>,
    /// Damage of other types a hit also deals (at most [`MAX_EXTRA_PARTS`]).
    #[serde(default, skip_serializing_if = "<[_]>::is_empty")]
    pub extra: Box<[DamagePartDef]>,
}

/// The most auras a stat block has.
pub const MAX_AURAS: usize = 2;

/// An aura of a stat block (the Ghast's Stench, a fire elemental's heat): each enemy that starts
/// its turn in melee with its standing holder suffers it — a saving throw if it has one, a
/// failure (or no save) taking the damage and the status, a success half the damage (or none).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuraDef {
    pub name: Box<str>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<DiceExpr>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage_type: Option<DamageType>,
    /// The saving throw (ability, DC) that resists it, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub save: Option<(Ability, i32)>,
    /// A success takes half the damage (else none).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub half: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<StatusDef>,
    /// A success makes the creature immune to this aura of this holder for the rest of the fight
    /// (the Ghast's Stench: "immune … for 24 hours").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub immune_on_save: bool,
}

/// A stat block's Regeneration ("regains 10 hit points at the start of its turn; if it takes
/// acid or fire damage, this trait doesn't function at the start of its next turn").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegenerationDef {
    pub hp: i32,
    /// Damage types that stop it for a turn.
    #[serde(default, skip_serializing_if = "DamageSet::is_empty")]
    pub stopped_by: DamageSet,
}

/// A legendary creature's legendary actions (SRD 5.1 "Legendary Creatures"): `actions` points,
/// regained at the start of each of its turns, spent on one option at the end of another
/// creature's turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegendaryDef {
    /// Points a round (the stat block's "can take 3 legendary actions").
    pub actions: u8,
    pub options: Box<[LegendaryOptionDef]>,
}

/// One legendary action, for `cost` points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegendaryOptionDef {
    pub name: Box<str>,
    pub cost: u8,
    pub effect: LegendaryEffect,
}

/// What a legendary action does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum LegendaryEffect {
    /// One attack, by index into the stat block's `attacks`.
    Attack(u8),
    /// One of its area abilities (a dragon's Wing Attack), by index into
    /// [`MonsterDef::each_area_ability`].
    Ability(u8),
}

/// The most area abilities a stat block has (its breath weapon among them).
pub const MAX_ABILITIES: usize = 4;

/// An area ability of a stat block (`crate::abilities`): a breath weapon, Frightful Presence, a
/// gaze — the creatures its area catches make a saving throw; a failure takes its damage and
/// its status, a success half the damage (or none) and no status. It may recharge on a d6 at
/// the start of its owner's turn, or have uses a fight, or neither (at will).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbilityDef {
    pub name: Box<str>,
    /// Damage on a failed save (`None`: a status only).
    pub damage: Option<DiceExpr>,
    pub damage_type: Option<DamageType>,
    pub save_dc: i32,
    /// The saving throw's ability.
    #[serde(default = "dex", skip_serializing_if = "is_dex")]
    pub save: Ability,
    /// A success takes half the damage (else none).
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub half: bool,
    /// The status a failed save gives.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<StatusDef>,
    /// Whom it reaches (`crate::casting::caught`). A stat block stored without one breathed
    /// on every enemy within Near, and still does.
    #[serde(default = "Area::burst", skip_serializing_if = "Area::is_burst")]
    pub area: Area,
    /// The area's size in feet: a cone's length, a line's length (0 for a burst).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub size: i32,
    /// The lowest d6 that recharges it ("Recharge 5–6": 5); 0: it does not recharge.
    #[serde(default = "five", skip_serializing_if = "is_five")]
    pub recharge: u8,
    /// Uses a fight (0: as often as it is ready).
    #[serde(default, skip_serializing_if = "is_zero_u8")]
    pub uses: u8,
    /// Used as part of the Attack action (Frightful Presence before a multiattack): it spends
    /// no action of its own.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub with_attack: bool,
    /// Only a legendary action uses it (a dragon's Wing Attack): never its turn's action.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub legendary_only: bool,
    /// A breath weapon: what a readied "uses breath weapon" waits for.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub breath: bool,
}

fn dex() -> Ability {
    Ability::Dex
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_dex(a: &Ability) -> bool {
    *a == Ability::Dex
}

fn yes() -> bool {
    true
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_yes(b: &bool) -> bool {
    *b
}

fn five() -> u8 {
    5
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_five(n: &u8) -> bool {
    *n == 5
}

/// The shape of an area effect; whom it catches in the band model is `crate::casting::caught`
/// (docs/content.md "Areas").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Area {
    /// From the creature's mouth: one creature per 10 ft of its length (rounded up).
    Cone,
    /// A narrow line: one creature per 30 ft of its length (rounded up).
    Line,
    /// All around it: every enemy within Near.
    Burst,
}

impl Area {
    /// How many creatures an area of this shape and `size` feet catches (the Dungeon Master's
    /// Guide's "Targets in Areas of Effect"), at least one; `None`: every one in reach.
    pub fn catches(self, size: i32) -> Option<usize> {
        let per = match self {
            Area::Cone => 10,
            Area::Line => 30,
            Area::Burst => return None,
        };
        Some(((size.max(1) + per - 1) / per).max(1) as usize)
    }

    /// The size a content file means when it names none: a 15-ft cone, a 30-ft line.
    pub fn default_size(self) -> i32 {
        match self {
            Area::Cone => 15,
            Area::Line => 30,
            Area::Burst => 0,
        }
    }

    pub fn burst() -> Self {
        Area::Burst
    }

    #[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
    pub fn is_burst(&self) -> bool {
        *self == Area::Burst
    }
}

/// A monster's stat block, abilities and behaviour profile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MonsterDef {
    pub name: Box<str>,
    pub aliases: Box<[Box<str>]>,
    /// Zone tier 1–5 where it is met.
    pub tier: u8,
    pub xp: u32,
    pub hit_points: DiceExpr,
    pub armor_class: i32,
    pub abilities: Abilities,
    pub speed: i32,
    pub proficiency: i32,
    pub attacks: Box<[AttackDef]>,
    /// Attacks per Attack action.
    pub multiattack: u32,
    /// The multiattack's mix, swing by swing, as indices into `attacks` ("two claws and a
    /// bite"); empty: the first attack that suits the band, then the last.
    #[serde(default, skip_serializing_if = "<[_]>::is_empty")]
    pub pattern: Box<[u8]>,
    pub behaviour: Behaviour,
    /// Blur: its movement never provokes opportunity attacks.
    pub blur: bool,
    /// Hides (Stealth against the party's passive Perception) when no one is in its reach;
    /// found by Search (§2.1).
    #[serde(default)]
    pub hides: bool,
    /// Parry reaction: reduce a melee hit by 1d8 + DEX.
    pub parry: bool,
    /// Pack Tactics: advantage on an attack roll while an ally of it stands in melee with the
    /// target.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pack_tactics: bool,
    /// Magic Resistance: advantage on saving throws against spells.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub magic_resistance: bool,
    /// Undead Fortitude: damage that would drop it to 0 HP leaves it at 1 on a CON save against
    /// 5 + the damage, unless the damage is radiant or from a critical hit.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub undead_fortitude: bool,
    /// Legendary Resistance: this many failed saving throws a fight it turns into successes.
    #[serde(default, skip_serializing_if = "is_zero_u8")]
    pub legendary_resistance: u8,
    /// Legendary actions: points a round and what they buy (`crate::legendary`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legendary: Option<LegendaryDef>,
    /// Auras: what an enemy starting its turn in melee with it suffers (`crate::auras`).
    #[serde(default, skip_serializing_if = "<[_]>::is_empty")]
    pub auras: Box<[AuraDef]>,
    /// Regeneration: hit points regained at the start of each of its turns, unless damage of a
    /// type that stops it landed since its last turn (`crate::regeneration`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regeneration: Option<RegenerationDef>,
    /// A breath weapon, as fights stored before area abilities kept it (read back as the first
    /// of [`MonsterDef::each_area_ability`]); content puts every area ability in `area_abilities`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breath: Option<AbilityDef>,
    /// Its area abilities (`crate::abilities`), at most [`MAX_ABILITIES`].
    #[serde(default, skip_serializing_if = "<[_]>::is_empty")]
    pub area_abilities: Box<[AbilityDef]>,
    /// The spells it casts: those of its slots, then its innate ones.
    pub spells: Box<[SpellDef]>,
    /// Spell slots by level (index 0 = 1st).
    pub spell_slots: [u8; 9],
    /// Innate spellcasting: spells (among `spells`) it casts with no slot, at will or a number
    /// of times a day — a fight is its day (`crate::casting`); at most [`MAX_INNATE`].
    #[serde(default, skip_serializing_if = "<[_]>::is_empty")]
    pub innate_spells: Box<[InnateSpell]>,
    /// Its own reactions, at most [`MAX_REACTIONS`]; the first that answers a trigger is taken.
    #[serde(default, skip_serializing_if = "<[_]>::is_empty")]
    pub reactions: Box<[ReactionDef]>,
    pub casting_mod: i32,
    /// Passive Perception is 10 + this.
    pub perception: i32,
    pub stealth: i32,
    /// Statuses it has from the start of a fight.
    pub statuses: Box<[StatusDef]>,
    /// Resistances, immunities, vulnerabilities and condition immunities.
    #[serde(default, skip_serializing_if = "Defences::is_empty")]
    pub defences: Defences,
    /// Saving throws it is proficient in, with their whole bonus (the stat block's "Dex +5");
    /// the others are the ability modifier.
    #[serde(default, skip_serializing_if = "<[_]>::is_empty")]
    pub saves: Box<[(Ability, i32)]>,
    /// Flying, swimming, climbing and burrowing speeds.
    #[serde(default, skip_serializing_if = "Speeds::is_empty")]
    pub speeds: Speeds,
    /// Its creature type, when its stat block names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creature_type: Option<CreatureType>,
}

impl MonsterDef {
    /// Its area abilities, by index: a stored fight's `breath` first, then `area_abilities`.
    pub fn each_area_ability(&self) -> impl Iterator<Item = &AbilityDef> {
        self.breath.iter().chain(self.area_abilities.iter()).take(MAX_ABILITIES)
    }

    /// Its area ability `i`.
    pub fn ability(&self, i: usize) -> Option<&AbilityDef> {
        self.each_area_ability().nth(i)
    }

    /// Its saving throw bonus for `ability`, when the stat block names one.
    pub fn save(&self, ability: Ability) -> Option<i32> {
        self.saves.iter().find(|(a, _)| *a == ability).map(|(_, bonus)| *bonus)
    }
}

/// An expedition zone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZoneDef {
    pub name: Box<str>,
    /// 1–5.
    pub tier: u8,
    /// Rooms in one expedition.
    pub rooms: u32,
    /// What makes a room Difficult Terrain here.
    pub difficult_terrain: Box<str>,
    /// Chance in 6 that a room is Difficult Terrain.
    pub difficult_in_6: u32,
    /// Chance in 6 that a room before the last holds monsters.
    pub encounter_in_6: u32,
    /// What a quiet room yields.
    pub material: Box<str>,
    /// The monsters met here, by name (each a monster of the same content).
    pub monsters: Box<[Box<str>]>,
    /// What its rooms hide (§2.1 Search): room N holds entry (N − 1) mod their number.
    #[serde(default)]
    pub hidden: Box<[HiddenDef]>,
}

impl ZoneDef {
    /// The character levels a zone of its tier suits: four levels a tier (tier 1: 1–4 … tier 5:
    /// 17–20), as the monsters met there are chosen.
    pub fn suggested_levels(&self) -> (u32, u32) {
        let tier = u32::from(self.tier.max(1));
        ((tier - 1) * 4 + 1, tier * 4)
    }
}

/// Something hidden in a room (§2.1 Search "examine surroundings for hidden things"), found by
/// the better of Perception and Investigation against its DC.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HiddenDef {
    /// As TwinBee names it when found.
    pub what: Box<str>,
    pub dc: i32,
    pub kind: HiddenKind,
}

/// What finding a hidden thing does (the service applies it when the room's fight is won).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum HiddenKind {
    /// A trap, found and so disarmed.
    Trap,
    /// Coins, shared by the party that wins the room.
    Cache { coins: u32 },
    /// A hidden door: the expedition skips a room.
    Door,
}
