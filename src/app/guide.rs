//! The guide: every command, grouped as a newcomer meets them, one line and an example each —
//! what `/guide`, `/help` with no ally and the table's `help` show. `/help ally:<name>` stays
//! the seed's Help action. The groups, lines and examples are the commands' declaration
//! ([`super::spec`]), so the guide never leaves one out.

use render::MessagePayload;

use super::spec::{COMMANDS, Commands, Spec};

/// The most characters of guide text in one message (Discord allows 6,000 over its embeds).
const PAGE_BUDGET: usize = 5_000;

fn line(spec: &Spec) -> String {
    let example = spec.example_line();
    let gm = if spec.gm && !["/gm", "/campaign", "/homebrew"].iter().any(|p| example.starts_with(p)) {
        " (Manage Server)"
    } else {
        ""
    };
    format!("`{example}` — {}{gm}", spec.about)
}

/// Each group's title and lines, for the game's commands.
pub fn groups() -> Vec<(String, Vec<String>)> {
    groups_of(COMMANDS)
}

/// Each group's title and lines: every command of `commands` exactly once.
pub fn groups_of(commands: Commands) -> Vec<(String, Vec<String>)> {
    commands
        .sections
        .iter()
        .map(|section| (section.title.to_owned(), section.commands.iter().map(line).collect()))
        .collect()
}

/// The guide as messages: one embed per group, as many groups to a message as fit.
pub fn pages() -> Vec<MessagePayload> {
    let mut pages: Vec<MessagePayload> = Vec::new();
    let mut current: Option<MessagePayload> = None;
    let mut used = 0;
    let groups = groups();
    let last = groups.len().saturating_sub(1);
    for (i, (title, mut lines)) in groups.into_iter().enumerate() {
        if i == last {
            lines.push(
                "At the table: `[Label]` presses a button, `@name /command` speaks as someone else, `quit` leaves."
                    .to_owned(),
            );
        }
        let body = lines.join("\n");
        let size = title.chars().count() + body.chars().count();
        let embed = render::info(&title, &body).embeds.remove(0);
        match current.as_mut() {
            Some(page) if used + size <= PAGE_BUDGET && page.embeds.len() < 10 => {
                page.embeds.push(embed);
                used += size;
            }
            _ => {
                pages.extend(current.take());
                let mut page = render::info("", "");
                page.embeds = vec![embed];
                current = Some(page);
                used = size;
            }
        }
    }
    pages.extend(current);
    pages.into_iter().map(MessagePayload::ephemeral).collect()
}

/// One command in full (`attack`, `/move melee`), or every subcommand of one (`move`): its
/// description, each option with its shape and whether it is needed, and its example. Refused
/// with the command names when `words` names none.
pub fn command_page(words: &str) -> Result<MessagePayload, String> {
    let words: Vec<String> = words
        .trim()
        .trim_start_matches('/')
        .split_whitespace()
        .map(str::to_lowercase)
        .collect();
    let specs: Vec<&Spec> = COMMANDS
        .all()
        .filter(|spec| {
            !words.is_empty() && spec.path.iter().zip(&words).all(|(p, w)| p == w) && spec.path.len() >= words.len()
        })
        .collect();
    if specs.is_empty() {
        let names: Vec<String> = COMMANDS.names().iter().map(|n| format!("`{n}`")).collect();
        return Err(format!(
            "There is no /{} — the guide has {}.",
            words.join(" "),
            names.join(", ")
        ));
    }
    let mut embeds = Vec::new();
    for spec in specs.iter().take(10) {
        let mut lines = vec![format!("{}.", capitalised(spec.about))];
        if spec.gm {
            lines.push("Needs the Manage Server permission.".to_owned());
        }
        for o in spec.options {
            let need = if o.required { "needed" } else { "optional" };
            lines.push(format!("• `{}:` {} ({need}, {})", o.name, o.about, o.kind.shape()));
        }
        lines.push(format!("Example: `{}`", spec.example_line()));
        embeds.extend(render::info(&spec.name(), &lines.join("\n")).embeds);
    }
    let mut page = render::info("", "");
    page.embeds = embeds;
    Ok(page.ephemeral())
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_in_full_names_each_option_with_its_shape_and_an_example() {
        let text = |words: &str| {
            command_page(words)
                .unwrap()
                .embeds
                .iter()
                .map(|e| {
                    format!(
                        "{}\n{}",
                        e.title.clone().unwrap_or_default(),
                        e.description.clone().unwrap_or_default()
                    )
                })
                .collect::<Vec<_>>()
                .join("\n")
        };
        let attack = text("attack");
        assert!(attack.starts_with("/attack\n"), "{attack}");
        assert!(
            attack.contains("`target:`") && attack.contains("(optional, text)"),
            "{attack}"
        );
        assert!(attack.contains("Example: `/attack"), "{attack}");
        let spawn = text("/gm spawn");
        assert!(
            spawn.contains("`count:` How many (default 1) (optional, 1–10)"),
            "{spawn}"
        );
        assert!(spawn.contains("Manage Server"), "{spawn}");
        let moves = command_page("move").unwrap();
        assert_eq!(
            moves.embeds.len(),
            COMMANDS.all().filter(|s| s.path[0] == "move").count(),
            "each /move subcommand"
        );
        assert!(text("Move Melee").starts_with("/move melee"));
        let refused = command_page("fly").unwrap_err();
        assert!(refused.contains("no /fly") && refused.contains("`attack`"), "{refused}");
    }

    #[test]
    fn the_guide_lists_every_command_once_with_an_example() {
        let text: Vec<String> = groups().into_iter().flat_map(|(_, lines)| lines).collect();
        assert_eq!(text.len(), COMMANDS.all().count(), "one line per command");
        for spec in COMMANDS.all() {
            let name = spec.name();
            let found = text.iter().filter(|l| {
                l.strip_prefix('`')
                    .is_some_and(|l| l.starts_with(&format!("{name} ")) || l.starts_with(&format!("{name}`")))
            });
            assert_eq!(found.count(), 1, "{name} in the guide once: {text:#?}");
        }
        let bare: Vec<String> = COMMANDS
            .all()
            .filter(|s| s.example.is_empty() && !s.options.is_empty())
            .map(Spec::name)
            .collect();
        assert!(
            bare.is_empty(),
            "a command with options shows them in its example: {bare:?}"
        );
    }

    #[test]
    fn every_page_fits_discords_limits() {
        let pages = pages();
        assert!(!pages.is_empty());
        for page in &pages {
            assert!(page.limit_violations().is_empty(), "{:?}", page.limit_violations());
            assert!(page.is_ephemeral());
        }
    }
}
