//! Reading content files: the TOML schema (private `Raw*` types that keep each value's place
//! in its file), then validation and the resolution of names into owned definitions. Every
//! problem is reported with its file and line, what is wrong and what is allowed; an entry with
//! a problem is left out, and loading fails with every problem found.

// A field read as "present: check it; absent: report what is needed" is a match on both arms.
#![allow(clippy::single_match_else)]

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::{Range, RangeInclusive};
use std::sync::Arc;

use serde::Deserialize;
use toml::Spanned;

use super::defs::{
    AbilityDef, AfflictionDef, Area, ArmorDef, AttackDef, AuraDef, ClassDef, ClassLevel, ClassSpell, CreatureType,
    DamagePartDef, Defences, Feature, FeatureGrant, HiddenDef, HiddenKind, InnateSpell, ItemDef, ItemEffectDef, KitDef,
    LEVELS, LegendaryDef, LegendaryEffect, LegendaryOptionDef, LevelsDef, MAX_ABILITIES, MAX_AURAS, MAX_EXTRA_PARTS,
    MAX_INNATE, MAX_REACTIONS, MonsterDef, RaceDef, RaceTrait, ReactionDef, ReactionEffect, ReactsTo, RegenerationDef,
    SaveEnds, ShieldDef, SignedDice, Speeds, SpellDef, SpellEffectDef, SpellTarget, StatusDef, StatusKindDef,
    WeaponDef, ZoneDef,
};
use super::{Content, ContentError, ContentFile, Issue, Table};
use crate::content::CastingTime;
use crate::content::{Abilities, Ability, Behaviour, Condition, ConditionSet, DamageSet, DamageType, Skill, normalize};
use crate::dice::DiceExpr;

type S<T> = Spanned<T>;
/// A spell-slot table as written: 20 rows of slots by spell level.
type RawSlotTable = S<Vec<S<Vec<S<i64>>>>>;

/// The longest name an entry may have, in characters.
pub const MAX_NAME_LEN: usize = 40;
/// The most dice one expression may roll.
pub const MAX_DICE: i64 = 40;
/// The dice a dice expression may roll.
pub const DIE_SIDES: [i64; 10] = [1, 2, 3, 4, 6, 8, 10, 12, 20, 100];
/// Flat bonuses of a dice expression.
pub const DICE_BONUS: RangeInclusive<i64> = -50..=200;
/// Armor classes (a monster's, an armor's base).
pub const ARMOR_CLASS: RangeInclusive<i64> = 1..=40;

// ---------------------------------------------------------------------------------------------
// The schema.

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    race: Vec<S<RawRace>>,
    #[serde(default)]
    class: Vec<S<RawClass>>,
    levels: Option<S<RawLevels>>,
    #[serde(default)]
    spell_slots: BTreeMap<String, RawSlotTable>,
    #[serde(default)]
    weapon: Vec<S<RawWeapon>>,
    #[serde(default)]
    armor: Vec<S<RawArmor>>,
    shield: Option<S<RawShield>>,
    #[serde(default)]
    spell: Vec<S<RawSpell>>,
    #[serde(default)]
    item: Vec<S<RawItem>>,
    #[serde(default)]
    status: Vec<S<RawStatus>>,
    #[serde(default)]
    monster: Vec<S<RawMonster>>,
    #[serde(default)]
    zone: Vec<S<RawZone>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawAbilities {
    str: Option<S<i64>>,
    dex: Option<S<i64>>,
    con: Option<S<i64>>,
    int: Option<S<i64>>,
    wis: Option<S<i64>>,
    cha: Option<S<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRace {
    name: S<String>,
    speed: S<i64>,
    bonus: Option<S<RawAbilities>>,
    #[serde(default)]
    traits: Vec<S<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLevels {
    xp: S<Vec<S<i64>>>,
    proficiency: S<Vec<S<i64>>>,
    cantrip_dice: S<Vec<S<i64>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKit {
    weapon: S<String>,
    off_hand: Option<S<String>>,
    armor: S<String>,
    #[serde(default)]
    shield: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCasting {
    ability: S<String>,
    slots: S<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawClassSpell {
    name: S<String>,
    from: S<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFeature {
    name: S<String>,
    level: S<i64>,
    tdgs_level: Option<S<i64>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawPerLevel {
    attacks: Option<S<Vec<S<i64>>>>,
    second_wind: Option<S<Vec<S<i64>>>>,
    rage: Option<S<Vec<S<i64>>>>,
    rage_damage: Option<S<Vec<S<i64>>>>,
    divine_favor: Option<S<Vec<S<i64>>>>,
    sneak_attack_dice: Option<S<Vec<S<i64>>>>,
    tdgs_parries: Option<S<Vec<S<i64>>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawClass {
    name: S<String>,
    #[serde(default)]
    aliases: Vec<S<String>>,
    hit_die: S<i64>,
    abilities: S<RawAbilities>,
    saving_throws: S<Vec<S<String>>>,
    #[serde(default)]
    skills: Vec<S<String>>,
    kit: S<RawKit>,
    casting: Option<S<RawCasting>>,
    #[serde(default)]
    spells: Vec<S<RawClassSpell>>,
    #[serde(default)]
    features: Vec<S<RawFeature>>,
    #[serde(default)]
    per_level: RawPerLevel,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWeapon {
    name: S<String>,
    damage: S<String>,
    #[serde(rename = "type")]
    damage_type: S<String>,
    #[serde(default)]
    properties: Vec<S<String>>,
    weight: S<i64>,
    /// A magic weapon's bonus, 1–3.
    magic: Option<S<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArmor {
    name: S<String>,
    base_ac: S<i64>,
    dex_cap: Option<S<i64>>,
    #[serde(default)]
    heavy: bool,
    strength: Option<S<i64>>,
    weight: S<i64>,
    /// Magic armor's bonus, 1–3.
    magic: Option<S<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawShield {
    ac_bonus: S<i64>,
    weight: S<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAffliction {
    status: S<String>,
    save: Option<S<String>>,
    dc: Option<S<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawInnate {
    spell: S<String>,
    per_day: Option<S<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpell {
    name: S<String>,
    replaces: Option<S<String>>,
    level: S<i64>,
    casting_time: S<String>,
    target: Option<S<String>>,
    effect: S<String>,
    damage: Option<S<String>>,
    #[serde(rename = "type")]
    damage_type: Option<S<String>>,
    count: Option<S<i64>>,
    save: Option<S<String>>,
    half_on_save: Option<S<bool>>,
    area: Option<S<bool>>,
    healing: Option<S<String>>,
    /// The temporary hit points a `temp_hp` spell gives (`"1d4+4"`).
    temp_hp: Option<S<String>>,
    on_hit: Option<S<RawAffliction>>,
    /// The `[[status]]` a `save` spell's failure gives, or a `buff` bestows.
    status: Option<S<String>>,
    /// How many creatures a `buff` or a damage-free `save` reaches (1).
    targets: Option<S<i64>>,
    /// Its `status` lasts while the caster concentrates (`crate::concentration`).
    concentration: Option<S<bool>>,
    /// The creature types it affects (`["humanoid"]`); every creature when left out.
    #[serde(default)]
    affects: Vec<S<String>>,
    /// The classes that learn it (a homebrew spell): each caster of one of them knows it from
    /// the first level with slots of its level (a cantrip from level 1).
    #[serde(default)]
    classes: Vec<S<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawItem {
    name: S<String>,
    replaces: Option<S<String>>,
    #[serde(default)]
    aliases: Vec<S<String>>,
    effect: S<String>,
    healing: Option<S<String>>,
    /// The temporary hit points a `temp_hp` item gives.
    temp_hp: Option<S<String>>,
    spell: Option<S<String>>,
    /// The DC of a `restrain` item's save and of the check that escapes it.
    dc: Option<S<i64>>,
    /// The `[[status]]` a `status` item gives.
    status: Option<S<String>>,
    /// Thom's price; absent or 0, the shop does not sell it (nor buy it back).
    price: Option<S<i64>>,
    weight: S<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStatus {
    name: S<String>,
    kind: S<String>,
    amount: Option<S<i64>>,
    #[serde(rename = "type")]
    damage_type: Option<S<String>>,
    turns: Option<S<i64>>,
    #[serde(default)]
    permanent: bool,
    condition: Option<S<String>>,
    save_ends: Option<S<RawSaveEnds>>,
    /// A `modifier`'s dice on attack rolls and on saving throws (`"1d4"`, `"-1d4"`), and its
    /// armor class change.
    attack: Option<S<String>>,
    saves: Option<S<String>>,
    ac: Option<S<i64>>,
}

/// `save_ends = true` (the inflicting save, repeated) or `save_ends = { save = "wis", dc = 13 }`.
#[derive(Deserialize)]
#[serde(untagged)]
enum RawSaveEnds {
    Inflicting(bool),
    Own { save: String, dc: i64 },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAttack {
    name: S<String>,
    to_hit: S<i64>,
    damage: S<String>,
    #[serde(rename = "type")]
    damage_type: S<String>,
    #[serde(default)]
    ranged: bool,
    on_hit: Option<S<RawAffliction>>,
    #[serde(default)]
    extra: Vec<S<RawDamagePart>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDamagePart {
    damage: S<String>,
    #[serde(rename = "type")]
    damage_type: S<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawSpeeds {
    fly: Option<S<i64>>,
    swim: Option<S<i64>>,
    climb: Option<S<i64>>,
    burrow: Option<S<i64>>,
    #[serde(default)]
    hover: bool,
}

/// A breath weapon (`breath`: a DEX save for half, recharging on 5–6 unless told) or any area
/// ability (`area_abilities`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAbility {
    name: S<String>,
    damage: Option<S<String>>,
    #[serde(rename = "type")]
    damage_type: Option<S<String>>,
    dc: S<i64>,
    save: Option<S<String>>,
    half: Option<S<bool>>,
    status: Option<S<String>>,
    area: Option<S<String>>,
    size: Option<S<i64>>,
    recharge: Option<S<i64>>,
    uses: Option<S<i64>>,
    #[serde(default)]
    with_attack: bool,
    #[serde(default)]
    legendary_only: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMonster {
    name: S<String>,
    replaces: Option<S<String>>,
    #[serde(default)]
    aliases: Vec<S<String>>,
    tier: S<i64>,
    xp: S<i64>,
    hp: S<String>,
    ac: S<i64>,
    abilities: S<RawAbilities>,
    speed: Option<S<i64>>,
    proficiency: Option<S<i64>>,
    attacks: S<Vec<S<RawAttack>>>,
    multiattack: Option<S<i64>>,
    behaviour: Option<S<String>>,
    #[serde(default)]
    traits: Vec<S<String>>,
    breath: Option<S<RawAbility>>,
    #[serde(default)]
    area_abilities: Vec<S<RawAbility>>,
    #[serde(default)]
    spells: Vec<S<String>>,
    spell_slots: Option<S<Vec<S<i64>>>>,
    /// Innate spellcasting: `[{ spell = "Darkness", per_day = 1 }]`, at will without `per_day`.
    #[serde(default)]
    innate_spells: Vec<S<RawInnate>>,
    casting_mod: Option<S<i64>>,
    perception: Option<S<i64>>,
    stealth: Option<S<i64>>,
    #[serde(default)]
    statuses: Vec<S<String>>,
    #[serde(default)]
    resistances: Vec<S<String>>,
    #[serde(default)]
    immunities: Vec<S<String>>,
    #[serde(default)]
    vulnerabilities: Vec<S<String>>,
    #[serde(default)]
    condition_immunities: Vec<S<String>>,
    saves: Option<S<RawAbilities>>,
    speeds: Option<S<RawSpeeds>>,
    legendary_resistance: Option<S<i64>>,
    legendary: Option<S<RawLegendary>>,
    regeneration: Option<S<RawRegeneration>>,
    #[serde(default)]
    auras: Vec<S<RawAura>>,
    /// Its creature type (`"humanoid"`).
    creature_type: Option<S<String>>,
    /// Its own reactions: `[{ name = "Parry", on = "melee hit", ac = 2 }]`.
    #[serde(default)]
    reactions: Vec<S<RawReaction>>,
    pattern: Option<S<Vec<S<String>>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawReaction {
    name: S<String>,
    on: S<String>,
    ac: Option<S<i64>>,
    reduce: Option<S<String>>,
    half: Option<S<bool>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAura {
    name: S<String>,
    damage: Option<S<String>>,
    #[serde(rename = "type")]
    damage_type: Option<S<String>>,
    save: Option<S<String>>,
    dc: Option<S<i64>>,
    #[serde(default)]
    half: bool,
    status: Option<S<String>>,
    /// A success makes the creature immune to this aura for the rest of the fight.
    immune_on_save: Option<S<bool>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRegeneration {
    hp: S<i64>,
    #[serde(default)]
    stopped_by: Vec<S<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLegendary {
    actions: S<i64>,
    options: S<Vec<S<RawLegendaryOption>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLegendaryOption {
    name: S<String>,
    attack: Option<S<String>>,
    ability: Option<S<String>>,
    cost: Option<S<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawZone {
    name: S<String>,
    tier: S<i64>,
    rooms: S<i64>,
    difficult_terrain: S<String>,
    difficult_in_6: S<i64>,
    encounter_in_6: S<i64>,
    material: S<String>,
    monsters: S<Vec<S<String>>>,
    #[serde(default)]
    hidden: Vec<RawHidden>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHidden {
    what: S<String>,
    kind: S<String>,
    dc: S<i64>,
    coins: Option<S<i64>>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum HiddenTag {
    Trap,
    Cache,
    Door,
}

const HIDDEN_KINDS: [(&str, HiddenTag); 3] = [
    ("trap", HiddenTag::Trap),
    ("cache", HiddenTag::Cache),
    ("door", HiddenTag::Door),
];

// ---------------------------------------------------------------------------------------------
// The closed vocabularies a file may use.

const DAMAGE_TYPES: [(&str, DamageType); 13] = {
    let mut out = [("", DamageType::Slashing); 13];
    let mut i = 0;
    while i < 13 {
        out[i] = (DamageType::ALL[i].name(), DamageType::ALL[i]);
        i += 1;
    }
    out
};

const CONDITIONS: [(&str, Condition); 15] = {
    let mut out = [("", Condition::Blinded); 15];
    let mut i = 0;
    while i < 15 {
        out[i] = (Condition::ALL[i].name(), Condition::ALL[i]);
        i += 1;
    }
    out
};

const AREAS: [(&str, Area); 3] = [("cone", Area::Cone), ("line", Area::Line), ("burst", Area::Burst)];

const ABILITIES: [(&str, Ability); 6] = [
    ("STR", Ability::Str),
    ("DEX", Ability::Dex),
    ("CON", Ability::Con),
    ("INT", Ability::Int),
    ("WIS", Ability::Wis),
    ("CHA", Ability::Cha),
];

const SKILLS: [(&str, Skill); 6] = [
    ("Athletics", Skill::Athletics),
    ("Acrobatics", Skill::Acrobatics),
    ("Stealth", Skill::Stealth),
    ("Perception", Skill::Perception),
    ("Investigation", Skill::Investigation),
    ("Medicine", Skill::Medicine),
];

const BEHAVIOURS: [(&str, Behaviour); 6] = [
    ("aggressive", Behaviour::Aggressive),
    ("skirmisher", Behaviour::Skirmisher),
    ("ranged", Behaviour::Ranged),
    ("brute", Behaviour::Brute),
    ("caster", Behaviour::Caster),
    ("breather", Behaviour::Breather),
];

const CASTING_TIMES: [(&str, CastingTime); 3] = [
    ("action", CastingTime::Action),
    ("bonus_action", CastingTime::BonusAction),
    ("reaction", CastingTime::Reaction),
];

const TARGETS: [(&str, SpellTarget); 3] = [
    ("enemy", SpellTarget::Enemy),
    ("ally", SpellTarget::Ally),
    ("none", SpellTarget::None),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum SpellKind {
    Attack,
    Beams,
    Darts,
    Save,
    Heal,
    HuntersMark,
    Entangle,
    MistyStep,
    Haste,
    Counterspell,
    Buff,
    TempHp,
}

const SPELL_EFFECTS: [(&str, SpellKind); 12] = [
    ("attack", SpellKind::Attack),
    ("beams", SpellKind::Beams),
    ("darts", SpellKind::Darts),
    ("save", SpellKind::Save),
    ("heal", SpellKind::Heal),
    ("hunters_mark", SpellKind::HuntersMark),
    ("entangle", SpellKind::Entangle),
    ("misty_step", SpellKind::MistyStep),
    ("haste", SpellKind::Haste),
    ("counterspell", SpellKind::Counterspell),
    ("buff", SpellKind::Buff),
    ("temp_hp", SpellKind::TempHp),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum ItemKind {
    Heal,
    Haste,
    Scroll,
    CurePoison,
    Restrain,
    Status,
    TempHp,
}

const ITEM_EFFECTS: [(&str, ItemKind); 7] = [
    ("heal", ItemKind::Heal),
    ("haste", ItemKind::Haste),
    ("scroll", ItemKind::Scroll),
    ("cure_poison", ItemKind::CurePoison),
    ("restrain", ItemKind::Restrain),
    ("status", ItemKind::Status),
    ("temp_hp", ItemKind::TempHp),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum StatusKind {
    Damage,
    Heal,
    Stun,
    Condition,
    Modifier,
}

const STATUS_KINDS: [(&str, StatusKind); 5] = [
    ("damage", StatusKind::Damage),
    ("heal", StatusKind::Heal),
    ("stun", StatusKind::Stun),
    ("condition", StatusKind::Condition),
    ("modifier", StatusKind::Modifier),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Property {
    Finesse,
    Light,
    Heavy,
    Ranged,
}

const PROPERTIES: [(&str, Property); 4] = [
    ("finesse", Property::Finesse),
    ("light", Property::Light),
    ("heavy", Property::Heavy),
    ("ranged", Property::Ranged),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum MonsterTrait {
    Blur,
    Parry,
    Hide,
    PackTactics,
    MagicResistance,
    UndeadFortitude,
}

const MONSTER_TRAITS: [(&str, MonsterTrait); 6] = [
    ("Blur", MonsterTrait::Blur),
    ("Parry", MonsterTrait::Parry),
    ("Hide", MonsterTrait::Hide),
    ("Pack Tactics", MonsterTrait::PackTactics),
    ("Magic Resistance", MonsterTrait::MagicResistance),
    ("Undead Fortitude", MonsterTrait::UndeadFortitude),
];

fn race_traits() -> Vec<(&'static str, RaceTrait)> {
    RaceTrait::ALL.iter().map(|t| (t.name(), *t)).collect()
}

fn features() -> Vec<(&'static str, Feature)> {
    Feature::ALL.iter().map(|f| (f.name(), *f)).collect()
}

// ---------------------------------------------------------------------------------------------
// Reporting.

/// Where problems go: the files being read and what is wrong with them.
struct Report<'a> {
    files: &'a [ContentFile<'a>],
    issues: Vec<Issue>,
    /// What the files say that does nothing in a fight: reported, never refused.
    warnings: Vec<Issue>,
}

impl Report<'_> {
    fn line(&self, file: usize, offset: usize) -> usize {
        let text = self.files[file].text;
        text[..offset.min(text.len())].matches('\n').count() + 1
    }

    fn at(&self, file: usize, span: &Range<usize>) -> String {
        format!("{}:{}", self.files[file].path, self.line(file, span.start))
    }

    fn issue(&self, file: usize, span: &Range<usize>, message: impl Into<String>) -> Issue {
        Issue {
            file: self.files[file].path.to_owned(),
            line: self.line(file, span.start),
            message: message.into(),
        }
    }

    /// Something accepted that does nothing in a fight.
    fn warn(&mut self, file: usize, span: &Range<usize>, message: impl Into<String>) {
        let warning = self.issue(file, span, message);
        self.warnings.push(warning);
    }

    /// A problem: the files are refused.
    fn push(&mut self, file: usize, span: &Range<usize>, message: impl Into<String>) {
        let problem = self.issue(file, span, message);
        self.issues.push(problem);
    }
}

/// A file's reader: reports go to `file`.
struct Ctx<'r, 'a> {
    report: &'r mut Report<'a>,
    file: usize,
}

fn list<T>(options: &[(&str, T)]) -> String {
    options
        .iter()
        .map(|(n, _)| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Ctx<'_, '_> {
    fn err(&mut self, span: &Range<usize>, message: impl Into<String>) {
        self.report.push(self.file, span, message);
    }

    /// Something accepted that does nothing in a fight (`Content::warnings`).
    fn warn(&mut self, span: &Range<usize>, message: impl Into<String>) {
        self.report.warn(self.file, span, message);
    }

    /// A whole number in `range`; `what` names it in the message.
    fn int(&mut self, value: &S<i64>, what: &str, range: RangeInclusive<i64>) -> Option<i64> {
        let v = *value.get_ref();
        if range.contains(&v) {
            Some(v)
        } else {
            self.err(
                &value.span(),
                format!("{what} {v} is out of range: allowed {}–{}", range.start(), range.end()),
            );
            None
        }
    }

    fn opt_int(&mut self, value: Option<&S<i64>>, what: &str, range: RangeInclusive<i64>, default: i64) -> Option<i64> {
        value.map_or(Some(default), |v| self.int(v, what, range))
    }

    /// One of a closed list of words, matched leniently (case, spaces, dashes, underscores).
    fn choice<T: Copy>(&mut self, value: &S<String>, what: &str, options: &[(&str, T)]) -> Option<T> {
        let wanted = normalize(value.get_ref());
        if let Some((_, t)) = options.iter().find(|(n, _)| normalize(n) == wanted) {
            return Some(*t);
        }
        self.err(
            &value.span(),
            format!("unknown {what} `{}`: allowed are {}", value.get_ref(), list(options)),
        );
        None
    }

    /// An entry's name: not blank, at most [`MAX_NAME_LEN`] characters, with a letter or digit.
    fn name(&mut self, value: &S<String>, kind: &str) -> Option<Box<str>> {
        let name = value.get_ref().trim();
        let len = name.chars().count();
        if normalize(name).is_empty() {
            self.err(
                &value.span(),
                format!(
                    "a {kind} name needs at least one letter or digit, got `{}`",
                    value.get_ref()
                ),
            );
            None
        } else if len > MAX_NAME_LEN {
            self.err(
                &value.span(),
                format!("{kind} name `{name}` is {len} characters long: allowed 1–{MAX_NAME_LEN}"),
            );
            None
        } else if crate::content::id::Id::new(name).is_none() {
            self.err(
                &value.span(),
                format!(
                    "{kind} name `{name}` is too long as an id: allowed at most {} bytes of letters and digits",
                    crate::content::id::ID_LEN
                ),
            );
            None
        } else {
            Some(name.into())
        }
    }

    /// A line of text (a terrain source, a material): not blank, at most 120 characters.
    fn text(&mut self, value: &S<String>, what: &str) -> Option<Box<str>> {
        let text = value.get_ref().trim();
        let len = text.chars().count();
        if text.is_empty() || len > 120 {
            self.err(&value.span(), format!("{what} is {len} characters long: allowed 1–120"));
            None
        } else {
            Some(text.into())
        }
    }

    /// A dice expression: `NdS`, `NdS+B`, `NdS-B` or a whole number.
    /// Dice to add to a roll (`"1d4"`, `"+2"`) or to take from it (`"-1d4"`).
    fn signed_dice(&mut self, value: &S<String>, what: &str) -> Option<SignedDice> {
        let text = value.get_ref().trim();
        let (minus, rest) = match text.strip_prefix('-').or_else(|| text.strip_prefix('−')) {
            Some(rest) => (true, rest),
            None => (false, text.strip_prefix('+').unwrap_or(text)),
        };
        let dice = self.dice(&Spanned::new(value.span(), rest.to_owned()), what)?;
        if dice.bonus < 0 {
            self.err(
                &value.span(),
                format!("{what} `{text}`: write one sign in front (`-1d4`, `1d4+1`)"),
            );
            return None;
        }
        Some(SignedDice { dice, minus })
    }

    fn dice(&mut self, value: &S<String>, what: &str) -> Option<DiceExpr> {
        let text: String = value.get_ref().chars().filter(|c| !c.is_whitespace()).collect();
        let Some((count, sides, bonus)) = split_dice(&text) else {
            self.err(
                &value.span(),
                format!(
                    "{what} `{}` is not a dice expression: write NdS, NdS+B or NdS-B (e.g. 2d6+3), or a whole number",
                    value.get_ref()
                ),
            );
            return None;
        };
        let span = value.span();
        if !(0..=MAX_DICE).contains(&count) {
            self.err(
                &span,
                format!("{what} `{text}` rolls {count} dice: allowed 0–{MAX_DICE}"),
            );
            return None;
        }
        if !DIE_SIDES.contains(&sides) {
            let allowed = DIE_SIDES.iter().map(|s| format!("d{s}")).collect::<Vec<_>>().join(", ");
            self.err(
                &span,
                format!("{what} `{text}` rolls a d{sides}: allowed are {allowed}"),
            );
            return None;
        }
        if !DICE_BONUS.contains(&bonus) {
            self.err(
                &span,
                format!(
                    "{what} `{text}` adds {bonus}: allowed {}–{}",
                    DICE_BONUS.start(),
                    DICE_BONUS.end()
                ),
            );
            return None;
        }
        Some(DiceExpr::new(count as u32, sides as u32, bonus as i32))
    }

    fn abilities(
        &mut self,
        raw: &S<RawAbilities>,
        range: RangeInclusive<i64>,
        default: Option<i64>,
    ) -> Option<Abilities> {
        let r = raw.get_ref();
        let fields = [
            ("str", &r.str),
            ("dex", &r.dex),
            ("con", &r.con),
            ("int", &r.int),
            ("wis", &r.wis),
            ("cha", &r.cha),
        ];
        let missing: Vec<&str> = fields.iter().filter(|(_, v)| v.is_none()).map(|(n, _)| *n).collect();
        if default.is_none() && !missing.is_empty() {
            self.err(
                &raw.span(),
                format!(
                    "abilities needs all six scores (str, dex, con, int, wis, cha): missing {}",
                    missing.join(", ")
                ),
            );
            return None;
        }
        let mut scores = [0i32; 6];
        let mut ok = true;
        for (i, (name, v)) in fields.iter().enumerate() {
            match v {
                Some(v) => match self.int(v, &format!("ability score {name}"), range.clone()) {
                    Some(n) => scores[i] = n as i32,
                    None => ok = false,
                },
                None => scores[i] = default.unwrap_or(0) as i32,
            }
        }
        ok.then(|| Abilities::new(scores[0], scores[1], scores[2], scores[3], scores[4], scores[5]))
    }

    /// Exactly [`LEVELS`] values, each in `range`.
    fn per_level(&mut self, raw: &S<Vec<S<i64>>>, what: &str, range: RangeInclusive<i64>) -> Option<Vec<i64>> {
        let values = raw.get_ref();
        if values.len() != LEVELS {
            self.err(
                &raw.span(),
                format!(
                    "{what} has {} values: one per level 1–{LEVELS} is needed ({LEVELS} values)",
                    values.len()
                ),
            );
            return None;
        }
        let mut out = Vec::with_capacity(LEVELS);
        for (i, v) in values.iter().enumerate() {
            out.push(self.int(v, &format!("{what} at level {}", i + 1), range.clone())?);
        }
        Some(out)
    }

    /// Spell slots by spell level: at most 9 values, each 0–9 (the rest are 0).
    fn slots(&mut self, raw: &S<Vec<S<i64>>>, what: &str) -> Option<[u8; 9]> {
        if raw.get_ref().len() > 9 {
            self.err(
                &raw.span(),
                format!("{what} lists {} spell levels: allowed 0–9", raw.get_ref().len()),
            );
            return None;
        }
        let mut out = [0u8; 9];
        for (i, v) in raw.get_ref().iter().enumerate() {
            out[i] = self.int(v, &format!("{what}: level-{} slots", i + 1), 0..=9)? as u8;
        }
        Some(out)
    }

    /// The fields of a flat entry that its `kind` does not take.
    fn not_taken(&mut self, kind: &str, fields: &[(&str, Option<Range<usize>>)], takes: &[&str]) -> bool {
        let mut ok = true;
        for (field, span) in fields {
            if let Some(span) = span
                && !takes.contains(field)
            {
                let takes = if takes.is_empty() {
                    "no other field".to_owned()
                } else {
                    takes.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", ")
                };
                self.err(span, format!("`{field}` does not apply to {kind}: it takes {takes}"));
                ok = false;
            }
        }
        ok
    }
}

/// `NdS[+B|-B]` or `B`, as (count, sides, bonus).
fn split_dice(text: &str) -> Option<(i64, i64, i64)> {
    let number = |s: &str| -> Option<i64> {
        (!s.is_empty() && s.chars().all(|c| c.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    let Some(d) = text.find(['d', 'D']) else {
        let (sign, digits) = match text.strip_prefix('-') {
            Some(rest) => (-1, rest),
            None => (1, text.strip_prefix('+').unwrap_or(text)),
        };
        return number(digits).map(|n| (0, 1, sign * n));
    };
    let count = if d == 0 { 1 } else { number(&text[..d])? };
    let rest = &text[d + 1..];
    let (sides, bonus) = match rest.find(['+', '-']) {
        Some(i) => {
            let b = number(&rest[i + 1..])?;
            (number(&rest[..i])?, if &rest[i..=i] == "-" { -b } else { b })
        }
        None => (number(rest)?, 0),
    };
    Some((count, sides, bonus))
}

fn span_of<T>(v: Option<&S<T>>) -> Option<Range<usize>> {
    v.map(Spanned::span)
}

// ---------------------------------------------------------------------------------------------
// Names, duplicates and references.

/// The names (and aliases) of one kind of content seen so far.
struct Names {
    kind: &'static str,
    /// Normalized name or alias → (index into the kind's definitions, where it was defined).
    valid: HashMap<String, (usize, String)>,
    /// Names of entries left out for a problem: references to them are not reported again.
    broken: HashSet<String>,
    /// Display names, for the list in an "unknown" message.
    shown: Vec<Box<str>>,
}

impl Names {
    fn new(kind: &'static str) -> Self {
        Self {
            kind,
            valid: HashMap::new(),
            broken: HashSet::new(),
            shown: Vec::new(),
        }
    }

    /// Claims `name` and `aliases` for the next definition; a clash is reported.
    fn claim(&mut self, cx: &mut Ctx, name: &S<String>, shown: &str, aliases: &[S<String>]) -> bool {
        let mut ok = true;
        let mut keys = Vec::new();
        for (word, span) in
            std::iter::once((shown, name.span())).chain(aliases.iter().map(|a| (a.get_ref().as_str(), a.span())))
        {
            let key = normalize(word);
            if key.is_empty() {
                cx.err(
                    &span,
                    format!("a {} alias needs at least one letter or digit", self.kind),
                );
                ok = false;
            } else if let Some((_, at)) = self.valid.get(&key) {
                cx.err(
                    &span,
                    format!("duplicate {} name `{word}`: already defined at {at}", self.kind),
                );
                ok = false;
            } else if keys.contains(&key) {
                cx.err(&span, format!("`{word}` is given twice for this {}", self.kind));
                ok = false;
            } else {
                keys.push(key);
            }
        }
        if ok {
            let at = cx.report.at(cx.file, &name.span());
            let index = self.shown.len();
            for key in keys {
                self.valid.insert(key, (index, at.clone()));
            }
            self.shown.push(shown.into());
        }
        ok
    }

    fn mark_broken(&mut self, name: &S<String>) {
        self.broken.insert(normalize(name.get_ref()));
    }

    /// The index of the definition `reference` names, from `user` (e.g. "monster `Drow Mage`").
    fn resolve(&self, cx: &mut Ctx, reference: &S<String>, user: &str) -> Option<usize> {
        let key = normalize(reference.get_ref());
        if let Some((i, _)) = self.valid.get(&key) {
            return Some(*i);
        }
        if !self.broken.contains(&key) {
            let known = if self.shown.is_empty() {
                format!("no {} is defined", self.kind)
            } else {
                let plural = match self.kind {
                    "status" => "statuses".to_owned(),
                    "armor" => "armor types".to_owned(),
                    "class" => "classes".to_owned(),
                    kind => format!("{kind}s"),
                };
                format!(
                    "the {plural} are {}",
                    self.shown
                        .iter()
                        .map(|s| format!("`{s}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            cx.err(
                &reference.span(),
                format!(
                    "{user} names an unknown {} `{}`: {known}",
                    self.kind,
                    reference.get_ref()
                ),
            );
        }
        None
    }
}

/// Definitions of one kind being built, with their names.
struct Kind<T> {
    names: Names,
    defs: Vec<T>,
}

impl<T> Kind<T> {
    fn new(kind: &'static str) -> Self {
        Self {
            names: Names::new(kind),
            defs: Vec::new(),
        }
    }

    /// Adds `def` (when valid) under `name` and `aliases`; otherwise marks the name broken.
    fn add(&mut self, cx: &mut Ctx, name: &S<String>, aliases: &[S<String>], def: Option<(Box<str>, T)>) {
        match def {
            Some((shown, def)) => {
                if self.names.claim(cx, name, &shown, aliases) {
                    self.defs.push(def);
                }
            }
            None => self.names.mark_broken(name),
        }
    }

    fn get(&self, cx: &mut Ctx, reference: &S<String>, user: &str) -> Option<&T> {
        self.names.resolve(cx, reference, user).map(|i| &self.defs[i])
    }

    fn into_table(self) -> Table<T> {
        let by_name = self.names.valid.into_iter().map(|(k, (i, _))| (k, i)).collect();
        Table {
            defs: self.defs.into_iter().map(Arc::new).collect(),
            by_name,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Loading.

/// Reads `files` into [`Content`], or every problem found. The files from `homebrew_from` on are
/// homebrew (monsters, items, spells and statuses only); those from `limited_from` on are
/// uploads, each held to [`MAX_HOMEBREW_BYTES`] and [`MAX_HOMEBREW_ENTRIES`] — a campaign's stored
/// homebrew, checked entry by entry when it was imported, is not.
pub(super) fn load(
    files: &[ContentFile<'_>],
    homebrew_from: usize,
    limited_from: usize,
) -> Result<Content, ContentError> {
    let mut report = Report {
        files,
        issues: Vec::new(),
        warnings: Vec::new(),
    };
    let mut parsed: Vec<(usize, RawFile)> = Vec::new();
    let mut broken: Vec<(usize, Vec<RangeInclusive<usize>>)> = Vec::new();
    for (i, file) in files.iter().enumerate() {
        if i >= limited_from && file.text.len() > MAX_HOMEBREW_BYTES {
            report.push(
                i,
                &(0..0),
                format!(
                    "the file is {} KB: allowed at most {} KB",
                    file.text.len().div_ceil(1024),
                    MAX_HOMEBREW_BYTES / 1024
                ),
            );
            continue;
        }
        match structure(file.text) {
            Structure::Read(raw) => {
                if i >= homebrew_from {
                    homebrew_only(&mut report, i, &raw, i >= limited_from);
                }
                parsed.push((i, raw));
            }
            Structure::Broken { raw, problems } => {
                for (span, message) in &problems {
                    report.push(i, span, message.clone());
                }
                if let Some(raw) = raw {
                    if i >= homebrew_from {
                        homebrew_only(&mut report, i, &raw, i >= limited_from);
                    }
                    // Its sound entries are read on for their problems too; those with a key
                    // missing, unknown or of the wrong type have said what is wrong with them.
                    let lines: Vec<RangeInclusive<usize>> = broken_entries(&raw, &problems, file.text.len())
                        .iter()
                        .map(|span| report.line(i, span.start)..=report.line(i, span.end.saturating_sub(1)))
                        .collect();
                    broken.push((i, lines));
                    parsed.push((i, raw));
                }
            }
        }
    }
    replace(&mut report, &mut parsed);
    let structural = report.issues.len();
    let mut content = build(&mut report, &parsed);
    let path_of = |i: usize| files[i].path;
    let mut n = 0;
    report.issues.retain(|issue| {
        n += 1;
        n <= structural
            || !broken
                .iter()
                .any(|(i, lines)| issue.file == path_of(*i) && lines.iter().any(|l| l.contains(&issue.line)))
    });
    if report.issues.is_empty() {
        content.warnings = report.warnings;
        Ok(content)
    } else {
        Err(ContentError { issues: report.issues })
    }
}

/// A file read against the schema.
enum Structure {
    /// Every key known, none missing, each of its type.
    Read(RawFile),
    /// What is wrong with its shape, every problem with its span: a TOML syntax error (then no
    /// file), or keys unknown, missing or of the wrong type — then the file as read with those
    /// keys left out or stood in for, so its other entries can be checked too.
    Broken {
        raw: Option<RawFile>,
        problems: Vec<(Range<usize>, String)>,
    },
}

/// The most a file's shape is retried for its next problem.
const MAX_SHAPE_PROBLEMS: usize = 100;

/// Reads `text` against the schema, finding every unknown key, missing key and value of the wrong
/// type rather than the first: after each, it reads again with the unknown key left out, or the
/// missing or mistyped value stood in for by one of each TOML type in turn.
fn structure(text: &str) -> Structure {
    let (mut doc, syntax) = toml::de::DeTable::parse_recoverable(text);
    if !syntax.is_empty() {
        let problems = syntax
            .iter()
            .map(|e| (e.span().unwrap_or(0..0), e.message().trim().to_owned()))
            .collect();
        return Structure::Broken { raw: None, problems };
    }
    let mut problems: Vec<(Range<usize>, String)> = Vec::new();
    // The stand-in being tried: where it is, and which of the candidates it is.
    let mut trial: Option<Trial> = None;
    while problems.len() < MAX_SHAPE_PROBLEMS {
        let e = match RawFile::deserialize(toml::de::Deserializer::from(doc.clone())) {
            Ok(raw) if problems.is_empty() => return Structure::Read(raw),
            Ok(raw) => {
                return Structure::Broken {
                    raw: Some(raw),
                    problems,
                };
            }
            Err(e) => e,
        };
        let span = e.span().unwrap_or(0..0);
        let message = e.message().trim().to_owned();
        let unknown = message.starts_with("unknown field");
        let missing = message
            .strip_prefix("missing field `")
            .and_then(|m| m.split('`').next())
            .map(str::to_owned);
        // The stand-in is of the wrong type: the next one, the problem already told.
        if let Some(t) = trial.take()
            && t.at == span
            && !unknown
            && missing.is_none()
        {
            let next = Trial {
                which: t.which + 1,
                ..t
            };
            if next.which < STAND_INS.len() && stand_in(&mut doc, &next) {
                trial = Some(next);
                continue;
            }
            break;
        }
        let fixed = if unknown {
            leave_out(&mut doc, &span)
        } else {
            // A missing key is stood in for at its table's end, a mistyped value where it is.
            let t = Trial {
                at: missing.as_ref().map_or(span.clone(), |_| span.end..span.end),
                table: span.clone(),
                key: missing,
                which: 0,
            };
            let fixed = stand_in(&mut doc, &t);
            trial = Some(t);
            fixed
        };
        problems.push((span, message));
        if !fixed {
            break;
        }
    }
    Structure::Broken { raw: None, problems }
}

/// A stand-in for a missing or mistyped value: the `which`th of [`STAND_INS`], spanning `at` —
/// for the missing `key` of the table spanning `table`, or for the value spanning `at`.
struct Trial {
    at: Range<usize>,
    table: Range<usize>,
    key: Option<String>,
    which: usize,
}

/// The values a missing or mistyped key is stood in for by, one of each TOML type.
const STAND_INS: [&str; 6] = ["0", "\"\"", "false", "{}", "[]", "0.0"];

type DocTable<'i> = toml::de::DeTable<'i>;
type DocValue<'i> = Spanned<toml::de::DeValue<'i>>;

/// Leaves out the key at `span` (its name's span or its value's).
fn leave_out(doc: &mut Spanned<DocTable<'_>>, span: &Range<usize>) -> bool {
    fn in_table(table: &mut DocTable<'_>, span: &Range<usize>) -> bool {
        let found = table
            .iter()
            .find(|(k, v)| k.span() == *span || v.span() == *span)
            .map(|(k, _)| k.get_ref().to_string());
        if let Some(key) = found {
            table.remove(key.as_str());
            return true;
        }
        table.iter_mut().any(|(_, v)| in_value(v, span))
    }
    // Every table is searched: an array of tables (`[[monster]]`) spans only its first header.
    fn in_value(value: &mut DocValue<'_>, span: &Range<usize>) -> bool {
        match value.get_mut() {
            toml::de::DeValue::Table(t) => in_table(t, span),
            toml::de::DeValue::Array(a) => a.iter_mut().any(|v| in_value(v, span)),
            _ => false,
        }
    }
    in_table(doc.get_mut(), span)
}

/// Puts `trial`'s stand-in in `doc`: as its table's `key`, or in place of the value at its span.
fn stand_in(doc: &mut Spanned<DocTable<'_>>, trial: &Trial) -> bool {
    fn in_table<'i>(table: &mut DocTable<'i>, table_span: &Range<usize>, trial: &Trial, value: &DocValue<'i>) -> bool {
        if let Some(key) = &trial.key
            && *table_span == trial.table
        {
            let name = Spanned::new(trial.at.clone(), std::borrow::Cow::Owned(key.clone()));
            table.insert(name, value.clone());
            return true;
        }
        if trial.key.is_none()
            && let Some((_, v)) = table.iter_mut().find(|(_, v)| v.span() == trial.at)
        {
            *v = value.clone();
            return true;
        }
        table.iter_mut().any(|(_, v)| in_value(v, trial, value))
    }
    // Every table is searched: an array of tables (`[[monster]]`) spans only its first header.
    fn in_value<'i>(v: &mut DocValue<'i>, trial: &Trial, value: &DocValue<'i>) -> bool {
        let here = v.span();
        match v.get_mut() {
            toml::de::DeValue::Table(t) => in_table(t, &here, trial, value),
            toml::de::DeValue::Array(a) => {
                if trial.key.is_none()
                    && let Some(item) = a.iter_mut().find(|item| item.span() == trial.at)
                {
                    *item = value.clone();
                    return true;
                }
                a.iter_mut().any(|item| in_value(item, trial, value))
            }
            _ => false,
        }
    }
    let Ok(parsed) = toml::de::DeValue::parse(STAND_INS[trial.which]) else {
        return false;
    };
    let mut stand_in = parsed.into_inner();
    stand_in.make_owned();
    let value = Spanned::new(trial.at.clone(), stand_in);
    let doc_span = doc.span();
    in_table(doc.get_mut(), &doc_span, trial, &value)
}

/// The stretches of a file of `len` bytes held by the entries of `raw` (a `[[monster]]`, the
/// `[levels]` table …) that hold one of `problems`: each entry from its start to the next's.
fn broken_entries(raw: &RawFile, problems: &[(Range<usize>, String)], len: usize) -> Vec<Range<usize>> {
    let mut starts: Vec<usize> = Vec::new();
    starts.extend(raw.race.iter().map(|e| e.span().start));
    starts.extend(raw.class.iter().map(|e| e.span().start));
    starts.extend(raw.levels.iter().map(|e| e.span().start));
    starts.extend(raw.weapon.iter().map(|e| e.span().start));
    starts.extend(raw.armor.iter().map(|e| e.span().start));
    starts.extend(raw.shield.iter().map(|e| e.span().start));
    starts.extend(raw.spell.iter().map(|e| e.span().start));
    starts.extend(raw.item.iter().map(|e| e.span().start));
    starts.extend(raw.status.iter().map(|e| e.span().start));
    starts.extend(raw.monster.iter().map(|e| e.span().start));
    starts.extend(raw.zone.iter().map(|e| e.span().start));
    starts.sort_unstable();
    let ends = starts.iter().skip(1).copied().chain(std::iter::once(len));
    let regions: Vec<Range<usize>> = starts.iter().zip(ends).map(|(&s, e)| s..e.max(s + 1)).collect();
    regions
        .into_iter()
        .filter(|region| problems.iter().any(|(p, _)| region.contains(&p.start)))
        .collect()
}

/// The most a homebrew file may hold: bytes, and entries of all kinds together.
pub const MAX_HOMEBREW_BYTES: usize = 256 * 1024;
pub const MAX_HOMEBREW_ENTRIES: usize = 200;
/// The most homebrew entries one campaign may store, over all its imports.
pub const MAX_CAMPAIGN_ENTRIES: usize = 1_000;

/// A homebrew file may define monsters, items, spells and statuses, at most
/// [`MAX_HOMEBREW_ENTRIES`] of them; races, classes, gear, zones and level tables are the game's.
fn homebrew_only(report: &mut Report, file: usize, raw: &RawFile, limited: bool) {
    let not_allowed = |what: &str| {
        format!("a homebrew file cannot define {what}: allowed [[monster]], [[item]], [[spell]] and [[status]]")
    };
    let mut refuse = |span: Option<Range<usize>>, what: &str| {
        if let Some(span) = span {
            report.push(file, &span, not_allowed(what));
        }
    };
    refuse(raw.race.first().map(Spanned::span), "races");
    refuse(raw.class.first().map(Spanned::span), "classes");
    refuse(raw.weapon.first().map(Spanned::span), "weapons");
    refuse(raw.armor.first().map(Spanned::span), "armor");
    refuse(raw.zone.first().map(Spanned::span), "zones");
    refuse(raw.levels.as_ref().map(Spanned::span), "the level table");
    refuse(raw.shield.as_ref().map(Spanned::span), "the shield");
    if !raw.spell_slots.is_empty() {
        report.push(file, &(0..0), not_allowed("spell-slot tables"));
    }
    let entries = raw.monster.len() + raw.item.len() + raw.spell.len() + raw.status.len();
    if limited && entries > MAX_HOMEBREW_ENTRIES {
        let span = raw.monster.get(MAX_HOMEBREW_ENTRIES).map_or(0..0, Spanned::span);
        report.push(
            file,
            &span,
            format!("the file has {entries} entries: allowed at most {MAX_HOMEBREW_ENTRIES}"),
        );
    }
}

/// `replaces = "goblin"`: the entry takes the place of an entry of that name (or alias) in an
/// earlier file — the built-in content for a homebrew file — and answers to its name too, so
/// what referred to the old one (a zone's monsters, a class's spells) gets the new one. A spell
/// keeps the name it replaces (classes name their spells).
fn replace(report: &mut Report, parsed: &mut [(usize, RawFile)]) {
    fn named(name: &str, aliases: &[S<String>], wanted: &str) -> bool {
        normalize(name) == wanted || aliases.iter().any(|a| normalize(a.get_ref()) == wanted)
    }
    for at in 0..parsed.len() {
        let (before, rest) = parsed.split_at_mut(at);
        let (file, raw) = &mut rest[0];
        let file = *file;
        for m in &mut raw.monster {
            let Some(old) = m.get_ref().replaces.clone() else {
                continue;
            };
            let wanted = normalize(old.get_ref());
            let found = before.iter_mut().find_map(|(_, b)| {
                let i = b
                    .monster
                    .iter()
                    .position(|x| named(x.get_ref().name.get_ref(), &x.get_ref().aliases, &wanted))?;
                Some(b.monster.remove(i))
            });
            match found {
                Some(gone) => {
                    let gone = gone.into_inner();
                    let new = m.get_mut();
                    for alias in std::iter::once(gone.name).chain(gone.aliases) {
                        if !named(new.name.get_ref(), &new.aliases, &normalize(alias.get_ref())) {
                            new.aliases.push(Spanned::new(old.span(), alias.into_inner()));
                        }
                    }
                }
                None => report.push(
                    file,
                    &old.span(),
                    format!(
                        "replaces `{}`: no monster of that name to replace; allowed: a built-in monster's name",
                        old.get_ref()
                    ),
                ),
            }
        }
        for it in &mut raw.item {
            let Some(old) = it.get_ref().replaces.clone() else {
                continue;
            };
            let wanted = normalize(old.get_ref());
            let found = before.iter_mut().find_map(|(_, b)| {
                let i = b
                    .item
                    .iter()
                    .position(|x| named(x.get_ref().name.get_ref(), &x.get_ref().aliases, &wanted))?;
                Some(b.item.remove(i))
            });
            match found {
                Some(gone) => {
                    let gone = gone.into_inner();
                    let new = it.get_mut();
                    for alias in std::iter::once(gone.name).chain(gone.aliases) {
                        if !named(new.name.get_ref(), &new.aliases, &normalize(alias.get_ref())) {
                            new.aliases.push(Spanned::new(old.span(), alias.into_inner()));
                        }
                    }
                }
                None => report.push(
                    file,
                    &old.span(),
                    format!(
                        "replaces `{}`: no item of that name to replace; allowed: a built-in item's name",
                        old.get_ref()
                    ),
                ),
            }
        }
        for sp in &raw.spell {
            let Some(old) = &sp.get_ref().replaces else { continue };
            let wanted = normalize(old.get_ref());
            if normalize(sp.get_ref().name.get_ref()) != wanted {
                report.push(
                    file,
                    &old.span(),
                    format!(
                        "replaces `{}`: a spell that replaces another keeps its name; allowed: name = \"{}\"",
                        old.get_ref(),
                        old.get_ref()
                    ),
                );
                continue;
            }
            let found = before.iter_mut().any(|(_, b)| {
                let i = b
                    .spell
                    .iter()
                    .position(|x| normalize(x.get_ref().name.get_ref()) == wanted);
                i.map(|i| b.spell.remove(i)).is_some()
            });
            if !found {
                report.push(
                    file,
                    &old.span(),
                    format!(
                        "replaces `{}`: no spell of that name to replace; allowed: a built-in spell's name",
                        old.get_ref()
                    ),
                );
            }
        }
    }
}

/// Runs `f` over every entry of one kind, in file order.
fn each<'p, T: 'p>(
    report: &mut Report,
    parsed: &'p [(usize, RawFile)],
    pick: impl Fn(&'p RawFile) -> &'p [S<T>],
    mut f: impl FnMut(&mut Ctx, &'p S<T>),
) {
    for (file, raw) in parsed {
        for entry in pick(raw) {
            let mut cx = Ctx { report, file: *file };
            f(&mut cx, entry);
        }
    }
}

#[allow(
    clippy::too_many_lines,
    reason = "each kind of content read in dependency order, one step each"
)]
fn build(report: &mut Report, parsed: &[(usize, RawFile)]) -> Content {
    let mut statuses = Kind::<StatusDef>::new("status");
    each(
        report,
        parsed,
        |f| &f.status,
        |cx, s| {
            let def = status(cx, s.get_ref());
            statuses.add(cx, &s.get_ref().name, &[], def.map(|d| (d.name.clone(), d)));
        },
    );

    let mut spells = Kind::<SpellDef>::new("spell");
    each(
        report,
        parsed,
        |f| &f.spell,
        |cx, s| {
            let def = spell(cx, s, &statuses);
            spells.add(cx, &s.get_ref().name, &[], def.map(|d| (d.name.clone(), d)));
        },
    );

    let mut weapons = Kind::<WeaponDef>::new("weapon");
    each(
        report,
        parsed,
        |f| &f.weapon,
        |cx, w| {
            let def = weapon(cx, w.get_ref());
            weapons.add(cx, &w.get_ref().name, &[], def.map(|d| (Box::from(&*d.name), d)));
        },
    );

    let mut armors = Kind::<ArmorDef>::new("armor");
    each(
        report,
        parsed,
        |f| &f.armor,
        |cx, a| {
            let def = armor(cx, a);
            armors.add(cx, &a.get_ref().name, &[], def.map(|d| (d.name.clone(), d)));
        },
    );

    let mut items = Kind::<ItemDef>::new("item");
    each(
        report,
        parsed,
        |f| &f.item,
        |cx, i| {
            let def = item(cx, i, &spells, &statuses);
            let raw = i.get_ref();
            items.add(cx, &raw.name, &raw.aliases, def.map(|d| (d.name.clone(), d)));
        },
    );

    let mut races = Kind::<RaceDef>::new("race");
    each(
        report,
        parsed,
        |f| &f.race,
        |cx, r| {
            let def = race(cx, r.get_ref());
            races.add(cx, &r.get_ref().name, &[], def.map(|d| (d.name.clone(), d)));
        },
    );

    let shield = singleton(
        report,
        parsed,
        "shield",
        |f| f.shield.as_ref(),
        |cx, s| {
            let s = s.get_ref();
            Some(ShieldDef {
                ac_bonus: cx.int(&s.ac_bonus, "shield ac_bonus", 0..=10)? as i32,
                weight_lb: cx.int(&s.weight, "shield weight", 0..=100)? as i32,
            })
        },
    );
    let levels = singleton(report, parsed, "levels", |f| f.levels.as_ref(), levels);

    // Spell-slot tables, by name.
    let mut slot_tables: HashMap<String, Vec<[u8; 9]>> = HashMap::new();
    let mut slot_names = Names::new("spell-slot table");
    for (file, raw) in parsed {
        for (name, table) in &raw.spell_slots {
            let mut cx = Ctx { report, file: *file };
            let key = S::new(table.span(), name.clone());
            let rows = slot_table(&mut cx, name, table);
            match rows {
                Some(rows) if slot_names.claim(&mut cx, &key, name, &[]) => {
                    slot_tables.insert(normalize(name), rows);
                }
                Some(_) => {}
                None => slot_names.mark_broken(&key),
            }
        }
    }

    let mut classes = Kind::<ClassDef>::new("class");
    each(
        report,
        parsed,
        |f| &f.class,
        |cx, c| {
            let refs = Refs {
                weapons: &weapons,
                armors: &armors,
                spells: &spells,
                slot_names: &slot_names,
                slot_tables: &slot_tables,
            };
            let def = class(cx, c, &refs);
            let raw = c.get_ref();
            classes.add(cx, &raw.name, &raw.aliases, def.map(|d| (d.name.clone(), d)));
        },
    );

    // A spell's `classes`: each of them learns it (homebrew spells reach characters so).
    each(
        report,
        parsed,
        |f| &f.spell,
        |cx, s| learned_by(cx, s.get_ref(), &spells, &mut classes),
    );

    let mut monsters = Kind::<MonsterDef>::new("monster");
    each(
        report,
        parsed,
        |f| &f.monster,
        |cx, m| {
            let def = monster(cx, m, &spells, &statuses);
            let raw = m.get_ref();
            monsters.add(cx, &raw.name, &raw.aliases, def.map(|d| (d.name.clone(), d)));
        },
    );

    let mut zones = Kind::<ZoneDef>::new("zone");
    each(
        report,
        parsed,
        |f| &f.zone,
        |cx, z| {
            let def = zone(cx, z.get_ref(), &monsters);
            zones.add(cx, &z.get_ref().name, &[], def.map(|d| (d.name.clone(), d)));
        },
    );

    Content {
        levels: levels.unwrap_or_else(|| LevelsDef {
            xp: Box::new([]),
            proficiency: Box::new([]),
            cantrip_dice: Box::new([]),
        }),
        shield: shield.unwrap_or(ShieldDef {
            ac_bonus: 0,
            weight_lb: 0,
        }),
        races: races.into_table(),
        classes: classes.into_table(),
        weapons: weapons.into_table(),
        armor: armors.into_table(),
        spells: spells.into_table(),
        items: items.into_table(),
        statuses: statuses.into_table(),
        monsters: monsters.into_table(),
        zones: zones.into_table(),
        warnings: Vec::new(),
    }
}

/// A spell's `classes = ["Mage", …]`: puts it on each class's list, known from the first level
/// with slots of its level (a cantrip from level 1). A class that does not cast, never has such
/// slots, or lists the spell already is refused, with the classes that could learn it.
fn learned_by(cx: &mut Ctx, raw: &RawSpell, spells: &Kind<SpellDef>, classes: &mut Kind<ClassDef>) {
    if raw.classes.is_empty() {
        return;
    }
    let Some(&(index, _)) = spells.names.valid.get(&normalize(raw.name.get_ref())) else {
        return; // refused already
    };
    let spell = spells.defs[index].clone();
    let user = format!("spell `{}`", spell.name);
    let first_level = |class: &ClassDef| -> Option<u32> {
        class.casting_ability?;
        if spell.level == 0 {
            return Some(1);
        }
        let at = class
            .levels
            .iter()
            .position(|row| row.spell_slots[spell.level as usize - 1] > 0)?;
        Some(at as u32 + 1)
    };
    let able = |classes: &Kind<ClassDef>| {
        let names: Vec<String> = classes
            .defs
            .iter()
            .filter(|c| first_level(c).is_some())
            .map(|c| format!("`{}`", c.name))
            .collect();
        if names.is_empty() {
            "none can".to_owned()
        } else {
            names.join(", ")
        }
    };
    let mut seen = Vec::new();
    for class_ref in &raw.classes {
        let Some(i) = classes.names.resolve(cx, class_ref, &user) else {
            continue;
        };
        if seen.contains(&i) {
            cx.err(
                &class_ref.span(),
                format!("{user} names class `{}` twice", classes.defs[i].name),
            );
            continue;
        }
        seen.push(i);
        let class = &classes.defs[i];
        let Some(from_level) = first_level(class) else {
            let why = if class.casting_ability.is_none() {
                format!("class `{}` does not cast spells", class.name)
            } else {
                format!("class `{}` never has level-{} slots", class.name, spell.level)
            };
            let allowed = able(classes);
            cx.err(&class_ref.span(), format!("{user}: {why}: allowed {allowed}"));
            continue;
        };
        if class.spells.iter().any(|k| k.spell.name == spell.name) {
            cx.err(
                &class_ref.span(),
                format!("{user}: class `{}` knows it already", class.name),
            );
            continue;
        }
        let class = &mut classes.defs[i];
        let mut list = class.spells.to_vec();
        list.push(ClassSpell {
            from_level,
            spell: spell.clone(),
        });
        class.spells = list.into();
    }
}

/// A table exactly one file defines (`[levels]`, `[shield]`).
fn singleton<'p, R: 'p, T>(
    report: &mut Report,
    parsed: &'p [(usize, RawFile)],
    table: &str,
    pick: impl Fn(&'p RawFile) -> Option<&'p S<R>>,
    read: impl Fn(&mut Ctx, &'p S<R>) -> Option<T>,
) -> Option<T> {
    let mut found: Option<(T, String)> = None;
    let mut seen = false;
    for (file, raw) in parsed {
        let Some(entry) = pick(raw) else { continue };
        let mut cx = Ctx { report, file: *file };
        if let Some((_, at)) = &found {
            cx.err(
                &entry.span(),
                format!("[{table}] is defined twice: already at {at}; one file may define it"),
            );
            continue;
        }
        seen = true;
        let at = cx.report.at(*file, &entry.span());
        if let Some(def) = read(&mut cx, entry) {
            found = Some((def, at));
        }
    }
    if !seen && !parsed.is_empty() {
        let file = parsed[0].0;
        report.push(
            file,
            &(0..0),
            format!("no file defines [{table}]: exactly one content file must"),
        );
    }
    found.map(|(def, _)| def)
}

fn levels(cx: &mut Ctx, raw: &S<RawLevels>) -> Option<LevelsDef> {
    let r = raw.get_ref();
    let xp = cx.per_level(&r.xp, "levels.xp", 0..=10_000_000);
    let proficiency = cx.per_level(&r.proficiency, "levels.proficiency", 0..=10);
    let cantrip_dice = cx.per_level(&r.cantrip_dice, "levels.cantrip_dice", 1..=10);
    let xp = xp?;
    if xp[0] != 0 {
        cx.err(
            &r.xp.span(),
            format!("levels.xp starts at {}: level 1 needs 0 XP", xp[0]),
        );
        return None;
    }
    if let Some(i) = (1..LEVELS).find(|&i| xp[i] <= xp[i - 1]) {
        cx.err(
            &r.xp.get_ref()[i].span(),
            format!(
                "levels.xp at level {} is {}, not more than level {}'s {}: each level needs more XP",
                i + 1,
                xp[i],
                i,
                xp[i - 1]
            ),
        );
        return None;
    }
    Some(LevelsDef {
        xp: xp.iter().map(|&n| n as u32).collect(),
        proficiency: proficiency?.iter().map(|&n| n as i32).collect(),
        cantrip_dice: cantrip_dice?.iter().map(|&n| n as u32).collect(),
    })
}

fn slot_table(cx: &mut Ctx, name: &str, table: &RawSlotTable) -> Option<Vec<[u8; 9]>> {
    let rows = table.get_ref();
    if rows.len() != LEVELS {
        cx.err(
            &table.span(),
            format!(
                "spell_slots.{name} has {} rows: one per level 1–{LEVELS} is needed",
                rows.len()
            ),
        );
        return None;
    }
    let mut out = Vec::with_capacity(LEVELS);
    for (i, row) in rows.iter().enumerate() {
        out.push(cx.slots(row, &format!("spell_slots.{name} at level {}", i + 1))?);
    }
    Some(out)
}

fn status(cx: &mut Ctx, s: &RawStatus) -> Option<StatusDef> {
    let name = cx.name(&s.name, "status");
    let kind = cx.choice(&s.kind, "status kind", &STATUS_KINDS)?;
    let fields = [
        ("amount", span_of(s.amount.as_ref())),
        ("type", span_of(s.damage_type.as_ref())),
        ("attack", span_of(s.attack.as_ref())),
        ("saves", span_of(s.saves.as_ref())),
        ("ac", span_of(s.ac.as_ref())),
    ];
    let (kind_name, takes): (&str, &[&str]) = match kind {
        StatusKind::Damage => ("kind `damage`", &["amount", "type"]),
        StatusKind::Heal => ("kind `heal`", &["amount"]),
        StatusKind::Stun => ("kind `stun`", &[]),
        StatusKind::Condition => ("kind `condition`", &[]),
        StatusKind::Modifier => ("kind `modifier`", &["attack", "saves", "ac"]),
    };
    let fits = cx.not_taken(kind_name, &fields, takes);
    let amount = |cx: &mut Ctx| match &s.amount {
        Some(a) => cx.int(a, "status amount", 1..=1000).map(|n| n as i32),
        None => {
            cx.err(&s.kind.span(), format!("status {kind_name} needs `amount` (1–1000)"));
            None
        }
    };
    let kind = match kind {
        StatusKind::Damage => {
            let amount = amount(cx);
            let damage_type = match &s.damage_type {
                Some(t) => cx.choice(t, "damage type", &DAMAGE_TYPES),
                None => {
                    cx.err(
                        &s.kind.span(),
                        format!("status kind `damage` needs `type`: one of {}", list(&DAMAGE_TYPES)),
                    );
                    None
                }
            };
            StatusKindDef::Dot {
                amount: amount?,
                damage_type: damage_type?,
            }
        }
        StatusKind::Heal => StatusKindDef::Hot { amount: amount(cx)? },
        StatusKind::Stun => StatusKindDef::Stun,
        StatusKind::Condition => StatusKindDef::Condition,
        StatusKind::Modifier => {
            let attack = s.attack.as_ref().map(|d| cx.signed_dice(d, "attack modifier"));
            let saves = s.saves.as_ref().map(|d| cx.signed_dice(d, "saving throw modifier"));
            let ac = s.ac.as_ref().map(|a| cx.int(a, "armor class modifier", -10..=10));
            if attack.is_none() && saves.is_none() && ac.is_none() {
                cx.err(
                    &s.kind.span(),
                    "status kind `modifier` needs `attack`, `saves` or `ac` (e.g. attack = \"1d4\", ac = 2)",
                );
                return None;
            }
            StatusKindDef::Modifier {
                attack: attack.map_or(Some(None), |a| a.map(Some))?,
                saves: saves.map_or(Some(None), |a| a.map(Some))?,
                ac: ac.map_or(Some(0), |a| a.map(|n| n as i32))?,
            }
        }
    };
    let duration = match (&s.turns, s.permanent) {
        (Some(t), false) => cx.int(t, "status turns", 1..=100)? as u32,
        (None, true) => 0,
        (Some(t), true) => {
            cx.err(&t.span(), "a permanent status has no `turns`: give one or the other");
            return None;
        }
        (None, false) => {
            cx.err(&s.name.span(), "a status needs `turns` (1–100) or `permanent = true`");
            return None;
        }
    };
    let condition = match &s.condition {
        Some(c) => Some(cx.choice(c, "condition", &CONDITIONS)?),
        None if kind == StatusKindDef::Condition => {
            cx.err(
                &s.kind.span(),
                format!(
                    "status kind `condition` needs `condition`: one of {}",
                    list(&CONDITIONS)
                ),
            );
            return None;
        }
        None => None,
    };
    let save_ends = match &s.save_ends {
        None => None,
        Some(raw) => match raw.get_ref() {
            RawSaveEnds::Inflicting(false) => None,
            RawSaveEnds::Inflicting(true) => Some(SaveEnds::Inflicting),
            RawSaveEnds::Own { save, dc } => {
                let ability = cx.choice(&Spanned::new(raw.span(), save.clone()), "saving throw", &ABILITIES);
                if !(1..=40).contains(dc) {
                    cx.err(&raw.span(), format!("save_ends dc {dc} is out of range: allowed 1–40"));
                }
                Some(SaveEnds::Own(
                    ability?,
                    i32::try_from(*dc).ok().filter(|dc| (1..=40).contains(dc))?,
                ))
            }
        },
    };
    if save_ends.is_some() && s.permanent {
        cx.err(
            &s.name.span(),
            "a permanent status cannot end on a save: give `turns` (its longest duration) instead",
        );
        return None;
    }
    fits.then_some(())?;
    Some(StatusDef {
        name: name?,
        kind,
        duration,
        permanent: s.permanent,
        condition,
        save_ends,
    })
}

fn affliction(cx: &mut Ctx, raw: &S<RawAffliction>, statuses: &Kind<StatusDef>, user: &str) -> Option<AfflictionDef> {
    let r = raw.get_ref();
    let status = statuses.get(cx, &r.status, user).cloned();
    let save = match (&r.save, &r.dc) {
        (None, None) => None,
        (Some(save), Some(dc)) => {
            let ability = cx.choice(save, "saving throw", &ABILITIES);
            let dc = cx.int(dc, "save dc", 1..=40);
            Some((ability?, dc? as i32))
        }
        _ => {
            cx.err(&raw.span(), "on_hit needs both `save` and `dc`, or neither");
            return None;
        }
    };
    let status = status?;
    if status.save_ends == Some(SaveEnds::Inflicting) && save.is_none() {
        cx.err(
            &raw.span(),
            format!(
                "status `{}` ends on a repeat of the save that inflicted it (`save_ends = true`): this on_hit needs `save` and `dc`",
                status.name
            ),
        );
        return None;
    }
    Some(AfflictionDef { status, save })
}

#[allow(
    clippy::too_many_lines,
    reason = "one check per field of a spell entry (docs/content.md), in the file's order"
)]
fn spell(cx: &mut Ctx, raw: &S<RawSpell>, statuses: &Kind<StatusDef>) -> Option<SpellDef> {
    let s = raw.get_ref();
    let name = cx.name(&s.name, "spell")?;
    let user = format!("spell `{name}`");
    let level = cx.int(&s.level, "spell level", 0..=9);
    let casting_time = cx.choice(&s.casting_time, "casting time", &CASTING_TIMES);
    let kind = cx.choice(&s.effect, "spell effect", &SPELL_EFFECTS)?;
    let kind_name = format!("effect `{}`", s.effect.get_ref());
    let target = match &s.target {
        Some(t) => match cx.choice(t, "spell target", &TARGETS) {
            Some(SpellTarget::Enemy | SpellTarget::None) if matches!(kind, SpellKind::Buff | SpellKind::TempHp) => {
                cx.err(
                    &t.span(),
                    format!("a spell of {kind_name} is cast on an ally: leave `target` out or write \"ally\""),
                );
                None
            }
            chosen => chosen,
        },
        None if matches!(kind, SpellKind::Buff | SpellKind::TempHp) => Some(SpellTarget::Ally),
        None => Some(SpellTarget::Enemy),
    };
    let fields = [
        ("damage", span_of(s.damage.as_ref())),
        ("type", span_of(s.damage_type.as_ref())),
        ("count", span_of(s.count.as_ref())),
        ("save", span_of(s.save.as_ref())),
        ("half_on_save", span_of(s.half_on_save.as_ref())),
        ("area", span_of(s.area.as_ref())),
        ("healing", span_of(s.healing.as_ref())),
        ("temp_hp", span_of(s.temp_hp.as_ref())),
        ("status", span_of(s.status.as_ref())),
        ("targets", span_of(s.targets.as_ref())),
    ];
    let takes: &[&str] = match kind {
        SpellKind::Attack | SpellKind::Beams => &["damage", "type"],
        SpellKind::Darts => &["count", "damage"],
        SpellKind::Save => &["save", "damage", "type", "half_on_save", "area", "status", "targets"],
        SpellKind::Buff => &["status", "targets"],
        SpellKind::Heal => &["healing"],
        SpellKind::TempHp => &["temp_hp"],
        SpellKind::Entangle => &["save"],
        SpellKind::HuntersMark | SpellKind::MistyStep | SpellKind::Haste | SpellKind::Counterspell => &[],
    };
    if !cx.not_taken(&kind_name, &fields, takes) {
        return None;
    }
    let effect_span = s.effect.span();
    let mut need = |cx: &mut Ctx, field: &str| {
        cx.err(&effect_span, format!("spell {kind_name} needs `{field}`"));
    };
    let damage = |cx: &mut Ctx, need: &mut dyn FnMut(&mut Ctx, &str)| match &s.damage {
        Some(d) => cx.dice(d, "damage"),
        None => {
            need(cx, "damage");
            None
        }
    };
    let damage_type = |cx: &mut Ctx, need: &mut dyn FnMut(&mut Ctx, &str)| match &s.damage_type {
        Some(t) => cx.choice(t, "damage type", &DAMAGE_TYPES),
        None => {
            need(cx, "type");
            None
        }
    };
    let save = |cx: &mut Ctx, need: &mut dyn FnMut(&mut Ctx, &str)| match &s.save {
        Some(a) => cx.choice(a, "saving throw", &ABILITIES),
        None => {
            need(cx, "save");
            None
        }
    };
    let effect = match kind {
        SpellKind::Attack | SpellKind::Beams => {
            let damage = damage(cx, &mut need);
            let damage_type = damage_type(cx, &mut need);
            let (damage, damage_type) = (damage?, damage_type?);
            if kind == SpellKind::Attack {
                SpellEffectDef::Attack { damage, damage_type }
            } else {
                SpellEffectDef::Beams { damage, damage_type }
            }
        }
        SpellKind::Darts => {
            let count = match &s.count {
                Some(c) => cx.int(c, "dart count", 1..=20),
                None => {
                    need(cx, "count");
                    None
                }
            };
            let damage = damage(cx, &mut need);
            SpellEffectDef::Darts {
                count: count? as u32,
                damage: damage?,
            }
        }
        SpellKind::Save if s.damage.is_none() && s.damage_type.is_none() && s.status.is_some() => {
            // A save for a status alone (Hold Person): no damage to halve, `targets` for more.
            for (field, span) in [
                ("half_on_save", span_of(s.half_on_save.as_ref())),
                ("area", span_of(s.area.as_ref())),
            ] {
                if let Some(span) = span {
                    cx.err(
                        &span,
                        format!(
                            "`{field}` needs `damage`: a save for a status alone reaches more creatures with `targets`"
                        ),
                    );
                }
            }
            let ability = save(cx, &mut need);
            let targets = spell_targets(cx, s);
            if s.half_on_save.is_some() || s.area.is_some() {
                return None;
            }
            SpellEffectDef::Afflict {
                ability: ability?,
                targets: targets?,
            }
        }
        SpellKind::Save => {
            if let Some(t) = &s.targets {
                cx.err(&t.span(), "`targets` goes with a save for a status alone: a save for damage reaches more creatures with `area = true`");
            }
            let ability = save(cx, &mut need);
            let damage = damage(cx, &mut need);
            let damage_type = damage_type(cx, &mut need);
            s.targets.is_none().then_some(())?;
            SpellEffectDef::Save {
                ability: ability?,
                damage: damage?,
                damage_type: damage_type?,
                half_on_save: s.half_on_save.as_ref().is_some_and(|b| *b.get_ref()),
                area: s.area.as_ref().is_some_and(|b| *b.get_ref()),
            }
        }
        SpellKind::Buff => {
            if s.status.is_none() {
                need(cx, "status");
            }
            SpellEffectDef::Buff {
                targets: spell_targets(cx, s)?,
            }
        }
        SpellKind::Heal => match &s.healing {
            Some(h) => SpellEffectDef::Heal {
                dice: cx.dice(h, "healing")?,
            },
            None => {
                need(cx, "healing");
                return None;
            }
        },
        SpellKind::TempHp => match &s.temp_hp {
            Some(t) => SpellEffectDef::TempHp {
                dice: cx.dice(t, "temporary hit points")?,
            },
            None => {
                need(cx, "temp_hp");
                return None;
            }
        },
        SpellKind::Entangle => SpellEffectDef::Entangle {
            ability: save(cx, &mut need)?,
        },
        SpellKind::HuntersMark => SpellEffectDef::HuntersMark,
        SpellKind::MistyStep => SpellEffectDef::MistyStep,
        SpellKind::Haste => SpellEffectDef::Haste,
        SpellKind::Counterspell => SpellEffectDef::Counterspell,
    };
    let on_hit = match &s.on_hit {
        Some(a) if !matches!(kind, SpellKind::Attack | SpellKind::Beams) => {
            cx.err(
                &a.span(),
                format!("`on_hit` does not apply to {kind_name}: only spell attacks (`attack`, `beams`) hit"),
            );
            return None;
        }
        Some(a) => Some(affliction(cx, a, statuses, &user)?),
        None => None,
    };
    let status = match &s.status {
        Some(name) => {
            let status = statuses.get(cx, name, &user).cloned()?;
            if kind == SpellKind::Buff && status.save_ends == Some(SaveEnds::Inflicting) {
                cx.err(
                    &name.span(),
                    format!(
                        "status `{}` ends on a repeat of the save that inflicted it (`save_ends = true`), but a buff has no save",
                        status.name
                    ),
                );
                return None;
            }
            Some(status)
        }
        None => None,
    };
    let mut affects = Some(Vec::new());
    for t in &s.affects {
        match (cx.choice(t, "creature type", &CREATURE_TYPES), affects.as_mut()) {
            (Some(t), Some(list)) if !list.contains(&t) => list.push(t),
            (Some(_), _) => {}
            (None, _) => affects = None,
        }
    }
    let affects: Option<Box<[CreatureType]>> = affects.map(Into::into);
    Some(SpellDef {
        name,
        level: level? as u32,
        casting_time: casting_time?,
        target: target?,
        effect,
        on_hit,
        concentration: concentration(cx, s, status.is_some())?,
        affects: affects?,
        status,
    })
}

/// A spell's `concentration`: only a spell that gives a status has something to hold up.
fn concentration(cx: &mut Ctx, s: &RawSpell, has_status: bool) -> Option<bool> {
    match &s.concentration {
        Some(c) if *c.get_ref() && !has_status => {
            cx.err(
                &c.span(),
                "`concentration` holds up the status a spell gives: this spell gives none (add `status`)",
            );
            None
        }
        Some(c) => Some(*c.get_ref()),
        None => Some(false),
    }
}

/// A spell's `targets`: how many creatures it reaches, 1–10 (1 when left out).
fn spell_targets(cx: &mut Ctx, s: &RawSpell) -> Option<u32> {
    match &s.targets {
        Some(t) => cx.int(t, "spell targets", 1..=10).map(|n| n as u32),
        None => Some(1),
    }
}

fn weapon(cx: &mut Ctx, w: &RawWeapon) -> Option<WeaponDef> {
    let name = cx.name(&w.name, "weapon");
    let damage = cx.dice(&w.damage, "damage");
    let damage_type = cx.choice(&w.damage_type, "damage type", &DAMAGE_TYPES);
    let weight = cx.int(&w.weight, "weapon weight", 0..=100);
    let mut props = Vec::new();
    for p in &w.properties {
        props.push(cx.choice(p, "weapon property", &PROPERTIES)?);
    }
    Some(WeaponDef {
        name: name?.into(),
        damage: damage?,
        damage_type: damage_type?,
        finesse: props.contains(&Property::Finesse),
        light: props.contains(&Property::Light),
        heavy: props.contains(&Property::Heavy),
        ranged: props.contains(&Property::Ranged),
        weight_lb: weight? as i32,
        magic: cx.opt_int(w.magic.as_ref(), "magic bonus", 1..=3, 0)? as i32,
    })
}

fn armor(cx: &mut Ctx, raw: &S<RawArmor>) -> Option<ArmorDef> {
    let a = raw.get_ref();
    let name = cx.name(&a.name, "armor");
    let base_ac = cx.int(&a.base_ac, "armor class", ARMOR_CLASS);
    let dex_cap = match &a.dex_cap {
        Some(c) => Some(cx.int(c, "dex_cap", 0..=10)? as i32),
        None => None,
    };
    let strength = cx.opt_int(a.strength.as_ref(), "strength requirement", 0..=30, 0);
    if !a.heavy && a.strength.is_some() {
        cx.err(
            &raw.span(),
            "`strength` applies only to heavy armor: add `heavy = true` or leave it out",
        );
        return None;
    }
    let weight = cx.int(&a.weight, "armor weight", 0..=200);
    Some(ArmorDef {
        name: name?,
        base_ac: base_ac? as i32,
        dex_cap,
        heavy: a.heavy,
        str_requirement: strength? as i32,
        weight_lb: weight? as i32,
        magic: cx.opt_int(a.magic.as_ref(), "magic bonus", 1..=3, 0)? as i32,
    })
}

fn item(cx: &mut Ctx, raw: &S<RawItem>, spells: &Kind<SpellDef>, statuses: &Kind<StatusDef>) -> Option<ItemDef> {
    let i = raw.get_ref();
    let name = cx.name(&i.name, "item")?;
    let kind = cx.choice(&i.effect, "item effect", &ITEM_EFFECTS)?;
    let kind_name = format!("effect `{}`", i.effect.get_ref());
    let fields = [
        ("healing", span_of(i.healing.as_ref())),
        ("temp_hp", span_of(i.temp_hp.as_ref())),
        ("spell", span_of(i.spell.as_ref())),
        ("dc", span_of(i.dc.as_ref())),
        ("status", span_of(i.status.as_ref())),
    ];
    let takes: &[&str] = match kind {
        ItemKind::Heal => &["healing"],
        ItemKind::TempHp => &["temp_hp"],
        ItemKind::Scroll => &["spell"],
        ItemKind::Restrain => &["dc"],
        ItemKind::Status => &["status"],
        ItemKind::Haste | ItemKind::CurePoison => &[],
    };
    if !cx.not_taken(&kind_name, &fields, takes) {
        return None;
    }
    let price = cx.opt_int(i.price.as_ref(), "price", 0..=1_000_000, 0);
    let pounds = *i.weight.get_ref();
    let tenths = (pounds * 10.0).round();
    let weight = if (0.0..=1000.0).contains(&pounds) && (pounds * 10.0 - tenths).abs() < 1e-6 {
        Some(tenths as i32)
    } else {
        cx.err(
            &i.weight.span(),
            format!("item weight {pounds} is not allowed: 0–1000 pounds, to a tenth"),
        );
        None
    };
    let effect = match kind {
        ItemKind::Heal => match &i.healing {
            Some(h) => ItemEffectDef::Heal(cx.dice(h, "healing")?),
            None => {
                cx.err(&i.effect.span(), format!("item {kind_name} needs `healing`"));
                return None;
            }
        },
        ItemKind::Scroll => match &i.spell {
            Some(s) => ItemEffectDef::Scroll(Box::new(spells.get(cx, s, &format!("item `{name}`"))?.clone())),
            None => {
                cx.err(&i.effect.span(), format!("item {kind_name} needs `spell`"));
                return None;
            }
        },
        ItemKind::Status => match &i.status {
            Some(st) => {
                let status = statuses.get(cx, st, &format!("item `{name}`"))?.clone();
                if status.save_ends == Some(SaveEnds::Inflicting) {
                    cx.err(
                        &st.span(),
                        format!(
                            "status `{}` ends on a repeat of the save that inflicted it (`save_ends = true`), but an item gives it with no save",
                            status.name
                        ),
                    );
                    return None;
                }
                ItemEffectDef::Status(Box::new(status))
            }
            None => {
                cx.err(&i.effect.span(), format!("item {kind_name} needs `status`"));
                return None;
            }
        },
        ItemKind::TempHp => match &i.temp_hp {
            Some(t) => ItemEffectDef::TempHp(cx.dice(t, "temporary hit points")?),
            None => {
                cx.err(&i.effect.span(), format!("item {kind_name} needs `temp_hp`"));
                return None;
            }
        },
        ItemKind::Haste => ItemEffectDef::Haste,
        ItemKind::CurePoison => ItemEffectDef::CurePoison,
        ItemKind::Restrain => match &i.dc {
            Some(dc) => ItemEffectDef::Restrain {
                dc: i32::try_from(cx.int(dc, "dc", 1..=30)?).unwrap_or(10),
            },
            None => {
                cx.err(&i.effect.span(), format!("item {kind_name} needs `dc`"));
                return None;
            }
        },
    };
    let mut aliases = Vec::new();
    for a in &i.aliases {
        aliases.push(cx.name(a, "item alias")?);
    }
    Some(ItemDef {
        name,
        aliases: aliases.into(),
        effect,
        price: price? as u32,
        weight_tenths: weight?,
    })
}

fn race(cx: &mut Ctx, r: &RawRace) -> Option<RaceDef> {
    let name = cx.name(&r.name, "race");
    let speed = cx.int(&r.speed, "speed", 5..=120);
    let bonus = match &r.bonus {
        Some(b) => cx.abilities(b, -4..=4, Some(0)),
        None => Some(Abilities::new(0, 0, 0, 0, 0, 0)),
    };
    let all = race_traits();
    let mut traits = Vec::new();
    for t in &r.traits {
        traits.push(cx.choice(t, "race trait", &all)?);
    }
    Some(RaceDef {
        name: name?,
        speed: speed? as i32,
        ability_bonus: bonus?,
        traits: traits.into(),
    })
}

struct Refs<'a> {
    weapons: &'a Kind<WeaponDef>,
    armors: &'a Kind<ArmorDef>,
    spells: &'a Kind<SpellDef>,
    slot_names: &'a Names,
    slot_tables: &'a HashMap<String, Vec<[u8; 9]>>,
}

#[allow(
    clippy::too_many_lines,
    reason = "one check per field of a class entry (docs/content.md), in the file's order"
)]
fn class(cx: &mut Ctx, raw: &S<RawClass>, refs: &Refs) -> Option<ClassDef> {
    let c = raw.get_ref();
    let name = cx.name(&c.name, "class")?;
    let user = format!("class `{name}`");
    let mut ok = true;
    let hit_die = cx.choice(
        &S::new(c.hit_die.span(), format!("d{}", c.hit_die.get_ref())),
        "hit die",
        &[("d6", 6), ("d8", 8), ("d10", 10), ("d12", 12)],
    );
    let abilities = cx.abilities(&c.abilities, 3..=20, None);
    let mut saves = Vec::new();
    for s in c.saving_throws.get_ref() {
        saves.extend(cx.choice(s, "saving throw", &ABILITIES));
    }
    if c.saving_throws.get_ref().len() != 2 {
        cx.err(
            &c.saving_throws.span(),
            format!("a class has 2 saving throws, got {}", c.saving_throws.get_ref().len()),
        );
        ok = false;
    }
    ok &= saves.len() == c.saving_throws.get_ref().len();
    let mut skills = Vec::new();
    for s in &c.skills {
        skills.extend(cx.choice(s, "skill", &SKILLS));
    }
    ok &= skills.len() == c.skills.len();

    let kit = {
        let k = c.kit.get_ref();
        let weapon = refs.weapons.get(cx, &k.weapon, &user).cloned();
        let off_hand = match &k.off_hand {
            Some(o) => {
                let w = refs.weapons.get(cx, o, &user).cloned();
                if let Some(w) = &w
                    && !w.light
                {
                    cx.err(
                        &o.span(),
                        format!(
                            "off_hand `{}` is not a light weapon: only light weapons go in the off hand",
                            w.name
                        ),
                    );
                    ok = false;
                }
                Some(w)
            }
            None => None,
        };
        let armor = refs.armors.get(cx, &k.armor, &user).cloned();
        match (weapon, off_hand, armor) {
            (Some(weapon), off_hand, Some(armor)) if off_hand.as_ref().is_none_or(Option::is_some) => Some(KitDef {
                weapon,
                off_hand: off_hand.flatten(),
                armor,
                shield: k.shield,
            }),
            _ => None,
        }
    };

    // Casting and the spell-slot column.
    let (casting_ability, slots) = match &c.casting {
        Some(casting) => {
            let k = casting.get_ref();
            let ability = cx.choice(&k.ability, "casting ability", &ABILITIES);
            let table = refs
                .slot_names
                .resolve(cx, &k.slots, &user)
                .and_then(|_| refs.slot_tables.get(&normalize(k.slots.get_ref())).cloned());
            (ability, table)
        }
        None => (None, Some(vec![[0u8; 9]; LEVELS])),
    };
    if c.casting.is_some() && (casting_ability.is_none() || slots.is_none()) {
        ok = false;
    }

    // The per-level table.
    let p = &c.per_level;
    let mut column =
        |raw: &Option<S<Vec<S<i64>>>>, what: &str, range: RangeInclusive<i64>, default: i64| -> Option<Vec<u8>> {
            match raw {
                Some(r) => cx
                    .per_level(r, &format!("per_level.{what}"), range)
                    .map(|v| v.iter().map(|&n| n as u8).collect()),
                None => Some(vec![default as u8; LEVELS]),
            }
        };
    let attacks = column(&p.attacks, "attacks", 1..=8, 1);
    let second_wind = column(&p.second_wind, "second_wind", 0..=20, 0);
    let rage = column(&p.rage, "rage", 0..=20, 0);
    let rage_damage = column(&p.rage_damage, "rage_damage", 0..=20, 0);
    let divine_favor = column(&p.divine_favor, "divine_favor", 0..=20, 0);
    let sneak = column(&p.sneak_attack_dice, "sneak_attack_dice", 0..=20, 0);
    let parries = column(&p.tdgs_parries, "tdgs_parries", 0..=10, 0);

    // Spells, each known from a level the class has slots of its level.
    let mut spells = Vec::new();
    if c.casting.is_none()
        && let Some(first) = c.spells.first()
    {
        cx.err(
            &first.span(),
            format!("{user} lists spells but does not cast: add `casting = {{ ability = …, slots = … }}`"),
        );
        ok = false;
    }
    for s in &c.spells {
        let r = s.get_ref();
        let spell = refs.spells.get(cx, &r.name, &user).cloned();
        let from = cx.int(&r.from, "spell `from` level", 1..=LEVELS as i64);
        let (Some(spell), Some(from)) = (spell, from) else {
            ok = false;
            continue;
        };
        if let Some(slots) = &slots
            && spell.level > 0
        {
            let first = slots.iter().position(|row| row[spell.level as usize - 1] > 0);
            match first {
                Some(first) if from as usize > first => {}
                Some(first) => {
                    cx.err(
                        &r.from.span(),
                        format!(
                            "{user} knows `{}` (a level-{} spell) from level {from}, but has level-{} slots only from level {}: allowed {}–{LEVELS}",
                            spell.name,
                            spell.level,
                            spell.level,
                            first + 1,
                            first + 1
                        ),
                    );
                    ok = false;
                }
                None => {
                    cx.err(
                        &r.name.span(),
                        format!(
                            "{user} never has level-{} slots, so it cannot know `{}`",
                            spell.level, spell.name
                        ),
                    );
                    ok = false;
                }
            }
        }
        if spells.iter().any(|k: &ClassSpell| k.spell.name == spell.name) {
            cx.err(&r.name.span(), format!("{user} lists `{}` twice", spell.name));
            ok = false;
        }
        spells.push(ClassSpell {
            from_level: from as u32,
            spell,
        });
    }

    let all = features();
    let mut grants = Vec::new();
    for f in &c.features {
        let r = f.get_ref();
        let feature = cx.choice(&r.name, "class feature", &all);
        let level = cx.int(&r.level, "feature level", 1..=LEVELS as i64);
        let tdgs_level = match &r.tdgs_level {
            Some(t) => cx.int(t, "feature tdgs_level", 1..=LEVELS as i64),
            None => level,
        };
        match (feature, level, tdgs_level) {
            (Some(feature), Some(level), Some(tdgs_level)) => {
                if grants.iter().any(|g: &FeatureGrant| g.feature == feature) {
                    cx.err(&r.name.span(), format!("{user} grants `{}` twice", feature.name()));
                    ok = false;
                }
                grants.push(FeatureGrant {
                    feature,
                    level: level as u32,
                    tdgs_level: tdgs_level as u32,
                });
            }
            _ => ok = false,
        }
    }

    let (attacks, second_wind, rage, rage_damage, divine_favor, sneak, parries, slots) = (
        attacks?,
        second_wind?,
        rage?,
        rage_damage?,
        divine_favor?,
        sneak?,
        parries?,
        slots?,
    );
    let levels = (0..LEVELS)
        .map(|i| ClassLevel {
            attacks: attacks[i],
            second_wind: second_wind[i],
            rage: rage[i],
            rage_damage: rage_damage[i],
            divine_favor: divine_favor[i],
            sneak_attack_dice: sneak[i],
            tdgs_parries: parries[i],
            spell_slots: slots[i],
        })
        .collect();
    let mut aliases = Vec::new();
    for a in &c.aliases {
        aliases.push(cx.name(a, "class alias")?);
    }
    if !ok {
        return None;
    }
    Some(ClassDef {
        name,
        aliases: aliases.into(),
        hit_die: hit_die?,
        base_abilities: abilities?,
        saving_throws: [saves[0], saves[1]],
        skills: skills.into(),
        kit: kit?,
        casting_ability,
        spells: spells.into(),
        features: grants.into(),
        levels,
    })
}

#[allow(
    clippy::too_many_lines,
    reason = "one check per field of a stat block (docs/content.md), in the file's order"
)]
fn monster(
    cx: &mut Ctx,
    raw: &S<RawMonster>,
    spells: &Kind<SpellDef>,
    statuses: &Kind<StatusDef>,
) -> Option<MonsterDef> {
    let m = raw.get_ref();
    let name = cx.name(&m.name, "monster")?;
    let user = format!("monster `{name}`");
    let mut ok = true;
    let tier = cx.int(&m.tier, "tier", 1..=5);
    let xp = cx.int(&m.xp, "xp", 0..=1_000_000);
    let hit_points = cx.dice(&m.hp, "hit points");
    if let Some(hp) = hit_points
        && hp.average() < 1
    {
        cx.err(
            &m.hp.span(),
            format!(
                "hit points `{}` average {}: a monster needs at least 1 HP",
                m.hp.get_ref(),
                hp.average()
            ),
        );
        ok = false;
    }
    let armor_class = cx.int(&m.ac, "armor class", ARMOR_CLASS);
    let abilities = cx.abilities(&m.abilities, 1..=30, None);
    let speed = cx.opt_int(m.speed.as_ref(), "speed", 0..=200, 30);
    let proficiency = cx.opt_int(m.proficiency.as_ref(), "proficiency", 0..=10, 2);
    let pattern_len = m.pattern.as_ref().map_or(1, |p| p.get_ref().len() as i64);
    let multiattack = cx.opt_int(m.multiattack.as_ref(), "multiattack", 1..=10, pattern_len);
    let behaviour = match &m.behaviour {
        Some(b) => cx.choice(b, "behaviour", &BEHAVIOURS),
        None => Some(Behaviour::Aggressive),
    };
    let casting_mod = cx.opt_int(m.casting_mod.as_ref(), "casting_mod", -5..=15, 0);
    let perception = cx.opt_int(m.perception.as_ref(), "perception", -10..=30, 0);
    let stealth = cx.opt_int(m.stealth.as_ref(), "stealth", -10..=30, 0);
    let spell_slots = match &m.spell_slots {
        Some(s) => cx.slots(s, "spell_slots"),
        None => Some([0; 9]),
    };

    if m.attacks.get_ref().is_empty() {
        cx.err(&m.attacks.span(), format!("{user} needs at least one attack"));
        ok = false;
    }
    let mut attacks = Vec::new();
    for a in m.attacks.get_ref() {
        let a = a.get_ref();
        let aname = cx.name(&a.name, "attack");
        let to_hit = cx.int(&a.to_hit, "to_hit", -5..=30);
        let damage = cx.dice(&a.damage, "damage");
        let damage_type = cx.choice(&a.damage_type, "damage type", &DAMAGE_TYPES);
        let on_hit = match &a.on_hit {
            Some(h) => affliction(cx, h, statuses, &user).map(Some),
            None => Some(None),
        };
        let extra = damage_parts(cx, &a.extra);
        match (aname, to_hit, damage, damage_type, on_hit, extra) {
            (Some(aname), Some(to_hit), Some(damage), Some(damage_type), Some(on_hit), Some(extra)) => {
                attacks.push(AttackDef {
                    name: aname.into(),
                    to_hit: to_hit as i32,
                    damage,
                    damage_type,
                    ranged: a.ranged,
                    on_hit,
                    extra,
                });
            }
            _ => ok = false,
        }
    }

    let mut blur = false;
    let mut parry = false;
    let mut hides = false;
    let mut pack_tactics = false;
    let mut magic_resistance = false;
    let mut undead_fortitude = false;
    for t in &m.traits {
        match cx.choice(t, "monster trait", &MONSTER_TRAITS) {
            Some(MonsterTrait::Blur) => blur = true,
            Some(MonsterTrait::Parry) => parry = true,
            Some(MonsterTrait::Hide) => hides = true,
            Some(MonsterTrait::PackTactics) => pack_tactics = true,
            Some(MonsterTrait::MagicResistance) => magic_resistance = true,
            Some(MonsterTrait::UndeadFortitude) => undead_fortitude = true,
            None => ok = false,
        }
    }
    let pattern = match &m.pattern {
        Some(p) => multiattack_pattern(cx, p, &attacks, multiattack),
        None => Some(Box::default()),
    };
    let legendary_resistance = cx.opt_int(m.legendary_resistance.as_ref(), "legendary_resistance", 0..=10, 0);
    let regeneration = match &m.regeneration {
        Some(r) => {
            let r = r.get_ref();
            let hp = cx.int(&r.hp, "regeneration hp", 1..=100);
            let stopped_by = damage_set(cx, &r.stopped_by, "damage type that stops regeneration");
            match (hp, stopped_by) {
                (Some(hp), Some(stopped_by)) => Some(Some(RegenerationDef {
                    hp: hp as i32,
                    stopped_by,
                })),
                _ => None,
            }
        }
        None => Some(None),
    };
    let mut area_abilities = Vec::new();
    let raw_abilities = m
        .breath
        .iter()
        .map(|b| (b, true))
        .chain(m.area_abilities.iter().map(|a| (a, false)));
    for (raw_ability, breath) in raw_abilities {
        match area_ability(cx, raw_ability, breath, statuses) {
            Some(a) => area_abilities.push(a),
            None => ok = false,
        }
    }
    if area_abilities.len() > MAX_ABILITIES {
        let span = m.area_abilities.last().map_or(raw.span(), Spanned::span);
        cx.err(
            &span,
            format!(
                "{user} has {} area abilities (its breath among them): allowed at most {MAX_ABILITIES}",
                area_abilities.len()
            ),
        );
        ok = false;
    }
    let mut auras = Vec::new();
    for a in &m.auras {
        match aura(cx, a, statuses) {
            Some(a) => auras.push(a),
            None => ok = false,
        }
    }
    if auras.len() > MAX_AURAS {
        cx.err(
            &m.auras[MAX_AURAS].span(),
            format!("{user} has {} auras: allowed at most {MAX_AURAS}", m.auras.len()),
        );
        ok = false;
    }
    let legendary = match &m.legendary {
        Some(l) => legendary_actions(cx, l, &attacks, &area_abilities).map(Some),
        None => Some(None),
    };
    let mut known = Vec::new();
    for s in &m.spells {
        match spells.get(cx, s, &user) {
            Some(spell) => known.push(spell.clone()),
            None => ok = false,
        }
    }
    if let Some(slots) = spell_slots {
        for spell in &known {
            if spell.level > 0 && slots[spell.level as usize - 1] == 0 {
                let span = m
                    .spells
                    .iter()
                    .find(|s| normalize(s.get_ref()) == normalize(&spell.name))
                    .map_or(raw.span(), Spanned::span);
                cx.err(
                    &span,
                    format!(
                        "{user} knows `{}` (level {}) but has no level-{} spell slots",
                        spell.name, spell.level, spell.level
                    ),
                );
                ok = false;
            }
        }
    }
    let innate_spells = innate_spells(cx, m, spells, &mut known, &user);
    let reactions = reactions(cx, m, &user);
    let creature_type = match &m.creature_type {
        Some(t) => cx.choice(t, "creature type", &CREATURE_TYPES).map(Some),
        None => Some(None),
    };
    let mut innate = Vec::new();
    for s in &m.statuses {
        match statuses.get(cx, s, &user) {
            Some(status) => innate.push(status.clone()),
            None => ok = false,
        }
    }
    let defences = defences(cx, m);
    let saves = match &m.saves {
        Some(raw) => save_bonuses(cx, raw),
        None => Some(Box::default()),
    };
    let speeds = match &m.speeds {
        Some(raw) => speeds(cx, raw.get_ref()),
        None => Some(Speeds::default()),
    };
    let mut aliases = Vec::new();
    for a in &m.aliases {
        aliases.push(cx.name(a, "monster alias")?);
    }
    if !ok {
        return None;
    }
    Some(MonsterDef {
        name,
        aliases: aliases.into(),
        tier: tier? as u8,
        xp: xp? as u32,
        hit_points: hit_points?,
        armor_class: armor_class? as i32,
        abilities: abilities?,
        speed: speed? as i32,
        proficiency: proficiency? as i32,
        attacks: attacks.into(),
        multiattack: multiattack? as u32,
        pattern: pattern?,
        behaviour: behaviour?,
        blur,
        hides,
        parry,
        pack_tactics,
        magic_resistance,
        undead_fortitude,
        legendary_resistance: legendary_resistance? as u8,
        legendary: legendary?,
        regeneration: regeneration?,
        auras: auras.into(),
        breath: None,
        area_abilities: area_abilities.into(),
        spells: known.into(),
        spell_slots: spell_slots?,
        innate_spells: innate_spells?,
        reactions: reactions?,
        creature_type: creature_type?,
        casting_mod: casting_mod? as i32,
        perception: perception? as i32,
        stealth: stealth? as i32,
        statuses: innate.into(),
        defences: defences?,
        saves: saves?,
        speeds: speeds?,
    })
}

/// The creature types, as content writes them.
const CREATURE_TYPES: [(&str, CreatureType); 14] = [
    ("aberration", CreatureType::Aberration),
    ("beast", CreatureType::Beast),
    ("celestial", CreatureType::Celestial),
    ("construct", CreatureType::Construct),
    ("dragon", CreatureType::Dragon),
    ("elemental", CreatureType::Elemental),
    ("fey", CreatureType::Fey),
    ("fiend", CreatureType::Fiend),
    ("giant", CreatureType::Giant),
    ("humanoid", CreatureType::Humanoid),
    ("monstrosity", CreatureType::Monstrosity),
    ("ooze", CreatureType::Ooze),
    ("plant", CreatureType::Plant),
    ("undead", CreatureType::Undead),
];

const REACTS_TO: [(&str, ReactsTo); 3] = [
    ("hit", ReactsTo::Hit),
    ("melee hit", ReactsTo::MeleeHit),
    ("ranged hit", ReactsTo::RangedHit),
];

/// `reactions = [{ name, on, ac | reduce | half }]`: up to [`MAX_REACTIONS`] reactions to a hit
/// (`on` = "hit", "melee hit" or "ranged hit"), each doing exactly one thing: `ac = 1..=10` more
/// AC against that attack, `reduce = "1d8+3"` less damage, or `half = true`.
fn reactions(cx: &mut Ctx, m: &RawMonster, user: &str) -> Option<Box<[ReactionDef]>> {
    if m.reactions.len() > MAX_REACTIONS {
        cx.err(
            &m.reactions[MAX_REACTIONS].span(),
            format!(
                "{user} has {} reactions: allowed at most {MAX_REACTIONS}",
                m.reactions.len()
            ),
        );
        return None;
    }
    let mut ok = true;
    let mut out = Vec::new();
    for raw in &m.reactions {
        let r = raw.get_ref();
        let name = cx.name(&r.name, "reaction");
        let on = cx.choice(&r.on, "reaction trigger", &REACTS_TO);
        let half = r.half.as_ref().filter(|h| *h.get_ref());
        let effect = match (&r.ac, &r.reduce, half) {
            (Some(ac), None, None) => cx
                .int(ac, "reaction ac", 1..=10)
                .map(|ac| ReactionEffect::Ac(ac as i32)),
            (None, Some(dice), None) => cx.dice(dice, "reaction reduce").map(ReactionEffect::Reduce),
            (None, None, Some(_)) => Some(ReactionEffect::Halve),
            _ => {
                cx.err(
                    &raw.span(),
                    format!(
                        "reaction `{}` must do exactly one thing: `ac = 2` (more AC against the hit), \
                         `reduce = \"1d8\"` (less damage) or `half = true`",
                        r.name.get_ref()
                    ),
                );
                None
            }
        };
        match (name, on, effect) {
            (Some(name), Some(on), Some(effect)) => out.push(ReactionDef { name, on, effect }),
            _ => ok = false,
        }
    }
    ok.then(|| out.into())
}

/// `innate_spells = [{ spell, per_day? }]`: up to [`MAX_INNATE`] spells cast with no slot, at
/// will or 1–10 times a fight; each joins `known`, and none may be there already.
fn innate_spells(
    cx: &mut Ctx,
    m: &RawMonster,
    spells: &Kind<SpellDef>,
    known: &mut Vec<SpellDef>,
    user: &str,
) -> Option<Box<[InnateSpell]>> {
    if m.innate_spells.len() > MAX_INNATE {
        cx.err(
            &m.innate_spells[MAX_INNATE].span(),
            format!(
                "{user} has {} innate spells: allowed at most {MAX_INNATE}",
                m.innate_spells.len()
            ),
        );
        return None;
    }
    let mut ok = true;
    let mut innate = Vec::new();
    for raw in &m.innate_spells {
        let r = raw.get_ref();
        let per_day = cx.opt_int(r.per_day.as_ref(), "innate spell per_day", 1..=10, 0);
        let Some(spell) = spells.get(cx, &r.spell, user).cloned() else {
            ok = false;
            continue;
        };
        if known.iter().any(|k| k.name == spell.name) {
            cx.err(
                &r.spell.span(),
                format!(
                    "{user} lists `{}` twice: a spell is cast from `spells` (with slots) or from `innate_spells`, not both",
                    spell.name
                ),
            );
            ok = false;
            continue;
        }
        let Some(per_day) = per_day else {
            ok = false;
            continue;
        };
        innate.push(InnateSpell {
            spell: spell.name.clone(),
            per_day: per_day as u8,
        });
        known.push(spell);
    }
    ok.then(|| innate.into())
}

/// A multiattack's mix (`pattern = ["Claws", "Claws", "Bite"]`): 1–10 names of the monster's own
/// attacks, as many as its `multiattack` (which it sets when left out).
/// `legendary = { actions = 3, options = [{ name = "Tail Attack", attack = "Tail" }, …] }`: each
/// option names one of the monster's attacks and costs 1–`actions` points (1 unless given).
fn legendary_actions(
    cx: &mut Ctx,
    raw: &S<RawLegendary>,
    attacks: &[AttackDef],
    abilities: &[AbilityDef],
) -> Option<LegendaryDef> {
    let l = raw.get_ref();
    let actions = cx.int(&l.actions, "legendary actions", 1..=5);
    let options = l.options.get_ref();
    if options.is_empty() || options.len() > 6 {
        cx.err(
            &l.options.span(),
            format!("legendary options: {} given, allowed 1–6", options.len()),
        );
        return None;
    }
    let mut out = Vec::with_capacity(options.len());
    let mut ok = true;
    for option in options {
        let o = option.get_ref();
        let name = cx.name(&o.name, "legendary action");
        let cost = cx.opt_int(o.cost.as_ref(), "legendary action cost", 1..=actions.unwrap_or(5), 1);
        let effect = match (&o.attack, &o.ability) {
            (Some(attack), None) => named_in(cx, attack, attacks.iter().map(|a| &*a.name), "attack", o)
                .map(|i| LegendaryEffect::Attack(i as u8)),
            (None, Some(ability)) => named_in(cx, ability, abilities.iter().map(|a| &*a.name), "area ability", o)
                .map(|i| LegendaryEffect::Ability(i as u8)),
            _ => {
                cx.err(
                    &option.span(),
                    format!(
                        "legendary action `{}` needs one of `attack` (one of the monster's attacks) or `ability` (one of its area abilities)",
                        o.name.get_ref()
                    ),
                );
                None
            }
        };
        match (name, cost, effect) {
            (Some(name), Some(cost), Some(effect)) => out.push(LegendaryOptionDef {
                name,
                cost: cost as u8,
                effect,
            }),
            _ => ok = false,
        }
    }
    (ok && actions.is_some()).then(|| LegendaryDef {
        actions: actions.unwrap_or(1) as u8,
        options: out.into(),
    })
}

/// The index of `wanted` among the monster's `names` (its attacks or its area abilities).
fn named_in<'a>(
    cx: &mut Ctx,
    wanted: &S<String>,
    names: impl Iterator<Item = &'a str> + Clone,
    what: &str,
    option: &RawLegendaryOption,
) -> Option<usize> {
    if let Some(i) = names.clone().position(|n| normalize(n) == normalize(wanted.get_ref())) {
        return Some(i);
    }
    let known: Vec<String> = names.map(|n| format!("`{n}`")).collect();
    let known = if known.is_empty() {
        "none".to_owned()
    } else {
        known.join(", ")
    };
    cx.err(
        &wanted.span(),
        format!(
            "legendary action `{}` names the {what} `{}`, not one of the monster's: {known}",
            option.name.get_ref(),
            wanted.get_ref(),
        ),
    );
    None
}

/// One aura: `{ name, damage?, type?, save?, dc?, half?, status? }`, doing damage, a status or
/// both; a save needs its DC.
fn aura(cx: &mut Ctx, raw: &S<RawAura>, statuses: &Kind<StatusDef>) -> Option<AuraDef> {
    let a = raw.get_ref();
    let name = cx.name(&a.name, "aura");
    let damage = a.damage.as_ref().map(|d| cx.dice(d, "aura damage"));
    let damage_type = a
        .damage_type
        .as_ref()
        .map(|t| cx.choice(t, "damage type", &DAMAGE_TYPES));
    let save = match (&a.save, &a.dc) {
        (None, None) => Some(None),
        (Some(save), Some(dc)) => {
            let ability = cx.choice(save, "saving throw", &ABILITIES);
            let dc = cx.int(dc, "aura dc", 1..=40);
            ability.zip(dc).map(|(ability, dc)| Some((ability, dc as i32)))
        }
        _ => {
            cx.err(
                &raw.span(),
                format!("aura `{}` needs both `save` and `dc`, or neither", a.name.get_ref()),
            );
            None
        }
    };
    let status = match &a.status {
        Some(s) => statuses
            .get(cx, s, &format!("aura `{}`", a.name.get_ref()))
            .cloned()
            .map(Some),
        None => Some(None),
    };
    let mut ok = true;
    match (&a.damage, &a.damage_type) {
        (Some(_), None) | (None, Some(_)) => {
            cx.err(
                &raw.span(),
                format!("aura `{}` needs both `damage` and `type`, or neither", a.name.get_ref()),
            );
            ok = false;
        }
        (None, None) if a.status.is_none() => {
            cx.err(
                &raw.span(),
                format!(
                    "aura `{}` does nothing: give it `damage` and `type`, a `status`, or both",
                    a.name.get_ref()
                ),
            );
            ok = false;
        }
        _ => {}
    }
    let immune_on_save = a.immune_on_save.as_ref().is_some_and(|b| *b.get_ref());
    if let Some(flag) = a.immune_on_save.as_ref().filter(|_| immune_on_save && a.save.is_none()) {
        cx.err(
            &flag.span(),
            format!(
                "aura `{}` has no save to succeed on: `immune_on_save` needs `save` and `dc`",
                a.name.get_ref()
            ),
        );
        ok = false;
    }
    let damage = damage.map_or(Some(None), |d| d.map(Some));
    let damage_type = damage_type.map_or(Some(None), |t| t.map(Some));
    ok.then_some(())?;
    Some(AuraDef {
        name: name?,
        damage: damage?,
        damage_type: damage_type?,
        save: save?,
        half: a.half,
        status: status?,
        immune_on_save,
    })
}

/// One area ability (`breath`: a breath weapon, with its defaults).
fn area_ability(cx: &mut Ctx, raw: &S<RawAbility>, breath: bool, statuses: &Kind<StatusDef>) -> Option<AbilityDef> {
    let b = raw.get_ref();
    let what = if breath { "breath weapon" } else { "area ability" };
    let name = cx.name(&b.name, what);
    let damage = b.damage.as_ref().map(|d| cx.dice(d, "ability damage"));
    let damage_type = b
        .damage_type
        .as_ref()
        .map(|t| cx.choice(t, "damage type", &DAMAGE_TYPES));
    let dc = cx.int(&b.dc, "ability dc", 1..=40);
    let save = match &b.save {
        Some(s) => cx.choice(s, "saving throw", &ABILITIES),
        None => Some(Ability::Dex),
    };
    let status = match &b.status {
        Some(s) => statuses
            .get(cx, s, &format!("{what} `{}`", b.name.get_ref()))
            .cloned()
            .map(Some),
        None => Some(None),
    };
    let area = match &b.area {
        Some(a) => cx.choice(a, "ability area", &AREAS),
        None if breath => Some(Area::Cone),
        None => Some(Area::Burst),
    };
    let recharge = match &b.recharge {
        Some(r) => cx.int(r, "ability recharge", 2..=6),
        None => Some(if breath && b.uses.is_none() { 5 } else { 0 }),
    };
    let uses = cx.opt_int(b.uses.as_ref(), "ability uses", 1..=10, 0);
    let size = match (area, &b.size) {
        (Some(Area::Burst), Some(s)) => {
            cx.err(&s.span(), "a `burst` catches everyone within Near: it takes no `size`");
            None
        }
        (Some(a), size) => cx.opt_int(size.as_ref(), "ability size (ft)", 5..=500, i64::from(a.default_size())),
        (None, _) => None,
    };
    let mut ok = true;
    match (&b.damage, &b.damage_type) {
        (Some(_), None) | (None, Some(_)) => {
            cx.err(
                &raw.span(),
                format!(
                    "{what} `{}` needs both `damage` and `type`, or neither",
                    b.name.get_ref()
                ),
            );
            ok = false;
        }
        (None, None) if b.status.is_none() => {
            cx.err(
                &raw.span(),
                format!(
                    "{what} `{}` does nothing: give it `damage` and `type`, a `status`, or both",
                    b.name.get_ref()
                ),
            );
            ok = false;
        }
        _ => {}
    }
    if breath && b.damage.is_none() {
        cx.err(&raw.span(), "a breath weapon needs `damage` and `type`");
        ok = false;
    }
    if let (Some(r), Some(u)) = (&b.recharge, &b.uses) {
        cx.err(
            &(r.span().start.min(u.span().start)..u.span().end.max(r.span().end)),
            "an ability either recharges or has uses a fight: give `recharge` or `uses`, not both",
        );
        ok = false;
    }
    let damage = damage.map_or(Some(None), |d| d.map(Some));
    let damage_type = damage_type.map_or(Some(None), |t| t.map(Some));
    ok.then_some(())?;
    Some(AbilityDef {
        name: name?,
        damage: damage?,
        damage_type: damage_type?,
        save_dc: dc? as i32,
        save: save?,
        half: b.half.as_ref().is_none_or(|h| *h.get_ref()),
        status: status?,
        area: area?,
        size: size? as i32,
        recharge: recharge? as u8,
        uses: uses? as u8,
        with_attack: b.with_attack,
        legendary_only: b.legendary_only,
        breath,
    })
}

fn multiattack_pattern(
    cx: &mut Ctx,
    raw: &S<Vec<S<String>>>,
    attacks: &[AttackDef],
    multiattack: Option<i64>,
) -> Option<Box<[u8]>> {
    let names = raw.get_ref();
    if names.is_empty() || names.len() > 10 {
        cx.err(
            &raw.span(),
            format!("a multiattack pattern names {} attacks: allowed 1–10", names.len()),
        );
        return None;
    }
    if let Some(n) = multiattack
        && n != names.len() as i64
    {
        cx.err(
            &raw.span(),
            format!(
                "the multiattack pattern names {} attacks but `multiattack` is {n}: make them agree (or leave `multiattack` out)",
                names.len()
            ),
        );
        return None;
    }
    let mut out = Vec::with_capacity(names.len());
    let mut ok = true;
    for name in names {
        match attacks
            .iter()
            .position(|a| normalize(&a.name) == normalize(name.get_ref()))
        {
            Some(i) => out.push(i as u8),
            None => {
                let known: Vec<String> = attacks.iter().map(|a| format!("`{}`", a.name)).collect();
                cx.err(
                    &name.span(),
                    format!(
                        "the multiattack pattern names `{}`, not one of the monster's attacks: {}",
                        name.get_ref(),
                        known.join(", ")
                    ),
                );
                ok = false;
            }
        }
    }
    ok.then(|| out.into())
}

/// An attack's extra damage parts: at most [`MAX_EXTRA_PARTS`], each a dice expression and a type.
fn damage_parts(cx: &mut Ctx, raw: &[S<RawDamagePart>]) -> Option<Box<[DamagePartDef]>> {
    if let Some(too_many) = raw.get(MAX_EXTRA_PARTS) {
        cx.err(
            &too_many.span(),
            format!(
                "an attack has {} extra damage parts: allowed 0–{MAX_EXTRA_PARTS}",
                raw.len()
            ),
        );
        return None;
    }
    let mut parts = Vec::with_capacity(raw.len());
    let mut ok = true;
    for part in raw {
        let p = part.get_ref();
        let damage = cx.dice(&p.damage, "extra damage");
        let damage_type = cx.choice(&p.damage_type, "damage type", &DAMAGE_TYPES);
        match (damage, damage_type) {
            (Some(damage), Some(damage_type)) => parts.push(DamagePartDef { damage, damage_type }),
            _ => ok = false,
        }
    }
    ok.then(|| parts.into())
}

/// A list of damage types as a stat block writes them: a type (`"fire"`), a type only against
/// non-magical weapons (`"nonmagical slashing"`), or `"nonmagical physical"` for all three
/// physical types.
fn damage_set(cx: &mut Ctx, raw: &[S<String>], what: &str) -> Option<DamageSet> {
    let mut set = DamageSet::EMPTY;
    let mut ok = true;
    for entry in raw {
        let text = entry.get_ref().trim().to_ascii_lowercase();
        let (mundane, rest) = match text.strip_prefix("nonmagical") {
            Some(rest) => (true, rest.trim()),
            None => (false, text.as_str()),
        };
        if mundane && rest == "physical" {
            for t in [DamageType::Bludgeoning, DamageType::Piercing, DamageType::Slashing] {
                set.insert(t, true);
            }
            continue;
        }
        match DAMAGE_TYPES.iter().find(|(n, _)| *n == rest) {
            Some((_, t)) => set.insert(*t, mundane),
            None => {
                cx.err(
                    &entry.span(),
                    format!(
                        "unknown {what} `{}`: allowed are {}, each optionally as `nonmagical <type>`, or `nonmagical physical`",
                        entry.get_ref(),
                        list(&DAMAGE_TYPES)
                    ),
                );
                ok = false;
            }
        }
    }
    ok.then_some(set)
}

/// A stat block's resistances, immunities, vulnerabilities and condition immunities.
fn defences(cx: &mut Ctx, m: &RawMonster) -> Option<Defences> {
    let resistances = damage_set(cx, &m.resistances, "resistance");
    let immunities = damage_set(cx, &m.immunities, "immunity");
    let vulnerabilities = damage_set(cx, &m.vulnerabilities, "vulnerability");
    let mut condition_immunities = ConditionSet::EMPTY;
    let mut ok = true;
    for c in &m.condition_immunities {
        match cx.choice(c, "condition", &CONDITIONS) {
            Some(c) => condition_immunities.insert(c),
            None => ok = false,
        }
    }
    Some(Defences {
        resistances: resistances?,
        immunities: immunities?,
        vulnerabilities: vulnerabilities?,
        condition_immunities: ok.then_some(condition_immunities)?,
    })
}

/// Saving throw bonuses by ability (`saves = { dex = 5, wis = 3 }`), each −5–30.
fn save_bonuses(cx: &mut Ctx, raw: &S<RawAbilities>) -> Option<Box<[(Ability, i32)]>> {
    let r = raw.get_ref();
    let fields = [
        (Ability::Str, "str", &r.str),
        (Ability::Dex, "dex", &r.dex),
        (Ability::Con, "con", &r.con),
        (Ability::Int, "int", &r.int),
        (Ability::Wis, "wis", &r.wis),
        (Ability::Cha, "cha", &r.cha),
    ];
    let mut saves = Vec::new();
    let mut ok = true;
    for (ability, name, value) in fields {
        if let Some(v) = value {
            match cx.int(v, &format!("{name} saving throw bonus"), -5..=30) {
                Some(bonus) => saves.push((ability, bonus as i32)),
                None => ok = false,
            }
        }
    }
    ok.then(|| saves.into())
}

/// Speeds besides walking (`speeds = { fly = 60, hover = true }`), each 0–200 ft.
fn speeds(cx: &mut Ctx, raw: &RawSpeeds) -> Option<Speeds> {
    let fly = cx.opt_int(raw.fly.as_ref(), "fly speed", 0..=200, 0);
    let swim = cx.opt_int(raw.swim.as_ref(), "swim speed", 0..=200, 0);
    let climb = cx.opt_int(raw.climb.as_ref(), "climb speed", 0..=200, 0);
    let burrow = cx.opt_int(raw.burrow.as_ref(), "burrow speed", 0..=200, 0);
    for (mode, speed, missing) in [
        ("swim", &raw.swim, "water"),
        ("climb", &raw.climb, "walls"),
        ("burrow", &raw.burrow, "ground to dig"),
    ] {
        if let Some(feet) = speed.as_ref().filter(|f| *f.get_ref() > 0) {
            cx.warn(
                &feet.span(),
                format!(
                    "`{mode} = {}` is kept on the stat block but does nothing in a fight: the band model has no {missing} (docs/content.md)",
                    feet.get_ref()
                ),
            );
        }
    }
    Some(Speeds {
        fly: fly? as i32,
        swim: swim? as i32,
        climb: climb? as i32,
        burrow: burrow? as i32,
        hover: raw.hover,
    })
}

fn zone(cx: &mut Ctx, z: &RawZone, monsters: &Kind<MonsterDef>) -> Option<ZoneDef> {
    let name = cx.name(&z.name, "zone")?;
    let user = format!("zone `{name}`");
    let tier = cx.int(&z.tier, "tier", 1..=5);
    let rooms = cx.int(&z.rooms, "rooms", 1..=50);
    let difficult_terrain = cx.text(&z.difficult_terrain, "difficult_terrain");
    let difficult_in_6 = cx.int(&z.difficult_in_6, "difficult_in_6", 0..=6);
    let encounter_in_6 = cx.int(&z.encounter_in_6, "encounter_in_6", 0..=6);
    let material = cx.text(&z.material, "material");
    let mut ok = true;
    if z.monsters.get_ref().is_empty() {
        cx.err(&z.monsters.span(), format!("{user} needs at least one monster"));
        ok = false;
    }
    let mut met = Vec::new();
    for m in z.monsters.get_ref() {
        match monsters.get(cx, m, &user) {
            Some(def) => met.push(def.name.clone()),
            None => ok = false,
        }
    }
    let mut hidden = Vec::new();
    for h in &z.hidden {
        let what = cx.text(&h.what, "hidden thing");
        let dc = cx.int(&h.dc, "dc", 1..=30);
        let kind = match cx.choice(&h.kind, "hidden thing kind", &HIDDEN_KINDS) {
            Some(HiddenTag::Trap) => Some(HiddenKind::Trap),
            Some(HiddenTag::Door) => Some(HiddenKind::Door),
            Some(HiddenTag::Cache) => match &h.coins {
                Some(c) => cx
                    .int(c, "coins", 1..=100_000)
                    .map(|coins| HiddenKind::Cache { coins: coins as u32 }),
                None => {
                    cx.err(&h.kind.span(), format!("{user}: a cache needs `coins`"));
                    None
                }
            },
            None => None,
        };
        if h.coins.is_some() && !matches!(kind, Some(HiddenKind::Cache { .. })) {
            cx.err(&h.kind.span(), format!("{user}: only a cache takes `coins`"));
            ok = false;
        }
        match (what, dc, kind) {
            (Some(what), Some(dc), Some(kind)) => hidden.push(HiddenDef {
                what,
                dc: dc as i32,
                kind,
            }),
            _ => ok = false,
        }
    }
    if !ok {
        return None;
    }
    Some(ZoneDef {
        name,
        tier: tier? as u8,
        rooms: rooms? as u32,
        difficult_terrain: difficult_terrain?,
        difficult_in_6: difficult_in_6? as u32,
        encounter_in_6: encounter_in_6? as u32,
        material: material?,
        monsters: met.into(),
        hidden: hidden.into(),
    })
}

#[cfg(test)]
mod tests {
    use super::split_dice;

    #[test]
    fn dice_expressions_split_into_count_sides_and_bonus() {
        assert_eq!(split_dice("2d6+3"), Some((2, 6, 3)));
        assert_eq!(split_dice("2d6-2"), Some((2, 6, -2)));
        assert_eq!(split_dice("d8"), Some((1, 8, 0)));
        assert_eq!(split_dice("17d10+85"), Some((17, 10, 85)));
        assert_eq!(split_dice("1"), Some((0, 1, 1)));
        assert_eq!(split_dice("-3"), Some((0, 1, -3)));
        assert_eq!(split_dice("2x6"), None);
        assert_eq!(split_dice("2d"), None);
        assert_eq!(split_dice("2d6+"), None);
        assert_eq!(split_dice(""), None);
    }
}
