//! Death and dying (§7): downed, damage while downed, death saves, stabilising, waking, revival,
//! death and a monster slain.

use super::{Say, Told, d20, name, not_in_family, num, turns, who, word};
use crate::combat::Combat;
use crate::combatant::CombatantId;
use crate::death_saves::DeathSaveOutcome;
use crate::event::Event;

pub(super) fn tell(c: &Combat, event: &Event) -> Told {
    let n = |id: CombatantId| name(c, id);
    match event {
        Event::Downed { id } => {
            let say = if c.duel { Say::DownedInDuel } else { Say::Downed };
            Told::plain(format!("{} is downed", n(*id))).say(say, [("name", who(*id))])
        }
        Event::DamagedWhileDowned { id, marks, failures } => Told::plain(format!(
            "{} takes {marks} failure mark(s) while downed ({failures}/3)",
            n(*id)
        ))
        .say(
            if *marks >= 2 {
                Say::DamageWhileDownedCritical
            } else {
                Say::DamageWhileDowned
            },
            [("name", who(*id)), ("failures", num(failures))],
        ),
        Event::DeathSaveRolled {
            id,
            d20: roll,
            outcome,
            successes,
            failures,
            ..
        } => {
            let say = match outcome {
                DeathSaveOutcome::Success => Say::DeathSaveSuccess,
                DeathSaveOutcome::Failure => Say::DeathSaveFailure,
                DeathSaveOutcome::CriticalSuccess => Say::DeathSaveCriticalSuccess,
                DeathSaveOutcome::CriticalFailure => Say::DeathSaveCriticalFailure,
            };
            Told::plain(format!(
                "{} death save: {} — {outcome:?} ({successes} ✓ / {failures} ✗)",
                n(*id),
                d20(roll)
            ))
            .say(
                say,
                [
                    ("name", who(*id)),
                    ("roll", num(roll.natural)),
                    ("successes", num(successes)),
                    ("failures", num(failures)),
                ],
            )
        }
        Event::Stabilized { id, wakes_in } => Told::plain(format!("{} is stable (wakes in {wakes_in} turns)", n(*id)))
            .say(Say::Stabilised, [("name", who(*id)), ("turns", word(turns(*wakes_in)))]),
        Event::Woke { id } => Told::plain(format!("{} wakes with 1 HP", n(*id))).say(Say::Woke, [("name", who(*id))]),
        Event::Revived { id, hp, prone } => {
            let (plain, say) = if *prone {
                (format!("{} is back ({hp} HP), still prone", n(*id)), Say::RevivedProne)
            } else {
                (format!("{} is back on their feet ({hp} HP)", n(*id)), Say::Revived)
            };
            Told::plain(plain).say(say, [("name", who(*id)), ("hp", num(hp))])
        }
        Event::Died { id } => Told::plain(format!("{} dies", n(*id))).say(Say::PlayerDeath, [("name", who(*id))]),
        Event::MonsterSlain { id, by } => match by {
            Some(killer) => Told::plain(format!("{} is slain by {}", n(*id), n(*killer)))
                .say(Say::MonsterSlain, [("name", who(*id)), ("killer", who(*killer))]),
            None => {
                Told::plain(format!("{} is slain", n(*id))).say(Say::MonsterSlainUnattributed, [("name", who(*id))])
            }
        },
        _ => not_in_family("death", event),
    }
}
