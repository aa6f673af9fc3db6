//! The binary the way the container image runs it, without a Docker engine: the runtime stage
//! of the `Dockerfile` is read (its `COPY` destinations, `WORKDIR`, `ENV`, `USER` and `CMD`)
//! and replayed under a scratch root — the binary at `usr/local/bin/gogobee`, `flavor/` beside
//! it, the working directory and the SQLite volume at `data/`, nothing else in the environment.
//! When the test runs as root it starts the bot as the image does: through the image's
//! entrypoint (`scripts/docker-entrypoint`), as root, on a volume owned by root (as Fly.io and
//! most platforms mount one) — the entrypoint must give the volume to the image's non-root uid
//! and drop to it, and the database must end up owned by that uid. Against the fake
//! Discord (two shards recommended, so the default autosharding starts both) it must answer
//! `/healthz` 200 (gateway connected, database ok), keep its database on the volume and write
//! nowhere else, log JSON lines without the token, and stop cleanly on SIGTERM.
//!
//! CI runs it on the test build (cheap). `scripts/image-check` builds the release binary as the
//! Dockerfile does and runs this same test against it (`GOGOBEE_BIN`).

mod support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use fake_discord::{Config, FakeDiscord};
use support::*;

/// What the Dockerfile's runtime stage says about how the binary runs.
#[derive(Debug, Default)]
struct Image {
    /// Where `COPY --from=builder …/gogobee` puts the binary.
    binary: String,
    /// Where `COPY flavor …` puts the narration files.
    flavor: String,
    workdir: String,
    env: Vec<(String, String)>,
    /// The uid `useradd --uid` gives the image's user.
    uid: Option<u32>,
    cmd: Vec<String>,
    /// The entrypoint script in the image (`COPY scripts/docker-entrypoint …`), and its source.
    entrypoint: Option<(String, String)>,
}

/// Reads the last stage of the Dockerfile (continuation lines joined).
fn image() -> Image {
    let dockerfile =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Dockerfile")).expect("the Dockerfile");
    let joined = dockerfile.replace("\\\n", " ");
    let stage = joined.rsplit("\nFROM ").next().expect("a runtime stage");
    let mut image = Image::default();
    let mut user = None;
    for line in stage.lines().map(str::trim) {
        let (instruction, rest) = line.split_once(' ').unwrap_or((line, ""));
        let words: Vec<&str> = rest.split_whitespace().collect();
        match instruction {
            "COPY" if rest.contains("gogobee") && rest.contains("--from=builder") => {
                image.binary = words.last().expect("a destination").to_string();
            }
            "COPY" if words.first() == Some(&"flavor") => words[1].clone_into(&mut image.flavor),
            "COPY" if words.first().is_some_and(|w| w.contains("entrypoint")) => {
                image.entrypoint = Some((words[1].to_owned(), words[0].to_owned()));
            }
            "WORKDIR" => rest.trim().clone_into(&mut image.workdir),
            "ENV" => {
                image.env.extend(
                    words
                        .iter()
                        .filter_map(|kv| kv.split_once('='))
                        .map(|(k, v)| (k.to_owned(), v.to_owned())),
                );
            }
            "USER" => user = Some(rest.trim().to_owned()),
            "RUN" if rest.contains("useradd") => {
                let uid = words.iter().position(|w| *w == "--uid").map(|i| words[i + 1]);
                image.uid = uid.and_then(|u| u.parse().ok());
            }
            "CMD" => image.cmd = serde_json::from_str(rest).expect("CMD in exec form"),
            _ => {}
        }
    }
    // Either the image runs as a non-root USER, or its entrypoint drops to one.
    let drops = image.entrypoint.as_ref().is_some_and(|(_, source)| {
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(source))
            .is_ok_and(|script| script.contains("setpriv"))
    });
    assert!(
        user.is_some_and(|u| u != "root") || drops,
        "the image runs as a non-root user"
    );
    assert!(!image.binary.is_empty() && !image.flavor.is_empty() && !image.workdir.is_empty());
    image
}

/// `path` (absolute in the image) under the scratch `root`.
fn under(root: &Path, path: &str) -> PathBuf {
    root.join(path.trim_start_matches('/'))
}

/// Every file under `dir`, relative to it.
fn files(dir: &Path) -> BTreeSet<PathBuf> {
    let mut found = BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(next) = stack.pop() {
        for entry in std::fs::read_dir(&next).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                found.insert(path.strip_prefix(dir).unwrap_or(&path).to_path_buf());
            }
        }
    }
    found
}

/// The binary under test: `GOGOBEE_BIN` (the release build, from `scripts/image-check`) or
/// this test build's.
fn binary() -> PathBuf {
    std::env::var_os("GOGOBEE_BIN").map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_gogobee")), PathBuf::from)
}

/// Lays out the image's filesystem under `root`: the binary (hard-linked when it can be) and
/// `flavor/` where the Dockerfile copies them, and the working directory.
fn lay_out(root: &Path, image: &Image) {
    let target = under(root, &image.binary);
    std::fs::create_dir_all(target.parent().expect("a directory")).unwrap();
    if std::fs::hard_link(binary(), &target).is_err() {
        std::fs::copy(binary(), &target).expect("copying the binary");
    }
    let flavor = under(root, &image.flavor);
    std::fs::create_dir_all(&flavor).unwrap();
    for file in std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("flavor")).unwrap() {
        let file = file.unwrap().path();
        std::fs::copy(&file, flavor.join(file.file_name().unwrap())).unwrap();
    }
    std::fs::create_dir_all(under(root, &image.workdir)).unwrap();
    if let Some((script, source)) = &image.entrypoint {
        let target = under(root, script);
        std::fs::create_dir_all(target.parent().expect("a directory")).unwrap();
        std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join(source), &target).expect("copying the entrypoint");
    }
}

/// Runs as the image does when the test is root: through the entrypoint, as root, on the volume
/// left owned by root (the entrypoint must hand it to the image's uid and drop to it), or, for
/// an image without an entrypoint, as its uid via `setpriv`; otherwise the test's own user is
/// already not root. Returns the uid the binary will run as, when it was switched, and the
/// environment the entrypoint reads (where the volume is).
fn as_image_user(
    command: &mut Command,
    root: &Path,
    image: &Image,
    program: &Path,
) -> (Option<u32>, Vec<(String, String)>) {
    let is_root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    match (image.uid, &image.entrypoint) {
        (Some(uid), Some((script, _))) if is_root => {
            use std::os::unix::fs::MetadataExt as _;
            let volume = under(root, &image.workdir);
            let owner = std::fs::metadata(&volume).unwrap().uid();
            assert_eq!(owner, 0, "the volume starts owned by root, as a platform mounts it");
            *command = Command::new("sh");
            command.arg(under(root, script)).arg(program);
            let env = vec![
                ("GOGOBEE_DATA_DIR".to_owned(), volume.display().to_string()),
                ("GOGOBEE_UID".to_owned(), uid.to_string()),
            ];
            (Some(uid), env)
        }
        (Some(uid), None) if is_root => {
            let chown = Command::new("chown")
                .args(["-R", &format!("{uid}:{uid}")])
                .arg(under(root, &image.workdir))
                .status()
                .expect("chown");
            assert!(chown.success());
            *command = Command::new("setpriv");
            command
                .args([
                    &format!("--reuid={uid}"),
                    &format!("--regid={uid}"),
                    "--clear-groups",
                    "--",
                ])
                .arg(program);
            (Some(uid), Vec::new())
        }
        _ => {
            *command = Command::new(program);
            (None, Vec::new())
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_runs_as_the_image_runs_it() {
    let image = image();
    let root = scratch("image");
    lay_out(&root, &image);
    let before = files(&root);
    let fake = FakeDiscord::start_with(Config {
        shards: 2,
        ..Config::default()
    })
    .await
    .expect("the fake Discord");
    let ops = format!("127.0.0.1:{}", free_port());
    let log = root.join("bot.log");
    let program = under(&root, &image.binary);
    let mut command = Command::new(&program);
    let (switched, entrypoint_env) = as_image_user(&mut command, &root, &image, &program);
    command
        .args(&image.cmd)
        .current_dir(under(&root, &image.workdir))
        .env_clear()
        .env("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
        .env("HOME", under(&root, &image.workdir));
    for (key, value) in &image.env {
        // Absolute paths of the image (the volume at /data) land under the scratch root.
        let value = value.replace(":///", &format!("://{}/", root.display()));
        command.env(key, value);
    }
    command.envs(entrypoint_env);
    // What `fly secrets set` and fly.toml's [env] add; the fake stands in for discord.com.
    command
        .env("DISCORD_TOKEN", fake.token())
        .env("DISCORD_API_BASE", fake.rest_url())
        .env("OPS_ADDR", &ops)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).expect("a log file"));
    let child = command.spawn().expect("starting the binary");
    let bot = Bot {
        child,
        log,
        ops: ops.clone(),
    };

    // Healthy: connected to the gateway, the database answering.
    let deadline = Instant::now() + WAIT;
    let (status, body) = loop {
        if std::net::TcpStream::connect(&ops).is_ok() {
            let (status, body) = ops_get(&ops, "/healthz");
            if status.contains("200") {
                break (status, body);
            }
        }
        assert!(Instant::now() < deadline, "never healthy:\n{}", bot.logs());
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(
        body.contains("gateway: connected") && body.contains("database: ok"),
        "{status}\n{body}"
    );
    // Autosharded by default: both shards `/gateway/bot` recommends (serenity waits 5 s
    // between IDENTIFYs, as Discord asks).
    assert_eq!(fake.wait_for_shard(0, WAIT).await, Ok([0, 2]), "{}", bot.logs());
    assert_eq!(fake.wait_for_shard(1, WAIT).await, Ok([1, 2]), "{}", bot.logs());

    // (`setpriv` execs the binary: the signal reaches it.)
    let status = bot.terminate();
    assert!(status.success(), "SIGTERM is a clean shutdown: {status:?}");

    // The database is on the volume, and nothing was written anywhere else.
    let workdir = PathBuf::from(image.workdir.trim_start_matches('/'));
    let written: Vec<PathBuf> = files(&root)
        .difference(&before)
        .filter(|p| p.as_path() != Path::new("bot.log"))
        .cloned()
        .collect();
    assert!(written.contains(&workdir.join("gogobee.db")), "{written:?}");
    if let Some(uid) = switched {
        use std::os::unix::fs::MetadataExt as _;
        let owner = std::fs::metadata(root.join(workdir.join("gogobee.db"))).unwrap().uid();
        assert_eq!(owner, uid, "the binary ran as the image's non-root user");
        let volume = std::fs::metadata(root.join(&workdir)).unwrap().uid();
        assert_eq!(volume, uid, "the entrypoint gave the volume to that user");
    }
    assert!(
        written.iter().all(|p| p.starts_with(&workdir)),
        "written outside the volume: {written:?}"
    );

    // JSON log lines (LOG_FORMAT=json), none with the token.
    let logs = std::fs::read_to_string(root.join("bot.log")).unwrap();
    assert!(logs.lines().count() > 3, "{logs}");
    for line in logs.lines() {
        let parsed: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert!(parsed["level"].is_string(), "{line}");
    }
    assert!(!logs.contains(fake.token()), "the token was logged");
}

/// Shard settings that cannot work stop the bot at once, saying what is wrong.
#[test]
fn bad_shard_settings_are_a_clear_startup_error() {
    for (ids, count, says) in [
        ("0,2", "4", "contiguous"),
        ("4", "4", "shard 4 does not exist"),
        ("0-1", "", "needs SHARD_COUNT"),
        ("0", "zero", "SHARD_COUNT must be a whole number"),
    ] {
        let output = Command::new(binary())
            .arg("bot")
            .current_dir(scratch("bad-shards"))
            .env_clear()
            .env("DISCORD_TOKEN", "Zm9v.not-a-real.token")
            .env("SHARD_IDS", ids)
            .env("SHARD_COUNT", count)
            .output()
            .expect("running the binary");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            !output.status.success(),
            "SHARD_IDS={ids} SHARD_COUNT={count} was accepted"
        );
        assert!(stderr.contains(says), "SHARD_IDS={ids} SHARD_COUNT={count}: {stderr}");
    }
}
