//! The scripted-session format of `gogobee play --script` (DESIGN "Script format"): one line per
//! step — a slash command from a user, a button press, or a clock advance.

use std::collections::BTreeMap;
use std::time::Duration;

use anyhow::{Result, bail};

/// One slash command as a user typed it: `/character create name:Aria race:elf`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlashCommand {
    /// Command and subcommand names: `["character", "create"]`.
    pub path: Vec<String>,
    /// Options by name; values unquoted.
    pub options: BTreeMap<String, String>,
}

/// One line of a script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// `@user /command options…`
    Command { user: String, command: SlashCommand },
    /// `@user [Label]`: press the button with this label on the last message shown to `user`.
    Press { user: String, label: String },
    /// `~ 30s`: advance the virtual clock.
    Advance(Duration),
}

/// Removes a `#` comment that is not inside double quotes.
fn strip_comment(line: &str) -> &str {
    let mut quoted = false;
    for (i, ch) in line.char_indices() {
        match ch {
            '"' => quoted = !quoted,
            '#' if !quoted => return &line[..i],
            _ => {}
        }
    }
    line
}

/// Splits into words, keeping `"quoted strings"` (with their key prefix) together.
fn words(text: &str) -> Result<Vec<String>> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    for ch in text.chars() {
        match ch {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                }
            }
            c => current.push(c),
        }
    }
    if quoted {
        bail!("a quote is never closed");
    }
    if !current.is_empty() {
        out.push(current);
    }
    Ok(out)
}

/// Parses the text after `/`: names, then `key:value` options. A word that is not an option
/// continues the previous option's value, so `/ready action:attack when the goblin moves` works.
pub fn parse_command(text: &str) -> Result<SlashCommand> {
    let mut path = Vec::new();
    let mut options: BTreeMap<String, String> = BTreeMap::new();
    let mut last: Option<String> = None;
    for word in words(text)? {
        match word.split_once(':') {
            Some((key, value)) if !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
                let key = key.to_lowercase();
                options.insert(key.clone(), value.to_owned());
                last = Some(key);
            }
            _ => match &last {
                Some(key) => {
                    let value = options.get_mut(key).expect("the last option exists");
                    if !value.is_empty() {
                        value.push(' ');
                    }
                    value.push_str(&word);
                }
                None => path.push(word.to_lowercase()),
            },
        }
    }
    if path.is_empty() {
        bail!("a slash command needs a name, like /attack");
    }
    Ok(SlashCommand { path, options })
}

/// Parses `30s`, `5m`, `2h`, `1d`, or combinations like `1h30m`.
pub fn parse_duration(text: &str) -> Result<Duration> {
    let text = text.trim();
    if text.is_empty() {
        bail!("say how long, like ~ 30s or ~ 2h");
    }
    let mut total = 0u64;
    let mut number = String::new();
    for ch in text.chars() {
        if ch.is_ascii_digit() {
            number.push(ch);
            continue;
        }
        let unit = match ch {
            's' => 1,
            'm' => 60,
            'h' => 3_600,
            'd' => 86_400,
            ' ' => continue,
            other => bail!("\"{other}\" is not a time unit (s, m, h, d)"),
        };
        let n: u64 = number
            .parse()
            .map_err(|_| anyhow::anyhow!("\"{text}\": a number must come before each unit"))?;
        total += n * unit;
        number.clear();
    }
    if !number.is_empty() {
        bail!("\"{text}\": give a unit (s, m, h or d) after {number}");
    }
    Ok(Duration::from_secs(total))
}

/// Parses one line; `None` for blank lines and comments.
pub fn parse_line(raw: &str) -> Result<Option<Line>> {
    let line = strip_comment(raw).trim();
    if line.is_empty() {
        return Ok(None);
    }
    if let Some(rest) = line.strip_prefix('~') {
        return Ok(Some(Line::Advance(parse_duration(rest)?)));
    }
    let Some(rest) = line.strip_prefix('@') else {
        bail!("a line starts with @user, ~ (advance the clock) or # (a comment)");
    };
    let (user, rest) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    if user.is_empty() {
        bail!("name the user after @");
    }
    let rest = rest.trim();
    if let Some(label) = rest.strip_prefix('[') {
        let Some(label) = label.strip_suffix(']') else {
            bail!("a button press is written [Label]")
        };
        return Ok(Some(Line::Press {
            user: user.to_owned(),
            label: label.trim().to_owned(),
        }));
    }
    let Some(command) = rest.strip_prefix('/') else {
        bail!("after @{user} comes a /command or a [Button]");
    };
    Ok(Some(Line::Command {
        user: user.to_owned(),
        command: parse_command(command)?,
    }))
}

/// Parses a whole script, naming the line of the first error.
pub fn parse(script: &str) -> Result<Vec<(usize, Line)>> {
    let mut lines = Vec::new();
    for (i, raw) in script.lines().enumerate() {
        match parse_line(raw) {
            Ok(Some(line)) => lines.push((i + 1, line)),
            Ok(None) => {}
            Err(e) => bail!("line {}: {e}", i + 1),
        }
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(user: &str, path: &[&str], options: &[(&str, &str)]) -> Line {
        Line::Command {
            user: user.into(),
            command: SlashCommand {
                path: path.iter().map(|s| (*s).to_owned()).collect(),
                options: options
                    .iter()
                    .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                    .collect(),
            },
        }
    }

    #[test]
    fn the_design_example_parses() {
        let script = r#"
# a comment
@owner /campaign rules ruleset:gogobee
@alice /character create name:Aria race:elf class:rogue
@alice /attack target:"Goblin 1"
@bob [Opportunity Attack]        # press a button on the last message shown to bob
~ 30s                            # advance the virtual clock
"#;
        let lines: Vec<Line> = parse(script).unwrap().into_iter().map(|(_, l)| l).collect();
        assert_eq!(
            lines,
            vec![
                command("owner", &["campaign", "rules"], &[("ruleset", "gogobee")]),
                command(
                    "alice",
                    &["character", "create"],
                    &[("name", "Aria"), ("race", "elf"), ("class", "rogue")]
                ),
                command("alice", &["attack"], &[("target", "Goblin 1")]),
                Line::Press {
                    user: "bob".into(),
                    label: "Opportunity Attack".into()
                },
                Line::Advance(Duration::from_secs(30)),
            ]
        );
    }

    #[test]
    fn free_text_continues_the_previous_option() {
        let line = parse_line("@alice /ready action:attack when the goblin moves into melee range")
            .unwrap()
            .unwrap();
        assert_eq!(
            line,
            command(
                "alice",
                &["ready"],
                &[("action", "attack when the goblin moves into melee range")]
            )
        );
    }

    #[test]
    fn durations_combine_units() {
        assert_eq!(parse_duration("2h").unwrap(), Duration::from_hours(2));
        assert_eq!(parse_duration("1h30m").unwrap(), Duration::from_mins(90));
        assert!(parse_duration("").is_err());
        assert!(parse_duration("10").is_err());
        assert!(parse_duration("3 weeks").is_err());
    }

    #[test]
    fn malformed_lines_are_refused_with_their_line_number() {
        for bad in [
            "alice /attack",
            "@ /attack",
            "@alice attack",
            "@alice [Pass",
            "@alice /attack target:\"Goblin 1",
            "~",
        ] {
            assert!(parse_line(bad).is_err(), "{bad}");
        }
        let err = parse("@alice /attack\nnonsense").unwrap_err();
        assert!(err.to_string().starts_with("line 2:"), "{err}");
    }
}
