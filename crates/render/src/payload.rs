//! Discord message payloads as serde types that serialise to exactly Discord's JSON (the
//! message-create / interaction-response body: `content`, `embeds`, `components`,
//! `allowed_mentions`, `flags`, `attachments`), and the limits Discord enforces on them.
//!
//! A file sent with a message ([`Attachment`]) is named in the JSON's `attachments` by its
//! index `id`; its bytes travel beside the JSON (Discord: a multipart/form-data body whose
//! `payload_json` part is the JSON and whose `files[<id>]` part is the file).

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Discord's limits on a message (interaction responses: content ≤ 2000).
pub mod limits {
    /// Message content (an interaction response's limit; a bot message allows more).
    pub const CONTENT: usize = 2000;
    pub const EMBEDS: usize = 10;
    pub const TITLE: usize = 256;
    pub const DESCRIPTION: usize = 4096;
    pub const FIELDS: usize = 25;
    pub const FIELD_NAME: usize = 256;
    pub const FIELD_VALUE: usize = 1024;
    pub const FOOTER: usize = 2048;
    /// Title, description, field names and values, and footers of all embeds together.
    pub const EMBED_TOTAL: usize = 6000;
    pub const ACTION_ROWS: usize = 5;
    pub const BUTTONS_PER_ROW: usize = 5;
    pub const BUTTON_LABEL: usize = 80;
    pub const CUSTOM_ID: usize = 100;
    pub const ATTACHMENTS: usize = 10;
    /// The largest upload a bot may send to any server (10 MiB).
    pub const ATTACHMENT_BYTES: usize = 10 * 1024 * 1024;
}

/// The `flags` bit that makes an interaction response visible only to its invoker.
pub const EPHEMERAL: u64 = 1 << 6;

/// A message to send: a channel message, an interaction response's `data`, or an edit.
///
/// `embeds` and `components` are always serialised (an empty list on an edit clears them).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct MessagePayload {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    #[serde(default)]
    pub embeds: Vec<Embed>,
    #[serde(default)]
    pub components: Vec<ActionRow>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_mentions: Option<AllowedMentions>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flags: Option<u64>,
    /// Files sent with the message.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<Attachment>,
}

/// A file sent with a message: `id` (its index among the message's files) and `filename` go
/// in the JSON, the bytes in the multipart body's `files[<id>]` part.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Attachment {
    /// Its index among the message's files; a snowflake-shaped string in the JSON (`"0"`).
    #[serde(with = "index_as_string")]
    pub id: u64,
    pub filename: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The file's bytes (never in the JSON).
    #[serde(skip)]
    pub content: Vec<u8>,
}

/// An attachment's `id` as Discord's JSON has it: a string of digits.
mod index_as_string {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serializer};

    #[allow(clippy::trivially_copy_pass_by_ref)] // serde's `with` passes a reference
    pub fn serialize<S: Serializer>(id: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&id.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(D::Error::custom)
    }
}

impl Attachment {
    /// A text file (UTF-8) to send as the message's `id`-th file.
    pub fn text(id: u64, filename: &str, description: &str, content: String) -> Self {
        Self {
            id,
            filename: filename.to_owned(),
            description: (!description.is_empty()).then(|| description.to_owned()),
            content: content.into_bytes(),
        }
    }

    /// A binary file (a PNG chart) to send as the message's `id`-th file.
    pub fn bytes(id: u64, filename: &str, description: &str, content: Vec<u8>) -> Self {
        Self {
            id,
            filename: filename.to_owned(),
            description: (!description.is_empty()).then(|| description.to_owned()),
            content,
        }
    }

    /// The file as text, when it is UTF-8.
    pub fn text_content(&self) -> Option<&str> {
        std::str::from_utf8(&self.content).ok()
    }
}

/// One rich embed.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Embed {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<EmbedField>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub footer: Option<EmbedFooter>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmbedField {
    pub name: String,
    pub value: String,
    #[serde(default)]
    pub inline: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmbedFooter {
    pub text: String,
}

/// Which mentions in the content may ping: GogoBee never lets names parse as mentions, and
/// lists exactly the users it means to ping.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AllowedMentions {
    /// Always empty: no `@everyone`, role or free-text user pings.
    #[serde(default)]
    pub parse: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub users: Vec<String>,
}

impl AllowedMentions {
    /// Pings nobody.
    pub fn none() -> Self {
        Self::default()
    }

    /// Pings exactly these user ids.
    pub fn users(ids: impl IntoIterator<Item = String>) -> Self {
        let mut users: Vec<String> = Vec::new();
        for id in ids {
            if !users.contains(&id) {
                users.push(id);
            }
        }
        Self {
            parse: Vec::new(),
            users,
        }
    }
}

/// An action row (component type 1) holding up to five buttons.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionRow {
    #[serde(rename = "type")]
    pub kind: RowType,
    pub components: Vec<Button>,
}

/// The `type` of an action row: always 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RowType;

/// The `type` of a button: always 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ButtonType;

macro_rules! fixed_type {
    ($ty:ident, $code:literal, $what:literal) => {
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_u8($code)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                match u8::deserialize(d)? {
                    $code => Ok($ty),
                    other => Err(D::Error::custom(format!(
                        concat!($what, " type must be ", $code, ", not {}"),
                        other
                    ))),
                }
            }
        }
    };
}

fixed_type!(RowType, 1, "action row");
fixed_type!(ButtonType, 2, "button");

impl ActionRow {
    pub fn new(buttons: Vec<Button>) -> Self {
        Self {
            kind: RowType,
            components: buttons,
        }
    }
}

/// A button (component type 2) that sends an interaction with its `custom_id`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Button {
    #[serde(rename = "type")]
    pub kind: ButtonType,
    pub style: ButtonStyle,
    pub label: String,
    pub custom_id: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub disabled: bool,
}

impl Button {
    pub fn new(style: ButtonStyle, label: &str, custom_id: String) -> Self {
        Self {
            kind: ButtonType,
            style,
            label: truncate(label, limits::BUTTON_LABEL),
            custom_id,
            disabled: false,
        }
    }
}

/// Button styles that carry a `custom_id` (link and premium buttons are not used).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ButtonStyle {
    Primary,
    Secondary,
    Success,
    Danger,
}

impl ButtonStyle {
    pub fn code(self) -> u8 {
        match self {
            ButtonStyle::Primary => 1,
            ButtonStyle::Secondary => 2,
            ButtonStyle::Success => 3,
            ButtonStyle::Danger => 4,
        }
    }
}

impl Serialize for ButtonStyle {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.code())
    }
}

impl<'de> Deserialize<'de> for ButtonStyle {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match u8::deserialize(d)? {
            1 => Ok(ButtonStyle::Primary),
            2 => Ok(ButtonStyle::Secondary),
            3 => Ok(ButtonStyle::Success),
            4 => Ok(ButtonStyle::Danger),
            other => Err(D::Error::custom(format!("unsupported button style {other}"))),
        }
    }
}

/// Cuts `text` to at most `max` characters, ending with `…` when cut. Never splits a UTF-8
/// character (counts `char`s, which is at least as strict as Discord's count).
pub fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    if max == 0 {
        return String::new();
    }
    let mut out: String = text.chars().take(max - 1).collect();
    out.push('…');
    out
}

/// Keeps the end of a multi-line `text` within `max` characters, dropping whole lines from the
/// front (the latest narration matters most) and marking the cut with a leading `…`.
pub fn keep_tail_lines(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut kept: Vec<&str> = Vec::new();
    let mut used = 2; // the "…\n" marker
    for line in lines.iter().rev() {
        let cost = line.chars().count() + 1;
        if used + cost > max {
            break;
        }
        used += cost;
        kept.push(line);
    }
    if kept.is_empty() {
        // One enormous line: keep its end.
        let last = lines.last().copied().unwrap_or_default();
        let n = last.chars().count();
        let tail: String = last.chars().skip(n.saturating_sub(max.saturating_sub(1))).collect();
        return format!("…{tail}");
    }
    kept.reverse();
    format!("…\n{}", kept.join("\n"))
}

impl Embed {
    /// Characters that count toward the 6000-character total.
    pub fn char_count(&self) -> usize {
        let len = |s: &Option<String>| s.as_ref().map_or(0, |s| s.chars().count());
        len(&self.title)
            + len(&self.description)
            + self
                .fields
                .iter()
                .map(|f| f.name.chars().count() + f.value.chars().count())
                .sum::<usize>()
            + self.footer.as_ref().map_or(0, |f| f.text.chars().count())
    }

    /// Cuts every part to its own limit.
    fn clamp_parts(&mut self) {
        if let Some(t) = &mut self.title {
            *t = truncate(t, limits::TITLE);
        }
        if let Some(d) = &mut self.description {
            *d = keep_tail_lines(d, limits::DESCRIPTION);
        }
        self.fields.truncate(limits::FIELDS);
        for f in &mut self.fields {
            f.name = truncate(&f.name, limits::FIELD_NAME);
            f.value = truncate(&f.value, limits::FIELD_VALUE);
        }
        if let Some(f) = &mut self.footer {
            f.text = truncate(&f.text, limits::FOOTER);
        }
    }
}

impl MessagePayload {
    /// Makes the message visible only to the user who invoked the interaction.
    pub fn ephemeral(mut self) -> Self {
        self.flags = Some(self.flags.unwrap_or(0) | EPHEMERAL);
        self
    }

    /// The same message with its buttons removed: the edit to send once a prompt is answered
    /// or timed out (an empty `components` list clears them).
    pub fn without_buttons(mut self) -> Self {
        self.components.clear();
        self
    }

    pub fn is_ephemeral(&self) -> bool {
        self.flags.is_some_and(|f| f & EPHEMERAL != 0)
    }

    /// Brings the payload within every Discord limit: cuts content, titles, fields and footers
    /// to size, drops extra embeds, rows and buttons, and shortens descriptions (from the
    /// front, by whole lines) until all embeds total at most 6000 characters.
    pub fn clamp_to_limits(mut self) -> Self {
        if let Some(c) = &mut self.content {
            *c = truncate(c, limits::CONTENT);
        }
        self.embeds.truncate(limits::EMBEDS);
        for e in &mut self.embeds {
            e.clamp_parts();
        }
        let mut total: usize = self.embeds.iter().map(Embed::char_count).sum();
        for e in self.embeds.iter_mut().rev() {
            if total <= limits::EMBED_TOTAL {
                break;
            }
            let over = total - limits::EMBED_TOTAL;
            let before = e.char_count();
            if let Some(d) = &mut e.description {
                let keep = d.chars().count().saturating_sub(over);
                *d = keep_tail_lines(d, keep);
            }
            while e.char_count() > before.saturating_sub(over) && e.fields.pop().is_some() {}
            total = total - before + e.char_count();
        }
        self.components.truncate(limits::ACTION_ROWS);
        for row in &mut self.components {
            row.components.truncate(limits::BUTTONS_PER_ROW);
        }
        self.components.retain(|row| !row.components.is_empty());
        self
    }

    /// Every Discord limit this payload breaks (empty when it may be sent).
    pub fn limit_violations(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut check = |what: &str, len: usize, max: usize| {
            if len > max {
                out.push(format!("{what}: {len} > {max}"));
            }
        };
        let chars = |s: &str| s.chars().count();
        check("content", self.content.as_deref().map_or(0, chars), limits::CONTENT);
        check("embeds", self.embeds.len(), limits::EMBEDS);
        for (i, e) in self.embeds.iter().enumerate() {
            check(
                &format!("embed {i} title"),
                e.title.as_deref().map_or(0, chars),
                limits::TITLE,
            );
            check(
                &format!("embed {i} description"),
                e.description.as_deref().map_or(0, chars),
                limits::DESCRIPTION,
            );
            check(&format!("embed {i} fields"), e.fields.len(), limits::FIELDS);
            for f in &e.fields {
                check(&format!("embed {i} field name"), chars(&f.name), limits::FIELD_NAME);
                check(&format!("embed {i} field value"), chars(&f.value), limits::FIELD_VALUE);
                if f.name.trim().is_empty() || f.value.trim().is_empty() {
                    out_of_band(&mut check, &format!("embed {i} field is blank"));
                }
            }
            check(
                &format!("embed {i} footer"),
                e.footer.as_ref().map_or(0, |f| chars(&f.text)),
                limits::FOOTER,
            );
        }
        check(
            "embeds total",
            self.embeds.iter().map(Embed::char_count).sum(),
            limits::EMBED_TOTAL,
        );
        check("action rows", self.components.len(), limits::ACTION_ROWS);
        for row in &self.components {
            check("buttons in a row", row.components.len(), limits::BUTTONS_PER_ROW);
            if row.components.is_empty() {
                out_of_band(&mut check, "an action row is empty");
            }
            for b in &row.components {
                check("button label", chars(&b.label), limits::BUTTON_LABEL);
                check("custom_id", chars(&b.custom_id), limits::CUSTOM_ID);
                if b.custom_id.is_empty() {
                    out_of_band(&mut check, "a custom_id is empty");
                }
            }
        }
        check("attachments", self.attachments.len(), limits::ATTACHMENTS);
        for (i, a) in self.attachments.iter().enumerate() {
            check("attachment size", a.content.len(), limits::ATTACHMENT_BYTES);
            if a.id != i as u64 {
                out_of_band(&mut check, "attachment ids are not their indexes");
            }
            if a.filename.is_empty() {
                out_of_band(&mut check, "an attachment has no file name");
            }
        }
        let mut ids: Vec<&str> = self
            .components
            .iter()
            .flat_map(|r| r.components.iter().map(|b| b.custom_id.as_str()))
            .collect();
        ids.sort_unstable();
        let n = ids.len();
        ids.dedup();
        if ids.len() != n {
            out.push("custom_ids are not unique".to_owned());
        }
        out
    }
}

/// Records a yes/no rule through the same `check` closure (a length of 1 over a max of 0).
fn out_of_band(check: &mut impl FnMut(&str, usize, usize), what: &str) {
    check(what, 1, 0);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_never_splits_a_character() {
        let s = "ééééé☠☠☠";
        let t = truncate(s, 4);
        assert_eq!(t, "ééé…");
        assert_eq!(truncate("abc", 3), "abc");
        assert_eq!(truncate("abc", 0), "");
    }

    #[test]
    fn tail_lines_keep_the_latest() {
        let text = "one\ntwo\nthree\nfour";
        assert_eq!(keep_tail_lines(text, 12), "…\nfour");
        assert_eq!(keep_tail_lines(text, 100), text);
        assert!(keep_tail_lines(&"☠".repeat(50), 10).chars().count() <= 10);
    }
}
