//! A command's attached file (`/homebrew import file:`), checked before a byte of it is
//! fetched: the command's permission first (a member without Manage Server makes the bot
//! download nothing), then the size and content type Discord declares for it; only then is it
//! downloaded, streamed, stopping past [`MAX_BYTES`] or [`TIME_LIMIT`]. The download runs
//! inside the command's work, which the outbox defers when it is not done in
//! `send::DEFER_AFTER`, so a slow download is acknowledged in time.

use std::time::Duration;

/// The most a file may hold: one homebrew file's limit (the loader's).
pub const MAX_BYTES: usize = engine::content::data::MAX_HOMEBREW_BYTES;
/// The longest a download may take.
pub const TIME_LIMIT: Duration = Duration::from_secs(10);

/// An attachment option as the command carries it, not yet downloaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    /// The option it was given as.
    pub option: String,
    pub filename: String,
    pub url: String,
    /// What Discord declares: its size in bytes and its content type, if any.
    pub size: u64,
    pub content_type: Option<String>,
}

impl File {
    /// What Discord declares, checked before downloading: at most [`MAX_BYTES`], and text
    /// (a `text/*` type, TOML, or none or a generic one, which Discord gives files it does not
    /// know). A refusal says why.
    pub fn check(&self) -> Result<(), String> {
        if self.size > MAX_BYTES as u64 {
            return Err(format!(
                "{} is {} KB; a homebrew file is at most {} KB — split it into several imports.",
                self.filename,
                self.size.div_ceil(1024),
                MAX_BYTES / 1024
            ));
        }
        let kind = self
            .content_type
            .as_deref()
            .map(|t| t.split(';').next().unwrap_or_default().trim().to_ascii_lowercase());
        let text = match kind.as_deref() {
            None | Some("" | "application/toml" | "application/x-toml" | "application/octet-stream") => true,
            Some(kind) => kind.starts_with("text/"),
        };
        if text {
            Ok(())
        } else {
            Err(format!(
                "{} is {}; a homebrew file is TOML text (docs/homebrew.md).",
                self.filename,
                kind.unwrap_or_default()
            ))
        }
    }

    /// Downloads the file, streamed: refused once it passes [`MAX_BYTES`] (whatever was
    /// declared) or takes longer than `limit`. Its text, invalid UTF-8 replaced.
    pub async fn fetch(&self, client: &reqwest::Client, limit: Duration) -> Result<String, String> {
        let cannot = |why: String| format!("Could not fetch {}: {why}. Try attaching it again.", self.filename);
        let download = async {
            let mut response = client
                .get(&self.url)
                .send()
                .await
                .and_then(reqwest::Response::error_for_status)
                .map_err(|e| cannot(e.without_url().to_string()))?;
            let mut bytes = Vec::new();
            while let Some(chunk) = response
                .chunk()
                .await
                .map_err(|e| cannot(e.without_url().to_string()))?
            {
                if bytes.len() + chunk.len() > MAX_BYTES {
                    return Err(format!(
                        "{} is larger than {} KB, a homebrew file's most — split it into several imports.",
                        self.filename,
                        MAX_BYTES / 1024
                    ));
                }
                bytes.extend_from_slice(&chunk);
            }
            Ok(String::from_utf8_lossy(&bytes).into_owned())
        };
        tokio::time::timeout(limit, download)
            .await
            .unwrap_or_else(|_| Err(cannot(format!("it took longer than {} s", limit.as_secs()))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(size: u64, content_type: Option<&str>) -> File {
        File {
            option: "file".into(),
            filename: "raiders.toml".into(),
            url: "http://127.0.0.1:9/raiders.toml".into(),
            size,
            content_type: content_type.map(str::to_owned),
        }
    }

    #[test]
    fn a_file_is_checked_by_its_declared_size_and_type_before_it_is_fetched() {
        for ok in [
            None,
            Some("text/plain; charset=utf-8"),
            Some("application/toml"),
            Some("application/octet-stream"),
        ] {
            assert_eq!(file(1_000, ok).check(), Ok(()), "{ok:?}");
        }
        assert_eq!(file(MAX_BYTES as u64, None).check(), Ok(()));
        let big = file(MAX_BYTES as u64 + 1, None).check().unwrap_err();
        assert!(big.contains("257 KB") && big.contains("at most 256 KB"), "{big}");
        let image = file(1_000, Some("image/png")).check().unwrap_err();
        assert!(image.contains("is image/png"), "{image}");
    }
}
