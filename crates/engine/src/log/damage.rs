//! Damage: damage dealt (with its extra parts), resistances, immunities and vulnerabilities, a
//! rage's resistance, Undead Fortitude, Regeneration stopped and auras.

use std::fmt::Write as _;

use super::{Say, Told, name, not_in_family, num, text, who, word};
use crate::combat::Combat;
use crate::combatant::CombatantId;
use crate::event::Event;
use crate::state::damage::Defence;

pub(super) fn tell(c: &Combat, event: &Event) -> Told {
    let n = |id: CombatantId| name(c, id);
    match event {
        Event::DamageDealt {
            target,
            amount,
            damage_type,
            hp,
            extra,
            ..
        } => {
            let plain = if extra.is_empty() {
                format!("{} takes {amount} {damage_type:?} damage ({hp} HP left)", n(*target))
            } else {
                let first = amount - extra.total();
                let others = extra.iter().fold(String::new(), |mut out, p| {
                    let _ = write!(out, ", {} {}", p.amount, p.damage_type.name());
                    out
                });
                format!(
                    "{} takes {amount} damage ({first} {}{others}; {hp} HP left)",
                    n(*target),
                    damage_type.name()
                )
            };
            let told = Told::plain(plain);
            // No damage, nothing to narrate (a resisted or absorbed hit says so itself).
            if *amount == 0 {
                return told;
            }
            let mut types = damage_type.name().to_owned();
            for part in extra.iter().filter(|p| p.amount > 0) {
                types.push_str(" and ");
                types.push_str(part.damage_type.name());
            }
            told.say(
                Say::Damage,
                [
                    ("target", who(*target)),
                    ("damage", num(amount)),
                    ("damage_type", word(types)),
                    ("hp", num(hp)),
                ],
            )
        }
        Event::Defended {
            target,
            damage_type,
            defence,
            amount,
        } => {
            let (what, say) = match defence {
                Defence::Resistance => (
                    format!("resists {amount} of the {} damage", damage_type.name()),
                    Say::DefendedResistance,
                ),
                Defence::Immunity => (
                    format!("is immune to {} damage ({amount} ignored)", damage_type.name()),
                    Say::DefendedImmunity,
                ),
                Defence::Vulnerability => (
                    format!("is vulnerable to {} damage (+{amount})", damage_type.name()),
                    Say::DefendedVulnerability,
                ),
            };
            Told::plain(format!("{} {what}", n(*target))).say(
                say,
                [
                    ("name", who(*target)),
                    ("amount", num(amount)),
                    ("damage_type", word(damage_type.name())),
                ],
            )
        }
        Event::Resisted { target, amount } => {
            Told::plain(format!("{} shrugs off {amount} damage in a rage", n(*target)))
                .say(Say::Resisted, [("name", who(*target)), ("amount", num(amount))])
        }
        Event::UndeadFortitude { id } => Told::plain(format!("{} refuses to fall (Undead Fortitude)", n(*id)))
            .say(Say::UndeadFortitude, [("name", who(*id))]),
        Event::RegenerationStopped { id } => {
            Told::plain(format!("{}'s wounds do not close (Regeneration stopped)", n(*id)))
                .say(Say::RegenerationStopped, [("name", who(*id))])
        }
        Event::Aura { holder, target, aura } => {
            Told::plain(format!("{} starts its turn in {}'s {aura}", n(*target), n(*holder))).say(
                Say::Aura,
                [("name", who(*target)), ("holder", who(*holder)), ("aura", text(aura))],
            )
        }
        _ => not_in_family("damage", event),
    }
}
