//! Nothing is lost on a crash: a table is killed (SIGKILL) mid-fight, a second process on the
//! same database continues the same combat from where it was, with nothing lost or duplicated.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

struct Table {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Table {
    fn open(db: &str) -> Self {
        // `GOGOBEE_BIN`: a copy of the binary, when other builds share the target directory.
        let bin = std::env::var_os("GOGOBEE_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_gogobee").into());
        let mut child = Command::new(bin)
            .args(["play", "--db", db, "--seed", "4"])
            .env("RUST_LOG", "error")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("gogobee starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Self { child, stdin, lines }
    }

    /// Sends a line and collects output until `until` appears (or 20 s pass).
    fn say(&mut self, line: &str, until: &str) -> String {
        writeln!(self.stdin, "{line}").expect("the table reads");
        self.stdin.flush().expect("flush");
        let mut seen = String::new();
        while !seen.contains(until) {
            let l = self
                .lines
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|e| panic!("{e}: no \"{until}\" after {line}:\n{seen}"));
            seen.push_str(&l);
            seen.push('\n');
        }
        seen
    }
}

/// The combat's stored version (the commands applied: its log's last entry), read from the
/// database the table writes (messages show no internal numbers).
fn version(db: &str) -> i64 {
    use sea_orm::{ConnectionTrait, DbBackend, Statement};
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let db = service::Db::connect(db).await.expect("the database opens");
        let row = db
            .conn()
            .query_one_raw(Statement::from_string(
                DbBackend::Sqlite,
                "SELECT id FROM combats ORDER BY id DESC LIMIT 1",
            ))
            .await
            .expect("combats read")
            .expect("a combat");
        let id: i64 = row.try_get("", "id").expect("an id");
        let version = service::repo::combats::version(db.conn(), id).await.expect("a version");
        db.close().await.ok();
        version
    })
}

#[test]
fn a_killed_table_resumes_the_same_combat_with_nothing_lost_or_doubled() {
    let dir = std::env::temp_dir().join(format!("gogobee-crash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}?mode=rwc", dir.join("crash.db").display());

    let mut first = Table::open(&db);
    first.say("@alice /character create name:Aria race:human class:fighter", "Aria");
    // The combat's dice mix in the wall clock (an interactive table's `now`): at level 12 no
    // roll of the ogre's opening turn can end the fight before the kill.
    first.say("@owner /gm level player:alice level:12", "12");
    first.say("@owner /gm spawn monster:ogre count:1", "combat");
    first.say("@alice /combat join", "combat");
    first.say("@alice /combat start", "TwinBee · combat");
    let started = version(&db);
    first.say("@alice /combat status", "TwinBee · combat");
    let seen_version = version(&db);
    assert_eq!(seen_version, started, "a status applies no command");
    first.child.kill().expect("SIGKILL"); // no clean shutdown: the process just dies
    first.child.wait().unwrap();

    let mut second = Table::open(&db);
    let status = second.say("@alice /combat status", "TwinBee · combat");
    assert_eq!(
        version(&db),
        seen_version,
        "the stored combat is exactly where the first table left it:\n{status}"
    );
    assert!(status.contains("Ogre") && status.contains("Aria"), "{status}");
    let next = second.say("@alice /endturn", "TwinBee · combat");
    assert!(
        next.contains("It's not your turn") || version(&db) == seen_version + 1,
        "the next command continues the same log with the next version:\n{next}"
    );
    second.child.kill().ok();
    second.child.wait().ok();
    std::fs::remove_dir_all(&dir).ok();
}
