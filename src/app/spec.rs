//! Every slash command, declared once: its path, description, options (types, ranges, choices,
//! which are required, which autocomplete list each draws from), whether it needs Manage Server,
//! and its example in the guide. The Discord adapter builds the registered commands and poise's
//! dispatch from it (`discord/commands`), the terminal table checks an invocation against it —
//! refusing what Discord would never send (an unknown option, a missing one, a wrong type) with
//! the command's real options — and completes from it, and the guide lists it.

use super::{Invocation, Suggest};

/// What an option's value must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Free text of `min_len..=max_len` characters.
    Text { min_len: usize, max_len: usize },
    /// A whole number in `min..=max`.
    Integer { min: i64, max: i64 },
    /// A user: a mention (`<@123>`), an id, or a name at the table.
    User,
    /// One of these names (case-insensitive at the table; stored as written here). Discord
    /// offers them as a fixed list and sends the index of the one picked.
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
    /// Its description (Discord shows it under the option).
    pub about: &'static str,
}

/// One command (with its subcommand, if it has one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spec {
    pub path: &'static [&'static str],
    /// Its description: the guide's line and Discord's (first letter capitalised there).
    pub about: &'static str,
    pub options: &'static [Opt],
    /// Needs the Manage Server permission.
    pub gm: bool,
    /// Offered in the bot's DMs too (it needs no server, campaign or fight).
    pub in_dms: bool,
    /// Its options in the guide's example (`target:Goblin 1`; empty for a command without).
    pub example: &'static str,
}

/// A group of the guide: its title and its commands, in the order the guide lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Section {
    pub title: &'static str,
    pub commands: &'static [Spec],
}

/// A command with subcommands, as Discord shows it above them: its name and description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parent {
    pub name: &'static str,
    pub about: &'static str,
}

/// A set of commands: what every form of them is built from. [`COMMANDS`] is the game's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Commands {
    pub sections: &'static [Section],
    pub parents: &'static [Parent],
}

/// The longest a free-text option may be unless it says otherwise (names, targets, items,
/// dice expressions); registered as its `max_length`, so Discord's own 6,000 never applies.
const TEXT_MAX: usize = 100;

const fn text(name: &'static str, required: bool, about: &'static str) -> Opt {
    Opt {
        name,
        kind: Kind::Text {
            min_len: 0,
            max_len: TEXT_MAX,
        },
        required,
        suggest: None,
        about,
    }
}

const fn listed(name: &'static str, required: bool, suggest: Suggest, about: &'static str) -> Opt {
    Opt {
        suggest: Some(suggest),
        ..text(name, required, about)
    }
}

const fn integer(name: &'static str, required: bool, min: i64, max: i64, about: &'static str) -> Opt {
    Opt {
        kind: Kind::Integer { min, max },
        ..text(name, required, about)
    }
}

const fn choice(name: &'static str, required: bool, choices: &'static [&'static str], about: &'static str) -> Opt {
    Opt {
        kind: Kind::Choice(choices),
        ..text(name, required, about)
    }
}

const fn user(name: &'static str, required: bool, about: &'static str) -> Opt {
    Opt {
        kind: Kind::User,
        ..text(name, required, about)
    }
}

/// A free-text option of `min..=max` characters.
const fn sized(name: &'static str, required: bool, min: usize, max: usize, about: &'static str) -> Opt {
    Opt {
        kind: Kind::Text {
            min_len: min,
            max_len: max,
        },
        ..text(name, required, about)
    }
}

const fn cmd(
    path: &'static [&'static str],
    about: &'static str,
    example: &'static str,
    options: &'static [Opt],
) -> Spec {
    Spec {
        path,
        about,
        options,
        gm: false,
        in_dms: false,
        example,
    }
}

const fn gm(
    path: &'static [&'static str],
    about: &'static str,
    example: &'static str,
    options: &'static [Opt],
) -> Spec {
    Spec {
        gm: true,
        ..cmd(path, about, example, options)
    }
}

const COUNT: Opt = integer("count", false, 1, 99, "How many (default 1)");

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

/// The game's commands.
pub const COMMANDS: Commands = Commands {
    sections: SECTIONS,
    parents: PARENTS,
};

/// Every command, grouped and ordered as the guide lists them; Discord registers them in this
/// order too (a command's subcommands in the order they first appear).
const SECTIONS: &[Section] = &[
    Section {
        title: "Start here",
        commands: &[
            cmd(
                &["guide"],
                "every command, grouped, with an example each; or one command in full",
                "command:attack",
                &[text("command", false, "One command in full, e.g. attack or move melee")],
            ),
            cmd(
                &["character", "create"],
                "make your character",
                "name:Aria race:elf class:rogue",
                &[
                    sized("name", true, 1, 32, "Your character's name"),
                    listed("race", true, Suggest::Race, "Race (human, elf, dwarf, …)"),
                    listed("class", true, Suggest::Class, "Class (fighter, rogue, mage, …)"),
                ],
            ),
            cmd(
                &["character", "sheet"],
                "your character sheet, or another player's",
                "user:@friend",
                &[user("user", false, "Whose sheet (default: yours)")],
            ),
            cmd(&["character", "inventory"], "your coins and pack", "", &[]),
            cmd(
                &["character", "equip"],
                "wield a weapon, wear armour or a shield",
                "item:Shortsword hand:off",
                &[
                    listed("item", true, Suggest::Gear, "The weapon, armour or shield"),
                    choice(
                        "hand",
                        false,
                        &["main", "off"],
                        "For a weapon: main hand (default) or off hand",
                    ),
                ],
            ),
            cmd(
                &["character", "unequip"],
                "put gear away",
                "item:shield",
                &[listed("item", true, Suggest::Gear, "The weapon, armour or shield")],
            ),
            cmd(&["character", "levelup"], "spend your XP on the next level", "", &[]),
            cmd(
                &["character", "rename"],
                "give your character a new name",
                "name:Aria Swiftfoot",
                &[sized(
                    "name",
                    true,
                    2,
                    32,
                    "The new name (2–32 characters, unique here)",
                )],
            ),
            cmd(
                &["character", "retire"],
                "retire your character for good (asks first)",
                "",
                &[],
            ),
            cmd(
                &["leaderboard"],
                "the campaign's top characters",
                "by:coins",
                &[choice(
                    "by",
                    false,
                    &["level", "coins", "streak"],
                    "Rank by (default: level)",
                )],
            ),
        ],
    },
    Section {
        title: "Expeditions",
        commands: &[
            cmd(
                &["expedition", "start"],
                "set out into a zone",
                "zone:Forest of Shadows",
                &[listed("zone", true, Suggest::Zone, "Where to go")],
            ),
            cmd(&["expedition", "advance"], "go on to the next room", "", &[]),
            cmd(&["expedition", "status"], "where you are", "", &[]),
            cmd(&["expedition", "leave"], "head home", "", &[]),
        ],
    },
    Section {
        title: "Thom Krooke's inn",
        commands: &[
            cmd(
                &["shop", "list"],
                "Thom's shelves and prices, and what he pays you",
                "",
                &[],
            ),
            cmd(
                &["shop", "buy"],
                "buy potions, scrolls, weapons, armor or a pet from Thom",
                "item:Potion of Healing count:2",
                &[listed("item", true, Suggest::Stock, "What to buy"), COUNT],
            ),
            cmd(
                &["shop", "sell"],
                "sell materials, trophies or spare gear to Thom",
                "item:Shadow moss count:3",
                &[listed("item", true, Suggest::Sellable, "What to sell"), COUNT],
            ),
            cmd(&["craft", "list"], "the recipes, and what you hold for each", "", &[]),
            cmd(
                &["craft", "make"],
                "turn materials and coins into an item",
                "recipe:Potion of Healing",
                &[listed("recipe", true, Suggest::Recipe, "The recipe")],
            ),
            cmd(&["house", "buy"], "a room of your own at the inn, bought once", "", &[]),
            cmd(&["house", "list"], "what your room's chest holds", "", &[]),
            cmd(
                &["house", "store"],
                "put something from your pack in your room's chest",
                "item:Shadow moss count:5",
                &[listed("item", true, Suggest::Sellable, "What to store"), COUNT],
            ),
            cmd(
                &["house", "take"],
                "take something from your room's chest",
                "item:Potion of Healing",
                &[listed("item", true, Suggest::Stored, "What to take"), COUNT],
            ),
            cmd(
                &["rest", "short"],
                "a meal by Thom's fire: back half your HP, for coins",
                "",
                &[],
            ),
            cmd(
                &["rest", "long"],
                "a night in Thom's rooms: full HP, for coins",
                "",
                &[],
            ),
            cmd(
                &["hospital", "bill"],
                "Thom's bill: the fee, any debt, the rest",
                "",
                &[],
            ),
            cmd(
                &["hospital", "pay"],
                "pay the fee (or owe it) and start the rest",
                "",
                &[],
            ),
            cmd(&["hospital", "status"], "how long the rest has left", "", &[]),
        ],
    },
    Section {
        title: "The arena",
        commands: &[
            cmd(
                &["arena", "challenge"],
                "challenge another player to a duel (to 0 HP, no one dies)",
                "user:@friend",
                &[user("user", true, "Whom to challenge")],
            ),
            cmd(&["arena", "spectate"], "follow the duels being fought", "", &[]),
            cmd(&["arena", "top"], "the arena's win streaks", "", &[]),
        ],
    },
    Section {
        title: "Fights",
        commands: &[
            cmd(&["combat", "join"], "join the fight in this channel", "", &[]),
            cmd(&["combat", "start"], "begin the fight in this channel", "", &[]),
            cmd(&["combat", "status"], "the fight as it stands", "", &[]),
            cmd(&["combat", "map"], "who stands where, as a picture", "", &[]),
            cmd(
                &["combat", "end"],
                "end the fight with no winner (Manage Server)",
                "",
                &[],
            ),
            cmd(
                &["combat", "replay"],
                "a fight's referee log, one line per event",
                "combat:12",
                &[integer(
                    "combat",
                    true,
                    1,
                    1_000_000_000,
                    "The fight's number (its summary shows it)",
                )],
            ),
            cmd(&["endturn"], "end your turn", "", &[]),
        ],
    },
    Section {
        title: "Actions in a fight",
        commands: &[
            cmd(
                &["attack"],
                "attack with your weapon",
                "target:Goblin 1",
                &[listed(
                    "target",
                    false,
                    Suggest::Other,
                    "Who to attack (default: the enemy in front of you)",
                )],
            ),
            cmd(
                &["cast"],
                "cast a spell you know",
                "spell:Fire Bolt target:Goblin 2",
                &[
                    listed("spell", true, Suggest::Spell, "The spell"),
                    listed("target", false, Suggest::Target, "Its target, if it has one"),
                ],
            ),
            cmd(
                &["bonus"],
                "take a bonus action",
                "ability:cunning action mode:hide",
                &[
                    listed("ability", true, Suggest::Bonus, "The bonus action"),
                    listed("target", false, Suggest::Target, "Its target, if it has one"),
                    sized(
                        "mode",
                        false,
                        0,
                        20,
                        "Cunning action: dash|disengage|hide · cunning strike: trip|poison|withdraw",
                    ),
                ],
            ),
            cmd(
                &["use"],
                "use an item from your pack",
                "item:Potion of Healing target:Bram",
                &[
                    listed("item", true, Suggest::Item, "The item"),
                    listed("target", false, Suggest::Target, "On whom (default: yourself)"),
                ],
            ),
            cmd(&["dash"], "double your movement this turn", "", &[]),
            cmd(&["disengage"], "move away without opportunity attacks", "", &[]),
            cmd(&["dodge"], "attacks against you have disadvantage", "", &[]),
            cmd(
                &["help"],
                "help an ally (their next attack has advantage); alone: the guide",
                "ally:Bram",
                &[listed(
                    "ally",
                    false,
                    Suggest::Ally,
                    "The ally to help (leave out for the list of commands)",
                )],
            ),
            cmd(&["hide"], "slip out of sight", "", &[]),
            cmd(&["search"], "look for what is hidden", "", &[]),
            cmd(
                &["ready"],
                "ready an action for a trigger",
                "action:attack when the goblin moves",
                &[sized(
                    "action",
                    true,
                    0,
                    200,
                    "What to do, and when: \"attack when the goblin moves\"",
                )],
            ),
            cmd(
                &["grapple"],
                "grab someone in reach",
                "target:Goblin",
                &[listed("target", true, Suggest::Other, "Who to grab")],
            ),
            cmd(
                &["shove"],
                "knock someone prone or push them away",
                "target:Orc mode:away",
                &[
                    listed("target", true, Suggest::Other, "Who to shove"),
                    choice("mode", false, &["prone", "away"], "Knock prone (default) or push away"),
                ],
            ),
            cmd(
                &["stabilize"],
                "stabilize a dying ally",
                "ally:Aria",
                &[listed("ally", true, Suggest::Ally, "The ally at 0 HP")],
            ),
            cmd(
                &["delay"],
                "TDGS: act later this round",
                "after:Bram",
                &[listed(
                    "after",
                    false,
                    Suggest::Target,
                    "Act after this combatant (empty: at the end of the round)",
                )],
            ),
            cmd(
                &["instant"],
                "TDGS: declare an Instant for the next round",
                "ability:Battle Cry",
                &[text(
                    "ability",
                    true,
                    "The Instant: Quick Draw, Battle Cry, Premonition or Steady Aim",
                )],
            ),
        ],
    },
    Section {
        title: "Moving",
        commands: &[
            cmd(
                &["move", "melee"],
                "close to melee with someone",
                "target:Goblin 1",
                &[listed("target", true, Suggest::Other, "Who to close with")],
            ),
            cmd(&["move", "ranged"], "fall back out of melee, to range", "", &[]),
            cmd(&["move", "toward"], "move toward the enemy", "", &[]),
            cmd(&["move", "away"], "move away from the enemy", "", &[]),
            cmd(
                &["move", "shift"],
                "shift without changing distance",
                "direction:left",
                &[choice("direction", true, DIRECTIONS, "Which way")],
            ),
            cmd(
                &["move", "crawl"],
                "crawl while prone, at half speed, without standing",
                "way:away",
                &[choice("way", true, CRAWL_WAYS, "Toward, away or out to range")],
            ),
            cmd(
                &["escape"],
                "break free of a web, vines or a net (STR or DEX check)",
                "",
                &[],
            ),
        ],
    },
    Section {
        title: "Dice",
        commands: &[Spec {
            in_dms: true,
            ..cmd(
                &["roll"],
                "roll dice: 1d20+5, 2d20kh1, 4d6kh3",
                "expression:2d20kh1+5 to hit",
                &[sized("expression", true, 1, dice::MAX_CHARS, "The dice, e.g. 1d20+5")],
            )
        }],
    },
    Section {
        title: "For server owners (Manage Server)",
        commands: &[
            gm(
                &["campaign", "rules"],
                "the timing model of new fights",
                "ruleset:tdgs",
                &[choice("ruleset", true, &engine::Ruleset::NAMES, "The timing model")],
            ),
            gm(
                &["campaign", "timeout"],
                "how long a reaction prompt waits",
                "seconds:45",
                &[integer("seconds", true, 1, 3600, "Seconds (default 30)")],
            ),
            gm(
                &["campaign", "turntimeout"],
                "how long a turn waits for its player",
                "seconds:600",
                &[integer(
                    "seconds",
                    true,
                    0,
                    86_400,
                    "Seconds, 30 to 86400 (default 300; 0 waits for ever)",
                )],
            ),
            gm(
                &["campaign", "map"],
                "when the battlefield's picture is shown",
                "show:every_turn",
                &[choice(
                    "show",
                    true,
                    &["every_turn", "on_request"],
                    "every_turn: with each turn; on_request: /combat status and /combat map",
                )],
            ),
            gm(
                &["gm", "spawn"],
                "add monsters to the fight here (or start one)",
                "monster:goblin count:3 name:Orc# hp:20 ac:14",
                &[
                    listed("monster", true, Suggest::Monster, "Which monster"),
                    integer("count", false, 1, 10, "How many (default 1)"),
                    text("name", false, "Their names: Orc# numbers them Orc1, Orc2"),
                    integer("hp", false, 1, 999, "Hit points, this fight only"),
                    integer("ac", false, 1, 40, "Armor class, this fight only"),
                ],
            ),
            gm(
                &["gm", "hp"],
                "add or take away hit points",
                "target:Aria delta:-5",
                &[
                    listed(
                        "target",
                        true,
                        Suggest::Target,
                        "Who (a combatant, or a character's name)",
                    ),
                    integer("delta", true, -1000, 1000, "Hit points to add (negative to take away)"),
                ],
            ),
            gm(
                &["gm", "grant"],
                "give a player coins or an item",
                "player:@friend coins:50",
                &[
                    user("player", true, "The player"),
                    integer("coins", false, 1, 100_000, "Coins to give"),
                    listed("item", false, Suggest::Item, "An item to give"),
                    integer("count", false, 1, 99, "How many of the item (default 1)"),
                ],
            ),
            gm(
                &["gm", "level"],
                "set a player's level",
                "player:@friend level:5",
                &[
                    user("player", true, "The player"),
                    integer("level", true, 1, 20, "The level (1–20)"),
                ],
            ),
            gm(&["gm", "end"], "end the fight with no winner", "", &[]),
            gm(
                &["homebrew", "import"],
                "add this server's own monsters, items and spells from a file",
                "file:marsh-raiders.toml",
                &[Opt {
                    kind: Kind::File,
                    ..text("file", true, "The homebrew file (TOML, docs/homebrew.md)")
                }],
            ),
            gm(&["homebrew", "list"], "this server's homebrew", "", &[]),
            gm(
                &["homebrew", "show"],
                "one homebrew entry as its TOML",
                "name:Bog Hag",
                &[listed("name", true, Suggest::Homebrew, "The entry's name")],
            ),
            gm(
                &["homebrew", "remove"],
                "remove a homebrew entry (running fights keep theirs)",
                "name:Bog Hag",
                &[listed("name", true, Suggest::Homebrew, "The entry's name")],
            ),
            gm(&["homebrew", "export"], "this server's homebrew as one file", "", &[]),
            gm(
                &["homebrew", "balance"],
                "how fair a monster is: seeded duels against a party, a verdict and a chart",
                "monster:Bog Hag party:fighter:3,cleric:3",
                &[
                    listed(
                        "monster",
                        true,
                        Suggest::Monster,
                        "Which monster (this server's homebrew too)",
                    ),
                    text("party", true, "class:level characters, e.g. fighter:3,cleric:3"),
                    integer("count", false, 1, 12, "How many of the monster (default 1)"),
                ],
            ),
        ],
    },
];

/// The commands with subcommands, as Discord shows them.
const PARENTS: &[Parent] = &[
    Parent {
        name: "character",
        about: "Your character in this campaign: create one, see the sheet, gear up, level up.",
    },
    Parent {
        name: "expedition",
        about: "Explore a zone room by room: start, look where you are, go on, or leave.",
    },
    Parent {
        name: "shop",
        about: "Thom Krooke's shop: see the shelves, buy, or sell what you brought home.",
    },
    Parent {
        name: "craft",
        about: "Thom's workbench: turn harvested materials and coins into items.",
    },
    Parent {
        name: "house",
        about: "Your room at Thom's inn: a chest for what you don't carry, and free long rests.",
    },
    Parent {
        name: "rest",
        about: "Rest at Thom's inn, for coins: a short rest by the fire or a long one upstairs.",
    },
    Parent {
        name: "hospital",
        about: "Thom Krooke's hospital: your bill, paying it, and your recovery rest.",
    },
    Parent {
        name: "arena",
        about: "The arena behind Thom's inn: duels to 0 HP (no one dies), and the win streaks.",
    },
    Parent {
        name: "combat",
        about: "The fight in this channel: begin it, join it, see it, or (GM) end it.",
    },
    Parent {
        name: "move",
        about: "Move: into melee, out to range, toward or away, or shift.",
    },
    Parent {
        name: "campaign",
        about: "Campaign settings for this server (Manage Server only).",
    },
    Parent {
        name: "gm",
        about: "Game-master tools (Manage Server only).",
    },
    Parent {
        name: "homebrew",
        about: "This server's own monsters, items and spells (Manage Server only).",
    },
];

impl Commands {
    /// Every command, in the guide's order.
    pub fn all(self) -> impl Iterator<Item = &'static Spec> {
        self.sections.iter().flat_map(|s| s.commands)
    }

    /// The command names (first words), in the guide's order, each once.
    pub fn names(self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = Vec::new();
        for spec in self.all() {
            if !names.contains(&spec.path[0]) {
                names.push(spec.path[0]);
            }
        }
        names
    }

    /// The subcommands of a command name (empty for a command without them).
    pub fn subcommands(self, name: &str) -> Vec<&'static str> {
        self.all()
            .filter(|s| s.path[0] == name)
            .filter_map(|s| s.path.get(1).copied())
            .collect()
    }

    /// The spec whose path is exactly `path`.
    pub fn get(self, path: &[&str]) -> Option<&'static Spec> {
        self.all().find(|s| s.path == path)
    }

    /// The description of a command with subcommands.
    pub fn parent(self, name: &str) -> Option<&'static Parent> {
        self.parents.iter().find(|p| p.name == name)
    }

    /// The autocomplete lists the commands' options draw from, each once, in order of use.
    pub fn suggest_lists(self) -> Vec<Suggest> {
        let mut lists = Vec::new();
        for list in self.all().flat_map(|s| s.options).filter_map(|o| o.suggest) {
            if !lists.contains(&list) {
                lists.push(list);
            }
        }
        lists
    }
}

/// The game's command names (first words), in the guide's order, each once.
pub fn names() -> Vec<&'static str> {
    COMMANDS.names()
}

/// The subcommands of one of the game's commands (empty for a command without them).
pub fn subcommands(name: &str) -> Vec<&'static str> {
    COMMANDS.subcommands(name)
}

/// The game's spec whose path is exactly `path`.
pub fn get(path: &[&str]) -> Option<&'static Spec> {
    COMMANDS.get(path)
}

/// The game's spec an invocation names ([`Commands::find`]).
pub fn find(inv: &Invocation) -> Result<(&'static Spec, Invocation), String> {
    COMMANDS.find(inv)
}

impl Kind {
    /// The value's shape, as the options list shows it.
    pub fn shape(self) -> String {
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

    /// Its example in the guide: `/gm spawn monster:goblin count:3`.
    pub fn example_line(&self) -> String {
        if self.example.is_empty() {
            self.name()
        } else {
            format!("{} {}", self.name(), self.example)
        }
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
                Kind::Text { min_len, max_len } => {
                    let len = value.chars().count();
                    if len > max_len {
                        return Err(format!("`{name}` is at most {max_len} characters."));
                    }
                    if len < min_len {
                        return Err(format!("`{name}` is at least {min_len} characters."));
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

impl Commands {
    /// The spec an invocation names, or why there is none (with the names that exist). The
    /// short forms `/move north` (for `/move shift direction:north`) and `/hospital` (for
    /// `/hospital bill`) are read as those commands.
    pub fn find(self, inv: &Invocation) -> Result<(&'static Spec, Invocation), String> {
        let mut inv = inv.clone();
        let first = inv.path.first().cloned().unwrap_or_default();
        match (first.as_str(), inv.path.get(1).map(String::as_str)) {
            ("move", Some(dir)) if DIRECTIONS.contains(&dir) => {
                inv.options.insert("direction".into(), dir.to_owned());
                inv.path = vec!["move".into(), "shift".into()];
            }
            ("hospital", None) => inv.path.push("bill".into()),
            // `/roll 4d6kh3`, as Avrae players type it: the words after /roll are the dice.
            ("roll", Some(_)) if !inv.options.contains_key("expression") => {
                let dice = inv.path.split_off(1).join(" ");
                inv.options.insert("expression".into(), dice);
            }
            _ => {}
        }
        let subs = self.subcommands(&first);
        if !self.names().contains(&first.as_str()) {
            return Err(format!(
                "I don't know /{first} — the commands are {}. Type help for what each does.",
                self.names()
                    .iter()
                    .map(|n| format!("/{n}"))
                    .collect::<Vec<_>>()
                    .join(" ")
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
        let spec = self.get(&wanted).ok_or_else(|| {
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
        assert!(refusal(&["fly"], &[]).starts_with("I don't know /fly — the commands are /guide /character "));
        let e = refusal(&["character", "dance"], &[]);
        assert!(e.contains("/character create, /character sheet"), "{e}");
        assert!(refusal(&["move"], &[]).contains("/move melee, /move ranged"));
        assert_eq!(refusal(&["attack", "now"], &[]), "/attack has no subcommands.");
    }

    #[test]
    fn choices_come_back_as_registered_and_adapter_forms_are_read() {
        let (spec, i) = find(&inv(&["campaign", "rules"], &[("ruleset", "TDGS")])).unwrap();
        assert_eq!(spec.check(&i).unwrap().options["ruleset"], "tdgs");
        let (spec, i) = find(&inv(&["move", "north"], &[])).unwrap();
        assert_eq!(spec.path, ["move", "shift"]);
        assert_eq!(i.options["direction"], "north");
        assert_eq!(find(&inv(&["hospital"], &[])).unwrap().0.path, ["hospital", "bill"]);
        let (spec, i) = find(&inv(&["roll", "4d6kh3", "+", "2"], &[])).unwrap();
        assert_eq!(
            (spec.path, i.options["expression"].as_str()),
            (&["roll"][..], "4d6kh3 + 2")
        );
    }

    #[test]
    fn text_is_refused_outside_its_length() {
        let e = refusal(&["character", "rename"], &[("name", "A")]);
        assert_eq!(e, "`name` is at least 2 characters.");
        let e = refusal(&["bonus"], &[("ability", "rage"), ("mode", &"x".repeat(21))]);
        assert_eq!(e, "`mode` is at most 20 characters.");
    }

    #[test]
    fn the_declaration_is_whole() {
        let mut paths: Vec<&[&str]> = COMMANDS.all().map(|s| s.path).collect();
        let count = paths.len();
        paths.sort_unstable();
        paths.dedup();
        assert_eq!(paths.len(), count, "each path declared once");
        for name in COMMANDS.names() {
            let subs = COMMANDS.subcommands(name);
            let specs: Vec<&Spec> = COMMANDS.all().filter(|s| s.path[0] == name).collect();
            if subs.is_empty() {
                assert_eq!(specs.len(), 1, "/{name}");
                assert!(
                    COMMANDS.parent(name).is_none(),
                    "/{name} has no subcommands to describe"
                );
            } else {
                assert_eq!(subs.len(), specs.len(), "/{name}: a command has subcommands or not");
                assert!(COMMANDS.parent(name).is_some(), "/{name} needs a description");
                assert!(
                    specs.iter().all(|s| s.gm == specs[0].gm),
                    "/{name}: Manage Server for all or none"
                );
                assert!(specs.iter().all(|s| !s.in_dms), "/{name}: DMs take single commands");
            }
        }
        for parent in COMMANDS.parents {
            assert!(!COMMANDS.subcommands(parent.name).is_empty(), "{}", parent.name);
        }
        // Discord's limits: 1–100 characters of description, at most 25 options.
        for spec in COMMANDS.all() {
            assert!((1..=100).contains(&spec.about.chars().count()), "{}", spec.name());
            assert!(spec.options.len() <= 25, "{}", spec.name());
            for opt in spec.options {
                assert!(
                    (1..=100).contains(&opt.about.chars().count()),
                    "{} {}",
                    spec.name(),
                    opt.name
                );
            }
        }
    }
}
