//! Each timing model's state in the status embed: the initiative order (GogoBee), the order by
//! REF → LUK with the Instant phase and Interrupts left (TDGS), the charge race with who acts
//! next and AP / cooldowns / statuses (CTB), the tick timeline in its own running message with
//! the batch's narration grouped by tick (ticks) — every payload within Discord's limits.

mod common;

use common::{drive, party_vs_goblins, renderer};
use engine::content::{Class, Monster, Race};
use engine::timing::ticks::{self, Activity, Phase};
use engine::{Actor, Band, Combat, Combatant, CombatantId, Command, Controller, Dice, Event, Ruleset, Terrain, apply};
use render::{EmbedField, MessagePayload, RenderContext};

fn ctx(version: u64) -> RenderContext {
    RenderContext::new("c-7", version, 7).unwrap()
}

fn field<'a>(payload: &'a MessagePayload, starts: &str) -> &'a EmbedField {
    payload.embeds[0]
        .fields
        .iter()
        .find(|f| f.name.starts_with(starts))
        .unwrap_or_else(|| panic!("no field {starts:?} in {payload:#?}"))
}

fn begin(mut combat: Combat, dice: &mut Dice) -> (Combat, Vec<Event>) {
    let now = chrono::DateTime::from_timestamp(0, 0).unwrap();
    let events = apply(&mut combat, Actor::Director, Command::Begin, dice, now).unwrap();
    (combat, events)
}

fn pc(name: &str, class: Class, level: u32) -> Combatant {
    Combatant::character(name, Race::HUMAN, class, level, Controller::Player(name.to_lowercase()))
}

/// Aria (fighter 1) against Goblin 1 and Goblin 2, under the tick model, not begun.
fn aria_and_two_goblins_on_ticks() -> Combat {
    Combat::new(
        vec![
            pc("Aria", Class::FIGHTER, 1),
            Combatant::monster("Goblin 1", Monster::GOBLIN),
            Combatant::monster("Goblin 2", Monster::GOBLIN),
        ],
        Terrain::default(),
    )
    .with_ruleset(Ruleset::Ticks)
}

#[test]
fn every_payload_of_many_fights_under_every_model_is_within_discord_limits() {
    let r = renderer();
    for ruleset in Ruleset::ALL {
        for seed in 0..12 {
            let mut combat = party_vs_goblins(3).with_ruleset(ruleset);
            let steps = drive(&mut combat, seed, 300, &r);
            for (i, step) in steps.iter().enumerate() {
                for payload in step.rendered.messages() {
                    let problems = payload.limit_violations();
                    assert!(problems.is_empty(), "{ruleset:?} seed {seed} step {i}: {problems:?}");
                }
                assert_eq!(
                    step.rendered.timeline.is_some(),
                    ruleset == Ruleset::Ticks,
                    "only the timeline runs in its own message"
                );
            }
        }
    }
}

#[test]
fn a_crowd_under_every_model_stays_within_the_limits() {
    let r = renderer();
    let long = "☠é".repeat(200);
    for ruleset in Ruleset::ALL {
        let mut all = vec![pc(&format!("{long} Bo"), Class::FIGHTER, 5)];
        all.extend((1..=40).map(|i| Combatant::monster(&format!("{long} Goblin {i}"), Monster::GOBLIN)));
        let mut combat = Combat::new(all, Terrain::default()).with_ruleset(ruleset);
        for step in drive(&mut combat, 3, 40, &r) {
            for payload in step.rendered.messages() {
                let problems = payload.limit_violations();
                assert!(problems.is_empty(), "{ruleset:?}: {problems:?}");
            }
        }
    }
}

#[test]
fn the_gogobee_embed_shows_the_initiative_order_with_the_one_acting_marked() {
    let r = renderer();
    let mut combat = party_vs_goblins(2);
    let steps = drive(&mut combat, 1, 1, &r);
    let order = field(&steps[0].rendered.narration, "Initiative — round 1");
    assert_eq!(order.value.lines().count(), 4);
    assert_eq!(order.value.matches('▶').count(), 1, "{}", order.value);
    let up = field(&steps[0].rendered.narration, "Up next");
    assert!(up.value.contains("action ✓ · bonus ✓ · reaction ✓"), "{}", up.value);
}

#[test]
fn the_charge_race_shows_each_meter_toward_100_and_who_acts_next() {
    // Seed 003: the Quickling (speed 14) acts first at tick 8 with 112; Aria (10) has 80 and acts
    // next, 2 ticks after the Quickling pays its 100.
    let gm_quickling =
        Combatant::monster("Quickling", Monster::QUICKLING).controlled_by(Controller::Player("gm".into()));
    let combat =
        Combat::new(vec![pc("Aria", Class::FIGHTER, 1), gm_quickling], Terrain::default()).with_ruleset(Ruleset::Ctb);
    let (combat, events) = begin(combat, &mut Dice::seeded(1));
    let r = renderer();
    let rendered = r.combat(&combat, &events, &ctx(1));
    assert!(rendered.timeline.is_none());
    let race = field(&rendered.narration, "Charge race — tick 8");
    assert!(
        race.value.contains("**Aria** `▰▰▰▰▰▰▰▰▱▱` 80/100 · speed 10"),
        "{}",
        race.value
    );
    assert!(
        race.value
            .contains("**Quickling** `▰▰▰▰▰▰▰▰▰▰` 112/100 · speed 14 · acting"),
        "{}",
        race.value
    );
    assert!(race.value.ends_with("Next: **Aria** in 2 ticks"), "{}", race.value);
}

#[test]
fn under_ctb_the_turn_shows_its_ap_and_cooldowns_and_the_hp_line_its_statuses() {
    let r = renderer();
    let aria = CombatantId(0);
    let mut combat = Combat::new(
        vec![pc("Aria", Class::FIGHTER, 1), Combatant::monster("Wolf", Monster::WOLF)],
        Terrain::default(),
    )
    .with_ruleset(Ruleset::Ctb);
    combat.get_mut(aria).ctb_mut().charge = 100;
    combat.get_mut(aria).statuses = vec![engine::content::statuses::burning()];
    let mut dice = Dice::seeded(1);
    let (mut combat, _) = begin(combat, &mut dice);
    let now = chrono::DateTime::from_timestamp(0, 0).unwrap();
    let second_wind = Command::Bonus(engine::BonusAction::SecondWind);
    let events = apply(&mut combat, Actor::Combatant(aria), second_wind, &mut dice, now).unwrap();
    let rendered = r.combat(&combat, &events, &ctx(2));
    let up = field(&rendered.narration, "Up next");
    assert!(
        up.value.contains("AP 4/5 · cooldowns: Second Wind 2 turns"),
        "{}",
        up.value
    );
    let party = field(&rendered.narration, "Party");
    assert!(party.value.contains("Burning (1 turn)"), "{}", party.value);
    let sheet = render::models::sheet_lines(&combat, aria);
    assert!(sheet[0].starts_with("**ctb** rules · AP 4/5"), "{sheet:?}");
    assert!(sheet.contains(&"Charge 100/100 · speed 10".to_owned()), "{sheet:?}");
    assert!(sheet.contains(&"Statuses: Burning (1 turn)".to_owned()), "{sheet:?}");
}

#[test]
fn the_tdgs_embed_shows_the_order_the_interrupts_left_and_the_coming_instant_phase() {
    let mut rogue = pc("Bo", Class::ROGUE, 1);
    rogue.abilities.dex = 18;
    let mut fighter = pc("Aria", Class::FIGHTER, 1);
    fighter.abilities.dex = 12;
    let combat = Combat::new(
        vec![fighter, rogue, Combatant::monster("Orc", Monster::ORC)],
        Terrain::default(),
    )
    .with_ruleset(Ruleset::Tdgs);
    let (mut combat, _) = begin(combat, &mut Dice::seeded(1));
    combat.get_mut(CombatantId(1)).tdgs_mut().declared = Some(engine::timing::tdgs::Instant::QuickDraw);
    let r = renderer();
    let rendered = r.combat(&combat, &[], &ctx(1));
    let order = field(&rendered.narration, "Order by REF → LUK — round 1");
    let lines: Vec<&str> = order.value.lines().collect();
    assert!(lines[0].starts_with("▶ **Bo** · REF 18"), "{}", order.value);
    assert!(
        order
            .value
            .contains("**Aria** · REF 12 · LUK 11 · Opportunity Attack 1/1 per round, Parry 1/1 per round"),
        "{}",
        order.value
    );
    assert_eq!(
        lines.last().copied(),
        Some("Instant phase, round 2: Quick Draw (REF 12) — **Bo**")
    );
    let up = field(&rendered.narration, "Up next");
    assert_eq!(
        up.value,
        "▶ **Bo** — action ✓ · step ✓ (30 ft) · free actions ✓ · no Interrupts\n\
         Orc: near — 25 ft to melee"
    );
}

#[test]
fn the_tick_timeline_runs_in_its_own_message_and_the_batch_is_one_narration_grouped_by_tick() {
    let r = renderer();
    let combat = aria_and_two_goblins_on_ticks();
    let mut dice = Dice::seeded(3);
    let (mut combat, _) = begin(combat, &mut dice);
    let now = chrono::DateTime::from_timestamp(0, 0).unwrap();
    let aria = CombatantId(0);
    assert_eq!((combat.model.tick, combat.model.timeline.awaiting), (0, Some(aria)));

    // Her Dodge runs from tick 0; the goblins close in; at tick 3 Goblin 1 winds up an attack
    // while she recovers, and the timeline stops for her choice: one command, four ticks.
    let events = apply(&mut combat, Actor::Combatant(aria), Command::Dodge, &mut dice, now).unwrap();
    assert!(combat.window.is_some());
    let rendered = r.combat(&combat, &events, &ctx(2));
    let narration = &rendered.narration.embeds[0];
    assert_eq!(narration.title.as_deref(), Some("Ticks 0–3 · round 1"));
    assert!(narration.fields.is_empty(), "the state is in the timeline message");
    let text = narration.description.as_deref().unwrap();
    let headers: Vec<&str> = text.lines().filter(|l| l.starts_with("**Tick ")).collect();
    assert_eq!(headers, ["**Tick 0**", "**Tick 1**", "**Tick 3**"], "{text}");
    assert!(rendered.reaction_prompt.is_some());

    // She lets it go; the timeline runs on until her next choice.
    let events = apply(&mut combat, Actor::Combatant(aria), Command::Pass, &mut dice, now).unwrap();
    assert_eq!(
        combat.model.timeline.awaiting,
        Some(aria),
        "her Dodge is over; she chooses again"
    );
    let rendered = r.combat(&combat, &events, &ctx(3));
    let timeline = rendered.timeline.as_ref().expect("the running timeline");
    assert_eq!(timeline.content, None, "an edit pings no one; the narration does");
    assert!(rendered.narration.content.as_deref().unwrap().contains("**aria**"));
    let field = field(timeline, &format!("Timeline — tick {}", combat.model.tick));
    for c in &combat.combatants {
        assert!(
            field.value.contains(&format!("**{}** ({})", c.name, c.initiative)),
            "{}",
            field.value
        );
    }
    assert!(
        field
            .value
            .ends_with("The timeline waits for **Aria** to choose an action.")
    );
    // Each goblin mid-action shows its action, phase, PER bar and ticks left.
    let busy: Vec<&ticks::Cycle> = combat
        .combatants
        .iter()
        .filter_map(|c| c.ticks().current.as_ref().filter(|cy| cy.activity != Activity::Wait))
        .collect();
    assert!(!busy.is_empty(), "{}", field.value);
    for cycle in busy {
        assert!(
            field.value.contains(&render::models::cycle_line(cycle)),
            "{}",
            field.value
        );
    }
}

#[test]
fn a_player_with_several_queued_reactions_gets_a_button_for_each_and_what_it_answers() {
    let mut c = aria_and_two_goblins_on_ticks();
    let (aria, winding, recovering) = (CombatantId(0), CombatantId(1), CombatantId(2));
    c.set_band(aria, winding, Band::Melee);
    c.set_band(aria, recovering, Band::Melee);
    c.started = true;
    c.round = 1;
    c.order = vec![winding, recovering, aria];
    let attack = Activity::Command(Command::Attack { target: Some(aria) });
    let in_phase = |phase: Phase, elapsed: u32| {
        let mut cycle = ticks::durations(&attack, &[], 10, 0);
        cycle.entered = Some(phase);
        cycle.elapsed = elapsed;
        cycle
    };
    c.combatants[1].ticks_mut().current = Some(in_phase(Phase::Prep, 1));
    c.combatants[2].ticks_mut().current = Some(in_phase(Phase::Recover, 5));
    c.model.timeline.reacting = true;
    c.model.timeline.observed = vec![
        ticks::Observation {
            observer: aria,
            actor: recovering,
            phase: Phase::Recover,
        },
        ticks::Observation {
            observer: aria,
            actor: winding,
            phase: Phase::Prep,
        },
    ];
    let mut dice = Dice::seeded(5);
    let mut engine_ctx = engine::resolve::Ctx {
        combat: &mut c,
        dice: &mut dice,
        now: chrono::DateTime::from_timestamp(0, 0).unwrap(),
        events: Vec::new(),
    };
    assert!(ticks::pump(&mut engine_ctx));
    let r = renderer();
    let prompt = r.reaction_prompt(&c, &ctx(3)).expect("a prompt");
    let labels: Vec<&str> = prompt.components[0]
        .components
        .iter()
        .map(|b| b.label.as_str())
        .collect();
    assert_eq!(labels, ["Break Their Windup", "Exploit the Opening", "Pass"]);
    let content = prompt.content.unwrap();
    assert!(
        content.contains("• **Break Their Windup** — **Goblin 1**'s Attack (prep)"),
        "{content}"
    );
    assert!(
        content.contains("• **Exploit the Opening** — **Goblin 2**'s Attack (recover)"),
        "{content}"
    );
}

#[test]
fn tdgs_order_shows_the_d2_flips_that_decided_it_and_says_no_dice_only_when_none_were_flipped() {
    let r = renderer();
    let tied = |dex: i32| {
        let mut c = pc("Twin", Class::FIGHTER, 1);
        c.abilities.dex = dex;
        c.abilities.cha = 10;
        c
    };
    // Two entities with the same REF and LUK: the order needs a coin.
    let combat = Combat::new(
        vec![tied(14), tied(14), Combatant::monster("Goblin", Monster::GOBLIN)],
        Terrain::default(),
    )
    .with_ruleset(Ruleset::Tdgs);
    let (combat, events) = begin(combat, &mut Dice::seeded(3));
    let fixed = events
        .iter()
        .find(|e| matches!(e, Event::InitiativeFixed { .. }))
        .expect("the order is fixed")
        .clone();
    let Event::InitiativeFixed { order } = &fixed else {
        unreachable!()
    };
    assert!(order.iter().any(|e| !e.flips.is_empty()), "the tie was flipped for");
    let line = r.narrate(&combat, std::slice::from_ref(&fixed), &ctx(1)).join("\n");
    assert!(line.contains("d2 "), "{line}");
    assert!(!line.contains("no dice about it"), "{line}");

    // No tie: no flips, and the line may say so.
    let combat = Combat::new(
        vec![tied(18), Combatant::monster("Goblin", Monster::GOBLIN)],
        Terrain::default(),
    )
    .with_ruleset(Ruleset::Tdgs);
    let (combat, events) = begin(combat, &mut Dice::seeded(3));
    let fixed: Vec<Event> = events
        .into_iter()
        .filter(|e| matches!(e, Event::InitiativeFixed { .. }))
        .collect();
    let line = r.narrate(&combat, &fixed, &ctx(1)).join("\n");
    assert!(!line.contains("d2 "), "{line}");
}
