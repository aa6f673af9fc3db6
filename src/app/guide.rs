//! The guide (issue 20): every command, grouped as a newcomer meets them, one line and an
//! example each — what `/guide`, `/help` with no ally and the table's `help` show. `/help
//! ally:<name>` stays the seed's Help action. A command the groups below do not name yet is
//! listed under "More" with its usage, so the guide never leaves one out.

use render::MessagePayload;

use super::spec::{COMMANDS, Spec};

/// A command's path and an example of it.
type Entry = (&'static [&'static str], &'static str);

/// The groups, in order: a title, then its commands.
const GROUPS: &[(&str, &[Entry])] = &[
    (
        "Start here",
        &[
            (&["guide"], "/guide"),
            (
                &["character", "create"],
                "/character create name:Aria race:elf class:rogue",
            ),
            (&["character", "sheet"], "/character sheet user:@friend"),
            (&["character", "inventory"], "/character inventory"),
            (&["character", "equip"], "/character equip item:Shortsword hand:off"),
            (&["character", "unequip"], "/character unequip item:shield"),
            (&["character", "levelup"], "/character levelup"),
            (&["character", "rename"], "/character rename name:Aria Swiftfoot"),
            (&["character", "retire"], "/character retire"),
            (&["leaderboard"], "/leaderboard by:coins"),
        ],
    ),
    (
        "Expeditions",
        &[
            (&["expedition", "start"], "/expedition start zone:Forest of Shadows"),
            (&["expedition", "advance"], "/expedition advance"),
            (&["expedition", "status"], "/expedition status"),
            (&["expedition", "leave"], "/expedition leave"),
        ],
    ),
    (
        "Thom Krooke's inn",
        &[
            (&["shop", "list"], "/shop list"),
            (&["shop", "buy"], "/shop buy item:Potion of Healing count:2"),
            (&["shop", "sell"], "/shop sell item:Shadow moss count:3"),
            (&["craft", "list"], "/craft list"),
            (&["craft", "make"], "/craft make recipe:Potion of Healing"),
            (&["house", "buy"], "/house buy"),
            (&["house", "list"], "/house list"),
            (&["house", "store"], "/house store item:Shadow moss count:5"),
            (&["house", "take"], "/house take item:Potion of Healing"),
            (&["rest", "short"], "/rest short"),
            (&["rest", "long"], "/rest long"),
            (&["hospital", "bill"], "/hospital bill"),
            (&["hospital", "pay"], "/hospital pay"),
            (&["hospital", "status"], "/hospital status"),
        ],
    ),
    (
        "The arena",
        &[
            (&["arena", "challenge"], "/arena challenge user:@friend"),
            (&["arena", "spectate"], "/arena spectate"),
            (&["arena", "top"], "/arena top"),
        ],
    ),
    (
        "Fights",
        &[
            (&["combat", "join"], "/combat join"),
            (&["combat", "start"], "/combat start"),
            (&["combat", "status"], "/combat status"),
            (&["combat", "map"], "/combat map"),
            (&["combat", "end"], "/combat end"),
            (&["combat", "replay"], "/combat replay combat:12"),
            (&["endturn"], "/endturn"),
        ],
    ),
    (
        "Actions in a fight",
        &[
            (&["attack"], "/attack target:Goblin 1"),
            (&["cast"], "/cast spell:Fire Bolt target:Goblin 2"),
            (&["bonus"], "/bonus ability:cunning action mode:hide"),
            (&["use"], "/use item:Potion of Healing target:Bram"),
            (&["dash"], "/dash"),
            (&["disengage"], "/disengage"),
            (&["dodge"], "/dodge"),
            (&["help"], "/help ally:Bram"),
            (&["hide"], "/hide"),
            (&["search"], "/search"),
            (&["ready"], "/ready action:attack when the goblin moves"),
            (&["grapple"], "/grapple target:Goblin"),
            (&["shove"], "/shove target:Orc mode:away"),
            (&["stabilize"], "/stabilize ally:Aria"),
            (&["delay"], "/delay after:Bram"),
            (&["instant"], "/instant ability:Battle Cry"),
        ],
    ),
    (
        "Moving",
        &[
            (&["move", "melee"], "/move melee target:Goblin 1"),
            (&["move", "ranged"], "/move ranged"),
            (&["move", "toward"], "/move toward"),
            (&["move", "away"], "/move away"),
            (&["move", "shift"], "/move shift direction:left"),
            (&["move", "crawl"], "/move crawl way:away"),
            (&["escape"], "/escape"),
        ],
    ),
    ("Dice", &[(&["roll"], "/roll expression:2d20kh1+5 to hit")]),
    (
        "For server owners (Manage Server)",
        &[
            (&["campaign", "rules"], "/campaign rules ruleset:tdgs"),
            (&["campaign", "timeout"], "/campaign timeout seconds:45"),
            (&["campaign", "turntimeout"], "/campaign turntimeout seconds:600"),
            (
                &["gm", "spawn"],
                "/gm spawn monster:goblin count:3 name:Orc# hp:20 ac:14",
            ),
            (&["gm", "hp"], "/gm hp target:Aria delta:-5"),
            (&["gm", "grant"], "/gm grant player:@friend coins:50"),
            (&["gm", "level"], "/gm level player:@friend level:5"),
            (&["gm", "end"], "/gm end"),
            (&["homebrew", "import"], "/homebrew import file:marsh-raiders.toml"),
            (&["homebrew", "list"], "/homebrew list"),
            (&["homebrew", "show"], "/homebrew show name:Bog Hag"),
            (&["homebrew", "remove"], "/homebrew remove name:Bog Hag"),
            (&["homebrew", "export"], "/homebrew export"),
            (
                &["homebrew", "balance"],
                "/homebrew balance monster:Bog Hag party:fighter:3,cleric:3",
            ),
        ],
    ),
];

/// The most characters of guide text in one message (Discord allows 6,000 over its embeds).
const PAGE_BUDGET: usize = 5_000;

fn line(spec: &Spec, example: &str) -> String {
    let gm = if spec.gm && !["/gm", "/campaign", "/homebrew"].iter().any(|p| example.starts_with(p)) {
        " (Manage Server)"
    } else {
        ""
    };
    format!("`{example}` — {}{gm}", spec.about)
}

/// Each group's title and lines: every command in [`COMMANDS`] exactly once.
pub fn groups() -> Vec<(String, Vec<String>)> {
    let mut listed: Vec<&[&str]> = Vec::new();
    let mut out = Vec::new();
    for (title, entries) in GROUPS {
        let mut lines = Vec::new();
        for (path, example) in *entries {
            if let Some(spec) = super::spec::get(path) {
                listed.push(spec.path);
                lines.push(line(spec, example));
            }
        }
        out.push(((*title).to_owned(), lines));
    }
    let more: Vec<String> = COMMANDS
        .iter()
        .filter(|s| !listed.contains(&s.path))
        .map(|s| line(s, &s.usage()))
        .collect();
    if !more.is_empty() {
        out.push(("More".to_owned(), more));
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guide_lists_every_command_once_with_an_example() {
        let text: Vec<String> = groups().into_iter().flat_map(|(_, lines)| lines).collect();
        assert_eq!(text.len(), COMMANDS.len(), "one line per command");
        for spec in COMMANDS {
            let name = spec.name();
            let found = text.iter().filter(|l| {
                l.strip_prefix('`')
                    .is_some_and(|l| l.starts_with(&format!("{name} ")) || l.starts_with(&format!("{name}`")))
            });
            assert_eq!(found.count(), 1, "{name} in the guide once: {text:#?}");
        }
        assert!(
            groups().iter().all(|(title, _)| title != "More"),
            "every command has a group and an example"
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
