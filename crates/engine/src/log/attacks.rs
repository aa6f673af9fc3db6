//! Attacks: each swing of a sequence rolled against AC, a swing left without a target, and
//! Sneak Attack's extra dice.

use super::{Say, Told, d20_shown, name, natural, not_in_family, num, text, who};
use crate::combat::Combat;
use crate::event::{AttackKind, Event};

pub(super) fn tell(c: &Combat, event: &Event) -> Told {
    match event {
        Event::AttackRolled {
            attacker,
            target,
            weapon,
            swing,
            of,
            d20: roll,
            total,
            armor_class,
            hit,
            critical,
            kind,
        } => {
            let (result, say) = match (hit, critical) {
                (true, true) => ("CRITICAL HIT", Say::AttackCritical),
                (true, false) => ("hit", Say::AttackHit),
                _ if roll.natural != 1 && armor_class - total <= 2 => ("miss", Say::AttackMissClose),
                _ => ("miss", Say::AttackMiss),
            };
            // The narration numbers the swings of an action's sequence only.
            let sequence = if *of > 1 && *kind == AttackKind::Action {
                format!("{swing}/{of}: ")
            } else {
                String::new()
            };
            let shown = d20_shown(roll, *total);
            Told::plain(format!(
                "{} attacks {} with {weapon} [{swing}/{of}]: {shown} vs AC {armor_class}{} — {result}",
                name(c, *attacker),
                name(c, *target),
                natural(roll),
            ))
            .say(
                say,
                [
                    ("name", who(*attacker)),
                    ("target", who(*target)),
                    ("weapon", text(weapon)),
                    ("swing", num(swing)),
                    ("of", num(of)),
                ],
            )
            .check(format!("{sequence}{shown} vs AC {armor_class}{}", natural(roll)))
        }
        Event::SwingLost { attacker, swing } => {
            Told::plain(format!("{}'s swing {swing} finds no target", name(c, *attacker)))
                .say(Say::SwingLost, [("name", who(*attacker))])
        }
        Event::SneakAttack { attacker, dice } => {
            Told::plain(format!("{} sneak attacks (+{dice}d6)", name(c, *attacker)))
                .say(Say::SneakAttack, [("name", who(*attacker)), ("dice", num(dice))])
        }
        _ => not_in_family("attacks", event),
    }
}
