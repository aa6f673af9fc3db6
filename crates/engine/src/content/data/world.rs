//! The world around the fight as data (seed 000 §8's coins, materials and the inn):
//! Thom Krooke's shop stock and prices, what he pays for harvested materials and trophies, what
//! his rests cost (`shop.toml`), and the crafting recipes (`recipes.toml`). [`World::load`] reads
//! them against a loaded [`Content`] (every good, material and monster named must exist there)
//! and reports each problem with its file and line, as [`Content::load`] does.

use std::collections::{BTreeMap, HashMap};
use std::ops::{Range, RangeInclusive};

use serde::Deserialize;
use toml::Spanned;

use super::{Content, ContentError, ContentFile, Issue};
use crate::content::normalize;

/// The built-in shop and recipe files, embedded in the binary.
pub const WORLD_BUILTIN: [ContentFile<'static>; 2] = [
    ContentFile {
        path: "crates/engine/content/shop.toml",
        text: include_str!("../../../content/shop.toml"),
    },
    ContentFile {
        path: "crates/engine/content/recipes.toml",
        text: include_str!("../../../content/recipes.toml"),
    },
];

/// Prices and costs in coins.
pub const PRICE: RangeInclusive<i64> = 1..=100_000;
/// How many of a thing one recipe takes or yields.
pub const COUNT: RangeInclusive<i64> = 1..=99;
/// The name the shield goes by.
pub const SHIELD: &str = "Shield";

/// What kind of good a name is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GoodKind {
    /// A consumable (items.toml).
    Item,
    Weapon,
    Armor,
    Shield,
}

/// One good on Thom's shelves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StockDef {
    pub name: Box<str>,
    /// Other names it answers to (an item's aliases: "potion").
    pub aliases: Box<[Box<str>]>,
    pub kind: GoodKind,
    /// What it costs, in coins.
    pub price: u32,
}

/// Something brought home from an expedition, and what Thom pays for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaterialDef {
    pub name: Box<str>,
    pub price: u32,
}

/// A crafting recipe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecipeDef {
    pub name: Box<str>,
    /// The good it makes.
    pub makes: Box<str>,
    pub kind: GoodKind,
    /// How many one making yields.
    pub count: u32,
    pub coins: u32,
    /// Materials it uses, with counts, in name order.
    pub materials: Box<[(Box<str>, u32)]>,
}

/// The inn's rests: coins, not time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InnDef {
    pub short_rest: u32,
    /// Of max HP, rounded up.
    pub short_rest_heal_percent: u32,
    pub long_rest: u32,
}

/// A pet Thom sells: a companion that fights beside its owner with a monster's stat
/// block (monsters.toml), played by the game on its own turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PetDef {
    /// What the shop calls it ("Wolf pup").
    pub name: Box<str>,
    /// The monster whose stat block it fights with.
    pub monster: Box<str>,
    pub price: u32,
}

/// A room of one's own at the inn: bought once, it stores goods beyond what its owner
/// carries and gives a free long rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoomDef {
    pub price: u32,
    /// How many goods (counted one by one) its chest holds.
    pub capacity: u32,
}

/// The shop, the inn and the recipes, validated.
#[derive(Debug, Clone)]
pub struct World {
    /// Pets for sale, in file order.
    pub pets: Vec<PetDef>,
    pub room: RoomDef,
    pub stock: Vec<StockDef>,
    /// Zone materials and monster trophies, in file order (trophies after materials).
    pub materials: Vec<MaterialDef>,
    pub recipes: Vec<RecipeDef>,
    pub inn: InnDef,
    /// What Thom pays for goods, in percent of their price.
    pub sell_percent: u32,
}

/// A name as content lookups compare it: case, spaces, dashes, underscores and apostrophes
/// ignored ("giant-rat trophy" is "Giant Rat trophy").
pub fn normalize_name(name: &str) -> String {
    normalize(name)
}

fn find<'a, T>(all: &'a [T], name: impl Fn(&T) -> &str, text: &str) -> Option<&'a T> {
    let wanted = normalize(text);
    all.iter().find(|t| normalize(name(t)) == wanted)
}

impl World {
    /// The built-in shop and recipes, against `content`.
    pub fn builtin(content: &Content) -> Result<World, ContentError> {
        Self::load(&WORLD_BUILTIN, content)
    }

    /// Reads `files` (shop and recipe files, in any mix) against `content`; fails with every
    /// problem found, each naming its file and line.
    pub fn load(files: &[ContentFile<'_>], content: &Content) -> Result<World, ContentError> {
        load(files, content)
    }

    /// The good on sale by this name (case and spacing ignored).
    pub fn stock(&self, name: &str) -> Option<&StockDef> {
        let wanted = normalize(name);
        find(&self.stock, |s| &s.name, name).or_else(|| {
            self.stock
                .iter()
                .find(|s| s.aliases.iter().any(|a| normalize(a) == wanted))
        })
    }

    /// The material or trophy by this name.
    pub fn material(&self, name: &str) -> Option<&MaterialDef> {
        find(&self.materials, |m| &m.name, name)
    }

    /// The pet for sale by this name (or by its monster's).
    pub fn pet(&self, name: &str) -> Option<&PetDef> {
        find(&self.pets, |p| &p.name, name).or_else(|| find(&self.pets, |p| &p.monster, name))
    }

    /// The recipe by this name, or by the good it makes.
    pub fn recipe(&self, name: &str) -> Option<&RecipeDef> {
        find(&self.recipes, |r| &r.name, name).or_else(|| find(&self.recipes, |r| &r.makes, name))
    }

    /// What Thom pays for one good he stocks.
    pub fn buy_back(&self, good: &StockDef) -> u32 {
        good.price * self.sell_percent / 100
    }
}

// ---------------------------------------------------------------------------------------------
// The schema.

type S<T> = Spanned<T>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    shop: Option<S<RawShop>>,
    inn: Option<S<RawInn>>,
    #[serde(default)]
    stock: Vec<S<RawStock>>,
    #[serde(default)]
    material: Vec<S<RawMaterial>>,
    #[serde(default)]
    recipe: Vec<S<RawRecipe>>,
    #[serde(default)]
    pet: Vec<S<RawPet>>,
    room: Option<S<RawRoom>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPet {
    name: S<String>,
    monster: S<String>,
    price: S<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRoom {
    price: S<i64>,
    capacity: S<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawShop {
    sell_percent: S<i64>,
    trophy_coins_per_tier: S<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawInn {
    short_rest: S<i64>,
    short_rest_heal_percent: S<i64>,
    long_rest: S<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStock {
    name: S<String>,
    price: Option<S<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMaterial {
    name: S<String>,
    price: S<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRecipe {
    name: S<String>,
    makes: Option<S<String>>,
    count: Option<S<i64>>,
    coins: S<i64>,
    materials: S<BTreeMap<String, S<i64>>>,
}

// ---------------------------------------------------------------------------------------------
// Reading.

struct Report<'a> {
    files: &'a [ContentFile<'a>],
    issues: Vec<Issue>,
    file: usize,
}

impl Report<'_> {
    fn err(&mut self, span: &Range<usize>, message: impl Into<String>) {
        let text = self.files[self.file].text;
        let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
        self.issues.push(Issue {
            file: self.files[self.file].path.to_owned(),
            line,
            message: message.into(),
        });
    }

    /// A number in `range`, or a problem saying the range.
    fn number(&mut self, what: &str, value: &S<i64>, range: RangeInclusive<i64>) -> Option<u32> {
        let n = *value.get_ref();
        if range.contains(&n) {
            u32::try_from(n).ok()
        } else {
            self.err(
                &value.span(),
                format!("{what} is {n}; it must be from {} to {}", range.start(), range.end()),
            );
            None
        }
    }
}

/// Names the goods the content defines: items, weapons (not the unarmed strike), armor (not
/// "No armor") and the shield.
fn good_kind(content: &Content, name: &str) -> Option<(Box<str>, GoodKind, Option<u32>)> {
    if let Some(item) = content.items.get(name) {
        return Some((item.name.clone(), GoodKind::Item, Some(item.price)));
    }
    if let Some(w) = content
        .weapons
        .get(name)
        .filter(|w| w.weight_lb > 0 || w.damage.count > 0)
    {
        return Some((Box::from(&*w.name), GoodKind::Weapon, None));
    }
    if let Some(a) = content.armor.get(name).filter(|a| a.weight_lb > 0) {
        return Some((a.name.clone(), GoodKind::Armor, None));
    }
    (normalize(name) == normalize(SHIELD)).then(|| (SHIELD.into(), GoodKind::Shield, None))
}

fn goods_list(content: &Content) -> String {
    let mut names: Vec<&str> = content.items.all().iter().map(|i| &*i.name).collect();
    names.extend(
        content
            .weapons
            .all()
            .iter()
            .filter(|w| w.weight_lb > 0 || w.damage.count > 0)
            .map(|w| &*w.name),
    );
    names.extend(content.armor.all().iter().filter(|a| a.weight_lb > 0).map(|a| &*a.name));
    names.push(SHIELD);
    names.join(", ")
}

#[allow(
    clippy::too_many_lines,
    reason = "one section per world table (shop, inn, recipes), each checked field by field"
)]
fn load(files: &[ContentFile<'_>], content: &Content) -> Result<World, ContentError> {
    let mut r = Report {
        files,
        issues: Vec::new(),
        file: 0,
    };
    let mut parsed = Vec::new();
    for (i, file) in files.iter().enumerate() {
        r.file = i;
        match toml::from_str::<RawFile>(file.text) {
            Ok(raw) => parsed.push((i, raw)),
            Err(e) => r.err(&e.span().unwrap_or(0..0), e.message().trim().to_owned()),
        }
    }
    let mut shop = None;
    let mut inn = None;
    let mut stock: Vec<StockDef> = Vec::new();
    let mut materials: Vec<MaterialDef> = Vec::new();
    let mut recipes_raw = Vec::new();
    let mut pets: Vec<PetDef> = Vec::new();
    let mut room = None;
    let mut seen: HashMap<(&'static str, String), String> = HashMap::new();
    let mut first = |r: &mut Report, kind: &'static str, name: &S<String>| -> bool {
        let at = format!("{}:{}", r.files[r.file].path, {
            let text = r.files[r.file].text;
            text[..name.span().start.min(text.len())].matches('\n').count() + 1
        });
        if let Some(before) = seen.get(&(kind, normalize(name.get_ref()))) {
            r.err(
                &name.span(),
                format!("{kind} \"{}\" is defined twice (first at {before})", name.get_ref()),
            );
            return false;
        }
        seen.insert((kind, normalize(name.get_ref())), at);
        true
    };
    for (i, raw) in &parsed {
        r.file = *i;
        if let Some(s) = &raw.shop {
            if shop.is_some() {
                r.err(&s.span(), "[shop] is defined twice; give it once");
            } else {
                let s = s.get_ref();
                let sell = r.number("sell_percent", &s.sell_percent, 0..=100);
                let trophy = r.number("trophy_coins_per_tier", &s.trophy_coins_per_tier, 0..=10_000);
                if let (Some(sell), Some(trophy)) = (sell, trophy) {
                    shop = Some((sell, trophy));
                }
            }
        }
        if let Some(n) = &raw.inn {
            if inn.is_some() {
                r.err(&n.span(), "[inn] is defined twice; give it once");
            } else {
                let n = n.get_ref();
                let short = r.number("short_rest", &n.short_rest, PRICE);
                let heal = r.number("short_rest_heal_percent", &n.short_rest_heal_percent, 1..=100);
                let long = r.number("long_rest", &n.long_rest, PRICE);
                if let (Some(short_rest), Some(short_rest_heal_percent), Some(long_rest)) = (short, heal, long) {
                    inn = Some(InnDef {
                        short_rest,
                        short_rest_heal_percent,
                        long_rest,
                    });
                }
            }
        }
        for entry in &raw.stock {
            let s = entry.get_ref();
            if !first(&mut r, "stock", &s.name) {
                continue;
            }
            let Some((name, kind, listed)) = good_kind(content, s.name.get_ref()) else {
                r.err(
                    &s.name.span(),
                    format!(
                        "there is no good called \"{}\"; goods are {}",
                        s.name.get_ref(),
                        goods_list(content)
                    ),
                );
                continue;
            };
            let price = match (&s.price, listed) {
                (Some(p), _) => r.number("price", p, PRICE),
                (None, Some(p)) => Some(p),
                (None, None) => {
                    r.err(&entry.span(), format!("stock \"{name}\" needs a price (coins)"));
                    None
                }
            };
            if let Some(price) = price {
                let aliases = content.items.get(&name).map(|i| i.aliases.clone()).unwrap_or_default();
                stock.push(StockDef {
                    name,
                    aliases,
                    kind,
                    price,
                });
            }
        }
        for entry in &raw.material {
            let m = entry.get_ref();
            if !first(&mut r, "material", &m.name) {
                continue;
            }
            let known = content
                .zones
                .all()
                .iter()
                .any(|z| normalize(&z.material) == normalize(m.name.get_ref()));
            if !known {
                r.err(
                    &m.name.span(),
                    format!(
                        "\"{}\" is no zone's material; the zones yield {}",
                        m.name.get_ref(),
                        content
                            .zones
                            .all()
                            .iter()
                            .map(|z| &*z.material)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
                continue;
            }
            if let Some(price) = r.number("price", &m.price, PRICE) {
                materials.push(MaterialDef {
                    name: m.name.get_ref().as_str().into(),
                    price,
                });
            }
        }
        for entry in &raw.recipe {
            if first(&mut r, "recipe", &entry.get_ref().name) {
                recipes_raw.push((*i, entry));
            }
        }
        for entry in &raw.pet {
            let p = entry.get_ref();
            if !first(&mut r, "pet", &p.name) {
                continue;
            }
            let Some(monster) = content.monsters.get(p.monster.get_ref()) else {
                r.err(
                    &p.monster.span(),
                    format!(
                        "pet \"{}\" fights as \"{}\", which is no monster; monsters are {}",
                        p.name.get_ref(),
                        p.monster.get_ref(),
                        content
                            .monsters
                            .all()
                            .iter()
                            .map(|m| &*m.name)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
                continue;
            };
            if let Some(price) = r.number("price", &p.price, PRICE) {
                pets.push(PetDef {
                    name: p.name.get_ref().as_str().into(),
                    monster: monster.name.clone(),
                    price,
                });
            }
        }
        if let Some(n) = &raw.room {
            if room.is_some() {
                r.err(&n.span(), "[room] is defined twice; give it once");
            } else {
                let n = n.get_ref();
                let price = r.number("price", &n.price, PRICE);
                let capacity = r.number("capacity", &n.capacity, 1..=1_000);
                if let (Some(price), Some(capacity)) = (price, capacity) {
                    room = Some(RoomDef { price, capacity });
                }
            }
        }
    }
    let room = room.unwrap_or_else(|| {
        if r.issues.is_empty() {
            r.file = 0;
            r.err(&(0..0), "no file gives [room] (price, capacity)");
        }
        RoomDef { price: 0, capacity: 0 }
    });
    let (sell_percent, trophy) = shop.unwrap_or_else(|| {
        if r.issues.is_empty() {
            r.file = 0;
            r.err(&(0..0), "no file gives [shop] (sell_percent, trophy_coins_per_tier)");
        }
        (0, 0)
    });
    let inn = inn.unwrap_or_else(|| {
        if r.issues.is_empty() {
            r.file = 0;
            r.err(
                &(0..0),
                "no file gives [inn] (short_rest, short_rest_heal_percent, long_rest)",
            );
        }
        InnDef {
            short_rest: 0,
            short_rest_heal_percent: 0,
            long_rest: 0,
        }
    });
    for zone in content.zones.all() {
        if find(&materials, |m| &m.name, &zone.material).is_none() && r.issues.is_empty() {
            r.file = 0;
            r.err(
                &(0..0),
                format!(
                    "{}'s material \"{}\" has no [[material]] price",
                    zone.name, zone.material
                ),
            );
        }
    }
    for monster in content.monsters.all() {
        materials.push(MaterialDef {
            name: format!("{} trophy", monster.name).into(),
            price: trophy * u32::from(monster.tier),
        });
    }
    let mut recipes = Vec::new();
    for (i, entry) in recipes_raw {
        r.file = i;
        let raw = entry.get_ref();
        let wanted = raw.makes.as_ref().unwrap_or(&raw.name);
        let Some((makes, kind, _)) = good_kind(content, wanted.get_ref()) else {
            r.err(
                &wanted.span(),
                format!(
                    "recipe \"{}\" makes \"{}\", which is no good; goods are {} (give `makes` when the name is not a good)",
                    raw.name.get_ref(),
                    wanted.get_ref(),
                    goods_list(content)
                ),
            );
            continue;
        };
        let count = raw.count.as_ref().map_or(Some(1), |c| r.number("count", c, COUNT));
        let coins = r.number("coins", &raw.coins, 0..=*PRICE.end());
        let mut uses = Vec::new();
        if raw.materials.get_ref().is_empty() {
            r.err(&raw.materials.span(), "a recipe needs at least one material");
        }
        for (name, n) in raw.materials.get_ref() {
            let known = find(&materials, |m| &m.name, name)
                .map(|m| m.name.clone())
                .or_else(|| find(content.zones.all(), |z| &z.material, name).map(|z| z.material.clone()));
            let Some(known) = known else {
                r.err(
                    &n.span(),
                    format!(
                        "\"{name}\" is no material; materials are the zones' ({}) and trophies (\"Goblin trophy\")",
                        content
                            .zones
                            .all()
                            .iter()
                            .map(|z| &*z.material)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
                continue;
            };
            if let Some(n) = r.number(&format!("the count of {name}"), n, COUNT) {
                uses.push((known, n));
            }
        }
        if let (Some(count), Some(coins)) = (count, coins) {
            recipes.push(RecipeDef {
                name: raw.name.get_ref().as_str().into(),
                makes,
                kind,
                count,
                coins,
                materials: uses.into(),
            });
        }
    }
    if r.issues.is_empty() {
        Ok(World {
            pets,
            room,
            stock,
            materials,
            recipes,
            inn,
            sell_percent,
        })
    } else {
        Err(ContentError { issues: r.issues })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content() -> Content {
        Content::builtin().expect("the built-in content loads")
    }

    fn problems(extra: &str) -> Vec<String> {
        let mut files = WORLD_BUILTIN.to_vec();
        files.push(ContentFile {
            path: "homebrew/world.toml",
            text: extra,
        });
        match World::load(&files, &content()) {
            Ok(_) => Vec::new(),
            Err(e) => e.issues.iter().map(ToString::to_string).collect(),
        }
    }

    #[test]
    fn the_builtin_shop_and_recipes_load_with_their_prices() {
        let world = World::builtin(&content()).unwrap();
        let potion = world.stock("potion of healing").unwrap();
        assert_eq!(world.stock("potion"), Some(potion), "an item's alias");
        assert_eq!((potion.price, potion.kind), (50, GoodKind::Item), "items.toml's price");
        assert_eq!(world.stock("Longsword").unwrap().price, 30);
        assert_eq!(world.stock("shield").unwrap().kind, GoodKind::Shield);
        assert_eq!(world.buy_back(potion), 25, "half the price");
        assert_eq!(world.material("Shadow moss").unwrap().price, 3);
        assert_eq!(world.material("goblin trophy").unwrap().price, 4, "tier 1 × 4");
        assert_eq!(world.material("Young Red Dragon trophy").unwrap().price, 20);
        let recipe = world.recipe("Forged longsword").unwrap();
        assert_eq!(
            (&*recipe.makes, recipe.kind, recipe.coins),
            ("Longsword", GoodKind::Weapon, 10)
        );
        assert_eq!(&*recipe.materials, &[("Slag iron".into(), 3)]);
        assert_eq!(
            world.recipe("longsword").unwrap().name,
            recipe.name,
            "found by what it makes"
        );
        assert_eq!((world.inn.short_rest, world.inn.long_rest), (5, 20));
    }

    #[test]
    fn every_zone_material_has_a_price() {
        let content = content();
        let world = World::builtin(&content).unwrap();
        for zone in content.zones.all() {
            assert!(world.material(&zone.material).is_some(), "{}", zone.name);
        }
    }

    #[test]
    fn an_unknown_good_names_its_line_and_the_goods() {
        let p = problems("\n[[stock]]\nname = \"Vorpal sword\"\nprice = 5\n");
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(
            p[0].starts_with("homebrew/world.toml:3: there is no good called \"Vorpal sword\""),
            "{p:?}"
        );
        assert!(
            p[0].contains("Longsword") && p[0].contains("Potion of Healing"),
            "{p:?}"
        );
    }

    #[test]
    fn gear_on_sale_needs_a_price_and_prices_are_in_range() {
        let p = problems("[[recipe]]\nname = \"x\"\nmakes = \"Dagger\"\ncoins = 0\nmaterials = { \"Glowcap\" = 0 }\n");
        assert_eq!(
            p,
            ["homebrew/world.toml:5: the count of Glowcap is 0; it must be from 1 to 99"]
        );
        let mut files = vec![ContentFile {
            path: "shop.toml",
            text: "[shop]\nsell_percent = 150\ntrophy_coins_per_tier = 1\n[inn]\nshort_rest = 1\nshort_rest_heal_percent = 50\nlong_rest = 2\n[[stock]]\nname = \"Mace\"\n",
        }];
        files.push(WORLD_BUILTIN[1]);
        let e = World::load(&files, &content()).unwrap_err();
        let p: Vec<String> = e.issues.iter().map(ToString::to_string).collect();
        assert_eq!(
            p,
            [
                "shop.toml:2: sell_percent is 150; it must be from 0 to 100",
                "shop.toml:8: stock \"Mace\" needs a price (coins)",
            ]
        );
    }

    #[test]
    fn a_recipe_needs_known_materials_and_a_good_to_make() {
        let p = problems("[[recipe]]\nname = \"Moon pie\"\ncoins = 1\nmaterials = { \"Moon dust\" = 1 }\n");
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(
            p[0].starts_with("homebrew/world.toml:2: recipe \"Moon pie\" makes \"Moon pie\", which is no good"),
            "{p:?}"
        );
        let p = problems(
            "[[recipe]]\nname = \"Cheap dagger\"\nmakes = \"Dagger\"\ncoins = 1\nmaterials = { \"Moon dust\" = 1 }\n",
        );
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(
            p[0].starts_with("homebrew/world.toml:5: \"Moon dust\" is no material"),
            "{p:?}"
        );
    }

    #[test]
    fn duplicates_unknown_fields_and_non_zone_materials_are_refused() {
        let p = problems("[[stock]]\nname = \"antitoxin\"\n");
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(
            p[0].starts_with(
                "homebrew/world.toml:2: stock \"antitoxin\" is defined twice (first at crates/engine/content/shop.toml:"
            ),
            "{p:?}"
        );
        let p = problems("[[material]]\nname = \"Gold\"\nprice = 1\n");
        assert!(
            p[0].starts_with("homebrew/world.toml:2: \"Gold\" is no zone's material"),
            "{p:?}"
        );
        let p = problems("[[stock]]\nname = \"Club\"\ncost = 1\n");
        assert!(
            p[0].starts_with("homebrew/world.toml:3:") && p[0].contains("unknown field `cost`"),
            "{p:?}"
        );
    }
}
