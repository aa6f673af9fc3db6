//! Reactions: a window offered, a reaction taken or passed, damage a reaction reduced, a stat
//! block's own reaction, and TDGS's Parry.

use super::{Say, Told, name, not_in_family, num, text, who, word};
use crate::combat::Combat;
use crate::combatant::CombatantId;
use crate::event::Event;

pub(super) fn tell(c: &Combat, event: &Event) -> Told {
    let n = |id: CombatantId| name(c, id);
    match event {
        Event::ReactionOffered { reactor, options, .. } => {
            let labels: Vec<&str> = options.iter().map(|k| k.label()).collect();
            Told::plain(format!("{} may react: {}", n(*reactor), labels.join(", ")))
                .say(Say::ReactionOffered, [("name", who(*reactor))])
        }
        Event::ReactionTaken { reactor, reaction } => {
            let told = Told::plain(format!("{} reacts: {}", n(*reactor), reaction.label()));
            // A reaction whose effect narrates itself (a readied action firing) has no line.
            if reaction.reaction().narrated() {
                told.say(Say::Reaction(*reaction), [("name", who(*reactor))])
            } else {
                told
            }
        }
        Event::ReactionPassed { reactor } => {
            Told::plain(format!("{} lets it pass", n(*reactor))).say(Say::ReactionPassed, [("name", who(*reactor))])
        }
        Event::DamageReduced {
            target,
            by,
            reaction,
            amount,
            remaining,
        } => Told::plain(format!(
            "{}'s {} reduces the damage to {} by {amount} (to {remaining})",
            n(*by),
            reaction.label(),
            n(*target)
        ))
        .say(
            Say::DamageReduced,
            [
                ("name", who(*by)),
                ("target", who(*target)),
                ("reaction", word(reaction.label())),
                ("amount", num(amount)),
                ("damage", num(remaining)),
            ],
        ),
        Event::StatBlockReaction {
            by,
            attacker,
            reaction,
            missed,
            amount,
            remaining,
        } => {
            if *missed {
                Told::plain(format!("{} reacts: {reaction} — {}'s hit misses", n(*by), n(*attacker))).say(
                    Say::StatBlockReactionMiss,
                    [
                        ("name", who(*by)),
                        ("attacker", who(*attacker)),
                        ("reaction", text(reaction)),
                    ],
                )
            } else {
                Told::plain(format!(
                    "{} reacts: {reaction} — the damage falls by {amount} (to {remaining})",
                    n(*by)
                ))
                .say(
                    Say::StatBlockReactionReduce,
                    [
                        ("name", who(*by)),
                        ("reaction", text(reaction)),
                        ("amount", num(amount)),
                        ("damage", num(remaining)),
                    ],
                )
            }
        }
        Event::ParryRolled {
            by,
            attacker,
            roll,
            dc,
            deflected,
        } => {
            let result = if *deflected { "deflected" } else { "the attack goes on" };
            Told::plain(format!(
                "{} parries {}'s attack ({roll} vs DC {dc}): {result}",
                n(*by),
                n(*attacker)
            ))
            .say(
                if *deflected { Say::Deflected } else { Say::ParryFailed },
                [("name", who(*by)), ("attacker", who(*attacker))],
            )
            .check(format!("{roll} vs DC {dc}"))
        }
        _ => not_in_family("reactions", event),
    }
}
