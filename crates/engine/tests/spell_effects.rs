//! Spells that give statuses (docs/content.md `[[spell]]`, SRD 5.1 "Spells"): a `buff` bestows its
//! status on up to `targets` allies with no save (Bless), a `save` with a `status` gives it on a
//! failed save to up to `targets` enemies (Bane, Hold Person), and `modifier` statuses add dice to
//! attack rolls and saving throws, or a number to armor class, while they last — in every ruleset.

mod common;

use std::sync::Arc;

use common::{Fight, any, pc, puppet};
use engine::content::data::{Content, MonsterDef};
use engine::content::statuses::StatusEffect;
use engine::content::{Behaviour, Class, Condition, Monster, Race, Spell};
use engine::{Actor, Band, Combat, Combatant, CombatantId, Command, Controller, Dice, Event, Ruleset, Terrain, apply};

const SRD_SPELLS: &str = include_str!("../../../examples/homebrew/srd-spells.toml");

/// A monster that casts the file's debuffs: DC 8 + 2 + 3 = 13.
const HEXER: &str = r#"
[[monster]]
name = "Hexer"
creature_type = "humanoid"
tier = 2
xp = 200
hp = "8d8"
ac = 12
abilities = { str = 10, dex = 12, con = 12, int = 10, wis = 14, cha = 16 }
attacks = [{ name = "Staff", to_hit = 2, damage = "1d6", type = "bludgeoning" }]
behaviour = "caster"
spells = ["Hold Person", "Bane"]
spell_slots = [4, 3]
casting_mod = 3

[[monster]]
name = "Iron Sentinel"
creature_type = "humanoid"
tier = 2
xp = 200
hp = "8d8"
ac = 12
abilities = { str = 10, dex = 12, con = 12, int = 10, wis = 14, cha = 16 }
attacks = [{ name = "Fist", to_hit = 2, damage = "1d6", type = "bludgeoning" }]
condition_immunities = ["paralyzed"]

[[monster]]
name = "Bog Witch"
creature_type = "fey"
tier = 2
xp = 450
hp = "9d8"
ac = 13
abilities = { str = 10, dex = 12, con = 12, int = 12, wis = 14, cha = 16 }
attacks = [{ name = "Claw", to_hit = 4, damage = "1d6+2", type = "slashing" }]
behaviour = "caster"
casting_mod = 3
innate_spells = [{ spell = "Hold Person", per_day = 1 }, { spell = "Bane" }]
"#;

fn content() -> Content {
    common::homebrew(&format!("{SRD_SPELLS}\n{HEXER}"))
}

fn monster(content: &Content, name: &str) -> Arc<MonsterDef> {
    Arc::clone(content.monsters.get(name).expect("a monster of the file"))
}

fn spell(name: &str) -> Spell {
    Spell::named(name).expect("a spell name")
}

fn status(content: &Content, name: &str) -> StatusEffect {
    StatusEffect::from(&**content.statuses.get(name).expect("a status of the file"))
}

fn cast(spell_name: &str, target: CombatantId) -> Command {
    Command::Cast {
        spell: spell(spell_name),
        target: Some(target),
    }
}

/// A level-5 cleric (who learns the file's spells) and three level-5 fighters against two
/// goblins and a Hexer the GM plays, everyone in melee with everyone.
fn party() -> (Fight, Vec<CombatantId>, Vec<CombatantId>) {
    let content = content();
    let mut cleric = pc("Cleo", Race::HUMAN, Class::CLERIC, 5);
    cleric.draw_on(&content);
    let mut f = Fight::new(vec![
        cleric,
        pc("Aria", Race::HUMAN, Class::FIGHTER, 5),
        pc("Bo", Race::HUMAN, Class::FIGHTER, 5),
        pc("Cy", Race::HUMAN, Class::FIGHTER, 5),
        puppet("Goblin 1", Monster::GOBLIN),
        puppet("Goblin 2", Monster::GOBLIN),
        Combatant::of_monster("Hexer", monster(&content, "Hexer")).controlled_by(Controller::Player("gm".into())),
    ]);
    let party: Vec<CombatantId> = ["Cleo", "Aria", "Bo", "Cy"].iter().map(|n| f.id(n)).collect();
    let foes: Vec<CombatantId> = ["Goblin 1", "Goblin 2", "Hexer"].iter().map(|n| f.id(n)).collect();
    for &p in &party {
        for &g in &foes {
            f.melee(p, g);
        }
    }
    (f, party, foes)
}

/// The same fight, dice and all, to play a different way.
fn twin(f: &Fight) -> Fight {
    Fight {
        combat: f.combat.clone(),
        dice: f.dice.clone(),
        log: Vec::new(),
    }
}

fn applied(events: &[Event], status: &str) -> Vec<CombatantId> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::StatusApplied { id, status: s, .. } if s == status => Some(*id),
            _ => None,
        })
        .collect()
}

fn save_totals(events: &[Event]) -> Vec<(CombatantId, i32, bool)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::SavingThrow { id, total, success, .. } => Some((*id, *total, *success)),
            _ => None,
        })
        .collect()
}

#[test]
fn the_srd_spells_example_loads_and_clerics_learn_its_spells_by_level() {
    let content = content();
    let mut low = pc("Cleo", Race::HUMAN, Class::CLERIC, 1);
    low.draw_on(&content);
    assert!(low.knows(spell("Bless")) && low.knows(spell("Bane")));
    assert!(
        !low.knows(spell("Hold Person")),
        "a 2nd-level spell at character level 1"
    );
    let mut high = pc("Cleo", Race::HUMAN, Class::CLERIC, 3);
    high.draw_on(&content);
    assert!(high.knows(spell("Hold Person")) && high.knows(spell("Warding Bond")));
    let mut mage = pc("Mira", Race::HUMAN, Class::MAGE, 3);
    mage.draw_on(&content);
    assert!(mage.knows(spell("Hold Person")) && !mage.knows(spell("Bless")));
}

#[test]
fn bless_gives_its_target_and_two_more_allies_its_status_with_no_save() {
    let (mut f, party, _) = party();
    let (cleo, aria) = (party[0], party[1]);
    f.turn_of(cleo);
    let events = f.act(cleo, cast("Bless", aria));
    assert!(!any(&events, |e| matches!(e, Event::SavingThrow { .. })));
    let blessed = applied(&events, "Blessed");
    assert_eq!(blessed.len(), 3, "up to three creatures: {blessed:?}");
    assert_eq!(blessed[0], aria, "the named target first");
    assert!(blessed.iter().all(|id| party.contains(id)), "allies only");
    assert_eq!(f.get(cleo).pools.spell_slots[0], 3, "one of four level-1 slots spent");
}

#[test]
fn a_buff_is_refused_on_an_enemy_and_the_refusal_changes_nothing() {
    let (mut f, party, foes) = party();
    f.turn_of(party[0]);
    f.refused_for(party[0], cast("Bless", foes[0]));
}

/// A healing spell on a creature at full hit points is refused, and the slot is kept; once the
/// ally is hurt it is cast.
#[test]
fn healing_a_creature_at_full_hit_points_is_refused_and_keeps_the_slot() {
    let (mut f, party, _) = party();
    let (cleo, aria) = (party[0], party[1]);
    f.turn_of(cleo);
    let why = f.refused_for(cleo, cast("Cure Wounds", aria));
    assert!(format!("{why}").contains("full hit points"), "{why}");
    f.get_mut(aria).hp -= 5;
    let events = f.act(cleo, cast("Cure Wounds", aria));
    assert!(!common::healed(&events, aria).is_empty(), "cast once she is hurt");
}

#[test]
fn bless_adds_1d4_to_each_attack_roll() {
    let content = content();
    let mut added = Vec::new();
    for seed in 0..200 {
        let (mut f, party, foes) = party();
        let aria = party[1];
        f.dice = Dice::seeded(seed);
        f.turn_of(aria);
        let mut plain = twin(&f);
        f.get_mut(aria).statuses = vec![status(&content, "Blessed")];
        let with = common::rolls(&f.act(aria, Command::Attack { target: Some(foes[0]) }))[0].total;
        let without = common::rolls(&plain.act(aria, Command::Attack { target: Some(foes[0]) }))[0].total;
        added.push(with - without);
    }
    assert!(added.iter().all(|d| (1..=4).contains(d)), "{added:?}");
    assert!((1..=4).all(|d| added.contains(&d)), "every face of the d4 shows");
    let mean = f64::from(added.iter().sum::<i32>()) / added.len() as f64;
    assert!((2.2..=2.8).contains(&mean), "a d4 averages 2.5: {mean}");
}

/// The Hexer's Hold Person at `target` (blessed or baned with `status`, if any) with the dice of
/// `seed`: the events.
fn held_at(target_status: Option<&str>, seed: u64) -> (Fight, CombatantId, Vec<Event>) {
    let content = content();
    let (mut f, party, foes) = party();
    let (aria, hexer) = (party[1], foes[2]);
    if let Some(name) = target_status {
        f.get_mut(aria).statuses = vec![status(&content, name)];
    }
    f.dice = Dice::seeded(seed);
    f.turn_of(hexer);
    let events = f.act(hexer, cast("Hold Person", aria));
    (f, aria, events)
}

#[test]
fn bless_adds_1d4_to_saving_throws_and_bane_takes_1d4_away() {
    for (status, range) in [("Blessed", 1..=4), ("Baned", -4..=-1)] {
        let mut seen = Vec::new();
        for seed in 0..100 {
            let (_, aria, plain) = held_at(None, seed);
            let (_, _, modified) = held_at(Some(status), seed);
            let (p, m) = (save_totals(&plain)[0], save_totals(&modified)[0]);
            assert_eq!((p.0, m.0), (aria, aria));
            seen.push(m.1 - p.1);
        }
        assert!(seen.iter().all(|d| range.contains(d)), "{status}: {seen:?}");
        assert!(range.clone().all(|d| seen.contains(&d)), "{status}: every face shows");
    }
}

#[test]
fn hold_person_paralyzes_on_a_failed_wis_save_against_the_casters_dc_and_not_on_a_success() {
    let mut outcomes = [false, false];
    for seed in 0..60 {
        let (f, aria, events) = held_at(None, seed);
        let (_, total, success) = save_totals(&events)[0];
        assert_eq!(success, total >= 13, "DC 8 + proficiency 2 + CHA-casting 3");
        let held = f.get(aria).statuses.iter().any(|s| s.name == "Held");
        assert_eq!(held, !success);
        if held {
            assert!(engine::conditions::has(f.get(aria), Condition::Paralyzed));
        }
        outcomes[usize::from(success)] = true;
    }
    assert_eq!(outcomes, [true, true], "both a failure and a success were seen");
}

#[test]
fn hold_person_ends_when_the_held_succeed_on_the_repeated_save_at_the_end_of_their_turn() {
    let seed = (0..500)
        .find(|&s| !save_totals(&held_at(None, s).2)[0].2)
        .expect("a failed save");
    let (mut f, aria, _) = held_at(None, seed);
    // Turns pass; Aria's are lost as they start, and each ends with the repeated save.
    let mut freed = false;
    for _ in 0..40 {
        let who = f.current();
        let events = f.act(who, Command::EndTurn);
        for (id, total, success) in save_totals(&events) {
            assert_eq!(id, aria);
            assert_eq!(success, total >= 13, "the spell's own DC, repeated");
            assert_eq!(f.get(aria).statuses.iter().any(|s| s.name == "Held"), !success);
            freed |= success;
        }
        if freed {
            break;
        }
    }
    assert!(freed, "the hold ended on a save\n{}", f.transcript());
}

#[test]
fn a_creature_immune_to_paralysis_is_never_held() {
    let content = content();
    let mut cleric = pc("Mira", Race::HUMAN, Class::CLERIC, 5);
    cleric.draw_on(&content);
    let sentinel = Combatant::of_monster("Iron Sentinel", monster(&content, "Iron Sentinel"))
        .controlled_by(Controller::Player("gm".into()));
    let mut f = Fight::new(vec![cleric, sentinel]);
    let (mira, iron) = (f.id("Mira"), f.id("Iron Sentinel"));
    f.melee(mira, iron);
    f.turn_of(mira);
    let seed_fails = (0..500)
        .find(|&s| {
            let mut g = twin(&f);
            g.dice = Dice::seeded(s);
            let e = g.act(mira, cast("Hold Person", iron));
            save_totals(&e).first().is_some_and(|s| !s.2)
        })
        .expect("a failed save");
    f.dice = Dice::seeded(seed_fails);
    let events = f.act(mira, cast("Hold Person", iron));
    assert!(any(&events, |e| matches!(
        e,
        Event::ConditionImmune {
            condition: Condition::Paralyzed,
            ..
        }
    )));
    assert!(f.get(iron).statuses.is_empty());
}

#[test]
fn hold_person_affects_only_humanoids_and_a_cast_at_a_beast_is_refused_changing_nothing() {
    let content = content();
    let mut cleric = pc("Mira", Race::HUMAN, Class::CLERIC, 5);
    cleric.draw_on(&content);
    let mut f = Fight::new(vec![
        cleric,
        puppet("Wolf", Monster::WOLF),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let (mira, wolf, goblin) = (f.id("Mira"), f.id("Wolf"), f.id("Goblin"));
    f.melee(mira, wolf);
    f.melee(mira, goblin);
    f.turn_of(mira);
    let why = f.refused_for(mira, cast("Hold Person", wolf));
    assert_eq!(
        why.to_string(),
        "Hold Person affects only a humanoid — Wolf is a beast."
    );
    // At a goblin, a humanoid, it is cast.
    let events = f.act(mira, cast("Hold Person", goblin));
    assert_eq!(save_totals(&events).len(), 1, "the goblin saves");
    // A player character is a humanoid: the Bog Witch's Hold Person reaches Mira.
    assert!(
        content
            .spells
            .get("Hold Person")
            .unwrap()
            .affects(f.get(mira).creature_type())
    );
}

#[test]
fn a_creature_type_must_be_one_of_the_fourteen() {
    let why =
        common::homebrew_refused(&HEXER.replace(r#"creature_type = "fey""#, r#"creature_type = "faerie""#)).to_string();
    assert!(
        why.contains("unknown creature type `faerie`: allowed are `aberration`, `beast`"),
        "{why}"
    );
}

#[test]
fn bane_reaches_up_to_three_enemies_each_saving_on_its_own() {
    let (mut f, party, foes) = party();
    let cleo = party[0];
    f.turn_of(cleo);
    let events = f.act(cleo, cast("Bane", foes[0]));
    let saves = save_totals(&events);
    assert_eq!(saves.len(), 3, "three creatures save: {saves:?}");
    assert_eq!(saves[0].0, foes[0], "the named target first");
    assert!(saves.iter().all(|s| foes.contains(&s.0)), "enemies only");
    let baned = applied(&events, "Baned");
    let failed: Vec<CombatantId> = saves.iter().filter(|s| !s.2).map(|s| s.0).collect();
    assert_eq!(baned, failed, "the status on each failure, none on a success");
}

#[test]
fn warding_bond_raises_armor_class_by_one_and_saves_by_one() {
    let content = content();
    let (mut f, party, _) = party();
    let aria = party[1];
    let before = f.get(aria).armor_class();
    f.get_mut(aria).statuses = vec![status(&content, "Warded")];
    assert_eq!(f.get(aria).armor_class(), before + 1);
    for seed in 0..20 {
        let (_, _, plain) = held_at(None, seed);
        let (_, _, warded) = held_at(Some("Warded"), seed);
        assert_eq!(save_totals(&warded)[0].1, save_totals(&plain)[0].1 + 1);
    }
}

/// Under `ruleset`, an AI party (a cleric who knows the file's spells and two fighters, all level
/// 5) against an AI Hexer and four goblins, played out by `Begin`.
fn ai_fight(ruleset: Ruleset, seed: u64) -> (Combat, Vec<Event>) {
    let content = content();
    let ai = || Controller::Ai(Behaviour::Aggressive);
    let mut cleric = Combatant::character("Cleo", Race::HUMAN, Class::CLERIC, 5, ai());
    cleric.draw_on(&content);
    let all = vec![
        cleric,
        Combatant::character("Aria", Race::HUMAN, Class::FIGHTER, 5, ai()),
        Combatant::character("Bo", Race::HUMAN, Class::FIGHTER, 5, ai()),
        Combatant::of_monster("Hexer", monster(&content, "Hexer")),
        Combatant::monster("Goblin 1", Monster::GOBLIN),
        Combatant::monster("Goblin 2", Monster::GOBLIN),
        Combatant::monster("Goblin 3", Monster::GOBLIN),
        Combatant::monster("Goblin 4", Monster::GOBLIN),
    ];
    let mut combat = Combat::new(all, Terrain::default()).with_ruleset(ruleset);
    let mut dice = Dice::seeded(seed);
    let events = apply(&mut combat, Actor::Director, Command::Begin, &mut dice, common::now()).expect("it begins");
    (combat, events)
}

#[test]
fn the_ai_blesses_its_allies_and_holds_its_enemies_in_every_ruleset() {
    for ruleset in Ruleset::ALL {
        let (mut blessed, mut held) = (false, false);
        for seed in 0..6 {
            let (combat, events) = ai_fight(ruleset, seed);
            assert!(combat.outcome.is_some(), "{}: the fight ends", ruleset.name());
            let hexer = combat.by_name("Hexer").expect("the Hexer").id;
            for e in &events {
                let Event::StatusApplied {
                    id,
                    status,
                    by: Some(by),
                    ..
                } = e
                else {
                    continue;
                };
                let same_side = combat.get(*id).side == combat.get(*by).side;
                match status.as_str() {
                    "Blessed" => {
                        assert!(same_side, "{}: Bless on an enemy", ruleset.name());
                        blessed = true;
                    }
                    "Held" | "Baned" => {
                        assert!(!same_side, "{}: {status} on an ally", ruleset.name());
                        held |= *by == hexer;
                    }
                    _ => {}
                }
            }
            // A status held up by concentration lasts only while its caster concentrates.
            for c in &combat.combatants {
                for s in c.statuses.iter().filter(|s| s.concentration.is_some()) {
                    let caster = s.concentration.expect("filtered");
                    assert!(
                        combat.get(caster).conditions.concentration.is_some(),
                        "{}: {} still holds {} after its caster's concentration ended",
                        ruleset.name(),
                        c.name,
                        s.name
                    );
                }
            }
        }
        assert!(blessed, "{}: the AI cleric casts Bless", ruleset.name());
        assert!(held, "{}: the AI Hexer casts Hold Person or Bane", ruleset.name());
    }
}

#[test]
fn spell_effect_fields_that_do_not_fit_are_refused_with_what_to_write() {
    let cases = [
        (
            "[[spell]]\nname = \"Blessing\"\nlevel = 1\ncasting_time = \"action\"\neffect = \"buff\"\n",
            "needs `status`",
        ),
        (
            "[[spell]]\nname = \"Zap\"\nlevel = 1\ncasting_time = \"action\"\neffect = \"save\"\nsave = \"dex\"\ndamage = \"2d6\"\ntype = \"fire\"\ntargets = 2\n",
            "`targets` goes with a save for a status alone",
        ),
        (
            "[[spell]]\nname = \"Hush\"\nlevel = 1\ncasting_time = \"action\"\neffect = \"save\"\nsave = \"wis\"\nstatus = \"Burning\"\nhalf_on_save = true\n",
            "`half_on_save` needs `damage`",
        ),
        (
            "[[spell]]\nname = \"Hush\"\nlevel = 1\ncasting_time = \"action\"\neffect = \"save\"\nsave = \"wis\"\n",
            "needs `damage`",
        ),
        (
            "[[spell]]\nname = \"Blessing\"\nlevel = 1\ncasting_time = \"action\"\neffect = \"buff\"\nstatus = \"Burning\"\ntarget = \"enemy\"\n",
            "cast on an ally",
        ),
        (
            "[[status]]\nname = \"Dull\"\nkind = \"modifier\"\nturns = 2\n",
            "needs `attack`, `saves` or `ac`",
        ),
        (
            "[[status]]\nname = \"Dull\"\nkind = \"modifier\"\nattack = \"1d4-1\"\nturns = 2\n",
            "one sign in front",
        ),
        (
            "[[status]]\nname = \"Dull\"\nkind = \"modifier\"\nac = 11\nturns = 2\n",
            "allowed -10–10",
        ),
        (
            "[[status]]\nname = \"Dull\"\nkind = \"modifier\"\nattack = \"1d4\"\namount = 3\nturns = 2\n",
            "amount",
        ),
    ];
    for (toml, wanted) in cases {
        let why = common::homebrew_refused(toml).to_string();
        assert!(why.contains(wanted), "{toml}\n→ {why}\n(wanted {wanted:?})");
    }
}

#[test]
fn a_modifier_status_is_not_a_condition_and_counts_down_at_its_holders_turns() {
    let content = content();
    let (mut f, party, foes) = party();
    let aria = party[1];
    let mut short = status(&content, "Blessed");
    short.duration = 1;
    f.get_mut(aria).statuses = vec![short];
    f.set_band(aria, foes[0], Band::Melee);
    f.turn_of(party[0]);
    let mut expired = false;
    for _ in 0..10 {
        let who = f.current();
        let events = f.act(who, Command::EndTurn);
        if any(
            &events,
            |e| matches!(e, Event::StatusExpired { id, status } if *id == aria && status == "Blessed"),
        ) {
            expired = true;
            break;
        }
    }
    assert!(
        expired,
        "a one-turn blessing expires at Aria's turn\n{}",
        f.transcript()
    );
}

/// Aria (a level-5 fighter) in melee with a Bog Witch the GM plays, at the witch's turn.
fn witch() -> (Fight, CombatantId, CombatantId) {
    let content = content();
    let mut f = Fight::new(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 5),
        Combatant::of_monster("Bog Witch", monster(&content, "Bog Witch"))
            .controlled_by(Controller::Player("gm".into())),
    ]);
    let (aria, witch) = (f.id("Aria"), f.id("Bog Witch"));
    f.melee(aria, witch);
    f.turn_of(witch);
    (f, aria, witch)
}

#[test]
fn an_innate_spell_is_cast_with_no_slot_as_often_a_fight_as_its_stat_block_says() {
    let (mut f, aria, witch) = witch();
    assert_eq!(f.get(witch).pools.spell_slots, [0; 9], "no slots at all");
    let events = f.act(witch, cast("Hold Person", aria));
    assert!(any(&events, |e| matches!(e, Event::SpellCast { slot: None, .. })));
    assert_eq!(save_totals(&events).len(), 1, "the spell works: Aria saves");
    // Its next turn: once a day is spent.
    f.turn_of(witch);
    let why = f.refused_for(witch, cast("Hold Person", aria));
    assert!(why.to_string().contains("1 time(s) a day"), "{why}");
    // An innate spell with no `per_day` is cast at will.
    for _ in 0..3 {
        f.turn_of(witch);
        let events = f.act(witch, cast("Bane", aria));
        assert_eq!(save_totals(&events)[0].0, aria);
    }
}

#[test]
fn an_ai_monster_casts_its_innate_spells_in_every_ruleset_and_never_more_often_than_allowed() {
    let content = content();
    for ruleset in Ruleset::ALL {
        let mut cast_hold = 0;
        for seed in 0..4 {
            let ai = || Controller::Ai(Behaviour::Aggressive);
            let all = vec![
                Combatant::character("Aria", Race::HUMAN, Class::FIGHTER, 5, ai()),
                Combatant::character("Bo", Race::HUMAN, Class::FIGHTER, 5, ai()),
                Combatant::of_monster("Bog Witch", monster(&content, "Bog Witch")),
            ];
            let mut combat = Combat::new(all, Terrain::default()).with_ruleset(ruleset);
            let mut dice = Dice::seeded(seed);
            let events =
                apply(&mut combat, Actor::Director, Command::Begin, &mut dice, common::now()).expect("it begins");
            let holds = events
                .iter()
                .filter(|e| matches!(e, Event::SpellCast { spell, .. } if *spell == self::spell("Hold Person")))
                .count();
            assert!(
                holds <= 1,
                "{}: Hold Person {holds} times in a 1/day fight",
                ruleset.name()
            );
            cast_hold += holds;
        }
        assert!(cast_hold > 0, "{}: the witch casts its innate spell", ruleset.name());
    }
}

#[test]
fn innate_spells_are_refused_when_unknown_listed_twice_or_out_of_range() {
    let base = "[[monster]]\nname = \"Hag\"\ntier = 1\nxp = 10\nhp = \"2d8\"\nac = 12\n\
                abilities = { str = 10, dex = 10, con = 10, int = 10, wis = 10, cha = 10 }\n\
                attacks = [{ name = \"Claw\", to_hit = 2, damage = \"1d4\", type = \"slashing\" }]\n";
    for (extra, wanted) in [
        ("innate_spells = [{ spell = \"Wish\" }]\n", "Wish"),
        (
            "innate_spells = [{ spell = \"Fire Bolt\", per_day = 0 }]\n",
            "allowed 1–10",
        ),
        (
            "spells = [\"Fire Bolt\"]\ninnate_spells = [{ spell = \"Fire Bolt\" }]\n",
            "not both",
        ),
        ("innate_spells = [{ spell = \"Fire Bolt\", uses = 2 }]\n", "uses"),
    ] {
        let why = common::homebrew_refused(&format!("{base}{extra}")).to_string();
        assert!(why.contains(wanted), "{extra}→ {why}");
    }
}

/// Cleo has blessed herself, Aria and Bo (a concentration spell) at her turn: the fight at the
/// goblins' next turn, with the blessed.
fn blessed_party() -> (Fight, Vec<CombatantId>, Vec<CombatantId>, Vec<CombatantId>) {
    let (mut f, party, foes) = party();
    let cleo = party[0];
    f.turn_of(cleo);
    let events = f.act(cleo, cast("Bless", cleo));
    let blessed = applied(&events, "Blessed");
    assert_eq!(blessed.len(), 3);
    assert_eq!(
        f.get(cleo).conditions.concentration.as_deref(),
        Some("Bless"),
        "{:?}\n{}",
        f.get(cleo).known_spell(spell("Bless")),
        f.transcript()
    );
    (f, party, foes, blessed)
}

/// The goblin `goblin` attacks Cleo; every reaction offered is passed up. All the events.
fn goblin_attacks(f: &mut Fight, goblin: CombatantId, cleo: CombatantId) -> Vec<Event> {
    let mut events = f.act(goblin, Command::Attack { target: Some(cleo) });
    while let Some(window) = &f.combat.window {
        let reactor = window.reactor;
        events.extend(f.act(reactor, Command::Pass));
    }
    events
}

/// Whether none of `ids` holds `status`.
fn nobody_holds(f: &Fight, ids: &[CombatantId], status: &str) -> bool {
    ids.iter()
        .all(|&id| f.get(id).statuses.iter().all(|s| s.name != status))
}

fn ended(events: &[Event], status: &str) -> Vec<CombatantId> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::StatusExpired { id, status: s } if s == status => Some(*id),
            _ => None,
        })
        .collect()
}

#[test]
fn a_second_concentration_spell_ends_the_first_and_every_status_it_held_up() {
    let (mut f, party, foes, blessed) = blessed_party();
    let cleo = party[0];
    f.turn_of(cleo);
    let events = f.act(cleo, cast("Bane", foes[0]));
    assert!(any(
        &events,
        |e| matches!(e, Event::ConcentrationEnded { id, spell } if *id == cleo && spell == "Bless")
    ));
    let mut gone = ended(&events, "Blessed");
    gone.sort_unstable();
    let mut was = blessed;
    was.sort_unstable();
    assert_eq!(gone, was, "every blessing ends with the concentration");
    assert!(nobody_holds(&f, &party, "Blessed"));
    assert_eq!(f.get(cleo).conditions.concentration.as_deref(), Some("Bane"));
}

#[test]
fn damage_calls_for_a_con_save_against_10_or_half_the_damage_and_a_failure_ends_concentration() {
    let (f, party, foes, _) = blessed_party();
    let cleo = party[0];
    let mut outcomes = [false, false];
    for seed in 0..300 {
        let mut g = twin(&f);
        g.dice = Dice::seeded(seed);
        g.turn_of(foes[0]);
        let events = goblin_attacks(&mut g, foes[0], cleo);
        let Some(dealt) = common::damage_to(&events, cleo).first().copied() else {
            continue;
        };
        let save = events.iter().find_map(|e| match e {
            Event::SavingThrow {
                id,
                ability,
                dc,
                success,
                ..
            } if *id == cleo => Some((*ability, *dc, *success)),
            _ => None,
        });
        let (ability, dc, success) = save.expect("a concentration save after the damage");
        assert_eq!(ability, engine::content::Ability::Con);
        assert_eq!(dc, (dealt / 2).max(10));
        assert_eq!(g.get(cleo).conditions.concentration.is_some(), success);
        assert_eq!(ended(&events, "Blessed").len(), if success { 0 } else { 3 });
        outcomes[usize::from(success)] = true;
        if outcomes == [true, true] {
            return;
        }
    }
    panic!("saw a failed and a kept concentration: {outcomes:?}");
}

#[test]
fn dropping_to_0_hit_points_or_being_paralyzed_ends_concentration() {
    let (mut f, party, foes, _) = blessed_party();
    let cleo = party[0];
    f.get_mut(cleo).hp = 1;
    f.turn_of(foes[0]);
    let seed = (0..500)
        .find(|&seed| {
            let mut g = twin(&f);
            g.dice = Dice::seeded(seed);
            goblin_attacks(&mut g, foes[0], cleo);
            g.get(cleo).is_downed()
        })
        .expect("a hit that drops her");
    f.dice = Dice::seeded(seed);
    let events = goblin_attacks(&mut f, foes[0], cleo);
    assert!(
        !any(&events, |e| matches!(e, Event::SavingThrow { .. })),
        "no save at 0 HP"
    );
    assert_eq!(ended(&events, "Blessed").len(), 3);
    assert!(f.get(cleo).conditions.concentration.is_none());

    let (mut f, party, _, _) = blessed_party();
    let cleo = party[0];
    let hexer = f.id("Hexer");
    f.turn_of(hexer);
    f.act_with(hexer, cast("Hold Person", cleo), |_, c| {
        c.get(cleo).statuses.iter().any(|s| s.name == "Held")
    });
    assert!(
        f.get(cleo).conditions.concentration.is_none(),
        "the held cannot concentrate"
    );
    assert!(nobody_holds(&f, &party, "Blessed"));
    // The Hexer concentrates on its hold; Cleo's blessings are gone, its hold stays.
    assert_eq!(f.get(hexer).conditions.concentration.as_deref(), Some("Hold Person"));
}

#[test]
fn a_concentration_spell_needs_a_status_to_hold_up() {
    let why = common::homebrew_refused(
        "[[spell]]\nname = \"Zap\"\nlevel = 1\ncasting_time = \"action\"\neffect = \"attack\"\ndamage = \"1d6\"\ntype = \"fire\"\nconcentration = true\n",
    )
    .to_string();
    assert!(why.contains("gives none"), "{why}");
}

#[test]
fn a_status_potion_blesses_whoever_drinks_it_or_an_ally_it_is_administered_to() {
    let content = content();
    let heroism = engine::content::Item::named("Potion of Heroism").expect("an item name");
    let (mut f, party, _) = party();
    let (aria, bo) = (party[1], party[2]);
    f.get_mut(aria).items.insert(heroism, 2);
    f.get_mut(aria).draw_on(&content);
    f.melee(aria, bo);
    f.turn_of(aria);
    let events = f.act(
        aria,
        Command::UseItem {
            item: heroism,
            target: None,
        },
    );
    assert_eq!(applied(&events, "Blessed"), [aria]);
    assert!(!any(&events, |e| matches!(e, Event::SavingThrow { .. })));
    f.turn_of(aria);
    let events = f.act(
        aria,
        Command::UseItem {
            item: heroism,
            target: Some(bo),
        },
    );
    assert_eq!(applied(&events, "Blessed"), [bo]);
    assert_eq!(f.get(aria).items.get(&heroism).copied().unwrap_or(0), 0, "both drunk");
    // A status that ends on a repeat of its inflicting save has no save to repeat from a potion.
    let why = common::homebrew_refused(&format!(
        "{SRD_SPELLS}\n[[item]]\nname = \"Murky Draught\"\neffect = \"status\"\nstatus = \"Held\"\nweight = 0.5\n"
    ))
    .to_string();
    assert!(why.contains("an item gives it with no save"), "{why}");
}
