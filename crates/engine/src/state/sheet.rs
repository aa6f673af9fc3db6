//! What a combatant is, fixed when it joins a fight (seed 000 §2 and §6: a race, a class at a
//! level with its features, or a monster's stat block; the weapons, armor and consumables it
//! carries): copied from the content definitions ([`crate::content::data`]) and shared behind
//! one [`Arc`]. The rules read a combatant's numbers only from here, so a content change never
//! alters a stored fight or its replay.
//!
//! A fight stores each distinct sheet once ([`crate::state::roster`]): its combatants refer to their sheet
//! by index, so a band of goblins or a party of the same class costs one copy.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::content::data::{
    self, ArmorDef, ClassLevel, Feature, FeatureGrant, ItemDef, MonsterDef, RaceDef, RaceTrait, ShieldDef, SpellDef,
    WeaponDef,
};
use crate::content::{Ability, Armor, Class, Item, Monster, Race, Skill, Weapon};
use crate::state::ids::Ruleset;

/// A player character's race, class and level, as the content defined them when it joined.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharacterDef {
    pub race: Arc<RaceDef>,
    /// The class's name.
    pub class: Box<str>,
    pub level: u32,
    pub hit_die: i32,
    pub saving_throws: [Ability; 2],
    pub skills: Box<[Skill]>,
    /// The spellcasting ability; `None` for a class that does not cast.
    pub casting_ability: Option<Ability>,
    /// The class table's row for this level.
    pub at_level: ClassLevel,
    /// The class's features and the levels they come at (those above this level too, so a
    /// refusal can say when one comes).
    pub features: Box<[FeatureGrant]>,
    /// The spells known at this level.
    pub spells: Box<[SpellDef]>,
    pub proficiency: i32,
    /// Cantrip dice multiplier at this level (and Eldritch Blast's beams).
    pub cantrip_dice: u32,
}

impl CharacterDef {
    /// A `class` character of `race` at `level` (clamped to 1–20), from `content`.
    pub fn new(content: &data::Content, race: &Arc<RaceDef>, class: &data::ClassDef, level: u32) -> Self {
        let level = level.clamp(1, data::LEVELS as u32);
        Self {
            race: Arc::clone(race),
            class: class.name.clone(),
            level,
            hit_die: class.hit_die,
            saving_throws: class.saving_throws,
            skills: class.skills.clone(),
            casting_ability: class.casting_ability,
            at_level: *class.at(level),
            features: class.features.clone(),
            spells: class.known_spells(level).cloned().collect(),
            proficiency: content.levels.proficiency_bonus(level),
            cantrip_dice: content.levels.cantrip_multiplier(level),
        }
    }
}

/// What a combatant is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    Character(CharacterDef),
    Monster(Arc<MonsterDef>),
}

/// A combatant's definition for one fight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sheet {
    pub kind: Kind,
    pub weapon: Arc<WeaponDef>,
    pub off_hand: Option<Arc<WeaponDef>>,
    /// Its unarmed strike (an opportunity attack with a ranged weapon in hand, a grapple's).
    pub unarmed: Arc<WeaponDef>,
    pub armor: Arc<ArmorDef>,
    /// The shield it carries, if any.
    pub shield: Option<ShieldDef>,
    /// The consumables it can use (how many it has left is [`crate::Combatant::items`]).
    pub items: Box<[Arc<ItemDef>]>,
}

impl Sheet {
    /// A built-in character with its class's kit and a Potion of Healing's definition.
    pub fn character(race: Race, class: Class, level: u32) -> Self {
        Self::of_character(data::builtin(), race.def(), class.def(), level)
    }

    /// A character of `content`'s `race` and `class` (found there by id), with its class's kit
    /// and a Potion of Healing's definition.
    pub fn of_character(content: &data::Content, race: &Arc<RaceDef>, class: &data::ClassDef, level: u32) -> Self {
        let kit = &class.kit;
        Self {
            kind: Kind::Character(CharacterDef::new(content, race, class, level)),
            weapon: Arc::new(kit.weapon.clone()),
            off_hand: kit.off_hand.clone().map(Arc::new),
            unarmed: Arc::clone(Weapon::UNARMED.def()),
            armor: Arc::new(kit.armor.clone()),
            shield: kit.shield.then_some(content.shield),
            items: Item::POTION_OF_HEALING.builtin().map(Arc::clone).into_iter().collect(),
        }
    }

    /// A built-in monster, unarmed and unarmored (its stat block has its attacks and AC).
    pub fn monster(monster: Monster) -> Self {
        Self::of_monster(Arc::clone(monster.def()))
    }

    /// A monster of any content (built-in or a server's own).
    pub fn of_monster(def: Arc<MonsterDef>) -> Self {
        Self {
            kind: Kind::Monster(def),
            weapon: Arc::clone(Weapon::UNARMED.def()),
            off_hand: None,
            unarmed: Arc::clone(Weapon::UNARMED.def()),
            armor: Arc::clone(Armor::NONE.def()),
            shield: None,
            items: Box::new([]),
        }
    }

    pub fn character_def(&self) -> Option<&CharacterDef> {
        match &self.kind {
            Kind::Character(c) => Some(c),
            Kind::Monster(_) => None,
        }
    }

    pub fn monster_def(&self) -> Option<&MonsterDef> {
        match &self.kind {
            Kind::Monster(m) => Some(m),
            Kind::Character(_) => None,
        }
    }

    /// Whether it has a class feature under `ruleset` (TDGS grants some at other levels), or
    /// the stat-block trait of the same name (a monster's Parry).
    pub fn has_feature(&self, feature: Feature, ruleset: Ruleset) -> bool {
        match &self.kind {
            Kind::Character(c) => c.features.iter().any(|g| {
                g.feature == feature
                    && c.level
                        >= if ruleset == Ruleset::Tdgs {
                            g.tdgs_level
                        } else {
                            g.level
                        }
            }),
            Kind::Monster(m) => feature == Feature::Parry && m.parry,
        }
    }

    /// The level its class grants `feature` at under `ruleset`, if its class grants it.
    pub fn feature_level(&self, feature: Feature, ruleset: Ruleset) -> Option<u32> {
        let c = self.character_def()?;
        let g = c.features.iter().find(|g| g.feature == feature)?;
        Some(if ruleset == Ruleset::Tdgs {
            g.tdgs_level
        } else {
            g.level
        })
    }

    /// Whether its race has `t`.
    pub fn has_trait(&self, t: RaceTrait) -> bool {
        self.character_def().is_some_and(|c| c.race.has(t))
    }

    /// The spells it can cast, in its list's order.
    pub fn spells(&self) -> &[SpellDef] {
        match &self.kind {
            Kind::Character(c) => &c.spells,
            Kind::Monster(m) => &m.spells,
        }
    }

    /// The definition of a spell it knows.
    pub fn known_spell(&self, spell: crate::content::Spell) -> Option<&SpellDef> {
        self.spells().iter().find(|s| spell.names(&s.name))
    }

    /// Whether it can attack in melee at all (to make opportunity attacks): every character
    /// can, a monster with a melee attack can.
    pub fn has_melee_attack(&self) -> bool {
        match &self.kind {
            Kind::Character(_) => true,
            Kind::Monster(m) => m.attacks.iter().any(|a| !a.ranged),
        }
    }

    /// The definition of a consumable it carries.
    pub fn item(&self, item: Item) -> Option<&Arc<ItemDef>> {
        self.items.iter().find(|i| item.names(&i.name))
    }
}

/// Definitions of `items` from the built-in content (an id it does not have is left out).
pub fn builtin_items(items: &BTreeMap<Item, u32>) -> Box<[Arc<ItemDef>]> {
    items.keys().filter_map(|i| i.builtin()).map(Arc::clone).collect()
}

thread_local! {
    /// While a [`crate::state::roster`] is read on this thread: the fight's distinct sheets.
    static ROSTER: RefCell<Option<Vec<Arc<Sheet>>>> = const { RefCell::new(None) };
    /// While a [`crate::state::roster`] is written on this thread: each combatant's sheet (by address) and
    /// the index of its distinct sheet, found once by the roster.
    pub(crate) static WRITING: RefCell<Option<Vec<(*const Sheet, u32)>>> = const { RefCell::new(None) };
}

/// Restores the previous roster scope when dropped (also on a panic or an error).
pub(crate) struct Scope(Option<Vec<Arc<Sheet>>>);

impl Scope {
    pub(crate) fn enter(sheets: Vec<Arc<Sheet>>) -> Self {
        Scope(ROSTER.with(|r| r.replace(Some(sheets))))
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        let previous = self.0.take();
        ROSTER.with(|r| r.replace(previous));
    }
}

/// A combatant's `sheet` field: inside a [`crate::state::roster`], the index of its sheet in the fight's
/// list; anywhere else (a joining combatant in the command log), the sheet itself.
pub mod slot {
    use super::{Arc, Deserialize, Monster, ROSTER, Serialize, Sheet, WRITING};
    use serde::{Deserializer, Serializer, de::Error as _};

    #[derive(Serialize, Deserialize)]
    #[serde(untagged)]
    enum Slot {
        Index(u32),
        Inline(Sheet),
    }

    pub fn serialize<S: Serializer>(sheet: &Arc<Sheet>, s: S) -> Result<S::Ok, S::Error> {
        let index = WRITING.with(|w| {
            w.borrow()
                .as_ref()
                .and_then(|of| of.iter().find(|(p, _)| *p == Arc::as_ptr(sheet)).map(|&(_, i)| i))
        });
        match index {
            Some(i) => s.serialize_u32(i),
            None => sheet.serialize(s),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Arc<Sheet>, D::Error> {
        match Slot::deserialize(d)? {
            Slot::Inline(sheet) => Ok(Arc::new(sheet)),
            Slot::Index(i) => ROSTER
                .with(|r| r.borrow().as_ref().and_then(|sheets| sheets.get(i as usize).cloned()))
                .ok_or_else(|| D::Error::custom(format!("no sheet {i} in this fight"))),
        }
    }

    /// The placeholder a combatant stored without a sheet gets, until [`crate::state::roster::legacy`]
    /// rebuilds it from the content names it was stored with.
    pub fn unset() -> Arc<Sheet> {
        thread_local! {
            static UNSET: Arc<Sheet> = Arc::new(Sheet::monster(Monster::GIANT_RAT));
        }
        UNSET.with(Arc::clone)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::state::combatant::{Combatant, Controller};
    use crate::{Combat, Terrain};

    fn party_and_goblins() -> Combat {
        let mut fighters = vec![
            Combatant::character("Aria", Race::HUMAN, Class::FIGHTER, 3, Controller::Player("a".into())),
            Combatant::character("Bo", Race::HUMAN, Class::FIGHTER, 3, Controller::Player("b".into())),
        ];
        fighters[1].set_weapon(Weapon::GREATSWORD);
        let goblins = (1..=4).map(|i| Combatant::monster(&format!("Goblin {i}"), Monster::GOBLIN));
        Combat::new(fighters.into_iter().chain(goblins).collect(), Terrain::default())
    }

    #[test]
    fn commands_events_and_inventories_stored_with_the_old_enum_names_load_as_ids() {
        use crate::content::Spell;
        use crate::state::ids::CombatantId;
        use crate::{Command, Event};
        let cast: Command = serde_json::from_str(r#"{"Cast":{"spell":"HuntersMark","target":1}}"#).unwrap();
        assert_eq!(
            cast,
            Command::Cast {
                spell: Spell::HUNTERS_MARK,
                target: Some(CombatantId(1))
            }
        );
        let drink: Command = serde_json::from_str(r#"{"UseItem":{"item":"PotionOfHealing","target":null}}"#).unwrap();
        assert_eq!(
            drink,
            Command::UseItem {
                item: Item::POTION_OF_HEALING,
                target: None
            }
        );
        let event: Event =
            serde_json::from_str(r#"{"SpellCast":{"caster":0,"spell":"FireBolt","slot":null,"target":1}}"#).unwrap();
        assert_eq!(
            event,
            Event::SpellCast {
                caster: CombatantId(0),
                spell: Spell::FIRE_BOLT,
                slot: None,
                target: Some(CombatantId(1))
            }
        );
        assert_eq!(
            serde_json::to_value(&event).unwrap()["SpellCast"]["spell"],
            json!("firebolt")
        );
        let mut json = serde_json::to_value(party_and_goblins()).unwrap();
        json["combatants"]["list"][0]["items"] = json!({"PotionOfHealing": 2, "PotionOfHaste": 1});
        let back: Combat = serde_json::from_value(json).unwrap();
        let aria = &back.combatants[0];
        assert_eq!(
            aria.items,
            BTreeMap::from([(Item::POTION_OF_HEALING, 2), (Item::POTION_OF_HASTE, 1)])
        );
        assert_eq!(aria.item_name(Item::POTION_OF_HEALING), "Potion of Healing");
    }

    #[test]
    fn a_fight_stores_each_distinct_sheet_once_and_loads_back_equal() {
        let combat = party_and_goblins();
        let json = serde_json::to_value(&combat).unwrap();
        let roster = &json["combatants"];
        assert_eq!(
            roster["sheets"].as_array().unwrap().len(),
            3,
            "two fighters' gear differs; four goblins share one"
        );
        let refs: Vec<&Value> = roster["list"].as_array().unwrap().iter().map(|c| &c["sheet"]).collect();
        assert_eq!(refs, [&json!(0), &json!(1), &json!(2), &json!(2), &json!(2), &json!(2)]);
        let back: Combat = serde_json::from_value(json).unwrap();
        assert_eq!(back, combat);
        assert!(
            Arc::ptr_eq(&back.combatants[2].sheet, &back.combatants[5].sheet),
            "loaded goblins share one copy"
        );
    }

    #[test]
    fn a_stored_sheet_keeps_its_numbers_whatever_the_content_says_now() {
        let combat = party_and_goblins();
        let mut json = serde_json::to_value(&combat).unwrap();
        // A balance change after the fight was stored: goblins hit harder and have more AC today.
        let goblin = &mut json["combatants"]["sheets"][2]["kind"]["Monster"];
        goblin["armor_class"] = json!(11);
        goblin["attacks"][0]["to_hit"] = json!(2);
        let back: Combat = serde_json::from_value(json).unwrap();
        let g = &back.combatants[2];
        assert_eq!(g.armor_class(), 11, "the stored stat block, not today's (15)");
        assert_eq!(g.stat_block().unwrap().attacks[0].to_hit, 2);
        assert_eq!(Monster::GOBLIN.def().armor_class, 15);
    }

    #[test]
    fn a_joining_combatant_carries_its_sheet_inline() {
        let c = Combatant::monster("Snagtooth", Monster::GOBLIN);
        let command = crate::Command::Join {
            combatant: Box::new(c.clone()),
        };
        let json = serde_json::to_value(&command).unwrap();
        assert!(json["Join"]["combatant"]["sheet"]["kind"]["Monster"].is_object());
        let back: crate::Command = serde_json::from_value(json).unwrap();
        assert_eq!(back, command);
    }

    /// The shape fights had before sheets: a plain list, each combatant naming its content.
    fn legacy(combat: &Combat) -> Value {
        let mut json = serde_json::to_value(combat).unwrap();
        let list: Vec<Value> = json["combatants"]["list"]
            .as_array()
            .unwrap()
            .iter()
            .zip(&combat.combatants)
            .map(|(stored, c)| {
                let mut stored = stored.clone();
                let o = stored.as_object_mut().unwrap();
                o.remove("sheet");
                let kind = match &c.sheet.kind {
                    Kind::Character(ch) => json!({"Character": {
                        "race": Race::parse(&ch.race.name).unwrap(),
                        "class": Class::parse(&ch.class).unwrap(),
                        "level": ch.level,
                    }}),
                    Kind::Monster(m) => json!({"Monster": Monster::parse(&m.name).unwrap()}),
                };
                o.insert("kind".into(), kind);
                o.insert("weapon".into(), json!(Weapon::parse(&c.weapon().name).unwrap()));
                o.insert(
                    "off_hand".into(),
                    json!(c.off_hand().map(|w| Weapon::parse(&w.name).unwrap())),
                );
                o.insert("armor".into(), json!(Armor::parse(&c.armor().name).unwrap()));
                o.insert("shield".into(), json!(c.has_shield()));
                stored
            })
            .collect();
        json["combatants"] = Value::Array(list);
        json
    }

    #[test]
    fn a_fight_stored_before_sheets_loads_with_the_content_it_names() {
        let combat = party_and_goblins();
        let back: Combat = serde_json::from_value(legacy(&combat)).unwrap();
        assert_eq!(back, combat);
        let join = json!({"Join": {"combatant": legacy(&combat)["combatants"][1]}});
        let crate::Command::Join { combatant } = serde_json::from_value(join).unwrap() else {
            panic!("a join");
        };
        assert_eq!(*combatant, combat.combatants[1]);
        // Their repertoires (never stored) are worked out from the rebuilt sheets.
        let exact = |c: &Combatant| {
            let of = crate::reactions::repertoire_of(&c.sheet);
            c.repertoire.covers(of) && of.covers(c.repertoire)
        };
        assert!(back.combatants.iter().all(exact));
        assert!(exact(&combatant));
    }
}
