//! The battlefield in words: the engagements, what closing to melee costs the acting combatant,
//! who would strike if it left, conditions and terrain — in every status embed and under "Up
//! next", read from the engine's state, within Discord's limits with 40 combatants.

mod common;

use std::collections::BTreeSet;

use common::{party_vs_goblins, renderer};
use engine::content::{Class, Monster, Race};
use engine::{Band, Combat, Combatant, CombatantId, Controller, Side, Terrain};
use proptest::prelude::*;
use render::battlefield::{BETWEEN, ENGAGED, FIELD_NAME};
use render::{EmbedField, MessagePayload, RenderContext};

fn ctx() -> RenderContext {
    RenderContext::new("c-7", 3, 7).unwrap()
}

fn field<'a>(payload: &'a MessagePayload, name: &str) -> Option<&'a EmbedField> {
    payload.embeds[0].fields.iter().find(|f| f.name == name)
}

/// `combat` begun by hand at `id`'s turn, round 1, everyone's turn resources fresh.
fn turn_of(combat: &mut Combat, id: CombatantId) {
    let mut order = vec![id];
    order.extend(combat.combatants.iter().map(|c| c.id).filter(|&c| c != id));
    combat.order = order;
    combat.turn = 0;
    combat.round = 1;
    combat.started = true;
    for c in &mut combat.combatants {
        c.resources = engine::TurnResources::fresh(c.speed());
    }
}

/// Bo (0) and Aria (1) against Goblins 1–4 (2–5) in the Sunken Temple (difficult terrain):
/// Aria in melee with Goblins 1 and 2, Bo with Goblin 3, Goblin 4 near, at Bo's turn.
fn skirmish() -> Combat {
    let mut c = party_vs_goblins(4);
    let (bo, aria) = (CombatantId(0), CombatantId(1));
    c.set_band(aria, CombatantId(2), Band::Melee);
    c.set_band(aria, CombatantId(3), Band::Melee);
    c.set_band(bo, CombatantId(4), Band::Melee);
    c.set_band(bo, CombatantId(5), Band::Far);
    turn_of(&mut c, bo);
    c
}

#[test]
fn the_status_names_every_engagement_and_the_difficult_terrain() {
    let c = skirmish();
    let status = renderer().status(&c, &ctx());
    let field = field(&status, FIELD_NAME).expect("a battlefield field");
    assert_eq!(
        field.value,
        "Bo ⚔ Goblin 3 · Aria ⚔ Goblin 1, Goblin 2\n\
         Difficult terrain (Sunken Temple): moving costs double, flyers excepted."
    );
    assert!(status.limit_violations().is_empty(), "{:?}", status.limit_violations());
}

#[test]
fn up_next_says_what_closing_costs_and_who_would_strike() {
    let c = skirmish();
    let status = renderer().status(&c, &ctx());
    let up = field(&status, "Up next").unwrap();
    let lines: Vec<&str> = up.value.lines().collect();
    assert_eq!(
        &lines[1..],
        [
            "In melee: Goblin 3 — leaving provokes Goblin 3",
            "Goblin 1, Goblin 2: near — 25 ft to melee, 50 ft in this terrain",
            "Goblin 4: far — 55 ft to melee, 110 ft in this terrain",
        ],
        "{}",
        up.value
    );
    // Disengaged, or the goblin's reaction spent: leaving provokes no one.
    let mut quiet = c.clone();
    quiet.get_mut(CombatantId(4)).resources.reaction_used = true;
    let up = renderer().status(&quiet, &ctx());
    assert!(
        field(&up, "Up next")
            .unwrap()
            .value
            .contains("In melee: Goblin 3 — leaving provokes no one"),
        "{:?}",
        field(&up, "Up next")
    );
}

#[test]
fn up_next_counts_feet_already_covered_and_standing_up() {
    let mut c = skirmish();
    let bo = CombatantId(0);
    c.get_mut(bo).conditions.prone = true;
    c.get_mut(bo).conditions.approach = Some(engine::combatant::Approach {
        target: CombatantId(2),
        from: Band::Near,
        feet: 20,
    });
    let status = renderer().status(&c, &ctx());
    let up = &field(&status, "Up next").unwrap().value;
    assert!(
        up.contains("Goblin 1: near — 25 ft to melee, 50 ft in this terrain, 20 ft covered, +15 ft to stand"),
        "{up}"
    );
    assert!(
        up.contains("Goblin 2: near — 25 ft to melee, 50 ft in this terrain, +15 ft to stand"),
        "{up}"
    );
}

#[test]
fn each_combatants_conditions_show_on_its_line() {
    let mut c = skirmish();
    let aria = CombatantId(1);
    c.get_mut(aria).conditions.hidden = Some(18);
    c.get_mut(aria).conditions.concentration = Some("Bless".into());
    let goblin = CombatantId(2);
    c.get_mut(goblin).conditions.restrained = true;
    c.get_mut(goblin).statuses.push(engine::timing::ctb::StatusEffect {
        name: "Dread".into(),
        kind: engine::timing::ctb::StatusKind::Stun,
        duration: 2,
        permanent: false,
        condition: Some(engine::content::Condition::Frightened),
        ends_on_save: None,
        concentration: None,
    });
    let status = renderer().status(&c, &ctx());
    let fields = &status.embeds[0].fields;
    let party = &fields.iter().find(|f| f.name == "Party").unwrap().value;
    let enemies = &fields.iter().find(|f| f.name == "Enemies").unwrap().value;
    assert!(party.contains("**Aria** `"), "{party}");
    assert!(party.contains("· hidden, concentrating on Bless"), "{party}");
    assert!(
        enemies.contains("· restrained, frightened, Dread (2 turns, stunned)"),
        "{enemies}"
    );
}

#[test]
fn no_one_in_melee_is_said_and_a_fight_over_shows_no_battlefield() {
    let mut c = party_vs_goblins(2);
    c.terrain.difficult = false;
    turn_of(&mut c, CombatantId(0));
    let status = renderer().status(&c, &ctx());
    assert_eq!(field(&status, FIELD_NAME).unwrap().value, "No one is in melee.");
    c.outcome = Some(engine::Outcome::Victory);
    let status = renderer().status(&c, &ctx());
    assert!(field(&status, FIELD_NAME).is_none());
}

/// Ten party members against thirty goblins, everyone with a condition and a status, each
/// party member in melee with three goblins.
fn forty() -> Combat {
    let mut all: Vec<Combatant> = (1..=10)
        .map(|i| {
            Combatant::character(
                &format!("Adventurer {i}"),
                Race::HUMAN,
                Class::FIGHTER,
                5,
                Controller::Player(format!("player{i}")),
            )
        })
        .collect();
    all.extend((1..=30).map(|i| Combatant::monster(&format!("Goblin Skirmisher of the Deep {i}"), Monster::GOBLIN)));
    let mut c = Combat::new(
        all,
        Terrain {
            zone: Some(engine::content::Zone::SUNKEN_TEMPLE),
            difficult: true,
            ..Terrain::default()
        },
    );
    for p in 0..10u32 {
        for g in 0..3u32 {
            c.set_band(CombatantId(p), CombatantId(10 + p * 3 + g), Band::Melee);
        }
    }
    for x in &mut c.combatants {
        x.conditions.prone = true;
        x.conditions.concentration = Some("Bless".into());
    }
    turn_of(&mut c, CombatantId(0));
    c
}

#[test]
fn forty_combatants_stay_within_discords_limits_cut_with_and_n_more() {
    let c = forty();
    let r = renderer();
    let status = r.status(&c, &ctx());
    assert!(status.limit_violations().is_empty(), "{:?}", status.limit_violations());
    // Nothing is dropped to fit: the battlefield and "Up next" are there.
    assert!(field(&status, "Up next").is_some_and(|f| f.value.contains("In melee: Goblin Skirmisher of the Deep 1")));
    let battlefield = &field(&status, FIELD_NAME).unwrap().value;
    assert!(battlefield.contains("… and "), "{battlefield}");
    assert!(battlefield.starts_with("Adventurer 1 ⚔ Goblin Skirmisher of the Deep 1, Goblin Skirmisher of the Deep 2, Goblin Skirmisher of the Deep 3 · "));
    // A narration with it stays within the limits too.
    let events = vec![engine::Event::RoundStarted { round: 1 }; 200];
    let rendered = r.combat(&c, &events, &ctx());
    for m in rendered.messages() {
        assert!(m.limit_violations().is_empty(), "{:?}", m.limit_violations());
    }
}

/// The engagement pairs (party member, opponent) the field's line names.
fn pairs_in_text(combat: &Combat, line: &str) -> BTreeSet<(CombatantId, CombatantId)> {
    let id = |name: &str| {
        combat
            .by_name(name)
            .unwrap_or_else(|_| panic!("{name:?} in {line:?}"))
            .id
    };
    let mut pairs = BTreeSet::new();
    for engagement in line.split(BETWEEN) {
        let (who, foes) = engagement
            .split_once(ENGAGED)
            .unwrap_or_else(|| panic!("{engagement:?}"));
        for foe in foes.split(", ") {
            pairs.insert((id(who), id(foe)));
        }
    }
    pairs
}

/// The engine's engagements: every living party member and living opponent a band of Melee apart.
fn pairs_in_engine(combat: &Combat) -> BTreeSet<(CombatantId, CombatantId)> {
    let mut pairs = BTreeSet::new();
    for a in combat
        .combatants
        .iter()
        .filter(|c| c.side == Side::Party && !c.is_dead())
    {
        for b in combat.combatants.iter().filter(|c| c.side != a.side && !c.is_dead()) {
            if combat.band(a.id, b.id) == Band::Melee {
                pairs.insert((a.id, b.id));
            }
        }
    }
    pairs
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// The text's engagements are the engine's bands: the same pairs, no more, no fewer.
    #[test]
    fn the_texts_engagements_are_the_engines_bands(
        party in 1usize..5,
        foes in 1usize..9,
        bands in proptest::collection::vec(0u8..3, 32),
        dead in proptest::collection::vec(any::<bool>(), 12),
        actor in 0usize..12,
    ) {
        let mut all: Vec<Combatant> = (0..party)
            .map(|i| Combatant::character(&format!("Hero {i}"), Race::ELF, Class::ROGUE, 3, Controller::Player(format!("p{i}"))))
            .collect();
        all.extend((0..foes).map(|i| Combatant::monster(&format!("Orc {i}"), Monster::ORC)));
        let mut c = Combat::new(all, Terrain::default());
        for (k, entry) in c.bands.iter_mut().enumerate() {
            entry.band = [Band::Melee, Band::Near, Band::Far][usize::from(bands[k % bands.len()])];
        }
        let n = c.combatants.len();
        for (i, x) in c.combatants.iter_mut().enumerate() {
            if dead[i % dead.len()] && i % 3 == 0 {
                x.hp = 0;
                x.death.failures = 3;
            }
        }
        turn_of(&mut c, CombatantId((actor % n) as u32));
        let status = renderer().status(&c, &ctx());
        prop_assert!(status.limit_violations().is_empty());
        let value = &field(&status, FIELD_NAME).unwrap().value;
        let line = value.lines().next().unwrap();
        let shown = if line == "No one is in melee." { BTreeSet::new() } else { pairs_in_text(&c, line) };
        prop_assert_eq!(shown, pairs_in_engine(&c), "{}", value);
    }
}
