//! Shows a Discord message payload as plain text at the terminal table: the same message the
//! bot would send, minus the pixels.

use render::payload::MessagePayload;

/// The payload as lines of text: content, each embed's title, description and fields, the
/// buttons as `[Label]` (what a script presses), and each attached file, named, in full.
pub fn to_text(payload: &MessagePayload, now: chrono::DateTime<chrono::Utc>) -> String {
    let lines = to_lines(payload);
    lines
        .iter()
        .map(|l| plain_markup(l, now))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Discord's own markup a terminal cannot show, as words: a timestamp tag (`<t:1767232800:t>`)
/// as the UTC time it stands for, a relative one (`:R`) as the time from `now` (`in 2 h 5 min`),
/// and small print (`-# …`) as the plain line.
fn plain_markup(line: &str, now: chrono::DateTime<chrono::Utc>) -> String {
    let (margin, rest) = line.split_at(line.len() - line.trim_start_matches(['┃', '│', ' ']).len());
    let rest = rest.strip_prefix("-# ").unwrap_or(rest);
    let mut out = String::from(margin);
    let mut rest = rest;
    while let Some(at) = rest.find("<t:") {
        out.push_str(&rest[..at]);
        let tag = &rest[at + 3..];
        let digits = tag.len() - tag.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let style_len = match &tag.as_bytes()[digits..] {
            [b':', _, b'>', ..] => 3,
            [b'>', ..] => 1,
            _ => 0,
        };
        let when = tag[..digits]
            .parse::<i64>()
            .ok()
            .and_then(|s| chrono::DateTime::from_timestamp(s, 0));
        match (when, style_len) {
            (Some(when), 3) if tag.as_bytes()[digits + 1] == b'R' => {
                out.push_str(&relative(when - now));
                rest = &tag[digits + style_len..];
            }
            (Some(when), 1 | 3) => {
                out.push_str(&when.format("%H:%M UTC, %-d %b %Y").to_string());
                rest = &tag[digits + style_len..];
            }
            _ => {
                out.push_str("<t:");
                rest = tag;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `in 2 h 5 min`, `3 min ago`, `now`: the largest two units of a span.
fn relative(span: chrono::TimeDelta) -> String {
    let secs = span.num_seconds();
    let (d, h, m) = (secs.abs() / 86_400, secs.abs() / 3600 % 24, secs.abs() / 60 % 60);
    let words = match (d, h, m) {
        (0, 0, 0) => return "now".to_owned(),
        (0, 0, m) => format!("{m} min"),
        (0, h, 0) => format!("{h} h"),
        (0, h, m) => format!("{h} h {m} min"),
        (d, 0, _) => format!("{d} d"),
        (d, h, _) => format!("{d} d {h} h"),
    };
    if secs > 0 {
        format!("in {words}")
    } else {
        format!("{words} ago")
    }
}

fn to_lines(payload: &MessagePayload) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(content) = payload.content.as_deref().filter(|c| !c.is_empty()) {
        out.push(content.to_owned());
    }
    for embed in &payload.embeds {
        if let Some(title) = &embed.title {
            out.push(format!("┃ {title}"));
        }
        if let Some(description) = &embed.description {
            out.extend(description.lines().map(|l| format!("┃ {l}")));
        }
        for field in &embed.fields {
            out.push(format!("┃ {}", field.name));
            out.extend(field.value.lines().map(|l| format!("┃   {l}")));
        }
        if let Some(footer) = &embed.footer {
            out.push(format!("┃ — {}", footer.text));
        }
    }
    let buttons: Vec<String> = payload
        .components
        .iter()
        .flat_map(|row| row.components.iter())
        .filter(|b| !b.disabled)
        .map(|b| format!("[{}]", b.label))
        .collect();
    if !buttons.is_empty() {
        out.push(buttons.join(" "));
    }
    for file in &payload.attachments {
        match file.text_content() {
            Some(text) => {
                out.push(format!("📎 {}", file.filename));
                out.extend(text.lines().map(|l| format!("│ {l}")));
            }
            None => out.push(format!("📎 {} ({})", file.filename, kind_of(&file.filename))),
        }
    }
    out
}

/// What a binary file is, by its name.
fn kind_of(filename: &str) -> &'static str {
    let png = std::path::Path::new(filename)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    if png { "a PNG image" } else { "a binary file" }
}

#[cfg(test)]
mod tests {
    use super::plain_markup;

    #[test]
    fn discords_timestamps_and_small_print_read_as_words_at_the_table() {
        let now = chrono::DateTime::from_timestamp(1_767_232_800 - 7_500, 0).unwrap();
        let plain = |line: &str| plain_markup(line, now);
        assert_eq!(
            plain("Aria rests until <t:1767232800:t> (<t:1767232800:R>) — then home."),
            "Aria rests until 02:00 UTC, 1 Jan 2026 (in 2 h 5 min) — then home."
        );
        assert_eq!(plain("done <t:1767225000:R>"), "done 5 min ago");
        assert_eq!(plain("┃ -# easy: wins ≥ 98%"), "┃ easy: wins ≥ 98%");
        assert_eq!(plain("a <t:broken and <t:5"), "a <t:broken and <t:5");
        assert_eq!(plain("<t:0>"), "00:00 UTC, 1 Jan 1970");
    }
}
