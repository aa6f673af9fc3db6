//! Names of content entries: how commands, events, inventories, stored fights and tests name a
//! race, class, weapon, armor, spell, item, monster or zone, built in or a server's own. A name
//! is an id (`super::id`): the entry's name with case, spaces and punctuation dropped, so the
//! enum variants fights were stored with before ids (`"GiantRat"`, `"HalfElf"`) read as the same
//! ids. What an entry *is* lives in the content files alone (`super::data`); the constants name
//! the built-in entries the rules and tests refer to.

use std::sync::Arc;

use super::data::{self, ArmorDef, ClassDef, ItemDef, MonsterDef, RaceDef, SpellDef, WeaponDef, ZoneDef};
use super::id::id_type;

/// What every name of a built-in kind can do: find its definition among the built-in content,
/// list the built-ins, parse a player's words.
macro_rules! builtin_names {
    ($name:ident, $table:ident, $def:ty) => {
        impl $name {
            /// Its definition in the built-in content, if it is a built-in entry.
            pub fn builtin(self) -> Option<&'static Arc<$def>> {
                data::builtin().$table.get(self.as_str())
            }

            /// Its built-in definition (the data the rules read); a name that is not built in is
            /// a bug in the code that wrote it.
            pub fn def(self) -> &'static Arc<$def> {
                match self.builtin() {
                    Some(def) => def,
                    None => panic!("the built-in content has no {} `{}`", stringify!($name), self),
                }
            }

            /// Its built-in entry's name.
            pub fn name(self) -> &'static str {
                &self.def().name
            }

            /// What to call it without a sheet at hand: the built-in entry's name, else its id.
            pub fn label(self) -> String {
                self.builtin()
                    .map_or_else(|| self.as_str().to_owned(), |d| d.name.to_string())
            }

            /// The built-in entry named or aliased `text` (case, spaces and punctuation ignored).
            pub fn parse(text: &str) -> Option<$name> {
                data::builtin()
                    .$table
                    .get(text)
                    .and_then(|d| $name::named(&d.name))
            }

            /// Every built-in entry of its kind, in the order the content files give them.
            pub fn all() -> Vec<$name> {
                data::builtin()
                    .$table
                    .all()
                    .iter()
                    .filter_map(|d| $name::named(&d.name))
                    .collect()
            }
        }
    };
}
id_type! {
    /// A race's id: the normalised name of a race of the content (`"Half-Elf"` → `halfelf`).
    Race
}
builtin_names!(Race, races, RaceDef);

impl Race {
    pub const HUMAN: Race = Race::known("human");
    pub const ELF: Race = Race::known("elf");
    pub const DWARF: Race = Race::known("dwarf");
    pub const HALFLING: Race = Race::known("halfling");
    pub const ORC: Race = Race::known("orc");
    pub const TIEFLING: Race = Race::known("tiefling");
    pub const HALF_ELF: Race = Race::known("halfelf");
}

id_type! {
    /// A class's id (`"Fighter"` → `fighter`).
    Class
}
builtin_names!(Class, classes, ClassDef);

impl Class {
    pub const FIGHTER: Class = Class::known("fighter");
    pub const ROGUE: Class = Class::known("rogue");
    pub const RANGER: Class = Class::known("ranger");
    pub const CLERIC: Class = Class::known("cleric");
    pub const MAGE: Class = Class::known("mage");
    pub const BERSERKER: Class = Class::known("berserker");
}

id_type! {
    /// A weapon's id (`"Light Crossbow"` → `lightcrossbow`).
    Weapon, renamed { "unarmed" => "unarmedstrike" }
}
builtin_names!(Weapon, weapons, WeaponDef);

impl Weapon {
    pub const UNARMED: Weapon = Weapon::known("unarmedstrike");
    pub const DAGGER: Weapon = Weapon::known("dagger");
    pub const SHORTSWORD: Weapon = Weapon::known("shortsword");
    pub const SCIMITAR: Weapon = Weapon::known("scimitar");
    pub const HANDAXE: Weapon = Weapon::known("handaxe");
    pub const RAPIER: Weapon = Weapon::known("rapier");
    pub const LONGSWORD: Weapon = Weapon::known("longsword");
    pub const MACE: Weapon = Weapon::known("mace");
    pub const WARHAMMER: Weapon = Weapon::known("warhammer");
    pub const GREATAXE: Weapon = Weapon::known("greataxe");
    pub const GREATSWORD: Weapon = Weapon::known("greatsword");
    pub const QUARTERSTAFF: Weapon = Weapon::known("quarterstaff");
    pub const SHORTBOW: Weapon = Weapon::known("shortbow");
    pub const LONGBOW: Weapon = Weapon::known("longbow");
    pub const LIGHT_CROSSBOW: Weapon = Weapon::known("lightcrossbow");
}

id_type! {
    /// An armor's id (`"Chain Mail"` → `chainmail`; `noarmor`: none worn).
    Armor, renamed { "none" => "noarmor", "leather" => "leatherarmor", "plate" => "platearmor" }
}
builtin_names!(Armor, armor, ArmorDef);

impl Armor {
    pub const NONE: Armor = Armor::known("noarmor");
    pub const LEATHER: Armor = Armor::known("leatherarmor");
    pub const STUDDED_LEATHER: Armor = Armor::known("studdedleather");
    pub const CHAIN_SHIRT: Armor = Armor::known("chainshirt");
    pub const SCALE_MAIL: Armor = Armor::known("scalemail");
    pub const CHAIN_MAIL: Armor = Armor::known("chainmail");
    pub const PLATE: Armor = Armor::known("platearmor");
}

id_type! {
    /// A monster's id (`"Giant Rat"` → `giantrat`).
    Monster
}
builtin_names!(Monster, monsters, MonsterDef);

impl Monster {
    pub const GIANT_RAT: Monster = Monster::known("giantrat");
    pub const GOBLIN: Monster = Monster::known("goblin");
    pub const KOBOLD: Monster = Monster::known("kobold");
    pub const WOLF: Monster = Monster::known("wolf");
    pub const SKELETON: Monster = Monster::known("skeleton");
    pub const ZOMBIE: Monster = Monster::known("zombie");
    pub const ORC: Monster = Monster::known("orc");
    pub const HOBGOBLIN: Monster = Monster::known("hobgoblin");
    pub const GHOUL: Monster = Monster::known("ghoul");
    pub const BANDIT_CAPTAIN: Monster = Monster::known("banditcaptain");
    pub const BUGBEAR: Monster = Monster::known("bugbear");
    pub const QUICKLING: Monster = Monster::known("quickling");
    pub const DROW_MAGE: Monster = Monster::known("drowmage");
    pub const OGRE: Monster = Monster::known("ogre");
    pub const TROLL: Monster = Monster::known("troll");
    pub const RED_DRAGON_WYRMLING: Monster = Monster::known("reddragonwyrmling");
    pub const VROCK: Monster = Monster::known("vrock");
    pub const YOUNG_RED_DRAGON: Monster = Monster::known("youngreddragon");
}

id_type! {
    /// A spell's id (`"Fire Bolt"` → `firebolt`).
    Spell
}
builtin_names!(Spell, spells, SpellDef);

impl Spell {
    pub const FIRE_BOLT: Spell = Spell::known("firebolt");
    pub const SACRED_FLAME: Spell = Spell::known("sacredflame");
    pub const ELDRITCH_BLAST: Spell = Spell::known("eldritchblast");
    pub const MAGIC_MISSILE: Spell = Spell::known("magicmissile");
    pub const CURE_WOUNDS: Spell = Spell::known("curewounds");
    pub const HEALING_WORD: Spell = Spell::known("healingword");
    pub const HUNTERS_MARK: Spell = Spell::known("huntersmark");
    pub const ENTANGLE: Spell = Spell::known("entangle");
    pub const WEB: Spell = Spell::known("web");
    pub const MISTY_STEP: Spell = Spell::known("mistystep");
    pub const HASTE: Spell = Spell::known("haste");
    pub const FIREBALL: Spell = Spell::known("fireball");
    pub const COUNTERSPELL: Spell = Spell::known("counterspell");
}

id_type! {
    /// A consumable's id (`"Potion of Healing"` → `potionofhealing`).
    Item
}
builtin_names!(Item, items, ItemDef);

impl Item {
    pub const POTION_OF_HEALING: Item = Item::known("potionofhealing");
    pub const POTION_OF_GREATER_HEALING: Item = Item::known("potionofgreaterhealing");
    pub const POTION_OF_HASTE: Item = Item::known("potionofhaste");
    pub const SCROLL_OF_MAGIC_MISSILE: Item = Item::known("scrollofmagicmissile");
    pub const ANTITOXIN: Item = Item::known("antitoxin");
    pub const NET: Item = Item::known("net");
}

id_type! {
    /// A zone's id (`"Dragon's Lair"` → `dragonslair`).
    Zone
}
builtin_names!(Zone, zones, ZoneDef);

impl Zone {
    pub const FOREST_OF_SHADOWS: Zone = Zone::known("forestofshadows");
    pub const SUNKEN_TEMPLE: Zone = Zone::known("sunkentemple");
    pub const HAUNTED_MANOR: Zone = Zone::known("hauntedmanor");
    pub const UNDERFORGE: Zone = Zone::known("underforge");
    pub const UNDERDARK: Zone = Zone::known("underdark");
    pub const FEYWILD_CROSSING: Zone = Zone::known("feywildcrossing");
    pub const DRAGONS_LAIR: Zone = Zone::known("dragonslair");
    pub const ABYSS_PORTAL: Zone = Zone::known("abyssportal");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_constant_names_a_built_in_entry() {
        assert!(Race::HUMAN.builtin().is_some(), "Race::HUMAN");
        assert!(Race::ELF.builtin().is_some(), "Race::ELF");
        assert!(Race::DWARF.builtin().is_some(), "Race::DWARF");
        assert!(Race::HALFLING.builtin().is_some(), "Race::HALFLING");
        assert!(Race::ORC.builtin().is_some(), "Race::ORC");
        assert!(Race::TIEFLING.builtin().is_some(), "Race::TIEFLING");
        assert!(Race::HALF_ELF.builtin().is_some(), "Race::HALF_ELF");
        assert!(Class::FIGHTER.builtin().is_some(), "Class::FIGHTER");
        assert!(Class::ROGUE.builtin().is_some(), "Class::ROGUE");
        assert!(Class::RANGER.builtin().is_some(), "Class::RANGER");
        assert!(Class::CLERIC.builtin().is_some(), "Class::CLERIC");
        assert!(Class::MAGE.builtin().is_some(), "Class::MAGE");
        assert!(Class::BERSERKER.builtin().is_some(), "Class::BERSERKER");
        assert!(Weapon::UNARMED.builtin().is_some(), "Weapon::UNARMED");
        assert!(Weapon::DAGGER.builtin().is_some(), "Weapon::DAGGER");
        assert!(Weapon::SHORTSWORD.builtin().is_some(), "Weapon::SHORTSWORD");
        assert!(Weapon::SCIMITAR.builtin().is_some(), "Weapon::SCIMITAR");
        assert!(Weapon::HANDAXE.builtin().is_some(), "Weapon::HANDAXE");
        assert!(Weapon::RAPIER.builtin().is_some(), "Weapon::RAPIER");
        assert!(Weapon::LONGSWORD.builtin().is_some(), "Weapon::LONGSWORD");
        assert!(Weapon::MACE.builtin().is_some(), "Weapon::MACE");
        assert!(Weapon::WARHAMMER.builtin().is_some(), "Weapon::WARHAMMER");
        assert!(Weapon::GREATAXE.builtin().is_some(), "Weapon::GREATAXE");
        assert!(Weapon::GREATSWORD.builtin().is_some(), "Weapon::GREATSWORD");
        assert!(Weapon::QUARTERSTAFF.builtin().is_some(), "Weapon::QUARTERSTAFF");
        assert!(Weapon::SHORTBOW.builtin().is_some(), "Weapon::SHORTBOW");
        assert!(Weapon::LONGBOW.builtin().is_some(), "Weapon::LONGBOW");
        assert!(Weapon::LIGHT_CROSSBOW.builtin().is_some(), "Weapon::LIGHT_CROSSBOW");
        assert!(Armor::NONE.builtin().is_some(), "Armor::NONE");
        assert!(Armor::LEATHER.builtin().is_some(), "Armor::LEATHER");
        assert!(Armor::STUDDED_LEATHER.builtin().is_some(), "Armor::STUDDED_LEATHER");
        assert!(Armor::CHAIN_SHIRT.builtin().is_some(), "Armor::CHAIN_SHIRT");
        assert!(Armor::SCALE_MAIL.builtin().is_some(), "Armor::SCALE_MAIL");
        assert!(Armor::CHAIN_MAIL.builtin().is_some(), "Armor::CHAIN_MAIL");
        assert!(Armor::PLATE.builtin().is_some(), "Armor::PLATE");
        assert!(Monster::GIANT_RAT.builtin().is_some(), "Monster::GIANT_RAT");
        assert!(Monster::GOBLIN.builtin().is_some(), "Monster::GOBLIN");
        assert!(Monster::KOBOLD.builtin().is_some(), "Monster::KOBOLD");
        assert!(Monster::WOLF.builtin().is_some(), "Monster::WOLF");
        assert!(Monster::SKELETON.builtin().is_some(), "Monster::SKELETON");
        assert!(Monster::ZOMBIE.builtin().is_some(), "Monster::ZOMBIE");
        assert!(Monster::ORC.builtin().is_some(), "Monster::ORC");
        assert!(Monster::HOBGOBLIN.builtin().is_some(), "Monster::HOBGOBLIN");
        assert!(Monster::GHOUL.builtin().is_some(), "Monster::GHOUL");
        assert!(Monster::BANDIT_CAPTAIN.builtin().is_some(), "Monster::BANDIT_CAPTAIN");
        assert!(Monster::BUGBEAR.builtin().is_some(), "Monster::BUGBEAR");
        assert!(Monster::QUICKLING.builtin().is_some(), "Monster::QUICKLING");
        assert!(Monster::DROW_MAGE.builtin().is_some(), "Monster::DROW_MAGE");
        assert!(Monster::OGRE.builtin().is_some(), "Monster::OGRE");
        assert!(Monster::TROLL.builtin().is_some(), "Monster::TROLL");
        assert!(
            Monster::RED_DRAGON_WYRMLING.builtin().is_some(),
            "Monster::RED_DRAGON_WYRMLING"
        );
        assert!(Monster::VROCK.builtin().is_some(), "Monster::VROCK");
        assert!(
            Monster::YOUNG_RED_DRAGON.builtin().is_some(),
            "Monster::YOUNG_RED_DRAGON"
        );
        for spell in [
            Spell::FIRE_BOLT,
            Spell::HUNTERS_MARK,
            Spell::COUNTERSPELL,
            Spell::HASTE,
            Spell::WEB,
        ] {
            assert!(spell.builtin().is_some(), "{spell}");
        }
        for item in [
            Item::POTION_OF_HEALING,
            Item::NET,
            Item::ANTITOXIN,
            Item::SCROLL_OF_MAGIC_MISSILE,
        ] {
            assert!(item.builtin().is_some(), "{item}");
        }
        for zone in Zone::all() {
            assert!(zone.builtin().is_some());
        }
    }

    #[test]
    fn a_name_parses_by_name_or_alias_and_reads_the_enum_variant_fights_were_stored_with() {
        assert_eq!(Monster::parse("rat"), Some(Monster::GIANT_RAT));
        assert_eq!(Monster::parse("red dragon"), Some(Monster::YOUNG_RED_DRAGON));
        assert_eq!(Class::parse("wizard"), Some(Class::MAGE));
        assert_eq!(Race::parse("half elf"), Some(Race::HALF_ELF));
        assert_eq!(Race::HALF_ELF.name(), "Half-Elf");
        assert_eq!(Spell::HUNTERS_MARK.name(), "Hunter's Mark");
        assert_eq!(Spell::known("wish").builtin(), None);
        let stored: Monster = serde_json::from_str("\"RedDragonWyrmling\"").unwrap();
        assert_eq!(stored, Monster::RED_DRAGON_WYRMLING);
        let stored: Armor = serde_json::from_str("\"ChainMail\"").unwrap();
        assert_eq!(stored, Armor::CHAIN_MAIL);
        // Variants named otherwise than their entry read back as the entry's id.
        for (variant, armor) in [
            ("None", Armor::NONE),
            ("Leather", Armor::LEATHER),
            ("Plate", Armor::PLATE),
        ] {
            let stored: Armor = serde_json::from_str(&format!("\"{variant}\"")).unwrap();
            assert_eq!(stored, armor);
        }
        let stored: Weapon = serde_json::from_str("\"Unarmed\"").unwrap();
        assert_eq!(stored, Weapon::UNARMED);
        assert_eq!(
            serde_json::to_string(&Weapon::LIGHT_CROSSBOW).unwrap(),
            "\"lightcrossbow\""
        );
        assert_eq!(Monster::all().len(), data::builtin().monsters.len());
    }
}
