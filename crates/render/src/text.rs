//! Small text helpers: Discord markdown escaping and name styling.

/// Escapes Discord markdown in user-supplied text (names, item lists) so it shows as typed.
pub fn escape_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        if matches!(ch, '\\' | '*' | '_' | '~' | '`' | '|' | '>' | '#' | '[' | ']') {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}

/// A name as narration shows it: bold, with its markdown escaped.
pub fn bold_name(name: &str) -> String {
    format!("**{}**", escape_markdown(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_in_names_is_escaped() {
        assert_eq!(escape_markdown("*Sneaky_Pete*"), "\\*Sneaky\\_Pete\\*");
        assert_eq!(bold_name("Aria"), "**Aria**");
    }
}
