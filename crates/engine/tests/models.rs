//! Properties every timing model keeps (DESIGN "Tests"): under seeded random play by players,
//! HP stays in bounds, AP never exceed the turn's budget, a refused command changes nothing,
//! the order is a permutation of the fighters, the same seed gives the same log, and a fight
//! saved as JSON mid-way resumes with exactly the same outcome.

mod common;

use common::{monster, now, pc};
use engine::content::{Class, Monster, Race, Spell};
use engine::timing::{ctb, tdgs::Instant};
use engine::{Actor, Combat, CombatantId, Command, Dice, DicePosition, Event, MoveIntent, Ruleset, Terrain, apply};

fn party() -> Vec<engine::Combatant> {
    vec![
        pc("Aria", Race::HUMAN, Class::FIGHTER, 5),
        pc("Mira", Race::ELF, Class::MAGE, 5),
        pc("Rue", Race::HALFLING, Class::ROGUE, 3),
        monster("Goblin 1", Monster::GOBLIN).controlled_by(engine::Controller::Player("gm".into())),
        monster("Goblin 2", Monster::GOBLIN),
        monster("Wolf", Monster::WOLF),
    ]
}

/// A random but legal-looking command for whoever must act now.
fn pick(combat: &Combat, chooser: &mut Dice) -> (Actor, Command) {
    if let Some(window) = &combat.window {
        let reactor = window.reactor;
        let command = if chooser.coin() {
            Command::React(window.options[0])
        } else {
            Command::Pass
        };
        return (Actor::Combatant(reactor), command);
    }
    let me = combat.current().expect("someone must act");
    let enemy = combat
        .combatants
        .iter()
        .filter(|c| c.side != combat.get(me).side && !c.is_dead())
        .map(|c| c.id)
        .next()
        .unwrap_or(CombatantId(0));
    let command = match chooser.die(12) {
        1 | 2 => Command::Attack { target: Some(enemy) },
        3 => Command::Move(MoveIntent::Melee(enemy)),
        4 => Command::Move(MoveIntent::Away),
        5 => Command::Dodge,
        6 => Command::Dash,
        7 => Command::Cast {
            spell: Spell::FIRE_BOLT,
            target: Some(enemy),
        },
        8 => Command::Bonus(engine::BonusAction::SecondWind),
        9 => Command::Delay { after: None },
        10 => Command::DeclareInstant(Instant::granted(combat.get(me)).unwrap_or(Instant::BattleCry)),
        _ => Command::EndTurn,
    };
    (Actor::Combatant(me), command)
}

struct Played {
    events: Vec<Event>,
    combat: Combat,
}

/// Plays up to `steps` random commands from `combat`; checks the invariants after each.
fn play(
    mut combat: Combat,
    mut dice: Dice,
    mut chooser: Dice,
    steps: usize,
    save_at: usize,
) -> (Played, Option<(String, DicePosition, Dice)>) {
    let mut events = Vec::new();
    let mut saved = None;
    let everyone: Vec<CombatantId> = combat.combatants.iter().map(|c| c.id).collect();
    for step in 0..steps {
        if combat.outcome.is_some() {
            break;
        }
        if step == save_at {
            saved = Some((
                serde_json::to_string(&combat).unwrap(),
                dice.position(),
                chooser.clone(),
            ));
        }
        let (actor, command) = pick(&combat, &mut chooser);
        let before = combat.clone();
        let dice_before = dice.position();
        match apply(&mut combat, actor, command.clone(), &mut dice, now()) {
            Ok(e) => events.extend(e),
            Err(why) => {
                assert_eq!(combat, before, "{command:?} → {why:?} changed the combat");
                assert_eq!(dice.position(), dice_before);
                // Nothing else to do: wait (or pass) instead.
                let fallback = if combat.window.is_some() {
                    Command::Pass
                } else {
                    Command::EndTurn
                };
                events.extend(apply(&mut combat, actor, fallback, &mut dice, now()).expect("waiting is always legal"));
            }
        }
        for c in &combat.combatants {
            assert!((0..=c.max_hp).contains(&c.hp), "{} has {} HP", c.name, c.hp);
            if combat.ruleset == Ruleset::Ctb {
                assert!(
                    c.ctb().ap <= ctb::max_ap(ctb::speed(c)),
                    "{} has {} AP",
                    c.name,
                    c.ctb().ap
                );
                assert!(c.ctb().charge >= 0);
            }
        }
        let mut order = combat.order.clone();
        order.sort();
        order.dedup();
        assert_eq!(order.len(), combat.order.len(), "the order repeats no one");
        assert!(order.iter().all(|id| everyone.contains(id)));
    }
    (Played { events, combat }, saved)
}

#[test]
fn every_model_keeps_its_invariants_replays_identically_and_resumes_after_a_save() {
    for ruleset in [Ruleset::Tdgs, Ruleset::Ctb, Ruleset::Ticks] {
        let mut resumed_fights = 0;
        for seed in 0..25 {
            let mut combat = Combat::new(party(), Terrain::default()).with_ruleset(ruleset);
            let mut dice = Dice::seeded(seed);
            let begin = apply(&mut combat, Actor::Director, Command::Begin, &mut dice, now()).unwrap();
            let chooser = Dice::seeded(seed + 1000);
            let save_at = 10 + (seed as usize % 40);
            let (first, saved) = play(combat.clone(), dice.clone(), chooser.clone(), 250, save_at);
            let (again, _) = play(combat, dice, chooser, 250, save_at);
            assert_eq!(
                first.events, again.events,
                "{ruleset:?} seed {seed}: same seed, same log"
            );
            let Some((json, position, chooser)) = saved else {
                continue;
            };
            let restored: Combat = serde_json::from_str(&json).unwrap();
            let (resumed, _) = play(restored, Dice::at(position), chooser, 250 - save_at, usize::MAX);
            assert_eq!(
                resumed.combat, first.combat,
                "{ruleset:?} seed {seed}: a fight saved at step {save_at} resumes identically"
            );
            assert!(!begin.is_empty());
            resumed_fights += 1;
        }
        assert!(
            resumed_fights >= 15,
            "{ruleset:?}: only {resumed_fights} fights lasted past their save"
        );
    }
}
