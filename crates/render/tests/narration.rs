//! Narration that says what happened (seed 000): "1 turn", a readied action
//! set off by a spell announced as the spell, a Counterspell's INT roll shown when it lands, an
//! ally revived by a potion still prone.

mod common;

use common::renderer;
use engine::content::{Class, Monster, Race, Spell};
use engine::log::Say;
use engine::readied::Observed;
use engine::{Combat, Combatant, CombatantId, Controller, Event, Terrain};
use render::{Key, RenderContext};

/// Bo (fighter), Aria (mage) and a goblin; ids 0, 1, 2.
fn party() -> Combat {
    Combat::new(
        vec![
            Combatant::character("Bo", Race::HUMAN, Class::FIGHTER, 3, Controller::Player("bo".into())),
            Combatant::character("Aria", Race::ELF, Class::MAGE, 5, Controller::Player("aria".into())),
            Combatant::monster("Goblin", Monster::GOBLIN),
        ],
        Terrain::default(),
    )
}

/// `event` narrated under many seeds (every line of its key gets its turn).
fn lines(event: &Event) -> Vec<String> {
    let r = renderer();
    let combat = party();
    (0..24)
        .flat_map(|seed| {
            r.narrate(
                &combat,
                std::slice::from_ref(event),
                &RenderContext::new("c-1", 1, seed).unwrap(),
            )
        })
        .collect()
}

#[test]
fn stable_and_awake_again_in_1_turn_not_1_turns() {
    let one = lines(&Event::Stabilized {
        id: CombatantId(0),
        wakes_in: 1,
    });
    assert!(
        one.iter().all(|l| l.contains("1 turn") && !l.contains("1 turns")),
        "{one:?}"
    );
    let three = lines(&Event::Stabilized {
        id: CombatantId(0),
        wakes_in: 3,
    });
    assert!(three.iter().all(|l| l.contains("3 turns")), "{three:?}");
    let cooldown = lines(&Event::CooldownStarted {
        id: CombatantId(2),
        ability: "Nimble Escape".into(),
        turns: 1,
    });
    assert!(
        cooldown.iter().all(|l| l.contains("1 turn") && !l.contains("turn(s)")),
        "{cooldown:?}"
    );
}

#[test]
fn a_readied_action_set_off_by_a_spell_is_announced_as_the_spell() {
    let fired = lines(&Event::ReadiedActionTriggered {
        id: CombatantId(0),
        trigger_by: CombatantId(1),
        action: "attack".into(),
        observed: Some(Observed::CastsSpell {
            caster: CombatantId(1),
            spell: Spell::MAGIC_MISSILE,
        }),
    });
    assert!(
        fired
            .iter()
            .all(|l| l.contains("**Aria** casts Magic Missile") && !l.contains("moves")),
        "{fired:?}"
    );
    let moved = lines(&Event::ReadiedActionTriggered {
        id: CombatantId(1),
        trigger_by: CombatantId(2),
        action: "attack".into(),
        observed: Some(Observed::Moves { mover: CombatantId(2) }),
    });
    assert!(
        moved
            .iter()
            .all(|l| l.contains("**Goblin** moves") || l.contains("**Goblin** makes its move")),
        "{moved:?}"
    );
    let attacked = lines(&Event::ReadiedActionTriggered {
        id: CombatantId(1),
        trigger_by: CombatantId(2),
        action: "attack".into(),
        observed: Some(Observed::Attacks {
            attacker: CombatantId(2),
            target: CombatantId(0),
        }),
    });
    assert!(
        attacked.iter().all(|l| l.contains("**Goblin** attacks **Bo**")),
        "{attacked:?}"
    );
}

#[test]
fn a_successful_counterspell_shows_its_int_check_against_dc_10_plus_the_spell_level() {
    let countered = lines(&Event::SpellCountered {
        caster: CombatantId(2),
        spell: Spell::MAGIC_MISSILE,
        by: CombatantId(1),
        roll: 14,
        dc: 11,
    });
    assert!(countered.iter().all(|l| l.ends_with("`14 vs DC 11`")), "{countered:?}");
}

#[test]
fn an_ally_revived_by_a_potion_is_said_to_be_still_prone() {
    let r = renderer();
    let on_feet: Vec<String> = r
        .flavor()
        .raw_lines(Key::Say(Say::Revived))
        .iter()
        .map(|l| l.replace("{hp}", "7"))
        .collect();
    let prone = lines(&Event::Revived {
        id: CombatantId(0),
        hp: 7,
        prone: true,
    });
    for line in &prone {
        assert!(
            line.contains("7 HP") && !line.contains("on their feet") && !line.contains("rises"),
            "{line}"
        );
        assert!(
            !on_feet.iter().any(|l| line.contains(&l.replace("{name}", "**Bo**"))),
            "{line}"
        );
    }
    let standing = lines(&Event::Revived {
        id: CombatantId(0),
        hp: 1,
        prone: false,
    });
    assert!(standing.iter().any(|l| l.contains("on their feet")), "{standing:?}");
}
