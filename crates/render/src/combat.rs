//! The combat renderer: a fight's events after one command become one public narration embed
//! (narrated events, HP bars, whose turn is next, pinging them) and, while a player's reaction
//! window is open, a reaction prompt with one button per offered reaction plus Pass.

use engine::combatant::{Combatant, Kind};
use engine::dice::{D20, RollMode};
use engine::event::AttackKind;
use engine::movement::Band;
use engine::state::damage::Defence;
use engine::{Combat, CombatantId, Controller, Event, Outcome, ReactionKind, ReactionTrigger, ShoveMode, Side};
use thiserror::Error;

use crate::custom_id::{MAX_COMBAT_ID, ReactionButton, ReactionChoice, valid_combat_id};
use crate::flavor::{Flavor, FlavorError, Key, mix};
use crate::payload::{
    ActionRow, AllowedMentions, Button, ButtonStyle, Embed, EmbedField, EmbedFooter, MessagePayload, limits,
};
use crate::text::{bold_name, escape_markdown, lower_words};

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

/// "1 turn", "3 turns".
fn turns(n: impl Into<u64>) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { "turn" } else { "turns" })
}

/// What a readied action's trigger did, as the verb after its doer: "moves", "casts Fire Bolt",
/// "uses its breath weapon", "attacks Bo", "closes in", "pulls away".
fn did(combat: &Combat, observed: Option<&engine::readied::Observed>, n: &dyn Fn(CombatantId) -> String) -> String {
    use engine::readied::Observed;
    match observed {
        None | Some(Observed::Moves { .. }) => "moves".into(),
        Some(Observed::EntersMelee { .. }) => "closes in".into(),
        Some(Observed::LeavesMelee { .. }) => "pulls away".into(),
        // The caster's copy names it (a server's own spell has no built-in name).
        Some(Observed::CastsSpell { caster, spell }) => format!(
            "casts {}",
            combat
                .combatants
                .get(caster.0 as usize)
                .map_or_else(|| spell.label(), |x| x.spell_name(*spell))
        ),
        Some(Observed::UsesAbility { ability, .. }) => format!("uses {}", escape_markdown(&lower_words(ability))),
        Some(Observed::Attacks { target, .. }) => format!("attacks {}", n(*target)),
    }
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

fn d20_note(roll: &D20) -> &'static str {
    match (roll.natural, roll.mode) {
        (20, _) => ", nat 20",
        (1, _) => ", nat 1",
        (_, RollMode::Advantage) => ", advantage",
        (_, RollMode::Disadvantage) => ", disadvantage",
        _ => "",
    }
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
        let n = |id: CombatantId| {
            c.combatants
                .get(id.0 as usize)
                .map_or_else(|| bold_name("?"), |x| bold_name(&x.name))
        };
        let spell_name = |caster: CombatantId, spell: engine::content::Spell| {
            c.combatants
                .get(caster.0 as usize)
                .map_or_else(|| spell.label(), |x| x.spell_name(spell))
        };
        let item_name = |id: CombatantId, item: engine::content::Item| {
            c.combatants
                .get(id.0 as usize)
                .map_or_else(|| item.label(), |x| x.item_name(item))
        };
        let say = |key: Key, values: &[(&str, &str)]| self.flavor.pick(key, seed, salt, values);
        let one = |key: Key, values: &[(&str, &str)]| vec![say(key, values)];
        match event {
            Event::InitiativeRolled { order } => {
                let list: Vec<String> = order.iter().map(|e| format!("{} ({})", n(e.id), e.total)).collect();
                one(Key::InitiativeRolled, &[("order", &list.join(", "))])
            }
            Event::RoundStarted { round } => one(Key::RoundStarted, &[("round", &round.to_string())]),
            Event::TurnStarted { id, round, .. } => {
                one(Key::TurnStarted, &[("name", &n(*id)), ("round", &round.to_string())])
            }
            Event::TurnEnded { .. } => vec![],
            Event::ReadiedActionExpired { id, action } => {
                one(Key::ReadiedActionExpired, &[("name", &n(*id)), ("action", action)])
            }
            Event::Moved {
                id,
                feet,
                to,
                difficult_terrain,
                outcome,
                crawl,
            } => {
                use engine::movement::MoveOutcome;
                let feet = feet.to_string();
                let name = n(*id);
                let with =
                    |key: Key, other: CombatantId| one(key, &[("name", &name), ("target", &n(other)), ("feet", &feet)]);
                let mut lines = match *outcome {
                    MoveOutcome::ClosedIn(other) => with(Key::MoveIntoMelee, other),
                    MoveOutcome::LeftReach(other) => with(Key::MoveOutOfReach, other),
                    MoveOutcome::Advanced(other) => with(Key::MoveCloser, other),
                    MoveOutcome::FellBack(other) => with(Key::MoveFellBack, other),
                    MoveOutcome::ShiftedInMelee(other) => with(Key::MoveShiftInMelee, other),
                    MoveOutcome::Shifted => one(Key::MoveShift, &[("name", &name), ("feet", &feet)]),
                    // Logged before outcomes were kept: only arriving in melee is certain.
                    MoveOutcome::Unrecorded => match to.iter().find(|(_, b)| *b == Band::Melee) {
                        Some((other, _)) => with(Key::MoveIntoMelee, *other),
                        None => one(Key::MoveShift, &[("name", &name), ("feet", &feet)]),
                    },
                };
                if *crawl {
                    lines.push(say(Key::MoveCrawled, &[("name", &name)]));
                }
                if *difficult_terrain {
                    lines.push(say(Key::MoveDifficultTerrain, &[("name", &name), ("feet", &feet)]));
                }
                lines
            }
            Event::EscapeAttempted {
                id,
                skill,
                roll,
                dc,
                freed,
            } => vec![format!(
                "{} `{skill:?} {roll} vs DC {dc}`",
                say(
                    if *freed { Key::EscapeFreed } else { Key::EscapeHeld },
                    &[("name", &n(*id))]
                ),
            )],
            Event::MoveAborted { id } => one(Key::MoveAborted, &[("name", &n(*id))]),
            Event::Closing {
                id,
                target,
                feet,
                remaining,
            } => one(
                Key::Closing,
                &[
                    ("name", &n(*id)),
                    ("target", &n(*target)),
                    ("feet", &feet.to_string()),
                    ("remaining", &remaining.to_string()),
                ],
            ),
            Event::StoodUp { id, feet } => one(Key::StoodUp, &[("name", &n(*id)), ("feet", &feet.to_string())]),
            Event::Teleported { id, .. } => one(Key::Teleported, &[("name", &n(*id))]),
            Event::Dashed { id, movement } => one(Key::Dashed, &[("name", &n(*id)), ("feet", &movement.to_string())]),
            Event::Disengaged { id } => one(Key::Disengaged, &[("name", &n(*id))]),
            Event::Dodging { id } => one(Key::Dodging, &[("name", &n(*id))]),
            Event::Helped { id, ally } => one(Key::Helped, &[("name", &n(*id)), ("ally", &n(*ally))]),
            Event::HideAttempted {
                id,
                roll,
                against,
                hidden,
            } => {
                let key = if *hidden { Key::HideSuccess } else { Key::HideFailure };
                vec![format!("{} `{roll} vs {against}`", say(key, &[("name", &n(*id))]))]
            }
            Event::Revealed { id } => one(Key::Revealed, &[("name", &n(*id))]),
            Event::Searched { id, skill, roll, found } => {
                let line = if found.is_empty() {
                    say(Key::SearchNothing, &[("name", &n(*id))])
                } else {
                    let found: Vec<String> = found.iter().map(|f| escape_markdown(f)).collect();
                    say(Key::SearchFound, &[("name", &n(*id)), ("found", &found.join(", "))])
                };
                vec![format!("{line} `{skill:?} {roll}`")]
            }
            Event::AttackRolled {
                attacker,
                target,
                weapon,
                swing,
                of,
                d20,
                total,
                armor_class,
                hit,
                critical,
                kind,
            } => {
                let key = match (hit, critical) {
                    (true, true) => Key::AttackCritical,
                    (true, false) => Key::AttackHit,
                    _ => Key::AttackMiss,
                };
                let line = say(
                    key,
                    &[
                        ("name", &n(*attacker)),
                        ("target", &n(*target)),
                        ("weapon", &escape_markdown(weapon)),
                        ("swing", &swing.to_string()),
                        ("of", &of.to_string()),
                    ],
                );
                let sequence = if *of > 1 && *kind == AttackKind::Action {
                    format!("{swing}/{of}: ")
                } else {
                    String::new()
                };
                vec![format!(
                    "{line} `{sequence}{total} vs AC {armor_class}{}`",
                    d20_note(d20)
                )]
            }
            Event::SwingLost { attacker, .. } => one(Key::SwingLost, &[("name", &n(*attacker))]),
            Event::SneakAttack { attacker, dice } => one(
                Key::SneakAttack,
                &[("name", &n(*attacker)), ("dice", &dice.to_string())],
            ),
            Event::DamageDealt {
                target,
                amount,
                damage_type,
                hp,
                extra,
                ..
            } => {
                if *amount == 0 {
                    return vec![];
                }
                let mut types = damage_type.name().to_owned();
                for part in extra.iter().filter(|p| p.amount > 0) {
                    types.push_str(" and ");
                    types.push_str(part.damage_type.name());
                }
                one(
                    Key::Damage,
                    &[
                        ("target", &n(*target)),
                        ("damage", &amount.to_string()),
                        ("damage_type", &types),
                        ("hp", &hp.to_string()),
                    ],
                )
            }
            Event::Defended {
                target,
                damage_type,
                defence,
                amount,
            } => {
                let key = match defence {
                    Defence::Resistance => Key::DefendedResistance,
                    Defence::Immunity => Key::DefendedImmunity,
                    Defence::Vulnerability => Key::DefendedVulnerability,
                };
                one(
                    key,
                    &[
                        ("name", &n(*target)),
                        ("amount", &amount.to_string()),
                        ("damage_type", damage_type.name()),
                    ],
                )
            }
            Event::UndeadFortitude { id } => one(Key::UndeadFortitude, &[("name", &n(*id))]),
            Event::SaveFailedHelpless { id, ability, dc } => one(
                Key::SaveFailedHelpless,
                &[
                    ("name", &n(*id)),
                    ("ability", &format!("{ability:?}").to_uppercase()),
                    ("dc", &dc.to_string()),
                ],
            ),
            Event::LegendaryResistance { id, left } => one(
                Key::LegendaryResistance,
                &[("name", &n(*id)), ("left", &left.to_string())],
            ),
            Event::Aura { holder, target, aura } => one(
                Key::Aura,
                &[("name", &n(*target)), ("holder", &n(*holder)), ("aura", aura)],
            ),
            Event::RegenerationStopped { id } => one(Key::RegenerationStopped, &[("name", &n(*id))]),
            Event::ConcentrationEnded { id, spell } => {
                one(Key::ConcentrationEnded, &[("name", &n(*id)), ("spell", spell)])
            }
            Event::LegendaryAction { id, action, left } => one(
                Key::LegendaryAction,
                &[("name", &n(*id)), ("action", action), ("left", &left.to_string())],
            ),
            Event::ConditionImmune { id, condition } => one(
                Key::ConditionImmune,
                &[("name", &n(*id)), ("condition", condition.name())],
            ),
            Event::DamageReduced {
                target,
                by,
                reaction,
                amount,
                remaining,
            } => one(
                Key::DamageReduced,
                &[
                    ("name", &n(*by)),
                    ("target", &n(*target)),
                    ("reaction", reaction.label()),
                    ("amount", &amount.to_string()),
                    ("damage", &remaining.to_string()),
                ],
            ),
            Event::StatBlockReaction {
                by,
                attacker,
                reaction,
                missed,
                amount,
                remaining,
            } => {
                let reaction = escape_markdown(reaction);
                if *missed {
                    one(
                        Key::StatBlockReactionMiss,
                        &[("name", &n(*by)), ("attacker", &n(*attacker)), ("reaction", &reaction)],
                    )
                } else {
                    one(
                        Key::StatBlockReactionReduce,
                        &[
                            ("name", &n(*by)),
                            ("reaction", &reaction),
                            ("amount", &amount.to_string()),
                            ("damage", &remaining.to_string()),
                        ],
                    )
                }
            }
            Event::TempHpGained {
                target,
                by,
                amount,
                temp_hp,
                kept,
            } => {
                let key = if *kept { Key::TempHpKept } else { Key::TempHpGained };
                one(
                    key,
                    &[
                        ("name", &n(*by)),
                        ("target", &n(*target)),
                        ("amount", &amount.to_string()),
                        ("temp", &temp_hp.to_string()),
                    ],
                )
            }
            Event::TempHpAbsorbed { id, amount, left } => one(
                Key::TempHpAbsorbed,
                &[
                    ("name", &n(*id)),
                    ("amount", &amount.to_string()),
                    ("temp", &left.to_string()),
                ],
            ),
            Event::Resisted { target, amount } => {
                one(Key::Resisted, &[("name", &n(*target)), ("amount", &amount.to_string())])
            }
            Event::Healed { target, by, amount, hp } => {
                let (amount, hp) = (amount.to_string(), hp.to_string());
                if by == target {
                    one(Key::HealedSelf, &[("name", &n(*by)), ("amount", &amount), ("hp", &hp)])
                } else {
                    one(
                        Key::Healed,
                        &[
                            ("name", &n(*by)),
                            ("target", &n(*target)),
                            ("amount", &amount),
                            ("hp", &hp),
                        ],
                    )
                }
            }
            Event::SpellCast {
                caster, spell, target, ..
            } => match target {
                Some(t) if t != caster => one(
                    Key::SpellCast,
                    &[
                        ("name", &n(*caster)),
                        ("spell", &spell_name(*caster, *spell)),
                        ("target", &n(*t)),
                    ],
                ),
                _ => one(
                    Key::SpellCastUntargeted,
                    &[("name", &n(*caster)), ("spell", &spell_name(*caster, *spell))],
                ),
            },
            Event::SpellCountered {
                caster,
                spell,
                by,
                roll,
                dc,
            } => {
                let line = say(
                    Key::SpellCountered,
                    &[
                        ("name", &n(*by)),
                        ("caster", &n(*caster)),
                        ("spell", &spell_name(*caster, *spell)),
                    ],
                );
                // The INT check shown as a failed one is (fights logged before it was kept: none).
                if *dc > 0 {
                    vec![format!("{line} `{roll} vs DC {dc}`")]
                } else {
                    vec![line]
                }
            }
            Event::CounterspellFailed { caster, by, roll, dc } => vec![format!(
                "{} `{roll} vs DC {dc}`",
                say(Key::CounterspellFailed, &[("name", &n(*by)), ("caster", &n(*caster))])
            )],
            Event::MutualDestruction { first, second, flips } => {
                let line = say(
                    Key::MutualDestruction,
                    &[("first", &n(*first)), ("second", &n(*second))],
                );
                if flips.is_empty() {
                    vec![line]
                } else {
                    let flips: Vec<String> = flips.iter().map(u32::to_string).collect();
                    vec![format!("{line} `d2 {}`", flips.join(", "))]
                }
            }
            Event::ParryRolled {
                by,
                attacker,
                roll,
                dc,
                deflected,
            } => vec![format!(
                "{} `{roll} vs DC {dc}`",
                say(
                    if *deflected { Key::Deflected } else { Key::ParryFailed },
                    &[("name", &n(*by)), ("attacker", &n(*attacker))]
                )
            )],
            Event::SavingThrow {
                id,
                ability,
                d20,
                total,
                dc,
                success,
            } => {
                let key = if *success { Key::SaveSuccess } else { Key::SaveFailure };
                let ability = format!("{ability:?}").to_uppercase();
                vec![format!(
                    "{} `{total} vs DC {dc}{}`",
                    say(key, &[("name", &n(*id)), ("ability", &ability)]),
                    d20_note(d20)
                )]
            }
            Event::AbilityUsed { id, ability } => one(
                Key::AbilityUsed,
                &[("name", &n(*id)), ("ability", &escape_markdown(ability))],
            ),
            Event::BreathRecharged { id, ability: None, .. } => one(Key::BreathRecharged, &[("name", &n(*id))]),
            Event::BreathRecharged {
                id,
                ability: Some(ability),
                ..
            } => one(Key::AbilityRecharged, &[("name", &n(*id)), ("ability", ability)]),
            Event::Contest {
                id,
                target,
                roll,
                against,
                won,
            } => {
                let key = if *won { Key::ContestWon } else { Key::ContestLost };
                vec![format!(
                    "{} `{roll} vs {against}`",
                    say(key, &[("name", &n(*id)), ("target", &n(*target))])
                )]
            }
            Event::Grappled { id, target } => one(Key::Grappled, &[("name", &n(*id)), ("target", &n(*target))]),
            Event::Shoved { id, target, mode } => {
                let key = match mode {
                    ShoveMode::Prone => Key::ShovedProne,
                    ShoveMode::Push => Key::ShovedAway,
                };
                one(key, &[("name", &n(*id)), ("target", &n(*target))])
            }
            Event::ConditionApplied { id, condition } => one(
                Key::ConditionApplied,
                &[("name", &n(*id)), ("condition", &escape_markdown(condition))],
            ),
            Event::ConditionEnded { id, condition } => one(
                Key::ConditionEnded,
                &[("name", &n(*id)), ("condition", &escape_markdown(condition))],
            ),
            Event::CunningStrikeReady { id, rider } => one(
                Key::CunningStrikeReady,
                &[("name", &n(*id)), ("rider", &lower_words(&format!("{rider:?}")))],
            ),
            Event::ItemUsed { id, item, target } => {
                let thrown = c
                    .combatants
                    .get(id.0 as usize)
                    .and_then(|x| x.item_def(*item))
                    .is_some_and(|d| matches!(d.effect, engine::content::data::ItemEffectDef::Restrain { .. }));
                if id == target {
                    one(
                        Key::ItemUsedSelf,
                        &[("name", &n(*id)), ("item", &item_name(*id, *item))],
                    )
                } else {
                    one(
                        if thrown { Key::ItemThrown } else { Key::ItemUsed },
                        &[
                            ("name", &n(*id)),
                            ("item", &item_name(*id, *item)),
                            ("target", &n(*target)),
                        ],
                    )
                }
            }
            Event::MedicineCheck {
                id,
                target,
                roll,
                success,
            } => {
                let key = if *success {
                    Key::StabiliseSuccess
                } else {
                    Key::StabiliseFailure
                };
                vec![format!(
                    "{} `Medicine {roll} vs DC 10`",
                    say(key, &[("name", &n(*id)), ("target", &n(*target))])
                )]
            }
            Event::ReadiedActionSet { id, action, trigger } => one(
                Key::ReadiedActionSet,
                &[
                    ("name", &n(*id)),
                    ("action", &escape_markdown(action)),
                    ("trigger", &escape_markdown(trigger)),
                ],
            ),
            Event::ReadiedActionTriggered {
                id,
                trigger_by,
                action,
                observed,
            } => {
                use engine::readied::Observed;
                let moved = matches!(
                    observed,
                    None | Some(Observed::Moves { .. } | Observed::EntersMelee { .. } | Observed::LeavesMelee { .. })
                );
                one(
                    if moved {
                        Key::ReadiedActionTriggered
                    } else {
                        Key::ReadiedActionTriggeredBy
                    },
                    &[
                        ("name", &n(*id)),
                        ("mover", &n(*trigger_by)),
                        ("action", &escape_markdown(action)),
                        ("did", &did(c, observed.as_ref(), &n)),
                    ],
                )
            }
            Event::ReactionOffered { reactor, .. } => one(Key::ReactionOffered, &[("name", &n(*reactor))]),
            Event::ReactionTaken { reactor, reaction } => {
                if !reaction.reaction().narrated() {
                    return vec![];
                }
                one(Key::Reaction(*reaction), &[("name", &n(*reactor))])
            }
            Event::ReactionPassed { reactor } => one(Key::ReactionPassed, &[("name", &n(*reactor))]),
            Event::Downed { id } => one(Key::Downed, &[("name", &n(*id))]),
            Event::DamagedWhileDowned { id, marks, failures } => {
                let key = if *marks >= 2 {
                    Key::DamageWhileDownedCritical
                } else {
                    Key::DamageWhileDowned
                };
                one(key, &[("name", &n(*id)), ("failures", &failures.to_string())])
            }
            Event::DeathSaveRolled {
                id,
                d20,
                outcome,
                successes,
                failures,
                ..
            } => {
                use engine::death_saves::DeathSaveOutcome as O;
                let key = match outcome {
                    O::Success => Key::DeathSaveSuccess,
                    O::Failure => Key::DeathSaveFailure,
                    O::CriticalSuccess => Key::DeathSaveCriticalSuccess,
                    O::CriticalFailure => Key::DeathSaveCriticalFailure,
                };
                one(
                    key,
                    &[
                        ("name", &n(*id)),
                        ("roll", &d20.natural.to_string()),
                        ("successes", &successes.to_string()),
                        ("failures", &failures.to_string()),
                    ],
                )
            }
            Event::Stabilized { id, wakes_in } => {
                one(Key::Stabilised, &[("name", &n(*id)), ("turns", &turns(*wakes_in))])
            }
            Event::Woke { id } => one(Key::Woke, &[("name", &n(*id))]),
            Event::Revived { id, hp, prone } => one(
                if *prone { Key::RevivedProne } else { Key::Revived },
                &[("name", &n(*id)), ("hp", &hp.to_string())],
            ),
            Event::Died { id } => one(Key::PlayerDeath, &[("name", &n(*id))]),
            Event::MonsterSlain { id, by } => match by {
                Some(killer) => one(Key::MonsterSlain, &[("name", &n(*id)), ("killer", &n(*killer))]),
                None => one(Key::MonsterSlainUnattributed, &[("name", &n(*id))]),
            },
            Event::HpAdjusted { id, delta, hp } => {
                let key = if *delta >= 0 { Key::GmHpRaised } else { Key::GmHpLowered };
                one(
                    key,
                    &[
                        ("name", &n(*id)),
                        ("amount", &delta.unsigned_abs().to_string()),
                        ("hp", &hp.to_string()),
                    ],
                )
            }
            Event::CombatEnded {
                outcome: outcome @ (Outcome::Victory | Outcome::Defeat),
                ..
            } if c.duel => {
                // The arena: the one still standing wins; no XP, no death.
                let winner = if *outcome == Outcome::Victory {
                    Side::Party
                } else {
                    Side::Enemies
                };
                let name = |side: Side| {
                    c.combatants
                        .iter()
                        .find(|x| x.side == side && x.is_character())
                        .map_or_else(|| bold_name("?"), |x| bold_name(&x.name))
                };
                one(
                    Key::DuelWon,
                    &[("name", &name(winner)), ("rival", &name(winner.opponent()))],
                )
            }
            Event::CombatEnded { outcome, xp } => match outcome {
                Outcome::Victory => one(Key::Victory, &[("xp", &xp.to_string())]),
                Outcome::Defeat => one(Key::Defeat, &[]),
                Outcome::Halted => one(Key::Halted, &[]),
            },
            Event::ChargeRace { ticks, winner, .. } => {
                one(Key::ChargeRace, &[("name", &n(*winner)), ("ticks", &ticks.to_string())])
            }
            Event::ActionPointsRefreshed { id, ap } => {
                one(Key::ActionPoints, &[("name", &n(*id)), ("ap", &ap.to_string())])
            }
            Event::ActionPointsSpent { id, cost, left } => one(
                Key::ActionPointsSpent,
                &[
                    ("name", &n(*id)),
                    ("cost", &cost.to_string()),
                    ("ap", &left.to_string()),
                ],
            ),
            Event::CooldownStarted { id, ability, turns } => one(
                Key::CooldownStarted,
                &[("name", &n(*id)), ("ability", ability), ("turns", &self::turns(*turns))],
            ),
            Event::StatusTicked { id, status, amount, .. } => {
                let key = match amount.signum() {
                    -1 => Key::StatusDamage,
                    1 => Key::StatusHeal,
                    _ => Key::StatusHolds,
                };
                one(
                    key,
                    &[
                        ("name", &n(*id)),
                        ("status", status),
                        ("amount", &amount.unsigned_abs().to_string()),
                    ],
                )
            }
            Event::StatusApplied {
                id,
                status,
                turns,
                permanent,
                ..
            } => {
                let status = escape_markdown(status);
                if *permanent {
                    one(Key::StatusAppliedPermanent, &[("name", &n(*id)), ("status", &status)])
                } else {
                    one(
                        Key::StatusApplied,
                        &[("name", &n(*id)), ("status", &status), ("turns", &self::turns(*turns))],
                    )
                }
            }
            Event::StatusExpired { id, status } => one(Key::StatusExpired, &[("name", &n(*id)), ("status", status)]),
            Event::Stunned { id } => one(Key::Stunned, &[("name", &n(*id))]),
            Event::InitiativeFixed { order } => {
                let list: Vec<String> = order
                    .iter()
                    .map(|e| {
                        let flips: Vec<String> = e.flips.iter().map(u32::to_string).collect();
                        if flips.is_empty() {
                            format!("{} (REF {}, LUK {})", n(e.id), e.reflex, e.luck)
                        } else {
                            format!("{} (REF {}, LUK {}, d2 {})", n(e.id), e.reflex, e.luck, flips.join("/"))
                        }
                    })
                    .collect();
                // "No dice about it" only when no coin was flipped.
                let key = if order.iter().any(|e| !e.flips.is_empty()) {
                    Key::InitiativeFixedFlipped
                } else {
                    Key::InitiativeFixed
                };
                one(key, &[("order", &list.join(", "))])
            }
            Event::InstantDeclared { id, instant, round } => one(
                Key::InstantDeclared,
                &[
                    ("name", &n(*id)),
                    ("instant", instant.name()),
                    ("round", &round.to_string()),
                ],
            ),
            Event::InstantResolved { id, instant, .. } => {
                one(Key::InstantResolved, &[("name", &n(*id)), ("instant", instant.name())])
            }
            Event::Joined { id, placement } => match placement {
                engine::Placement::Waiting => one(Key::Joined, &[("name", &n(*id))]),
                engine::Placement::Initiative { total, .. } => one(
                    Key::JoinedInitiative,
                    &[("name", &n(*id)), ("initiative", &total.to_string())],
                ),
                engine::Placement::NaturalOrder { flips, this_round, .. } => {
                    let when = if *this_round { "this round" } else { "next round" };
                    if flips.is_empty() {
                        one(Key::JoinedOrder, &[("name", &n(*id)), ("when", when)])
                    } else {
                        let flips: Vec<String> = flips.iter().map(u32::to_string).collect();
                        one(
                            Key::JoinedOrderFlipped,
                            &[("name", &n(*id)), ("when", when), ("flips", &flips.join(", "))],
                        )
                    }
                }
                engine::Placement::Charge { .. } => one(Key::JoinedCharge, &[("name", &n(*id))]),
            },
            Event::Delayed { id, after } => match after {
                Some(other) => one(Key::Delayed, &[("name", &n(*id)), ("target", &n(*other))]),
                None => one(Key::DelayedToEnd, &[("name", &n(*id))]),
            },
            Event::PhaseStarted {
                id,
                action,
                phase,
                ticks,
                ..
            } => one(
                Key::PhaseStarted,
                &[
                    ("name", &n(*id)),
                    ("action", &escape_markdown(action)),
                    ("phase", phase.name()),
                    ("ticks", &ticks.to_string()),
                ],
            ),
            Event::ActionCancelled { id, action, by } => match by {
                Some(by) => one(
                    Key::WindupBroken,
                    &[("name", &n(*id)), ("action", &escape_markdown(action)), ("by", &n(*by))],
                ),
                None => one(
                    Key::ActionDropped,
                    &[("name", &n(*id)), ("action", &escape_markdown(action))],
                ),
            },
            Event::ActionFizzled { id, reason } => one(
                Key::ActionFizzled,
                &[("name", &n(*id)), ("reason", &escape_markdown(reason))],
            ),
            Event::AwaitingCommand { id, .. } => one(Key::AwaitingCommand, &[("name", &n(*id))]),
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

    /// The reaction prompt for the open window, if a player must choose: TwinBee's line pinging
    /// the reactor, one button per offered reaction and a Pass button.
    pub fn reaction_prompt(&self, combat: &Combat, ctx: &RenderContext) -> Option<MessagePayload> {
        let window = combat.window.as_ref()?;
        let reactor = combat.combatants.get(window.reactor.0 as usize)?;
        if !reactor.is_player() {
            return None;
        }
        let n = |id: CombatantId| {
            combat
                .combatants
                .get(id.0 as usize)
                .map_or_else(|| bold_name("?"), |x| bold_name(&x.name))
        };
        let name = bold_name(&reactor.name);
        let seed = ctx.line_seed();
        let salt = u64::MAX - 1;
        let line = match &window.trigger {
            ReactionTrigger::LeavesMelee { mover } => self.flavor.pick(
                Key::ReactionPromptLeavesMelee,
                seed,
                salt,
                &[("name", &name), ("mover", &n(*mover))],
            ),
            ReactionTrigger::Hit {
                attacker,
                target,
                damage,
                ..
            } if *target == window.reactor => self.flavor.pick(
                Key::ReactionPromptHit,
                seed,
                salt,
                &[
                    ("name", &name),
                    ("attacker", &n(*attacker)),
                    ("damage", &damage.to_string()),
                ],
            ),
            ReactionTrigger::Hit {
                attacker,
                target,
                damage,
                ..
            } => self.flavor.pick(
                Key::ReactionPromptAllyHit,
                seed,
                salt,
                &[
                    ("name", &name),
                    ("attacker", &n(*attacker)),
                    ("target", &n(*target)),
                    ("damage", &damage.to_string()),
                ],
            ),
            ReactionTrigger::AttackDeclared { attacker, .. } => self.flavor.pick(
                Key::ReactionPromptAttackDeclared,
                seed,
                salt,
                &[("name", &name), ("attacker", &n(*attacker))],
            ),
            ReactionTrigger::DroppedToZero { ally } => self.flavor.pick(
                Key::ReactionPromptAllyDown,
                seed,
                salt,
                &[("name", &name), ("ally", &n(*ally))],
            ),
            ReactionTrigger::CastsSpell { caster, spell } => self.flavor.pick(
                Key::ReactionPromptSpell,
                seed,
                salt,
                &[
                    ("name", &name),
                    ("caster", &n(*caster)),
                    (
                        "spell",
                        &combat
                            .combatants
                            .get(caster.0 as usize)
                            .map_or_else(|| spell.label(), |x| x.spell_name(*spell)),
                    ),
                ],
            ),
            ReactionTrigger::FailedDexSave { damage, .. } => self.flavor.pick(
                Key::ReactionPromptDexSave,
                seed,
                salt,
                &[("name", &name), ("damage", &damage.to_string())],
            ),
            ReactionTrigger::Readied { observed } => self.flavor.pick(
                Key::ReactionPromptReadied,
                seed,
                salt,
                &[
                    ("name", &name),
                    ("mover", &n(observed.actor())),
                    ("did", &did(combat, Some(observed), &n)),
                ],
            ),
            ReactionTrigger::Phase { actor, phase } => self.flavor.pick(
                match phase {
                    engine::timing::ticks::Phase::Prep => Key::ReactionPromptPrep,
                    _ => Key::ReactionPromptRecover,
                },
                seed,
                salt,
                &[("name", &name), ("mover", &n(*actor))],
            ),
        };
        // Several queued reactions on the timeline: what each button answers.
        let choices: Vec<String> = if window.choices.len() > 1 {
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
        } else {
            Vec::new()
        };
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
