//! Order and turns: initiative under each model, rounds, turns, the charge race, AP and
//! cooldowns, TDGS's Instants, the tick timeline's phases, and the fight's end.

use super::{Piece, Say, Told, name, not_in_family, num, text, turns, who, word};
use crate::combat::Combat;
use crate::combatant::{CombatantId, Side};
use crate::event::{Event, Outcome};

/// `**A** (15), **B** (12)` from names and what follows each in brackets.
fn order(entries: impl Iterator<Item = (CombatantId, Vec<Piece>)>) -> Vec<Piece> {
    let mut out = Vec::new();
    for (i, (id, detail)) in entries.enumerate() {
        if i > 0 {
            out.push(Piece::Word(", ".into()));
        }
        out.push(Piece::Who(id));
        out.push(Piece::Word(" (".into()));
        out.extend(detail);
        out.push(Piece::Word(")".into()));
    }
    out
}

fn flips(flips: &[u32], sep: &str) -> String {
    flips.iter().map(u32::to_string).collect::<Vec<_>>().join(sep)
}

pub(super) fn tell(c: &Combat, event: &Event) -> Told {
    let n = |id: CombatantId| name(c, id);
    match event {
        Event::InitiativeRolled { order: list } => {
            let plain: Vec<String> = list.iter().map(|e| format!("{} {}", n(e.id), e.total)).collect();
            Told::plain(format!("Initiative: {}", plain.join(", "))).say(
                Say::InitiativeRolled,
                [("order", order(list.iter().map(|e| (e.id, num(e.total)))))],
            )
        }
        Event::InitiativeFixed { order: list } => {
            let plain: Vec<String> = list
                .iter()
                .map(|e| {
                    let d2 = if e.flips.is_empty() {
                        String::new()
                    } else {
                        format!(" d2 {}", flips(&e.flips, "/"))
                    };
                    format!("{} REF {} LUK {}{d2}", n(e.id), e.reflex, e.luck)
                })
                .collect();
            let detail = |e: &crate::event::StatInitiative| {
                let mut d = vec![Piece::Word("REF ".into()), Piece::Num(e.reflex.to_string())];
                d.push(Piece::Word(", LUK ".into()));
                d.push(Piece::Num(e.luck.to_string()));
                if !e.flips.is_empty() {
                    d.push(Piece::Word(", d2 ".into()));
                    d.push(Piece::Num(flips(&e.flips, "/")));
                }
                d
            };
            // "No dice about it" only when no coin was flipped.
            let say = if list.iter().any(|e| !e.flips.is_empty()) {
                Say::InitiativeFixedFlipped
            } else {
                Say::InitiativeFixed
            };
            Told::plain(format!("Order: {}", plain.join(", ")))
                .say(say, [("order", order(list.iter().map(|e| (e.id, detail(e)))))])
        }
        Event::RoundStarted { round } => {
            Told::plain(format!("— Round {round} —")).say(Say::RoundStarted, [("round", num(round))])
        }
        Event::TurnStarted { id, movement, round } => Told::plain(format!("{}'s turn ({movement} ft)", n(*id)))
            .say(Say::TurnStarted, [("name", who(*id)), ("round", num(round))]),
        Event::TurnEnded { id } => Told::plain(format!("{} ends their turn", n(*id))),
        Event::Delayed { id, after } => match after {
            Some(other) => Told::plain(format!("{} delays until after {}", n(*id), n(*other)))
                .say(Say::Delayed, [("name", who(*id)), ("target", who(*other))]),
            None => Told::plain(format!("{} delays to the end of the round", n(*id)))
                .say(Say::DelayedToEnd, [("name", who(*id))]),
        },
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
        Event::ActionPointsRefreshed { id, ap } => Told::plain(format!("{} has {ap} AP", n(*id)))
            .say(Say::ActionPoints, [("name", who(*id)), ("ap", num(ap))]),
        Event::ActionPointsSpent { id, cost, left } => {
            Told::plain(format!("{} spends {cost} AP ({left} left)", n(*id))).say(
                Say::ActionPointsSpent,
                [("name", who(*id)), ("cost", num(cost)), ("ap", num(left))],
            )
        }
        Event::CooldownStarted { id, ability, turns: t } => {
            Told::plain(format!("{}'s {ability} cools down for {t} turn(s)", n(*id))).say(
                Say::CooldownStarted,
                [("name", who(*id)), ("ability", text(ability)), ("turns", word(turns(*t)))],
            )
        }
        Event::InstantDeclared { id, instant, round } => {
            Told::plain(format!("{} declares {} for round {round}", n(*id), instant.name())).say(
                Say::InstantDeclared,
                [("name", who(*id)), ("instant", word(instant.name())), ("round", num(round))],
            )
        }
        Event::InstantResolved {
            id,
            instant,
            instant_ref,
        } => Told::plain(format!("Instant: {}'s {} (REF {instant_ref})", n(*id), instant.name()))
            .say(Say::InstantResolved, [("name", who(*id)), ("instant", word(instant.name()))]),
        Event::MutualDestruction { first, second, flips: f } => {
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
            .say(Say::MutualDestruction, [("first", who(*first)), ("second", who(*second))]);
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
        Event::AwaitingCommand { id, tick } => Told::plain(format!("Tick {tick}: waiting for {}", n(*id)))
            .say(Say::AwaitingCommand, [("name", who(*id))]),
        Event::CombatEnded { outcome, xp } => {
            let told = Told::plain(format!("Combat ends: {outcome:?} ({xp} XP)"));
            match outcome {
                // The arena: the one still standing wins; no XP, no death.
                Outcome::Victory | Outcome::Defeat if c.duel => {
                    let winner = if *outcome == Outcome::Victory {
                        Side::Party
                    } else {
                        Side::Enemies
                    };
                    let champion = |side: Side| {
                        c.combatants
                            .iter()
                            .find(|x| x.side == side && x.is_character())
                            .map_or_else(|| word("?"), |x| who(x.id))
                    };
                    told.say(
                        Say::DuelWon,
                        [("name", champion(winner)), ("rival", champion(winner.opponent()))],
                    )
                }
                Outcome::Victory => told.say(Say::Victory, [("xp", num(xp))]),
                Outcome::Defeat => told.say(Say::Defeat, []),
                Outcome::Halted => told.say(Say::Halted, []),
            }
        }
        _ => not_in_family("turns", event),
    }
}
