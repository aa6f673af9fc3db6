//! Invariants of `apply` as properties (STYLE 10; seed 000 §1, §2.3, §5, §7): random parties
//! (race, class, level 1–20), random monster groups from the bestiary, random seeds, and random
//! sequences of player commands — legal and illegal — with reaction windows answered at random.
//!
//! After every `apply`: turn resources are never negative, HP stays within [0, max], death-save
//! marks within 0–3, the initiative order is a permutation of the combatants living at the start,
//! an `Err` changes nothing (combat and dice), and an `Ok` stops only where a player must answer.
//! Across runs: the fight always ends; the same seed and commands give a byte-identical log;
//! replaying the recorded commands rebuilds the same state; and a fight saved to JSON inside a
//! reaction window resumes with the same events.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::mpsc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use engine::combatant::CunningStrike;
use engine::content::{Behaviour, Class, Item, Monster, Race, Spell};
use engine::movement::Direction;
use engine::{
    Actor, BonusAction, Combat, Combatant, CombatantId, Command, Controller, CunningMove, Dice, DicePosition, Event,
    MoveIntent, ReactionKind, ShoveMode, Terrain, apply,
};
use proptest::prelude::*;

/// The built-in spells and items, in their files' order.
const SPELLS: [Spell; 13] = [
    Spell::FIRE_BOLT,
    Spell::SACRED_FLAME,
    Spell::ELDRITCH_BLAST,
    Spell::MAGIC_MISSILE,
    Spell::CURE_WOUNDS,
    Spell::HEALING_WORD,
    Spell::HUNTERS_MARK,
    Spell::ENTANGLE,
    Spell::WEB,
    Spell::MISTY_STEP,
    Spell::HASTE,
    Spell::FIREBALL,
    Spell::COUNTERSPELL,
];
const ITEMS: [Item; 5] = [
    Item::POTION_OF_HEALING,
    Item::POTION_OF_GREATER_HEALING,
    Item::POTION_OF_HASTE,
    Item::SCROLL_OF_MAGIC_MISSILE,
    Item::ANTITOXIN,
];

fn now() -> DateTime<Utc> {
    DateTime::from_timestamp(1_800_000_000, 0).expect("a valid timestamp")
}

/// Most `apply` calls a driven fight may take to end once the random commands run out (100
/// rounds of end-turns and passes fit well within it).
const FINISH_LIMIT: usize = 5_000;

/// How long one case may run before it counts as a hang.
const HANG: Duration = Duration::from_secs(30);

// ---------------------------------------------------------------------------------------------
// Random fights
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone)]
struct Member {
    race: Race,
    class: Class,
    level: u32,
    /// Controlled by a player (turns wait for commands, reactions open windows) or by the AI.
    player: bool,
}

#[derive(Debug, Clone)]
struct Setup {
    party: Vec<Member>,
    monsters: Vec<Monster>,
    seed: u64,
}

impl Setup {
    fn combat(&self) -> Combat {
        let party = self.party.iter().enumerate().map(|(i, m)| {
            let controller = if m.player {
                Controller::Player(format!("player-{i}"))
            } else {
                Controller::Ai(Behaviour::Aggressive)
            };
            Combatant::character(&format!("Hero {}", i + 1), m.race, m.class, m.level, controller)
        });
        let monsters = self
            .monsters
            .iter()
            .enumerate()
            .map(|(i, m)| Combatant::monster(&format!("{} {}", m.name(), i + 1), *m));
        Combat::new(party.chain(monsters).collect(), Terrain::default())
    }
}

fn member(player: impl Strategy<Value = bool>) -> impl Strategy<Value = Member> {
    (
        prop::sample::select(Race::all()),
        prop::sample::select(Class::all()),
        1..=20u32,
        player,
    )
        .prop_map(|(race, class, level, player)| Member {
            race,
            class,
            level,
            player,
        })
}

fn setup(player: impl Strategy<Value = bool> + Clone) -> impl Strategy<Value = Setup> {
    (
        prop::collection::vec(member(player), 1..=4),
        prop::collection::vec(prop::sample::select(Monster::all()), 1..=4),
        any::<u64>(),
    )
        .prop_map(|(party, monsters, seed)| Setup { party, monsters, seed })
}

/// One random input: what to do, to whom, and who sends it. Mapped onto the fight as it stands
/// (see [`command_for`]), so most are aimed at real combatants and some are plainly illegal.
#[derive(Debug, Clone, Copy)]
struct Op {
    what: u8,
    target: u8,
    who: u8,
}

fn ops(max: usize) -> impl Strategy<Value = Vec<Op>> {
    prop::collection::vec(
        any::<(u8, u8, u8)>().prop_map(|(what, target, who)| Op { what, target, who }),
        0..max,
    )
}

const READY_TEXTS: [&str; 10] = [
    "attack when an enemy moves into melee range",
    "attack when an enemy moves",
    "cast fire bolt when an enemy moves",
    "attack when an enemy leaves melee",
    "dodge when an enemy moves",
    "cast magic missile when an enemy casts a spell",
    "dodge when the dragon uses breath weapon",
    "attack when the goblin attacks an ally",
    "attack when the moon rises",
    "sing when an enemy moves",
];

/// The command `op` stands for in `combat`, and who sends it: usually whoever is expected to
/// (the reactor of an open window, else the combatant whose turn it is), sometimes the Director,
/// someone else, or nobody in the fight. Ids run two past the end, so some targets are unknown.
fn command_for(combat: &Combat, op: Op) -> (Actor, Command) {
    let n = combat.combatants.len() as u32;
    let id = |x: u8| CombatantId(u32::from(x) % (n + 2));
    let maybe = |x: u8| (!x.is_multiple_of(4)).then(|| id(x / 4));
    let expected = combat
        .window
        .as_ref()
        .map(|w| w.reactor)
        .or_else(|| combat.current())
        .map_or(Actor::Director, Actor::Combatant);
    let actor = match op.who % 16 {
        0 => Actor::Director,
        1 => Actor::Combatant(id(op.who / 16)),
        _ => expected,
    };
    let t = op.target;
    if let Some(window) = &combat.window {
        match op.what % 5 {
            0 | 1 => {
                return (
                    actor,
                    Command::React(window.options[usize::from(t) % window.options.len()]),
                );
            }
            2 => return (actor, Command::Pass),
            3 => {
                return (
                    actor,
                    Command::React(ReactionKind::ALL[usize::from(t) % ReactionKind::ALL.len()]),
                );
            }
            _ => {}
        }
    }
    let command = match op.what % 26 {
        0..=2 => Command::Attack { target: maybe(t) },
        3 => Command::Cast {
            spell: SPELLS[usize::from(t) % SPELLS.len()],
            target: maybe(t / 16),
        },
        4 => Command::Dash,
        5 => Command::Disengage,
        6 => Command::Dodge,
        7 => Command::Help { ally: id(t) },
        8 => Command::Hide,
        9 => Command::Ready {
            text: READY_TEXTS[usize::from(t) % READY_TEXTS.len()].to_owned(),
        },
        10 => Command::UseItem {
            item: ITEMS[usize::from(t) % ITEMS.len()],
            target: maybe(t / 8),
        },
        11 => Command::Search,
        12 => Command::Grapple { target: id(t) },
        13 => Command::Shove {
            target: id(t / 2),
            mode: if t.is_multiple_of(2) {
                ShoveMode::Prone
            } else {
                ShoveMode::Push
            },
        },
        14 => Command::Stabilize { ally: id(t) },
        15 => Command::Bonus(bonus(t, id(t / 8), maybe(t / 8))),
        16 | 17 => Command::Move(match t % 5 {
            0 | 1 => MoveIntent::Melee(id(t / 5)),
            2 => MoveIntent::Ranged,
            3 => MoveIntent::Toward,
            _ => MoveIntent::Away,
        }),
        18 => Command::Move(MoveIntent::Shift(Direction::North)),
        19..=21 => Command::EndTurn,
        22 => Command::React(ReactionKind::ALL[usize::from(t) % ReactionKind::ALL.len()]),
        23 => Command::Pass,
        24 => Command::AdjustHp {
            target: id(t),
            delta: i32::from(op.who as i8),
        },
        _ => match t % 8 {
            0 => Command::EndCombat,
            _ => Command::Begin,
        },
    };
    (actor, command)
}

fn bonus(t: u8, target: CombatantId, maybe: Option<CombatantId>) -> BonusAction {
    match t % 8 {
        0 => BonusAction::OffHandAttack { target: maybe },
        1 => BonusAction::SecondWind,
        2 => BonusAction::CunningAction(
            [CunningMove::Dash, CunningMove::Disengage, CunningMove::Hide][usize::from(t / 8) % 3],
        ),
        3 => BonusAction::HealingWord { target },
        4 => BonusAction::HuntersMark { target },
        5 => BonusAction::Rage,
        6 => BonusAction::MistyStep { target: maybe },
        _ => BonusAction::CunningStrike(
            [CunningStrike::Trip, CunningStrike::Poison, CunningStrike::Withdraw][usize::from(t / 8) % 3],
        ),
    }
}

// ---------------------------------------------------------------------------------------------
// Invariants
// ---------------------------------------------------------------------------------------------

/// Ids of the combatants alive when the fight is set up, sorted.
fn living_ids(combat: &Combat) -> Vec<CombatantId> {
    combat
        .combatants
        .iter()
        .filter(|c| !c.is_dead())
        .map(|c| c.id)
        .collect()
}

/// What must hold after every `apply`, whatever it returned.
fn assert_invariants(combat: &Combat, at_start: &[CombatantId]) {
    for c in &combat.combatants {
        let r = &c.resources;
        assert!(
            r.movement_used >= 0 && r.movement_total >= 0 && r.movement_used <= r.movement_total,
            "{}: movement {r:?}",
            c.name
        );
        assert!(
            r.movement_left() >= 0,
            "{}: movement left {}",
            c.name,
            r.movement_left()
        );
        assert!((0..=c.max_hp).contains(&c.hp), "{}: {} / {} HP", c.name, c.hp, c.max_hp);
        assert!(
            c.death.successes <= 3 && c.death.failures <= 3,
            "{}: death saves {:?}",
            c.name,
            c.death
        );
    }
    if combat.started {
        let mut order = combat.order.clone();
        order.sort();
        assert_eq!(order, at_start, "initiative order {:?}", combat.order);
    }
}

/// After an `Ok`, resolution has stopped for a reason: the fight is over, a window waits for its
/// reactor, or it is a standing player's turn with nothing left in the queue. Anything else is a
/// stuck turn.
fn assert_waits_for_a_player(combat: &Combat) {
    if combat.outcome.is_some() {
        return;
    }
    if let Some(window) = &combat.window {
        let reactor = combat.get(window.reactor);
        assert!(
            reactor.is_player(),
            "a window opened for AI-controlled {}",
            reactor.name
        );
        assert!(
            !window.options.is_empty(),
            "a window with no options for {}",
            reactor.name
        );
        return;
    }
    let current = combat.current().expect("a fight in progress has a current turn");
    let c = combat.get(current);
    assert!(
        c.is_player() && c.is_standing() && combat.queue.is_empty(),
        "stopped on {}'s turn (player: {}, standing: {}) with {} steps queued",
        c.name,
        c.is_player(),
        c.is_standing(),
        combat.queue.len()
    );
}

/// Commands the rules must never refuse (shakmaty's `legals_are_legal`): the reactor taking an
/// offered reaction or passing, and a standing player ending their own turn.
fn is_always_legal(combat: &Combat, actor: Actor, command: &Command) -> bool {
    if combat.outcome.is_some() {
        return false;
    }
    match (&combat.window, command) {
        (Some(window), Command::React(kind)) => {
            actor == Actor::Combatant(window.reactor) && window.options.contains(kind)
        }
        (Some(window), Command::Pass) => actor == Actor::Combatant(window.reactor) || actor == Actor::Director,
        (None, Command::EndTurn) => combat.current().is_some_and(|id| actor == Actor::Combatant(id)),
        _ => false,
    }
}

// ---------------------------------------------------------------------------------------------
// The table: a fight driven by random commands
// ---------------------------------------------------------------------------------------------

/// The fight saved inside a reaction window: JSON as a database would hold it, and where the
/// driver stood.
struct Saved {
    combat: String,
    dice: String,
    cursor: usize,
    events: usize,
}

struct Table {
    combat: Combat,
    dice: Dice,
    at_start: Vec<CombatantId>,
    /// Every event, in order.
    events: Vec<Event>,
    /// The commands that were accepted, as a store would record them.
    accepted: Vec<(Actor, Command)>,
    /// Next op to play.
    cursor: usize,
    windows_seen: usize,
    /// Save the fight inside the `save_at`-th window that opens (0 = never).
    save_at: usize,
    saved: Option<Saved>,
}

impl Table {
    fn new(combat: Combat, dice: Dice, save_at: usize) -> Self {
        Self {
            at_start: living_ids(&combat),
            combat,
            dice,
            events: Vec::new(),
            accepted: Vec::new(),
            cursor: 0,
            windows_seen: 0,
            save_at,
            saved: None,
        }
    }

    /// Applies one command and checks everything that must hold after it.
    fn play(&mut self, actor: Actor, command: Command) {
        let before = self.combat.clone();
        let dice_before = self.dice.position();
        let window_before = self.combat.window.is_some();
        let must_accept = is_always_legal(&self.combat, actor, &command);
        match apply(&mut self.combat, actor, command.clone(), &mut self.dice, now()) {
            Ok(events) => {
                self.events.extend(events);
                self.accepted.push((actor, command));
                assert_waits_for_a_player(&self.combat);
                if self.combat.window.is_some() && !(window_before && self.combat.window == before.window) {
                    self.windows_seen += 1;
                    if self.windows_seen == self.save_at && self.saved.is_none() {
                        self.saved = Some(Saved {
                            combat: serde_json::to_string(&self.combat).expect("a combat serialises"),
                            dice: serde_json::to_string(&self.dice.position()).expect("a position serialises"),
                            cursor: self.cursor,
                            events: self.events.len(),
                        });
                    }
                }
            }
            Err(violation) => {
                assert!(!must_accept, "{actor:?} {command:?} was refused: {violation:?}");
                assert_eq!(
                    self.combat, before,
                    "{actor:?} {command:?} → {violation:?} changed the combat"
                );
                assert_eq!(
                    self.dice.position(),
                    dice_before,
                    "{actor:?} {command:?} → {violation:?} moved the dice"
                );
            }
        }
        assert_invariants(&self.combat, &self.at_start);
    }

    /// Plays the random ops from the cursor, then ends turns and passes until the fight is over.
    fn run(&mut self, ops: &[Op]) {
        if !self.combat.started {
            self.play(Actor::Director, Command::Begin);
        }
        while let Some(&op) = ops.get(self.cursor) {
            self.cursor += 1;
            let (actor, command) = command_for(&self.combat, op);
            self.play(actor, command);
        }
        for _ in 0..FINISH_LIMIT {
            if self.combat.outcome.is_some() {
                return;
            }
            if let Some(window) = &self.combat.window {
                let reactor = window.reactor;
                self.play(Actor::Combatant(reactor), Command::Pass);
            } else {
                let current = self.combat.current().expect("a fight in progress has a current turn");
                self.play(Actor::Combatant(current), Command::EndTurn);
            }
        }
        panic!("the fight did not end within {FINISH_LIMIT} commands after the script");
    }
}

fn log_bytes(events: &[Event]) -> String {
    serde_json::to_string(events).expect("events serialise")
}

/// Runs `f` on another thread; a case that runs longer than [`HANG`] is a hang and fails.
fn finishes<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    let handle = std::thread::spawn(move || {
        let result = catch_unwind(AssertUnwindSafe(f));
        let _ = tx.send(result);
    });
    match rx.recv_timeout(HANG) {
        Ok(Ok(value)) => {
            let _ = handle.join();
            value
        }
        Ok(Err(panic)) => resume_unwind(panic),
        Err(mpsc::RecvTimeoutError::Timeout | mpsc::RecvTimeoutError::Disconnected) => {
            panic!("the case did not finish within {HANG:?}: the engine is looping")
        }
    }
}

fn driven_fight(setup: &Setup, ops: &[Op], save_at: usize) {
    let initial = setup.combat();
    let mut table = Table::new(initial.clone(), Dice::seeded(setup.seed), save_at);
    table.run(ops);
    assert!(table.combat.outcome.is_some());

    // Same seed + same commands ⇒ byte-identical log.
    let mut twin = Table::new(initial.clone(), Dice::seeded(setup.seed), 0);
    twin.run(ops);
    assert_eq!(
        log_bytes(&twin.events),
        log_bytes(&table.events),
        "same seed, same commands"
    );

    // Replay ⇒ same state, same log.
    let mut replayed = initial.clone();
    let mut dice = Dice::seeded(setup.seed);
    let mut replay_events = Vec::new();
    for (actor, command) in &table.accepted {
        let events = apply(&mut replayed, *actor, command.clone(), &mut dice, now())
            .unwrap_or_else(|v| panic!("replaying {actor:?} {command:?} was refused: {v:?}"));
        replay_events.extend(events);
    }
    assert_eq!(replayed, table.combat, "replay rebuilds the state");
    assert_eq!(
        dice.position(),
        table.dice.position(),
        "replay leaves the dice where they were"
    );
    assert_eq!(
        log_bytes(&replay_events),
        log_bytes(&table.events),
        "replay rebuilds the log"
    );

    // Saved inside a reaction window, restored from JSON: the rest of the fight is the same.
    if let Some(saved) = table.saved.take() {
        let combat: Combat = serde_json::from_str(&saved.combat).expect("a saved combat deserialises");
        assert!(combat.window.is_some());
        let position: DicePosition = serde_json::from_str(&saved.dice).expect("a saved position deserialises");
        let mut resumed = Table::new(combat, Dice::at(position), 0);
        resumed.at_start.clone_from(&table.at_start);
        resumed.cursor = saved.cursor;
        resumed.run(ops);
        assert_eq!(
            log_bytes(&resumed.events),
            log_bytes(&table.events[saved.events..]),
            "a fight restored mid-window resumes with the same events"
        );
        assert_eq!(resumed.combat, table.combat, "and ends in the same state");
    }
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

/// Cases per property: `default`, or `PROPTEST_CASES` for a deeper run.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(256),
        max_shrink_time: 60_000,
        ..ProptestConfig::default()
    })]

    /// Player-driven fights (mostly player-controlled parties) under random legal and illegal
    /// commands keep every invariant, end, are deterministic, replay, and survive a restart
    /// inside a reaction window.
    #[test]
    fn random_commands_keep_the_rules_invariants(
        setup in setup(prop::bool::weighted(0.8)),
        ops in ops(160),
        save_at in 0..6usize,
    ) {
        finishes(move || driven_fight(&setup, &ops, save_at));
    }

    /// All-AI fights (any races, classes, levels, monsters, seeds) finish inside one `apply`.
    #[test]
    fn all_ai_fights_finish(setup in setup(Just(false))) {
        finishes(move || {
            let initial = setup.combat();
            let at_start = living_ids(&initial);
            let mut logs = Vec::new();
            for _ in 0..2 {
                let mut combat = initial.clone();
                let mut dice = Dice::seeded(setup.seed);
                let events = apply(&mut combat, Actor::Director, Command::Begin, &mut dice, now())
                    .expect("a fight with both sides begins");
                assert!(combat.outcome.is_some(), "an all-AI fight stopped before its end");
                assert_invariants(&combat, &at_start);
                assert!(matches!(events.last(), Some(Event::CombatEnded { .. })));
                logs.push(log_bytes(&events));
            }
            assert_eq!(logs[0], logs[1], "same seed ⇒ byte-identical log");
        });
    }

    /// Initiative is rolled once: the order is a permutation of the combatants alive at the
    /// start, and a second `Begin` is refused without touching anything.
    #[test]
    fn initiative_is_a_permutation_of_the_living(setup in setup(Just(true))) {
        let mut combat = setup.combat();
        let at_start = living_ids(&combat);
        let mut dice = Dice::seeded(setup.seed);
        apply(&mut combat, Actor::Director, Command::Begin, &mut dice, now()).expect("begins");
        let mut order = combat.order.clone();
        order.sort();
        prop_assert_eq!(order, at_start);
        let before = combat.clone();
        let position = dice.position();
        prop_assert!(apply(&mut combat, Actor::Director, Command::Begin, &mut dice, now()).is_err());
        prop_assert_eq!(combat, before);
        prop_assert_eq!(dice.position(), position);
    }
}
