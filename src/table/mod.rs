//! `gogobee play`: the game at a terminal table — the same service and renderer as the bot.
//! Interactive by default; `--script FILE` replays a scripted session (users `@name`, `@owner`
//! with Manage Server, button presses `[Label]`, clock advances `~ 30s`); `--json` prints each
//! message as the JSON payload Discord would get. At a terminal: a prompt with line editing,
//! history and completion (`prompt.rs`), markdown as styles and lines wrapped to the width
//! (`style.rs`).

mod prompt;
mod style;
mod text;

use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex};

use anyhow::{Context, Result, bail};
use chrono::{DateTime, Utc};
use render::Renderer;
use serde_json::json;
use service::{Db, Service};

use crate::app::{App, Caller, Invocation, Reply};
use crate::script::{self, Line};

/// How the table shows messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    Text,
    Json,
}

/// The guild and channel of the terminal table.
const GUILD: &str = "table";
const CHANNEL: &str = "table";
/// A script's clock starts here, so a scripted session is the same every time.
const SCRIPT_EPOCH: i64 = 1_767_225_600; // 2026-01-01T00:00:00Z

/// A table in progress: the game, the clock, and the last buttons each user was shown.
pub struct Table {
    app: App,
    output: Output,
    /// `None` follows the real clock (interactive play); `Some` is a script's virtual clock.
    clock: Option<DateTime<Utc>>,
    buttons: HashMap<String, Vec<(String, String)>>,
    last_buttons: Vec<(String, String)>,
    /// A script: a step that cannot run (a button not shown) stops it.
    scripted: bool,
    /// Markdown as terminal styles (stdout is a terminal).
    styles: bool,
    /// Wrap lines to this many columns.
    width: Option<usize>,
}

/// Saves the payload's binary files (a `/homebrew balance` chart, the battlefield's picture)
/// under the temporary folder's `gogobee/`, to open with an image viewer, each as a new file
/// (`map-1.png`, `map-2.png`, …: an earlier picture is never overwritten); their paths. Text
/// files are shown in full instead.
fn save_binary_files(payload: &render::MessagePayload) -> Vec<std::path::PathBuf> {
    let dir = std::env::temp_dir().join("gogobee");
    payload
        .attachments
        .iter()
        .filter(|file| file.text_content().is_none())
        .filter_map(|file| {
            let name = std::path::Path::new(&file.filename);
            let stem = name.file_stem()?.to_string_lossy();
            let ext = name
                .extension()
                .map(|e| format!(".{}", e.to_string_lossy()))
                .unwrap_or_default();
            std::fs::create_dir_all(&dir).ok()?;
            for n in 1u64.. {
                let path = dir.join(format!("{stem}-{n}{ext}"));
                match std::fs::File::create_new(&path) {
                    Ok(mut f) => return std::io::Write::write_all(&mut f, &file.content).ok().map(|()| path),
                    // Taken by an earlier picture: the next number.
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                    Err(_) => return None,
                }
            }
            None
        })
        .collect()
}

impl Table {
    pub async fn open(db_url: &str, seed: u64, output: Output, scripted: bool) -> Result<Self> {
        let db = Db::connect(db_url)
            .await
            .with_context(|| format!("opening the database {db_url}"))?;
        let renderer = Renderer::load().context("loading the narration files")?;
        service::goods::world().context("loading the shop and the recipes")?;
        // One player at a local table: each balance question runs all its duels, and the next
        // may follow at once (a script's answers are the same on any machine).
        let local = service::cmd::balance::BalanceLimits {
            cooldown: std::time::Duration::ZERO,
            budget: std::time::Duration::from_hours(1),
            ..Default::default()
        };
        let app = App::new(Service::with_seed(db, seed).with_balance_limits(local), renderer, seed);
        let clock = scripted.then(|| DateTime::from_timestamp(SCRIPT_EPOCH, 0).expect("valid epoch"));
        Ok(Self {
            app,
            output,
            clock,
            buttons: HashMap::new(),
            last_buttons: Vec::new(),
            scripted,
            styles: false,
            width: None,
        })
    }

    fn now(&self) -> DateTime<Utc> {
        self.clock.unwrap_or_else(Utc::now)
    }

    fn caller(user: &str) -> Caller {
        Caller {
            guild: GUILD.into(),
            channel: CHANNEL.into(),
            user: user.into(),
            manage_server: user == "owner" || user == "you",
        }
    }

    /// Shows the replies to a command `user` sent, and remembers their buttons.
    fn show(&mut self, user: &str, replies: &[Reply], out: &mut impl Write) -> Result<()> {
        for reply in replies {
            let buttons: Vec<(String, String)> = reply
                .payload
                .components
                .iter()
                .flat_map(|row| row.components.iter())
                .filter(|b| !b.disabled)
                .map(|b| (b.label.clone(), b.custom_id.clone()))
                .collect();
            if !buttons.is_empty() {
                let to = reply.to_user.clone().unwrap_or_else(|| user.to_owned());
                self.buttons.insert(to, buttons.clone());
                self.last_buttons = buttons;
            }
            match self.output {
                Output::Json => {
                    let mut line = json!({"user": user, "ephemeral": reply.is_ephemeral(), "payload": reply.payload});
                    if let Some(key) = &reply.running {
                        line["running"] = json!(key);
                    }
                    writeln!(out, "{line}")?;
                }
                Output::Text => {
                    let to = reply.to_user.as_deref().map(|u| format!(" → @{u}")).unwrap_or_default();
                    let private = if reply.is_ephemeral() { " (only you)" } else { "" };
                    // Discord edits a running message in place; the table shows each update.
                    let running = reply
                        .running
                        .as_deref()
                        .map(|key| format!(" ✎ {}", key.split(':').next().unwrap_or(key)))
                        .unwrap_or_default();
                    let text = style::for_terminal(&text::to_text(&reply.payload, self.now()), self.styles, self.width);
                    writeln!(out, "── TwinBee{to}{private}{running}")?;
                    writeln!(out, "{text}")?;
                    if !self.scripted {
                        for saved in save_binary_files(&reply.payload) {
                            writeln!(out, "   saved as {}", saved.display())?;
                        }
                    }
                    writeln!(out)?;
                }
            }
        }
        Ok(())
    }

    /// Runs one parsed line.
    pub async fn step(&mut self, line: &Line, out: &mut impl Write) -> Result<()> {
        match line {
            Line::Command { user, command } => {
                let mut invocation = Invocation {
                    path: command.path.clone(),
                    options: command.options.clone(),
                };
                // A file option is a local path here; the app is given the file's text, as
                // the Discord adapter gives it an attachment's.
                if let Some(spec) = crate::app::spec::get(&command.path.iter().map(String::as_str).collect::<Vec<_>>())
                {
                    for opt in spec.options.iter().filter(|o| o.kind == crate::app::spec::Kind::File) {
                        if let Some(path) = invocation.options.get_mut(opt.name) {
                            match std::fs::read_to_string(path.trim()) {
                                Ok(text) => *path = text,
                                Err(e) => {
                                    writeln!(out, "── TwinBee\nCannot read {}: {e}\n", path.trim())?;
                                    return Ok(());
                                }
                            }
                        }
                    }
                }
                let replies = self.app.command(&Self::caller(user), &invocation, self.now()).await;
                self.show(user, &replies, out)
            }
            Line::Press { user, label } => {
                let pool = self.buttons.get(user).unwrap_or(&self.last_buttons);
                let found = pool
                    .iter()
                    .find(|(l, _)| l.eq_ignore_ascii_case(label))
                    .map(|(_, id)| id.clone());
                let replies = if let Some(custom_id) = found {
                    self.app.press(&Self::caller(user), &custom_id, self.now()).await
                } else {
                    let shown: Vec<String> = pool.iter().map(|(l, _)| format!("[{l}]")).collect();
                    let shown = if shown.is_empty() {
                        "none".to_owned()
                    } else {
                        shown.join(" ")
                    };
                    let text = format!("No [{label}] button here (shown: {shown}).");
                    // Discord has no such button to press: a script that presses one is wrong.
                    if self.scripted {
                        bail!("{text}");
                    }
                    vec![Reply {
                        payload: render::refusal_text(&text),
                        to_user: None,
                        running: None,
                        picture: None,
                    }]
                };
                self.show(user, &replies, out)
            }
            Line::Advance(duration) => {
                let now = self.now() + chrono::Duration::from_std(*duration).context("that advance is too long")?;
                self.clock = Some(now);
                let fired = self.app.timers(now).await;
                let replies: Vec<Reply> = fired.into_iter().map(|(_, r)| r).collect();
                self.show("clock", &replies, out)
            }
        }
    }
}

/// `gogobee play --script FILE`: runs every line; a malformed script is refused before it
/// starts, and a step that cannot run (a button that was not shown) stops it with its line
/// number (refusals from the game are output, not failures).
pub async fn run_script(table: &mut Table, path: &str, out: &mut impl Write) -> Result<()> {
    let source = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    let lines = script::parse(&source).with_context(|| format!("in {path}"))?;
    for (number, line) in &lines {
        table
            .step(line, out)
            .await
            .with_context(|| format!("{path}, line {number}"))?;
    }
    Ok(())
}

impl Table {
    /// The lists completion offers: the autocomplete lists as they stand for `you`, and the
    /// buttons last shown.
    async fn lists(&self) -> prompt::Lists {
        let caller = Self::caller("you");
        let mut names = HashMap::new();
        for list in crate::app::spec::COMMANDS.suggest_lists() {
            names.insert(list, self.app.names(&caller, list, self.now()).await);
        }
        let buttons = self
            .buttons
            .get("you")
            .unwrap_or(&self.last_buttons)
            .iter()
            .map(|(label, _)| label.clone())
            .collect();
        prompt::Lists { names, buttons }
    }
}

/// Interactive play: type `/commands` (as `you`, who has Manage Server), `@name /command` to
/// speak as someone else, `[Label]` to press a button, `help`, `quit` to leave. At a terminal:
/// line editing, history (Up/Down), Tab completion; markdown as styles, lines wrapped.
pub async fn run_interactive(table: &mut Table, seed_note: Option<String>) -> Result<()> {
    let mut out = std::io::stdout();
    // Styles only at a terminal, and not when NO_COLOR asks for none.
    let tty = crate::logging::colours(out.is_terminal());
    table.styles = tty;
    let lists = Arc::new(Mutex::new(table.lists().await));
    let config = rustyline::Config::builder()
        .auto_add_history(true)
        .completion_type(rustyline::CompletionType::List)
        .build();
    let mut editor: rustyline::Editor<prompt::TableHelper, rustyline::history::DefaultHistory> =
        rustyline::Editor::with_config(config).context("starting the line editor")?;
    editor.set_helper(Some(prompt::TableHelper {
        lists: Arc::clone(&lists),
    }));
    let intro = "GogoBee at the table. Try: /character create name:Aria race:elf class:rogue · /expedition start zone:forest · \
                 /expedition advance · /attack · [Opportunity Attack] · /endturn · help · help attack · clear · quit (Tab completes)";
    table.width = editor.dimensions().map(|(w, _)| usize::from(w));
    writeln!(out, "{}", style::for_terminal(intro, tty, table.width))?;
    if let Some(note) = seed_note {
        writeln!(out, "{}", style::for_terminal(&note, tty, table.width))?;
    }
    loop {
        let raw = match editor.readline("› ") {
            Ok(line) => line,
            Err(rustyline::error::ReadlineError::Interrupted) => continue,
            Err(rustyline::error::ReadlineError::Eof) => break,
            Err(e) => return Err(e).context("reading a line"),
        };
        table.width = editor.dimensions().map(|(w, _)| usize::from(w));
        let trimmed = raw.trim();
        if matches!(trimmed, "quit" | "exit") {
            break;
        }
        if trimmed == "clear" {
            if tty {
                // Erase the screen and its scrollback, cursor home.
                write!(out, "\x1b[H\x1b[2J\x1b[3J")?;
            }
            out.flush()?;
            continue;
        }
        if let Some(command) = trimmed.strip_prefix("help ").map(str::trim).filter(|c| !c.is_empty()) {
            let invocation = Invocation {
                path: vec!["guide".into()],
                options: [("command".to_owned(), command.to_owned())].into(),
            };
            let replies = table.app.command(&Table::caller("you"), &invocation, table.now()).await;
            table.show("you", &replies, &mut out)?;
            continue;
        }
        if matches!(trimmed, "help" | "?") {
            let help: Vec<Reply> = crate::app::cmd::help_pages()
                .into_iter()
                .map(|payload| Reply {
                    payload,
                    to_user: None,
                    running: None,
                    picture: None,
                })
                .collect();
            table.show("you", &help, &mut out)?;
            continue;
        }
        if !(trimmed.is_empty() || trimmed.starts_with(['/', '[', '@', '~', '#'])) {
            writeln!(
                out,
                "✗ Type a slash command like /attack, a button like [Pass], help, help attack, clear or quit."
            )?;
            continue;
        }
        let text = if trimmed.starts_with('/') || trimmed.starts_with('[') {
            format!("@you {trimmed}")
        } else {
            raw.clone()
        };
        match script::parse_line(&text) {
            Ok(Some(line)) => table.step(&line, &mut out).await?,
            Ok(None) => {}
            Err(e) => writeln!(out, "✗ {e}")?,
        }
        out.flush()?;
        *lists.lock().expect("completion lists poisoned") = table.lists().await;
    }
    Ok(())
}
