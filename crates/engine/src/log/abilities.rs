//! Readied actions set, set off and lapsed, and what a sheet or stat block can do beside the
//! standard actions: its abilities and their recharge, legendary actions, cunning strikes.

use super::{Say, Told, did, lower_words, name, not_in_family, num, text, who, word};
use crate::combat::Combat;
use crate::combatant::CombatantId;
use crate::event::Event;
use crate::readied::Observed;

pub(super) fn tell(c: &Combat, event: &Event) -> Told {
    let n = |id: CombatantId| name(c, id);
    match event {
        Event::ReadiedActionSet { id, action, trigger } => {
            Told::plain(format!("{} readies {action} — when {trigger}", n(*id))).say(
                Say::ReadiedActionSet,
                [("name", who(*id)), ("action", text(action)), ("trigger", text(trigger))],
            )
        }
        Event::ReadiedActionTriggered {
            id,
            trigger_by,
            action,
            observed,
        } => {
            let moved = matches!(
                observed,
                None | Some(Observed::Moves { .. } | Observed::EntersMelee { .. } | Observed::LeavesMelee { .. })
            );
            Told::plain(format!(
                "{} sets it off: {}'s readied {action} fires",
                n(*trigger_by),
                n(*id)
            ))
            .say(
                if moved {
                    Say::ReadiedActionTriggered
                } else {
                    Say::ReadiedActionTriggeredBy
                },
                [
                    ("name", who(*id)),
                    ("mover", who(*trigger_by)),
                    ("action", text(action)),
                    ("did", did(c, observed.as_ref())),
                ],
            )
        }
        Event::ReadiedActionExpired { id, action } => Told::plain(format!("{}'s readied {action} expires", n(*id)))
            .say(
                Say::ReadiedActionExpired,
                [("name", who(*id)), ("action", text(action))],
            ),
        Event::AbilityUsed { id, ability } => Told::plain(format!("{} uses {ability}", n(*id)))
            .say(Say::AbilityUsed, [("name", who(*id)), ("ability", text(ability))]),
        Event::BreathRecharged { id, roll, ability } => match ability {
            Some(ability) => Told::plain(format!("{}'s {ability} recharges (d6 {roll})", n(*id)))
                .say(Say::AbilityRecharged, [("name", who(*id)), ("ability", text(ability))]),
            None => Told::plain(format!("{}'s breath recharges (d6 {roll})", n(*id)))
                .say(Say::BreathRecharged, [("name", who(*id))]),
        },
        Event::LegendaryAction { id, action, left } => {
            Told::plain(format!("{} takes a legendary action: {action} ({left} left)", n(*id))).say(
                Say::LegendaryAction,
                [("name", who(*id)), ("action", text(action)), ("left", num(left))],
            )
        }
        Event::CunningStrikeReady { id, rider } => {
            Told::plain(format!("{} readies a cunning strike ({rider:?})", n(*id))).say(
                Say::CunningStrikeReady,
                [("name", who(*id)), ("rider", word(lower_words(&format!("{rider:?}"))))],
            )
        }
        _ => not_in_family("abilities", event),
    }
}
