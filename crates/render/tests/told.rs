//! The referee's log and the narration tell each event once (`engine::log::tell`): over long
//! seeded fights in every ruleset, each event the log has a line for is narrated (or is one the
//! table need not hear about), each narrated line is a line of the key the event told, filled
//! with the told names and numbers, and those names and numbers are in the referee's line.

mod common;

use std::collections::BTreeSet;

use common::{drive, party_vs_goblins, renderer};
use engine::log::{Piece, Said, Say, tell};
use engine::{Combat, Event, Ruleset, Terrain};
use render::text::{bold_name, escape_markdown};
use render::{Key, RenderContext, Renderer};

/// A value as the narration shows it (as `render::combat` does).
fn rich(c: &Combat, pieces: &[Piece]) -> String {
    pieces
        .iter()
        .map(|p| match p {
            Piece::Who(id) => bold_name(engine::log::name(c, *id)),
            Piece::Text(t) => escape_markdown(t),
            Piece::Num(s) | Piece::Word(s) => s.clone(),
        })
        .collect()
}

/// Every line `said` may come out as: each of its key's lines with the told values filled in,
/// and the dice after it.
fn expected(r: &Renderer, c: &Combat, said: &Said) -> Vec<String> {
    r.flavor()
        .raw_lines(Key::Say(said.say))
        .into_iter()
        .map(|raw| {
            let mut line = raw;
            for (slot, pieces) in &said.slots {
                line = line.replace(&format!("{{{slot}}}"), &rich(c, pieces));
            }
            let line = render::flavor::english(&line);
            match &said.check {
                Some(check) => format!("{line} `{check}`"),
                None => line,
            }
        })
        .collect()
}

/// The numbers written in `text`.
fn numbers(text: &str) -> Vec<String> {
    text.split(|ch: char| !ch.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Facts a narrated line carries that the referee's line leaves out, by design: the round a
/// turn starts in (its own line says so), the duel's two names (its end names the side).
fn referee_leaves_out(say: Say, slot: &str) -> bool {
    matches!((say, slot), (Say::TurnStarted, "round") | (Say::DuelWon, _))
}

/// An event the table need not hear about: a turn's end, a hit that did no damage (its
/// resistance or temporary HP says so), a reaction whose effect narrates itself, and a revival
/// right after the natural 20 that caused it.
fn silent(events: &[Event], i: usize) -> bool {
    match &events[i] {
        Event::TurnEnded { .. } => true,
        Event::DamageDealt { amount: 0, .. } => true,
        Event::ReactionTaken { reaction, .. } => !reaction.reaction().narrated(),
        Event::Revived { id, .. } => {
            i > 0
                && matches!(&events[i - 1], Event::DeathSaveRolled {
                    id: saver,
                    result: engine::death_saves::DeathSaveResult::Revived,
                    ..
                } if saver == id)
        }
        _ => false,
    }
}

/// The fights: a party against goblins in a flooded room (six seeds), and every matchup of the
/// ruleset fairness grid (casters, breath weapons, regeneration, legendary creatures…).
fn fights(ruleset: Ruleset) -> Vec<(String, Combat, u64)> {
    let mut fights: Vec<(String, Combat, u64)> = (0..6)
        .map(|seed| {
            (
                format!("goblins seed {seed}"),
                party_vs_goblins(4).with_ruleset(ruleset),
                seed,
            )
        })
        .collect();
    let content = engine::content::data::builtin();
    for (i, row) in engine::fairness::GRID.iter().enumerate() {
        let m = engine::fairness::matchup(*row, content, ruleset).expect("the grid's sides are valid");
        let all = m.party.into_iter().chain(m.foes).collect();
        let combat = Combat::new(all, Terrain::default()).with_ruleset(ruleset);
        fights.push((format!("{} vs {}", row.a, row.b), combat, i as u64));
    }
    fights
}

/// Checks one step's events: each told, narrated as told, its facts in the referee's line.
/// Returns the lines narrated; `told` gathers the keys they were told with.
fn check_step(
    r: &Renderer,
    combat: &Combat,
    events: &[Event],
    ctx: &RenderContext,
    at: &str,
    keys: &mut BTreeSet<Say>,
) -> usize {
    let narrated = r.narrate(combat, events, ctx);
    let mut lines = narrated.iter();
    let mut said_lines = 0;
    for (i, event) in events.iter().enumerate() {
        let told = tell(combat, event);
        let at = format!("{at} event {i}: {event:?}");
        assert_eq!(told.plain, engine::log::line(combat, event), "{at}");
        assert!(!told.plain.is_empty(), "{at}: no referee's line");
        if silent(events, i) {
            if !matches!(event, Event::Revived { .. }) {
                assert!(told.said.is_empty(), "{at}: narrated {:?}", told.said);
            }
            continue;
        }
        assert!(!told.said.is_empty(), "{at}: in the log, not narrated");
        let plain_numbers = numbers(&told.plain);
        for said in &told.said {
            let line = lines.next().unwrap_or_else(|| panic!("{at}: narration ended early"));
            said_lines += 1;
            keys.insert(said.say);
            let expected = expected(r, combat, said);
            assert!(expected.contains(line), "{at}: {line:?} is none of {expected:?}");
            for (slot, pieces) in said
                .slots
                .iter()
                .filter(|(slot, _)| !referee_leaves_out(said.say, slot))
            {
                for piece in pieces {
                    match piece {
                        Piece::Who(id) => {
                            let name = engine::log::name(combat, *id);
                            assert!(told.plain.contains(name), "{at}: {slot} {name} not in {:?}", told.plain);
                        }
                        Piece::Num(n) => {
                            for n in numbers(n) {
                                assert!(plain_numbers.contains(&n), "{at}: {slot} {n} not in {:?}", told.plain);
                            }
                        }
                        Piece::Text(_) | Piece::Word(_) => {}
                    }
                }
            }
            for n in said.check.as_deref().map(numbers).unwrap_or_default() {
                assert!(plain_numbers.contains(&n), "{at}: dice {n} not in {:?}", told.plain);
            }
        }
    }
    assert!(
        lines.next().is_none(),
        "{at}: the narration has more lines than the events told"
    );
    said_lines
}

#[test]
fn the_referee_log_and_the_narration_agree_event_by_event_in_every_ruleset() {
    let r = renderer();
    let (mut told_events, mut narrated_lines) = (0, 0);
    let mut keys = BTreeSet::new();
    for ruleset in Ruleset::ALL {
        for (name, mut combat, seed) in fights(ruleset) {
            let steps = drive(&mut combat, seed, 3_000, &r);
            assert!(combat.outcome.is_some(), "{ruleset:?} {name}: the fight did not end");
            // Each step is read against the fight as it ends: names and sheets do not change.
            for (version, step) in steps.iter().enumerate() {
                let ctx = RenderContext::new("c-42", version as u64 + 1, seed).unwrap();
                let at = format!("{ruleset:?} {name} step {version}");
                narrated_lines += check_step(&r, &combat, &step.events, &ctx, &at, &mut keys);
                told_events += step.events.len();
            }
        }
    }
    // Long fights: tens of thousands of events told, most of them narrated.
    assert!(told_events > 20_000, "{told_events} events");
    assert!(narrated_lines > 10_000, "{narrated_lines} lines");
    // Over half of the lines an event may pick (74 of 130 today): attacks, damage, movement,
    // reactions, spells, statuses, death saves, turns under every model.
    assert!(keys.len() >= 70, "{} keys told: {keys:?}", keys.len());
}
