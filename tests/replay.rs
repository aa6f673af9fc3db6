//! `gogobee replay`: every fight the scenario suite plays, stored in a SQLite file, replays from
//! its starting state and stored commands to identical events; one stored event altered, the
//! replay names the first difference and exits 1.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use sea_orm::Database;

/// The binary under test: cargo's, or `GOGOBEE_BIN` (a copy, when builds share the target dir).
fn gogobee() -> Command {
    let mut command =
        Command::new(std::env::var_os("GOGOBEE_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_gogobee").into()));
    command.env_remove("DATABASE_URL").env("RUST_LOG", "error");
    command
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gogobee-replay-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

fn seed_of(script: &Path) -> String {
    std::fs::read_to_string(script)
        .expect("the script")
        .lines()
        .find_map(|l| l.trim().strip_prefix("# seed:").map(|s| s.trim().to_owned()))
        .unwrap_or_else(|| "6".to_owned())
}

/// Plays a script into the SQLite file `db`.
fn play_into(script: &Path, db: &str) {
    let out = gogobee()
        .args(["play", "--script"])
        .arg(script)
        .args(["--seed", &seed_of(script), "--db", db])
        .output()
        .expect("gogobee runs");
    assert!(
        out.status.success(),
        "{}: {}",
        script.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn replay(db: &str, which: &[&str]) -> Output {
    gogobee()
        .args(["replay", "--db", db])
        .args(which)
        .output()
        .expect("gogobee replay runs")
}

fn scripts() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(root.join("tests/scenarios"))
        .expect("the scenarios")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    scripts.sort();
    scripts.push(root.join("examples/first-fight.txt"));
    scripts
}

#[test]
fn every_fight_of_the_scenario_suite_replays_identically() {
    let dir = scratch("suite");
    let mut fights = 0;
    for script in scripts() {
        let name = script.file_stem().unwrap().to_string_lossy().into_owned();
        let db = format!("sqlite://{}?mode=rwc", dir.join(format!("{name}.db")).display());
        play_into(&script, &db);
        let out = replay(&db, &["--all"]);
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "{name}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let verdicts: Vec<&str> = stdout.lines().filter(|l| l.starts_with("combat ")).collect();
        assert!(verdicts.iter().all(|l| l.contains(": identical (")), "{name}: {stdout}");
        assert!(stdout.contains(" 0 differ, 0 cannot be replayed"), "{name}: {stdout}");
        fights += verdicts.len();
    }
    // Every scenario but the character sheets fights at least once.
    assert!(fights >= 12, "{fights} fights replayed");
    std::fs::remove_dir_all(&dir).ok();
}

/// Replaces the first event of the fight's third logged command with `altered`: in the packed
/// form commands are written in today (an event that still reads as one), or as the JSON of an
/// entry written before it.
async fn alter_third_command(db: &str, packed: bool) -> serde_json::Value {
    use sea_orm::{ActiveModelTrait, ActiveValue::Set, EntityTrait, IntoActiveModel};
    use service::entity::combat_event;

    let conn = Database::connect(db).await.expect("the database opens");
    let entry = combat_event::Entity::find_by_id((1, 3))
        .one(&conn)
        .await
        .expect("a query")
        .expect("command 3 is stored");
    assert!(entry.packed.is_some(), "today's entries are packed");
    let command = entry.command_json().expect("the command reads");
    let mut events = entry.stored_events().expect("the events read");
    assert!(!events.is_empty(), "command 3 gave events");
    events[0] = if packed {
        serde_json::json!({"TurnEnded": {"id": 99}})
    } else {
        serde_json::json!({"Altered": events[0].clone()})
    };
    let mut row = entry.into_active_model();
    if packed {
        row.packed = Set(Some(combat_event::pack(&command, &events)));
    } else {
        row.command = Set(command.to_string());
        row.events = Set(serde_json::to_string(&events).unwrap());
        row.packed = Set(None);
    }
    row.update(&conn).await.expect("the update");
    conn.close().await.expect("closed");
    events.swap_remove(0)
}

#[tokio::test]
async fn an_altered_stored_event_is_found_and_fails_the_replay() {
    for packed in [true, false] {
        let dir = scratch(if packed { "altered-packed" } else { "altered-json" });
        let db = format!("sqlite://{}?mode=rwc", dir.join("ready.db").display());
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/ready.txt");
        play_into(&script, &db);
        assert!(replay(&db, &["--combat", "1"]).status.success());
        let altered = alter_third_command(&db, packed).await;

        for which in [&["--combat", "1"][..], &["--all"][..]] {
            let out = replay(&db, which);
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert_eq!(out.status.code(), Some(1), "{stdout}");
            assert!(
                stdout.contains("combat 1: DIFFERS at command 3, event 0: the events differ"),
                "{stdout}"
            );
            assert!(stdout.contains(&format!("  stored:   {altered}")), "{stdout}");
            assert!(stdout.contains("1 differ"), "{stdout}");
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}
