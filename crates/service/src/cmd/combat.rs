//! Combat: creating a fight in a channel, joining it, beginning it, every player command
//! mapped to an [`engine::Command`] (target names resolved with [`Combat::by_name`]),
//! reactions (with reaction-window timeouts as timers), status, and the end of a fight:
//! XP and loot for the survivors, HP and consumables written back to the characters, the
//! expedition marked on death or defeat.

use std::sync::Arc;

use engine::command::BonusAction;
use engine::content::{Item, Spell};
use engine::{
    Actor, Combat, Combatant, CombatantId, Command, CunningMove, Dice, Event, MoveIntent, ReactionKind, RuleViolation,
    ShoveMode,
};
use sea_orm::{ColumnTrait, DatabaseTransaction, EntityTrait, QueryFilter, QueryOrder};

use crate::convert::{choices, parse_item};
use crate::entity::timer;
use crate::repo::combats;
use crate::service::{hash_text, mix};
pub use crate::store::MAX_COMBATANTS;
use crate::store::{Applied, Live, Logged, NewFight, engine_step, room_for};
use crate::{CombatUpdate, DateTimeUtc, Notice, Service, ServiceError};

/// A player's combat command, with targets by name (as typed or autocompleted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayerCommand {
    /// The Attack action; no target attacks the nearest enemy in reach.
    Attack {
        target: Option<String>,
    },
    Cast {
        spell: String,
        target: Option<String>,
    },
    Dash,
    Disengage,
    Dodge,
    Help {
        ally: String,
    },
    Hide,
    /// `ready <action> when <trigger>`.
    Ready {
        text: String,
    },
    UseItem {
        item: String,
        target: Option<String>,
    },
    Search,
    Grapple {
        target: String,
    },
    Shove {
        target: String,
        mode: ShoveMode,
    },
    Stabilize {
        ally: String,
    },
    OffHandAttack {
        target: Option<String>,
    },
    SecondWind,
    CunningAction(CunningMove),
    HealingWord {
        target: String,
    },
    HuntersMark {
        target: String,
    },
    Rage,
    MistyStep {
        target: Option<String>,
    },
    CunningStrike(engine::combatant::CunningStrike),
    /// `move melee <target>`.
    MoveMelee {
        target: String,
    },
    /// `move ranged | toward | away | <direction>`.
    Move {
        direction: String,
    },
    /// `move crawl way:<toward|away|ranged>`: crawl while prone, at half speed.
    Crawl {
        direction: String,
    },
    /// `escape`: break free of a web, vines or a net.
    Escape,
    EndTurn,
    /// TDGS: act later this round, after the named combatant (or at the round's end).
    Delay {
        after: Option<String>,
    },
    /// TDGS: declare an Instant (Quick Draw, Battle Cry, Premonition, Steady Aim) for the next round.
    Instant {
        ability: String,
    },
}

fn target(combat: &Combat, name: &str) -> Result<CombatantId, ServiceError> {
    Ok(combat.by_name(name)?.id)
}

fn maybe(combat: &Combat, name: Option<&String>) -> Result<Option<CombatantId>, ServiceError> {
    name.map(|n| target(combat, n)).transpose()
}

/// A spell by name: one a combatant of `combat` can cast (its sheet's copy, built-in or a
/// server's own), or a built-in one (the rules then say who does not know it).
fn parse_spell(combat: &Combat, text: &str) -> Result<Spell, ServiceError> {
    let builtin = engine::content::data::builtin();
    let in_fight = || {
        combat
            .combatants
            .iter()
            .flat_map(|c| c.known_spells().iter().map(|s| &*s.name))
    };
    Spell::named(text)
        .filter(|s| s.builtin().is_some() || in_fight().any(|name| s.names(name)))
        .ok_or_else(|| {
            let mut valid: Vec<&str> = builtin.spells.all().iter().map(|s| &*s.name).collect();
            for name in in_fight() {
                if !valid.contains(&name) {
                    valid.push(name);
                }
            }
            ServiceError::Unknown {
                kind: "spell",
                given: text.trim().to_owned(),
                valid: choices(valid),
            }
        })
}

/// An item by name or alias: one a combatant of `combat` carries, or a built-in one.
fn parse_fight_item(combat: &Combat, text: &str) -> Result<Item, ServiceError> {
    let wanted = Item::named(text);
    let carried = combat
        .combatants
        .iter()
        .flat_map(|c| c.sheet.items.iter())
        .find(|d| wanted.is_some_and(|w| w.names(&d.name) || d.aliases.iter().any(|a| w.names(a))));
    match carried.and_then(|d| Item::named(&d.name)) {
        Some(item) => Ok(item),
        None => parse_item(text),
    }
}

impl PlayerCommand {
    /// The engine command, names resolved against `combat`.
    pub fn to_engine(&self, combat: &Combat) -> Result<Command, ServiceError> {
        use PlayerCommand as P;
        Ok(match self {
            P::Attack { target: t } => Command::Attack {
                target: maybe(combat, t.as_ref())?,
            },
            P::Cast { spell, target: t } => Command::Cast {
                spell: parse_spell(combat, spell)?,
                target: maybe(combat, t.as_ref())?,
            },
            P::Dash => Command::Dash,
            P::Disengage => Command::Disengage,
            P::Dodge => Command::Dodge,
            P::Help { ally } => Command::Help {
                ally: target(combat, ally)?,
            },
            P::Hide => Command::Hide,
            P::Ready { text } => Command::Ready { text: text.clone() },
            P::UseItem { item, target: t } => Command::UseItem {
                item: parse_fight_item(combat, item)?,
                target: maybe(combat, t.as_ref())?,
            },
            P::Search => Command::Search,
            P::Grapple { target: t } => Command::Grapple {
                target: target(combat, t)?,
            },
            P::Shove { target: t, mode } => Command::Shove {
                target: target(combat, t)?,
                mode: *mode,
            },
            P::Stabilize { ally } => Command::Stabilize {
                ally: target(combat, ally)?,
            },
            P::OffHandAttack { target: t } => Command::Bonus(BonusAction::OffHandAttack {
                target: maybe(combat, t.as_ref())?,
            }),
            P::SecondWind => Command::Bonus(BonusAction::SecondWind),
            P::CunningAction(m) => Command::Bonus(BonusAction::CunningAction(*m)),
            P::HealingWord { target: t } => Command::Bonus(BonusAction::HealingWord {
                target: target(combat, t)?,
            }),
            P::HuntersMark { target: t } => Command::Bonus(BonusAction::HuntersMark {
                target: target(combat, t)?,
            }),
            P::Rage => Command::Bonus(BonusAction::Rage),
            P::MistyStep { target: t } => Command::Bonus(BonusAction::MistyStep {
                target: maybe(combat, t.as_ref())?,
            }),
            P::CunningStrike(rider) => Command::Bonus(BonusAction::CunningStrike(*rider)),
            P::MoveMelee { target: t } => Command::Move(MoveIntent::Melee(target(combat, t)?)),
            P::Move { direction } => {
                if direction.trim().eq_ignore_ascii_case("melee") {
                    return Err(ServiceError::InvalidInput(
                        "Moving into melee needs a target: /move melee target:<name>.".into(),
                    ));
                }
                Command::Move(MoveIntent::parse_direction(direction)?)
            }
            P::Crawl { direction } => Command::Crawl(MoveIntent::parse_direction(direction)?),
            P::Escape => Command::Escape,
            P::EndTurn => Command::EndTurn,
            P::Delay { after } => Command::Delay {
                after: maybe(combat, after.as_ref())?,
            },
            P::Instant { ability } => {
                Command::DeclareInstant(engine::timing::tdgs::Instant::parse(ability).ok_or_else(|| {
                    ServiceError::Unknown {
                        kind: "instant",
                        given: ability.trim().to_owned(),
                        valid: choices(engine::timing::tdgs::Instant::ALL.iter().map(|i| i.name())),
                    }
                })?)
            }
        })
    }
}

/// A fight's dice seed: the session seed (`GOGOBEE_SEED`, `--seed`), the campaign, the channel,
/// the fight's number in its campaign (1, 2, …) and its expedition.
pub fn fight_seed(session: u64, campaign_id: i64, channel_id: &str, number: u64, expedition_id: Option<i64>) -> u64 {
    mix(&[
        session,
        campaign_id as u64,
        hash_text(channel_id),
        number,
        expedition_id.unwrap_or(0) as u64,
    ])
}

/// The combatant a player controls in a fight; a character who died in it controls nothing
/// ([`ServiceError::Dead`]).
fn player_combatant(combat: &Combat, player_id: &str) -> Result<CombatantId, ServiceError> {
    let me = combat
        .combatants
        .iter()
        .find(|c| c.player_id() == Some(player_id))
        .ok_or(ServiceError::Rules(RuleViolation::NotInCombat))?;
    if me.is_dead() {
        return Err(ServiceError::Dead { name: me.name.clone() });
    }
    Ok(me.id)
}

impl Service {
    /// Creates a combat (version 0, not begun) in a channel inside `txn`; refuses a second
    /// active combat in the channel.
    pub(crate) async fn new_combat(
        &self,
        txn: &DatabaseTransaction,
        fight: NewFight<'_>,
        now: DateTimeUtc,
    ) -> Result<Live, ServiceError> {
        let (mut live, seed) = self.new_fight(txn, fight).await?;
        crate::store::create(txn, &mut live, seed, now).await?;
        Ok(live)
    }

    /// [`Service::new_combat`] in a transaction of its own, for a fight that is all the
    /// transaction writes (`/gm spawn` in an empty channel): on a SQLite file on the group
    /// commit's connection, on the caller's task ([`crate::store::create_alone`]).
    pub(crate) async fn open_combat(&self, fight: NewFight<'_>, now: DateTimeUtc) -> Result<Live, ServiceError> {
        let Some(writer) = self.db().sqlite_writer() else {
            let txn = self.db().begin_write().await?;
            let live = self.new_combat(&txn, fight, now).await?;
            txn.commit().await?;
            return Ok(live);
        };
        let (mut live, seed) = self.new_fight(self.db(), fight).await?;
        crate::store::create_alone(writer, &mut live, seed, now).await?;
        Ok(live)
    }

    /// A new fight as it will be stored (its id not yet given), and its dice's seed; refuses a
    /// second active combat in the channel.
    ///
    /// What it reads (the channel's fight, the campaign, how many fights it has had) it reads
    /// on `db`: the transaction the fight is created in, or — for a fight written on a SQLite
    /// file's group commit connection ([`Service::open_combat`]) — committed, before it, on the
    /// reader ([`crate::reader`]).
    /// Either way the fight's insert is what keeps a channel to one active fight
    /// (`ux_combats_active_channel`, a second answered [`ServiceError::CombatInChannel`]), and
    /// the count only numbers the fight's seed, stored with it.
    pub(crate) async fn new_fight<R: crate::access::Access>(
        &self,
        db: &R,
        fight: NewFight<'_>,
    ) -> Result<(Live, i64), ServiceError> {
        let NewFight {
            campaign_id,
            channel_id,
            expedition_id,
            members,
            terrain,
            duel,
        } = fight;
        if combats::active_in_channel(db, campaign_id, channel_id).await?.is_some() {
            return Err(ServiceError::CombatInChannel);
        }
        let campaign = crate::repo::campaigns::get(db, campaign_id).await?;
        // Stable facts only (never the clock): the same session seed and the same commands
        // give the same fights.
        let number = combats::count_in_campaign(db, campaign_id).await? + 1;
        let seed = fight_seed(self.seed, campaign_id, channel_id, number, expedition_id);
        let (combatants, characters): (Vec<Combatant>, Vec<Option<i64>>) = members.into_iter().unzip();
        let mut combat = Combat::new(combatants, terrain)
            .with_ruleset(engine::Ruleset::parse(&campaign.ruleset).unwrap_or_default());
        if duel {
            combat = combat.as_duel();
        }
        let live = Live {
            id: 0,
            campaign_id,
            channel_id: channel_id.to_owned(),
            expedition_id,
            reaction_timeout_secs: i64::from(campaign.reaction_timeout_secs),
            turn_timeout_secs: crate::repo::campaigns::turn_timeout_secs(&campaign),
            map_every_turn: campaign.map_every_turn,
            version: 0,
            combat: Arc::new(combat),
            dice: Dice::seeded(seed),
            window_token: None,
            window_since: None,
            fight_timer: None,
            wait_since: None,
            characters,
            applied: 0,
            readied_rows: 0,
        };
        // Stored as the column's signed integer, its bits unchanged.
        Ok((live, seed as i64))
    }

    /// The active combat in a channel, or [`ServiceError::NoCombatInChannel`].
    pub(crate) async fn combat_in(&self, campaign_id: i64, channel_id: &str) -> Result<i64, ServiceError> {
        self.store
            .in_channel(campaign_id, channel_id)
            .await?
            .ok_or(ServiceError::NoCombatInChannel)
    }

    /// Runs one engine command as one persisted command.
    pub(crate) async fn engine_command<F>(
        &self,
        combat_id: i64,
        now: DateTimeUtc,
        mut pick: F,
    ) -> Result<CombatUpdate, ServiceError>
    where
        F: FnMut(&Combat) -> Result<(Actor, Command), ServiceError>,
    {
        let written = self
            .store
            .run(combat_id, now, |live| {
                let (actor, command) = pick(&live.combat)?;
                engine_step(live, actor, command, now)
            })
            .await?;
        let notices = written.extra.1;
        Ok(Self::update(written.live, written.events, notices))
    }

    /// The pets of a new fight's characters join it beside their owners (`cmd::pets`), through
    /// the engine's `Join`, as one logged command — before it begins.
    pub(crate) async fn join_pets(
        &self,
        combat_id: i64,
        owners: &[crate::entity::character::Model],
        now: DateTimeUtc,
    ) -> Result<(), ServiceError> {
        let mut pets = Vec::new();
        for owner in owners {
            let content = self.content(owner.campaign_id).await?;
            pets.extend(crate::settle::pets::combatant(owner, &content)?);
        }
        if pets.is_empty() {
            return Ok(());
        }
        self.store
            .run(combat_id, now, |live| {
                room_for(&live.combat, pets.len())?;
                let mut events = Vec::new();
                let mut commands = Vec::new();
                for pet in &pets {
                    let (_, mut joined) = live.join(pet.clone(), None, now)?;
                    events.append(&mut joined);
                    commands.push((
                        Actor::Director,
                        Command::Join {
                            combatant: Box::new(pet.clone()),
                        },
                    ));
                }
                Ok(Applied {
                    logged: Logged::Sequence { commands },
                    events,
                    extra: (),
                })
            })
            .await?;
        Ok(())
    }

    /// Rolls initiative and runs monster turns until a player must act.
    pub(crate) async fn begin(&self, combat_id: i64, now: DateTimeUtc) -> Result<CombatUpdate, ServiceError> {
        self.engine_command(combat_id, now, |_| Ok((Actor::Director, Command::Begin)))
            .await
    }

    /// `/combat status`: the fight in the channel as it stands.
    pub async fn combat_status(&self, campaign_id: i64, channel_id: &str) -> Result<CombatUpdate, ServiceError> {
        crate::service::fresh_channel!(self, campaign_id, channel_id, {
            let id = self.combat_in(campaign_id, channel_id).await?;
            let live = self.store.snapshot(id).await?;
            Ok(Self::update(live, Vec::new(), Vec::new()))
        })
    }

    /// `/combat join`: the player's character joins the fight in the channel, before or after
    /// it has begun (then with its own initiative roll).
    pub async fn join_combat(
        &self,
        campaign_id: i64,
        channel_id: &str,
        player_id: &str,
        now: DateTimeUtc,
    ) -> Result<CombatUpdate, ServiceError> {
        // No fight in the channel is said first, as the fight is looked up first.
        self.combat_in(campaign_id, channel_id).await?;
        let row = Self::character_of(self.db(), campaign_id, player_id).await?;
        self.join_as(campaign_id, channel_id, row, now).await
    }

    /// [`Service::join_combat`] for a character already read.
    async fn join_as(
        &self,
        campaign_id: i64,
        channel_id: &str,
        row: crate::entity::character::Model,
        now: DateTimeUtc,
    ) -> Result<CombatUpdate, ServiceError> {
        crate::service::fresh_channel!(self, campaign_id, channel_id, {
            let combat_id = self.combat_in(campaign_id, channel_id).await?;
            let mut row = row.clone();
            if crate::settle::hospital::latest(self.db(), row.id)
                .await?
                .is_some_and(|r| r.discharged_at.is_none())
            {
                // Admitted, resting, or rested but not yet discharged: the gate decides (on a
                // SQLite file in a transaction of its own on the group commit's connection).
                if let Some(writer) = self.db().sqlite_writer() {
                    let txn = writer.begin().await?;
                    crate::settle::hospital::gate(&txn, &mut row, now).await?;
                    txn.commit()?;
                } else {
                    let txn = self.db().begin_write().await?;
                    crate::settle::hospital::gate(&*txn, &mut row, now).await?;
                    txn.commit().await?;
                }
            }
            if row.hp <= 0 {
                return Err(ServiceError::CannotFight { name: row.name });
            }
            let fighting = crate::repo::combats::in_active_combat(self.db(), &row).await?;
            // The campaign's content is copied in as it joins: its homebrew items and spells.
            let content = self.content(campaign_id).await?;
            let mut joiner = crate::convert::fighter(&row, &content)?;
            crate::convert::carry_interrupts(&mut joiner, &row, now);
            let pet = crate::settle::pets::combatant(&row, &content)?;
            let written = self
                .store
                .run(combat_id, now, |live| {
                    if live.characters.contains(&Some(row.id)) {
                        return Err(ServiceError::AlreadyJoined { name: row.name.clone() });
                    }
                    if live.combat.duel {
                        return Err(ServiceError::ArenaDuel);
                    }
                    if fighting {
                        return Err(ServiceError::InCombat { name: row.name.clone() });
                    }
                    // The owner's pet comes along (`cmd::pets`), in the same logged command.
                    let pet = pet.clone().filter(|_| !live.combat.duel);
                    room_for(&live.combat, 1 + usize::from(pet.is_some()))?;
                    let (id, mut events) = live.join(joiner.clone(), Some(row.id), now)?;
                    let initiative = events.iter().find_map(|e| match e {
                        Event::Joined {
                            placement: engine::Placement::Initiative { total, .. },
                            ..
                        } => Some(*total),
                        _ => None,
                    });
                    let join = |c: &Combatant| {
                        (
                            Actor::Director,
                            Command::Join {
                                combatant: Box::new(c.clone()),
                            },
                        )
                    };
                    let logged = if let Some(pet) = &pet {
                        let (_, mut more) = live.join(pet.clone(), None, now)?;
                        events.append(&mut more);
                        Logged::Sequence {
                            commands: vec![join(&joiner), join(pet)],
                        }
                    } else {
                        let (actor, command) = join(&joiner);
                        Logged::Engine { actor, command }
                    };
                    Ok(Applied {
                        logged,
                        events,
                        extra: Notice::Joined { id, initiative },
                    })
                })
                .await?;
            Ok(Self::update(written.live, written.events, vec![written.extra.0]))
        })
    }

    /// `/combat start`: begins the fight in the channel (rolling initiative; monsters act
    /// until a player must). A caller with a character who is not in it joins first.
    pub async fn start_combat(
        &self,
        campaign_id: i64,
        channel_id: &str,
        player_id: &str,
        now: DateTimeUtc,
    ) -> Result<CombatUpdate, ServiceError> {
        crate::service::fresh_channel!(self, campaign_id, channel_id, {
            let combat_id = self.combat_in(campaign_id, channel_id).await?;
            let live = self.store.snapshot(combat_id).await?;
            if live.combat.started {
                return Err(RuleViolation::AlreadyStarted.into());
            }
            let mut notices = Vec::new();
            let in_it = live.combat.combatants.iter().any(|c| c.player_id() == Some(player_id));
            if !in_it && let Some(row) = crate::repo::characters::for_player(self.db(), campaign_id, player_id).await? {
                notices.extend(self.join_as(campaign_id, channel_id, row, now).await?.notices);
            }
            let mut begun = self.begin(combat_id, now).await?;
            notices.append(&mut begun.notices);
            begun.notices = notices;
            Ok(begun)
        })
    }

    /// Any combat command of a player: resolves target names, applies it, persists it.
    pub async fn act(
        &self,
        campaign_id: i64,
        channel_id: &str,
        player_id: &str,
        command: &PlayerCommand,
        now: DateTimeUtc,
    ) -> Result<CombatUpdate, ServiceError> {
        crate::service::fresh_channel!(self, campaign_id, channel_id, {
            let combat_id = self.combat_in(campaign_id, channel_id).await?;
            self.engine_command(combat_id, now, |combat| {
                let me = player_combatant(combat, player_id)?;
                Ok((Actor::Combatant(me), command.to_engine(combat)?))
            })
            .await
        })
    }

    /// `/end-turn`.
    pub async fn end_turn(
        &self,
        campaign_id: i64,
        channel_id: &str,
        player_id: &str,
        now: DateTimeUtc,
    ) -> Result<CombatUpdate, ServiceError> {
        self.act(campaign_id, channel_id, player_id, &PlayerCommand::EndTurn, now)
            .await
    }

    /// A reaction button: `reaction` is a label ("Opportunity Attack", "Parry", …) or
    /// "Pass". `window` is the [`CombatUpdate::window_token`] the button was made for; a
    /// button from an earlier window is refused as [`ServiceError::StaleButton`].
    pub async fn react(
        &self,
        campaign_id: i64,
        channel_id: &str,
        player_id: &str,
        reaction: &str,
        window: Option<i64>,
        now: DateTimeUtc,
    ) -> Result<CombatUpdate, ServiceError> {
        crate::service::fresh_channel!(self, campaign_id, channel_id, {
            let command = if reaction.trim().eq_ignore_ascii_case("pass") {
                Command::Pass
            } else {
                Command::React(ReactionKind::parse(reaction).ok_or_else(|| ServiceError::Unknown {
                    kind: "reaction",
                    given: reaction.trim().to_owned(),
                    valid: choices(ReactionKind::ALL.iter().map(|k| k.label()).chain(["Pass"])),
                })?)
            };
            let combat_id = self.combat_in(campaign_id, channel_id).await?;
            let written = self
                .store
                .run(combat_id, now, |live| {
                    if window.is_some() && live.window_token != window {
                        return Err(ServiceError::StaleButton);
                    }
                    let me = player_combatant(&live.combat, player_id)?;
                    engine_step(live, Actor::Combatant(me), command.clone(), now)
                })
                .await?;
            let notices = written.extra.1;
            Ok(Self::update(written.live, written.events, notices))
        })
    }

    /// Passes the reaction window a due timeout row belongs to (a window opened before
    /// the fight's one timer (`m20261210_000013`); later ones are timed by their fight's timer, [`crate::store::Live::fight_timer`]). A window already answered,
    /// or a fight already over, makes the timer moot: it is deleted and nothing happens.
    pub(crate) async fn pass_timed_out(
        &self,
        t: &timer::Model,
        now: DateTimeUtc,
    ) -> Result<Option<CombatUpdate>, ServiceError> {
        let Some(combat_id) = t.payload.get("combat_id").and_then(serde_json::Value::as_i64) else {
            timer::Entity::delete_by_id(t.id).exec(self.db().conn()).await?;
            return Ok(None);
        };
        let result = self
            .store
            .run(combat_id, now, |live| {
                if live.window_token != Some(t.id) {
                    return Err(ServiceError::StaleButton);
                }
                engine_step(live, Actor::Director, Command::Pass, now)
            })
            .await;
        match result {
            Ok(written) => {
                // No player acted: a run of idle turns goes on.
                self.carry_idle(combat_id, written.live.version - 1, written.live.version)
                    .await?;
                // Spent: the window it timed went with the pass.
                timer::Entity::delete_by_id(t.id).exec(self.db().conn()).await?;
                Ok(Some(Self::update(written.live, written.events, written.extra.1)))
            }
            // Answered in the meantime, or the fight is over: the timer is moot.
            Err(ServiceError::StaleButton | ServiceError::Rules(_) | ServiceError::CombatNotFound(_)) => {
                timer::Entity::delete_by_id(t.id).exec(self.db().conn()).await?;
                Ok(None)
            }
            Err(err) => Err(err),
        }
    }

    /// When the earliest pending timer is due, for the scheduler to sleep until. Timers a
    /// worker has claimed and is firing are left out (one whose worker died is taken over
    /// after [`crate::scheduler::CLAIM_LEASE`], at the scheduler's next periodic wake-up).
    /// Only the timers of the guilds this service owns count ([`Service::owning`]).
    pub async fn next_timer_due(&self) -> Result<Option<DateTimeUtc>, ServiceError> {
        let mut pending = timer::Entity::find()
            .filter(timer::Column::FiredAt.is_null())
            .filter(timer::Column::ClaimedAt.is_null());
        pending = pending.filter(self.timer_filter());
        Ok(pending
            .order_by_asc(timer::Column::DueAt)
            .one(self.db().conn())
            .await?
            .map(|t| t.due_at))
    }
}
