//! Statuses and conditions: CTB's statuses taking hold, ticking and wearing off, a stun, and
//! conditions applied, ended or shrugged off by an immunity.

use super::{Say, Told, name, not_in_family, num, text, turns, who, word};
use crate::combat::Combat;
use crate::combatant::CombatantId;
use crate::event::Event;

pub(super) fn tell(c: &Combat, event: &Event) -> Told {
    let n = |id: CombatantId| name(c, id);
    match event {
        Event::StatusApplied {
            id,
            status,
            by,
            turns: t,
            permanent,
        } => {
            let how_long = if *permanent {
                "permanent".to_owned()
            } else {
                format!("{t} turn(s)")
            };
            let told = Told::plain(match by {
                Some(by) => format!("{} leaves {} {status} ({how_long})", n(*by), n(*id)),
                None => format!("{} has {status} ({how_long})", n(*id)),
            });
            if *permanent {
                told.say(
                    Say::StatusAppliedPermanent,
                    [("name", who(*id)), ("status", text(status))],
                )
            } else {
                told.say(
                    Say::StatusApplied,
                    [("name", who(*id)), ("status", text(status)), ("turns", word(turns(*t)))],
                )
            }
        }
        Event::StatusTicked {
            id,
            status,
            amount,
            remaining,
            permanent,
        } => {
            let left = if *permanent {
                "permanent".to_owned()
            } else {
                format!("{remaining} turn(s) left")
            };
            let say = match amount.signum() {
                -1 => Say::StatusDamage,
                1 => Say::StatusHeal,
                _ => Say::StatusHolds,
            };
            Told::plain(format!("{}'s {status} ticks ({amount:+} HP, {left})", n(*id))).say(
                say,
                [
                    ("name", who(*id)),
                    ("status", text(status)),
                    ("amount", num(amount.unsigned_abs())),
                ],
            )
        }
        Event::StatusExpired { id, status } => Told::plain(format!("{}'s {status} wears off", n(*id)))
            .say(Say::StatusExpired, [("name", who(*id)), ("status", text(status))]),
        Event::Stunned { id } => {
            Told::plain(format!("{} is stunned and loses the turn", n(*id))).say(Say::Stunned, [("name", who(*id))])
        }
        Event::ConditionApplied { id, condition } => Told::plain(format!("{} is {condition}", n(*id))).say(
            Say::ConditionApplied,
            [("name", who(*id)), ("condition", text(condition))],
        ),
        Event::ConditionEnded { id, condition } => Told::plain(format!("{} is no longer {condition}", n(*id))).say(
            Say::ConditionEnded,
            [("name", who(*id)), ("condition", text(condition))],
        ),
        Event::ConditionImmune { id, condition } => {
            Told::plain(format!("{} is immune to being {}", n(*id), condition.name())).say(
                Say::ConditionImmune,
                [("name", who(*id)), ("condition", word(condition.name()))],
            )
        }
        _ => not_in_family("statuses", event),
    }
}
