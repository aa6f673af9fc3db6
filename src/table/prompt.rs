//! The interactive table's prompt: rustyline's line editing and history, and tab completion of
//! commands, subcommands, options and option values from the commands' specs and the same lists
//! Discord's autocomplete draws from, plus the buttons last shown.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rustyline::completion::Completer;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Context, Helper};

use crate::app::Suggest;
use crate::app::spec::{self, Kind};

/// What completion offers beyond the specs: each autocomplete list as it stands, and the
/// labels of the buttons last shown.
#[derive(Debug, Clone, Default)]
pub struct Lists {
    pub names: HashMap<Suggest, Vec<String>>,
    pub buttons: Vec<String>,
}

/// Where the word being typed starts (a space inside quotes does not end a word).
fn word_start(text: &str) -> usize {
    let mut quoted = false;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => start = i + 1,
            _ => {}
        }
    }
    start
}

/// The candidates that start with `partial` (case-insensitive), or if none does, those that
/// contain it (as Discord's autocomplete matches).
fn matching<'a>(candidates: impl IntoIterator<Item = &'a str>, partial: &str) -> Vec<&'a str> {
    let partial = partial.to_lowercase();
    let mut starts: Vec<&str> = Vec::new();
    let mut contains: Vec<&str> = Vec::new();
    for c in candidates {
        let lower = c.to_lowercase();
        if lower.starts_with(&partial) {
            starts.push(c);
        } else if lower.contains(&partial) {
            contains.push(c);
        }
    }
    if starts.is_empty() { contains } else { starts }
}

/// The completions of `line` up to `pos`: where the replaced text starts, and the candidates.
pub fn complete(line: &str, pos: usize, lists: &Lists) -> (usize, Vec<String>) {
    let text = &line[..pos];
    // `@name ` speaks as someone else; what follows is completed the same way.
    let body_at = if text.starts_with('@') {
        match text.find(' ') {
            Some(i) => i + 1,
            None => return (pos, Vec::new()),
        }
    } else {
        0
    };
    let body = &text[body_at..];
    let trimmed = body.trim_start();
    let lead = body_at + (body.len() - trimmed.len());
    if let Some(partial) = trimmed.strip_prefix('[') {
        let partial = partial.to_lowercase();
        let labels = lists.buttons.iter().filter(|l| l.to_lowercase().starts_with(&partial));
        return (lead, labels.map(|l| format!("[{l}]")).collect());
    }
    let start = word_start(text).max(lead);
    let word = &text[start..];
    let before: Vec<&str> = text[lead..start].split_whitespace().collect();
    let Some(first) = before.first() else {
        // The first word: a command, or one of the table's own words.
        let mut candidates: Vec<String> = if body_at == 0 {
            matching(["clear", "help", "quit"], word)
                .into_iter()
                .map(str::to_owned)
                .collect()
        } else {
            Vec::new()
        };
        let names: Vec<String> = spec::names().into_iter().map(|n| format!("/{n}")).collect();
        candidates.extend(
            matching(names.iter().map(String::as_str), word)
                .into_iter()
                .filter(|n| n.starts_with(word))
                .map(|n| format!("{n} ")),
        );
        return (start, candidates);
    };
    let Some(name) = first.strip_prefix('/') else {
        return (pos, Vec::new());
    };
    let subs = spec::subcommands(name);
    let sub = before.get(1).filter(|s| !s.contains(':')).copied();
    if !subs.is_empty() && sub.is_none() {
        if word.contains(':') {
            return (pos, Vec::new());
        }
        let subs = matching(subs, word).into_iter().filter(|s| s.starts_with(word));
        return (start, subs.map(|s| format!("{s} ")).collect());
    }
    let path: Vec<&str> = std::iter::once(name).chain(sub).collect();
    let Some(spec) = spec::get(&path) else {
        return (pos, Vec::new());
    };
    if let Some((key, partial)) = word.split_once(':') {
        let Some(opt) = spec.option(key) else {
            return (pos, Vec::new());
        };
        let partial = partial.trim_start_matches('"');
        let values: Vec<String> = match (opt.kind, opt.suggest) {
            (Kind::Choice(choices), _) => choices.iter().map(|c| (*c).to_owned()).collect(),
            (_, Some(list)) => lists.names.get(&list).cloned().unwrap_or_default(),
            _ => Vec::new(),
        };
        let found = matching(values.iter().map(String::as_str), partial);
        let quoted = |v: &str| {
            if v.contains(' ') {
                format!("{key}:\"{v}\" ")
            } else {
                format!("{key}:{v} ")
            }
        };
        return (start, found.into_iter().map(quoted).collect());
    }
    let given: Vec<&str> = before
        .iter()
        .filter_map(|w| w.split_once(':').map(|(k, _)| k))
        .collect();
    let options = spec.options.iter().map(|o| o.name).filter(|n| !given.contains(n));
    let options = matching(options, word).into_iter().filter(|o| o.starts_with(word));
    (start, options.map(|o| format!("{o}:")).collect())
}

/// The rustyline helper: completion from the shared lists.
pub struct TableHelper {
    pub lists: Arc<Mutex<Lists>>,
}

impl Completer for TableHelper {
    type Candidate = String;

    fn complete(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> rustyline::Result<(usize, Vec<String>)> {
        let lists = self.lists.lock().expect("completion lists poisoned");
        Ok(complete(line, pos, &lists))
    }
}

impl Hinter for TableHelper {
    type Hint = String;
}

impl Highlighter for TableHelper {}

impl Validator for TableHelper {}

impl Helper for TableHelper {}

#[cfg(test)]
mod tests {
    use super::*;

    fn lists() -> Lists {
        let mut names = HashMap::new();
        names.insert(
            Suggest::Target,
            vec!["Aria".to_owned(), "Goblin 1".to_owned(), "Goblin 2".to_owned()],
        );
        names.insert(Suggest::Other, vec!["Goblin 1".to_owned(), "Goblin 2".to_owned()]);
        names.insert(
            Suggest::Zone,
            vec!["Forest of Shadows".to_owned(), "Sunken Crypt".to_owned()],
        );
        Lists {
            names,
            buttons: vec!["Opportunity Attack".to_owned(), "Pass".to_owned()],
        }
    }

    fn done(line: &str) -> (usize, Vec<String>) {
        complete(line, line.len(), &lists())
    }

    #[test]
    fn commands_subcommands_and_options_complete() {
        assert_eq!(done("/att"), (0, vec!["/attack ".to_owned()]));
        assert_eq!(done("/character cr"), (11, vec!["create ".to_owned()]));
        assert_eq!(done("/character create na"), (18, vec!["name:".to_owned()]));
        // Options already given are not offered again.
        assert_eq!(done("/cast spell:x "), (14, vec!["target:".to_owned()]));
        assert_eq!(done("he").1, ["help"]);
    }

    #[test]
    fn values_come_from_the_autocomplete_lists_and_the_choices() {
        assert_eq!(
            done("/attack target:gob"),
            (
                8,
                vec!["target:\"Goblin 1\" ".to_owned(), "target:\"Goblin 2\" ".to_owned()]
            )
        );
        assert_eq!(done("/campaign rules ruleset:t").1, ["ruleset:tdgs ", "ruleset:ticks "]);
        assert_eq!(done("/campaign rules ruleset:cb").1, Vec::<String>::new());
        assert_eq!(
            done("/move melee target:lin").1,
            ["target:\"Goblin 1\" ", "target:\"Goblin 2\" "]
        );
        assert_eq!(done("/expedition start zone:for").1, ["zone:\"Forest of Shadows\" "]);
        assert_eq!(done("@bob /move melee target:\"Gob").1.len(), 2);
    }

    #[test]
    fn buttons_complete_from_the_last_shown() {
        assert_eq!(done("[opp"), (0, vec!["[Opportunity Attack]".to_owned()]));
        assert_eq!(done("@bob [P"), (5, vec!["[Pass]".to_owned()]));
    }
}
