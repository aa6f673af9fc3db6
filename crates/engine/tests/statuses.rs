//! Status effects in every ruleset (seed 003 §1.C, `engine::statuses`): a hit's status takes hold
//! after its damage, ticks at the start of each of its owner's turns by that model's own clock,
//! counts down and expires; a stun takes the turn away; a Troll regenerates; a creature immune to
//! the condition a status stands for is never given it.

mod common;

use std::sync::Arc;

use common::homebrew as content;
use common::{Fight, any};
use engine::content::data::MonsterDef;
use engine::content::{Class, Condition, Monster, Race};
use engine::{Actor, Combat, Combatant, CombatantId, Command, Controller, Dice, Event, Ruleset, Side, Terrain, apply};

/// A lurker that never misses (but on a 1) and whose bite inflicts `status`, with no save.
fn lurker(status: &str) -> Arc<MonsterDef> {
    lurker_with(status, "")
}

/// [`lurker`], with more statuses defined (`more`, TOML).
fn lurker_with(status: &str, more: &str) -> Arc<MonsterDef> {
    let c = content(&format!(
        r#"
{more}

[[status]]
name = "Bog Rot"
kind = "damage"
amount = 3
type = "poison"
turns = 2

[[monster]]
name = "Lurker"
tier = 1
xp = 10
hp = "30d10"
ac = 10
abilities = {{ str = 12, dex = 10, con = 12, int = 3, wis = 10, cha = 3 }}
attacks = [{{ name = "Bite", to_hit = 30, damage = "1", type = "piercing", on_hit = {{ status = "{status}" }} }}]
"#
    ));
    Arc::clone(c.monsters.get("Lurker").unwrap())
}

/// A level-10 fighter (the AI's) against the lurker under `ruleset`, played out.
fn fight(ruleset: Ruleset, status: &str, seed: u64) -> (Combat, Vec<Event>, CombatantId) {
    common::fighter_against(lurker(status), ruleset, seed)
}

#[test]
fn a_hits_status_takes_hold_ticks_counts_down_and_expires_in_every_ruleset() {
    for ruleset in Ruleset::ALL {
        let (_, events, aria) = fight(ruleset, "Bog Rot", 1);
        let applied = events
            .iter()
            .position(|e| matches!(e, Event::StatusApplied { id, status, .. } if *id == aria && status == "Bog Rot"))
            .unwrap_or_else(|| panic!("{}: Bog Rot never took hold", ruleset.name()));
        // After the hit: its two ticks of 3 poison damage, then it expires (unless refreshed
        // by another bite first, which sets it back to 2).
        let ticks: Vec<(i32, u32)> = events[applied..]
            .iter()
            .filter_map(|e| match e {
                Event::StatusTicked {
                    id, amount, remaining, ..
                } if *id == aria => Some((*amount, *remaining)),
                _ => None,
            })
            .collect();
        assert!(!ticks.is_empty(), "{}: Bog Rot never ticked", ruleset.name());
        assert!(
            ticks.iter().all(|(amount, _)| *amount == -3),
            "{}: {ticks:?}",
            ruleset.name()
        );
        assert_eq!(ticks[0].1, 1, "{}: two turns, one left after the first", ruleset.name());
        assert!(
            ticks.iter().all(|(_, remaining)| *remaining <= 1),
            "{}: a status counts down: {ticks:?}",
            ruleset.name()
        );
        let damaged = events[applied..].iter().any(|e| {
            matches!(e, Event::DamageDealt { target, source: None, amount: 3, damage_type: engine::content::DamageType::Poison, .. } if *target == aria)
        });
        assert!(damaged, "{}: the tick dealt no poison damage", ruleset.name());
    }
}

#[test]
fn a_stun_takes_the_turn_away_in_every_ruleset() {
    for ruleset in Ruleset::ALL {
        let (combat, events, aria) = fight(ruleset, "Paralysed", 2);
        let stunned = events
            .iter()
            .position(|e| matches!(e, Event::Stunned { id } if *id == aria))
            .unwrap_or_else(|| panic!("{}: Aria was never stunned", ruleset.name()));
        let transcript = || {
            events
                .iter()
                .map(|e| engine::log::line(&combat, e))
                .collect::<Vec<_>>()
                .join("\n")
        };
        if ruleset == Ruleset::Ticks {
            // The cycle is spent stunned: as long as an Attack's, with no action of hers in it.
            let Some(Event::PhaseStarted { id, action, .. }) = events.get(stunned + 1) else {
                panic!("ticks: no stunned cycle after the stun\n{}", transcript());
            };
            assert_eq!((*id, action.as_str()), (aria, "Stunned"));
        } else {
            // The turn ends as it starts.
            assert_eq!(
                events.get(stunned + 1),
                Some(&Event::TurnEnded { id: aria }),
                "{}\n{}",
                ruleset.name(),
                transcript()
            );
        }
    }
}

#[test]
fn a_troll_regenerates_at_the_start_of_its_turns_in_every_ruleset() {
    for ruleset in Ruleset::ALL {
        let fighter = Combatant::character(
            "Aria",
            Race::HUMAN,
            Class::FIGHTER,
            5,
            Controller::Ai(engine::content::Behaviour::Aggressive),
        );
        let mut troll = Combatant::monster("Troll", Monster::TROLL);
        troll.hp -= 30;
        let mut combat = Combat::new(vec![fighter, troll], Terrain::default()).with_ruleset(ruleset);
        let troll = combat.combatants[1].id;
        let mut dice = Dice::seeded(4);
        let events = apply(&mut combat, Actor::Director, Command::Begin, &mut dice, common::now()).unwrap();
        assert!(
            any(
                &events,
                |e| matches!(e, Event::StatusTicked { id, amount, permanent: true, .. } if *id == troll && *amount > 0)
            ),
            "{}: the troll never regenerated",
            ruleset.name()
        );
    }
}

#[test]
fn a_creature_immune_to_paralysis_is_never_paralysed() {
    let c = content(
        r#"
[[monster]]
name = "Stone Guard"
tier = 1
xp = 10
hp = "30d10"
ac = 5
abilities = { str = 10, dex = 10, con = 10, int = 10, wis = 10, cha = 10 }
attacks = [{ name = "Slam", to_hit = 0, damage = "1", type = "bludgeoning" }]
condition_immunities = ["paralyzed"]
"#,
    );
    let mut ghoul = Combatant::monster("Ghoul", Monster::GHOUL).controlled_by(Controller::Player("gm".into()));
    ghoul.side = Side::Party;
    let guard = Combatant::of_monster("Guard", Arc::clone(c.monsters.get("Stone Guard").unwrap()))
        .controlled_by(Controller::Player("gm2".into()));
    let mut f = Fight::new(vec![ghoul, guard]);
    let (ghoul, guard) = (f.id("Ghoul"), f.id("Guard"));
    f.melee(ghoul, guard);
    f.turn_of(ghoul);
    // A claw that hits and whose CON save fails would paralyse anyone else.
    let events = f.act_with(ghoul, Command::Attack { target: Some(guard) }, |e, _| {
        any(e, |e| matches!(e, Event::SavingThrow { success: false, .. }))
    });
    assert!(any(&events, |e| matches!(
        e,
        Event::ConditionImmune {
            condition: Condition::Paralyzed,
            ..
        }
    )));
    assert!(!any(&events, |e| matches!(e, Event::StatusApplied { .. })));
    assert!(f.get(guard).statuses.is_empty());
}

#[test]
fn a_fight_stored_with_statuses_on_the_charge_race_sheet_reads_them_back_on_the_combatant() {
    let mut f = Fight::new(vec![
        common::pc("Aria", Race::HUMAN, Class::FIGHTER, 3),
        common::monster("Goblin", Monster::GOBLIN),
    ]);
    let aria = f.id("Aria");
    f.get_mut(aria).statuses = vec![engine::content::statuses::burning()];
    let mut stored = serde_json::to_value(&f.combat).unwrap();
    // As a fight stored before: the statuses inside the charge race's sheet, which every
    // combatant carried then.
    let list = stored["combatants"]["list"].as_array_mut().unwrap();
    let aria_json = list[0].as_object_mut().unwrap();
    let statuses = aria_json.remove("statuses").unwrap();
    aria_json.insert(
        "ctb".into(),
        serde_json::json!({"charge": 0, "ap": 0, "cooldowns": {}, "statuses": statuses}),
    );
    let read: Combat = serde_json::from_value(stored).unwrap();
    assert_eq!(read.get(aria).statuses, vec![engine::content::statuses::burning()]);
    assert!(read.get(aria).ctb().statuses.is_empty());
}

/// A paralysis of ten turns that ends on a CON save of `dc` at the end of its owner's turn.
fn held(dc: i32) -> Arc<MonsterDef> {
    lurker_with(
        "Held",
        &format!(
            r#"
[[status]]
name = "Held"
kind = "condition"
condition = "paralyzed"
turns = 10
save_ends = {{ save = "con", dc = {dc} }}
"#
        ),
    )
}

/// Aria's saving throws against `dc` and the status's expiry, in order, from `from` on.
fn saves_and_expiry(events: &[Event], aria: CombatantId, from: usize) -> Vec<String> {
    events[from..]
        .iter()
        .filter_map(|e| match e {
            Event::SavingThrow { id, dc, success, .. } if *id == aria => Some(format!("save {dc} {success}")),
            Event::StatusExpired { id, status } if *id == aria && status == "Held" => Some("expired".into()),
            Event::StatusApplied { id, status, .. } if *id == aria && status == "Held" => Some("applied".into()),
            Event::TurnEnded { id } if *id == aria => Some("turn ended".into()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_save_ends_status_ends_when_its_save_succeeds_at_the_end_of_the_owners_turn_in_every_ruleset() {
    for ruleset in Ruleset::ALL {
        let (_, events, aria) = common::fighter_against(held(1), ruleset, 3);
        let applied = events
            .iter()
            .position(|e| matches!(e, Event::StatusApplied { id, status, .. } if *id == aria && status == "Held"))
            .unwrap_or_else(|| panic!("{}: Held never took hold", ruleset.name()));
        let seen = saves_and_expiry(&events, aria, applied + 1);
        // DC 1: her first end-of-turn save succeeds and the paralysis ends there, nine of its
        // ten turns unspent.
        let save = seen.iter().position(|s| s == "save 1 true");
        let expired = seen.iter().position(|s| s == "expired");
        assert!(
            save.is_some() && expired == save.map(|i| i + 1),
            "{}: {seen:?}",
            ruleset.name()
        );
        let ticks_before_expiry = events[applied..]
            .iter()
            .take_while(|e| !matches!(e, Event::StatusExpired { id, .. } if *id == aria))
            .filter(|e| matches!(e, Event::StatusTicked { id, status, .. } if *id == aria && status == "Held"))
            .count();
        // Turn-based: it ticks once, at her next turn's start. On the timeline, the cycle she is
        // in when it takes hold is her turn: it may end there, before any tick.
        let allowed = if ruleset == Ruleset::Ticks { 0..=1 } else { 1..=1 };
        assert!(
            allowed.contains(&ticks_before_expiry),
            "{}: it ends at the end of her first turn ({ticks_before_expiry} ticks)",
            ruleset.name()
        );
    }
}

#[test]
fn a_save_ends_status_holds_while_the_save_fails_and_is_saved_against_at_each_turns_end_in_every_ruleset() {
    for ruleset in Ruleset::ALL {
        let (_, events, aria) = common::fighter_against(held(40), ruleset, 3);
        let applied = events
            .iter()
            .position(|e| matches!(e, Event::StatusApplied { id, status, .. } if *id == aria && status == "Held"))
            .unwrap_or_else(|| panic!("{}: Held never took hold", ruleset.name()));
        let seen = saves_and_expiry(&events, aria, applied + 1);
        let failed = seen.iter().filter(|s| *s == "save 40 false").count();
        assert!(failed >= 2, "{}: {seen:?}", ruleset.name());
        assert!(
            !seen.contains(&"save 40 true".to_owned()),
            "{}: {seen:?}",
            ruleset.name()
        );
        if ruleset != Ruleset::Ticks {
            // Turn-based: one save at each of her turns' ends while it holds, just before it ends.
            for (i, s) in seen.iter().enumerate() {
                if s == "save 40 false" {
                    assert_eq!(
                        seen.get(i + 1).map(String::as_str),
                        Some("turn ended"),
                        "{}: {seen:?}",
                        ruleset.name()
                    );
                }
            }
        }
    }
}

#[test]
fn a_status_that_ends_on_the_inflicting_save_repeats_that_save_and_needs_one() {
    let c = content(
        r#"
[[status]]
name = "Frozen Stiff"
kind = "condition"
condition = "paralyzed"
turns = 10
save_ends = true

[[monster]]
name = "Rime Ghoul"
tier = 1
xp = 10
hp = "5d8"
ac = 12
abilities = { str = 12, dex = 14, con = 10, int = 6, wis = 10, cha = 6 }
attacks = [{ name = "Claws", to_hit = 4, damage = "2d4+2", type = "slashing", on_hit = { status = "Frozen Stiff", save = "con", dc = 11 } }]
"#,
    );
    let claws = &c.monsters.get("Rime Ghoul").unwrap().attacks[0];
    let affliction = engine::content::statuses::Affliction::from(claws.on_hit.as_ref().unwrap());
    let ends = affliction.status.ends_on_save.expect("it ends on a save");
    assert_eq!((ends.ability, ends.dc), (engine::content::Ability::Con, 11));

    let refused = common::homebrew_refused(
        r#"
[[status]]
name = "Frozen Stiff"
kind = "condition"
condition = "paralyzed"
turns = 10
save_ends = true

[[status]]
name = "Forever Stiff"
kind = "condition"
condition = "paralyzed"
permanent = true
save_ends = { save = "con", dc = 12 }

[[monster]]
name = "Rime Ghoul"
tier = 1
xp = 10
hp = "5d8"
ac = 12
abilities = { str = 12, dex = 14, con = 10, int = 6, wis = 10, cha = 6 }
attacks = [{ name = "Claws", to_hit = 4, damage = "2d4+2", type = "slashing", on_hit = { status = "Frozen Stiff" } }]
"#,
    )
    .to_string();
    assert!(refused.contains("this on_hit needs `save` and `dc`"), "{refused}");
    assert!(refused.contains("a permanent status cannot end on a save"), "{refused}");
}
