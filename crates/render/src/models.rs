//! What each timing model shows (DESIGN "Timing models": each model's state is
//! visible): the state field of the status embed — the initiative order (GogoBee), the order by
//! REF → LUK with the coming Instant phase (TDGS), the charge race (CTB), the tick timeline
//! (ticks) — and the turn's budget of a combatant: action / bonus / reaction / feet, action / step
//! / free action / Interrupts left, AP / cooldowns, or the action in progress.
//!
//! Every field fits Discord's limits by construction: one field, lines cut with "… and N more".

use engine::combatant::Combatant;
use engine::timing::ctb::{self, StatusKind};
use engine::timing::tdgs;
use engine::timing::ticks::{self, Activity, Cycle, Phase};
use engine::{Combat, CombatantId, Ruleset};

use crate::payload::{EmbedField, limits};
use crate::text::{bold_name, escape_markdown};

/// Cells in a charge bar (10 charge each).
const CHARGE_CELLS: i32 = 10;
/// Ticks a PER bar shows before it is cut short.
const PER_CELLS: u32 = 24;

fn mark(available: bool) -> &'static str {
    if available { "✓" } else { "✗" }
}

fn name_of(c: &Combatant) -> String {
    if c.is_dead() {
        format!("~~{}~~", escape_markdown(&c.name))
    } else {
        bold_name(&c.name)
    }
}

fn pointer(combat: &Combat, id: CombatantId) -> &'static str {
    if combat.current() == Some(id) { "▶ " } else { "" }
}

fn plural(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// One field holding `lines`, cut to Discord's field limit with "… and N more".
fn lines_field(name: &str, lines: &[String]) -> Option<EmbedField> {
    /// Room kept for the "… and N more" line.
    const RESERVE: usize = 24;
    if lines.is_empty() {
        return None;
    }
    let mut value = String::new();
    let mut used = 0;
    for (i, line) in lines.iter().enumerate() {
        let line = crate::payload::truncate(line, limits::FIELD_VALUE - RESERVE);
        let cost = usize::from(used > 0) + line.chars().count();
        let reserve = if i + 1 < lines.len() { RESERVE } else { 0 };
        if used + cost + reserve > limits::FIELD_VALUE {
            value = format!("{value}\n… and {} more", lines.len() - i);
            break;
        }
        if used > 0 {
            value.push('\n');
        }
        value.push_str(&line);
        used += cost;
    }
    Some(EmbedField {
        name: crate::payload::truncate(name, limits::FIELD_NAME),
        value,
        inline: false,
    })
}

/// The status embed's field for the fight's timing model (`None` before the fight begins).
pub fn state_field(combat: &Combat) -> Option<EmbedField> {
    if !combat.started || combat.outcome.is_some() {
        return None;
    }
    match combat.ruleset {
        Ruleset::Gogobee => initiative_field(combat),
        Ruleset::Tdgs => tdgs_field(combat),
        Ruleset::Ctb => charge_race_field(combat),
        Ruleset::Ticks => timeline_field(combat),
    }
}

/// GogoBee: the initiative order, d20 + DEX, the one acting marked.
fn initiative_field(combat: &Combat) -> Option<EmbedField> {
    let lines: Vec<String> = combat
        .order
        .iter()
        .map(|&id| {
            let c = combat.get(id);
            format!("`{:>2}` {}{}", c.initiative, pointer(combat, id), name_of(c))
        })
        .collect();
    lines_field(&format!("Initiative — round {}", combat.round), &lines)
}

/// TDGS: this round's order (REF → LUK → d2, Delay applied) with each entity's Interrupts left,
/// then the coming Instant phase.
fn tdgs_field(combat: &Combat) -> Option<EmbedField> {
    let mut lines: Vec<String> = combat
        .order
        .iter()
        .map(|&id| {
            let c = combat.get(id);
            let interrupts = interrupts_left(c);
            let interrupts = if interrupts.is_empty() || c.is_dead() {
                String::new()
            } else {
                format!(" · {interrupts}")
            };
            format!(
                "{}{} · REF {} · LUK {}{interrupts}",
                pointer(combat, id),
                name_of(c),
                tdgs::reflex(c),
                tdgs::luck(c)
            )
        })
        .collect();
    let upcoming = tdgs::upcoming_instants(combat);
    let next_round = combat.round + 1;
    lines.push(if upcoming.is_empty() {
        format!("Instant phase, round {next_round}: nothing declared")
    } else {
        let list: Vec<String> = upcoming
            .iter()
            .map(|(id, instant, instant_ref)| {
                format!(
                    "{} (REF {instant_ref}) — {}",
                    instant.name(),
                    bold_name(&combat.get(*id).name)
                )
            })
            .collect();
        format!("Instant phase, round {next_round}: {}", list.join(", "))
    });
    lines_field(&format!("Order by REF → LUK — round {}", combat.round), &lines)
}

/// TDGS: "Parry 1/1 per round, Counterspell 0/1 per scene", or "no Interrupts".
pub fn interrupts_left(c: &Combatant) -> String {
    let list: Vec<String> = tdgs::interrupts(c)
        .iter()
        .map(|i| {
            format!(
                "{} {}/{} per {}",
                i.kind.label(),
                i.left,
                i.limit.max(),
                i.limit.period()
            )
        })
        .collect();
    list.join(", ")
}

/// The charge bar: ten cells of 10 charge, `▰▰▰▱▱▱▱▱▱▱`.
pub fn charge_bar(charge: i32) -> String {
    let filled = (charge.max(0) / (ctb::THRESHOLD / CHARGE_CELLS)).min(CHARGE_CELLS);
    format!(
        "{}{}",
        "▰".repeat(filled.unsigned_abs() as usize),
        "▱".repeat((CHARGE_CELLS - filled).unsigned_abs() as usize)
    )
}

/// CTB: every living unit's charge meter toward 100 (the fullest first), and who acts next.
fn charge_race_field(combat: &Combat) -> Option<EmbedField> {
    let units = ctb::standings(combat);
    let mut lines: Vec<String> = units
        .iter()
        .map(|c| {
            let acting = if combat.current() == Some(c.id) {
                " · acting"
            } else {
                ""
            };
            format!(
                "{}{} `{}` {}/{} · speed {}{acting}",
                pointer(combat, c.id),
                name_of(c),
                charge_bar(c.ctb().charge),
                c.ctb().charge,
                ctb::THRESHOLD,
                ctb::speed(c)
            )
        })
        .collect();
    if let Some((next, ticks)) = ctb::next_to_act(combat) {
        let when = if ticks == 0 {
            "at once".to_owned()
        } else {
            format!("in {}", plural(ticks, "tick", "ticks"))
        };
        lines.push(format!("Next: {} {when}", bold_name(&combat.get(next).name)));
    }
    lines_field(&format!("Charge race — tick {}", combat.model.tick), &lines)
}

/// A PER cycle as a bar: one cell per tick, `■` processed and `□` to come, phases split by `┊`.
pub fn per_bar(cycle: &Cycle) -> String {
    let mut out = String::new();
    let mut shown = 0;
    for (phase, length) in [
        (Phase::Prep, cycle.prep),
        (Phase::Exec, cycle.exec),
        (Phase::Recover, cycle.recover),
    ] {
        if length == 0 {
            continue;
        }
        if !out.is_empty() {
            out.push('┊');
        }
        let start = match phase {
            Phase::Prep => 0,
            Phase::Exec => cycle.prep,
            Phase::Recover => cycle.prep + cycle.exec,
        };
        for tick in start..start + length {
            if shown == PER_CELLS {
                out.push('…');
                return out;
            }
            out.push(if tick < cycle.elapsed { '■' } else { '□' });
            shown += 1;
        }
    }
    out
}

/// "Attack · prep `■□□┊□┊□□□` 2 ticks left" — an action in progress, its phase and what is left.
pub fn cycle_line(cycle: &Cycle) -> String {
    let left = match cycle.left_in_phase() {
        0 => match cycle.phase() {
            Phase::Prep => "exec next".to_owned(),
            Phase::Exec => "recover next".to_owned(),
            Phase::Recover => "done".to_owned(),
        },
        n => format!("{} left", plural(n, "tick", "ticks")),
    };
    let phase = if cycle.entered.is_none() {
        "starting".to_owned()
    } else {
        cycle.phase().name().to_owned()
    };
    format!(
        "{} · {phase} `{}` {left}",
        escape_markdown(&cycle.activity.describe()),
        per_bar(cycle)
    )
}

/// What a combatant is doing on the timeline.
fn timeline_doing(combat: &Combat, c: &Combatant) -> String {
    if c.is_dead() {
        return "out of the fight".to_owned();
    }
    if combat.model.timeline.awaiting == Some(c.id) {
        return "choosing an action — the timeline waits".to_owned();
    }
    let mut doing = match &c.ticks().current {
        Some(cycle) if cycle.activity == Activity::Wait => "waiting".to_owned(),
        Some(cycle) => cycle_line(cycle),
        None => "idle".to_owned(),
    };
    if !c.ticks().paused.is_empty() {
        let paused: Vec<String> = c
            .ticks()
            .paused
            .iter()
            .map(|p| escape_markdown(&p.activity.describe()))
            .collect();
        doing = format!("{doing} · paused: {}", paused.join(", "));
    }
    doing
}

/// Ticks: the current tick and each actor in initiative order with its action, phase and ticks
/// left; who the timeline waits for.
fn timeline_field(combat: &Combat) -> Option<EmbedField> {
    let mut lines: Vec<String> = combat
        .order
        .iter()
        .map(|&id| {
            let c = combat.get(id);
            format!(
                "{}{} ({}) · {}",
                pointer(combat, id),
                name_of(c),
                c.initiative,
                timeline_doing(combat, c)
            )
        })
        .collect();
    if let Some(id) = combat.model.timeline.awaiting {
        lines.push(format!(
            "The timeline waits for {} to choose an action.",
            bold_name(&combat.get(id).name)
        ));
    }
    lines_field(&format!("Timeline — tick {}", combat.model.tick), &lines)
}

/// The turn's budget of `c` under the fight's model, as one line.
pub fn budget(combat: &Combat, c: &Combatant) -> String {
    let r = &c.resources;
    let feet = format!(
        "{}/{} ft",
        (r.movement_total - r.movement_used).max(0),
        r.movement_total
    );
    match combat.ruleset {
        Ruleset::Gogobee => format!(
            "action {} · bonus {} · reaction {} · {feet}",
            mark(!r.action_used),
            mark(!r.bonus_used),
            mark(!r.reaction_used)
        ),
        Ruleset::Tdgs => {
            let step = !c.tdgs().stepped || c.tdgs().extra_moves > 0;
            let interrupts = interrupts_left(c);
            let interrupts = if interrupts.is_empty() {
                "no Interrupts".to_owned()
            } else {
                format!("Interrupts: {interrupts}")
            };
            let step = if step {
                format!("step ✓ ({} ft)", r.movement_total)
            } else {
                "step ✗".to_owned()
            };
            // TDGS's own budget: its action, its step, unlimited free actions (each once a turn).
            let free = if c.tdgs().free_used.is_empty() {
                "free actions ✓".to_owned()
            } else {
                let used: Vec<String> = c.tdgs().free_used.iter().map(|f| escape_markdown(f)).collect();
                format!("free actions ✓ (used: {})", used.join(", "))
            };
            format!(
                "action {} · {step} · {free} · {interrupts}",
                mark(!c.tdgs().action_used)
            )
        }
        Ruleset::Ctb => {
            let cooldowns: Vec<String> = c
                .ctb()
                .cooldowns
                .iter()
                .map(|(ability, turns)| format!("{} {}", escape_markdown(ability), plural(*turns, "turn", "turns")))
                .collect();
            let cooldowns = if cooldowns.is_empty() {
                "no cooldowns".to_owned()
            } else {
                format!("cooldowns: {}", cooldowns.join(", "))
            };
            format!(
                "AP {}/{} · {cooldowns} · reaction {} · {feet}",
                c.ctb().ap,
                ctb::max_ap(ctb::speed(c)),
                mark(!r.reaction_used)
            )
        }
        Ruleset::Ticks => format!(
            "{} · can react {}",
            timeline_doing(combat, c),
            mark(ticks::may_react(c))
        ),
    }
}

/// A combatant's statuses for its HP line, e.g. `Burning (1 turn)`, `Regeneration`.
pub fn statuses(c: &Combatant) -> Vec<String> {
    c.statuses
        .iter()
        .map(|s| {
            let name = escape_markdown(&s.name);
            if s.permanent {
                name
            } else {
                let stun = if s.kind == StatusKind::Stun { ", stunned" } else { "" };
                format!("{name} ({}{stun})", plural(s.duration, "turn", "turns"))
            }
        })
        .collect()
}

/// The lines a player's sheet shows about their part in the fight (`/character sheet` during a
/// fight): the rules, the turn's budget, and what the model tracks for them (Discord markdown).
pub fn sheet_lines(combat: &Combat, id: CombatantId) -> Vec<String> {
    let Some(c) = combat.combatants.get(id.0 as usize) else {
        return Vec::new();
    };
    let mut lines = vec![format!("**{}** rules · {}", combat.ruleset.name(), budget(combat, c))];
    match combat.ruleset {
        Ruleset::Ctb => {
            lines.push(format!(
                "Charge {}/{} · speed {}",
                c.ctb().charge,
                ctb::THRESHOLD,
                ctb::speed(c)
            ));
        }
        Ruleset::Tdgs => {
            if let Some(instant) = c.tdgs().declared {
                lines.push(format!("Declared for the next Instant phase: {}", instant.name()));
            } else if let Some(instant) = tdgs::Instant::granted(c) {
                lines.push(format!("Instant: {} (declare it with /instant)", instant.name()));
            }
        }
        Ruleset::Ticks => lines.push(format!("Initiative {} · tick {}", c.initiative, combat.model.tick)),
        Ruleset::Gogobee => {}
    }
    let statuses = statuses(c);
    if !statuses.is_empty() {
        lines.push(format!("Statuses: {}", statuses.join(", ")));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_charge_bar_fills_a_cell_per_ten_charge_and_stops_full() {
        assert_eq!(charge_bar(0), "▱▱▱▱▱▱▱▱▱▱");
        assert_eq!(charge_bar(36), "▰▰▰▱▱▱▱▱▱▱");
        assert_eq!(charge_bar(115), "▰▰▰▰▰▰▰▰▰▰");
    }

    #[test]
    fn a_per_bar_shows_each_phase_tick_by_tick() {
        let attack = Activity::Command(engine::Command::Attack { target: None });
        let mut cycle = ticks::durations(&attack, &[], 10, 0);
        cycle.entered = Some(Phase::Prep);
        cycle.elapsed = 1;
        assert_eq!(per_bar(&cycle), "■□□┊□┊□□□");
        assert_eq!(cycle_line(&cycle), "Attack · prep `■□□┊□┊□□□` 2 ticks left");
        cycle.elapsed = 3;
        assert_eq!(cycle_line(&cycle), "Attack · prep `■■■┊□┊□□□` exec next");
    }

    #[test]
    fn a_long_list_is_cut_within_the_field_limit() {
        let lines: Vec<String> = (0..200).map(|i| format!("line {i} {}", "x".repeat(20))).collect();
        let field = lines_field("Many", &lines).unwrap();
        assert!(field.value.chars().count() <= limits::FIELD_VALUE);
        assert!(field.value.ends_with("more"), "{}", field.value);
        let huge = vec!["y".repeat(5000)];
        assert!(lines_field("One", &huge).unwrap().value.chars().count() <= limits::FIELD_VALUE);
    }
}
