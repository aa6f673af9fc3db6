//! Every slash command's shape as Discord registers it — its path, its options, their types,
//! ranges and choices, which are required, which list autocomplete draws from — so the terminal
//! table refuses what Discord would never send (an unknown option, a missing one, a wrong type)
//! with the command's real options, and completes names and values from the same lists.

use super::{Invocation, Suggest};

/// What an option's value must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Free text, at most this many characters.
    Text { max_len: usize },
    /// A whole number in `min..=max`.
    Integer { min: i64, max: i64 },
    /// A user: a mention (`<@123>`), an id, or a name at the table.
    User,
    /// One of these names (case-insensitive at the table; stored as written here).
    Choice(&'static [&'static str]),
    /// A file: a Discord attachment, or a local path at the terminal table; the app is given
    /// its text.
    File,
}

/// One option of a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opt {
    pub name: &'static str,
    pub kind: Kind,
    pub required: bool,
    /// The autocomplete list its values come from.
    pub suggest: Option<Suggest>,
    pub about: &'static str,
}

/// One command (with its subcommand, if it has one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spec {
    pub path: &'static [&'static str],
    pub about: &'static str,
    pub options: &'static [Opt],
    /// Needs the Manage Server permission.
    pub gm: bool,
}

/// The longest a free-text option may be unless it says otherwise (names, targets, items,
/// dice expressions); registered as its `max_length`, so Discord's own 6,000 never applies.
const TEXT_MAX: usize = 100;

const fn text(name: &'static str, required: bool, about: &'static str) -> Opt {
    Opt {
        name,
        kind: Kind::Text { max_len: TEXT_MAX },
        required,
        suggest: None,
        about,
    }
}

const fn listed(name: &'static str, required: bool, suggest: Suggest, about: &'static str) -> Opt {
    Opt {
        name,
        kind: Kind::Text { max_len: TEXT_MAX },
        required,
        suggest: Some(suggest),
        about,
    }
}

const fn integer(name: &'static str, required: bool, min: i64, max: i64, about: &'static str) -> Opt {
    Opt {
        name,
        kind: Kind::Integer { min, max },
        required,
        suggest: None,
        about,
    }
}

const fn choice(name: &'static str, required: bool, choices: &'static [&'static str], about: &'static str) -> Opt {
    Opt {
        name,
        kind: Kind::Choice(choices),
        required,
        suggest: None,
        about,
    }
}

const fn user(name: &'static str, about: &'static str) -> Opt {
    Opt {
        name,
        kind: Kind::User,
        required: true,
        suggest: None,
        about,
    }
}

const fn cmd(path: &'static [&'static str], about: &'static str, options: &'static [Opt]) -> Spec {
    Spec {
        path,
        about,
        options,
        gm: false,
    }
}

const fn gm(path: &'static [&'static str], about: &'static str, options: &'static [Opt]) -> Spec {
    Spec {
        path,
        about,
        options,
        gm: true,
    }
}

const TARGET: Opt = listed(
    "target",
    false,
    Suggest::Target,
    "who (default: the enemy in front of you)",
);
const NEED_TARGET: Opt = listed("target", true, Suggest::Target, "who");

pub const RULESETS: &[&str] = &["gogobee", "tdgs", "ctb", "ticks"];
pub const DIRECTIONS: &[&str] = &["north", "south", "east", "west", "left", "right"];

/// Where `/move crawl` goes.
pub const CRAWL_WAYS: &[&str] = &["toward", "away", "ranged"];
pub const BONUS_ACTIONS: &[&str] = &[
    "off-hand attack",
    "second wind",
    "cunning action",
    "cunning strike",
    "healing word",
    "hunter's mark",
    "rage",
    "misty step",
];

/// Every command, in the order `help` lists them.
pub const COMMANDS: &[Spec] = &[
    cmd(
        &["character", "create"],
        "make your character",
        &[
            Opt {
                kind: Kind::Text { max_len: 32 },
                ..text("name", true, "your character's name")
            },
            listed("race", true, Suggest::Race, "human, elf, dwarf, …"),
            listed("class", true, Suggest::Class, "fighter, rogue, mage, …"),
        ],
    ),
    cmd(
        &["character", "sheet"],
        "your character sheet, or another player's",
        &[Opt {
            required: false,
            ..user("user", "whose sheet (default: yours)")
        }],
    ),
    cmd(
        &["character", "equip"],
        "wield a weapon, wear armour or a shield",
        &[
            listed("item", true, Suggest::Gear, "the weapon, armour or shield"),
            choice(
                "hand",
                false,
                &["main", "off"],
                "for a weapon: main hand (default) or off hand",
            ),
        ],
    ),
    cmd(
        &["character", "unequip"],
        "put gear away",
        &[listed("item", true, Suggest::Gear, "the weapon, armour or shield")],
    ),
    cmd(&["character", "levelup"], "spend your XP on the next level", &[]),
    cmd(&["character", "inventory"], "your coins and pack", &[]),
    cmd(
        &["character", "rename"],
        "give your character a new name",
        &[Opt {
            kind: Kind::Text { max_len: 32 },
            ..text("name", true, "the new name (2–32 characters, unique here)")
        }],
    ),
    cmd(
        &["character", "retire"],
        "retire your character for good (asks first)",
        &[],
    ),
    cmd(
        &["expedition", "start"],
        "set out into a zone",
        &[listed("zone", true, Suggest::Zone, "where to go")],
    ),
    cmd(&["expedition", "status"], "where you are", &[]),
    cmd(&["expedition", "advance"], "go on to the next room", &[]),
    cmd(&["expedition", "leave"], "head home", &[]),
    cmd(&["combat", "start"], "begin the fight in this channel", &[]),
    cmd(&["combat", "join"], "join the fight in this channel", &[]),
    cmd(&["combat", "status"], "the fight as it stands", &[]),
    cmd(&["combat", "map"], "who stands where, as a picture", &[]),
    cmd(&["combat", "end"], "end the fight with no winner (Manage Server)", &[]),
    cmd(
        &["combat", "replay"],
        "a fight's referee log, one line per event",
        &[integer(
            "combat",
            true,
            1,
            1_000_000_000,
            "the fight's number (its summary shows it)",
        )],
    ),
    cmd(&["attack"], "attack with your weapon", &[TARGET]),
    cmd(
        &["cast"],
        "cast a spell you know",
        &[listed("spell", true, Suggest::Spell, "the spell"), TARGET],
    ),
    cmd(&["dash"], "double your movement this turn", &[]),
    cmd(&["disengage"], "move away without opportunity attacks", &[]),
    cmd(&["dodge"], "attacks against you have disadvantage", &[]),
    cmd(
        &["help"],
        "help an ally (their next attack has advantage); alone: the guide",
        &[listed("ally", false, Suggest::Target, "the ally to help")],
    ),
    cmd(&["hide"], "slip out of sight", &[]),
    cmd(
        &["ready"],
        "ready an action for a trigger",
        &[Opt {
            kind: Kind::Text { max_len: 200 },
            ..text("action", true, "what to do, and when: \"attack when the goblin moves\"")
        }],
    ),
    cmd(
        &["use"],
        "use an item from your pack",
        &[
            listed("item", true, Suggest::Item, "the item"),
            listed("target", false, Suggest::Target, "on whom (default: yourself)"),
        ],
    ),
    cmd(&["search"], "look for what is hidden", &[]),
    cmd(&["grapple"], "grab someone in reach", &[NEED_TARGET]),
    cmd(
        &["shove"],
        "knock someone prone or push them away",
        &[
            NEED_TARGET,
            choice("mode", false, &["prone", "away"], "knock prone (default) or push away"),
        ],
    ),
    cmd(
        &["stabilize"],
        "stabilize a dying ally",
        &[listed("ally", true, Suggest::Target, "the ally at 0 HP")],
    ),
    cmd(
        &["bonus"],
        "take a bonus action",
        &[
            choice("ability", true, BONUS_ACTIONS, "the bonus action"),
            TARGET,
            Opt {
                kind: Kind::Text { max_len: 20 },
                ..text(
                    "mode",
                    false,
                    "cunning action: dash|disengage|hide · cunning strike: trip|poison|withdraw",
                )
            },
        ],
    ),
    cmd(&["move", "melee"], "close to melee with someone", &[NEED_TARGET]),
    cmd(&["move", "ranged"], "fall back out of melee, to range", &[]),
    cmd(&["move", "toward"], "move toward the enemy", &[]),
    cmd(&["move", "away"], "move away from the enemy", &[]),
    cmd(
        &["move", "shift"],
        "shift without changing distance",
        &[choice("direction", true, DIRECTIONS, "which way")],
    ),
    cmd(
        &["move", "crawl"],
        "crawl while prone, at half speed, without standing",
        &[choice("way", true, CRAWL_WAYS, "toward, away or out to range")],
    ),
    cmd(
        &["escape"],
        "break free of a web, vines or a net (STR or DEX check)",
        &[],
    ),
    cmd(&["endturn"], "end your turn", &[]),
    cmd(
        &["delay"],
        "TDGS: act later this round",
        &[listed("after", false, Suggest::Target, "act after this combatant")],
    ),
    cmd(
        &["instant"],
        "TDGS: declare an Instant for the next round",
        &[text("ability", true, "Quick Draw, Battle Cry, Premonition, Steady Aim")],
    ),
    cmd(
        &["roll"],
        "roll dice: 1d20+5, 2d20kh1, 4d6kh3",
        &[Opt {
            kind: Kind::Text { max_len: 100 },
            ..text("expression", true, "the dice, e.g. 1d20+5")
        }],
    ),
    gm(
        &["campaign", "rules"],
        "the timing model of new fights",
        &[choice("ruleset", true, RULESETS, "the timing model")],
    ),
    gm(
        &["campaign", "timeout"],
        "how long a reaction prompt waits",
        &[integer("seconds", true, 1, 3600, "seconds (default 30)")],
    ),
    gm(
        &["campaign", "turntimeout"],
        "how long a turn waits for its player",
        &[integer(
            "seconds",
            true,
            0,
            86_400,
            "seconds, 30 to 86400 (default 300; 0 waits for ever)",
        )],
    ),
    gm(
        &["homebrew", "import"],
        "add this server's own monsters, items and spells from a file",
        &[Opt {
            name: "file",
            kind: Kind::File,
            required: true,
            suggest: None,
            about: "the homebrew file (TOML, docs/homebrew.md)",
        }],
    ),
    gm(&["homebrew", "list"], "this server's homebrew", &[]),
    gm(
        &["homebrew", "show"],
        "one homebrew entry as its TOML",
        &[listed("name", true, Suggest::Homebrew, "the entry's name")],
    ),
    gm(
        &["homebrew", "remove"],
        "remove a homebrew entry (running fights keep theirs)",
        &[listed("name", true, Suggest::Homebrew, "the entry's name")],
    ),
    gm(&["homebrew", "export"], "this server's homebrew as one file", &[]),
    gm(
        &["homebrew", "balance"],
        "how fair a monster is: seeded duels against a party, a verdict and a chart",
        &[
            listed(
                "monster",
                true,
                Suggest::Monster,
                "which monster (this server's homebrew too)",
            ),
            text("party", true, "class:level characters, e.g. fighter:3,cleric:3"),
            integer("count", false, 1, 12, "how many of the monster (default 1)"),
        ],
    ),
    gm(
        &["gm", "spawn"],
        "add monsters to the fight here (or start one)",
        &[
            listed("monster", true, Suggest::Monster, "which monster"),
            integer("count", false, 1, 10, "how many (default 1)"),
            text("name", false, "their names: Orc# numbers them Orc1, Orc2"),
            integer("hp", false, 1, 999, "hit points, this fight only"),
            integer("ac", false, 1, 40, "armor class, this fight only"),
        ],
    ),
    gm(
        &["gm", "hp"],
        "add or take away hit points",
        &[
            listed("target", true, Suggest::Target, "a combatant, or a character's name"),
            integer("delta", true, -1000, 1000, "hit points to add (negative to take away)"),
        ],
    ),
    gm(
        &["gm", "grant"],
        "give a player coins or an item",
        &[
            user("player", "the player"),
            integer("coins", false, 1, 100_000, "coins to give"),
            listed("item", false, Suggest::Item, "an item to give"),
            integer("count", false, 1, 99, "how many of the item (default 1)"),
        ],
    ),
    gm(
        &["gm", "level"],
        "set a player's level",
        &[user("player", "the player"), integer("level", true, 1, 20, "the level")],
    ),
    gm(&["gm", "end"], "end the fight with no winner", &[]),
    cmd(&["hospital", "bill"], "Thom's bill: the fee, any debt, the rest", &[]),
    cmd(&["hospital", "pay"], "pay the fee (or owe it) and start the rest", &[]),
    cmd(&["hospital", "status"], "how long the rest has left", &[]),
    cmd(
        &["shop", "list"],
        "Thom's shelves and prices, and what he pays you",
        &[],
    ),
    cmd(
        &["shop", "buy"],
        "buy potions, scrolls, weapons, armor or a pet from Thom",
        &[
            listed("item", true, Suggest::Stock, "what to buy"),
            integer("count", false, 1, 99, "how many (default 1)"),
        ],
    ),
    cmd(
        &["shop", "sell"],
        "sell materials, trophies or spare gear to Thom",
        &[
            listed("item", true, Suggest::Sellable, "what to sell"),
            integer("count", false, 1, 99, "how many (default 1)"),
        ],
    ),
    cmd(
        &["rest", "short"],
        "a meal by Thom's fire: back half your HP, for coins",
        &[],
    ),
    cmd(&["rest", "long"], "a night in Thom's rooms: full HP, for coins", &[]),
    cmd(&["craft", "list"], "the recipes, and what you hold for each", &[]),
    cmd(
        &["craft", "make"],
        "turn materials and coins into an item",
        &[listed("recipe", true, Suggest::Recipe, "the recipe")],
    ),
    cmd(
        &["leaderboard"],
        "the campaign's top characters",
        &[choice(
            "by",
            false,
            &["level", "coins", "streak"],
            "rank by (default: level)",
        )],
    ),
    cmd(
        &["arena", "challenge"],
        "challenge another player to a duel (to 0 HP, no one dies)",
        &[user("user", "whom to challenge")],
    ),
    cmd(&["arena", "spectate"], "follow the duels being fought", &[]),
    cmd(&["arena", "top"], "the arena's win streaks", &[]),
    cmd(&["house", "buy"], "a room of your own at the inn, bought once", &[]),
    cmd(&["house", "list"], "what your room's chest holds", &[]),
    cmd(
        &["house", "store"],
        "put something from your pack in your room's chest",
        &[
            listed("item", true, Suggest::Sellable, "what to store"),
            integer("count", false, 1, 99, "how many (default 1)"),
        ],
    ),
    cmd(
        &["house", "take"],
        "take something from your room's chest",
        &[
            listed("item", true, Suggest::Stored, "what to take"),
            integer("count", false, 1, 99, "how many (default 1)"),
        ],
    ),
    cmd(&["guide"], "every command, grouped, with an example each", &[]),
];

/// The command names (first words), in `help` order, each once.
pub fn names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for spec in COMMANDS {
        if !names.contains(&spec.path[0]) {
            names.push(spec.path[0]);
        }
    }
    names
}

/// The subcommands of a command name (empty for a command without them).
pub fn subcommands(name: &str) -> Vec<&'static str> {
    COMMANDS
        .iter()
        .filter(|s| s.path[0] == name)
        .filter_map(|s| s.path.get(1).copied())
        .collect()
}

/// The spec whose path is exactly `path`.
pub fn get(path: &[&str]) -> Option<&'static Spec> {
    COMMANDS.iter().find(|s| s.path == path)
}

impl Kind {
    /// The value's shape, as the options list shows it.
    fn shape(self) -> String {
        match self {
            Kind::Text { .. } => "text".to_owned(),
            Kind::Integer { min, max } => format!("{min}–{max}"),
            Kind::User => "@user".to_owned(),
            Kind::Choice(choices) => choices.join("|"),
            Kind::File => "file".to_owned(),
        }
    }
}

impl Spec {
    /// `/gm spawn`
    pub fn name(&self) -> String {
        format!("/{}", self.path.join(" "))
    }

    /// `/gm spawn monster:<text> [count:<1–10>]`
    pub fn usage(&self) -> String {
        use std::fmt::Write as _;
        let mut out = self.name();
        for o in self.options {
            let shape = o.kind.shape();
            if o.required {
                let _ = write!(out, " {}:<{shape}>", o.name);
            } else {
                let _ = write!(out, " [{}:<{shape}>]", o.name);
            }
        }
        out
    }

    fn options_list(&self) -> String {
        if self.options.is_empty() {
            return format!("{} takes no options.", self.name());
        }
        format!("Usage: {}", self.usage())
    }

    pub fn option(&self, name: &str) -> Option<&'static Opt> {
        self.options.iter().find(|o| o.name == name)
    }

    /// Checks an invocation's options against this spec, as Discord would before sending it:
    /// every option known, every required one given, each of its type. Choices come back
    /// spelt as registered.
    pub fn check(&self, inv: &Invocation) -> Result<Invocation, String> {
        let mut checked = inv.clone();
        for (name, value) in &inv.options {
            let Some(opt) = self.option(name) else {
                return Err(format!(
                    "{} has no `{name}` option. {}",
                    self.name(),
                    self.options_list()
                ));
            };
            let value = value.trim();
            if value.is_empty() {
                if opt.required {
                    return Err(format!("`{name}` needs a value. {}", self.options_list()));
                }
                checked.options.remove(name);
                continue;
            }
            match opt.kind {
                Kind::Text { max_len } => {
                    if value.chars().count() > max_len {
                        return Err(format!("`{name}` is at most {max_len} characters."));
                    }
                }
                Kind::Integer { min, max } => match value.parse::<i64>() {
                    Ok(n) if (min..=max).contains(&n) => {}
                    _ => {
                        return Err(format!(
                            "`{name}` is a whole number from {min} to {max}, not \"{value}\". {}",
                            self.options_list()
                        ));
                    }
                },
                Kind::User | Kind::File => {}
                Kind::Choice(choices) => match choices.iter().find(|c| c.eq_ignore_ascii_case(value)) {
                    Some(c) => {
                        checked.options.insert(name.clone(), (*c).to_owned());
                    }
                    None => {
                        return Err(format!("`{name}` is one of {} — not \"{value}\".", choices.join(", ")));
                    }
                },
            }
        }
        if let Some(missing) = self
            .options
            .iter()
            .find(|o| o.required && !checked.options.contains_key(o.name))
        {
            return Err(format!(
                "{} needs the `{}` option. {}",
                self.name(),
                missing.name,
                self.options_list()
            ));
        }
        Ok(checked)
    }
}

/// The spec an invocation names, or why there is none (with the names that exist). The forms
/// the Discord adapter sends for `/move shift` (`["move", "north"]`) and `/hospital bill`
/// (`["hospital"]`) are read as those commands.
pub fn find(inv: &Invocation) -> Result<(&'static Spec, Invocation), String> {
    let mut inv = inv.clone();
    let first = inv.path.first().cloned().unwrap_or_default();
    match (first.as_str(), inv.path.get(1).map(String::as_str)) {
        ("move", Some(dir)) if DIRECTIONS.contains(&dir) => {
            inv.options.insert("direction".into(), dir.to_owned());
            inv.path = vec!["move".into(), "shift".into()];
        }
        ("hospital", None) => inv.path.push("bill".into()),
        _ => {}
    }
    let subs = subcommands(&first);
    if !names().contains(&first.as_str()) {
        return Err(format!(
            "I don't know /{first} — the commands are {}. Type help for what each does.",
            names().iter().map(|n| format!("/{n}")).collect::<Vec<_>>().join(" ")
        ));
    }
    let wanted: Vec<&str> = inv
        .path
        .iter()
        .map(String::as_str)
        .take(if subs.is_empty() { 1 } else { 2 })
        .collect();
    if inv.path.len() > wanted.len() || (!subs.is_empty() && wanted.len() < 2) {
        let given = inv.path.get(1).map_or(String::new(), |s| format!(" {s}"));
        let what = if subs.is_empty() {
            format!("/{first} has no subcommands")
        } else {
            format!(
                "/{first}{given} is not a command — say which: {}",
                subs.iter()
                    .map(|s| format!("/{first} {s}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        return Err(format!("{what}."));
    }
    let spec = get(&wanted).ok_or_else(|| {
        format!(
            "/{} is not a command — say which: {}",
            wanted.join(" "),
            subs.iter()
                .map(|s| format!("/{first} {s}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    })?;
    Ok((spec, inv))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inv(path: &[&str], options: &[(&str, &str)]) -> Invocation {
        Invocation {
            path: path.iter().map(|s| (*s).to_owned()).collect(),
            options: options
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
        }
    }

    fn refusal(path: &[&str], options: &[(&str, &str)]) -> String {
        let i = inv(path, options);
        match find(&i) {
            Err(e) => e,
            Ok((spec, i)) => spec.check(&i).expect_err("refused"),
        }
    }

    #[test]
    fn an_unknown_option_is_refused_with_the_real_ones() {
        let e = refusal(&["attack"], &[("targt", "Goblin 1")]);
        assert_eq!(e, "/attack has no `targt` option. Usage: /attack [target:<text>]");
        let e = refusal(&["gm", "spawn"], &[("monstr", "goblin")]);
        assert!(e.contains("monster:<text> [count:<1–10>]"), "{e}");
    }

    #[test]
    fn a_missing_required_option_is_refused() {
        let e = refusal(&["character", "create"], &[("race", "elf"), ("class", "rogue")]);
        assert!(e.starts_with("/character create needs the `name` option."), "{e}");
        assert!(e.contains("name:<text> race:<text> class:<text>"), "{e}");
    }

    #[test]
    fn a_wrong_type_is_refused() {
        let e = refusal(&["gm", "spawn"], &[("monster", "goblin"), ("count", "three")]);
        assert!(
            e.starts_with("`count` is a whole number from 1 to 10, not \"three\"."),
            "{e}"
        );
        let e = refusal(&["gm", "spawn"], &[("monster", "goblin"), ("count", "11")]);
        assert!(e.contains("from 1 to 10, not \"11\""), "{e}");
        let e = refusal(&["campaign", "rules"], &[("ruleset", "chess")]);
        assert_eq!(e, "`ruleset` is one of gogobee, tdgs, ctb, ticks — not \"chess\".");
    }

    #[test]
    fn unknown_commands_and_subcommands_list_what_exists() {
        assert!(refusal(&["fly"], &[]).starts_with("I don't know /fly — the commands are /character "));
        let e = refusal(&["character", "dance"], &[]);
        assert!(e.contains("/character create, /character sheet"), "{e}");
        assert!(refusal(&["move"], &[]).contains("/move melee, /move ranged"));
        assert_eq!(refusal(&["attack", "now"], &[]), "/attack has no subcommands.");
    }

    type Params = Vec<poise::CommandParameter<crate::discord::Data, crate::discord::Error>>;

    /// Each Discord command's path and options, subcommands flattened.
    fn registered() -> Vec<(Vec<String>, Params)> {
        fn walk(
            command: poise::Command<crate::discord::Data, crate::discord::Error>,
            prefix: &[String],
            out: &mut Vec<(Vec<String>, Params)>,
        ) {
            let mut path = prefix.to_vec();
            path.push(command.name.to_string());
            if command.subcommands.is_empty() {
                out.push((path, command.parameters));
            } else {
                for sub in command.subcommands {
                    walk(sub, &path, out);
                }
            }
        }
        let mut out = Vec::new();
        for command in crate::discord::commands::all() {
            walk(command, &[], &mut out);
        }
        out
    }

    #[test]
    fn the_spec_is_what_discord_registers() {
        let registered = registered();
        assert_eq!(registered.len(), COMMANDS.len(), "one spec per registered command");
        for (path, params) in registered {
            let path: Vec<&str> = path.iter().map(String::as_str).collect();
            let spec = get(&path).unwrap_or_else(|| panic!("no spec for /{}", path.join(" ")));
            let names: Vec<&str> = params.iter().map(|p| p.name.as_ref()).collect();
            let spec_names: Vec<&str> = spec.options.iter().map(|o| o.name).collect();
            assert_eq!(names, spec_names, "{}", spec.name());
            for (param, opt) in params.iter().zip(spec.options) {
                let what = format!("{} {}", spec.name(), opt.name);
                assert_eq!(param.required, opt.required, "{what}: required");
                assert_eq!(
                    param.autocomplete_callback.is_some(),
                    opt.suggest.is_some(),
                    "{what}: autocomplete"
                );
                let option = param.create_as_slash_command_option().expect("a slash option");
                let json = serde_json::to_value(option).unwrap();
                let what = format!("{what} {json}");
                match opt.kind {
                    Kind::Choice(choices) => {
                        let names: Vec<&str> = param.choices.iter().map(|c| c.name.as_ref()).collect();
                        assert_eq!(names, choices, "{what}: choices");
                    }
                    Kind::Text { max_len } => {
                        assert_eq!(json["type"], 3, "{what}: a string");
                        let limit = json["max_length"].as_u64().map_or(TEXT_MAX, |n| n as usize);
                        assert_eq!(limit, max_len, "{what}: max length");
                    }
                    Kind::Integer { min, max } => {
                        assert_eq!(json["type"], 4, "{what}: an integer");
                        assert_eq!(json["min_value"].as_f64(), Some(min as f64), "{what}: min");
                        assert_eq!(json["max_value"].as_f64(), Some(max as f64), "{what}: max");
                    }
                    Kind::User => assert_eq!(json["type"], 6, "{what}: a user"),
                    Kind::File => assert_eq!(json["type"], 11, "{what}: an attachment"),
                }
            }
        }
    }

    #[test]
    fn choices_come_back_as_registered_and_adapter_forms_are_read() {
        let (spec, i) = find(&inv(&["bonus"], &[("ability", "Second Wind")])).unwrap();
        assert_eq!(spec.check(&i).unwrap().options["ability"], "second wind");
        let (spec, i) = find(&inv(&["move", "north"], &[])).unwrap();
        assert_eq!(spec.path, ["move", "shift"]);
        assert_eq!(i.options["direction"], "north");
        assert_eq!(find(&inv(&["hospital"], &[])).unwrap().0.path, ["hospital", "bill"]);
    }
}
