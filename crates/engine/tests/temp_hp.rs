//! Temporary hit points (`engine::temp_hp`; SRD 5.1 "Temporary Hit Points"): a `temp_hp` spell or
//! item gives them; damage comes off them first and only the rest off hit points; they don't
//! stack (the larger is kept); a caster's AI wards itself with them when it has none.

mod common;

use common::{Fight, any, pc, puppet};
use engine::content::data::Content;
use engine::content::{Behaviour, Class, Item, Monster, Race, Spell};
use engine::{Actor, Combat, Combatant, CombatantId, Command, Controller, Dice, Event, Ruleset, apply};

const WARDS: &str = r#"
[[spell]]
name = "False Life"
level = 1
casting_time = "action"
effect = "temp_hp"
temp_hp = "1d4+4"
classes = ["Mage"]

[[item]]
name = "Draught of Bark"
effect = "temp_hp"
temp_hp = "2d4+10"
price = 50
weight = 0.5
"#;

fn content() -> Content {
    common::homebrew(WARDS)
}

fn gained(events: &[Event], who: CombatantId) -> Option<(i32, i32, bool)> {
    events.iter().find_map(|e| match e {
        Event::TempHpGained {
            target,
            amount,
            temp_hp,
            kept,
            ..
        } if *target == who => Some((*amount, *temp_hp, *kept)),
        _ => None,
    })
}

/// A level-3 mage who knows False Life and a level-5 fighter against a goblin the GM plays.
fn fight() -> (Fight, CombatantId, CombatantId, CombatantId) {
    let content = content();
    let mut mage = pc("Mira", Race::HUMAN, Class::MAGE, 3);
    mage.draw_on(&content);
    let mut f = Fight::new(vec![
        mage,
        pc("Aria", Race::HUMAN, Class::FIGHTER, 5),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let (mira, aria, goblin) = (f.id("Mira"), f.id("Aria"), f.id("Goblin"));
    f.melee(mira, goblin);
    f.melee(aria, goblin);
    f.melee(mira, aria);
    (f, mira, aria, goblin)
}

fn false_life(target: Option<CombatantId>) -> Command {
    Command::Cast {
        spell: Spell::named("False Life").unwrap(),
        target,
    }
}

#[test]
fn a_temp_hp_spell_gives_its_roll_and_a_second_keeps_the_larger_never_the_sum() {
    let (mut f, mira, aria, _) = fight();
    f.turn_of(mira);
    let events = f.act(mira, false_life(None));
    let (amount, temp, kept) = gained(&events, mira).expect("Mira is warded");
    assert!((5..=8).contains(&amount), "1d4 + 4 gave {amount}");
    assert_eq!((temp, kept), (amount, false));
    assert_eq!(f.get(mira).temp_hp, amount);
    assert_eq!(
        f.get(mira).hp,
        f.get(mira).max_hp,
        "temporary hit points are not healing"
    );
    // Cast again: the larger of the two stays.
    f.turn_of(mira);
    let events = f.act(mira, false_life(None));
    let (second, temp, kept) = gained(&events, mira).unwrap();
    assert_eq!(temp, amount.max(second));
    assert_eq!(kept, second <= amount);
    assert_eq!(f.get(mira).temp_hp, amount.max(second));
    // On an ally.
    f.turn_of(mira);
    let events = f.act(mira, false_life(Some(aria)));
    assert!(gained(&events, aria).is_some());
    assert!(f.get(aria).temp_hp >= 5);
}

#[test]
fn damage_comes_off_temporary_hit_points_first_and_only_the_rest_off_hit_points() {
    let (mut f, mira, aria, goblin) = fight();
    // No Shield to raise and no Interception from a neighbour: the hit lands as rolled.
    f.get_mut(mira).pools.spell_slots = [0; 9];
    f.set_band(mira, aria, engine::Band::Near);
    f.set_band(goblin, aria, engine::Band::Near);
    f.get_mut(mira).temp_hp = 3;
    let hp = f.get(mira).hp;
    f.turn_of(goblin);
    let attack = Command::Attack { target: Some(mira) };
    let events = f.act_with(goblin, attack.clone(), |events, _| {
        any(events, |e| matches!(e, Event::TempHpAbsorbed { .. }))
            && any(events, |e| matches!(e, Event::DamageDealt { .. }))
    });
    let absorbed = events
        .iter()
        .find_map(|e| match e {
            Event::TempHpAbsorbed { id, amount, left } if *id == mira => Some((*amount, *left)),
            _ => None,
        })
        .unwrap();
    let dealt = common::damage_to(&events, mira);
    assert_eq!(absorbed, (3, 0), "a hit above 3 takes all 3");
    assert_eq!(dealt.len(), 1);
    assert_eq!(f.get(mira).hp, hp - dealt[0], "the rest comes off hit points");
    assert_eq!(f.get(mira).temp_hp, 0);
    // A hit smaller than the buffer leaves hit points untouched.
    f.get_mut(mira).temp_hp = 50;
    let hp = f.get(mira).hp;
    f.turn_of(goblin);
    let events = f.act_with(goblin, attack, |events, _| {
        any(events, |e| matches!(e, Event::TempHpAbsorbed { .. }))
    });
    assert!(common::damage_to(&events, mira).is_empty(), "nothing past the buffer");
    assert_eq!(f.get(mira).hp, hp);
    assert!(f.get(mira).temp_hp < 50);
}

#[test]
fn a_temp_hp_draught_wards_whoever_drinks_it() {
    let content = content();
    let draught = Item::named("Draught of Bark").unwrap();
    let (mut f, _, aria, _) = fight();
    f.get_mut(aria).items.insert(draught, 1);
    f.get_mut(aria).draw_on(&content);
    f.turn_of(aria);
    let events = f.act(
        aria,
        Command::UseItem {
            item: draught,
            target: None,
        },
    );
    let (amount, _, _) = gained(&events, aria).expect("Aria is warded");
    assert!((12..=18).contains(&amount), "2d4 + 10 gave {amount}");
    assert_eq!(f.get(aria).temp_hp, amount);
}

#[test]
fn a_caster_wards_itself_with_temp_hp_when_it_has_none_in_every_ruleset() {
    let content = content();
    for ruleset in Ruleset::ALL {
        let mut wards = 0;
        for seed in 0..6 {
            let mut mage = Combatant::character("Mira", Race::HUMAN, Class::MAGE, 3, Controller::Ai(Behaviour::Caster));
            mage.draw_on(&content);
            let foes = (1..=3).map(|i| Combatant::monster(&format!("Goblin {i}"), Monster::GOBLIN));
            let mut combat = Combat::new(std::iter::once(mage).chain(foes).collect(), engine::Terrain::default())
                .with_ruleset(ruleset);
            let mut dice = Dice::seeded(seed);
            let events =
                apply(&mut combat, Actor::Director, Command::Begin, &mut dice, common::now()).expect("it begins");
            let mira = combat.combatants[0].id;
            wards += events
                .iter()
                .filter(|e| matches!(e, Event::TempHpGained { target, .. } if *target == mira))
                .count();
        }
        assert!(wards >= 1, "{}: Mira never warded herself", ruleset.name());
    }
}

#[test]
fn a_temp_hp_spell_is_cast_on_an_ally_and_needs_its_amount() {
    let why = common::homebrew_refused(&WARDS.replace(
        r#"effect = "temp_hp"
temp_hp = "1d4+4""#,
        r#"effect = "temp_hp""#,
    ))
    .to_string();
    assert!(why.contains("spell effect `temp_hp` needs `temp_hp`"), "{why}");
    let why = common::homebrew_refused(&WARDS.replace(
        r#"casting_time = "action""#,
        "casting_time = \"action\"\ntarget = \"enemy\"",
    ))
    .to_string();
    assert!(why.contains("is cast on an ally"), "{why}");
}
