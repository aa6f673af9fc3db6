//! The table's text at a terminal: Discord's markdown (`**bold**`, `` `code` ``, `~~struck~~`)
//! as terminal styles, HP bars coloured by health, and lines wrapped at word boundaries to the
//! terminal's width. Off a terminal (a pipe, a file, a script's snapshot) the text stays as
//! Discord gets it.

use unicode_width::UnicodeWidthStr;

const BOLD: &str = "\x1b[1m";
const NO_BOLD: &str = "\x1b[22m";
const CODE: &str = "\x1b[36m";
const STRIKE: &str = "\x1b[9m";
const NO_STRIKE: &str = "\x1b[29m";
const GREEN: &str = "\x1b[32m";
const YELLOW: &str = "\x1b[33m";
const RED: &str = "\x1b[31m";
const NO_COLOUR: &str = "\x1b[39m";

/// The colour of an HP bar's code span (`` `██████░░░░ 6/10` ``): green above half, yellow above
/// a quarter, red at a quarter or less; `None` for code that is not an HP bar.
fn bar_colour(code: &str) -> Option<&'static str> {
    if !code.contains(['█', '░']) {
        return None;
    }
    let (hp, max) = code.rsplit_once(' ')?.1.split_once('/')?;
    let (hp, max): (i64, i64) = (hp.trim().parse().ok()?, max.trim().parse().ok()?);
    if max <= 0 {
        return None;
    }
    Some(if hp * 2 > max {
        GREEN
    } else if hp * 4 > max {
        YELLOW
    } else {
        RED
    })
}

/// One line of Discord markdown as terminal styles (markers removed).
pub fn styled(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 16);
    let (mut bold, mut strike) = (false, false);
    let mut rest = line;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("**") {
            bold = !bold;
            out.push_str(if bold { BOLD } else { NO_BOLD });
            rest = after;
        } else if let Some(after) = rest.strip_prefix("~~") {
            strike = !strike;
            out.push_str(if strike { STRIKE } else { NO_STRIKE });
            rest = after;
        } else if let Some(after) = rest.strip_prefix('`')
            && let Some(end) = after.find('`')
        {
            let code = &after[..end];
            out.push_str(bar_colour(code).unwrap_or(CODE));
            out.push_str(code);
            out.push_str(NO_COLOUR);
            rest = &after[end + 1..];
        } else {
            let ch = rest.chars().next().expect("not empty");
            out.push(ch);
            rest = &rest[ch.len_utf8()..];
        }
    }
    if bold {
        out.push_str(NO_BOLD);
    }
    if strike {
        out.push_str(NO_STRIKE);
    }
    out
}

/// How wide a line shows, ANSI escapes not counted.
fn visible_width(text: &str) -> usize {
    let mut plain = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for e in chars.by_ref() {
                if e.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            plain.push(c);
        }
    }
    plain.width()
}

/// Wraps one line at word boundaries to `width` columns; continuation lines keep the line's
/// margin (`┃ `, indentation), so an embed stays an embed. A word longer than the width is
/// left whole rather than broken.
pub fn wrap(line: &str, width: usize) -> Vec<String> {
    if width == 0 || visible_width(line) <= width {
        return vec![line.to_owned()];
    }
    let margin_len = line
        .char_indices()
        .find(|&(_, c)| !(c == '┃' || c == ' '))
        .map_or(line.len(), |(i, _)| i);
    let margin = &line[..margin_len];
    let margin_width = visible_width(margin);
    let mut lines = Vec::new();
    let mut current = margin.to_owned();
    let mut current_width = margin_width;
    for word in line[margin_len..].split(' ') {
        let w = visible_width(word);
        let starting = current_width == margin_width;
        if !starting && current_width + 1 + w > width {
            lines.push(std::mem::replace(&mut current, margin.to_owned()));
            current_width = margin_width;
        }
        if current_width > margin_width {
            current.push(' ');
            current_width += 1;
        }
        current.push_str(word);
        current_width += w;
    }
    lines.push(current);
    lines
}

/// A message's text for the terminal: styled when `styles`, wrapped when `width` is known.
pub fn for_terminal(text: &str, styles: bool, width: Option<usize>) -> String {
    text.lines()
        .flat_map(|line| {
            let line = if styles { styled(line) } else { line.to_owned() };
            match width {
                Some(width) => wrap(&line, width),
                None => vec![line],
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_becomes_styles_without_its_markers() {
        assert_eq!(styled("**Aria** hits"), "\x1b[1mAria\x1b[22m hits");
        assert_eq!(styled("`6 vs AC 15`"), "\x1b[36m6 vs AC 15\x1b[39m");
        assert_eq!(styled("~~Aria~~ dead"), "\x1b[9mAria\x1b[29m dead");
        assert_eq!(styled("a lone ` stays"), "a lone ` stays");
    }

    #[test]
    fn hp_bars_are_coloured_by_health() {
        assert_eq!(bar_colour("██████████ 38/38"), Some(GREEN));
        assert_eq!(bar_colour("█████░░░░░ 5/10"), Some(YELLOW));
        assert_eq!(bar_colour("██░░░░░░░░ 2/10"), Some(RED));
        assert_eq!(bar_colour("░░░░░░░░░░ 0/12"), Some(RED));
        assert_eq!(bar_colour("15 vs AC 15"), None);
    }

    #[test]
    fn long_lines_wrap_at_words_and_keep_their_margin() {
        let line = "┃ Everyone moves at once, and some move faster.";
        let wrapped = wrap(line, 20);
        assert_eq!(wrapped, ["┃ Everyone moves at", "┃ once, and some", "┃ move faster."]);
        assert!(wrapped.iter().all(|l| l.width() <= 20));
        // Escapes take no columns.
        let bold = styled("**Aria** waits, ready to attack");
        assert_eq!(wrap(&bold, 16).len(), 2);
        assert_eq!(wrap("short", 80), ["short"]);
        assert_eq!(wrap("unbreakableword", 5), ["unbreakableword"]);
    }
}
