//! Joining a fight (`Command::Join`): where each timing model places a newcomer.

use super::{Say, Told, name, num, who, word};
use crate::combat::Combat;
use crate::combatant::CombatantId;
use crate::event::Placement;

pub(super) fn tell(c: &Combat, id: CombatantId, placement: &Placement) -> Told {
    let n = name(c, id);
    match placement {
        Placement::Waiting => Told::plain(format!("{n} joins the fight")).say(Say::Joined, [("name", who(id))]),
        Placement::Initiative { roll, total } => {
            Told::plain(format!("{n} joins the fight: initiative {total} (d20 {roll})"))
                .say(Say::JoinedInitiative, [("name", who(id)), ("initiative", num(total))])
        }
        Placement::NaturalOrder {
            reflex,
            luck,
            flips,
            this_round,
        } => {
            let when = if *this_round { "this round" } else { "next round" };
            let d2 = if flips.is_empty() {
                String::new()
            } else {
                format!(" d2 {}", super::flips(flips, "/"))
            };
            let told = Told::plain(format!(
                "{n} joins the fight: REF {reflex} LUK {luck}{d2}, acts from {when}"
            ));
            if flips.is_empty() {
                told.say(Say::JoinedOrder, [("name", who(id)), ("when", word(when))])
            } else {
                told.say(
                    Say::JoinedOrderFlipped,
                    [
                        ("name", who(id)),
                        ("when", word(when)),
                        ("flips", num(super::flips(flips, ", "))),
                    ],
                )
            }
        }
        Placement::Charge { charge } => {
            Told::plain(format!("{n} joins the charge race at {charge}")).say(Say::JoinedCharge, [("name", who(id))])
        }
    }
}
