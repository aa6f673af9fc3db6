//! Operations from the command line: `gogobee backup` (and restoring from its copy), and
//! `gogobee bot --help` naming every variable the bot reads.

mod support;

use std::process::{Command, Stdio};

use support::*;

fn gogobee(args: &[&str], dir: &std::path::Path) -> (bool, String) {
    let out = Command::new(gogobee_bin())
        .args(args)
        .current_dir(dir)
        .env_remove("DATABASE_URL")
        .stdin(Stdio::null())
        .output()
        .expect("running gogobee");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// A backup is a database the game opens as it was: restoring is using the copy.
#[test]
fn a_backup_restores_the_campaign_and_never_overwrites() {
    let dir = scratch("backup");
    let live = format!("sqlite://{}?mode=rwc", dir.join("live.db").display());
    std::fs::write(
        dir.join("create.txt"),
        "@alice /character create name:Aria race:elf class:rogue\n",
    )
    .unwrap();
    std::fs::write(dir.join("sheet.txt"), "@alice /character sheet\n").unwrap();
    let (ok, said) = gogobee(&["play", "--db", &live, "--script", "create.txt"], &dir);
    assert!(ok && said.contains("Aria"), "{said}");

    let copy = dir.join("copy.db");
    let (ok, said) = gogobee(&["backup", "--db", &live, "--to", copy.to_str().unwrap()], &dir);
    assert!(ok && said.contains("backed up"), "{said}");
    let (ok, said) = gogobee(&["backup", "--db", &live, "--to", copy.to_str().unwrap()], &dir);
    assert!(!ok && said.contains("already exists"), "{said}");

    // A source that is not there is refused, and not created.
    let nowhere = format!("sqlite://{}?mode=rwc", dir.join("typo.db").display());
    let other = dir.join("other.db");
    let (ok, said) = gogobee(&["backup", "--db", &nowhere, "--to", other.to_str().unwrap()], &dir);
    assert!(!ok && said.contains("There is no database at"), "{said}");
    assert!(said.contains("typo.db"), "{said}");
    assert!(!dir.join("typo.db").exists() && !other.exists(), "nothing created");

    // Restored: the copy is the campaign (the original gone).
    std::fs::remove_file(dir.join("live.db")).unwrap();
    let restored = format!("sqlite://{}?mode=rw", copy.display());
    let (ok, said) = gogobee(&["play", "--db", &restored, "--script", "sheet.txt"], &dir);
    assert!(ok && said.contains("Aria") && said.contains("Elf"), "{said}");
}

#[test]
fn bot_help_names_every_variable_it_reads() {
    let (ok, said) = gogobee(&["bot", "--help"], &scratch("help"));
    assert!(ok, "{said}");
    for var in [
        "DISCORD_TOKEN",
        "DATABASE_URL",
        "DEV_GUILD_ID",
        "DISCORD_API_BASE",
        "OPS_ADDR",
        "SHARD_IDS",
        "SHARD_COUNT",
        "RUST_LOG",
        "LOG_FORMAT",
        "GOGOBEE_SEED",
        "GOGOBEE_CLOCK_OFFSET",
        "RETENTION_DAYS",
        "GATEWAY_DOWN_LIMIT",
    ] {
        assert!(said.contains(var), "{var} missing from bot --help:\n{said}");
    }
}

/// A token of the wrong shape (a client secret pasted instead) is refused before the database
/// is opened or Discord is called, saying what to copy, without printing it.
#[test]
fn a_malformed_token_is_refused_before_anything_else() {
    let dir = scratch("bad-token");
    let secret = "x7Qk2mN9pL4vR8sT1wY6zA3bC5dE0fGh";
    let out = Command::new(gogobee_bin())
        .arg("bot")
        .current_dir(&dir)
        .env("DISCORD_TOKEN", secret)
        .env(
            "DATABASE_URL",
            format!("sqlite://{}?mode=rwc", dir.join("bot.db").display()),
        )
        .env("DISCORD_API_BASE", "http://127.0.0.1:9")
        .stdin(Stdio::null())
        .output()
        .expect("running gogobee");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains("does not look like a bot token") && said.contains("Bot page"),
        "{said}"
    );
    assert!(!said.contains(secret), "the token is never printed: {said}");
    assert!(!dir.join("bot.db").exists(), "no database opened");
}
