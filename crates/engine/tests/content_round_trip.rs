//! Content round-trips (docs/content.md): a random homebrew monster, spell, item and status —
//! drawn from the whole vocabulary (several damage parts, defences, saves, speeds, reactions,
//! auras, innate spells, legendary actions, Regeneration, creature types, temporary hit points) —
//! loads, and each definition written out as a stored fight writes it (JSON) reads back equal;
//! a combatant of the monster, and a fight holding it, read back equal too, so a stored fight
//! keeps every field the content gave it.

mod common;

use engine::content::data::{ItemDef, MonsterDef, SpellDef, StatusDef};
use engine::{Combat, Combatant, Terrain};
use std::fmt::Write as _;

use proptest::prelude::*;
use proptest::sample::{select, subsequence};

const DAMAGE_TYPES: [&str; 13] = [
    "acid",
    "bludgeoning",
    "cold",
    "fire",
    "force",
    "lightning",
    "necrotic",
    "piercing",
    "poison",
    "psychic",
    "radiant",
    "slashing",
    "thunder",
];
const CONDITIONS: [&str; 6] = ["frightened", "poisoned", "prone", "restrained", "paralyzed", "stunned"];
const CREATURE_TYPES: [&str; 5] = ["humanoid", "beast", "undead", "fiend", "dragon"];
const ABILITIES: [&str; 6] = ["str", "dex", "con", "int", "wis", "cha"];

fn dice() -> impl Strategy<Value = String> {
    (1u32..=6, select(vec![4u32, 6, 8, 10, 12]), 0i32..=6).prop_map(|(n, s, b)| {
        if b == 0 {
            format!("{n}d{s}")
        } else {
            format!("{n}d{s}+{b}")
        }
    })
}

fn attack(i: usize) -> impl Strategy<Value = String> {
    (
        -2i32..=14,
        dice(),
        select(DAMAGE_TYPES.to_vec()),
        any::<bool>(),
        proptest::option::of((dice(), select(DAMAGE_TYPES.to_vec()))),
    )
        .prop_map(move |(to_hit, damage, kind, ranged, extra)| {
            let extra = extra.map_or(String::new(), |(d, t)| {
                format!(", extra = [{{ damage = \"{d}\", type = \"{t}\" }}]")
            });
            format!(
                "{{ name = \"Strike {i}\", to_hit = {to_hit}, damage = \"{damage}\", type = \"{kind}\", ranged = {ranged}{extra} }}"
            )
        })
}

fn reaction() -> impl Strategy<Value = String> {
    (
        select(vec!["hit", "melee hit", "ranged hit"]),
        prop_oneof![
            (1i32..=5).prop_map(|ac| format!("ac = {ac}")),
            dice().prop_map(|d| format!("reduce = \"{d}\"")),
            Just("half = true".to_owned()),
        ],
    )
        .prop_map(|(on, effect)| format!("{{ name = \"Guard\", on = \"{on}\", {effect} }}"))
}

fn list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|i| format!("\"{i}\"")).collect();
    format!("[{}]", quoted.join(", "))
}

prop_compose! {
    fn homebrew()(
        hp in dice(),
        ac in 1i32..=30,
        tier in 1u8..=5,
        abilities in proptest::array::uniform6(1i32..=30),
        attacks in (1usize..=3).prop_flat_map(|n| (0..n).map(attack).collect::<Vec<_>>()),
        resist in subsequence(DAMAGE_TYPES.to_vec(), 0..3),
        immune in subsequence(CONDITIONS.to_vec(), 0..3),
        saves in subsequence(ABILITIES.to_vec(), 0..3),
        fly in proptest::option::of(10i32..=120),
        reactions in proptest::collection::vec(reaction(), 0..=2),
        creature in proptest::option::of(select(CREATURE_TYPES.to_vec())),
        innate in any::<bool>(),
        legendary in any::<bool>(),
        regeneration in proptest::option::of((1i32..=20, subsequence(vec!["acid", "fire"], 1..=2))),
        aura in any::<bool>(),
        status_turns in 1u32..=10,
        temp in dice(),
    ) -> String {
        let [s, d, c, i, w, h] = abilities;
        let attacks_toml = attacks.join(", ");
        let saves: Vec<String> = saves.iter().map(|a| format!("{a} = 4")).collect();
        let mut monster = format!(
            "[[monster]]\nname = \"Round Tripper\"\ntier = {tier}\nxp = 100\nhp = \"{hp}\"\nac = {ac}\n\
             abilities = {{ str = {s}, dex = {d}, con = {c}, int = {i}, wis = {w}, cha = {h} }}\n\
             attacks = [{attacks_toml}]\nresistances = {}\ncondition_immunities = {}\nsaves = {{ {} }}\n",
            list(&resist),
            list(&immune),
            saves.join(", "),
        );
        if let Some(fly) = fly {
            let _ = writeln!(monster, "speeds = {{ fly = {fly} }}");
        }
        if !reactions.is_empty() {
            let _ = writeln!(monster, "reactions = [{}]", reactions.join(", "));
        }
        if let Some(t) = creature {
            let _ = writeln!(monster, "creature_type = \"{t}\"");
        }
        if innate {
            monster += "innate_spells = [{ spell = \"Round Ward\", per_day = 2 }, { spell = \"Fire Bolt\" }]\ncasting_mod = 3\n";
        }
        if legendary {
            monster += "legendary_resistance = 2\nlegendary = { actions = 3, options = [{ name = \"Swipe\", attack = \"Strike 0\" }] }\n";
        }
        if let Some((hp, stopped)) = regeneration {
            let _ = writeln!(monster, "regeneration = {{ hp = {hp}, stopped_by = {} }}", list(&stopped));
        }
        if aura {
            monster += "auras = [{ name = \"Dread\", save = \"wis\", dc = 12, status = \"Round Dread\", immune_on_save = true }]\n";
        }
        format!(
            "[[status]]\nname = \"Round Dread\"\nkind = \"condition\"\ncondition = \"frightened\"\nturns = {status_turns}\nsave_ends = true\n\n\
             [[spell]]\nname = \"Round Ward\"\nlevel = 1\ncasting_time = \"action\"\neffect = \"temp_hp\"\ntemp_hp = \"{temp}\"\naffects = [\"humanoid\", \"fiend\"]\n\n\
             [[item]]\nname = \"Round Draught\"\neffect = \"temp_hp\"\ntemp_hp = \"{temp}\"\nprice = 5\nweight = 0.5\n\n{monster}"
        )
    }
}

fn round_trip<T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug>(def: &T) {
    let json = serde_json::to_string(def).expect("it serialises");
    let back: T = serde_json::from_str(&json).expect("it reads back");
    assert_eq!(&back, def, "read back from {json}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn a_random_homebrew_entry_loads_and_reads_back_equal_as_a_stored_fight_keeps_it(toml in homebrew()) {
        let content = common::homebrew(&toml);
        let monster = content.monsters.get("Round Tripper").expect("the monster");
        round_trip::<MonsterDef>(monster);
        round_trip::<SpellDef>(content.spells.get("Round Ward").expect("the spell"));
        round_trip::<ItemDef>(content.items.get("Round Draught").expect("the item"));
        round_trip::<StatusDef>(content.statuses.get("Round Dread").expect("the status"));
        let c = Combatant::of_monster("Round Tripper", std::sync::Arc::clone(monster));
        let goblin = Combatant::monster("Goblin", engine::content::Monster::GOBLIN);
        let combat = Combat::new(vec![goblin, c], Terrain::default());
        let json = serde_json::to_string(&combat).expect("the fight serialises");
        let back: Combat = serde_json::from_str(&json).expect("the fight reads back");
        prop_assert_eq!(back.combatants[1].stat_block(), Some(&**monster));
        prop_assert_eq!(&back, &combat);
    }
}
