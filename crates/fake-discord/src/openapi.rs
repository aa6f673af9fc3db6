//! Checks request bodies against Discord's official OpenAPI spec (3.1, so its schemas are JSON
//! Schema 2020-12). The spec is read where [`crate::spec_path`] finds it, never copied.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::{SpecMissing, StartError};

/// The outcome of checking one request body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BodyCheck {
    /// The request had no JSON body (GET, DELETE, an empty POST).
    NoBody,
    /// The body matches the operation's request schema.
    Valid {
        /// The spec's `operationId`.
        operation: String,
    },
    /// The body breaks the operation's request schema.
    Invalid {
        /// The spec's `operationId`, or `None` when no operation matches method + path.
        operation: Option<String>,
        /// One line per violation: where in the body, and what is wrong.
        errors: Vec<String>,
    },
}

impl BodyCheck {
    /// Whether this check found the body wrong.
    pub fn is_invalid(&self) -> bool {
        matches!(self, Self::Invalid { .. })
    }
}

struct Operation {
    id: String,
    /// The `requestBody` JSON schema's location in the spec, as a JSON pointer.
    schema_pointer: Option<String>,
}

/// The loaded spec, with validators compiled on first use and kept for the process.
pub(crate) struct Spec {
    document: Value,
    /// Path templates split into segments (`{x}` matches any one segment).
    templates: Vec<(Vec<String>, String)>,
    validators: Mutex<HashMap<String, Arc<Result<jsonschema::Validator, String>>>>,
}

/// The spec at `path`, loaded once per process: indexing 1 MB of JSON and compiling
/// validators once serves every test (those of the requests every bot makes are compiled here,
/// ≈ 0.4–0.6 s, rather than while the first of them waits). A spec that is not there, or not a
/// spec, is an error saying so.
pub(crate) fn spec(path: &Path) -> Result<Arc<Spec>, StartError> {
    static SPECS: Mutex<Vec<(PathBuf, Arc<Spec>)>> = Mutex::new(Vec::new());
    let mut specs = SPECS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, loaded)) = specs.iter().find(|(p, _)| p == path) {
        return Ok(Arc::clone(loaded));
    }
    if !path.is_file() {
        return Err(SpecMissing::at(path).into());
    }
    let loaded = Arc::new(Spec::load(path).map_err(|why| StartError::SpecUnreadable {
        path: path.to_owned(),
        why,
    })?);
    loaded.warm();
    specs.push((path.to_owned(), Arc::clone(&loaded)));
    Ok(loaded)
}

impl Spec {
    fn load(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        let document: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        let paths = document
            .get("paths")
            .and_then(Value::as_object)
            .ok_or("the spec has no `paths`")?;
        let templates = paths
            .keys()
            .map(|template| {
                (
                    template.split('/').skip(1).map(str::to_owned).collect(),
                    template.clone(),
                )
            })
            .collect();
        Ok(Self {
            document,
            templates,
            validators: Mutex::new(HashMap::new()),
        })
    }

    /// The path template matching `path` (relative to `/api/v10`): literal segments must be
    /// equal, `{param}` takes any one; the most literal match wins
    /// (`/messages/@original` over `/messages/{message_id}`).
    fn template_for(&self, path: &str) -> Option<&str> {
        let segments: Vec<&str> = path.trim_end_matches('/').split('/').skip(1).collect();
        self.templates
            .iter()
            .filter(|(parts, _)| {
                parts.len() == segments.len() && parts.iter().zip(&segments).all(|(p, s)| p.starts_with('{') || p == s)
            })
            .max_by_key(|(parts, _)| parts.iter().filter(|p| !p.starts_with('{')).count())
            .map(|(_, template)| template.as_str())
    }

    fn operation(&self, method: &str, path: &str) -> Option<Operation> {
        let template = self.template_for(path)?;
        let method = method.to_ascii_lowercase();
        let op = self.document["paths"][template].get(&method)?;
        let id = op
            .get("operationId")
            .and_then(Value::as_str)
            .unwrap_or(template)
            .to_owned();
        let schema_pointer = op.pointer("/requestBody/content/application~1json/schema").map(|_| {
            format!(
                "/paths/{}/{method}/requestBody/content/application~1json/schema",
                escape(template)
            )
        });
        Some(Operation { id, schema_pointer })
    }

    /// Checks a JSON body sent with `method` to `path` (relative to `/api/v10`).
    pub(crate) fn check(&self, method: &str, path: &str, body: &Value) -> BodyCheck {
        let Some(op) = self.operation(method, path) else {
            return BodyCheck::Invalid {
                operation: None,
                errors: vec![format!("no operation in the spec for {method} {path}")],
            };
        };
        let Some(pointer) = op.schema_pointer else {
            return BodyCheck::Invalid {
                operation: Some(op.id.clone()),
                errors: vec![format!("{} takes no JSON body, but one was sent", op.id)],
            };
        };
        // A union (the interaction callback is `anyOf` seven variants) is checked variant by
        // variant: valid if one accepts the body; otherwise the errors reported are those of
        // the variant whose `type` enum names the body's `type`, not a bare "no variant matched".
        let variants = self.union_variants(&pointer);
        let candidates = if variants.is_empty() { vec![pointer] } else { variants };
        let mut verdicts = Vec::new();
        for candidate in &candidates {
            match self.errors(candidate, body) {
                Err(why) => {
                    return BodyCheck::Invalid {
                        errors: vec![format!("the spec's schema for {} did not compile: {why}", op.id)],
                        operation: Some(op.id),
                    };
                }
                Ok(errors) if errors.is_empty() => return BodyCheck::Valid { operation: op.id },
                Ok(errors) => verdicts.push((candidate, errors)),
            }
        }
        let named = verdicts.iter().position(|(candidate, _)| {
            self.document
                .pointer(&format!("{candidate}/properties/type/enum"))
                .and_then(Value::as_array)
                .is_some_and(|kinds| kinds.contains(&body["type"]))
        });
        let errors = match named {
            Some(i) => verdicts.swap_remove(i).1,
            None => verdicts.into_iter().flat_map(|(_, errors)| errors).collect(),
        };
        BodyCheck::Invalid {
            operation: Some(op.id),
            errors,
        }
    }

    /// The `$ref` targets of a schema that is an `anyOf`/`oneOf` of references, as pointers.
    fn union_variants(&self, pointer: &str) -> Vec<String> {
        let Some(schema) = self.document.pointer(pointer) else {
            return Vec::new();
        };
        let Some(items) = schema
            .get("anyOf")
            .or_else(|| schema.get("oneOf"))
            .and_then(Value::as_array)
        else {
            return Vec::new();
        };
        let refs: Vec<String> = items
            .iter()
            .filter_map(|item| item.get("$ref").and_then(Value::as_str))
            .filter_map(|r| r.strip_prefix('#'))
            .map(str::to_owned)
            .collect();
        if refs.len() == items.len() { refs } else { Vec::new() }
    }

    /// The violations of the schema at `pointer`, one line each.
    fn errors(&self, pointer: &str, body: &Value) -> Result<Vec<String>, String> {
        let validator = self.validator(pointer);
        let validator = validator.as_ref().as_ref().map_err(Clone::clone)?;
        let mut lines = Vec::new();
        for error in validator.iter_errors(body) {
            describe(&error, &mut lines);
        }
        Ok(lines)
    }

    /// The compiled validator for the schema at `pointer`. Compiling happens outside the cache's
    /// lock (it takes tens of milliseconds), so a request whose validator is ready never waits
    /// for another one being compiled.
    fn validator(&self, pointer: &str) -> Arc<Result<jsonschema::Validator, String>> {
        if let Some(ready) = self.cached(pointer) {
            return ready;
        }
        // The whole spec is the root resource, so its `#/components/...` refs resolve; the
        // root `$ref` picks this operation's schema. OpenAPI's own keys are ignored as
        // unknown keywords.
        // (The operation's schema is copied under `$defs`: its spec path has `{}`, which a
        // URI fragment cannot hold.)
        let mut root = self.document.clone();
        let schema = self.document.pointer(pointer).cloned().unwrap_or(Value::Bool(true));
        root["$defs"] = serde_json::json!({ "fake_discord_operation": schema });
        root["$ref"] = Value::String("#/$defs/fake_discord_operation".into());
        root["$schema"] = Value::String("https://json-schema.org/draft/2020-12/schema".into());
        let compiled = Arc::new(
            jsonschema::options()
                .with_draft(jsonschema::Draft::Draft202012)
                .should_validate_formats(false)
                .build(&root)
                .map_err(|e| e.to_string()),
        );
        let mut cache = self.validators.lock().expect("validator cache poisoned");
        Arc::clone(cache.entry(pointer.to_owned()).or_insert(compiled))
    }

    fn cached(&self, pointer: &str) -> Option<Arc<Result<jsonschema::Validator, String>>> {
        let cache = self.validators.lock().expect("validator cache poisoned");
        cache.get(pointer).map(Arc::clone)
    }

    /// Compiles the validators of the requests a bot makes all the time (interaction callbacks,
    /// follow-ups, message posts and edits, command registration), so that the first of each
    /// is not held up while its schema compiles — which would show up as the bot's latency.
    fn warm(&self) {
        const COMMON: [(&str, &str); 8] = [
            ("POST", "/interactions/1/token/callback"),
            ("POST", "/webhooks/1/token"),
            ("PATCH", "/webhooks/1/token/messages/@original"),
            ("POST", "/channels/1/messages"),
            ("PATCH", "/channels/1/messages/1"),
            ("POST", "/users/@me/channels"),
            ("PUT", "/applications/1/commands"),
            ("PUT", "/applications/1/guilds/1/commands"),
        ];
        for (method, path) in COMMON {
            let Some(pointer) = self.operation(method, path).and_then(|op| op.schema_pointer) else {
                continue;
            };
            let variants = self.union_variants(&pointer);
            for candidate in if variants.is_empty() { vec![pointer] } else { variants } {
                self.validator(&candidate);
            }
        }
    }
}

/// Longest rendering of one violation: the messages quote the offending value whole.
const LINE_MAX: usize = 300;

/// Appends one line per real violation in `error`. A failed `anyOf`/`oneOf` is opened up: the
/// branches the value could not even be (wrong type, such as the `null` branch of a nullable
/// object) are set aside, and when one branch is left its violations are reported instead of
/// "not valid under any of the schemas".
fn describe(error: &jsonschema::ValidationError<'_>, lines: &mut Vec<String>) {
    use jsonschema::error::ValidationErrorKind;
    if is_integer_as_string(error) {
        return;
    }
    if let ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } = &error.kind {
        let plausible: Vec<&Vec<jsonschema::ValidationError<'static>>> = context
            .iter()
            .filter(|branch| {
                !branch.iter().all(|e| {
                    e.instance_path == error.instance_path && matches!(e.kind, ValidationErrorKind::Type { .. })
                })
            })
            .collect();
        if let [branch] = plausible[..] {
            let before = lines.len();
            for inner in branch {
                describe(inner, lines);
            }
            if lines.len() > before || branch.iter().all(is_integer_as_string) {
                return;
            }
        }
    }
    let mut line = format!("at `{}`: {error}", error.instance_path);
    if line.len() > LINE_MAX {
        let cut = (0..=LINE_MAX).rev().find(|i| line.is_char_boundary(*i)).unwrap_or(0);
        line.truncate(cut);
        line.push('…');
    }
    lines.push(line);
}

/// Discord takes 64-bit integers written as decimal strings (permissions, ids) where its spec
/// says `integer` — its own docs type `default_member_permissions` as a string, and serenity
/// sends it so. Such a "type" error is not an error.
fn is_integer_as_string(error: &jsonschema::ValidationError<'_>) -> bool {
    use jsonschema::JsonType;
    use jsonschema::error::{TypeKind, ValidationErrorKind};
    let ValidationErrorKind::Type { kind } = &error.kind else {
        return false;
    };
    let wants_integer = match kind {
        TypeKind::Single(single) => matches!(single, JsonType::Integer),
        TypeKind::Multiple(set) => set.contains(JsonType::Integer),
    };
    wants_integer
        && error
            .instance
            .as_str()
            .is_some_and(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
}

/// JSON-pointer escaping of one key (`/` becomes `~1`).
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loaded() -> Arc<Spec> {
        let path = crate::spec_path().unwrap_or_else(|missing| panic!("{missing}"));
        spec(&path).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn the_most_literal_template_wins() {
        let spec = loaded();
        assert_eq!(
            spec.template_for("/webhooks/1/tok/messages/@original"),
            Some("/webhooks/{webhook_id}/{webhook_token}/messages/@original")
        );
        assert_eq!(
            spec.template_for("/webhooks/1/tok/messages/99"),
            Some("/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
        );
        assert_eq!(spec.template_for("/users/@me/channels"), Some("/users/@me/channels"));
        assert_eq!(spec.template_for("/no/such/thing"), None);
    }

    #[test]
    fn an_overlong_callback_is_invalid_and_a_short_one_valid() {
        let spec = loaded();
        let path = "/interactions/1/token/callback";
        let ok = spec.check("POST", path, &serde_json::json!({"type": 4, "data": {"content": "hi"}}));
        assert!(matches!(ok, BodyCheck::Valid { .. }), "{ok:?}");
        let long = spec.check(
            "POST",
            path,
            &serde_json::json!({"type": 4, "data": {"content": "x".repeat(2001)}}),
        );
        assert!(long.is_invalid(), "{long:?}");
    }

    #[test]
    fn permissions_as_a_decimal_string_are_accepted_but_words_are_not() {
        let spec = loaded();
        let path = "/applications/1/guilds/2/commands";
        let command = |perms: &str| serde_json::json!([{"name": "gm", "description": "GM tools", "default_member_permissions": perms}]);
        assert!(matches!(
            spec.check("PUT", path, &command("32")),
            BodyCheck::Valid { .. }
        ));
        assert!(spec.check("PUT", path, &command("manage")).is_invalid());
    }
}
