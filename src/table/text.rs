//! Shows a Discord message payload as plain text at the terminal table: the same message the
//! bot would send, minus the pixels.

use render::payload::MessagePayload;

/// The payload as lines of text: content, each embed's title, description and fields, the
/// buttons as `[Label]` (what a script presses), and each attached file, named, in full.
pub fn to_text(payload: &MessagePayload) -> String {
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
    out.join("\n")
}

/// What a binary file is, by its name.
fn kind_of(filename: &str) -> &'static str {
    let png = std::path::Path::new(filename)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    if png { "a PNG image" } else { "a binary file" }
}
