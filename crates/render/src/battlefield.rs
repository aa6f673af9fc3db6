//! The battlefield in words (the status embed's "Battlefield" field and the lines under "Up
//! next"): who is engaged with whom (`Aria ⚔ Goblin 1, Goblin 2 · Bo ⚔ Orc`), how far the acting
//! combatant is from each opponent and what closing to melee costs there, who would strike if it
//! left melee, each combatant's conditions and the room's difficult terrain. Everything is read
//! from the engine's state (`Combat::engaged_with`, `movement::cost_to_melee`,
//! `opportunity::would_strike`), never worked out again here; every field fits Discord's limits,
//! long lists cut with "… and N more".

use engine::combatant::Combatant;
use engine::movement::{Band, MeleeCost};
use engine::{Combat, CombatantId, Side};

use crate::payload::EmbedField;
use crate::text::escape_markdown;

/// What joins a combatant to those in melee with it.
pub const ENGAGED: &str = " ⚔ ";
/// What separates two engagements on the line.
pub const BETWEEN: &str = " · ";
/// The field's name.
pub const FIELD_NAME: &str = "Battlefield";
/// Characters the "Battlefield" field may take: less than a field's 1024, so that a 40-combatant
/// status keeps it, the HP fields, the model's state and "Up next" within an embed's 6000.
const FIELD_BUDGET: usize = 700;
/// Characters the battlefield lines under "Up next" may take.
const UP_NEXT_BUDGET: usize = 600;

/// The engagements, seen from the party's side: each living party-side combatant in melee with
/// living opponents, with those opponents, in combatant order (the engine's `engaged_with`).
pub fn engagements(combat: &Combat) -> Vec<(CombatantId, Vec<CombatantId>)> {
    combat
        .combatants
        .iter()
        .filter(|c| c.side == Side::Party && !c.is_dead())
        .map(|c| (c.id, combat.engaged_with(c.id)))
        .filter(|(_, foes)| !foes.is_empty())
        .collect()
}

fn name(combat: &Combat, id: CombatantId) -> String {
    escape_markdown(&combat.get(id).name)
}

/// `items` joined by `sep`, within `budget` characters: as many as fit, then "… and N more".
fn joined_within(items: &[String], sep: &str, budget: usize) -> String {
    let mut out = String::new();
    for (i, item) in items.iter().enumerate() {
        let more = format!("{sep}… and {} more", items.len() - i);
        let cost = if i == 0 { 0 } else { sep.chars().count() } + item.chars().count();
        let reserve = if i + 1 < items.len() {
            more.chars().count() + 3
        } else {
            0
        };
        if out.chars().count() + cost + reserve > budget {
            if i == 0 {
                return format!("… and {} more", items.len());
            }
            out.push_str(&more);
            return out;
        }
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(item);
    }
    out
}

/// The engagements as one line: `Aria ⚔ Goblin 1, Goblin 2 · Bo ⚔ Orc`, within `budget`.
pub fn engagement_line(combat: &Combat, budget: usize) -> Option<String> {
    let items: Vec<String> = engagements(combat)
        .iter()
        .map(|(id, foes)| {
            let foes: Vec<String> = foes.iter().map(|&f| name(combat, f)).collect();
            format!("{}{ENGAGED}{}", name(combat, *id), foes.join(", "))
        })
        .collect();
    (!items.is_empty()).then(|| joined_within(&items, BETWEEN, budget))
}

/// The room's terrain, when it matters: difficult terrain doubles every foot (a flyer's excepted).
pub fn terrain_line(combat: &Combat) -> Option<String> {
    combat.terrain.difficult.then(|| {
        let zone = combat
            .terrain
            .zone
            .map(|z| format!(" ({})", z.label()))
            .unwrap_or_default();
        format!("Difficult terrain{zone}: moving costs double, flyers excepted.")
    })
}

/// The status embed's "Battlefield" field: the engagements and the terrain (`None` once the
/// fight is over).
pub fn field(combat: &Combat) -> Option<EmbedField> {
    if combat.outcome.is_some() {
        return None;
    }
    let terrain = terrain_line(combat);
    let reserve = terrain.as_ref().map_or(0, |t| t.chars().count() + 1);
    let engaged = engagement_line(combat, FIELD_BUDGET - reserve).unwrap_or_else(|| "No one is in melee.".into());
    let value = match terrain {
        Some(terrain) => format!("{engaged}\n{terrain}"),
        None => engaged,
    };
    Some(EmbedField {
        name: FIELD_NAME.to_owned(),
        value,
        inline: false,
    })
}

/// "25 ft to melee, 50 ft in this terrain, 10 ft covered, +12 ft to stand".
fn cost_text(cost: &MeleeCost) -> String {
    let mut parts = vec![format!("{} ft to melee", cost.open_ground)];
    if cost.here != cost.open_ground {
        parts.push(format!("{} ft in this terrain", cost.here));
    }
    if cost.banked > 0 {
        parts.push(format!("{} ft covered", cost.banked));
    }
    if cost.stand > 0 {
        parts.push(format!("+{} ft to stand", cost.stand));
    }
    parts.join(", ")
}

/// The lines under "Up next" for `id`, the acting combatant: whom it is in melee with and who
/// would strike if it left, then each opponent out of reach with what closing costs — those at
/// the same band and cost on one line (`Goblin 3, Goblin 4: near — 25 ft to melee, 50 ft in
/// this terrain`), nearest first.
pub fn from_actor(combat: &Combat, id: CombatantId) -> Vec<String> {
    let me = combat.get(id);
    if me.is_dead() {
        return Vec::new();
    }
    let mut lines = Vec::new();
    let engaged = combat.engaged_with(id);
    if !engaged.is_empty() {
        let names: Vec<String> = engaged.iter().map(|&o| name(combat, o)).collect();
        let strikers: Vec<String> = engine::opportunity::would_strike(combat, id)
            .iter()
            .map(|&o| name(combat, o))
            .collect();
        let provokes = if strikers.is_empty() {
            "leaving provokes no one".to_owned()
        } else {
            format!("leaving provokes {}", joined_within(&strikers, ", ", 200))
        };
        lines.push(format!("In melee: {} — {provokes}", joined_within(&names, ", ", 300)));
    }
    let mut groups: Vec<(MeleeCost, Vec<String>)> = Vec::new();
    for (other, band) in combat.bands_of(id) {
        if band == Band::Melee {
            continue;
        }
        let Some(cost) = engine::movement::cost_to_melee(combat, id, other) else {
            continue;
        };
        match groups.iter_mut().find(|(c, _)| *c == cost) {
            Some((_, names)) => names.push(name(combat, other)),
            None => groups.push((cost, vec![name(combat, other)])),
        }
    }
    groups.sort_by_key(|(cost, _)| (cost.band, cost.total()));
    for (cost, names) in groups {
        lines.push(format!(
            "{}: {} — {}",
            joined_within(&names, ", ", 200),
            cost.band.name(),
            cost_text(&cost)
        ));
    }
    cut_lines(lines, UP_NEXT_BUDGET)
}

/// [`from_actor`]'s lines as they follow the "Up next" line: each on a line of its own.
pub fn below_up_next(combat: &Combat, id: CombatantId) -> String {
    let mut out = String::new();
    for line in from_actor(combat, id) {
        out.push('\n');
        out.push_str(&line);
    }
    out
}

/// `lines` within `budget` characters (newlines counted), the last kept one saying how many
/// more were left out.
fn cut_lines(lines: Vec<String>, budget: usize) -> Vec<String> {
    let mut kept = Vec::new();
    let mut used = 0;
    let total = lines.len();
    for (i, line) in lines.into_iter().enumerate() {
        let cost = line.chars().count() + 1;
        let reserve = if i + 1 < total { 20 } else { 0 };
        if used + cost + reserve > budget {
            kept.push(format!("… and {} more", total - i));
            break;
        }
        used += cost;
        kept.push(line);
    }
    kept
}

/// British and American spellings (`Paralysed`, `paralyzed`) are the same word.
fn same_word(a: &str, b: &str) -> bool {
    let norm = |s: &str| s.to_lowercase().replace('z', "s");
    norm(a) == norm(b)
}

/// What holds `c` now, as words for its HP line and the picture's markers: the flags the
/// standard actions set (prone, dodging, hidden, …), the spell it concentrates on, and the SRD
/// conditions its statuses hold that the status's own name does not say (a "Dread" status
/// holding *frightened*). The statuses themselves, with their turns, are `models::statuses`.
pub fn conditions(c: &Combatant) -> Vec<String> {
    let k = &c.conditions;
    let flags = [
        (k.prone, "prone"),
        (k.dodging, "dodging"),
        (k.hidden.is_some(), "hidden"),
        (k.raging, "raging"),
        (k.poisoned, "poisoned"),
        (k.grappled_by.is_some(), "grappled"),
        (k.restrained, "restrained"),
        (k.entangled > 0, "entangled"),
        (k.hasted, "hasted"),
        (k.disengaged, "disengaged"),
    ];
    let mut out: Vec<String> = flags
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, s)| (*s).to_owned())
        .collect();
    if let Some(spell) = &k.concentration {
        out.push(format!("concentrating on {}", escape_markdown(spell)));
    }
    for s in &c.statuses {
        if let Some(condition) = s.condition {
            let word = condition.name();
            if !same_word(&s.name, word) && !out.iter().any(|o| o == word) {
                out.push(word.to_owned());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_is_cut_within_its_budget_saying_how_many_more() {
        let items: Vec<String> = (1..=40).map(|i| format!("Goblin {i}")).collect();
        let line = joined_within(&items, ", ", 100);
        assert!(line.chars().count() <= 100, "{line}");
        assert!(line.starts_with("Goblin 1, Goblin 2"), "{line}");
        let shown = line.matches("Goblin").count();
        assert!(line.ends_with(&format!("… and {} more", 40 - shown)), "{line}");
        assert_eq!(joined_within(&items[..2], ", ", 100), "Goblin 1, Goblin 2");
        assert_eq!(joined_within(&items, ", ", 5), "… and 40 more");
    }

    #[test]
    fn spellings_of_one_word_are_the_same() {
        assert!(same_word("Paralysed", "paralyzed"));
        assert!(!same_word("Dread", "frightened"));
    }
}
