//! Movement: moves by what they came to, closing in over turns, standing, teleporting, dashing,
//! disengaging and escaping a grapple.

use super::{Say, Told, name, not_in_family, num, who};
use crate::combat::Combat;
use crate::combatant::CombatantId;
use crate::event::Event;
use crate::movement::{Band, MoveOutcome};

fn bands(c: &Combat, to: &[(CombatantId, Band)]) -> String {
    let bands: Vec<String> = to
        .iter()
        .map(|(o, b)| format!("{} {}", name(c, *o), b.name()))
        .collect();
    bands.join(", ")
}

pub(super) fn tell(c: &Combat, event: &Event) -> Told {
    let n = |id: CombatantId| name(c, id);
    match event {
        Event::Moved {
            id,
            feet,
            to,
            difficult_terrain,
            outcome,
            crawl,
        } => {
            let terrain = if *difficult_terrain {
                " through difficult terrain"
            } else {
                ""
            };
            // The ground covered: difficult terrain and crawling each make a foot cost two.
            let distance = feet / (if *difficult_terrain { 2 } else { 1 } * if *crawl { 2 } else { 1 });
            let spent = if distance == *feet {
                String::new()
            } else {
                format!(" ({feet} ft of movement)")
            };
            let told = Told::plain(format!(
                "{} moves {distance} ft{terrain}{spent} → {}",
                n(*id),
                bands(c, to)
            ));
            let with = |say: Say, other: CombatantId| {
                Told::default().say(
                    say,
                    [("name", who(*id)), ("target", who(other)), ("feet", num(distance))],
                )
            };
            let shift = || Told::default().say(Say::MoveShift, [("name", who(*id)), ("feet", num(distance))]);
            let line = match *outcome {
                MoveOutcome::ClosedIn(other) => with(Say::MoveIntoMelee, other),
                MoveOutcome::LeftReach(other) => with(Say::MoveOutOfReach, other),
                MoveOutcome::Advanced(other) => with(Say::MoveCloser, other),
                MoveOutcome::FellBack(other) => with(Say::MoveFellBack, other),
                MoveOutcome::ShiftedInMelee(other) => with(Say::MoveShiftInMelee, other),
                MoveOutcome::Shifted => shift(),
                // Logged before outcomes were kept: only arriving in melee is certain.
                MoveOutcome::Unrecorded => match to.iter().find(|(_, b)| *b == Band::Melee) {
                    Some((other, _)) => with(Say::MoveIntoMelee, *other),
                    None => shift(),
                },
            };
            let mut told = Told {
                said: line.said,
                ..told
            };
            if *crawl {
                told = told.say(Say::MoveCrawled, [("name", who(*id))]);
            }
            if *difficult_terrain {
                told = told.say(Say::MoveDifficultTerrain, [("name", who(*id)), ("feet", num(feet))]);
            }
            told
        }
        Event::MoveAborted { id } => {
            Told::plain(format!("{} never gets there", n(*id))).say(Say::MoveAborted, [("name", who(*id))])
        }
        Event::Closing {
            id,
            target,
            feet,
            remaining,
        } => Told::plain(format!(
            "{} closes {feet} ft on {} ({remaining} ft to go)",
            n(*id),
            n(*target)
        ))
        .say(
            Say::Closing,
            [
                ("name", who(*id)),
                ("target", who(*target)),
                ("feet", num(feet)),
                ("remaining", num(remaining)),
            ],
        ),
        Event::StoodUp { id, feet } => Told::plain(format!("{} stands up ({feet} ft)", n(*id)))
            .say(Say::StoodUp, [("name", who(*id)), ("feet", num(feet))]),
        Event::Teleported { id, to } => {
            Told::plain(format!("{} teleports → {}", n(*id), bands(c, to))).say(Say::Teleported, [("name", who(*id))])
        }
        Event::Dashed { id, movement } => Told::plain(format!("{} dashes ({movement} ft left)", n(*id)))
            .say(Say::Dashed, [("name", who(*id)), ("feet", num(movement))]),
        Event::Disengaged { id } => {
            Told::plain(format!("{} disengages", n(*id))).say(Say::Disengaged, [("name", who(*id))])
        }
        Event::EscapeAttempted {
            id,
            skill,
            roll,
            dc,
            freed,
        } => {
            let how = if *freed { "breaks free" } else { "is still held" };
            Told::plain(format!("{} {how} ({skill:?} {roll} vs DC {dc})", n(*id)))
                .say(
                    if *freed { Say::EscapeFreed } else { Say::EscapeHeld },
                    [("name", who(*id))],
                )
                .check(format!("{skill:?} {roll} vs DC {dc}"))
        }
        _ => not_in_family("movement", event),
    }
}
