//! Scenario logs as snapshots (STYLE 9): a fight is set up and played from a small script, and
//! its referee's log (one `engine::log::line` per event) is compared with the snapshot under
//! `tests/snapshots/`.
//!
//! A script is data, one line each:
//!
//! ```text
//! seed 7                         # the dice stream
//! party Aria: elf rogue 5        # a player-controlled character: race, class, level
//! enemy Goblin 1: goblin         # a monster from the bestiary, played by the game's AI …
//! enemy Snagtooth: goblin, played by gm  # … or by a player (turns wait, reactions are offered)
//! melee Aria, Goblin 1           # a starting band (melee | near | far) between two opponents
//! hp Aria 3                      # a starting hit-point total
//! begin                          # roll initiative; everything above sets the table
//! @Aria attack Goblin 1          # a player's command (see `command` for the verbs)
//! @Aria react Opportunity Attack # answer an open reaction window …
//! @Aria pass                     # … or let it pass
//! @gm hp Aria -5                 # the Director: GM tools and timed-out windows
//! ```
//!
//! The log echoes each command (`> …`), then the events it caused, or `✗` and the violation
//! when the rules refuse it; it ends with everyone's state. Names resolve with
//! [`Combat::by_name`], as a player would type them.

use chrono::{DateTime, Utc};
use engine::content::{Class, Monster, Race};
use engine::{
    Actor, Band, BonusAction, Combat, Combatant, Command, Controller, CunningMove, Dice, MoveIntent, ReactionKind,
    RuleViolation, ShoveMode, Terrain, apply, log,
};

/// Plays `script` and compares its log with the snapshot `name`.
fn check(name: &str, script: &str) {
    insta::assert_snapshot!(name, play(script));
}

fn now() -> DateTime<Utc> {
    DateTime::from_timestamp(1_800_000_000, 0).expect("a valid timestamp")
}

/// The table while a script plays: the fight being set, then the fight itself.
#[derive(Default)]
struct Table {
    seed: u64,
    combatants: Vec<Combatant>,
    /// Starting bands and hit points, by name, applied when the fight begins.
    bands: Vec<(String, String, Band)>,
    hp: Vec<(String, i32)>,
    fight: Option<(Combat, Dice)>,
    log: Vec<String>,
}

fn play(script: &str) -> String {
    let mut table = Table::default();
    for (number, raw) in script.lines().enumerate() {
        let line = raw.split(" #").next().unwrap_or_default().trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let result = match line.strip_prefix('@') {
            Some(command) => table.command(command),
            None => table.set(line),
        };
        if let Err(problem) = result {
            panic!("script line {}: {line:?}: {problem}", number + 1);
        }
    }
    table.summary();
    table.log.join("\n")
}

/// Splits `"name: rest"`.
fn named(text: &str) -> Result<(&str, &str), String> {
    text.split_once(':')
        .map(|(name, rest)| (name.trim(), rest.trim()))
        .ok_or_else(|| format!("expected \"<name>: …\" in {text:?}"))
}

impl Table {
    /// A setting-up line.
    fn set(&mut self, line: &str) -> Result<(), String> {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        if self.fight.is_some() {
            return Err(format!("\"{word}\" sets the table; it must come before \"begin\""));
        }
        match word {
            "seed" => self.seed = rest.parse().map_err(|e| format!("seed: {e}"))?,
            "party" => {
                let (name, what) = named(rest)?;
                let words: Vec<&str> = what.split_whitespace().collect();
                let [race, class, level] = words[..] else {
                    return Err("party <name>: <race> <class> <level>".into());
                };
                let race = Race::parse(race).ok_or(format!("unknown race {race}"))?;
                let class = Class::parse(class).ok_or(format!("unknown class {class}"))?;
                let level = level.parse().map_err(|e| format!("level: {e}"))?;
                let player = Controller::Player(name.to_lowercase());
                self.combatants
                    .push(Combatant::character(name, race, class, level, player));
            }
            "enemy" => {
                let (name, what) = named(rest)?;
                let (kind, played_by) = match what.split_once(", played by ") {
                    Some((kind, player)) => (kind, Some(player)),
                    None => (what, None),
                };
                let monster = Monster::parse(kind).ok_or(format!("unknown monster {kind}"))?;
                let mut c = Combatant::monster(name, monster);
                if let Some(player) = played_by {
                    c = c.controlled_by(Controller::Player(player.into()));
                }
                self.combatants.push(c);
            }
            "melee" | "near" | "far" => {
                let (a, b) = rest.split_once(',').ok_or("<band> <name>, <name>")?;
                let band = match word {
                    "melee" => Band::Melee,
                    "near" => Band::Near,
                    _ => Band::Far,
                };
                self.bands.push((a.trim().into(), b.trim().into(), band));
            }
            "hp" => {
                let (name, hp) = rest.rsplit_once(' ').ok_or("hp <name> <hit points>")?;
                self.hp.push((name.into(), hp.parse().map_err(|e| format!("hp: {e}"))?));
            }
            "begin" => return self.begin(),
            other => return Err(format!("unknown setting {other:?}")),
        }
        Ok(())
    }

    fn begin(&mut self) -> Result<(), String> {
        let mut combat = Combat::new(std::mem::take(&mut self.combatants), Terrain::default());
        let id = |c: &Combat, name: &str| c.by_name(name).map(|x| x.id).map_err(|e| e.to_string());
        for (a, b, band) in &self.bands {
            let (a, b) = (id(&combat, a)?, id(&combat, b)?);
            combat.set_band(a, b, *band);
        }
        for (name, hp) in &self.hp {
            let who = id(&combat, name)?;
            combat.get_mut(who).hp = *hp;
        }
        for c in &combat.combatants {
            self.log.push(introduce(c));
        }
        self.fight = Some((combat, Dice::seeded(self.seed)));
        self.apply(Actor::Director, Command::Begin);
        Ok(())
    }

    /// A command line (without its `@`): the log gets the echo, then the events or the refusal.
    fn command(&mut self, line: &str) -> Result<(), String> {
        let Some((combat, _)) = &self.fight else {
            return Err("commands come after \"begin\"".into());
        };
        self.log.push(format!("> @{line}"));
        match parse(combat, line)? {
            Ok((actor, command)) => self.apply(actor, command),
            Err(violation) => self.log.push(format!("  ✗ {violation}")),
        }
        Ok(())
    }

    fn apply(&mut self, actor: Actor, command: Command) {
        let (combat, dice) = self.fight.as_mut().expect("the fight has begun");
        match apply(combat, actor, command, dice, now()) {
            Ok(events) => self
                .log
                .extend(events.iter().map(|e| format!("  {}", log::line(combat, e)))),
            Err(violation) => self.log.push(format!("  ✗ {violation}")),
        }
    }

    /// Everyone's state when the script ends, and whose move it is.
    fn summary(&mut self) {
        let Some((combat, _)) = &self.fight else {
            return;
        };
        self.log.push("=".into());
        for c in &combat.combatants {
            let d = &c.death;
            let state = if c.is_dead() {
                "dead".to_owned()
            } else if d.stabilized {
                "stable".to_owned()
            } else if d.downed {
                format!("dying {}✓ {}✗", d.successes, d.failures)
            } else {
                "standing".to_owned()
            };
            self.log
                .push(format!("  {}: {}/{} HP, {state}", c.name, c.hp, c.max_hp));
        }
        let waiting = match (&combat.outcome, &combat.window, combat.current()) {
            (Some(outcome), _, _) => format!("over: {outcome:?}"),
            (None, Some(window), _) => format!("{} may react", combat.get(window.reactor).name),
            (None, None, Some(id)) => format!("{}'s turn", combat.get(id).name),
            (None, None, None) => "not begun".to_owned(),
        };
        self.log.push(format!("  {waiting}"));
    }
}

/// A line introducing a combatant: what it is and the numbers that matter to the log.
fn introduce(c: &Combatant) -> String {
    let what = match (c.race_name(), c.class_name(), c.monster_name()) {
        (Some(race), Some(class), _) => format!("{race} {class} {}", c.level()),
        (_, _, Some(monster)) => monster.to_owned(),
        _ => "?".to_owned(),
    };
    format!(
        "{}: {what}, {}/{} HP, AC {}, speed {} ft",
        c.name,
        c.hp,
        c.max_hp,
        c.armor_class(),
        c.speed()
    )
}

/// Parses a command line: `Ok(Err(_))` is a name the rules don't know (logged as a refusal, as
/// the bot would answer it); `Err(_)` is a script that doesn't parse.
fn parse(combat: &Combat, line: &str) -> Result<Result<(Actor, Command), RuleViolation>, String> {
    let (who, rest) = line.split_once(' ').unwrap_or((line, ""));
    if who == "gm" {
        return director(combat, rest);
    }
    let actor = match combat.by_name(who) {
        Ok(c) => Actor::Combatant(c.id),
        Err(violation) => return Ok(Err(violation)),
    };
    Ok(command(combat, rest)?.map(|command| (actor, command)))
}

/// `@gm pass` (a window timed out), `@gm end`, `@gm hp <name> <±delta>`.
fn director(combat: &Combat, rest: &str) -> Result<Result<(Actor, Command), RuleViolation>, String> {
    let (verb, args) = rest.split_once(' ').unwrap_or((rest, ""));
    let command = match verb {
        "pass" => Ok(Command::Pass),
        "end" => Ok(Command::EndCombat),
        "hp" => {
            let (name, delta) = args.rsplit_once(' ').ok_or("@gm hp <name> <±delta>")?;
            let delta = delta.parse().map_err(|e| format!("delta: {e}"))?;
            combat.by_name(name).map(|t| Command::AdjustHp { target: t.id, delta })
        }
        other => return Err(format!("unknown GM tool {other:?}")),
    };
    Ok(command.map(|c| (Actor::Director, c)))
}

/// A player's command, after the name: the verbs of the slash commands.
fn command(combat: &Combat, text: &str) -> Result<Result<Command, RuleViolation>, String> {
    let (verb, args) = text.split_once(' ').map_or((text, ""), |(v, a)| (v, a.trim()));
    let id = |name: &str| combat.by_name(name).map(|c| c.id);
    let maybe = |name: &str| -> Result<Option<_>, RuleViolation> {
        if name.is_empty() { Ok(None) } else { id(name).map(Some) }
    };
    Ok(match verb {
        "attack" => maybe(args).map(|target| Command::Attack { target }),
        "cast" => {
            let (spell, target) = args.split_once(" at ").unwrap_or((args, ""));
            let spell = engine::content::data::builtin()
                .spell_id(spell)
                .ok_or(format!("unknown spell {spell:?}"))?;
            maybe(target).map(|target| Command::Cast { spell, target })
        }
        "dash" => Ok(Command::Dash),
        "disengage" => Ok(Command::Disengage),
        "dodge" => Ok(Command::Dodge),
        "hide" => Ok(Command::Hide),
        "search" => Ok(Command::Search),
        "end" => Ok(Command::EndTurn),
        "pass" => Ok(Command::Pass),
        "help" => id(args).map(|ally| Command::Help { ally }),
        "stabilize" => id(args).map(|ally| Command::Stabilize { ally }),
        "grapple" => id(args).map(|target| Command::Grapple { target }),
        "shove" => {
            let (target, mode) = args.rsplit_once(' ').ok_or("shove <name> prone|push")?;
            let mode = match mode {
                "prone" => ShoveMode::Prone,
                "push" => ShoveMode::Push,
                other => return Err(format!("shove mode {other:?}")),
            };
            id(target).map(|target| Command::Shove { target, mode })
        }
        "ready" => Ok(Command::Ready { text: args.to_owned() }),
        "use" => {
            let (item, target) = args.split_once(" on ").unwrap_or((args, ""));
            let item = engine::content::data::builtin()
                .item_id(item)
                .ok_or(format!("unknown item {item:?}"))?;
            maybe(target).map(|target| Command::UseItem { item, target })
        }
        "move" => match args.strip_prefix("melee") {
            Some(target) => id(target.trim()).map(|t| Command::Move(MoveIntent::Melee(t))),
            None => MoveIntent::parse_direction(args).map(Command::Move),
        },
        "react" => {
            let kind = ReactionKind::parse(args).ok_or(format!("unknown reaction {args:?}"))?;
            Ok(Command::React(kind))
        }
        "bonus" => return bonus(combat, args),
        other => return Err(format!("unknown verb {other:?}")),
    })
}

/// `bonus <name> [args]`: the bonus actions of §2.2.
fn bonus(combat: &Combat, text: &str) -> Result<Result<Command, RuleViolation>, String> {
    let id = |name: &str| combat.by_name(name).map(|c| c.id);
    let maybe = |name: &str| -> Result<Option<_>, RuleViolation> {
        if name.is_empty() { Ok(None) } else { id(name).map(Some) }
    };
    let after = |prefix: &str| text.strip_prefix(prefix).map(str::trim);
    let bonus = if let Some(target) = after("off-hand") {
        maybe(target).map(|target| BonusAction::OffHandAttack { target })
    } else if text == "second wind" {
        Ok(BonusAction::SecondWind)
    } else if text == "rage" {
        Ok(BonusAction::Rage)
    } else if let Some(how) = after("cunning") {
        let how = match how {
            "dash" => CunningMove::Dash,
            "disengage" => CunningMove::Disengage,
            "hide" => CunningMove::Hide,
            other => return Err(format!("cunning {other:?}")),
        };
        Ok(BonusAction::CunningAction(how))
    } else if let Some(target) = after("healing word") {
        id(target).map(|target| BonusAction::HealingWord { target })
    } else if let Some(target) = after("hunter's mark") {
        id(target).map(|target| BonusAction::HuntersMark { target })
    } else if let Some(target) = after("misty step") {
        maybe(target).map(|target| BonusAction::MistyStep { target })
    } else {
        return Err(format!("unknown bonus action {text:?}"));
    };
    Ok(bonus.map(Command::Bonus))
}

// ---------------------------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------------------------

/// §4, §6: a goblin skirmisher strikes and falls back; leaving Aria's reach offers her an
/// opportunity attack, resolved before it is gone. Her Attack action is two swings at level 5;
/// the second finds no target once the goblin in reach is slain and the other is out of reach.
#[test]
fn fighter_takes_opportunity_attacks_on_retreating_goblins() {
    check(
        "fighter_opportunity_attack",
        "
        seed 1
        party Aria: human fighter 5
        enemy Goblin 1: goblin
        enemy Goblin 2: goblin
        melee Aria, Goblin 1
        melee Aria, Goblin 2
        begin
        @Aria react Opportunity Attack
        @Aria attack Goblin 1
        @Aria end
        @Aria move melee Goblin 2
        @Aria attack Goblin 2
        ",
    );
}

/// §5: a readied attack fires as Aria's reaction when the goblin (played by the GM) moves into
/// melee; with her reaction spent, the goblin's hit offers her no Uncanny Dodge.
#[test]
fn rogue_readies_an_attack_for_the_goblin_moving_into_melee() {
    check(
        "rogue_readied_attack",
        "
        seed 1
        party Aria: elf rogue 5
        enemy Snagtooth: goblin, played by gm
        begin
        @Aria ready attack when the goblin moves into melee range
        @Aria end
        @Snagtooth move melee Aria
        @Aria react Readied Action
        @Snagtooth attack Aria
        @Snagtooth end
        @Aria attack Snagtooth
        ",
    );
}

/// §2.3 Counterspell: the Drow Mage answers Aria's Fireball; Aria may counter the counter, and
/// passes.
#[test]
fn mage_fireball_is_counterspelled_by_a_drow_mage() {
    check(
        "mage_fireball_counterspelled",
        "
        seed 4
        party Aria: human mage 5
        party Bo: human fighter 5
        enemy Drow Mage: drow mage
        enemy Goblin 1: goblin
        enemy Goblin 2: goblin
        begin
        @Aria cast fireball at Goblin 1
        @Aria pass
        ",
    );
}

/// §7: Aria drops to 0 HP and rolls a death save at the start of each of her turns until
/// three successes or three failures end it.
#[test]
fn downed_character_rolls_death_saves_to_the_end() {
    check(
        "downed_death_saves",
        "
        seed 1
        party Aria: human mage 1
        enemy Goblin 1: goblin
        hp Aria 1
        begin
        @Aria end
        ",
    );
}

/// §5, §2.1 Dodge: the party readies a dodge for the dragon's breath; the readied dodges fire
/// before the breath lands, and the DEX saves are rolled with advantage.
#[test]
fn dragon_breath_against_a_party_that_readied_dodge() {
    check(
        "dragon_breath_readied_dodge",
        "
        seed 5
        party Aria: elf rogue 3
        party Bo: dwarf fighter 3
        enemy Ember: red dragon wyrmling
        begin
        @Aria ready dodge when the dragon uses breath weapon
        @Aria end
        @Bo ready dodge when the dragon uses its breath weapon
        @Bo end
        @Aria react Readied Action
        @Bo react Readied Action
        ",
    );
}
