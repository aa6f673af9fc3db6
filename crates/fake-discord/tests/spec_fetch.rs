//! `scripts/discord-spec`, the step of `scripts/test` that downloads Discord's OpenAPI spec when
//! it is nowhere else: a server on 127.0.0.1 stands in for the pinned URL (`DISCORD_OPENAPI_URL`)
//! and an empty directory for the cache (`XDG_CACHE_HOME`). The spec lands in the cache only when
//! its sha256 is the pinned one; otherwise the script says why and caches nothing.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use fake_discord::{pinned_spec, spec_cache_file};

const SCRIPTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts");

/// The spec the tests use, which is the pinned one.
fn spec_bytes() -> Vec<u8> {
    let path = fake_discord::spec_path().unwrap_or_else(|missing| panic!("{missing}"));
    std::fs::read(path).unwrap()
}

/// Serves `files` (name → bytes) over HTTP/1.1 on 127.0.0.1 until the test process ends; any
/// other path is a 404. Returns the base URL.
fn serve(files: Vec<(&'static str, Vec<u8>)>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request_line = String::new();
            if reader.read_line(&mut request_line).is_err() {
                continue;
            }
            let mut header = String::new();
            while reader.read_line(&mut header).is_ok_and(|n| n > 2) {
                header.clear();
            }
            let path = request_line.split(' ').nth(1).unwrap_or("/");
            let (status, body) = match files.iter().find(|(name, _)| path == format!("/{name}")) {
                Some((_, bytes)) => ("200 OK", bytes.as_slice()),
                None => ("404 Not Found", b"not found".as_slice()),
            };
            let head = format!(
                "HTTP/1.1 {status}\r\nContent-Length: {}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(body));
        }
    });
    base
}

/// A fresh empty directory under the system's temporary one.
fn empty_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gogobee-spec-fetch-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `script` with `args`, the spec's URL replaced by `url` and the cache under `cache_home`.
fn run(script: &Path, args: &[&str], url: &str, cache_home: &Path) -> Output {
    Command::new(script)
        .args(args)
        .env_remove("DISCORD_OPENAPI_SPEC")
        .env("DISCORD_OPENAPI_URL", url)
        .env("XDG_CACHE_HOME", cache_home)
        .output()
        .unwrap()
}

/// Every file under `dir`, at any depth.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files_under(&path));
        } else {
            found.push(path);
        }
    }
    found
}

#[test]
fn the_served_spec_lands_in_the_cache_when_its_sha256_is_the_pinned_one() {
    let spec = spec_bytes();
    let base = serve(vec![("openapi.json", spec.clone())]);
    let cache = empty_dir("good");
    let out = run(
        &Path::new(SCRIPTS).join("discord-spec"),
        &["fetch"],
        &format!("{base}/openapi.json"),
        &cache,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let cached = spec_cache_file(&cache);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        cached.display().to_string()
    );
    assert!(
        std::fs::read(&cached).unwrap() == spec,
        "the cached file is the served one"
    );
    assert_eq!(files_under(&cache), [cached], "nothing else is left in the cache");
    std::fs::remove_dir_all(&cache).unwrap();
}

#[test]
fn a_file_with_another_sha256_is_refused_and_nothing_cached() {
    let mut tampered = spec_bytes();
    tampered.extend_from_slice(b"\n");
    let base = serve(vec![("openapi.json", tampered)]);
    let cache = empty_dir("tampered");
    let out = run(
        &Path::new(SCRIPTS).join("discord-spec"),
        &["fetch"],
        &format!("{base}/openapi.json"),
        &cache,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains(&format!("not the pinned {}", pinned_spec().sha256)),
        "{stderr}"
    );
    assert!(stderr.contains("nothing was cached"), "{stderr}");
    assert_eq!(files_under(&cache), Vec::<PathBuf>::new());
    std::fs::remove_dir_all(&cache).unwrap();
}

#[test]
fn an_unreachable_or_absent_file_is_a_clear_error_and_nothing_cached() {
    let closed = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}/openapi.json", listener.local_addr().unwrap())
    };
    let absent = format!("{}/elsewhere.json", serve(Vec::new()));
    for (name, url) in [("closed", closed), ("absent", absent)] {
        let cache = empty_dir(name);
        let out = run(&Path::new(SCRIPTS).join("discord-spec"), &["fetch"], &url, &cache);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{name}");
        assert!(
            stderr.contains(&format!(
                "could not download Discord's OpenAPI spec from {url}; nothing was cached"
            )),
            "{name}: {stderr}"
        );
        assert_eq!(files_under(&cache), Vec::<PathBuf>::new(), "{name}");
        std::fs::remove_dir_all(&cache).unwrap();
    }
}

/// A clone with no `../shared` beside it: the script downloads the spec once, then finds it in
/// the cache (the URL no longer answering), and the fake Discord's lookup agrees on the place.
#[test]
fn a_clone_without_shared_downloads_once_then_uses_the_cache() {
    let root = empty_dir("clone");
    let scripts = root.join("clone/scripts");
    std::fs::create_dir_all(&scripts).unwrap();
    for file in ["discord-spec", "discord-spec.env"] {
        std::fs::copy(Path::new(SCRIPTS).join(file), scripts.join(file)).unwrap();
    }
    let script = scripts.join("discord-spec");
    let cache = root.join("cache");
    let cached = spec_cache_file(&cache);

    let absent = run(&script, &["locate"], "http://127.0.0.1:9/unused", &cache);
    assert_eq!(absent.status.code(), Some(1), "nothing to find yet");

    let base = serve(vec![("openapi.json", spec_bytes())]);
    let first = run(&script, &[], &format!("{base}/openapi.json"), &cache);
    let stderr = String::from_utf8_lossy(&first.stderr);
    assert!(first.status.success(), "{stderr}");
    assert!(stderr.contains("downloading"), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&first.stdout).trim(),
        cached.display().to_string()
    );

    let again = run(&script, &[], "http://127.0.0.1:9/unreachable", &cache);
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    assert!(again.stderr.is_empty(), "no download the second time");
    assert_eq!(
        String::from_utf8_lossy(&again.stdout).trim(),
        cached.display().to_string()
    );
    std::fs::remove_dir_all(&root).unwrap();
}

/// The script and the fake Discord look in the same places in the same order.
#[test]
fn the_script_finds_the_spec_where_the_fake_discord_does() {
    let out = Command::new(Path::new(SCRIPTS).join("discord-spec"))
        .arg("locate")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let by_script = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    let by_fake = fake_discord::spec_path().unwrap();
    assert_eq!(by_script.canonicalize().unwrap(), by_fake.canonicalize().unwrap());

    let missing = Command::new(Path::new(SCRIPTS).join("discord-spec"))
        .arg("locate")
        .env("DISCORD_OPENAPI_SPEC", "/nonexistent/openapi.json")
        .output()
        .unwrap();
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("/nonexistent/openapi.json: no such file"));
}
