//! Order and turns: initiative (rolled, or TDGS's fixed order), rounds, turns, delays, and the
//! fight's end.

use super::{Piece, Say, Told, flips, name, not_in_family, num, who, word};
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
