//! The game as both tables see it: a slash command or a button press from someone in a channel
//! goes in, the messages to send come out. The Discord adapter and the terminal table are thin
//! shells around this — parse → one service call → render → send — so what a script sees is
//! what Discord gets.

pub mod cmd;
pub mod guide;
mod hospital;
pub mod spec;
mod world;

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use render::{Key, MessagePayload, ReactionButton, ReactionChoice, RenderContext, Renderer};
use service::{CombatUpdate, Notice, Service, ServiceError};

pub use cmd::AppCommand;

/// Who sent a command, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub guild: String,
    pub channel: String,
    pub user: String,
    /// Has the Manage Server permission (GM tools, campaign settings).
    pub manage_server: bool,
}

/// A slash command as typed: `["character", "create"]` and its options by name.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Invocation {
    pub path: Vec<String>,
    pub options: BTreeMap<String, String>,
}

/// One message to send. The first answers the interaction; the rest follow it.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    pub payload: MessagePayload,
    /// The player it is addressed to (a reaction prompt's reactor), if any.
    pub to_user: Option<String>,
    /// The running message this reply keeps up to date, by key (the tick timeline:
    /// `timeline:<combat id>`): the first such reply in a channel is posted, later ones edit
    /// that message in place instead of posting again. `None`: a message of its own.
    pub running: Option<String>,
    /// A fight whose battlefield picture this reply is to carry, drawn off the async runtime
    /// by [`App::draw_pictures`] before the reply leaves the app (`/campaign map every_turn`).
    pub picture: Option<std::sync::Arc<engine::Combat>>,
}

impl Reply {
    fn public(payload: MessagePayload) -> Self {
        Self {
            payload,
            to_user: None,
            running: None,
            picture: None,
        }
    }

    /// A reply that updates the running message `key` in place.
    fn running(payload: MessagePayload, key: String) -> Self {
        Self {
            payload,
            to_user: None,
            running: Some(key),
            picture: None,
        }
    }

    pub fn is_ephemeral(&self) -> bool {
        self.payload.is_ephemeral()
    }
}

/// The game: the service and the renderer.
pub struct App {
    pub service: Service,
    pub renderer: Renderer,
    seed: u64,
}

/// Whether `update` passes the turn to someone in a fight that goes on: the message that says
/// so carries the picture under `/campaign map every_turn`.
fn passes_the_turn(update: &CombatUpdate) -> bool {
    update.combat.outcome.is_none()
        && update
            .events
            .iter()
            .any(|e| matches!(e, engine::Event::TurnStarted { .. }))
}

/// A refusal the player can act on: bad input, a rule, a missing permission.
fn refusal(text: &str) -> Vec<Reply> {
    vec![Reply::public(render::refusal_text(text))]
}

impl Invocation {
    fn opt(&self, name: &str) -> Option<&str> {
        self.options
            .get(name)
            .map(String::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
    }

    fn need(&self, name: &str) -> Result<&str, String> {
        self.opt(name)
            .ok_or_else(|| format!("This command needs the `{name}` option."))
    }

    fn number<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, String> {
        self.opt(name)
            .map(|v| {
                v.parse::<T>()
                    .map_err(|_| format!("`{name}` must be a whole number, not \"{v}\"."))
            })
            .transpose()
    }
}

impl App {
    pub fn new(service: Service, renderer: Renderer, seed: u64) -> Self {
        Self {
            service,
            renderer,
            seed,
        }
    }

    pub(crate) fn story(&self, key: Key, values: &[(&str, &str)]) -> Reply {
        Reply::public(self.renderer.story(key, values, self.seed))
    }

    /// The messages a combat update sends: the narration; on the tick timeline, the running
    /// timeline message (edited in place: however many ticks a command advanced, that is one
    /// narration message and one edit); and the reaction prompt if a window is open.
    pub fn combat_replies(&self, update: &CombatUpdate) -> Vec<Reply> {
        let version = update.window_token.unwrap_or(update.version).max(0) as u64;
        let Ok(ctx) = RenderContext::new(
            &update.combat_id.to_string(),
            version,
            self.seed ^ update.combat_id as u64,
        ) else {
            return refusal("That combat could not be shown.");
        };
        let mut rendered = self.renderer.combat(&update.combat, &update.events, &ctx);
        // The summary of a fight that ended says how to ask for its log.
        if update
            .events
            .iter()
            .any(|e| matches!(e, engine::Event::CombatEnded { .. }))
            && let Some(footer) = rendered
                .narration
                .embeds
                .iter_mut()
                .rev()
                .find_map(|e| e.footer.as_mut())
        {
            footer.text = format!("{} · its log: /combat replay combat:{}", footer.text, update.combat_id);
        }
        let mut replies = Vec::new();
        // On the timeline a batch with nothing to narrate (`/combat status`) shows the timeline alone.
        let silent = rendered.narration.embeds.iter().all(|e| e.description.is_none());
        if rendered.timeline.is_none() || !silent {
            let mut narration = Reply::public(rendered.narration);
            if update.map_every_turn && passes_the_turn(update) {
                narration.picture = Some(std::sync::Arc::clone(&update.combat));
            }
            replies.push(narration);
        }
        if let Some(timeline) = rendered.timeline {
            replies.push(Reply::running(timeline, format!("timeline:{}", update.combat_id)));
        }
        for notice in &update.notices {
            if let Notice::Admitted(admission) = notice {
                replies.extend(self.admission_replies(admission));
            }
            replies.extend(self.duel_replies(notice));
            if let Notice::Settled(settled) = notice
                && let Some(zone) = &settled.expedition_abandoned
            {
                replies.push(self.story(Key::ExpeditionAbandoned, &[("name", "The party"), ("zone", zone)]));
            }
        }
        if let Some(prompt) = rendered.reaction_prompt {
            let to_user = update
                .combat
                .window
                .as_ref()
                .and_then(|w| update.combat.get(w.reactor).player_id())
                .map(str::to_owned);
            replies.push(Reply {
                payload: prompt,
                to_user,
                running: None,
                picture: None,
            });
        }
        replies
    }

    /// Draws the battlefield pictures `replies` ask for (off the async runtime: a picture of
    /// 40 combatants takes milliseconds of one core) and attaches each as `map.png`.
    pub async fn draw_pictures(mut replies: Vec<Reply>) -> Vec<Reply> {
        for reply in &mut replies {
            let Some(combat) = reply.picture.take() else {
                continue;
            };
            if let Ok(file) = tokio::task::spawn_blocking(move || render::map::attachment(&combat, 0)).await {
                reply.payload.attachments.push(file);
            }
        }
        replies
    }

    fn failed(error: &ServiceError) -> Vec<Reply> {
        match error {
            ServiceError::Database(_) => {
                let id = Utc::now().timestamp_millis();
                tracing::error!(error_id = id, %error, "command failed");
                refusal(&format!(
                    "Something went wrong on our side (error {id}). Nothing was changed — please try again."
                ))
            }
            other => refusal(&other.to_string()),
        }
    }

    /// Handles a slash command: checked against its spec, parsed once into an
    /// [`AppCommand`], run.
    pub async fn command(&self, caller: &Caller, inv: &Invocation, now: DateTime<Utc>) -> Vec<Reply> {
        match AppCommand::parse(inv, caller.manage_server) {
            Ok(command) => self.run(caller, command, now).await,
            Err(text) => refusal(&text),
        }
    }

    /// Runs a parsed command in the caller's campaign.
    pub async fn run(&self, caller: &Caller, command: AppCommand, now: DateTime<Utc>) -> Vec<Reply> {
        Self::draw_pictures(self.run_drawn_later(caller, command, now).await).await
    }

    async fn run_drawn_later(&self, caller: &Caller, command: AppCommand, now: DateTime<Utc>) -> Vec<Reply> {
        let result = async {
            let campaign = self
                .service
                .campaign_id_for(&caller.guild, &caller.channel, now)
                .await?;
            // A player back in a fight paused for want of players: it goes on, and the channel hears so.
            let resumed = self
                .service
                .resume_if_paused(campaign, &caller.channel, &caller.user, now)
                .await?;
            let ctx = cmd::Ctx {
                app: self,
                caller,
                campaign,
                now,
            };
            let replies = command.run(&ctx).await;
            match resumed {
                Some(back) => {
                    let text = format!("**{}** is back: the fight goes on.", back.name);
                    let mut all = vec![Reply::public(render::info("The fight resumes", &text))];
                    match replies {
                        Ok(replies) => all.extend(replies),
                        Err(refused) => all.extend(self.refused(caller, refused, now).await),
                    }
                    Ok(all)
                }
                None => replies,
            }
        }
        .await;
        match result {
            Ok(replies) => replies,
            Err(refused) => self.refused(caller, refused, now).await,
        }
    }

    /// What a refused command answers.
    async fn refused(&self, caller: &Caller, refused: Refused, now: DateTime<Utc>) -> Vec<Reply> {
        match refused {
            // Thom refuses an expedition during the recovery rest himself (§8.4).
            Refused::Service(ServiceError::Resting { name, remaining }) => {
                let remaining = service::cmd::hospital::describe(remaining);
                let line = self.renderer.story(
                    Key::RestBlocksExpedition,
                    &[("name", &name), ("remaining", &remaining)],
                    self.seed,
                );
                vec![Reply::public(line.ephemeral())]
            }
            // The reactor herself: point her at her buttons rather than "waiting for you".
            Refused::Service(ServiceError::Rules(engine::RuleViolation::AwaitingReaction { reactor }))
                if self.is_callers(caller, &reactor, now).await =>
            {
                refusal(&format!(
                    "Your reaction comes first, {reactor}: answer it with the buttons on TwinBee's prompt \
                     (or Pass). /combat status shows the prompt again."
                ))
            }
            // No fight here, but the caller is on an expedition: say where it stands and what's next.
            Refused::Service(ServiceError::NoCombatInChannel) => match self.on_expedition(caller, now).await {
                Some(text) => refusal(&text),
                None => Self::failed(&ServiceError::NoCombatInChannel),
            },
            Refused::Service(e) => Self::failed(&e),
            Refused::Input(text) => refusal(&text),
        }
    }

    /// What to do next on the caller's active expedition, if they are on one.
    async fn on_expedition(&self, caller: &Caller, now: DateTime<Utc>) -> Option<String> {
        let campaign = self
            .service
            .campaign_id_for(&caller.guild, &caller.channel, now)
            .await
            .ok()?;
        let trip = self.service.expedition(campaign, &caller.user).await.ok()??;
        let zone = trip.zone.def().name.clone();
        Some(if trip.room >= trip.rooms {
            format!(
                "There's no fight here now: you've cleared all {} rooms of {zone}. /expedition leave heads home.",
                trip.rooms
            )
        } else {
            format!(
                "There's no fight here now — you're on an expedition in {zone}, {} of {} rooms entered. \
                 /expedition advance enters the next room; /expedition leave heads home.",
                trip.room, trip.rooms
            )
        })
    }

    /// Whether `name` is the caller's character here.
    async fn is_callers(&self, caller: &Caller, name: &str, now: DateTime<Utc>) -> bool {
        let Ok(campaign) = self.service.campaign_id_for(&caller.guild, &caller.channel, now).await else {
            return false;
        };
        self.service
            .sheet(campaign, &caller.user)
            .await
            .is_ok_and(|sheet| sheet.name == name)
    }

    /// Handles a button press (a reaction prompt's button).
    pub async fn press(&self, caller: &Caller, custom_id: &str, now: DateTime<Utc>) -> Vec<Reply> {
        Self::draw_pictures(self.press_drawn_later(caller, custom_id, now).await).await
    }

    async fn press_drawn_later(&self, caller: &Caller, custom_id: &str, now: DateTime<Utc>) -> Vec<Reply> {
        if let Some(replies) = self.life_press(caller, custom_id, now).await {
            return replies;
        }
        if let Some(replies) = self.arena_press(caller, custom_id, now).await {
            return replies;
        }
        if let Some(replies) = self.trip_press(caller, custom_id, now).await {
            return replies;
        }
        let Some(button) = ReactionButton::parse(custom_id) else {
            return refusal("That button is not one of mine.");
        };
        let label = match button.choice {
            ReactionChoice::Take(kind) => kind.label(),
            ReactionChoice::Pass => "pass",
        };
        let result = async {
            let campaign = self
                .service
                .campaign_id_for(&caller.guild, &caller.channel, now)
                .await?;
            // Every field of the id against the window open here now, and the presser against
            // its reactor; the service checks the window's token again as it writes.
            let shown = self.service.combat_status(campaign, &caller.channel).await?;
            let token = shown.window_token.and_then(|t| u64::try_from(t).ok());
            let current = token.is_some_and(|t| button.is_current(&shown.combat_id.to_string(), t, &shown.combat));
            if !current {
                return Err(Refused::Service(ServiceError::StaleButton));
            }
            if !button.pressed_by(&shown.combat, &caller.user) {
                let reactor = shown.combat.get(button.reactor).name.clone();
                return Err(Refused::Input(format!(
                    "Those buttons are {reactor}'s to press — you can't answer their reaction."
                )));
            }
            Ok(self
                .service
                .react(campaign, &caller.channel, &caller.user, label, shown.window_token, now)
                .await?)
        }
        .await;
        match result {
            Ok(update) => self.combat_replies(&update),
            Err(Refused::Service(e)) => Self::failed(&e),
            Err(Refused::Input(text)) => refusal(&text),
        }
    }

    /// Up to 25 names for an option the player is typing (Discord's autocomplete), those
    /// containing `partial` first-come: combatants in this channel's fight, the caller's spells
    /// and items (all of them when the caller has no character), zones, races, classes, monsters.
    pub async fn suggest(&self, caller: &Caller, list: Suggest, partial: &str, now: DateTime<Utc>) -> Vec<String> {
        let partial = partial.trim().to_lowercase();
        self.names(caller, list, now)
            .await
            .into_iter()
            .filter(|n| n.to_lowercase().contains(&partial))
            .take(25)
            .collect()
    }

    /// Every name of an autocomplete list for the caller (the terminal table completes from it).
    pub async fn names(&self, caller: &Caller, list: Suggest, now: DateTime<Utc>) -> Vec<String> {
        // Races, classes and zones are the game's; a campaign's monsters include its homebrew.
        let builtin = engine::content::data::builtin();
        let owned = |names: &mut dyn Iterator<Item = &'static str>| names.map(str::to_owned).collect::<Vec<_>>();
        let campaign = || async {
            self.service
                .campaign_id_for(&caller.guild, &caller.channel, now)
                .await
                .ok()
        };
        let names: Vec<String> = match list {
            Suggest::Target => match campaign().await {
                Some(id) => self
                    .service
                    .combat_status(id, &caller.channel)
                    .await
                    .map(|u| u.combat.combatants.iter().map(|c| c.name.clone()).collect())
                    .unwrap_or_default(),
                None => Vec::new(),
            },
            Suggest::Other | Suggest::Ally => {
                let Some((combat, me)) = self.my_fight(caller, now).await else {
                    return Vec::new();
                };
                let mine = me.map(|me| combat.get(me).side);
                combat
                    .combatants
                    .iter()
                    .filter(|c| Some(c.id) != me)
                    .filter(|c| match list {
                        Suggest::Ally => mine == Some(c.side) && !c.is_dead(),
                        _ => c.is_standing(),
                    })
                    .map(|c| c.name.clone())
                    .collect()
            }
            Suggest::Bonus => match self.my_fight(caller, now).await {
                Some((combat, Some(me))) => {
                    owned(&mut engine::bonus_actions::granted(combat.get(me), combat.ruleset).into_iter())
                }
                _ => owned(&mut spec::BONUS_ACTIONS.iter().copied()),
            },
            // In a fight, the spells the caller can cast now (a slot left, or a cantrip).
            Suggest::Spell if let Some((combat, Some(me))) = self.my_fight(caller, now).await => {
                let c = combat.get(me);
                c.known_spells()
                    .iter()
                    .filter(|s| {
                        engine::content::Spell::named(&s.name)
                            .is_some_and(|spell| engine::casting::check_castable(c, spell, false).is_ok())
                    })
                    .map(|s| s.name.to_string())
                    .collect()
            }
            // The caller's own spells and items; without any, the campaign's (its homebrew too).
            Suggest::Spell => match campaign().await {
                Some(id) => match self.service.sheet(id, &caller.user).await {
                    Ok(sheet) if !sheet.spells.is_empty() => sheet.spell_names,
                    _ => match self.service.content(id).await {
                        Ok(content) => content.spells.all().iter().map(|s| s.name.to_string()).collect(),
                        Err(_) => owned(&mut builtin.spells.all().iter().map(|s| &*s.name)),
                    },
                },
                None => Vec::new(),
            },
            Suggest::Item => match campaign().await {
                Some(id) => match self.service.inventory(id, &caller.user).await {
                    Ok(inv) if !inv.items.is_empty() => inv.item_names,
                    _ => match self.service.content(id).await {
                        Ok(content) => content.items.all().iter().map(|i| i.name.to_string()).collect(),
                        Err(_) => owned(&mut builtin.items.all().iter().map(|i| &*i.name)),
                    },
                },
                None => Vec::new(),
            },
            Suggest::Gear => {
                use engine::content::{Armor, Weapon};
                let mut gear = owned(&mut Weapon::all().iter().map(|w| w.name()));
                gear.extend(owned(
                    &mut Armor::all().iter().filter(|a| **a != Armor::NONE).map(|a| a.name()),
                ));
                gear.push("Shield".to_owned());
                gear
            }
            Suggest::Zone => owned(&mut builtin.zones.all().iter().map(|z| &*z.name)),
            Suggest::Race => owned(&mut builtin.races.all().iter().map(|r| &*r.name)),
            Suggest::Class => owned(&mut builtin.classes.all().iter().map(|c| &*c.name)),
            Suggest::Monster => match campaign().await {
                Some(id) => match self.service.content(id).await {
                    Ok(content) => content.monsters.all().iter().map(|m| m.name.to_string()).collect(),
                    Err(_) => owned(&mut builtin.monsters.all().iter().map(|m| &*m.name)),
                },
                None => owned(&mut builtin.monsters.all().iter().map(|m| &*m.name)),
            },
            Suggest::Homebrew => match campaign().await {
                Some(id) => self
                    .service
                    .homebrew_list(id)
                    .await
                    .map(|list| list.into_iter().map(|e| e.name).collect())
                    .unwrap_or_default(),
                None => Vec::new(),
            },
            Suggest::Stock | Suggest::Sellable | Suggest::Recipe | Suggest::Stored => {
                self.world_names(caller, list, now).await
            }
        };
        names
    }

    /// The fight in the caller's channel, and the caller's combatant in it (if they fight).
    async fn my_fight(
        &self,
        caller: &Caller,
        now: DateTime<Utc>,
    ) -> Option<(std::sync::Arc<engine::Combat>, Option<engine::CombatantId>)> {
        let campaign = self
            .service
            .campaign_id_for(&caller.guild, &caller.channel, now)
            .await
            .ok()?;
        let combat = self.service.combat_status(campaign, &caller.channel).await.ok()?.combat;
        let me = combat
            .combatants
            .iter()
            .find(|c| c.player_id() == Some(caller.user.as_str()))
            .map(|c| c.id);
        Some((combat, me))
    }

    /// Fires due timers (reaction windows that timed out, recovery rests that ended), each
    /// exactly once across processes: the messages to post, by channel. A rest-over message is
    /// addressed to its player (`Reply::to_user`) so the bot can DM them, the channel being
    /// where they paid (the fallback when their DMs are closed).
    pub async fn timers(&self, now: DateTime<Utc>) -> Vec<(String, Reply)> {
        match self.service.fire_due_timers(now, &service::worker_id()).await {
            Ok(fired) => {
                let (channels, replies): (Vec<String>, Vec<Reply>) =
                    fired.iter().flat_map(|f| self.fired_replies(f)).unzip();
                channels.into_iter().zip(Self::draw_pictures(replies).await).collect()
            }
            Err(error) => {
                tracing::error!(%error, "timers failed");
                Vec::new()
            }
        }
    }
}

/// The lists autocomplete draws from ([`App::suggest`]); which option draws from which is
/// declared with the option ([`spec`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Suggest {
    /// Combatants in the channel's fight.
    Target,
    /// Everyone standing in the channel's fight but the caller (whom to attack or close with).
    Other,
    /// The caller's allies in the channel's fight, the caller left out (whom to help or stabilize).
    Ally,
    /// The bonus actions the caller's combatant is granted (every one outside a fight).
    Bonus,
    Spell,
    Item,
    /// Weapons, armour and shields to equip.
    Gear,
    Zone,
    Race,
    Class,
    Monster,
    /// Thom's stock.
    Stock,
    /// What the caller could sell: their materials, trophies and spare goods.
    Sellable,
    /// Crafting recipes.
    Recipe,
    /// What the caller's room at the inn holds.
    Stored,
    /// The campaign's homebrew entries.
    Homebrew,
}

/// Why a command produced a refusal.
pub enum Refused {
    Service(ServiceError),
    Input(String),
}

impl From<ServiceError> for Refused {
    fn from(e: ServiceError) -> Self {
        Refused::Service(e)
    }
}

impl From<String> for Refused {
    fn from(text: String) -> Self {
        Refused::Input(text)
    }
}

impl From<&str> for Refused {
    fn from(text: &str) -> Self {
        Refused::Input(text.to_owned())
    }
}
