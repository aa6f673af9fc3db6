//! The combat renderer: a fight's events after one command become one public narration embed
//! (narrated events, HP bars, whose turn is next, pinging them) and, while a player's reaction
//! window is open, a reaction prompt with one button per offered reaction plus Pass.

use engine::combatant::{Combatant, Kind};
use engine::log::{Piece, Said};
use engine::{Combat, CombatantId, Controller, Event, Outcome, ReactionKind, ReactionTrigger, ReactionWindow, Side};
use thiserror::Error;

use crate::custom_id::{MAX_COMBAT_ID, ReactionButton, ReactionChoice, valid_combat_id};
use crate::flavor::{Flavor, FlavorError, Key, mix};
use crate::payload::{
    ActionRow, AllowedMentions, Button, ButtonStyle, Embed, EmbedField, EmbedFooter, MessagePayload, limits,
};
use crate::text::{bold_name, escape_markdown};

/// Embed colours.
pub mod colors {
    pub const FIGHTING: u32 = 0x00E6_7E22;
    pub const REACTION: u32 = 0x00F1_C40F;
    pub const VICTORY: u32 = 0x0057_F287;
    pub const DEFEAT: u32 = 0x0099_AAB5;
    pub const HALTED: u32 = 0x0095_A5A6;
    pub const DEATH: u32 = 0x0023_272A;
    pub const TWINBEE: u32 = 0x0058_65F2;
    pub const THOM: u32 = 0x00A8_7B4F;
    pub const REFUSAL: u32 = 0x00ED_4245;
}

/// Why a render context could not be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RenderError {
    /// The combat id cannot be carried in a button id.
    #[error("combat id {0:?} must be 1–{MAX_COMBAT_ID} ASCII letters, digits, '-' or '_'")]
    BadCombatId(String),
}

/// Which stored state a render is for: the combat's id, its version after the command, and the
/// seed that picks narration lines (the combat's seed: the same fight renders the same text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderContext {
    combat_id: String,
    version: u64,
    seed: u64,
}

impl RenderContext {
    pub fn new(combat_id: &str, version: u64, seed: u64) -> Result<Self, RenderError> {
        if !valid_combat_id(combat_id) {
            return Err(RenderError::BadCombatId(combat_id.to_owned()));
        }
        Ok(Self {
            combat_id: combat_id.to_owned(),
            version,
            seed,
        })
    }

    pub fn combat_id(&self) -> &str {
        &self.combat_id
    }

    pub fn version(&self) -> u64 {
        self.version
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The seed for this command's lines: the fight's seed mixed with the version.
    fn line_seed(&self) -> u64 {
        mix(self.seed, self.version)
    }
}

/// What one command's render sends: the public narration, the tick timeline's running status
/// (ticks only), and, when a player must choose a reaction, the prompt with its buttons.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub narration: MessagePayload,
    /// Ticks: the fight's status — HP, the timeline, who it waits for — kept up to date in place:
    /// the first is posted, later ones edit it (one command may advance many ticks; their
    /// narration is one message, the timeline one edit). `None` under the other models, whose
    /// narration carries the status.
    pub timeline: Option<MessagePayload>,
    pub reaction_prompt: Option<MessagePayload>,
}

impl Rendered {
    /// The messages in the order they are sent.
    pub fn messages(&self) -> impl Iterator<Item = &MessagePayload> {
        std::iter::once(&self.narration)
            .chain(self.timeline.as_ref())
            .chain(self.reaction_prompt.as_ref())
    }
}

/// The renderer: checked flavor lines plus the layout rules. Build once at start.
#[derive(Debug, Clone)]
pub struct Renderer {
    flavor: Flavor,
}

/// How to address a combatant's player: `<@id>` (with the id, to allow exactly that ping) when
/// the controller is a numeric Discord user id; otherwise the table name, bold, pinging no one.
fn mention(c: &Combatant) -> (String, Option<String>) {
    match &c.controller {
        Controller::Player(id) if !id.is_empty() && id.len() <= 20 && id.bytes().all(|b| b.is_ascii_digit()) => {
            (format!("<@{id}>"), Some(id.clone()))
        }
        Controller::Player(table_name) if !table_name.trim().is_empty() => (bold_name(table_name), None),
        _ => (bold_name(&c.name), None),
    }
}

/// A combatant as the narration names them: bold, markdown escaped (`?` for an unknown id).
fn named(c: &Combat, id: CombatantId) -> String {
    bold_name(engine::log::name(c, id))
}

/// A value's pieces as the narration shows them: a combatant's name in bold, content's text
/// with its markdown escaped, numbers and our own words as they are.
fn rich(c: &Combat, pieces: &[Piece]) -> String {
    pieces
        .iter()
        .map(|piece| match piece {
            Piece::Who(id) => named(c, *id),
            Piece::Text(text) => escape_markdown(text),
            Piece::Num(s) | Piece::Word(s) => s.clone(),
        })
        .collect()
}

/// A `Revived` right after the natural-20 death save that caused it: the save's line says it all.
fn revived_by_natural_20(events: &[Event], i: usize, event: &Event) -> bool {
    let Event::Revived { id, .. } = event else {
        return false;
    };
    i > 0
        && matches!(
            &events[i - 1],
            Event::DeathSaveRolled { id: saver, result: engine::death_saves::DeathSaveResult::Revived, .. } if saver == id
        )
}

impl Renderer {
    pub fn new(flavor: Flavor) -> Self {
        Self { flavor }
    }

    /// Loads and checks the embedded flavor files.
    pub fn load() -> Result<Self, FlavorError> {
        Flavor::load().map(Self::new)
    }

    pub fn flavor(&self) -> &Flavor {
        &self.flavor
    }

    /// Renders the state of `combat` after a command and the `events` it produced.
    pub fn combat(&self, combat: &Combat, events: &[Event], ctx: &RenderContext) -> Rendered {
        let on_the_timeline = combat.ruleset == engine::Ruleset::Ticks && combat.started;
        Rendered {
            narration: self.narration(combat, events, ctx),
            timeline: on_the_timeline.then(|| self.status(combat, ctx)),
            reaction_prompt: self.reaction_prompt(combat, ctx).map(|mut prompt| {
                // Shown again (`/combat status`): the reactor was pinged when it was offered.
                if !reaction_offered(events, combat) {
                    prompt.allowed_mentions = Some(AllowedMentions::none());
                }
                prompt
            }),
        }
    }

    /// The narrated lines for `events`, one or more per event (some events are silent).
    pub fn narrate(&self, combat: &Combat, events: &[Event], ctx: &RenderContext) -> Vec<String> {
        let seed = ctx.line_seed();
        events
            .iter()
            .enumerate()
            .filter(|(i, e)| !revived_by_natural_20(events, *i, e))
            .flat_map(|(i, e)| self.narrate_one(combat, e, seed, i as u64))
            .collect()
    }

    fn narrate_one(&self, c: &Combat, event: &Event, seed: u64, salt: u64) -> Vec<String> {
        engine::log::tell(c, event)
            .said
            .iter()
            .map(|said| self.say(c, said, seed, salt))
            .collect()
    }

    /// One narrated line in TwinBee's words: a line of its key picked from the flavor files,
    /// its values filled in (names in bold, content's text escaped), the dice after it.
    fn say(&self, c: &Combat, said: &Said, seed: u64, salt: u64) -> String {
        let values: Vec<(&str, String)> = said.slots.iter().map(|(k, pieces)| (*k, rich(c, pieces))).collect();
        let values: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let line = self.flavor.pick(Key::Say(said.say), seed, salt, &values);
        match &said.check {
            Some(check) => format!("{line} `{check}`"),
            None => line,
        }
    }

    /// The public narration: one embed with the narrated events, HP bars, the timing model's
    /// state and whose turn is next; the content pings the player whose turn it is. On the tick
    /// timeline it is the batch's narration alone, grouped by tick (the status is [`Self::status`],
    /// kept up to date in its own message).
    pub fn narration(&self, combat: &Combat, events: &[Event], ctx: &RenderContext) -> MessagePayload {
        if combat.ruleset == engine::Ruleset::Ticks && combat.started {
            return self.batch_narration(combat, events, ctx);
        }
        let lines = self.narrate(combat, events, ctx);
        let died = events.iter().any(|e| matches!(e, Event::Died { .. }));
        let mut payload = self.status_payload(combat, events, ctx, died);
        payload.embeds[0].description = if lines.is_empty() { None } else { Some(lines.join("\n")) };
        payload.clamp_to_limits()
    }

    /// The fight's status: HP bars, the timing model's state (initiative order, charge race or
    /// tick timeline) and whose turn it is, with what they have left.
    pub fn status(&self, combat: &Combat, ctx: &RenderContext) -> MessagePayload {
        let mut payload = self.status_payload(combat, &[], ctx, false);
        // Edited in place: a ping there would reach no one; the narration pings.
        payload.content = None;
        payload.allowed_mentions = Some(AllowedMentions::none());
        payload.clamp_to_limits()
    }

    fn color(combat: &Combat, died: bool) -> u32 {
        match combat.outcome {
            _ if died => colors::DEATH,
            Some(Outcome::Victory) => colors::VICTORY,
            Some(Outcome::Defeat) => colors::DEFEAT,
            Some(Outcome::Halted) => colors::HALTED,
            None if combat.window.is_some() => colors::REACTION,
            None => colors::FIGHTING,
        }
    }

    fn title(combat: &Combat) -> String {
        let zone = combat
            .terrain
            .zone
            .map(|z| format!(" — {}", z.label()))
            .unwrap_or_default();
        if combat.duel {
            return match combat.outcome {
                Some(_) => "The duel is over — the arena".to_owned(),
                None if combat.round == 0 => "Arena duel".to_owned(),
                None if combat.ruleset == engine::Ruleset::Ticks => {
                    format!("Arena duel · round {} · tick {}", combat.round, combat.model.tick)
                }
                None => format!("Arena duel · round {}", combat.round),
            };
        }
        match combat.outcome {
            Some(Outcome::Victory) => format!("Victory{zone}"),
            Some(Outcome::Defeat) => format!("Defeat{zone}"),
            Some(Outcome::Halted) => format!("The fight is over{zone}"),
            None if combat.round == 0 => format!("Combat{zone}"),
            None if combat.ruleset == engine::Ruleset::Ticks => {
                format!("Round {} · tick {}{zone}", combat.round, combat.model.tick)
            }
            None => format!("Round {}{zone}", combat.round),
        }
    }

    /// The line addressing the player whose turn it is (or whom the timeline waits for), and
    /// the users it may ping: that player only if `events` just passed the turn to them (a turn
    /// started, the timeline came to wait on them, or another player's reaction was answered).
    /// A bystander's `/combat status` or another player's `/combat join` pings no one.
    fn turn_ping(&self, combat: &Combat, events: &[Event], ctx: &RenderContext) -> (Option<String>, Vec<String>) {
        if combat.window.is_none()
            && let Some(id) = combat.current()
            && let Some(c) = combat.combatants.get(id.0 as usize)
            && c.is_player()
            && (combat.ruleset != engine::Ruleset::Ticks || combat.model.timeline.awaiting == Some(id))
        {
            let (mention, user) = mention(c);
            let content = self.flavor.pick(
                Key::TurnPing,
                ctx.line_seed(),
                u64::MAX,
                &[("mention", &mention), ("name", &bold_name(&c.name))],
            );
            let pinged = user.filter(|_| turn_passed_to(combat, events, id));
            return (Some(content), pinged.into_iter().collect());
        }
        (None, Vec::new())
    }

    fn status_payload(&self, combat: &Combat, events: &[Event], ctx: &RenderContext, died: bool) -> MessagePayload {
        let mut fields = hp_fields(combat);
        fields.extend(crate::models::state_field(combat));
        fields.extend(crate::battlefield::field(combat));
        fields.extend(Self::next_up(combat));
        let (content, pinged) = self.turn_ping(combat, events, ctx);
        MessagePayload {
            content,
            embeds: vec![Embed {
                title: Some(Self::title(combat)),
                description: None,
                color: Some(Self::color(combat, died)),
                fields,
                footer: Some(EmbedFooter {
                    text: format!("TwinBee · combat {}", ctx.combat_id),
                }),
            }],
            components: Vec::new(),
            allowed_mentions: Some(AllowedMentions::users(pinged)),
            flags: None,
            attachments: Vec::new(),
        }
    }

    /// Ticks: one command's batch of ticks as one message — the narration grouped under a header
    /// per tick, titled with the ticks it covers; it pings the player the timeline now waits for.
    fn batch_narration(&self, combat: &Combat, events: &[Event], ctx: &RenderContext) -> MessagePayload {
        let seed = ctx.line_seed();
        let mut lines = Vec::new();
        let mut shown: Option<u64> = None;
        let mut first: Option<u64> = None;
        for (i, event) in events.iter().enumerate() {
            if revived_by_natural_20(events, i, event) {
                continue;
            }
            let tick = match event {
                Event::PhaseStarted { tick, .. } | Event::AwaitingCommand { tick, .. } => Some(*tick),
                _ => None,
            };
            if let Some(tick) = tick
                && shown != Some(tick)
            {
                lines.push(format!("**Tick {tick}**"));
                shown = Some(tick);
                first.get_or_insert(tick);
            }
            lines.extend(self.narrate_one(combat, event, seed, i as u64));
        }
        let now = combat.model.tick;
        let ticks = match first {
            Some(first) if first < now => format!("Ticks {first}–{now}"),
            _ => format!("Tick {now}"),
        };
        let title = match combat.outcome {
            Some(_) => Self::title(combat),
            None => format!("{ticks} · round {}", combat.round),
        };
        let died = events.iter().any(|e| matches!(e, Event::Died { .. }));
        let (content, pinged) = self.turn_ping(combat, events, ctx);
        MessagePayload {
            content,
            embeds: vec![Embed {
                title: Some(title),
                description: (!lines.is_empty()).then(|| lines.join("\n")),
                color: Some(Self::color(combat, died)),
                fields: Vec::new(),
                footer: Some(EmbedFooter {
                    text: format!("TwinBee · combat {}", ctx.combat_id),
                }),
            }],
            components: Vec::new(),
            allowed_mentions: Some(AllowedMentions::users(pinged)),
            flags: None,
            attachments: Vec::new(),
        }
        .clamp_to_limits()
    }

    /// The "Up next" field: whose turn it is and what they have left, or who must react.
    fn next_up(combat: &Combat) -> Option<EmbedField> {
        if combat.outcome.is_some() {
            return None;
        }
        if let Some(w) = &combat.window {
            let reactor = combat.combatants.get(w.reactor.0 as usize)?;
            return Some(EmbedField {
                name: "Waiting on a reaction".to_owned(),
                value: format!("{} may react or pass.", bold_name(&reactor.name)),
                inline: false,
            });
        }
        let c = combat.combatants.get(combat.current()?.0 as usize)?;
        Some(EmbedField {
            name: "Up next".to_owned(),
            value: crate::payload::truncate(
                &format!(
                    "▶ {} — {}{}",
                    bold_name(&c.name),
                    crate::models::budget(combat, c),
                    crate::battlefield::below_up_next(combat, c.id)
                ),
                limits::FIELD_VALUE,
            ),
            inline: false,
        })
    }

    /// TwinBee's line opening a reaction prompt: what happened that the reactor may answer.
    fn prompt_line(
        &self,
        combat: &Combat,
        window: &ReactionWindow,
        reactor: &Combatant,
        ctx: &RenderContext,
    ) -> String {
        let n = |id: CombatantId| named(combat, id);
        let name = bold_name(&reactor.name);
        let (key, values): (Key, Vec<(&str, String)>) = match &window.trigger {
            ReactionTrigger::LeavesMelee { mover } => (
                Key::ReactionPromptLeavesMelee,
                vec![("name", name.clone()), ("mover", n(*mover))],
            ),
            ReactionTrigger::Hit {
                attacker,
                target,
                damage,
                ..
            } if *target == window.reactor => (
                Key::ReactionPromptHit,
                vec![
                    ("name", name.clone()),
                    ("attacker", n(*attacker)),
                    ("damage", damage.to_string()),
                ],
            ),
            ReactionTrigger::Hit {
                attacker,
                target,
                damage,
                ..
            } => (
                Key::ReactionPromptAllyHit,
                vec![
                    ("name", name.clone()),
                    ("attacker", n(*attacker)),
                    ("target", n(*target)),
                    ("damage", damage.to_string()),
                ],
            ),
            ReactionTrigger::AttackDeclared { attacker, .. } => (
                Key::ReactionPromptAttackDeclared,
                vec![("name", name.clone()), ("attacker", n(*attacker))],
            ),
            ReactionTrigger::DroppedToZero { ally } => (
                Key::ReactionPromptAllyDown,
                vec![("name", name.clone()), ("ally", n(*ally))],
            ),
            ReactionTrigger::CastsSpell { caster, spell } => (
                Key::ReactionPromptSpell,
                vec![
                    ("name", name.clone()),
                    ("caster", n(*caster)),
                    (
                        "spell",
                        combat
                            .combatants
                            .get(caster.0 as usize)
                            .map_or_else(|| spell.label(), |x| x.spell_name(*spell)),
                    ),
                ],
            ),
            ReactionTrigger::FailedDexSave { damage, .. } => (
                Key::ReactionPromptDexSave,
                vec![("name", name.clone()), ("damage", damage.to_string())],
            ),
            ReactionTrigger::Readied { observed } => (
                Key::ReactionPromptReadied,
                vec![
                    ("name", name.clone()),
                    ("mover", n(observed.actor())),
                    ("did", rich(combat, &engine::log::did(combat, Some(observed)))),
                ],
            ),
            ReactionTrigger::Phase { actor, phase } => (
                match phase {
                    engine::timing::ticks::Phase::Prep => Key::ReactionPromptPrep,
                    _ => Key::ReactionPromptRecover,
                },
                vec![("name", name.clone()), ("mover", n(*actor))],
            ),
        };
        let values: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
        self.flavor.pick(key, ctx.line_seed(), u64::MAX - 1, &values)
    }

    /// The reaction prompt for the open window, if a player must choose: TwinBee's line pinging
    /// the reactor, one button per offered reaction and a Pass button.
    pub fn reaction_prompt(&self, combat: &Combat, ctx: &RenderContext) -> Option<MessagePayload> {
        let window = combat.window.as_ref()?;
        let reactor = combat.combatants.get(window.reactor.0 as usize)?;
        if !reactor.is_player() {
            return None;
        }
        let line = self.prompt_line(combat, window, reactor, ctx);
        let choices = prompt_choices(combat, window);
        let line = if choices.is_empty() {
            line
        } else {
            format!("{line}\nPick one — the others pass:\n{}", choices.join("\n"))
        };
        let (mention, user) = mention(reactor);
        let button = |choice: ReactionChoice| {
            ReactionButton {
                combat_id: ctx.combat_id.clone(),
                version: ctx.version,
                reactor: window.reactor,
                choice,
            }
            .to_string()
        };
        let mut options: Vec<ReactionKind> = Vec::new();
        for kind in &window.options {
            if !options.contains(kind) {
                options.push(*kind);
            }
        }
        let mut buttons: Vec<Button> = options
            .iter()
            .map(|kind| Button::new(ButtonStyle::Primary, kind.label(), button(ReactionChoice::Take(*kind))))
            .collect();
        buttons.push(Button::new(
            ButtonStyle::Secondary,
            "Pass",
            button(ReactionChoice::Pass),
        ));
        let components = buttons
            .chunks(limits::BUTTONS_PER_ROW)
            .map(|row| ActionRow::new(row.to_vec()))
            .collect();
        Some(
            MessagePayload {
                content: Some(format!("{mention} — {line}")),
                embeds: Vec::new(),
                components,
                allowed_mentions: Some(AllowedMentions::users(user)),
                flags: None,
                attachments: Vec::new(),
            }
            .clamp_to_limits(),
        )
    }
}

/// Several queued reactions on the timeline: what each button answers (nothing for one).
fn prompt_choices(combat: &Combat, window: &ReactionWindow) -> Vec<String> {
    if window.choices.len() <= 1 {
        return Vec::new();
    }
    let n = |id: CombatantId| named(combat, id);
    window
        .choices
        .iter()
        .map(|(kind, trigger)| match trigger {
            ReactionTrigger::Phase { actor, phase } => {
                let action = combat
                    .combatants
                    .get(actor.0 as usize)
                    .and_then(|a| a.ticks().current.as_ref())
                    // A one-tick recover already over: still its winding down.
                    .map_or_else(|| "action".into(), |cycle| escape_markdown(&cycle.activity.describe()));
                format!("• **{}** — {}'s {action} ({})", kind.label(), n(*actor), phase.name())
            }
            other => format!("• **{}** — {}", kind.label(), n(other.source())),
        })
        .collect()
}

/// Whether `events` passed the turn to `id`: their turn started, the timeline began waiting on
/// them, or another player answered a reaction and the turn came back to them.
fn turn_passed_to(combat: &Combat, events: &[Event], id: CombatantId) -> bool {
    let other_player = |reactor: CombatantId| {
        reactor != id
            && combat
                .combatants
                .get(reactor.0 as usize)
                .is_some_and(Combatant::is_player)
    };
    events.iter().any(|e| match e {
        Event::TurnStarted { id: started, .. } | Event::AwaitingCommand { id: started, .. } => *started == id,
        Event::ReactionTaken { reactor, .. } | Event::ReactionPassed { reactor } => other_player(*reactor),
        _ => false,
    })
}

/// Whether `events` opened the reaction window now open in `combat` (rather than showing it again).
fn reaction_offered(events: &[Event], combat: &Combat) -> bool {
    combat.window.as_ref().is_some_and(|w| {
        events
            .iter()
            .any(|e| matches!(e, Event::ReactionOffered { reactor, .. } if *reactor == w.reactor))
    })
}

/// The HP bar: ten cells, `██████░░░░ 12/20`.
pub fn hp_bar(hp: i32, max_hp: i32) -> String {
    const CELLS: i32 = 10;
    let max = max_hp.max(1);
    let hp_clamped = hp.clamp(0, max);
    let filled = if hp_clamped == 0 {
        0
    } else {
        ((hp_clamped * CELLS + max - 1) / max).clamp(1, CELLS)
    };
    format!(
        "{}{} {hp}/{max_hp}",
        "█".repeat(filled as usize),
        "░".repeat((CELLS - filled) as usize)
    )
}

/// Death-save marks: `✓ ●●○ · ✗ ●○○`.
fn marks(successes: u8, failures: u8) -> String {
    let row = |n: u8| (0..3).map(|i| if i < n { '●' } else { '○' }).collect::<String>();
    format!("✓ {} · ✗ {}", row(successes), row(failures))
}

/// One combatant's line in the HP fields.
pub fn hp_line(combat: &Combat, c: &Combatant) -> String {
    let current = combat.current() == Some(c.id);
    let name = if c.is_dead() {
        format!("~~{}~~", escape_markdown(&c.name))
    } else {
        bold_name(&c.name)
    };
    let pointer = if current { "▶ " } else { "" };
    let mut status: Vec<String> = Vec::new();
    if c.is_dead() {
        status.push(if matches!(c.sheet.kind, Kind::Monster(_)) {
            "☠ slain".to_owned()
        } else {
            "☠ dead".to_owned()
        });
    } else if c.death.stabilized {
        status.push(format!("stable, wakes in {}", c.death.wakes_in));
    } else if c.is_downed() {
        status.push(format!("downed · {}", marks(c.death.successes, c.death.failures)));
    } else {
        status.extend(crate::battlefield::conditions(c));
        if c.temp_hp > 0 {
            status.push(format!("+{} temp HP", c.temp_hp));
        }
        if let Some(r) = &c.readied
            && !r.fired
        {
            status.push(format!("readied: {}", escape_markdown(&r.action.describe())));
        }
        status.extend(crate::models::statuses(c));
    }
    let status = if status.is_empty() {
        String::new()
    } else {
        format!(" · {}", status.join(", "))
    };
    format!("{pointer}{name} `{}`{status}", hp_bar(c.hp, c.max_hp))
}

/// HP fields: one per side (continued in further fields past 1024 characters).
fn hp_fields(combat: &Combat) -> Vec<EmbedField> {
    let mut fields = Vec::new();
    let titles = if combat.duel {
        [(Side::Party, "Challenger"), (Side::Enemies, "Challenged")]
    } else {
        [(Side::Party, "Party"), (Side::Enemies, "Enemies")]
    };
    for (side, title) in titles {
        let lines: Vec<String> = combat
            .combatants
            .iter()
            .filter(|c| c.side == side)
            .map(|c| hp_line(combat, c))
            .collect();
        let mut chunk = String::new();
        let mut first = true;
        for line in lines {
            let line = crate::payload::truncate(&line, limits::FIELD_VALUE);
            if !chunk.is_empty() && chunk.chars().count() + 1 + line.chars().count() > limits::FIELD_VALUE {
                fields.push(EmbedField {
                    name: if first {
                        title.to_owned()
                    } else {
                        format!("{title} (cont.)")
                    },
                    value: std::mem::take(&mut chunk),
                    inline: false,
                });
                first = false;
            }
            if !chunk.is_empty() {
                chunk.push('\n');
            }
            chunk.push_str(&line);
        }
        if !chunk.is_empty() {
            fields.push(EmbedField {
                name: if first {
                    title.to_owned()
                } else {
                    format!("{title} (cont.)")
                },
                value: chunk,
                inline: false,
            });
        }
    }
    // Leave room for the model's state, the battlefield and the "Up next" field.
    fields.truncate(limits::FIELDS - 3);
    fields
}
