//! Shared builders for the behaviour tests of seed 000 §1–§7: a party of player-controlled
//! characters against monsters, melee placement, forced turns, commands through `engine::apply`,
//! seed searches for the roll a rule needs, and event finders.
//!
//! Each test binary uses a different subset of these helpers; commands are handed over by value,
//! as `engine::apply` takes them.
#![allow(dead_code, clippy::needless_pass_by_value)]

use chrono::{DateTime, Utc};
use engine::action_economy::TurnResources;
use engine::content::data::{Content, ContentError, ContentFile};
use engine::content::{Class, Monster, Race};
use engine::dice::{D20, RollMode};
use engine::event::AttackKind;
use engine::{
    Actor, Band, Combat, Combatant, CombatantId, Command, Controller, Dice, Event, RuleViolation, Terrain, apply, log,
};

/// The fixed instant every test runs at (time is an input, never read).
pub fn now() -> DateTime<Utc> {
    DateTime::from_timestamp(1_700_000_000, 0).unwrap()
}

/// A player-controlled character at full health; the player id is the lower-cased name.
pub fn pc(name: &str, race: Race, class: Class, level: u32) -> Combatant {
    Combatant::character(name, race, class, level, Controller::Player(name.to_lowercase()))
}

/// The built-in content with `toml` as a server's homebrew file over it; a refused file panics
/// with its every problem.
pub fn homebrew(toml: &str) -> Content {
    Content::with_homebrew(&[ContentFile {
        path: "homebrew.toml",
        text: toml,
    }])
    .unwrap_or_else(|e| panic!("{e}"))
}

/// What a homebrew file that must be refused is refused with.
pub fn homebrew_refused(toml: &str) -> ContentError {
    match Content::with_homebrew(&[ContentFile {
        path: "homebrew.toml",
        text: toml,
    }]) {
        Ok(_) => panic!("the file should be refused"),
        Err(e) => e,
    }
}

/// A level-10 fighter, the AI's, against `foe` (also the AI's) under `ruleset`, played out by
/// `Begin`: the fight, its events and her id.
pub fn fighter_against(
    foe: std::sync::Arc<engine::content::data::MonsterDef>,
    ruleset: engine::Ruleset,
    seed: u64,
) -> (Combat, Vec<Event>, CombatantId) {
    let fighter = Combatant::character(
        "Aria",
        Race::HUMAN,
        Class::FIGHTER,
        10,
        Controller::Ai(engine::content::Behaviour::Aggressive),
    );
    let foe = Combatant::of_monster("Lurker", foe);
    let mut combat = Combat::new(vec![fighter, foe], engine::Terrain::default()).with_ruleset(ruleset);
    let aria = combat.combatants[0].id;
    let mut dice = Dice::seeded(seed);
    let events = apply(&mut combat, Actor::Director, Command::Begin, &mut dice, now()).expect("the fight begins");
    (combat, events, aria)
}

/// A monster played by the game (its behaviour profile chooses at once).
pub fn monster(name: &str, kind: Monster) -> Combatant {
    Combatant::monster(name, kind)
}

/// A monster whose turns and reactions a test drives by hand (a GM at the table).
pub fn puppet(name: &str, kind: Monster) -> Combatant {
    Combatant::monster(name, kind).controlled_by(Controller::Player("gm".into()))
}

/// One `AttackRolled`, flattened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Roll {
    pub attacker: CombatantId,
    pub target: CombatantId,
    pub kind: AttackKind,
    pub swing: u32,
    pub of: u32,
    pub d20: D20,
    pub total: i32,
    pub armor_class: i32,
    pub hit: bool,
    pub critical: bool,
}

/// Every attack roll in `events`, in order.
pub fn rolls(events: &[Event]) -> Vec<Roll> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::AttackRolled {
                attacker,
                target,
                kind,
                swing,
                of,
                d20,
                total,
                armor_class,
                hit,
                critical,
                ..
            } => Some(Roll {
                attacker: *attacker,
                target: *target,
                kind: *kind,
                swing: *swing,
                of: *of,
                d20: *d20,
                total: *total,
                armor_class: *armor_class,
                hit: *hit,
                critical: *critical,
            }),
            _ => None,
        })
        .collect()
}

/// Amounts of every `DamageDealt` to `target`, in order.
pub fn damage_to(events: &[Event], target: CombatantId) -> Vec<i32> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::DamageDealt { target: t, amount, .. } if *t == target => Some(*amount),
            _ => None,
        })
        .collect()
}

/// Amounts of every `Healed` of `target`, in order.
pub fn healed(events: &[Event], target: CombatantId) -> Vec<i32> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Healed { target: t, amount, .. } if *t == target => Some(*amount),
            _ => None,
        })
        .collect()
}

/// Index of the first event matching `pred`.
pub fn position(events: &[Event], pred: impl Fn(&Event) -> bool) -> Option<usize> {
    events.iter().position(pred)
}

/// Whether any event matches `pred`.
pub fn any(events: &[Event], pred: impl Fn(&Event) -> bool) -> bool {
    events.iter().any(pred)
}

/// The reaction options offered to `reactor`, if a `ReactionOffered` for it is among `events`.
pub fn offered_to(events: &[Event], reactor: CombatantId) -> Option<Vec<engine::ReactionKind>> {
    events.iter().find_map(|e| match e {
        Event::ReactionOffered {
            reactor: r, options, ..
        } if *r == reactor => Some(options.clone()),
        _ => None,
    })
}

/// The first seed whose fresh dice stream satisfies `pred`.
pub fn seed_where(pred: impl Fn(&mut Dice) -> bool) -> u64 {
    (0..100_000)
        .find(|&seed| pred(&mut Dice::seeded(seed)))
        .expect("no seed gives that roll")
}

/// A fight under test: the combat, its dice, and everything that happened so far.
pub struct Fight {
    pub combat: Combat,
    pub dice: Dice,
    pub log: Vec<Event>,
}

impl Fight {
    /// A fight between `combatants` (ids in order), in an ordinary room.
    pub fn new(combatants: Vec<Combatant>) -> Self {
        Self::in_room(combatants, Terrain::default())
    }

    pub fn in_room(combatants: Vec<Combatant>, terrain: Terrain) -> Self {
        Self {
            combat: Combat::new(combatants, terrain),
            dice: Dice::seeded(0),
            log: Vec::new(),
        }
    }

    /// The id of the combatant called `name`.
    pub fn id(&self, name: &str) -> CombatantId {
        self.combat.by_name(name).expect("no such combatant").id
    }

    pub fn get(&self, id: CombatantId) -> &Combatant {
        self.combat.get(id)
    }

    pub fn get_mut(&mut self, id: CombatantId) -> &mut Combatant {
        self.combat.get_mut(id)
    }

    pub fn band(&self, a: CombatantId, b: CombatantId) -> Band {
        self.combat.band(a, b)
    }

    /// Places `a` and `b` in melee with each other.
    pub fn melee(&mut self, a: CombatantId, b: CombatantId) {
        self.combat.set_band(a, b, Band::Melee);
    }

    pub fn set_band(&mut self, a: CombatantId, b: CombatantId, band: Band) {
        self.combat.set_band(a, b, band);
    }

    /// Starts the fight at `id`'s turn without rolling initiative: the order is `id`, then the
    /// others by id; round 1; everyone holds fresh turn resources.
    pub fn turn_of(&mut self, id: CombatantId) {
        let mut order = vec![id];
        order.extend(self.combat.combatants.iter().map(|c| c.id).filter(|&c| c != id));
        self.start_with_order(order);
    }

    /// Starts the fight with this initiative order, at its first entry's turn.
    pub fn start_with_order(&mut self, order: Vec<CombatantId>) {
        self.combat.order = order;
        self.combat.turn = 0;
        self.combat.round = 1;
        self.combat.started = true;
        for c in &mut self.combat.combatants {
            c.resources = TurnResources::fresh(c.speed());
        }
    }

    /// Whose turn it is.
    pub fn current(&self) -> CombatantId {
        self.combat.current().expect("no one is acting")
    }

    /// Applies `command` from `actor`, recording the events on success.
    pub fn apply(&mut self, actor: Actor, command: Command) -> Result<Vec<Event>, RuleViolation> {
        let events = apply(&mut self.combat, actor, command, &mut self.dice, now())?;
        self.log.extend(events.iter().cloned());
        Ok(events)
    }

    /// `id` does `command`, which must be legal.
    pub fn act(&mut self, id: CombatantId, command: Command) -> Vec<Event> {
        let shown = format!("{command:?}");
        match self.apply(Actor::Combatant(id), command) {
            Ok(events) => events,
            Err(why) => panic!(
                "{} could not {shown}: {why:?}\n{}",
                self.get(id).name,
                self.transcript()
            ),
        }
    }

    /// The Director (the game) does `command`, which must be legal.
    pub fn direct(&mut self, command: Command) -> Vec<Event> {
        self.apply(Actor::Director, command)
            .expect("the director's command is legal")
    }

    /// `actor`'s `command` must be refused, leaving the combat and the dice exactly as they were.
    pub fn refused(&mut self, actor: Actor, command: Command) -> RuleViolation {
        let before = self.combat.clone();
        let dice_before = self.dice.position();
        let log_len = self.log.len();
        let why = self
            .apply(actor, command.clone())
            .expect_err(&format!("{command:?} should be refused"));
        assert_eq!(self.combat, before, "a refused {command:?} changed the combat");
        assert_eq!(
            self.dice.position(),
            dice_before,
            "a refused {command:?} moved the dice"
        );
        assert_eq!(self.log.len(), log_len);
        why
    }

    /// Shorthand for a combatant's command that must be refused.
    pub fn refused_for(&mut self, id: CombatantId, command: Command) -> RuleViolation {
        self.refused(Actor::Combatant(id), command)
    }

    /// Applies `command` with the first dice seed for which the events satisfy `pred`, and keeps
    /// that outcome (the dice continue from where that seed left them).
    pub fn act_where(
        &mut self,
        actor: Actor,
        command: Command,
        pred: impl Fn(&[Event], &Combat) -> bool,
    ) -> Vec<Event> {
        for seed in 0..20_000 {
            let mut combat = self.combat.clone();
            let mut dice = Dice::seeded(seed);
            if let Ok(events) = apply(&mut combat, actor, command.clone(), &mut dice, now())
                && pred(&events, &combat)
            {
                self.combat = combat;
                self.dice = dice;
                self.log.extend(events.iter().cloned());
                return events;
            }
        }
        panic!("no seed makes {command:?} come out that way\n{}", self.transcript());
    }

    /// `id`'s command, with the first seed whose events satisfy `pred`.
    pub fn act_with(
        &mut self,
        id: CombatantId,
        command: Command,
        pred: impl Fn(&[Event], &Combat) -> bool,
    ) -> Vec<Event> {
        self.act_where(Actor::Combatant(id), command, pred)
    }

    /// A copy of the dice as they stand: rolling it shows what the engine will roll next.
    pub fn upcoming(&self) -> Dice {
        self.dice.clone()
    }

    /// The log so far, one readable line per event.
    pub fn transcript(&self) -> String {
        lines(&self.combat, &self.log)
    }
}

/// `events` as readable lines.
pub fn lines(combat: &Combat, events: &[Event]) -> String {
    events
        .iter()
        .map(|e| log::line(combat, e))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether a d20 was rolled with advantage.
pub fn advantage(d20: &D20) -> bool {
    d20.mode == RollMode::Advantage
}

/// Whether a d20 was rolled with disadvantage.
pub fn disadvantage(d20: &D20) -> bool {
    d20.mode == RollMode::Disadvantage
}
