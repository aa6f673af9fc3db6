//! Every payload the renderer builds validates against Discord's official `OpenAPI` spec (found
//! at test time where the fake Discord finds it, `fake_discord::spec_path` — never copied into
//! the repository; missing, every test here fails saying how to get it), and our limits match
//! the spec's.
//!
//! The validator is a small JSON-Schema subset, enough for message bodies: `$ref`, `type`,
//! `properties` (strict: a property the schema does not declare is an error), `required`,
//! string and array lengths, `minimum`/`maximum`, `enum`, `const`, `oneOf`, `anyOf`, `allOf`,
//! and `pattern` for snowflakes.

mod common;

use serde_json::Value;

use render::payload::limits;
use render::{CharacterSheet, Key, MessagePayload, RoomEntry};

fn spec() -> Value {
    let path = fake_discord::spec_path().unwrap_or_else(|missing| panic!("{missing}"));
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("Discord's OpenAPI spec at {}: {e}", path.display()));
    serde_json::from_str(&text).expect("the spec is JSON")
}

fn schema<'a>(spec: &'a Value, name: &str) -> &'a Value {
    &spec["components"]["schemas"][name]
}

fn resolve<'a>(spec: &'a Value, s: &'a Value) -> &'a Value {
    match s.get("$ref").and_then(Value::as_str) {
        Some(r) => schema(spec, r.trim_start_matches("#/components/schemas/")),
        None => s,
    }
}

fn is_snowflake(text: &str) -> bool {
    text == "0" || (!text.starts_with('0') && !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
}

fn type_ok(t: &str, v: &Value) -> bool {
    match t {
        "null" => v.is_null(),
        "string" => v.is_string(),
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        _ => false,
    }
}

/// Errors found validating `v` against `s` at `path`.
fn validate(spec: &Value, s: &Value, v: &Value, path: &str) -> Vec<String> {
    let s = resolve(spec, s);
    let mut errors = Vec::new();
    if let Some(t) = s.get("type") {
        let ok = match t {
            Value::String(t) => type_ok(t, v),
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).any(|t| type_ok(t, v)),
            _ => true,
        };
        if !ok {
            return vec![format!("{path}: {v} is not of type {t}")];
        }
    }
    if let Some(c) = s.get("const")
        && c != v
    {
        errors.push(format!("{path}: {v} is not {c}"));
    }
    if let Some(Value::Array(options)) = s.get("enum")
        && !options.contains(v)
    {
        errors.push(format!("{path}: {v} not in {options:?}"));
    }
    if let Some(Value::Array(all)) = s.get("allOf") {
        for sub in all {
            errors.extend(validate(spec, sub, v, path));
        }
    }
    for (key, exactly_one) in [("oneOf", true), ("anyOf", false)] {
        if let Some(Value::Array(options)) = s.get(key) {
            let passing = options.iter().filter(|o| validate(spec, o, v, path).is_empty()).count();
            if passing == 0 || (exactly_one && passing > 1) {
                errors.push(format!("{path}: {passing} of {key} match {v}"));
            }
        }
    }
    match v {
        Value::String(text) => {
            let n = text.chars().count() as u64;
            if let Some(max) = s.get("maxLength").and_then(Value::as_u64)
                && n > max
            {
                errors.push(format!("{path}: length {n} > {max}"));
            }
            if let Some(min) = s.get("minLength").and_then(Value::as_u64)
                && n < min
            {
                errors.push(format!("{path}: length {n} < {min}"));
            }
            if s.get("pattern").and_then(Value::as_str) == Some("^(0|[1-9][0-9]*)$") && !is_snowflake(text) {
                errors.push(format!("{path}: {text} is not a snowflake"));
            }
        }
        Value::Number(n) => {
            if let (Some(min), Some(x)) = (s.get("minimum").and_then(Value::as_f64), n.as_f64())
                && x < min
            {
                errors.push(format!("{path}: {x} < {min}"));
            }
            if let (Some(max), Some(x)) = (s.get("maximum").and_then(Value::as_f64), n.as_f64())
                && x > max
            {
                errors.push(format!("{path}: {x} > {max}"));
            }
        }
        Value::Array(items) => {
            let n = items.len() as u64;
            if let Some(max) = s.get("maxItems").and_then(Value::as_u64)
                && n > max
            {
                errors.push(format!("{path}: {n} items > {max}"));
            }
            if let Some(min) = s.get("minItems").and_then(Value::as_u64)
                && n < min
            {
                errors.push(format!("{path}: {n} items < {min}"));
            }
            if let Some(item_schema) = s.get("items") {
                for (i, item) in items.iter().enumerate() {
                    errors.extend(validate(spec, item_schema, item, &format!("{path}[{i}]")));
                }
            }
        }
        Value::Object(map) => {
            if let Some(Value::Object(props)) = s.get("properties") {
                for (k, val) in map {
                    match props.get(k) {
                        Some(p) => errors.extend(validate(spec, p, val, &format!("{path}.{k}"))),
                        None => errors.push(format!("{path}: property {k} is not in the schema")),
                    }
                }
            }
            if let Some(Value::Array(required)) = s.get("required") {
                for r in required.iter().filter_map(Value::as_str) {
                    if !map.contains_key(r) {
                        errors.push(format!("{path}: missing required {r}"));
                    }
                }
            }
        }
        _ => {}
    }
    errors
}

fn assert_valid(spec: &Value, payload: &MessagePayload, what: &str) {
    let json = serde_json::to_value(payload).unwrap();
    for body in ["MessageCreateRequest", "IncomingWebhookInteractionRequest"] {
        let errors = validate(spec, schema(spec, body), &json, body);
        assert!(errors.is_empty(), "{what} against {body}: {errors:#?}\n{json:#}");
    }
    // As the data of an interaction response (type 4).
    let response = serde_json::json!({ "type": 4, "data": json });
    let errors = validate(
        spec,
        schema(spec, "CreateMessageInteractionCallbackRequest"),
        &response,
        "callback",
    );
    assert!(errors.is_empty(), "{what} as an interaction response: {errors:#?}");
}

#[test]
fn our_limits_are_the_specs() {
    let spec = spec();
    let prop = |name: &str, p: &str, key: &str| schema(&spec, name)["properties"][p][key].as_u64().unwrap();
    assert_eq!(prop("RichEmbed", "title", "maxLength"), limits::TITLE as u64);
    assert_eq!(
        prop("RichEmbed", "description", "maxLength"),
        limits::DESCRIPTION as u64
    );
    assert_eq!(prop("RichEmbed", "fields", "maxItems"), limits::FIELDS as u64);
    assert_eq!(prop("RichEmbedField", "name", "maxLength"), limits::FIELD_NAME as u64);
    assert_eq!(prop("RichEmbedField", "value", "maxLength"), limits::FIELD_VALUE as u64);
    assert_eq!(prop("RichEmbedFooter", "text", "maxLength"), limits::FOOTER as u64);
    assert_eq!(
        prop("ButtonComponentForMessageRequest", "custom_id", "maxLength"),
        limits::CUSTOM_ID as u64
    );
    assert_eq!(
        prop("ButtonComponentForMessageRequest", "label", "maxLength"),
        limits::BUTTON_LABEL as u64
    );
    assert_eq!(
        prop("ActionRowComponentForMessageRequest", "components", "maxItems"),
        limits::BUTTONS_PER_ROW as u64
    );
    assert_eq!(
        prop("IncomingWebhookInteractionRequest", "content", "maxLength"),
        limits::CONTENT as u64
    );
    assert!(prop("MessageCreateRequest", "content", "maxLength") >= limits::CONTENT as u64);
    assert_eq!(
        prop("MessageCreateRequest", "embeds", "maxItems"),
        limits::EMBEDS as u64
    );
    for p in ["content", "embeds", "components", "allowed_mentions", "flags"] {
        assert!(
            schema(&spec, "MessageCreateRequest")["properties"].get(p).is_some(),
            "{p}"
        );
    }
}

#[test]
fn every_rendered_fight_payload_under_every_ruleset_matches_the_spec() {
    let spec = spec();
    let r = common::renderer();
    for ruleset in engine::Ruleset::ALL {
        for seed in 0..4 {
            let mut combat = common::party_vs_goblins(3).with_ruleset(ruleset);
            for (i, step) in common::drive(&mut combat, seed, 300, &r).iter().enumerate() {
                let what = format!("{ruleset:?} seed {seed} step {i}");
                for payload in step.rendered.messages() {
                    assert_valid(&spec, payload, &what);
                }
                // The running timeline is edited in place: a valid message edit too.
                if let Some(timeline) = &step.rendered.timeline {
                    let json = serde_json::to_value(timeline).unwrap();
                    let edit = "MessageEditRequestPartial";
                    let errors = validate(&spec, schema(&spec, edit), &json, edit);
                    assert!(errors.is_empty(), "{what} against {edit}: {errors:#?}");
                }
            }
        }
    }
}

#[test]
fn refusals_sheets_info_and_stories_match_the_spec() {
    let spec = spec();
    let r = common::renderer();
    let combat = common::party_vs_goblins(1);
    let violation = engine::RuleViolation::NotYourTurn {
        current: "Goblin 2".into(),
    };
    assert_valid(&spec, &render::refusal(&violation), "refusal");
    assert_valid(
        &spec,
        &render::character_sheet(&CharacterSheet::from_combatant(&combat.combatants[0])),
        "sheet",
    );
    assert_valid(
        &spec,
        &render::character_sheet(&CharacterSheet::default()),
        "empty sheet",
    );
    assert_valid(&spec, &render::info("Campaign", "Ruleset: gogobee").ephemeral(), "info");
    assert_valid(&spec, &r.hospital_admission("Wren", 20, 3), "admission");
    assert_valid(
        &spec,
        &r.room_entry(
            &RoomEntry {
                name: "Aria".into(),
                zone: engine::content::Zone::UNDERFORGE,
                room: 2,
                rooms: 5,
                difficult: true,
                monsters: vec!["Goblin 1".into()],
            },
            9,
        ),
        "room",
    );
    assert_valid(
        &spec,
        &r.story(Key::RestRemaining, &[("name", "Wren"), ("remaining", "1h 20m")], 1),
        "rest",
    );
}

#[test]
fn the_validator_catches_what_discord_would_refuse() {
    let spec = spec();
    let body = schema(&spec, "MessageCreateRequest");
    let button = |extra: Value| {
        let mut b = serde_json::json!({"type": 2, "style": 1, "label": "Parry", "custom_id": "rx:c:1:0:1"});
        b.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        serde_json::json!({"components": [{"type": 1, "components": [b]}]})
    };
    assert!(validate(&spec, body, &button(serde_json::json!({})), "ok").is_empty());
    for bad in [
        button(serde_json::json!({"custom_id": "x".repeat(101)})),
        button(serde_json::json!({"style": 9})),
        button(serde_json::json!({"colour": 1})),
        serde_json::json!({"embeds": [{"title": "t".repeat(257)}]}),
        serde_json::json!({"embeds": [{"fields": [{"name": "n"}]}]}),
        serde_json::json!({"allowed_mentions": {"parse": [], "users": ["alice"]}}),
        serde_json::json!({"components": [{"type": 1, "components": []}]}),
    ] {
        assert!(!validate(&spec, body, &bad, "bad").is_empty(), "{bad}");
    }
}
