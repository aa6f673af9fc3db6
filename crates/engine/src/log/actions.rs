//! The standard actions: Dodge, Help, Hide, Search, contests, grapples and shoves, items and
//! Medicine.

use super::{Say, Told, item_name, name, not_in_family, text, who};
use crate::combat::Combat;
use crate::combatant::CombatantId;
use crate::command::ShoveMode;
use crate::event::Event;

pub(super) fn tell(c: &Combat, event: &Event) -> Told {
    let n = |id: CombatantId| name(c, id);
    match event {
        Event::Dodging { id } => Told::plain(format!("{} dodges", n(*id))).say(Say::Dodging, [("name", who(*id))]),
        Event::Helped { id, ally } => Told::plain(format!("{} helps {}", n(*id), n(*ally)))
            .say(Say::Helped, [("name", who(*id)), ("ally", who(*ally))]),
        Event::HideAttempted {
            id,
            roll,
            against,
            hidden,
        } => Told::plain(format!(
            "{} tries to hide: {roll} vs {against} — {}",
            n(*id),
            if *hidden { "hidden" } else { "spotted" }
        ))
        .say(
            if *hidden { Say::HideSuccess } else { Say::HideFailure },
            [("name", who(*id))],
        )
        .check(format!("{roll} vs {against}")),
        Event::Revealed { id } => {
            Told::plain(format!("{} is revealed", n(*id))).say(Say::Revealed, [("name", who(*id))])
        }
        Event::Searched { id, skill, roll, found } => {
            let told = if found.is_empty() {
                Told::plain(format!("{} searches ({skill:?} {roll}): nothing", n(*id)))
                    .say(Say::SearchNothing, [("name", who(*id))])
            } else {
                let found = found.join(", ");
                Told::plain(format!("{} searches ({skill:?} {roll}): {found}", n(*id)))
                    .say(Say::SearchFound, [("name", who(*id)), ("found", text(found))])
            };
            told.check(format!("{skill:?} {roll}"))
        }
        Event::Contest {
            id,
            target,
            roll,
            against,
            won,
        } => Told::plain(format!(
            "{} contests {}: {roll} vs {against} — {}",
            n(*id),
            n(*target),
            if *won { "wins" } else { "loses" }
        ))
        .say(
            if *won { Say::ContestWon } else { Say::ContestLost },
            [("name", who(*id)), ("target", who(*target))],
        )
        .check(format!("{roll} vs {against}")),
        Event::Grappled { id, target } => Told::plain(format!("{} grapples {}", n(*id), n(*target)))
            .say(Say::Grappled, [("name", who(*id)), ("target", who(*target))]),
        Event::Shoved { id, target, mode } => {
            let say = match mode {
                ShoveMode::Prone => Say::ShovedProne,
                ShoveMode::Push => Say::ShovedAway,
            };
            Told::plain(format!("{} shoves {} ({mode:?})", n(*id), n(*target)))
                .say(say, [("name", who(*id)), ("target", who(*target))])
        }
        Event::ItemUsed { id, item, target } => {
            let item_name = item_name(c, *id, *item);
            let told = Told::plain(format!("{} uses {item_name} on {}", n(*id), n(*target)));
            let thrown = c
                .combatants
                .get(id.0 as usize)
                .and_then(|x| x.item_def(*item))
                .is_some_and(|d| matches!(d.effect, crate::content::data::ItemEffectDef::Restrain { .. }));
            if id == target {
                told.say(Say::ItemUsedSelf, [("name", who(*id)), ("item", text(item_name))])
            } else {
                told.say(
                    if thrown { Say::ItemThrown } else { Say::ItemUsed },
                    [("name", who(*id)), ("item", text(item_name)), ("target", who(*target))],
                )
            }
        }
        Event::MedicineCheck {
            id,
            target,
            roll,
            success,
        } => Told::plain(format!(
            "{} tends {} (Medicine {roll} vs DC 10) — {}",
            n(*id),
            n(*target),
            if *success { "stable" } else { "no luck" }
        ))
        .say(
            if *success {
                Say::StabiliseSuccess
            } else {
                Say::StabiliseFailure
            },
            [("name", who(*id)), ("target", who(*target))],
        )
        .check(format!("Medicine {roll} vs DC 10")),
        _ => not_in_family("actions", event),
    }
}
