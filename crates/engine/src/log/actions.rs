//! The standard actions and what stands beside them: Dodge, Help, Hide, Search, contests,
//! grapples and shoves, items, Medicine, readied actions, a stat block's abilities, legendary
//! actions and cunning strikes.

use super::{Say, Told, did, item_name, lower_words, name, not_in_family, num, text, who, word};
use crate::combat::Combat;
use crate::combatant::CombatantId;
use crate::command::ShoveMode;
use crate::event::Event;
use crate::readied::Observed;

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
            .say(Say::ReadiedActionExpired, [("name", who(*id)), ("action", text(action))]),
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
        _ => not_in_family("actions", event),
    }
}
