//! Refusals, info, the character sheet, room entry and Thom Krooke's Hospital.

mod common;

use engine::RuleViolation;
use engine::content::Zone;
use render::payload::EPHEMERAL;
use render::{CharacterSheet, Key, RoomEntry};

#[test]
fn a_refusal_is_one_ephemeral_line_saying_what_to_do_instead() {
    let violation = RuleViolation::NotYourTurn {
        current: "Goblin 2".into(),
    };
    let payload = render::refusal(&violation);
    assert_eq!(payload.flags, Some(EPHEMERAL));
    assert_eq!(
        payload.content.as_deref(),
        Some("It's not your turn — Goblin 2 is acting.")
    );
    assert!(payload.embeds.is_empty() && payload.components.is_empty());
    let json = serde_json::to_value(&payload).unwrap();
    assert_eq!(json["flags"], 64);
    assert_eq!(json["allowed_mentions"]["parse"], serde_json::json!([]));
    let two_lines = render::refusal_text("First line.\nA debug trace nobody should see");
    assert_eq!(two_lines.content.as_deref(), Some("First line."));
}

#[test]
fn info_is_an_embed_and_only_ephemeral_when_asked() {
    let public = render::info("Campaign settings", "Ruleset: gogobee");
    assert_eq!(public.flags, None);
    assert_eq!(public.embeds[0].title.as_deref(), Some("Campaign settings"));
    assert!(public.ephemeral().is_ephemeral());
}

#[test]
fn the_character_sheet_shows_the_character() {
    let combat = common::party_vs_goblins(1);
    let mut sheet = CharacterSheet::from_combatant(&combat.combatants[0]);
    sheet.coins = 120;
    sheet.notes = vec!["Recovery rest: 1h 20m left".into()];
    let payload = render::character_sheet(&sheet);
    let embed = &payload.embeds[0];
    assert_eq!(embed.title.as_deref(), Some("Bo — level 5 Human Fighter"));
    let field = |name: &str| embed.fields.iter().find(|f| f.name == name).unwrap().value.clone();
    assert_eq!(field("HP"), "`██████████ 44/44`");
    assert_eq!(field("Coins"), "120");
    assert!(
        field("Inventory").contains("Potion of Healing ×1"),
        "{}",
        field("Inventory")
    );
    assert!(field("Status").contains("Recovery rest"));
    assert!(payload.limit_violations().is_empty());
}

#[test]
fn room_entry_flags_difficult_terrain_for_its_zone_unasked() {
    let r = common::renderer();
    for def in engine::content::data::builtin().zones.all() {
        let zone = Zone::named(&def.name).expect("a zone's id");
        let room = |difficult| RoomEntry {
            name: "Aria".into(),
            zone,
            room: 1,
            rooms: 4,
            difficult,
            monsters: vec![],
        };
        let flagged = r.room_entry(&room(true), 5);
        let text = flagged.embeds[0].description.clone().unwrap();
        let terrain = r
            .flavor()
            .raw_lines(Key::difficult_terrain(zone).expect("every built-in zone has its lines"));
        assert!(terrain.iter().any(|l| text.contains(l.as_str())), "{zone:?}: {text}");
        assert!(text.contains("Difficult terrain"), "{text}");
        let plain = r.room_entry(&room(false), 5);
        assert!(
            !plain.embeds[0]
                .description
                .clone()
                .unwrap()
                .contains("Difficult terrain")
        );
    }
}

#[test]
fn an_encounter_names_the_monsters() {
    let r = common::renderer();
    let payload = r.room_entry(
        &RoomEntry {
            name: "Aria".into(),
            zone: Zone::FOREST_OF_SHADOWS,
            room: 3,
            rooms: 6,
            difficult: false,
            monsters: vec!["Quickling".into(), "Troll".into()],
        },
        1,
    );
    let embed = &payload.embeds[0];
    assert_eq!(embed.title.as_deref(), Some("Forest of Shadows — room 3/6"));
    assert!(embed.description.as_deref().unwrap().contains("Quickling, Troll"));
}

#[test]
fn thom_krooke_admits_the_dead_in_his_own_embed() {
    let r = common::renderer();
    let seen: std::collections::BTreeSet<String> = (0..32)
        .map(|seed| {
            let payload = r.hospital_admission("Wren", 20, seed);
            let embed = &payload.embeds[0];
            assert_eq!(embed.footer.as_ref().unwrap().text, "Thom Krooke");
            assert_eq!(embed.color, Some(render::combat::colors::THOM));
            let text = embed.description.clone().unwrap();
            assert!(text.contains("\"Again,\" Thom says, not unkindly."), "{text}");
            assert!(text.contains("**Wren**") && text.contains("20"), "{text}");
            text
        })
        .collect();
    assert_eq!(seen.len(), r.flavor().variants(Key::HospitalAdmission));
}

#[test]
fn the_return_after_the_hospital_is_twinbees() {
    let r = common::renderer();
    let payload = r.story(Key::ExpeditionResume, &[("name", "Wren"), ("zone", "Underforge")], 4);
    assert_eq!(payload.embeds[0].footer.as_ref().unwrap().text, "TwinBee");
    assert!(payload.embeds[0].description.as_deref().unwrap().contains("**Wren**"));
}
