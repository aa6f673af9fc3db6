//! Bad content is refused with every problem named by file and line, what is wrong and what is
//! allowed: one test per kind of problem, each loading the built-in files plus one homebrew file.

use super::*;
use crate::content::Behaviour;

const HOMEBREW: &str = "homebrew.toml";

/// The problems of the built-in files plus `text` as `homebrew.toml`, as `file:line: message`.
fn problems(text: &str) -> Vec<String> {
    let mut files = BUILTIN.to_vec();
    files.push(ContentFile { path: HOMEBREW, text });
    match Content::load(&files) {
        Ok(_) => Vec::new(),
        Err(e) => e.issues.iter().map(ToString::to_string).collect(),
    }
}

/// A valid homebrew monster with `extra` lines added (line 1 is `[[monster]]`).
fn monster(extra: &str) -> String {
    format!(
        "[[monster]]\n\
         name = \"Cave Crab\"\n\
         tier = 1\n\
         xp = 25\n\
         hp = \"2d8\"\n\
         ac = 14\n\
         abilities = {{ str = 12, dex = 10, con = 12, int = 1, wis = 8, cha = 2 }}\n\
         attacks = [{{ name = \"Claw\", to_hit = 3, damage = \"1d6+1\", type = \"bludgeoning\" }}]\n\
         {extra}"
    )
}

fn one(text: &str) -> String {
    let found = problems(text);
    assert_eq!(found.len(), 1, "expected one problem, got {found:#?}");
    found.into_iter().next().unwrap()
}

#[test]
fn a_valid_homebrew_monster_loads_beside_the_builtin_content() {
    let mut files = BUILTIN.to_vec();
    let text = monster("behaviour = \"brute\"\nspells = [\"Fire Bolt\"]\n");
    files.push(ContentFile {
        path: HOMEBREW,
        text: &text,
    });
    let content = Content::load(&files).unwrap();
    let crab = content.monsters.get("cave crab").unwrap();
    assert_eq!(crab.hit_points, crate::dice::DiceExpr::new(2, 8, 0));
    assert_eq!(
        (crab.armor_class, crab.speed, crab.proficiency, crab.multiattack),
        (14, 30, 2, 1)
    );
    assert_eq!(crab.behaviour, Behaviour::Brute);
    assert_eq!(&*crab.spells[0].name, "Fire Bolt");
    assert_eq!(content.monsters.len(), 19);
}

#[test]
fn a_toml_syntax_error_names_its_line() {
    let p = one("[[monster]]\nname = \"Crab\nxp = 3\n");
    assert!(p.starts_with("homebrew.toml:2: "), "{p}");
}

#[test]
fn an_unknown_field_names_the_fields_allowed() {
    let p = one(&monster("hpp = 3\n"));
    assert!(
        p.starts_with("homebrew.toml:9: unknown field `hpp`, expected one of `name`"),
        "{p}"
    );
}

#[test]
fn unknown_keys_missing_keys_wrong_types_and_bad_values_are_all_reported_together_by_line() {
    // Line 1 `[[monster]]` … line 9: an unknown key, 10: another, in the same monster; a second
    // monster with two keys missing and one of the wrong type; a third with a bad value; a
    // spell with an unknown key inside an inline table.
    let text = format!(
        "{}\
         [[monster]]\n\
         name = \"Mud Crab\"\n\
         tier = \"one\"\n\
         hp = \"2d8\"\n\
         abilities = {{ str = 12, dex = 10, con = 12, int = 1, wis = 8, cha = 2 }}\n\
         attacks = [{{ name = \"Claw\", to_hit = 3, damage = \"1d6+1\", type = \"bludgeoning\", reach = 10 }}]\n\
         {}",
        monster("hpp = 3\nwings = 2\n"),
        monster("")
            .replace("Cave Crab", "Sand Crab")
            .replace("ac = 14", "ac = 99"),
    );
    let found = problems(&text);
    let expect = [
        "homebrew.toml:9: unknown field `hpp`",
        "homebrew.toml:10: unknown field `wings`",
        "homebrew.toml:13: invalid type: string \"one\", expected i64",
        "homebrew.toml:16: unknown field `reach`",
        "homebrew.toml:11: missing field `xp`",
        "homebrew.toml:11: missing field `ac`",
        "homebrew.toml:22: armor class 99 is out of range",
    ];
    for e in expect {
        assert!(found.iter().any(|p| p.starts_with(e)), "no `{e}` in {found:#?}");
    }
    assert_eq!(found.len(), expect.len(), "only those: {found:#?}");
}

#[test]
fn an_unknown_top_level_table_is_refused() {
    let p = one("[[monstr]]\nname = \"Crab\"\n");
    assert!(
        p.starts_with("homebrew.toml:1: unknown field `monstr`, expected one of `race`, `class`"),
        "{p}"
    );
}

#[test]
fn a_missing_field_is_named() {
    let p = problems("[[zone]]\nname = \"Bog\"\ntier = 1\n");
    assert!(p[0].starts_with("homebrew.toml:1: missing field `rooms`"), "{p:#?}");
    assert!(
        p.iter()
            .any(|p| p.starts_with("homebrew.toml:1: missing field `monsters`")),
        "every missing field: {p:#?}"
    );
}

#[test]
fn an_unknown_spell_effect_lists_the_effects() {
    let p = one("[[spell]]\nname = \"Blink\"\nlevel = 3\ncasting_time = \"action\"\neffect = \"teleport\"\n");
    assert_eq!(
        p,
        "homebrew.toml:5: unknown spell effect `teleport`: allowed are `attack`, `beams`, `darts`, `save`, \
         `heal`, `hunters_mark`, `entangle`, `misty_step`, `haste`, `counterspell`, `buff`, `temp_hp`"
    );
}

#[test]
fn a_field_the_effect_does_not_take_is_refused() {
    let p = one(
        "[[spell]]\nname = \"Mend\"\nlevel = 1\ncasting_time = \"action\"\neffect = \"heal\"\nhealing = \"1d8\"\ncount = 3\n",
    );
    assert_eq!(
        p,
        "homebrew.toml:7: `count` does not apply to effect `heal`: it takes `healing`"
    );
}

#[test]
fn a_field_the_effect_needs_is_required() {
    let p =
        one("[[spell]]\nname = \"Zap\"\nlevel = 0\ncasting_time = \"action\"\neffect = \"attack\"\ndamage = \"1d6\"\n");
    assert_eq!(p, "homebrew.toml:5: spell effect `attack` needs `type`");
}

#[test]
fn an_unknown_damage_type_lists_the_types() {
    let p = one(&monster(
        "breath = { name = \"Howl\", damage = \"2d6\", type = \"sonic\", dc = 12 }\n",
    ));
    assert_eq!(
        p,
        "homebrew.toml:9: unknown damage type `sonic`: allowed are `slashing`, `piercing`, `bludgeoning`, \
         `fire`, `force`, `radiant`, `necrotic`, `poison`, `cold`, `lightning`, `acid`, `psychic`, `thunder`"
    );
}

#[test]
fn an_unknown_behaviour_lists_the_profiles() {
    let p = one(&monster("behaviour = \"cowardly\"\n"));
    assert_eq!(
        p,
        "homebrew.toml:9: unknown behaviour `cowardly`: allowed are `aggressive`, `skirmisher`, `ranged`, \
         `brute`, `caster`, `breather`"
    );
}

#[test]
fn an_unknown_trait_or_feature_lists_the_allowed() {
    let p = one(&monster("traits = [\"Regenerate\"]\n"));
    assert_eq!(
        p,
        "homebrew.toml:9: unknown monster trait `Regenerate`: allowed are `Blur`, `Parry`, `Hide`, `Pack Tactics`, \
         `Magic Resistance`, `Undead Fortitude`"
    );
    let p = one("[[race]]\nname = \"Gnome\"\nspeed = 25\ntraits = [\"Tinker\"]\n");
    assert_eq!(
        p,
        "homebrew.toml:4: unknown race trait `Tinker`: allowed are `Rage`, `Misty Step`, `Armored Stride`, `Keen Senses`"
    );
}

#[test]
fn hit_points_must_average_at_least_one() {
    let p = one(&monster("").replace("hp = \"2d8\"", "hp = \"1d4-5\""));
    assert_eq!(
        p,
        "homebrew.toml:5: hit points `1d4-5` average -3: a monster needs at least 1 HP"
    );
}

#[test]
fn armor_class_above_forty_is_out_of_range() {
    let p = one(&monster("").replace("ac = 14", "ac = 45"));
    assert_eq!(p, "homebrew.toml:6: armor class 45 is out of range: allowed 1–40");
}

#[test]
fn numbers_out_of_range_say_the_range() {
    let p = one(&monster("").replace("tier = 1", "tier = 9"));
    assert_eq!(p, "homebrew.toml:3: tier 9 is out of range: allowed 1–5");
    let p = one(&monster("").replace("str = 12", "str = 31"));
    assert_eq!(p, "homebrew.toml:7: ability score str 31 is out of range: allowed 1–30");
}

#[test]
fn absurd_dice_are_refused() {
    let p = one(&monster("").replace("hp = \"2d8\"", "hp = \"500d8\""));
    assert_eq!(p, "homebrew.toml:5: hit points `500d8` rolls 500 dice: allowed 0–40");
    let p = one(&monster("").replace("\"1d6+1\"", "\"1d7+1\""));
    assert_eq!(
        p,
        "homebrew.toml:8: damage `1d7+1` rolls a d7: allowed are d1, d2, d3, d4, d6, d8, d10, d12, d20, d100"
    );
    let p = one(&monster("").replace("\"1d6+1\"", "\"one d six\""));
    assert_eq!(
        p,
        "homebrew.toml:8: damage `one d six` is not a dice expression: write NdS, NdS+B or NdS-B (e.g. 2d6+3), or a whole number"
    );
}

#[test]
fn a_name_too_long_or_blank_is_refused() {
    let long = "The Exceedingly Ancient and Terrible Crab of the Deep";
    let p = one(&monster("").replace("Cave Crab", long));
    assert_eq!(
        p,
        format!("homebrew.toml:2: monster name `{long}` is 53 characters long: allowed 1–40")
    );
    let p = one(&monster("").replace("Cave Crab", " - "));
    assert_eq!(
        p,
        "homebrew.toml:2: a monster name needs at least one letter or digit, got ` - `"
    );
}

#[test]
fn a_duplicate_name_names_where_it_was_first_defined() {
    let p = one(&monster("").replace("Cave Crab", "goblin"));
    let builtin = BUILTIN[6].text;
    let line = builtin.lines().position(|l| l == "name = \"Goblin\"").unwrap() + 1;
    assert_eq!(
        p,
        format!(
            "homebrew.toml:2: duplicate monster name `goblin`: already defined at crates/engine/content/monsters.toml:{line}"
        )
    );
    // An alias clashes with names too.
    let p = one(&monster("aliases = [\"Rat\"]\n"));
    assert!(
        p.starts_with(
            "homebrew.toml:9: duplicate monster name `Rat`: already defined at crates/engine/content/monsters.toml:"
        ),
        "{p}"
    );
}

#[test]
fn a_dangling_reference_names_the_known_entries() {
    let p = one(&monster("spells = [\"Wish\"]\n"));
    assert!(
        p.starts_with(
            "homebrew.toml:9: monster `Cave Crab` names an unknown spell `Wish`: the spells are `Fire Bolt`, `Sacred Flame`"
        ),
        "{p}"
    );
    let p = one(
        "[[zone]]\nname = \"Bog\"\ntier = 1\nrooms = 3\ndifficult_terrain = \"mud\"\ndifficult_in_6 = 3\nencounter_in_6 = 4\nmaterial = \"Peat\"\nmonsters = [\"Goblin\", \"Bog Hag\"]\n",
    );
    assert!(
        p.starts_with("homebrew.toml:9: zone `Bog` names an unknown monster `Bog Hag`: the monsters are `Giant Rat`"),
        "{p}"
    );
    let p = one(&monster("statuses = [\"Frozen\"]\n"));
    assert_eq!(
        p,
        "homebrew.toml:9: monster `Cave Crab` names an unknown status `Frozen`: the statuses are `Burning`, `Paralysed`, `Regeneration`"
    );
}

#[test]
fn a_reference_to_a_broken_entry_is_not_reported_twice() {
    let text = format!(
        "[[spell]]\nname = \"Frost\"\nlevel = 0\ncasting_time = \"action\"\neffect = \"attack\"\ndamage = \"1d8\"\ntype = \"ice\"\n\n{}",
        monster("spells = [\"Frost\"]\n")
    );
    let found = problems(&text);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with("homebrew.toml:7: unknown damage type `ice`"),
        "{found:?}"
    );
}

#[test]
fn a_monster_spell_without_slots_is_refused() {
    let p = one(&monster("spells = [\"Fireball\"]\n"));
    assert_eq!(
        p,
        "homebrew.toml:9: monster `Cave Crab` knows `Fireball` (level 3) but has no level-3 spell slots"
    );
}

fn class(extra: &str) -> String {
    format!(
        "[[class]]\n\
         name = \"Warlock\"\n\
         hit_die = 8\n\
         abilities = {{ str = 8, dex = 14, con = 13, int = 10, wis = 12, cha = 15 }}\n\
         saving_throws = [\"WIS\", \"CHA\"]\n\
         kit = {{ weapon = \"Dagger\", armor = \"Leather armor\" }}\n\
         casting = {{ ability = \"CHA\", slots = \"full\" }}\n\
         {extra}"
    )
}

#[test]
fn a_homebrew_class_reads_its_per_level_table() {
    let mut files = BUILTIN.to_vec();
    let text = class(
        "spells = [{ name = \"Eldritch Blast\", from = 1 }, { name = \"Fireball\", from = 7 }]\n\
         features = [{ name = \"Evasion\", level = 6 }]\n\
         [class.per_level]\n\
         attacks = [1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3]\n",
    );
    files.push(ContentFile {
        path: HOMEBREW,
        text: &text,
    });
    let content = Content::load(&files).unwrap();
    let warlock = content.classes.get("warlock").unwrap();
    assert_eq!(
        (warlock.at(5).attacks, warlock.at(6).attacks, warlock.at(20).attacks),
        (1, 2, 3)
    );
    assert_eq!(warlock.at(5).spell_slots, [4, 3, 2, 0, 0, 0, 0, 0, 0]);
    assert_eq!(warlock.known_spells(6).count(), 1);
    assert_eq!(warlock.known_spells(7).count(), 2);
    assert!(!warlock.has_feature(Feature::Evasion, 5, false));
    assert!(warlock.has_feature(Feature::Evasion, 6, true));
    assert_eq!(warlock.at(3).second_wind, 0);
}

#[test]
fn a_per_level_column_needs_twenty_values() {
    let p = one(&class("[class.per_level]\nattacks = [1, 2, 3]\n"));
    assert_eq!(
        p,
        "homebrew.toml:9: per_level.attacks has 3 values: one per level 1–20 is needed (20 values)"
    );
}

#[test]
fn an_unknown_class_feature_lists_the_features() {
    let p = one(&class("features = [{ name = \"Wild Shape\", level = 2 }]\n"));
    assert!(
        p.starts_with(
            "homebrew.toml:8: unknown class feature `Wild Shape`: allowed are `Second Wind`, `Cunning Action`"
        ),
        "{p}"
    );
}

#[test]
fn a_spell_known_before_its_slots_is_refused() {
    let p = one(&class("spells = [{ name = \"Fireball\", from = 3 }]\n"));
    assert_eq!(
        p,
        "homebrew.toml:8: class `Warlock` knows `Fireball` (a level-3 spell) from level 3, but has level-3 slots \
         only from level 5: allowed 5–20"
    );
}

#[test]
fn an_unknown_slot_table_names_the_tables() {
    let p = one(&class("").replace("slots = \"full\"", "slots = \"pact\""));
    assert_eq!(
        p,
        "homebrew.toml:7: class `Warlock` names an unknown spell-slot table `pact`: the spell-slot tables are `full`, `half`"
    );
}

#[test]
fn a_heavy_off_hand_weapon_is_refused() {
    let p = one(&class("").replace("weapon = \"Dagger\"", "weapon = \"Dagger\", off_hand = \"Greataxe\""));
    assert_eq!(
        p,
        "homebrew.toml:6: off_hand `Greataxe` is not a light weapon: only light weapons go in the off hand"
    );
}

#[test]
fn the_levels_table_is_defined_exactly_once() {
    let p = one("[levels]\nxp = []\nproficiency = []\ncantrip_dice = []\n");
    assert!(
        p.starts_with("homebrew.toml:1: [levels] is defined twice: already at crates/engine/content/classes.toml:"),
        "{p}"
    );
    let found = match Content::load(&[ContentFile {
        path: HOMEBREW,
        text: "",
    }]) {
        Ok(_) => Vec::new(),
        Err(e) => e.issues.iter().map(ToString::to_string).collect(),
    };
    assert_eq!(
        found,
        vec![
            "homebrew.toml:1: no file defines [shield]: exactly one content file must",
            "homebrew.toml:1: no file defines [levels]: exactly one content file must",
        ]
    );
}

#[test]
fn every_problem_is_reported_at_once() {
    let text = format!(
        "{}\n{}",
        monster("").replace("ac = 14", "ac = 0"),
        monster("behaviour = \"shy\"\n").replace("Cave Crab", "Sea Crab")
    );
    let found = problems(&text);
    assert_eq!(
        found,
        vec![
            "homebrew.toml:6: armor class 0 is out of range: allowed 1–40",
            "homebrew.toml:18: unknown behaviour `shy`: allowed are `aggressive`, `skirmisher`, `ranged`, `brute`, `caster`, `breather`",
        ]
    );
    let err = Content::load(
        &[
            BUILTIN.as_slice(),
            &[ContentFile {
                path: HOMEBREW,
                text: &text,
            }],
        ]
        .concat(),
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("content did not load (2 problems):\n  homebrew.toml:6: "),
        "{err}"
    );
}

/// A homebrew spell of `level` learned by `classes` (line 1 is `[[spell]]`, line 7 `classes`).
fn learned(level: u32, classes: &str) -> String {
    format!(
        "[[spell]]\n\
         name = \"Bog Lance\"\n\
         level = {level}\n\
         casting_time = \"action\"\n\
         effect = \"attack\"\n\
         damage = \"2d8\"\n\
         classes = [{classes}]\n\
         type = \"poison\"\n"
    )
}

#[test]
fn a_spell_s_classes_learn_it_from_their_first_level_with_its_slots() {
    let text = learned(2, r#""wizard", "Cleric", "Ranger""#);
    let content = Content::with_homebrew(&[ContentFile {
        path: HOMEBREW,
        text: &text,
    }])
    .unwrap();
    let from = |class: &str| {
        content
            .classes
            .get(class)
            .unwrap()
            .spells
            .iter()
            .find(|k| &*k.spell.name == "Bog Lance")
            .map(|k| k.from_level)
    };
    // Full casters have level-2 slots from level 3, half casters (the Ranger) from level 5.
    assert_eq!(
        (from("Mage"), from("Cleric"), from("Ranger")),
        (Some(3), Some(3), Some(5))
    );
    let mage = content.classes.get("Mage").unwrap();
    assert!(!mage.known_spells(2).any(|s| &*s.name == "Bog Lance"));
    assert!(mage.known_spells(3).any(|s| &*s.name == "Bog Lance"));
    // The built-in classes are untouched.
    assert_eq!(
        builtin().classes.get("Mage").unwrap().spells.len(),
        mage.spells.len() - 1
    );
    let cantrip = learned(0, r#""Ranger""#);
    let content = Content::with_homebrew(&[ContentFile {
        path: HOMEBREW,
        text: &cantrip,
    }])
    .unwrap();
    assert!(
        content
            .classes
            .get("Ranger")
            .unwrap()
            .known_spells(1)
            .any(|s| &*s.name == "Bog Lance")
    );
}

#[test]
fn a_spell_s_class_must_exist_cast_and_have_its_slots() {
    let unknown = one(&learned(1, r#""Bard""#));
    assert!(
        unknown
            .starts_with("homebrew.toml:7: spell `Bog Lance` names an unknown class `Bard`: the classes are `Fighter`"),
        "{unknown}"
    );
    let fighter = one(&learned(1, r#""Fighter""#));
    assert_eq!(
        fighter,
        "homebrew.toml:7: spell `Bog Lance`: class `Fighter` does not cast spells: allowed `Ranger`, `Cleric`, `Mage`"
    );
    let ranger = one(&learned(9, r#""Ranger", "Mage""#));
    assert_eq!(
        ranger,
        "homebrew.toml:7: spell `Bog Lance`: class `Ranger` never has level-9 slots: allowed `Cleric`, `Mage`"
    );
    let twice = one(&learned(1, r#""Mage", "wizard""#));
    assert_eq!(twice, "homebrew.toml:7: spell `Bog Lance` names class `Mage` twice");
}

#[test]
fn an_item_without_a_price_is_priced_zero_and_a_bad_price_is_refused() {
    let item = "[[item]]\nname = \"Lucky Stone\"\neffect = \"haste\"\nweight = 0.1\n";
    let content = Content::with_homebrew(&[ContentFile {
        path: HOMEBREW,
        text: item,
    }])
    .unwrap();
    assert_eq!(content.items.get("lucky stone").map(|d| d.price), Some(0));
    let priced = format!("{item}price = -5\n");
    assert_eq!(
        one(&priced),
        "homebrew.toml:5: price -5 is out of range: allowed 0–1000000"
    );
}

#[test]
fn a_swimming_climbing_or_burrowing_speed_loads_with_a_warning_by_line_and_flying_with_none() {
    let text = monster("speeds = { fly = 30, swim = 40, climb = 20, burrow = 0 }\n");
    let mut files = BUILTIN.to_vec();
    files.push(ContentFile {
        path: HOMEBREW,
        text: &text,
    });
    let content = Content::load(&files).expect("a warning never refuses");
    let warnings: Vec<String> = content.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(warnings.len(), 2, "{warnings:#?}");
    assert!(
        warnings[0].starts_with("homebrew.toml:9: `swim = 40` is kept on the stat block but does nothing in a fight"),
        "{}",
        warnings[0]
    );
    assert!(
        warnings[1].contains("`climb = 20`") && warnings[1].contains("no walls"),
        "{}",
        warnings[1]
    );
    assert!(
        Content::builtin().unwrap().warnings.is_empty(),
        "the built-in content says nothing idle"
    );
}
