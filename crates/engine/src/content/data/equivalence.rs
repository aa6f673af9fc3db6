//! The built-in content files say exactly what the typed tables of `crate::content` say: for
//! every variant of every content enum, every number of its definition. Switching the rule code
//! from the tables to the definitions is then behaviour-preserving.

use super::*;
use crate::content::classes::{self, Casting, MAX_LEVEL, XP_FOR_LEVEL};
use crate::content::gear::SHIELD_WEIGHT_LB;
use crate::content::statuses::{StatusEffect, StatusKind};
use crate::content::{Armor, Class, Monster, Race, Weapon, statuses};

fn on_natural_hit(monster: Monster, attack: usize) -> Option<statuses::Affliction> {
    (monster == Monster::Ghoul && monster.stats().attacks[attack].name == "Claws").then(|| statuses::Affliction {
        status: StatusEffect {
            name: "Paralysed".into(),
            kind: StatusKind::Stun,
            duration: 1,
            permanent: false,
            condition: Some(crate::content::Condition::Paralyzed),
            ends_on_save: None,
        },
        save: Some((crate::content::Ability::Con, 10)),
        spell: false,
    })
}

fn innate(monster: Monster) -> Vec<StatusEffect> {
    if monster == Monster::Troll {
        vec![StatusEffect {
            name: "Regeneration".into(),
            kind: StatusKind::Hot { amount: 10 },
            duration: 0,
            permanent: true,
            condition: None,
            ends_on_save: None,
        }]
    } else {
        Vec::new()
    }
}

fn content() -> Content {
    match Content::builtin() {
        Ok(c) => c,
        Err(e) => panic!("{e}"),
    }
}

fn names<'a, T: 'a>(defs: impl IntoIterator<Item = &'a Arc<T>>, name: impl Fn(&T) -> &str) -> Vec<String> {
    defs.into_iter().map(|d| name(d).to_owned()).collect()
}

#[test]
fn the_builtin_content_loads() {
    let c = content();
    assert_eq!(
        (c.races.len(), c.classes.len(), c.weapons.len(), c.armor.len()),
        (7, 6, 15, 7)
    );
    assert_eq!(
        (
            c.spells.len(),
            c.items.len(),
            c.statuses.len(),
            c.monsters.len(),
            c.zones.len()
        ),
        (13, 6, 3, 18, 8)
    );
}

#[test]
fn every_race_matches_its_table() {
    let c = content();
    assert_eq!(
        names(c.races.all(), |r| &r.name),
        Race::ALL.iter().map(|r| r.name()).collect::<Vec<_>>()
    );
    for race in Race::ALL {
        let def = c.races.get(race.name()).unwrap();
        assert_eq!(&*def.name, race.name());
        assert_eq!(def.speed, race.speed(), "{}", race.name());
        assert_eq!(def.ability_bonus, race.ability_bonus(), "{}", race.name());
        assert_eq!(def.has(RaceTrait::Rage), race.grants_rage(), "{}", race.name());
        assert_eq!(
            def.has(RaceTrait::MistyStep),
            race.grants_misty_step(),
            "{}",
            race.name()
        );
        assert_eq!(
            def.has(RaceTrait::ArmoredStride),
            race.ignores_heavy_armor_speed_penalty(),
            "{}",
            race.name()
        );
        assert_eq!(
            def.has(RaceTrait::KeenSenses),
            race.perception_proficient(),
            "{}",
            race.name()
        );
        assert_eq!(
            c.races.get(&race.name().to_uppercase()).map(|r| &*r.name),
            Some(race.name())
        );
    }
}

fn weapon_def(w: Weapon) -> WeaponDef {
    let s = w.stats();
    WeaponDef {
        name: s.name.into(),
        damage: s.damage,
        damage_type: s.damage_type,
        finesse: s.finesse,
        light: s.light,
        heavy: s.heavy,
        ranged: s.ranged,
        weight_lb: s.weight_lb,
    }
}

fn armor_def(a: Armor) -> ArmorDef {
    let s = a.stats();
    ArmorDef {
        name: s.name.into(),
        base_ac: s.base_ac,
        dex_cap: s.dex_cap,
        heavy: s.heavy,
        str_requirement: s.str_requirement,
        weight_lb: s.weight_lb,
    }
}

#[test]
fn every_weapon_and_armor_matches_its_table() {
    let c = content();
    assert_eq!(
        names(c.weapons.all(), |w| &w.name),
        Weapon::ALL.iter().map(|w| w.name()).collect::<Vec<_>>()
    );
    for w in Weapon::ALL {
        assert_eq!(**c.weapons.get(w.name()).unwrap(), weapon_def(w));
    }
    assert_eq!(
        names(c.armor.all(), |a| &a.name),
        Armor::ALL.iter().map(|a| a.name()).collect::<Vec<_>>()
    );
    for a in Armor::ALL {
        let def = c.armor.get(a.name()).unwrap();
        assert_eq!(**def, armor_def(a));
        for dex in -3..=6 {
            for shield in [false, true] {
                let bonus = if shield { c.shield.ac_bonus } else { 0 };
                assert_eq!(
                    def.armor_class(dex, bonus),
                    a.armor_class(dex, shield),
                    "{} dex {dex}",
                    a.name()
                );
            }
        }
    }
    assert_eq!(c.shield.weight_lb, SHIELD_WEIGHT_LB);
}

fn status_def(s: &StatusEffect) -> StatusDef {
    StatusDef {
        name: s.name.as_str().into(),
        kind: match s.kind {
            StatusKind::Dot { amount, damage_type } => StatusKindDef::Dot { amount, damage_type },
            StatusKind::Hot { amount } => StatusKindDef::Hot { amount },
            StatusKind::Stun => StatusKindDef::Stun,
            StatusKind::Condition => StatusKindDef::Condition,
        },
        duration: s.duration,
        permanent: s.permanent,
        condition: s.condition,
        save_ends: None,
    }
}

#[test]
fn every_status_matches_its_table() {
    let c = content();
    let table = [
        StatusEffect {
            name: "Burning".into(),
            kind: StatusKind::Dot {
                amount: 2,
                damage_type: crate::content::DamageType::Fire,
            },
            duration: 2,
            permanent: false,
            condition: None,
            ends_on_save: None,
        },
        on_natural_hit(Monster::Ghoul, 0).unwrap().status,
        innate(Monster::Troll).remove(0),
    ];
    assert_eq!(c.statuses.len(), table.len());
    for s in &table {
        assert_eq!(**c.statuses.get(&s.name).unwrap(), status_def(s));
    }
}

fn affliction_def(a: &statuses::Affliction) -> AfflictionDef {
    AfflictionDef {
        status: status_def(&a.status),
        save: a.save,
    }
}

#[test]
fn the_level_tables_match() {
    let c = content();
    assert_eq!(&*c.levels.xp, &XP_FOR_LEVEL[..]);
    for level in 1..=MAX_LEVEL {
        assert_eq!(
            c.levels.proficiency_bonus(level),
            classes::proficiency_bonus(level),
            "level {level}"
        );
    }
    for xp in [0, 1, 299, 300, 899, 900, 64_000, 354_999, 355_000, u32::MAX] {
        assert_eq!(c.levels.level_for_xp(xp), classes::level_for_xp(xp), "{xp} XP");
    }
}

#[test]
fn every_class_matches_its_table_at_every_level() {
    let c = content();
    assert_eq!(
        names(c.classes.all(), |k| &k.name),
        Class::ALL.iter().map(|k| k.name()).collect::<Vec<_>>()
    );
    for class in Class::ALL {
        let def = c.classes.get(class.name()).unwrap();
        let name = class.name();
        assert_eq!(def.hit_die, class.hit_die(), "{name}");
        assert_eq!(def.base_abilities, class.base_abilities(), "{name}");
        assert_eq!(def.saving_throws, class.saving_throws(), "{name}");
        assert_eq!(&*def.skills, class.skills(), "{name}");
        for alias in &def.aliases {
            assert_eq!(Class::parse(alias), Some(class), "alias {alias}");
        }
        let kit = class.kit();
        assert_eq!(def.kit.weapon, weapon_def(kit.weapon), "{name}");
        assert_eq!(def.kit.off_hand, kit.off_hand.map(weapon_def), "{name}");
        assert_eq!(def.kit.armor, armor_def(kit.armor), "{name}");
        assert_eq!(def.kit.shield, kit.shield, "{name}");
        match class.casting() {
            Casting::None => assert_eq!(def.casting_ability, None, "{name}"),
            Casting::Full(a) | Casting::Half(a) => assert_eq!(def.casting_ability, Some(a), "{name}"),
        }
        for level in 1..=MAX_LEVEL {
            let row = def.at(level);
            let at = format!("{name} level {level}");
            assert_eq!(row.spell_slots, class.spell_slots(level), "{at}");
            assert_eq!(u32::from(row.attacks), class.attacks_per_action(level), "{at}");
            assert_eq!(row.second_wind, class.second_wind_uses(level), "{at}");
            assert_eq!(row.rage, class.rage_uses(level), "{at}");
            assert_eq!(row.divine_favor, class.divine_favor(level), "{at}");
            assert_eq!(u32::from(row.sneak_attack_dice), class.sneak_attack_dice(level), "{at}");
            if class == Class::Berserker {
                assert_eq!(i32::from(row.rage_damage), classes::rage_damage(level), "{at}");
            } else {
                assert_eq!(row.rage_damage, 0, "{at}");
            }
            for con in -3..=5 {
                assert_eq!(def.max_hp(level, con), class.max_hp(level, con), "{at} CON {con}");
            }
        }
    }
}

fn attack_def(m: Monster, i: usize) -> AttackDef {
    let a = m.stats().attacks[i];
    AttackDef {
        name: a.name.into(),
        to_hit: a.to_hit,
        damage: a.damage,
        damage_type: a.damage_type,
        ranged: a.ranged,
        on_hit: on_natural_hit(m, i).as_ref().map(affliction_def),
        extra: Box::default(),
    }
}

#[test]
fn every_monster_matches_its_stat_block() {
    let c = content();
    assert_eq!(
        names(c.monsters.all(), |m| &m.name),
        Monster::ALL.iter().map(|m| m.name()).collect::<Vec<_>>()
    );
    for m in Monster::ALL {
        let s = m.stats();
        let def = c.monsters.get(s.name).unwrap();
        let expected = MonsterDef {
            name: s.name.into(),
            aliases: def.aliases.clone(),
            tier: s.tier,
            xp: s.xp,
            hit_points: s.hit_points,
            armor_class: s.armor_class,
            abilities: s.abilities,
            speed: s.speed,
            proficiency: s.proficiency,
            attacks: (0..s.attacks.len()).map(|i| attack_def(m, i)).collect(),
            multiattack: s.multiattack,
            pattern: Box::default(),
            behaviour: s.behaviour,
            blur: s.blur,
            hides: s.hides,
            parry: s.parry,
            pack_tactics: false,
            magic_resistance: false,
            undead_fortitude: false,
            legendary_resistance: 0,
            legendary: None,
            regeneration: None,
            auras: Box::default(),
            breath: None,
            area_abilities: s
                .breath
                .map(|b| AbilityDef {
                    name: b.name.into(),
                    damage: Some(b.damage),
                    damage_type: Some(b.damage_type),
                    save_dc: b.save_dc,
                    save: crate::content::Ability::Dex,
                    half: true,
                    status: None,
                    area: Area::Cone,
                    size: if b.damage.count > 10 { 30 } else { 15 },
                    recharge: 5,
                    uses: 0,
                    with_attack: false,
                    legendary_only: false,
                    breath: true,
                })
                .into_iter()
                .collect(),
            spells: s
                .spells
                .iter()
                .map(|&sp| Arc::unwrap_or_clone(Arc::clone(sp.builtin().unwrap())))
                .collect(),
            spell_slots: s.spell_slots,
            casting_mod: s.casting_mod,
            perception: s.perception,
            stealth: s.stealth,
            statuses: innate(m).iter().map(status_def).collect(),
            defences: Defences::default(),
            saves: Box::default(),
            speeds: Speeds::default(),
        };
        assert_eq!(**def, expected);
        for alias in &def.aliases {
            assert_eq!(Monster::parse(alias), Some(m), "alias {alias}");
        }
    }
    for text in [
        "rat",
        "dragon",
        "red dragon",
        "wyrmling",
        "GOBLIN",
        "drow-mage",
        "beholder",
    ] {
        assert_eq!(
            c.monsters.get(text).map(|m| m.name.to_string()),
            Monster::parse(text).map(|m| m.name().to_owned()),
            "{text}"
        );
    }
}

#[test]
fn definitions_round_trip_through_serde() {
    let c = content();
    let dragon = c.monsters.get("Young Red Dragon").unwrap();
    let json = serde_json::to_string(&**dragon).unwrap();
    let back: MonsterDef = serde_json::from_str(&json).unwrap();
    assert_eq!(back, **dragon);
    let mage = c.classes.get("Mage").unwrap();
    let back: ClassDef = serde_json::from_str(&serde_json::to_string(&**mage).unwrap()).unwrap();
    assert_eq!(back, **mage);
}
