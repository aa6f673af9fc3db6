//! What the timing models add to a turn: CTB's charge race, AP and cooldowns, TDGS's Instants
//! and mutual destruction, the tick timeline's phases, broken wind-ups and its waits.

use super::{Say, Told, flips, name, not_in_family, num, text, turns, who, word};
use crate::combat::Combat;
use crate::combatant::CombatantId;
use crate::event::Event;

pub(super) fn tell(c: &Combat, event: &Event) -> Told {
    let n = |id: CombatantId| name(c, id);
    match event {
        Event::ChargeRace {
            ticks,
            tick,
            winner,
            charges,
        } => {
            let meters: Vec<String> = charges
                .iter()
                .map(|e| format!("{} {} (+{})", n(e.id), e.charge, e.speed))
                .collect();
            Told::plain(format!(
                "Charge race: {ticks} tick(s) (tick {tick}): {} — {} acts",
                meters.join(", "),
                n(*winner)
            ))
            .say(Say::ChargeRace, [("name", who(*winner)), ("ticks", num(ticks))])
        }
        Event::ActionPointsRefreshed { id, ap } => {
            Told::plain(format!("{} has {ap} AP", n(*id))).say(Say::ActionPoints, [("name", who(*id)), ("ap", num(ap))])
        }
        Event::ActionPointsSpent { id, cost, left } => {
            Told::plain(format!("{} spends {cost} AP ({left} left)", n(*id))).say(
                Say::ActionPointsSpent,
                [("name", who(*id)), ("cost", num(cost)), ("ap", num(left))],
            )
        }
        Event::CooldownStarted { id, ability, turns: t } => {
            Told::plain(format!("{}'s {ability} cools down for {t} turn(s)", n(*id))).say(
                Say::CooldownStarted,
                [
                    ("name", who(*id)),
                    ("ability", text(ability)),
                    ("turns", word(turns(*t))),
                ],
            )
        }
        Event::InstantDeclared { id, instant, round } => {
            Told::plain(format!("{} declares {} for round {round}", n(*id), instant.name())).say(
                Say::InstantDeclared,
                [
                    ("name", who(*id)),
                    ("instant", word(instant.name())),
                    ("round", num(round)),
                ],
            )
        }
        Event::InstantResolved {
            id,
            instant,
            instant_ref,
        } => Told::plain(format!("Instant: {}'s {} (REF {instant_ref})", n(*id), instant.name())).say(
            Say::InstantResolved,
            [("name", who(*id)), ("instant", word(instant.name()))],
        ),
        Event::MutualDestruction {
            first,
            second,
            flips: f,
        } => {
            let how = if f.is_empty() {
                "by REF and LUK".to_owned()
            } else {
                format!("by d2 {f:?}")
            };
            let told = Told::plain(format!(
                "{} and {} would stop each other: {} acts first ({how})",
                n(*first),
                n(*second),
                n(*first)
            ))
            .say(
                Say::MutualDestruction,
                [("first", who(*first)), ("second", who(*second))],
            );
            if f.is_empty() {
                told
            } else {
                told.check(format!("d2 {}", flips(f, ", ")))
            }
        }
        Event::PhaseStarted {
            id,
            action,
            phase,
            ticks,
            tick,
        } => Told::plain(format!(
            "tick {tick}: {} {action}: {} ({ticks} tick(s))",
            n(*id),
            phase.name()
        ))
        .say(
            Say::PhaseStarted,
            [
                ("name", who(*id)),
                ("action", text(action)),
                ("phase", word(phase.name())),
                ("ticks", num(ticks)),
            ],
        ),
        Event::ActionCancelled { id, action, by } => match by {
            Some(by) => Told::plain(format!("{} breaks {}'s {action}", n(*by), n(*id))).say(
                Say::WindupBroken,
                [("name", who(*id)), ("action", text(action)), ("by", who(*by))],
            ),
            None => Told::plain(format!("{} drops their {action} to react", n(*id)))
                .say(Say::ActionDropped, [("name", who(*id)), ("action", text(action))]),
        },
        Event::ActionFizzled { id, reason } => Told::plain(format!("{}'s action fizzles: {reason}", n(*id)))
            .say(Say::ActionFizzled, [("name", who(*id)), ("reason", text(reason))]),
        Event::AwaitingCommand { id, tick } => {
            Told::plain(format!("Tick {tick}: waiting for {}", n(*id))).say(Say::AwaitingCommand, [("name", who(*id))])
        }
        _ => not_in_family("models", event),
    }
}
