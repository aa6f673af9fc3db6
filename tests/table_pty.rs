//! The interactive table as a player meets it: `gogobee play` on a pseudo-terminal, driven by
//! keystrokes. The greeting comes first (no log lines before it), Tab completes a command and
//! its subcommand, the answer shows, Up recalls the last line from the history, and Ctrl-D on
//! an empty line leaves cleanly (exit 0).

use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use nix::pty::{Winsize, openpty};

const WAIT: Duration = Duration::from_secs(20);

/// `gogobee play` on a pseudo-terminal: what it wrote (escape sequences removed), and its keyboard.
struct Terminal {
    child: Child,
    keyboard: std::fs::File,
    screen: Arc<Mutex<Vec<u8>>>,
}

/// `text` without terminal escape sequences (CSI `ESC [ … final`, OSC `ESC ] … BEL`, two-byte
/// `ESC x`) and carriage returns.
fn plain(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.next() {
                Some('[') => {
                    for c in chars.by_ref() {
                        if ('@'..='~').contains(&c) {
                            break;
                        }
                    }
                }
                Some(']') => {
                    for c in chars.by_ref() {
                        if c == '\u{7}' {
                            break;
                        }
                    }
                }
                _ => {}
            },
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

impl Terminal {
    fn open(db: &str) -> Self {
        Self::open_with(db, &[])
    }

    /// [`Terminal::open`] with `env` set.
    fn open_with(db: &str, env: &[(&str, &str)]) -> Self {
        let size = Winsize {
            ws_row: 40,
            ws_col: 120,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        let pty = openpty(&size, None).expect("a pseudo-terminal");
        let bin = std::env::var_os("GOGOBEE_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_gogobee").into());
        let tty = std::fs::File::from(pty.slave);
        let child = Command::new(bin)
            .args(["play", "--db", db])
            .env("TERM", "xterm")
            .env_remove("RUST_LOG")
            .env_remove("DATABASE_URL")
            .env_remove("NO_COLOR")
            .envs(env.iter().copied())
            .stdin(Stdio::from(tty.try_clone().unwrap()))
            .stdout(Stdio::from(tty.try_clone().unwrap()))
            .stderr(Stdio::from(tty))
            .spawn()
            .expect("gogobee starts");
        let keyboard = std::fs::File::from(pty.master);
        let mut display = keyboard.try_clone().unwrap();
        let screen = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&screen);
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            // Ends with EIO once the program has exited and closed the terminal.
            while let Ok(n @ 1..) = display.read(&mut buffer) {
                seen.lock().unwrap().extend_from_slice(&buffer[..n]);
            }
        });
        Self {
            child,
            keyboard,
            screen,
        }
    }

    /// What the program wrote, escape codes and all.
    fn raw(&self) -> String {
        String::from_utf8_lossy(&self.screen.lock().unwrap()).into_owned()
    }

    fn screen(&self) -> String {
        plain(&String::from_utf8_lossy(&self.screen.lock().unwrap()))
    }

    fn type_keys(&mut self, keys: &str) {
        self.keyboard.write_all(keys.as_bytes()).unwrap();
        self.keyboard.flush().unwrap();
    }

    /// Waits until the screen shows `text` at least `times` times.
    fn wait_for(&self, text: &str, times: usize) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let screen = self.screen();
            if screen.matches(text).count() >= times {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "{text:?} not shown {times} time(s) in {WAIT:?}:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// Waits until the screen shows `text` at least `times` times and, after the last of
    /// them, a fresh prompt with nothing typed at it yet: the line editor is reading keys
    /// again. (Keys typed before it is would be echoed, or lost, by the terminal's cooked
    /// mode in between two prompts.)
    fn wait_for_prompt_after(&self, text: &str, times: usize) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let screen = self.screen();
            if screen.matches(text).count() >= times {
                let last = screen.rfind(text).expect("shown");
                if screen[last..].ends_with("\n› ") {
                    return screen;
                }
            }
            assert!(
                Instant::now() < deadline,
                "{text:?} ×{times} then a prompt not shown in {WAIT:?}:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// Waits until `text` shows after the last `after`.
    fn wait_for_after(&self, after: &str, text: &str) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let screen = self.screen();
            if screen.rfind(after).is_some_and(|last| screen[last..].contains(text)) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "{text:?} not shown after the last {after:?} in {WAIT:?}:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(30));
        }
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_line_editor_completes_recalls_and_leaves_on_ctrl_d() {
    let dir = std::env::temp_dir().join(format!("gogobee-pty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}?mode=rwc", dir.join("table.db").display());
    let mut table = Terminal::open(&db);

    // The greeting, then the session's seed, then the prompt; nothing logged before it (a
    // fresh database runs every migration).
    let screen = table.wait_for("› ", 1);
    assert!(screen.starts_with("GogoBee at the table."), "{screen}");
    assert!(!screen.contains("INFO"), "{screen}");
    assert!(screen.contains("replays these dice"), "{screen}");

    // Tab completes the command, then its subcommand; the options are typed.
    table.type_keys("/charac\t");
    table.wait_for("/character ", 1);
    table.type_keys("cr\t");
    table.wait_for("/character create ", 1);
    table.type_keys("name:Aria race:human class:fighter\r");
    let screen = table.wait_for_prompt_after("Human Fighter", 1);
    let created = screen.matches("Human Fighter").count();

    // A second command, then Up recalls it from the history and Enter runs it again. Each
    // key waits for the prompt that reads it.
    table.type_keys("/character sheet\r");
    table.wait_for_prompt_after("Human Fighter", created + 1);
    table.type_keys("\u{1b}[A");
    table.wait_for_after("Human Fighter", "/character sheet");
    table.type_keys("\r");
    table.wait_for_prompt_after("Human Fighter", created + 2);

    // `help attack` shows that command in full; `/roll` takes bare dice, as in Avrae.
    table.type_keys("help attack\r");
    table.wait_for_prompt_after("Example: /attack", 1);
    table.type_keys("/roll (4d6)kh1\r");
    table.wait_for_prompt_after("4d6kh1 (", 1);

    // `clear` clears the screen.
    table.type_keys("clear\r");
    let deadline = Instant::now() + WAIT;
    while !String::from_utf8_lossy(&table.screen.lock().unwrap()).contains("\x1b[2J") {
        assert!(Instant::now() < deadline, "clear did not erase:\n{}", table.screen());
        std::thread::sleep(Duration::from_millis(30));
    }

    // Ctrl-D on an empty line leaves, cleanly.
    table.type_keys("\u{4}");
    let deadline = Instant::now() + WAIT;
    let status = loop {
        if let Some(status) = table.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "Ctrl-D did not end the session:\n{}",
            table.screen()
        );
        std::thread::sleep(Duration::from_millis(30));
    };
    assert!(status.success(), "{status}:\n{}", table.screen());
    drop(table);
    std::fs::remove_dir_all(&dir).ok();
}

/// Markdown becomes terminal styles at a terminal, and plain text when `NO_COLOR` is set.
#[test]
fn no_color_turns_the_tables_styles_off() {
    const COLOUR_OFF: &str = "\u{1b}[39m";
    for (env, styled) in [(&[][..], true), (&[("NO_COLOR", "1")][..], false)] {
        let dir = std::env::temp_dir().join(format!("gogobee-pty-colour-{}-{styled}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = format!("sqlite://{}?mode=rwc", dir.join("table.db").display());
        let mut table = Terminal::open_with(&db, env);
        table.wait_for("› ", 1);
        table.type_keys("/character create name:Aria race:human class:fighter\r");
        table.wait_for_prompt_after("Human Fighter", 1);
        assert_eq!(
            table.raw().contains(COLOUR_OFF),
            styled,
            "NO_COLOR in {env:?}: {:?}",
            table.raw()
        );
        table.type_keys("\u{4}");
        let _ = table.child.wait();
        let _ = std::fs::remove_dir_all(&dir);
    }
}
