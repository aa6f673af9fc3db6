//! Logs: `tracing` to stderr, filtered by `RUST_LOG`, as JSON lines when `LOG_FORMAT=json`.
//!
//! With `RUST_LOG` unset the bot logs at `info` (so "ready" and errors show in `fly logs`); the
//! other modes (the terminal table, replay, backup…) at `warn`, so the migrations' lines do not
//! bury a player's greeting.
//!
//! No secret is ever written: every line passes through [`Redacting`], which replaces the bot
//! token (`DISCORD_TOKEN`), the database password (from `DATABASE_URL`, as `user:password@` or
//! `?password=`, and from any URL given with `--db`, see [`add_database_url`]) and interaction
//! tokens (the path segment after `/interactions/<id>/` or `/webhooks/<id>/`, and a JSON
//! `"token"` value) with `[redacted]` wherever they appear — whatever crate logged them, at
//! whatever level (serenity's DEBUG output of a request carries the interaction's token).

use std::io::Write;
use std::sync::{OnceLock, RwLock};

use tracing_subscriber::fmt::MakeWriter;

/// What replaces a secret.
const REDACTED: &str = "[redacted]";

/// Secrets shorter than this are not looked for (they would match ordinary words).
const SHORTEST_SECRET: usize = 6;

/// The secrets of this process: read from the environment at the first call (after `.env` is
/// loaded), plus those added since ([`add_database_url`]).
fn secrets() -> Vec<String> {
    secret_store()
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone()
}

fn secret_store() -> &'static RwLock<Vec<String>> {
    static SECRETS: OnceLock<RwLock<Vec<String>>> = OnceLock::new();
    SECRETS.get_or_init(|| {
        let mut found = Vec::new();
        if let Ok(token) = std::env::var("DISCORD_TOKEN") {
            let token = token.trim();
            found.push(token.strip_prefix("Bot ").unwrap_or(token).to_owned());
        }
        if let Ok(url) = std::env::var("DATABASE_URL") {
            found.extend(url_passwords(&url));
        }
        found.retain(|s| s.len() >= SHORTEST_SECRET);
        RwLock::new(found)
    })
}

/// Keeps the password of a database URL given on the command line (`play --db`, `bench --db`)
/// out of every line written from now on.
pub fn add_database_url(url: &str) {
    let found = url_passwords(url);
    let mut secrets = secret_store()
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    for password in found {
        if password.len() >= SHORTEST_SECRET && !secrets.contains(&password) {
            secrets.push(password);
        }
    }
}

/// The passwords in a database URL, as written and percent-decoded: `scheme://user:password@host/…`
/// and a `password=` query parameter, parsed by the `url` crate. A URL too mangled to parse
/// with a password in it (`postgres//user:pw@host`, `postgres:user:pw@host`) still gives what
/// stands between the last `:` and the last `@`.
pub fn url_passwords(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    match url::Url::parse(text) {
        Ok(url) if url.has_host() => {
            if let Some(password) = url.password() {
                found.push(password.to_owned());
            }
            found.extend(
                url.query_pairs()
                    .filter(|(key, _)| key == "password")
                    .map(|(_, value)| value.into_owned()),
            );
        }
        _ => {
            if let Some((credentials, _)) = text.rsplit_once('@')
                && let Some((_, password)) = credentials.rsplit_once(':')
            {
                found.push(password.to_owned());
            }
        }
    }
    let decoded: Vec<String> = found
        .iter()
        .filter_map(|p| percent_decoded(p))
        .filter(|d| !found.contains(d))
        .collect();
    found.extend(decoded);
    found.retain(|p| !p.is_empty());
    found
}

/// `text` with its `%XX` escapes decoded, if it has any and they make UTF-8.
fn percent_decoded(text: &str) -> Option<String> {
    if !text.contains('%') {
        return None;
    }
    let parsed = url::Url::parse(&format!("x://h/?p={text}")).ok()?;
    parsed.query_pairs().next().map(|(_, v)| v.into_owned())
}

/// `text` with interaction tokens replaced: the segment after `/interactions/<id>/` and
/// `/webhooks/<id>/`, and the value of a `token` field (JSON or `Debug`).
fn redact_tokens(text: &str) -> String {
    let mut out = text.to_owned();
    for marker in ["/interactions/", "/webhooks/"] {
        let mut from = 0;
        while let Some(found) = out[from..].find(marker) {
            let id_start = from + found + marker.len();
            let id_len = out[id_start..].bytes().take_while(u8::is_ascii_digit).count();
            let token_start = id_start + id_len + 1;
            from = id_start;
            if id_len == 0 || out.as_bytes().get(id_start + id_len) != Some(&b'/') {
                continue;
            }
            let token_len = out[token_start..]
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
                .count();
            if token_len >= SHORTEST_SECRET && &out[token_start..token_start + token_len] != REDACTED {
                out.replace_range(token_start..token_start + token_len, REDACTED);
            }
            from = token_start;
        }
    }
    // JSON (`"token":"…"`, also escaped inside a string) and Rust's `Debug` (`token: "…"`, as
    // serenity's request spans print a route).
    for marker in ["\"token\":\"", "\\\"token\\\":\\\"", "token: \""] {
        let mut from = 0;
        while let Some(found) = out[from..].find(marker) {
            let start = from + found + marker.len();
            let len = out[start..].bytes().take_while(|b| *b != b'"' && *b != b'\\').count();
            if len >= SHORTEST_SECRET {
                out.replace_range(start..start + len, REDACTED);
            }
            from = start;
        }
    }
    out
}

/// `text` with every secret in `secrets`, and every interaction token, replaced.
fn redact_with(text: &str, secrets: &[String]) -> String {
    let text = secrets
        .iter()
        .fold(text.to_owned(), |text, secret| text.replace(secret.as_str(), REDACTED));
    if text.contains("/interactions/") || text.contains("/webhooks/") || text.contains("token") {
        redact_tokens(&text)
    } else {
        text
    }
}

/// `text` with this process's secrets replaced, for what is printed outside `tracing`.
pub fn redacted(text: &str) -> String {
    redact_with(text, &secrets())
}

/// Sets up the global subscriber: `RUST_LOG`'s filter, else `default` (a level such as `info`).
/// Whether output to a stream is coloured: only to a terminal, and never when `NO_COLOR` is
/// set to anything but the empty string (no-color.org).
pub fn colours(to_terminal: bool) -> bool {
    to_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

pub fn init(default: &str) {
    let writer = Redacting;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(colours(std::io::IsTerminal::is_terminal(&std::io::stderr())));
    if std::env::var("LOG_FORMAT").is_ok_and(|f| f.eq_ignore_ascii_case("json")) {
        logs.json().init();
    } else {
        logs.init();
    }
}

/// A stderr writer that redacts secrets. The formatter writes each event into one writer and
/// drops it, so a whole line is redacted at once (a secret never straddles two writes).
#[derive(Clone)]
struct Redacting;

impl<'a> MakeWriter<'a> for Redacting {
    type Writer = Line;

    fn make_writer(&'a self) -> Self::Writer {
        Line {
            buffer: Vec::with_capacity(256),
        }
    }
}

/// One log line on its way to stderr.
struct Line {
    buffer: Vec<u8>,
}

impl Write for Line {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.buffer.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for Line {
    fn drop(&mut self) {
        if self.buffer.is_empty() {
            return;
        }
        let text = String::from_utf8_lossy(&self.buffer);
        let line = redact_with(&text, &secrets());
        let _ = std::io::stderr().lock().write_all(line.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_replaced_wherever_they_appear() {
        let secrets = vec!["MTIz.token.value".to_owned(), "s3cr3tpw".to_owned()];
        let line = r#"{"authorization":"Bot MTIz.token.value","url":"postgres://u:s3cr3tpw@db/x"}"#;
        assert_eq!(
            redact_with(line, &secrets),
            r#"{"authorization":"Bot [redacted]","url":"postgres://u:[redacted]@db/x"}"#
        );
        // The formatter may write a line in pieces: it is redacted whole.
        let mut out = Redacting.make_writer();
        write!(out, "token=MTIz.").unwrap();
        write!(out, "token.value").unwrap();
        let whole = String::from_utf8_lossy(&out.buffer).into_owned();
        assert_eq!(redact_with(&whole, &secrets), "token=[redacted]");
        out.buffer.clear();
    }

    #[test]
    fn the_password_is_found_in_a_database_url() {
        let found = |url: &str| url_passwords(url);
        assert_eq!(found("postgres://gogobee:pw@db:5432/gogobee"), ["pw"]);
        assert!(found("postgres://gogobee@db/gogobee").is_empty());
        assert!(found("sqlite:///data/gogobee.db?mode=rwc").is_empty());
        assert!(found("postgres://u:p@ss@db/x").contains(&"p@ss".to_owned()));
        assert_eq!(
            found("postgres://gogobee@db/gogobee?sslmode=require&password=canary-pw-1"),
            ["canary-pw-1"]
        );
        assert!(found("postgres://db/x?password=").is_empty());
        // A typo without `://` still gives its password up to be hidden.
        assert_eq!(found("postgres//gogobee:canary-pw-2@db/x"), ["canary-pw-2"]);
        assert_eq!(found("postgres:gogobee:canary-pw-3@db/x"), ["canary-pw-3"]);
    }

    #[test]
    fn interaction_tokens_are_replaced_in_urls_and_json() {
        let token = "aW50ZXJhY3Rpb246MTIz-abc_DEF.ghi";
        let line = format!(
            "POST http://x/api/v10/interactions/123/{token}/callback; PATCH /api/v10/webhooks/77/{token}/messages/@original; {{\"token\":\"{token}\",\"id\":\"1\"}}"
        );
        let redacted = redact_with(&line, &[]);
        assert!(!redacted.contains(token), "{redacted}");
        assert_eq!(redacted.matches(REDACTED).count(), 3, "{redacted}");
        assert!(redacted.contains("/interactions/123/[redacted]/callback"), "{redacted}");
        assert!(
            redacted.contains("/webhooks/77/[redacted]/messages/@original"),
            "{redacted}"
        );
        let debug = format!("route: InteractionResponse {{ interaction_id: InteractionId(1), token: \"{token}\" }}");
        assert_eq!(
            redact_with(&debug, &[]),
            "route: InteractionResponse { interaction_id: InteractionId(1), token: \"[redacted]\" }"
        );
        // Ordinary text is left alone.
        assert_eq!(redact_with("the token bucket is full", &[]), "the token bucket is full");
    }
}
