//! ARCHITECTURE "The shared rules never import a timing model": no engine source outside
//! `timing/` names a model module (`timing::gogobee`, `tdgs`, `ctb`, `ticks`); they ask the
//! `TimingModel` trait. The tick timeline's own reactions (`reactions/cancel.rs`,
//! `reactions/exploit.rs`) are the one exception the architecture names.

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
