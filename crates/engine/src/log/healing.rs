//! Healing and hit points given: temporary hit points gained and spent, healing, and the GM's
//! HP adjustment.

use super::{Say, Told, name, not_in_family, num, who};
use crate::combat::Combat;
use crate::combatant::CombatantId;
use crate::event::Event;

pub(super) fn tell(c: &Combat, event: &Event) -> Told {
    let n = |id: CombatantId| name(c, id);
    match event {
        Event::TempHpGained {
            target,
            by,
            amount,
            temp_hp,
            kept,
        } => {
            let plain = if *kept {
                format!(
                    "{} gives {} {amount} temporary HP; they keep their {temp_hp}",
                    n(*by),
                    n(*target)
                )
            } else {
                format!("{} gives {} {amount} temporary HP", n(*by), n(*target))
            };
            Told::plain(plain).say(
                if *kept { Say::TempHpKept } else { Say::TempHpGained },
                [
                    ("name", who(*by)),
                    ("target", who(*target)),
                    ("amount", num(amount)),
                    ("temp", num(temp_hp)),
                ],
            )
        }
        Event::TempHpAbsorbed { id, amount, left } => {
            Told::plain(format!("{}'s temporary HP take {amount} ({left} left)", n(*id))).say(
                Say::TempHpAbsorbed,
                [("name", who(*id)), ("amount", num(amount)), ("temp", num(left))],
            )
        }
        Event::Healed { target, by, amount, hp } => {
            if by == target {
                Told::plain(format!("{} heals {amount} ({hp} HP)", n(*target))).say(
                    Say::HealedSelf,
                    [("name", who(*by)), ("amount", num(amount)), ("hp", num(hp))],
                )
            } else {
                Told::plain(format!("{} heals {} for {amount} ({hp} HP)", n(*by), n(*target))).say(
                    Say::Healed,
                    [
                        ("name", who(*by)),
                        ("target", who(*target)),
                        ("amount", num(amount)),
                        ("hp", num(hp)),
                    ],
                )
            }
        }
        Event::HpAdjusted { id, delta, hp } => Told::plain(format!("GM adjusts {} by {delta:+} ({hp} HP)", n(*id)))
            .say(
                if *delta >= 0 { Say::GmHpRaised } else { Say::GmHpLowered },
                [
                    ("name", who(*id)),
                    ("amount", num(delta.unsigned_abs())),
                    ("hp", num(hp)),
                ],
            ),
        _ => not_in_family("healing", event),
    }
}
