//! Joining a fight (seed 000 §1 "initiative"; seed 001 "Initiative"; seed 003 §3; seed 004
//! "Initiative"): a late joiner or a reinforcement enters through `apply` like every change, so
//! the event log — and a replay — rebuilds it. Bands to its opponents open as a new fight's do;
//! the fight's timing model gives it its place.

use crate::ctx::Ctx;
use crate::state::combat::Combat;
use crate::state::combatant::Combatant;
use crate::state::command::Actor;
use crate::state::event::{Event, Placement};
use crate::state::ids::CombatantId;
use crate::state::violation::RuleViolation;
use crate::timing;

/// Most combatants one fight may hold.
pub const MAX_COMBATANTS: usize = 40;

/// `Join`: adds `combatant` (the Director's command) and places it.
pub fn join(ctx: &mut Ctx, actor: Actor, combatant: &Combatant) -> Result<(), RuleViolation> {
    if actor != Actor::Director {
        return Err(RuleViolation::NotEligible {
            ability: "Adding a combatant".into(),
            requirement: "the game or a GM".into(),
        });
    }
    if ctx.combat.combatants.len() >= MAX_COMBATANTS {
        return Err(RuleViolation::FightFull { max: MAX_COMBATANTS });
    }
    let name = crate::content::normalize(&combatant.name);
    if let Some(taken) = ctx
        .combat
        .combatants
        .iter()
        .find(|c| crate::content::normalize(&c.name) == name)
    {
        return Err(RuleViolation::NameTaken {
            name: taken.name.clone(),
        });
    }
    let id = CombatantId(ctx.combat.combatants.len() as u32);
    let mut c = combatant.clone();
    c.id = id;
    let opponents: Vec<CombatantId> = ctx
        .combat
        .combatants
        .iter()
        .filter(|o| o.side != c.side)
        .map(|o| o.id)
        .collect();
    ctx.combat.readied.maybe |= c.readied.is_some();
    ctx.combat.combatants.push(c);
    for other in opponents {
        let band = Combat::opening_band(ctx.combat.get(id), ctx.combat.get(other));
        ctx.combat.set_band(id, other, band);
    }
    let placement = if ctx.combat.started {
        timing::model(ctx.combat.ruleset).place_newcomer(ctx, id)
    } else {
        Placement::Waiting
    };
    ctx.emit(Event::Joined { id, placement });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{Class, Monster, Race};
    use crate::{Command, Controller, Dice, Terrain, apply};

    fn now() -> chrono::DateTime<chrono::Utc> {
        chrono::DateTime::from_timestamp(1_700_000_000, 0).expect("a time")
    }

    #[test]
    fn a_second_of_a_name_is_refused_whatever_its_case_and_nothing_changes() {
        let aria = Combatant::character(
            "Aria",
            Race::HUMAN,
            Class::FIGHTER,
            3,
            Controller::Player("aria".into()),
        );
        let goblin = Combatant::monster("Goblin 2", Monster::GOBLIN);
        let mut combat = Combat::new(vec![aria, goblin], Terrain::default());
        let mut dice = Dice::seeded(1);
        for name in ["Aria", "goblin 2", "GOBLIN 2"] {
            let before = combat.clone();
            let joiner = Combatant::monster(name, Monster::GOBLIN);
            let why = apply(
                &mut combat,
                Actor::Director,
                Command::Join {
                    combatant: Box::new(joiner),
                },
                &mut dice,
                now(),
            )
            .expect_err("a name the fight holds");
            assert!(matches!(why, RuleViolation::NameTaken { .. }), "{why:?}");
            assert_eq!(combat, before);
        }
        let fresh = Combatant::monster("Goblin 3", Monster::GOBLIN);
        apply(
            &mut combat,
            Actor::Director,
            Command::Join {
                combatant: Box::new(fresh),
            },
            &mut dice,
            now(),
        )
        .expect("a new name joins");
        assert_eq!(combat.combatants.len(), 3);
    }
}
