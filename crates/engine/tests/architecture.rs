//! ARCHITECTURE "The shared rules never import a timing model": no engine source outside
//! `timing/` names a model module (`timing::gogobee`, `tdgs`, `ctb`, `ticks`); they ask the
//! `TimingModel` trait. The tick timeline's own reactions (`reactions/cancel.rs`,
//! `reactions/exploit.rs`) are the one exception the architecture names. And "The fight's state
//! is below its rules": nothing under `state/` names a rule module.

use std::fs;
use std::path::{Path, PathBuf};

const MODELS: [&str; 4] = ["gogobee", "tdgs", "ctb", "ticks"];
const TIMELINE_REACTIONS: [&str; 2] = ["reactions/cancel.rs", "reactions/exploit.rs"];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("readable source dir") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn shared_rules_never_name_a_timing_model() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    assert!(files.len() > 30, "found the engine's sources");
    let mut offenders = Vec::new();
    for file in files {
        let rel = file
            .strip_prefix(&src)
            .expect("under src")
            .to_string_lossy()
            .replace('\\', "/");
        if rel.starts_with("timing/") || TIMELINE_REACTIONS.contains(&rel.as_str()) {
            continue;
        }
        let text = fs::read_to_string(&file).expect("readable source");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for model in MODELS {
                if code.contains(&format!("timing::{model}")) {
                    offenders.push(format!("{rel}:{}: {}", n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "shared rules naming a timing model:\n{}",
        offenders.join("\n")
    );
}

/// ARCHITECTURE "The fight's state is below its rules": a file under `state/` names no module of
/// the crate but `state`, `content` (what a sheet is copied from) and `dice`, outside its tests.
#[test]
fn the_fights_state_names_no_rule_module() {
    const BELOW: [&str; 3] = ["state", "content", "dice"];
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src.join("state"), &mut files);
    assert!(files.len() > 10, "found the state's sources");
    let mut offenders = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).expect("readable source");
        // A file's tests (its `#[cfg(test)]` module, last) may drive the rules.
        let body = text.split("#[cfg(test)]").next().unwrap_or("");
        for (n, line) in body.lines().enumerate() {
            let mut code = line.split("//").next().unwrap_or("");
            while let Some(at) = code.find("crate::") {
                code = &code[at + "crate::".len()..];
                let module: String = code.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if !BELOW.contains(&module.as_str()) {
                    offenders.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "state naming a rule module:\n{}",
        offenders.join("\n")
    );
}
