//! Where Discord's OpenAPI spec is: the one lookup the fake Discord and the renderer's schema
//! tests share. The spec is never copied into the repository; it is found, in order, at
//!
//! 1. `DISCORD_OPENAPI_SPEC` — when set, the only place looked at;
//! 2. `../shared/discord-api-spec/openapi.json` beside the clone;
//! 3. the cache, `${XDG_CACHE_HOME:-$HOME/.cache}/gogobee/discord-openapi-<sha256, 16 digits>.json`,
//!    where `scripts/discord-spec` (run by `scripts/test`) downloads the pinned version.
//!
//! The pinned version — commit, URL and sha256 — is written once, in `scripts/discord-spec.env`.

use std::fmt;
use std::path::{Path, PathBuf};

/// The environment variable naming the spec file.
pub const SPEC_ENV: &str = "DISCORD_OPENAPI_SPEC";

const PINNED: &str = include_str!("../../../scripts/discord-spec.env");

/// The version of the spec the tests are pinned to (`scripts/discord-spec.env`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PinnedSpec {
    /// The commit of github.com/discord/discord-api-spec.
    pub commit: &'static str,
    /// Where `scripts/discord-spec` downloads it from (unless `DISCORD_OPENAPI_URL` says otherwise).
    pub url: &'static str,
    /// The sha256 of the file, in hex.
    pub sha256: &'static str,
}

/// The pinned spec, as `scripts/discord-spec.env` gives it.
pub fn pinned_spec() -> PinnedSpec {
    let value = |key: &str| {
        PINNED
            .lines()
            .find_map(|line| Some(line.strip_prefix(key)?.strip_prefix('=')?.trim()))
            .unwrap_or_else(|| panic!("scripts/discord-spec.env has no {key}= line"))
    };
    PinnedSpec {
        commit: value("COMMIT"),
        url: value("URL"),
        sha256: value("SHA256"),
    }
}

/// The spec's place beside the clone: `../shared/discord-api-spec/openapi.json`.
pub fn spec_beside_clone() -> PathBuf {
    let clone = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .and_then(Path::parent)
        .expect("crates/fake-discord is two levels inside the clone");
    clone
        .parent()
        .unwrap_or(clone)
        .join("shared/discord-api-spec/openapi.json")
}

/// The cached spec's file under a cache directory (`$XDG_CACHE_HOME`, or `$HOME/.cache`).
pub fn spec_cache_file(cache_home: &Path) -> PathBuf {
    cache_home
        .join("gogobee")
        .join(format!("discord-openapi-{}.json", &pinned_spec().sha256[..16]))
}

/// `$XDG_CACHE_HOME`, else `$HOME/.cache`; `None` when neither is set.
fn cache_home() -> Option<PathBuf> {
    let set = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    set("XDG_CACHE_HOME").or_else(|| set("HOME").map(|home| home.join(".cache")))
}

/// Where the spec is, by the order in the module's documentation, or why it is nowhere.
pub fn spec_path() -> Result<PathBuf, SpecMissing> {
    locate(
        std::env::var_os(SPEC_ENV).filter(|v| !v.is_empty()).map(PathBuf::from),
        spec_beside_clone(),
        cache_home().map(|home| spec_cache_file(&home)),
    )
}

fn locate(explicit: Option<PathBuf>, beside: PathBuf, cached: Option<PathBuf>) -> Result<PathBuf, SpecMissing> {
    if let Some(path) = explicit {
        return if path.is_file() {
            Ok(path)
        } else {
            Err(SpecMissing {
                looked_at: vec![path],
                explicit: true,
            })
        };
    }
    let candidates: Vec<PathBuf> = std::iter::once(beside).chain(cached).collect();
    match candidates.iter().find(|path| path.is_file()) {
        Some(found) => Ok(found.clone()),
        None => Err(SpecMissing {
            looked_at: candidates,
            explicit: false,
        }),
    }
}

/// Discord's OpenAPI spec is not where it was looked for; the message says how to get it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecMissing {
    /// Every place looked at, in order.
    pub looked_at: Vec<PathBuf>,
    /// Whether the one place was `DISCORD_OPENAPI_SPEC`'s (or a `Config::spec_path`).
    pub explicit: bool,
}

impl SpecMissing {
    /// A named file that is not there.
    pub(crate) fn at(path: &Path) -> Self {
        Self {
            looked_at: vec![path.to_owned()],
            explicit: true,
        }
    }
}

impl fmt::Display for SpecMissing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let places: Vec<String> = self.looked_at.iter().map(|p| p.display().to_string()).collect();
        writeln!(
            f,
            "Discord's OpenAPI spec is needed to check request bodies, and it is not at {}.",
            places.join(" nor at ")
        )?;
        if self.explicit {
            writeln!(f, "Point {SPEC_ENV} at the file, or unset it to use the pinned spec.")?;
        }
        let pinned = pinned_spec();
        write!(
            f,
            "Get the pinned spec with `scripts/test` (it downloads it before testing) or \
             `scripts/discord-spec` (the download alone), both of which keep it in the cache; or download \
             {url} (sha256 {sha}) and set {SPEC_ENV} to its path.",
            url = pinned.url,
            sha = pinned.sha256,
        )
    }
}

impl std::error::Error for SpecMissing {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pinned_spec_is_a_commit_of_discords_repository_with_a_sha256() {
        let pinned = pinned_spec();
        assert_eq!(pinned.commit.len(), 40);
        assert!(pinned.commit.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(
            pinned.url,
            format!(
                "https://raw.githubusercontent.com/discord/discord-api-spec/{}/specs/openapi.json",
                pinned.commit
            )
        );
        assert_eq!(pinned.sha256.len(), 64);
        assert!(pinned.sha256.bytes().all(|b| b.is_ascii_hexdigit()));
    }

    #[test]
    fn the_cache_file_is_named_by_the_pinned_sha256() {
        let file = spec_cache_file(Path::new("/cache"));
        let name = format!("discord-openapi-{}.json", &pinned_spec().sha256[..16]);
        assert_eq!(file, Path::new("/cache/gogobee").join(name));
    }

    #[test]
    fn the_variable_wins_and_a_missing_file_there_is_not_passed_over() {
        let dir = std::env::temp_dir().join(format!("fake-discord-locate-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (named, beside, cached) = (dir.join("named.json"), dir.join("beside.json"), dir.join("cached.json"));
        for file in [&beside, &cached] {
            std::fs::write(file, "{}").unwrap();
        }

        let missing = locate(Some(named.clone()), beside.clone(), Some(cached.clone())).unwrap_err();
        assert_eq!(missing.looked_at, std::slice::from_ref(&named));
        let message = missing.to_string();
        assert!(message.contains(&named.display().to_string()), "{message}");
        assert!(message.contains("Point DISCORD_OPENAPI_SPEC at the file"), "{message}");

        std::fs::write(&named, "{}").unwrap();
        assert_eq!(
            locate(Some(named.clone()), beside.clone(), Some(cached.clone())),
            Ok(named)
        );
        assert_eq!(locate(None, beside.clone(), Some(cached.clone())), Ok(beside.clone()));
        std::fs::remove_file(&beside).unwrap();
        assert_eq!(locate(None, beside.clone(), Some(cached.clone())), Ok(cached.clone()));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn nowhere_names_every_place_and_how_to_get_the_spec() {
        let dir = std::env::temp_dir().join(format!("fake-discord-nowhere-{}", std::process::id()));
        let (beside, cached) = (dir.join("beside.json"), dir.join("cached.json"));
        let missing = locate(None, beside.clone(), Some(cached.clone())).unwrap_err();
        assert_eq!(missing.looked_at, [beside.clone(), cached.clone()]);
        let message = missing.to_string();
        for needed in [
            beside.display().to_string(),
            cached.display().to_string(),
            "scripts/test".into(),
            "scripts/discord-spec".into(),
            SPEC_ENV.into(),
            pinned_spec().url.into(),
            pinned_spec().sha256.into(),
        ] {
            assert!(message.contains(&needed), "{needed:?} in {message}");
        }
        assert!(!message.contains("Point DISCORD_OPENAPI_SPEC"), "{message}");
    }
}
