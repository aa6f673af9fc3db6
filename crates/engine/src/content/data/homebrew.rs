//! A server's homebrew file (docs/homebrew.md) split into its entries, so each monster, item,
//! spell or status can be listed, shown, replaced and removed on its own and the file given
//! back as it was written. Validation is [`super::Content::with_homebrew`]'s; this only cuts a
//! file that loaded at its `[[monster]]` / `[[item]]` / `[[spell]]` / `[[status]]` headers.

use crate::content::id::Id;

/// The kinds a homebrew file may define, as their tables are named.
pub const KINDS: [&str; 4] = ["status", "spell", "item", "monster"];

/// One entry of a homebrew file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// `monster`, `item`, `spell` or `status`.
    pub kind: &'static str,
    pub name: String,
    pub id: Id,
    /// What it takes the place of (`replaces = "goblin"`), if anything.
    pub replaces: Option<String>,
    /// Its text: the header line and everything up to the next entry (comments included), its
    /// trailing blank lines left out.
    pub text: String,
}

/// The entries of `text`, a homebrew file that loaded, in file order. Text before the first
/// entry (a file's opening comments) belongs to none.
pub fn entries(text: &str) -> Vec<Entry> {
    let mut chunks: Vec<(&'static str, String)> = Vec::new();
    for line in text.split_inclusive('\n') {
        let header = line
            .trim()
            .strip_prefix("[[")
            .and_then(|l| l.split("]]").next())
            .map(str::trim);
        match header.and_then(|h| KINDS.iter().find(|k| **k == h)) {
            Some(kind) => chunks.push((kind, line.to_owned())),
            None => {
                if let Some((_, chunk)) = chunks.last_mut() {
                    chunk.push_str(line);
                }
            }
        }
    }
    chunks
        .into_iter()
        .filter_map(|(kind, text)| {
            let table: toml::Table = toml::from_str(&text).ok()?;
            let entry = table.get(kind)?.as_array()?.first()?.as_table()?;
            let name = entry.get("name")?.as_str()?.trim().to_owned();
            let replaces = entry.get("replaces").and_then(|r| r.as_str()).map(str::to_owned);
            Some(Entry {
                kind,
                id: Id::new(&name)?,
                name,
                replaces,
                text: format!("{}\n", text.trim_end()),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_cut_at_its_entries() {
        let text = "# My monsters\n\n[[monster]]\nname = \"Orc Chief\"\nreplaces = \"orc\"\n\
                    [[monster.attacks]]\nname = \"Axe\"\n\n[[spell]] # a spell\nname = \"Zap\"\n";
        let found = entries(text);
        assert_eq!(
            found
                .iter()
                .map(|e| (e.kind, e.name.as_str(), e.id.as_str()))
                .collect::<Vec<_>>(),
            [("monster", "Orc Chief", "orcchief"), ("spell", "Zap", "zap")]
        );
        assert_eq!(found[0].replaces.as_deref(), Some("orc"));
        assert!(found[0].text.contains("[[monster.attacks]]"));
        assert_eq!(found[1].text, "[[spell]] # a spell\nname = \"Zap\"\n");
        assert!(found[0].text.ends_with("name = \"Axe\"\n"), "no trailing blank line");
    }
}
