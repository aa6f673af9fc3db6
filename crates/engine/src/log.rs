//! A plain-text line per event, for scenario snapshots, simulations and debugging. Player-facing
//! narration is the renderer's job (flavor files); this is the referee's log.

use std::fmt::Write as _;

use crate::combat::Combat;
use crate::combatant::CombatantId;
use crate::dice::{D20, RollMode};
use crate::event::Event;
use crate::state::damage::Defence;

fn name(c: &Combat, id: CombatantId) -> &str {
    c.combatants.get(id.0 as usize).map_or("?", |x| x.name.as_str())
}

fn d20(roll: &D20) -> String {
    match (roll.mode, roll.other) {
        (RollMode::Advantage, Some(o)) => format!("d20 {} (adv, other {o})", roll.natural),
        (RollMode::Disadvantage, Some(o)) => format!("d20 {} (dis, other {o})", roll.natural),
        _ => format!("d20 {}", roll.natural),
    }
}

/// One line describing `event` in `combat`.
pub fn line(c: &Combat, event: &Event) -> String {
    let n = |id: CombatantId| name(c, id).to_owned();
    match event {
        Event::InitiativeRolled { order } => {
            let list: Vec<String> = order.iter().map(|e| format!("{} {}", n(e.id), e.total)).collect();
            format!("Initiative: {}", list.join(", "))
        }
        Event::RoundStarted { round } => format!("— Round {round} —"),
        Event::TurnStarted { id, movement, .. } => format!("{}'s turn ({movement} ft)", n(*id)),
        Event::TurnEnded { id } => format!("{} ends their turn", n(*id)),
        Event::ReadiedActionExpired { id, action } => {
            format!("{}'s readied {action} expires", n(*id))
        }
        Event::EscapeAttempted {
            id,
            skill,
            roll,
            dc,
            freed,
        } => {
            let how = if *freed { "breaks free" } else { "is still held" };
            format!("{} {how} ({skill:?} {roll} vs DC {dc})", n(*id))
        }
        Event::Moved {
            id,
            feet,
            to,
            difficult_terrain,
            ..
        } => {
            let bands: Vec<String> = to.iter().map(|(o, b)| format!("{} {}", n(*o), b.name())).collect();
            let terrain = if *difficult_terrain {
                " through difficult terrain"
            } else {
                ""
            };
            format!("{} moves {feet} ft{terrain} → {}", n(*id), bands.join(", "))
        }
        Event::MoveAborted { id } => format!("{} never gets there", n(*id)),
        Event::Closing {
            id,
            target,
            feet,
            remaining,
        } => format!("{} closes {feet} ft on {} ({remaining} ft to go)", n(*id), n(*target)),
        Event::StoodUp { id, feet } => format!("{} stands up ({feet} ft)", n(*id)),
        Event::Teleported { id, to } => {
            let bands: Vec<String> = to.iter().map(|(o, b)| format!("{} {}", n(*o), b.name())).collect();
            format!("{} teleports → {}", n(*id), bands.join(", "))
        }
        Event::Dashed { id, movement } => format!("{} dashes ({movement} ft left)", n(*id)),
        Event::Disengaged { id } => format!("{} disengages", n(*id)),
        Event::Dodging { id } => format!("{} dodges", n(*id)),
        Event::Helped { id, ally } => format!("{} helps {}", n(*id), n(*ally)),
        Event::HideAttempted {
            id,
            roll,
            against,
            hidden,
        } => {
            format!(
                "{} tries to hide: {roll} vs {against} — {}",
                n(*id),
                if *hidden { "hidden" } else { "spotted" }
            )
        }
        Event::Revealed { id } => format!("{} is revealed", n(*id)),
        Event::Searched { id, skill, roll, found } => {
            format!(
                "{} searches ({skill:?} {roll}): {}",
                n(*id),
                if found.is_empty() {
                    "nothing".to_owned()
                } else {
                    found.join(", ")
                }
            )
        }
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
            ..
        } => {
            let result = match (hit, critical) {
                (true, true) => "CRITICAL HIT",
                (true, false) => "hit",
                _ => "miss",
            };
            format!(
                "{} attacks {} with {weapon} [{swing}/{of}]: {} → {total} vs AC {armor_class} — {result}",
                n(*attacker),
                n(*target),
                d20(roll)
            )
        }
        Event::SwingLost { attacker, swing } => {
            format!("{}'s swing {swing} finds no target", n(*attacker))
        }
        Event::SneakAttack { attacker, dice } => {
            format!("{} sneak attacks (+{dice}d6)", n(*attacker))
        }
        Event::DamageDealt {
            target,
            amount,
            damage_type,
            hp,
            extra,
            ..
        } if !extra.is_empty() => {
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
        }
        Event::DamageDealt {
            target,
            amount,
            damage_type,
            hp,
            ..
        } => format!("{} takes {amount} {damage_type:?} damage ({hp} HP left)", n(*target)),
        Event::DamageReduced {
            target,
            by,
            reaction,
            amount,
            remaining,
        } => {
            format!(
                "{}'s {} reduces the damage to {} by {amount} (to {remaining})",
                n(*by),
                reaction.label(),
                n(*target)
            )
        }
        Event::StatBlockReaction {
            by,
            attacker,
            reaction,
            missed,
            amount,
            remaining,
        } => {
            if *missed {
                format!("{} reacts: {reaction} — {}'s hit misses", n(*by), n(*attacker))
            } else {
                format!(
                    "{} reacts: {reaction} — the damage falls by {amount} (to {remaining})",
                    n(*by)
                )
            }
        }
        Event::TempHpGained {
            target,
            by,
            amount,
            temp_hp,
            kept,
        } => {
            if *kept {
                format!(
                    "{} gives {} {amount} temporary HP; they keep their {temp_hp}",
                    n(*by),
                    n(*target)
                )
            } else {
                format!("{} gives {} {amount} temporary HP", n(*by), n(*target))
            }
        }
        Event::TempHpAbsorbed { id, amount, left } => {
            format!("{}'s temporary HP take {amount} ({left} left)", n(*id))
        }
        Event::Defended {
            target,
            damage_type,
            defence,
            amount,
        } => {
            let what = match defence {
                Defence::Resistance => format!("resists {amount} of the {} damage", damage_type.name()),
                Defence::Immunity => format!("is immune to {} damage ({amount} ignored)", damage_type.name()),
                Defence::Vulnerability => format!("is vulnerable to {} damage (+{amount})", damage_type.name()),
            };
            format!("{} {what}", n(*target))
        }
        Event::UndeadFortitude { id } => format!("{} refuses to fall (Undead Fortitude)", n(*id)),
        Event::SaveFailedHelpless { id, ability, dc } => {
            format!(
                "{} fails the {ability:?} save against DC {dc} outright: helpless",
                n(*id)
            )
        }
        Event::LegendaryResistance { id, left } => {
            format!(
                "{} chooses to succeed instead (Legendary Resistance, {left} left)",
                n(*id)
            )
        }
        Event::ConcentrationEnded { id, spell } => format!("{} loses concentration on {spell}", n(*id)),
        Event::Aura { holder, target, aura } => format!("{} starts its turn in {}'s {aura}", n(*target), n(*holder)),
        Event::RegenerationStopped { id } => format!("{}'s wounds do not close (Regeneration stopped)", n(*id)),
        Event::LegendaryAction { id, action, left } => {
            format!("{} takes a legendary action: {action} ({left} left)", n(*id))
        }
        Event::ConditionImmune { id, condition } => {
            format!("{} is immune to being {}", n(*id), condition.name())
        }
        Event::Resisted { target, amount } => {
            format!("{} shrugs off {amount} damage in a rage", n(*target))
        }
        Event::Healed { target, amount, hp, .. } => format!("{} heals {amount} ({hp} HP)", n(*target)),
        Event::SpellCast {
            caster,
            spell,
            slot,
            target,
        } => {
            let slot = slot.map_or(String::new(), |s| format!(" (level {s} slot)"));
            let target = target.map_or(String::new(), |t| format!(" at {}", n(t)));
            format!(
                "{} casts {}{slot}{target}",
                n(*caster),
                c.get(*caster).spell_name(*spell)
            )
        }
        Event::SpellCountered {
            caster,
            spell,
            by,
            roll,
            dc,
        } => {
            let check = if *dc > 0 {
                format!(" ({roll} vs DC {dc})")
            } else {
                String::new()
            };
            format!(
                "{} counters {}'s {}{check}",
                n(*by),
                n(*caster),
                c.get(*caster).spell_name(*spell)
            )
        }
        Event::CounterspellFailed { by, roll, dc, .. } => {
            format!("{}'s counterspell fails ({roll} vs DC {dc})", n(*by))
        }
        Event::MutualDestruction { first, second, flips } => {
            let how = if flips.is_empty() {
                "by REF and LUK".to_owned()
            } else {
                format!("by d2 {flips:?}")
            };
            format!(
                "{} and {} would stop each other: {} acts first ({how})",
                n(*first),
                n(*second),
                n(*first)
            )
        }
        Event::ParryRolled {
            by,
            attacker,
            roll,
            dc,
            deflected,
        } => {
            let result = if *deflected { "deflected" } else { "the attack goes on" };
            format!(
                "{} parries {}'s attack ({roll} vs DC {dc}): {result}",
                n(*by),
                n(*attacker)
            )
        }
        Event::SavingThrow {
            id,
            ability,
            d20: roll,
            total,
            dc,
            success,
        } => {
            format!(
                "{} {ability:?} save: {} → {total} vs DC {dc} — {}",
                n(*id),
                d20(roll),
                if *success { "success" } else { "failure" }
            )
        }
        Event::AbilityUsed { id, ability } => format!("{} uses {ability}", n(*id)),
        Event::BreathRecharged { id, roll, ability } => match ability {
            Some(ability) => format!("{}'s {ability} recharges (d6 {roll})", n(*id)),
            None => format!("{}'s breath recharges (d6 {roll})", n(*id)),
        },
        Event::Contest {
            id,
            target,
            roll,
            against,
            won,
        } => {
            format!(
                "{} contests {}: {roll} vs {against} — {}",
                n(*id),
                n(*target),
                if *won { "wins" } else { "loses" }
            )
        }
        Event::Grappled { id, target } => format!("{} grapples {}", n(*id), n(*target)),
        Event::Shoved { id, target, mode } => {
            format!("{} shoves {} ({mode:?})", n(*id), n(*target))
        }
        Event::ConditionApplied { id, condition } => format!("{} is {condition}", n(*id)),
        Event::ConditionEnded { id, condition } => format!("{} is no longer {condition}", n(*id)),
        Event::CunningStrikeReady { id, rider } => {
            format!("{} readies a cunning strike ({rider:?})", n(*id))
        }
        Event::ItemUsed { id, item, target } => {
            format!("{} uses {} on {}", n(*id), c.get(*id).item_name(*item), n(*target))
        }
        Event::MedicineCheck {
            id,
            target,
            roll,
            success,
        } => {
            format!(
                "{} tends {} (Medicine {roll} vs DC 10) — {}",
                n(*id),
                n(*target),
                if *success { "stable" } else { "no luck" }
            )
        }
        Event::ReadiedActionSet { id, action, trigger } => format!("{} readies {action} — when {trigger}", n(*id)),
        Event::ReadiedActionTriggered {
            id, trigger_by, action, ..
        } => {
            format!("{} sets it off: {}'s readied {action} fires", n(*trigger_by), n(*id))
        }
        Event::ReactionOffered { reactor, options, .. } => {
            let labels: Vec<&str> = options.iter().map(|k| k.label()).collect();
            format!("{} may react: {}", n(*reactor), labels.join(", "))
        }
        Event::ReactionTaken { reactor, reaction } => {
            format!("{} reacts: {}", n(*reactor), reaction.label())
        }
        Event::ReactionPassed { reactor } => format!("{} lets it pass", n(*reactor)),
        Event::Downed { id } => format!("{} is downed", n(*id)),
        Event::DamagedWhileDowned { id, marks, failures } => {
            format!("{} takes {marks} failure mark(s) while downed ({failures}/3)", n(*id))
        }
        Event::DeathSaveRolled {
            id,
            d20: roll,
            outcome,
            successes,
            failures,
            ..
        } => {
            format!(
                "{} death save: {} — {outcome:?} ({successes} ✓ / {failures} ✗)",
                n(*id),
                d20(roll)
            )
        }
        Event::Stabilized { id, wakes_in } => {
            format!("{} is stable (wakes in {wakes_in} turns)", n(*id))
        }
        Event::Woke { id } => format!("{} wakes with 1 HP", n(*id)),
        Event::Revived { id, hp, prone: false } => format!("{} is back on their feet ({hp} HP)", n(*id)),
        Event::Revived { id, hp, prone: true } => format!("{} is back ({hp} HP), still prone", n(*id)),
        Event::Died { id } => format!("{} dies", n(*id)),
        Event::MonsterSlain { id, .. } => format!("{} is slain", n(*id)),
        Event::HpAdjusted { id, delta, hp } => {
            format!("GM adjusts {} by {delta:+} ({hp} HP)", n(*id))
        }
        Event::CombatEnded { outcome, xp } => format!("Combat ends: {outcome:?} ({xp} XP)"),
        Event::ChargeRace {
            ticks,
            tick,
            winner,
            charges,
        } => {
            let meters: Vec<String> = charges
                .iter()
                .map(|e| format!("{} {} (+{})", n(e.id), e.charge, e.speed))
                .collect();
            format!(
                "Charge race: {ticks} tick(s) (tick {tick}): {} — {} acts",
                meters.join(", "),
                n(*winner)
            )
        }
        Event::ActionPointsRefreshed { id, ap } => format!("{} has {ap} AP", n(*id)),
        Event::ActionPointsSpent { id, cost, left } => format!("{} spends {cost} AP ({left} left)", n(*id)),
        Event::CooldownStarted { id, ability, turns } => {
            format!("{}'s {ability} cools down for {turns} turn(s)", n(*id))
        }
        Event::StatusApplied {
            id,
            status,
            by,
            turns,
            permanent,
        } => {
            let how_long = if *permanent {
                "permanent".to_owned()
            } else {
                format!("{turns} turn(s)")
            };
            match by {
                Some(by) => format!("{} leaves {} {status} ({how_long})", n(*by), n(*id)),
                None => format!("{} has {status} ({how_long})", n(*id)),
            }
        }
        Event::StatusTicked {
            id,
            status,
            amount,
            remaining,
            permanent,
        } => {
            let left = if *permanent {
                "permanent".to_owned()
            } else {
                format!("{remaining} turn(s) left")
            };
            format!("{}'s {status} ticks ({amount:+} HP, {left})", n(*id))
        }
        Event::StatusExpired { id, status } => format!("{}'s {status} wears off", n(*id)),
        Event::Stunned { id } => format!("{} is stunned and loses the turn", n(*id)),
        Event::InitiativeFixed { order } => {
            let list: Vec<String> = order
                .iter()
                .map(|e| {
                    let flips: Vec<String> = e.flips.iter().map(u32::to_string).collect();
                    let d2 = if flips.is_empty() {
                        String::new()
                    } else {
                        format!(" d2 {}", flips.join("/"))
                    };
                    format!("{} REF {} LUK {}{d2}", n(e.id), e.reflex, e.luck)
                })
                .collect();
            format!("Order: {}", list.join(", "))
        }
        Event::InstantDeclared { id, instant, round } => {
            format!("{} declares {} for round {round}", n(*id), instant.name())
        }
        Event::InstantResolved {
            id,
            instant,
            instant_ref,
        } => format!("Instant: {}'s {} (REF {instant_ref})", n(*id), instant.name()),
        Event::Joined { id, placement } => match placement {
            crate::event::Placement::Waiting => format!("{} joins the fight", n(*id)),
            crate::event::Placement::Initiative { roll, total } => {
                format!("{} joins the fight: initiative {total} (d20 {roll})", n(*id))
            }
            crate::event::Placement::NaturalOrder {
                reflex,
                luck,
                flips,
                this_round,
            } => {
                let d2: Vec<String> = flips.iter().map(u32::to_string).collect();
                let d2 = if d2.is_empty() {
                    String::new()
                } else {
                    format!(" d2 {}", d2.join("/"))
                };
                let when = if *this_round { "this round" } else { "next round" };
                format!(
                    "{} joins the fight: REF {reflex} LUK {luck}{d2}, acts from {when}",
                    n(*id)
                )
            }
            crate::event::Placement::Charge { charge } => {
                format!("{} joins the charge race at {charge}", n(*id))
            }
        },
        Event::Delayed { id, after } => match after {
            Some(other) => format!("{} delays until after {}", n(*id), n(*other)),
            None => format!("{} delays to the end of the round", n(*id)),
        },
        Event::PhaseStarted {
            id,
            action,
            phase,
            ticks,
            tick,
        } => format!("tick {tick}: {} {action}: {} ({ticks} tick(s))", n(*id), phase.name()),
        Event::ActionCancelled { id, action, by } => match by {
            Some(by) => format!("{} breaks {}'s {action}", n(*by), n(*id)),
            None => format!("{} drops their {action} to react", n(*id)),
        },
        Event::ActionFizzled { id, reason } => format!("{}'s action fizzles: {reason}", n(*id)),
        Event::AwaitingCommand { id, tick } => format!("Tick {tick}: waiting for {}", n(*id)),
    }
}
