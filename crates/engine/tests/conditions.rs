//! The conditions of SRD 5.1 as statuses hold them (`kind = "condition"`, `engine::conditions`):
//! what each does to attack rolls, saving throws, speed and turns, and a condition status counting
//! down and holding in every ruleset.

mod common;

use common::{Fight, advantage, any, disadvantage, pc, puppet};
use engine::content::statuses::{StatusEffect, StatusKind};
use engine::content::{Ability, Class, Condition, Monster, Race, Spell};
use engine::{Combat, Combatant, CombatantId, Command, Event, Ruleset};

fn held(condition: Condition, turns: u32) -> StatusEffect {
    StatusEffect {
        name: format!("Held {}", condition.name()),
        kind: StatusKind::Condition,
        duration: turns,
        permanent: false,
        condition: Some(condition),
        ends_on_save: None,
        concentration: None,
    }
}

/// Aria (a level-5 fighter) in melee with a goblin the GM plays.
fn aria_and_goblin() -> (Fight, CombatantId, CombatantId) {
    let mut f = Fight::new(vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 5),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let (aria, goblin) = (f.id("Aria"), f.id("Goblin"));
    f.melee(aria, goblin);
    (f, aria, goblin)
}

fn first_d20(events: &[Event]) -> engine::dice::D20 {
    common::rolls(events)[0].d20
}

#[test]
fn the_blinded_frightened_and_poisoned_attack_at_disadvantage() {
    for condition in [Condition::Blinded, Condition::Frightened, Condition::Poisoned] {
        let (mut f, aria, goblin) = aria_and_goblin();
        f.get_mut(aria).statuses = vec![held(condition, 2)];
        f.turn_of(aria);
        let events = f.act(aria, Command::Attack { target: Some(goblin) });
        assert!(disadvantage(&first_d20(&events)), "{condition:?}");
    }
}

#[test]
fn attacks_on_the_blinded_and_the_helpless_and_by_the_invisible_have_advantage() {
    for (on_target, condition) in [
        (true, Condition::Blinded),
        (true, Condition::Paralyzed),
        (true, Condition::Stunned),
        (false, Condition::Invisible),
    ] {
        let (mut f, aria, goblin) = aria_and_goblin();
        let holder = if on_target { goblin } else { aria };
        f.get_mut(holder).statuses = vec![held(condition, 2)];
        f.turn_of(aria);
        let events = f.act(aria, Command::Attack { target: Some(goblin) });
        assert!(advantage(&first_d20(&events)), "{condition:?}");
    }
    // An invisible target: disadvantage.
    let (mut f, aria, goblin) = aria_and_goblin();
    f.get_mut(goblin).statuses = vec![held(Condition::Invisible, 2)];
    f.turn_of(aria);
    let events = f.act(aria, Command::Attack { target: Some(goblin) });
    assert!(disadvantage(&first_d20(&events)));
}

#[test]
fn a_melee_hit_on_the_paralyzed_is_a_critical_hit() {
    let (mut f, aria, goblin) = aria_and_goblin();
    f.get_mut(goblin).statuses = vec![held(Condition::Paralyzed, 2)];
    (f.get_mut(goblin).hp, f.get_mut(goblin).max_hp) = (500, 500);
    f.turn_of(aria);
    let events = f.act_with(aria, Command::Attack { target: Some(goblin) }, |e, _| {
        common::rolls(e).iter().any(|r| r.hit && r.d20.natural < 20)
    });
    for r in common::rolls(&events).iter().filter(|r| r.hit) {
        assert!(r.critical, "every hit is a critical: {r:?}");
    }
}

#[test]
fn the_helpless_fail_str_and_dex_saves_outright_and_the_restrained_roll_dex_at_disadvantage() {
    let mut f = Fight::new(vec![
        pc("Cleo", Race::HUMAN, Class::CLERIC, 5),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let (cleo, goblin) = (f.id("Cleo"), f.id("Goblin"));
    (f.get_mut(goblin).hp, f.get_mut(goblin).max_hp) = (500, 500);
    f.get_mut(goblin).statuses = vec![held(Condition::Stunned, 2)];
    f.turn_of(cleo);
    let flame = Command::Cast {
        spell: Spell::SACRED_FLAME,
        target: Some(goblin),
    };
    let events = f.act(cleo, flame.clone());
    assert!(any(&events, |e| matches!(
        e,
        Event::SaveFailedHelpless {
            ability: Ability::Dex,
            ..
        }
    )));
    assert!(!any(&events, |e| matches!(e, Event::SavingThrow { .. })));

    f.get_mut(goblin).statuses = vec![held(Condition::Restrained, 2)];
    f.turn_of(cleo);
    let events = f.act(cleo, flame);
    let d20 = events
        .iter()
        .find_map(|e| match e {
            Event::SavingThrow { d20, .. } => Some(*d20),
            _ => None,
        })
        .unwrap();
    assert!(disadvantage(&d20));
}

#[test]
fn the_restrained_grappled_and_helpless_cannot_move() {
    for condition in [
        Condition::Restrained,
        Condition::Grappled,
        Condition::Paralyzed,
        Condition::Petrified,
    ] {
        let mut goblin = Combatant::monster("Goblin", Monster::GOBLIN);
        assert_eq!(goblin.speed(), 30);
        goblin.statuses = vec![held(condition, 1)];
        assert_eq!(goblin.speed(), 0, "{condition:?}");
    }
}

/// A lurker whose bite (never missing but on a 1) frightens — or paralyses — for two turns.
fn lurker_fight(ruleset: Ruleset, condition: &str, seed: u64) -> (Combat, Vec<Event>, CombatantId) {
    let c = common::homebrew(&format!(
        r#"
[[status]]
name = "Dread"
kind = "condition"
condition = "{condition}"
turns = 2

[[monster]]
name = "Lurker"
tier = 1
xp = 10
hp = "30d10"
ac = 10
abilities = {{ str = 12, dex = 10, con = 12, int = 3, wis = 10, cha = 3 }}
attacks = [{{ name = "Gaze", to_hit = 30, damage = "1", type = "psychic", on_hit = {{ status = "Dread" }} }}]
"#
    ));
    common::fighter_against(std::sync::Arc::clone(c.monsters.get("Lurker").unwrap()), ruleset, seed)
}

#[test]
fn in_every_ruleset_a_frightened_fighter_swings_at_disadvantage_until_it_wears_off() {
    for ruleset in Ruleset::ALL {
        let (combat, events, aria) = lurker_fight(ruleset, "frightened", 3);
        let applied = events
            .iter()
            .position(|e| matches!(e, Event::StatusApplied { id, status, .. } if *id == aria && status == "Dread"))
            .unwrap_or_else(|| panic!("{}: never frightened", ruleset.name()));
        // Her swings after the gaze, while it holds: at disadvantage (or a plain roll where an
        // advantage cancels it, as Exploit the Opening's on the tick timeline).
        let mut swings = Vec::new();
        for e in &events[applied..] {
            match e {
                Event::StatusExpired { id, .. } if *id == aria => break,
                Event::AttackRolled { attacker, d20, .. } if *attacker == aria => swings.push(*d20),
                _ => {}
            }
        }
        assert!(
            !swings.is_empty(),
            "{}: she never swung while frightened",
            ruleset.name()
        );
        assert!(
            swings.iter().any(disadvantage) && !swings.iter().any(advantage),
            "{}: {swings:?}\n{}",
            ruleset.name(),
            events[applied..]
                .iter()
                .map(|e| engine::log::line(&combat, e))
                .collect::<Vec<_>>()
                .join("\n")
        );
        assert!(
            any(
                &events[applied..],
                |e| matches!(e, Event::StatusTicked { id, .. } if *id == aria)
            ),
            "{}: the condition never counted down",
            ruleset.name()
        );
    }
}

#[test]
fn in_every_ruleset_a_paralyzing_gaze_takes_the_turn() {
    for ruleset in Ruleset::ALL {
        let (_, events, aria) = lurker_fight(ruleset, "paralyzed", 5);
        assert!(
            any(&events, |e| matches!(e, Event::Stunned { id } if *id == aria)),
            "{}: the paralysed fighter kept her turn",
            ruleset.name()
        );
    }
}

#[test]
fn a_condition_status_needs_its_condition() {
    let e = common::homebrew_refused("[[status]]\nname = \"Dread\"\nkind = \"condition\"\nturns = 2\n");
    assert!(
        e.to_string()
            .contains("status kind `condition` needs `condition`: one of `blinded`"),
        "{e}"
    );
}
