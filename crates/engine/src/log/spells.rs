//! Spells and saves: a spell cast, countered or not, concentration lost, saving throws, a
//! helpless creature's failed save and Legendary Resistance.

use super::{Say, Told, d20_shown, name, natural, not_in_family, num, spell_name, text, who, word};
use crate::combat::Combat;
use crate::combatant::CombatantId;
use crate::event::Event;

pub(super) fn tell(c: &Combat, event: &Event) -> Told {
    let n = |id: CombatantId| name(c, id);
    match event {
        Event::SpellCast {
            caster,
            spell,
            slot,
            target,
        } => {
            let spell = spell_name(c, *caster, *spell);
            let slot = slot.map_or(String::new(), |s| format!(" (level {s} slot)"));
            let at = target.map_or(String::new(), |t| format!(" at {}", n(t)));
            let told = Told::plain(format!("{} casts {spell}{slot}{at}", n(*caster)));
            match target {
                Some(t) if t != caster => told.say(
                    Say::SpellCast,
                    [("name", who(*caster)), ("spell", text(spell)), ("target", who(*t))],
                ),
                _ => told.say(
                    Say::SpellCastUntargeted,
                    [("name", who(*caster)), ("spell", text(spell))],
                ),
            }
        }
        Event::SpellCountered {
            caster,
            spell,
            by,
            roll,
            dc,
        } => {
            let spell = spell_name(c, *caster, *spell);
            // The INT check, when one was rolled.
            let check = (*dc > 0).then(|| format!("{roll} vs DC {dc}"));
            let plain_check = check.as_ref().map_or(String::new(), |check| format!(" ({check})"));
            let told = Told::plain(format!("{} counters {}'s {spell}{plain_check}", n(*by), n(*caster))).say(
                Say::SpellCountered,
                [("name", who(*by)), ("caster", who(*caster)), ("spell", text(spell))],
            );
            match check {
                Some(check) => told.check(check),
                None => told,
            }
        }
        Event::CounterspellFailed { caster, by, roll, dc } => Told::plain(format!(
            "{}'s counterspell against {} fails ({roll} vs DC {dc})",
            n(*by),
            n(*caster)
        ))
        .say(Say::CounterspellFailed, [("name", who(*by)), ("caster", who(*caster))])
        .check(format!("{roll} vs DC {dc}")),
        Event::ConcentrationEnded { id, spell } => Told::plain(format!("{} loses concentration on {spell}", n(*id)))
            .say(Say::ConcentrationEnded, [("name", who(*id)), ("spell", text(spell))]),
        Event::SavingThrow {
            id,
            ability,
            d20: roll,
            total,
            dc,
            success,
        } => Told::plain(format!(
            "{} {ability:?} save: {} vs DC {dc}{} — {}",
            n(*id),
            d20_shown(roll, *total),
            natural(roll),
            if *success { "success" } else { "failure" }
        ))
        .say(
            if *success { Say::SaveSuccess } else { Say::SaveFailure },
            [
                ("name", who(*id)),
                ("ability", word(format!("{ability:?}").to_uppercase())),
            ],
        )
        .check(format!("{} vs DC {dc}{}", d20_shown(roll, *total), natural(roll))),
        Event::SaveFailedHelpless { id, ability, dc } => Told::plain(format!(
            "{} fails the {ability:?} save against DC {dc} outright: helpless",
            n(*id)
        ))
        .say(
            Say::SaveFailedHelpless,
            [
                ("name", who(*id)),
                ("ability", word(format!("{ability:?}").to_uppercase())),
                ("dc", num(dc)),
            ],
        ),
        Event::LegendaryResistance { id, left } => Told::plain(format!(
            "{} chooses to succeed instead (Legendary Resistance, {left} left)",
            n(*id)
        ))
        .say(Say::LegendaryResistance, [("name", who(*id)), ("left", num(left))]),
        _ => not_in_family("spells", event),
    }
}
