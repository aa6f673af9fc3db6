//! Logs: `tracing` to stderr, filtered by `RUST_LOG`, as JSON lines when `LOG_FORMAT=json`.
//!
//! No secret is ever written: every line passes through [`Redacting`], which replaces the bot
//! token (`DISCORD_TOKEN`) and the database password (from `DATABASE_URL`) with `[redacted]`
//! wherever they appear — whatever crate logged them, at whatever level (a dependency's TRACE
//! output of an HTTP request would otherwise carry the `Authorization` header).

use std::io::Write;
use std::sync::{Arc, OnceLock};

use tracing_subscriber::fmt::MakeWriter;

/// What replaces a secret.
const REDACTED: &str = "[redacted]";

/// Secrets shorter than this are not looked for (they would match ordinary words).
const SHORTEST_SECRET: usize = 6;

/// The secrets of this process, read once from the environment (after `.env` is loaded).
fn secrets() -> &'static [String] {
    static SECRETS: OnceLock<Vec<String>> = OnceLock::new();
    SECRETS.get_or_init(|| {
        let mut found = Vec::new();
        if let Ok(token) = std::env::var("DISCORD_TOKEN") {
            let token = token.trim();
            found.push(token.strip_prefix("Bot ").unwrap_or(token).to_owned());
        }
        if let Ok(url) = std::env::var("DATABASE_URL")
            && let Some(password) = url_password(&url)
        {
            found.push(password.to_owned());
        }
        found.retain(|s| s.len() >= SHORTEST_SECRET);
        found
    })
}

/// The password in `scheme://user:password@host/…`, if there is one.
fn url_password(url: &str) -> Option<&str> {
    let (_, rest) = url.split_once("://")?;
    let authority = &rest[..rest.find(['/', '?']).unwrap_or(rest.len())];
    let (credentials, _) = authority.rsplit_once('@')?;
    credentials.split_once(':').map(|(_, password)| password)
}

/// `text` with every secret in `secrets` replaced.
fn redact_with(text: &str, secrets: &[String]) -> String {
    secrets
        .iter()
        .fold(text.to_owned(), |text, secret| text.replace(secret.as_str(), REDACTED))
}

/// `text` with this process's secrets replaced, for what is printed outside `tracing`.
pub fn redacted(text: &str) -> String {
    redact_with(text, secrets())
}

/// Sets up the global subscriber.
pub fn init() {
    let writer = Redacting {
        secrets: Arc::from(secrets()),
    };
    let logs = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(writer);
    if std::env::var("LOG_FORMAT").is_ok_and(|f| f.eq_ignore_ascii_case("json")) {
        logs.json().init();
    } else {
        logs.init();
    }
}

/// A stderr writer that redacts secrets. The formatter writes each event into one writer and
/// drops it, so a whole line is redacted at once (a secret never straddles two writes).
#[derive(Clone)]
struct Redacting {
    secrets: Arc<[String]>,
}

impl<'a> MakeWriter<'a> for Redacting {
    type Writer = Line;

    fn make_writer(&'a self) -> Self::Writer {
        Line {
            buffer: Vec::with_capacity(256),
            secrets: Arc::clone(&self.secrets),
        }
    }
}

/// One log line on its way to stderr.
struct Line {
    buffer: Vec<u8>,
    secrets: Arc<[String]>,
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
        let line = if self.secrets.iter().any(|s| text.contains(s.as_str())) {
            redact_with(&text, &self.secrets)
        } else {
            text.into_owned()
        };
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
        let writer = Redacting {
            secrets: Arc::from(secrets),
        };
        // The formatter may write a line in pieces: it is redacted whole.
        let mut out = writer.make_writer();
        write!(out, "token=MTIz.").unwrap();
        write!(out, "token.value").unwrap();
        let whole = String::from_utf8_lossy(&out.buffer).into_owned();
        assert_eq!(redact_with(&whole, &out.secrets), "token=[redacted]");
        out.buffer.clear();
    }

    #[test]
    fn the_password_is_found_in_a_database_url() {
        assert_eq!(url_password("postgres://gogobee:pw@db:5432/gogobee"), Some("pw"));
        assert_eq!(url_password("postgres://gogobee@db/gogobee"), None);
        assert_eq!(url_password("sqlite:///data/gogobee.db?mode=rwc"), None);
        assert_eq!(url_password("postgres://u:p@ss@db/x"), Some("p@ss"));
    }
}
