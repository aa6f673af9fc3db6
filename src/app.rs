//! The game as both tables see it: a slash command or a button press from someone in a channel
//! goes in, the messages to send come out. The Discord adapter and the terminal table are thin
//! shells around this — parse → one service call → render → send — so what a script sees is
//! what Discord gets.

mod hospital;

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use engine::combatant::CunningStrike;
use engine::{CunningMove, ShoveMode};
use render::{CharacterSheet, Key, MessagePayload, ReactionButton, ReactionChoice, RenderContext, Renderer, RoomEntry};
use service::{CombatUpdate, Notice, PlayerCommand, Service, ServiceError, Sheet};

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
}

impl Reply {
    fn public(payload: MessagePayload) -> Self {
        Self {
            payload,
            to_user: None,
            running: None,
        }
    }

    /// A reply that updates the running message `key` in place.
    fn running(payload: MessagePayload, key: String) -> Self {
        Self {
            payload,
            to_user: None,
            running: Some(key),
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

/// A user id from a mention (`<@123>`, `<@!123>`) or a bare id/name.
fn user_id(text: &str) -> String {
    text.trim()
        .trim_start_matches("<@")
        .trim_start_matches('!')
        .trim_end_matches('>')
        .trim_start_matches('@')
        .to_owned()
}

fn sheet_view(sheet: &Sheet) -> CharacterSheet {
    let mut notes = vec![format!("{} attack(s) per Attack action", sheet.attacks_per_action)];
    if !sheet.spells.is_empty() {
        notes.push(format!(
            "Spells: {}",
            sheet.spells.iter().map(|s| s.name()).collect::<Vec<_>>().join(", ")
        ));
    }
    if sheet.can_level_up {
        notes.push("Enough XP to level up: /character levelup".to_owned());
    }
    CharacterSheet {
        name: sheet.name.clone(),
        race: sheet.race.name().to_owned(),
        class: sheet.class.name().to_owned(),
        level: sheet.level,
        xp: sheet.xp,
        next_level_xp: sheet.next_level_xp,
        hp: sheet.hp,
        max_hp: sheet.max_hp,
        armor_class: sheet.armor_class,
        speed: sheet.speed,
        coins: sheet.coins,
        abilities: CharacterSheet::ability_scores(&sheet.abilities),
        gear: CharacterSheet::gear_list(sheet.weapon, sheet.off_hand, sheet.armor, sheet.shield),
        inventory: Vec::new(),
        notes,
        fight: Vec::new(),
    }
}

fn parse_cunning(text: &str) -> Result<CunningMove, String> {
    match text.trim().to_lowercase().as_str() {
        "dash" => Ok(CunningMove::Dash),
        "disengage" => Ok(CunningMove::Disengage),
        "hide" => Ok(CunningMove::Hide),
        other => Err(format!("Cunning Action is dash, disengage or hide — not \"{other}\".")),
    }
}

fn parse_rider(text: &str) -> Result<CunningStrike, String> {
    match text.trim().to_lowercase().as_str() {
        "trip" => Ok(CunningStrike::Trip),
        "poison" => Ok(CunningStrike::Poison),
        "withdraw" => Ok(CunningStrike::Withdraw),
        other => Err(format!("Cunning Strike is trip, poison or withdraw — not \"{other}\".")),
    }
}

/// `/bonus ability:<name>` → the player command.
fn bonus(inv: &Invocation) -> Result<PlayerCommand, String> {
    let ability = inv.need("ability")?.to_lowercase();
    let target = inv.opt("target").map(str::to_owned);
    let need_target = || target.clone().ok_or_else(|| "Name a `target` for that.".to_owned());
    let words: String = ability.chars().filter(char::is_ascii_alphanumeric).collect();
    Ok(match words.as_str() {
        "offhand" | "offhandattack" => PlayerCommand::OffHandAttack { target },
        "secondwind" => PlayerCommand::SecondWind,
        "healingword" => PlayerCommand::HealingWord { target: need_target()? },
        "huntersmark" => PlayerCommand::HuntersMark { target: need_target()? },
        "rage" => PlayerCommand::Rage,
        "mistystep" => PlayerCommand::MistyStep { target },
        "cunningaction" => PlayerCommand::CunningAction(parse_cunning(inv.need("mode")?)?),
        "cunningdash" => PlayerCommand::CunningAction(CunningMove::Dash),
        "cunningdisengage" => PlayerCommand::CunningAction(CunningMove::Disengage),
        "cunninghide" => PlayerCommand::CunningAction(CunningMove::Hide),
        "cunningstrike" => PlayerCommand::CunningStrike(parse_rider(inv.need("mode")?)?),
        _ => {
            return Err(format!(
                "\"{ability}\" is not a bonus action. Try: off-hand attack, second wind, cunning action (mode: dash|disengage|hide), \
                 healing word, hunter's mark, rage, misty step, cunning strike (mode: trip|poison|withdraw)."
            ));
        }
    })
}

/// The combat actions (`/attack`, `/move melee`, …) → the player command, or `None` if `name`
/// is not one.
fn action(inv: &Invocation) -> Option<Result<PlayerCommand, String>> {
    let target = || inv.opt("target").map(str::to_owned);
    let need = |name: &str| inv.need(name).map(str::to_owned);
    let name = inv.path.first()?.as_str();
    Some(match name {
        "attack" => Ok(PlayerCommand::Attack { target: target() }),
        "cast" => need("spell").map(|spell| PlayerCommand::Cast {
            spell,
            target: target(),
        }),
        "dash" => Ok(PlayerCommand::Dash),
        "disengage" => Ok(PlayerCommand::Disengage),
        "dodge" => Ok(PlayerCommand::Dodge),
        "help" => need("ally").map(|ally| PlayerCommand::Help { ally }),
        "hide" => Ok(PlayerCommand::Hide),
        "ready" => need("action").map(|text| PlayerCommand::Ready { text }),
        "use" => need("item").map(|item| PlayerCommand::UseItem { item, target: target() }),
        "search" => Ok(PlayerCommand::Search),
        "grapple" => need("target").map(|target| PlayerCommand::Grapple { target }),
        "shove" => need("target").and_then(|target| {
            let mode = match inv.opt("mode").unwrap_or("prone").to_lowercase().as_str() {
                "prone" => ShoveMode::Prone,
                "push" | "away" => ShoveMode::Push,
                other => return Err(format!("A shove knocks `prone` or pushes `away` — not \"{other}\".")),
            };
            Ok(PlayerCommand::Shove { target, mode })
        }),
        "stabilize" | "stabilise" => need("ally").map(|ally| PlayerCommand::Stabilize { ally }),
        "bonus" => bonus(inv),
        "move" => {
            let direction = inv
                .path
                .get(1)
                .map(String::as_str)
                .or(inv.opt("direction"))
                .unwrap_or("");
            match direction.to_lowercase().as_str() {
                "" => Err(
                    "Say where: /move melee target:<name>, /move ranged, or /move direction:<toward|away|north…>."
                        .into(),
                ),
                "melee" => need("target").map(|target| PlayerCommand::MoveMelee { target }),
                other => Ok(PlayerCommand::Move {
                    direction: other.to_owned(),
                }),
            }
        }
        "endturn" => Ok(PlayerCommand::EndTurn),
        "delay" => Ok(PlayerCommand::Delay {
            after: inv.opt("after").map(str::to_owned),
        }),
        "instant" => need("ability").map(|ability| PlayerCommand::Instant { ability }),
        _ => return None,
    })
}

impl App {
    pub fn new(service: Service, renderer: Renderer, seed: u64) -> Self {
        Self {
            service,
            renderer,
            seed,
        }
    }

    fn story(&self, key: Key, values: &[(&str, &str)]) -> Reply {
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
        let rendered = self.renderer.combat(&update.combat, &update.events, &ctx);
        let mut replies = Vec::new();
        // On the timeline a batch with nothing to narrate (`/combat status`) shows the timeline alone.
        let silent = rendered.narration.embeds.iter().all(|e| e.description.is_none());
        if rendered.timeline.is_none() || !silent {
            replies.push(Reply::public(rendered.narration));
        }
        if let Some(timeline) = rendered.timeline {
            replies.push(Reply::running(timeline, format!("timeline:{}", update.combat_id)));
        }
        for notice in &update.notices {
            if let Notice::Admitted(admission) = notice {
                replies.extend(self.admission_replies(admission));
            }
            if let Notice::Settled(settled) = notice
                && settled.expedition_abandoned
            {
                replies.push(self.story(Key::ExpeditionAbandoned, &[("name", "The party"), ("zone", "the zone")]));
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
            });
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

    /// Handles a slash command.
    pub async fn command(&self, caller: &Caller, inv: &Invocation, now: DateTime<Utc>) -> Vec<Reply> {
        match self.route(caller, inv, now).await {
            Ok(replies) => replies,
            // Thom refuses an expedition during the recovery rest himself (§8.4).
            Err(Refused::Service(ServiceError::Resting { name, remaining })) => {
                let remaining = service::cmd::hospital::describe(remaining);
                let line = self.renderer.story(
                    Key::RestBlocksExpedition,
                    &[("name", &name), ("remaining", &remaining)],
                    self.seed,
                );
                vec![Reply::public(line.ephemeral())]
            }
            Err(Refused::Service(e)) => Self::failed(&e),
            Err(Refused::Input(text)) => refusal(&text),
        }
    }

    async fn route(&self, caller: &Caller, inv: &Invocation, now: DateTime<Utc>) -> Result<Vec<Reply>, Refused> {
        let s = &self.service;
        let campaign = s.campaign_id_for(&caller.guild, &caller.channel, now).await?;
        let (me, channel) = (caller.user.as_str(), caller.channel.as_str());
        let sub = inv.path.get(1).map_or("", String::as_str);
        let gm = || {
            if caller.manage_server {
                Ok(())
            } else {
                Err(Refused::Input("That needs the Manage Server permission.".into()))
            }
        };
        if let Some(command) = action(inv) {
            let command = command?;
            let update = if command == PlayerCommand::EndTurn {
                s.end_turn(campaign, channel, me, now).await?
            } else {
                s.act(campaign, channel, me, &command, now).await?
            };
            return Ok(self.combat_replies(&update));
        }
        let replies = match (inv.path[0].as_str(), sub) {
            ("character", "create") => {
                let sheet = s
                    .create_character(
                        campaign,
                        me,
                        inv.need("name")?,
                        inv.need("race")?,
                        inv.need("class")?,
                        now,
                    )
                    .await?;
                vec![Reply::public(render::character_sheet(&sheet_view(&sheet)))]
            }
            ("character", "sheet") => {
                let mut view = sheet_view(&s.sheet(campaign, me).await?);
                // In a fight here: the turn's budget and what the timing model tracks for them.
                if let Ok(update) = s.combat_status(campaign, channel).await
                    && update.combat.started
                    && update.combat.outcome.is_none()
                    && let Some(c) = update.combat.combatants.iter().find(|c| c.player_id() == Some(me))
                {
                    view.fight = render::models::sheet_lines(&update.combat, c.id);
                }
                vec![Reply::public(render::character_sheet(&view))]
            }
            ("character", "equip") => {
                let off_hand = inv.opt("hand").is_some_and(|h| h.eq_ignore_ascii_case("off"));
                vec![Reply::public(render::character_sheet(&sheet_view(
                    &s.equip(campaign, me, inv.need("item")?, off_hand).await?,
                )))]
            }
            ("character", "unequip") => {
                vec![Reply::public(render::character_sheet(&sheet_view(
                    &s.unequip(campaign, me, inv.need("item")?).await?,
                )))]
            }
            ("character", "levelup") => {
                vec![Reply::public(render::character_sheet(&sheet_view(
                    &s.level_up(campaign, me).await?,
                )))]
            }
            ("character", "inventory") => {
                let inventory = s.inventory(campaign, me).await?;
                let mut lines = vec![format!("Coins: {}", inventory.coins)];
                lines.extend(inventory.items.iter().map(|(item, n)| format!("{} × {n}", item.name())));
                if !inventory.materials.is_empty() {
                    lines.push(format!("Materials this run: {}", inventory.materials.join(", ")));
                }
                vec![Reply::public(render::info("Inventory", &lines.join("\n")).ephemeral())]
            }
            ("expedition", "start") => {
                let view = s.start_expedition(campaign, me, inv.need("zone")?, now).await?;
                let name = s.sheet(campaign, me).await?.name;
                // TwinBee's return narration on the first outing after a Hospital stay (§8.6).
                let key = if view.returning_from_hospital {
                    Key::ExpeditionResume
                } else {
                    Key::ExpeditionStart
                };
                vec![self.story(key, &[("name", &name), ("zone", view.zone.name())])]
            }
            ("expedition", "status") => match s.expedition(campaign, me).await? {
                Some(view) => vec![Reply::public(render::info(
                    view.zone.name(),
                    &format!(
                        "Room {} of {} · tier {} · {}",
                        view.room, view.rooms, view.tier, view.status
                    ),
                ))],
                None => refusal("You are not on an expedition — /expedition start zone:<zone>."),
            },
            ("expedition", "advance") => {
                let room = s.advance(campaign, channel, me, now).await?;
                let name = s.sheet(campaign, me).await?.name;
                let monsters = room
                    .encounter
                    .as_ref()
                    .map(|u| {
                        u.combat
                            .combatants
                            .iter()
                            .filter(|c| c.monster_kind().is_some())
                            .map(|c| c.name.clone())
                            .collect()
                    })
                    .unwrap_or_default();
                let entry = RoomEntry {
                    name: name.clone(),
                    zone: room.expedition.zone,
                    room: room.expedition.room,
                    rooms: room.expedition.rooms,
                    difficult: room.difficult,
                    monsters,
                };
                let mut replies = vec![Reply::public(
                    self.renderer
                        .room_entry(&entry, self.seed ^ u64::from(room.expedition.room)),
                )];
                if let Some(found) = &room.harvested {
                    replies.push(self.story(Key::Harvest, &[("name", &name), ("materials", found)]));
                }
                if let Some(update) = &room.encounter {
                    replies.extend(self.combat_replies(update));
                }
                replies
            }
            ("expedition", "leave") => {
                let (view, sheet) = s.leave_expedition(campaign, me, now).await?;
                vec![self.story(
                    Key::ExpeditionLeave,
                    &[("name", &sheet.name), ("zone", view.zone.name())],
                )]
            }
            ("combat", "start") => self.combat_replies(&s.start_combat(campaign, channel, me, now).await?),
            ("combat", "join") => self.combat_replies(&s.join_combat(campaign, channel, me, now).await?),
            ("combat", "status") => self.combat_replies(&s.combat_status(campaign, channel).await?),
            ("combat", "end") => {
                gm()?;
                self.combat_replies(&s.gm_end_combat(campaign, channel, now).await?)
            }
            ("hospital", sub) => self.hospital_route(campaign, caller, sub, now).await?,
            ("roll", _) => {
                let rolled = s.roll(inv.need("expression")?)?;
                vec![Reply::public(render::info(
                    &format!("🎲 {}", rolled.expression),
                    &format!("{} = **{}**", rolled.detail, rolled.total),
                ))]
            }
            ("campaign", "rules") => {
                gm()?;
                let ruleset = inv.need("ruleset")?;
                if engine::Ruleset::parse(ruleset).is_none() {
                    return Err(Refused::Input(format!(
                        "\"{ruleset}\" is not a ruleset: choose gogobee, tdgs, ctb or ticks."
                    )));
                }
                let set = s.set_ruleset(campaign, ruleset).await?;
                vec![Reply::public(render::info(
                    "Campaign rules",
                    &format!("New combats here use the **{set}** rules."),
                ))]
            }
            ("campaign", "timeout") => {
                gm()?;
                let seconds = inv
                    .number::<i64>("seconds")?
                    .ok_or("This command needs the `seconds` option (1–3600).")?;
                let set = s.set_reaction_timeout(campaign, seconds).await?;
                vec![Reply::public(render::info(
                    "Campaign rules",
                    &format!("Reaction prompts in fights started from now on wait **{set} s** before they pass."),
                ))]
            }
            ("campaign", "turntimeout") => {
                gm()?;
                let seconds = inv
                    .number::<i64>("seconds")?
                    .ok_or("This command needs the `seconds` option (0–86400; 0 waits for ever).")?;
                let set = s.set_turn_timeout(campaign, seconds).await?;
                let text = if set == 0 {
                    "Fights started from now on wait for each player as long as it takes.".to_owned()
                } else {
                    format!(
                        "In fights started from now on, a player has **{set} s** to act before their turn ends by itself."
                    )
                };
                vec![Reply::public(render::info("Campaign rules", &text))]
            }
            ("gm", "spawn") => {
                gm()?;
                let count = inv.number::<u32>("count")?.unwrap_or(1);
                self.combat_replies(&s.gm_spawn(campaign, channel, inv.need("monster")?, count, now).await?)
            }
            ("gm", "hp") => {
                gm()?;
                let delta = inv
                    .number::<i32>("delta")?
                    .ok_or("This command needs the `delta` option (e.g. -5 or 10).")?;
                match s
                    .gm_adjust_hp(campaign, channel, inv.need("target")?, delta, now)
                    .await?
                {
                    service::cmd::gm::HpAdjusted::InCombat(update) => self.combat_replies(&update),
                    service::cmd::gm::HpAdjusted::Character(sheet) => {
                        vec![Reply::public(render::character_sheet(&sheet_view(&sheet)))]
                    }
                }
            }
            ("gm", "grant") => {
                gm()?;
                let player = user_id(inv.need("player")?);
                let mut replies = Vec::new();
                if let Some(coins) = inv.number::<i64>("coins")? {
                    let inventory = s.gm_grant_coins(campaign, &player, coins).await?;
                    replies.push(Reply::public(render::info(
                        "Coins granted",
                        &format!("{coins} coins → now {}", inventory.coins),
                    )));
                }
                if let Some(item) = inv.opt("item") {
                    let count = inv.number::<u32>("count")?.unwrap_or(1);
                    s.gm_grant_item(campaign, &player, item, count).await?;
                    replies.push(Reply::public(render::info(
                        "Item granted",
                        &format!("{item} × {count}"),
                    )));
                }
                if replies.is_empty() {
                    return Err(Refused::Input("Grant `coins` or an `item` (with `count`).".into()));
                }
                replies
            }
            ("gm", "level") => {
                gm()?;
                let level = inv
                    .number::<u32>("level")?
                    .ok_or("This command needs the `level` option (1–20).")?;
                let sheet = s.gm_set_level(campaign, &user_id(inv.need("player")?), level).await?;
                vec![Reply::public(render::character_sheet(&sheet_view(&sheet)))]
            }
            ("gm", "end") => {
                gm()?;
                self.combat_replies(&s.gm_end_combat(campaign, channel, now).await?)
            }
            (name, sub) => refusal(&format!("I don't know /{name} {sub} — type / to see the commands.")),
        };
        Ok(replies)
    }

    /// Handles a button press (a reaction prompt's button).
    pub async fn press(&self, caller: &Caller, custom_id: &str, now: DateTime<Utc>) -> Vec<Reply> {
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
            let window = i64::try_from(button.version).ok();
            self.service
                .react(campaign, &caller.channel, &caller.user, label, window, now)
                .await
        }
        .await;
        match result {
            Ok(update) => self.combat_replies(&update),
            Err(e) => Self::failed(&e),
        }
    }

    /// Up to 25 names for an option the player is typing (Discord's autocomplete), those
    /// containing `partial` first-come: combatants in this channel's fight, the caller's spells
    /// and items (all of them when the caller has no character), zones, races, classes, monsters.
    pub async fn suggest(&self, caller: &Caller, list: Suggest, partial: &str, now: DateTime<Utc>) -> Vec<String> {
        use engine::content::{Class, Item, Monster, Race, Spell, Zone};
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
            Suggest::Spell => match campaign().await {
                Some(id) => match self.service.sheet(id, &caller.user).await {
                    Ok(sheet) if !sheet.spells.is_empty() => sheet.spells.iter().map(|s| s.name().to_owned()).collect(),
                    _ => owned(&mut Spell::ALL.iter().map(|s| s.name())),
                },
                None => Vec::new(),
            },
            Suggest::Item => match campaign().await {
                Some(id) => match self.service.inventory(id, &caller.user).await {
                    Ok(inv) if !inv.items.is_empty() => inv.items.iter().map(|(i, _)| i.name().to_owned()).collect(),
                    _ => owned(&mut Item::ALL.iter().map(|i| i.name())),
                },
                None => Vec::new(),
            },
            Suggest::Gear => {
                use engine::content::{Armor, Weapon};
                let mut gear = owned(&mut Weapon::ALL.iter().map(|w| w.name()));
                gear.extend(owned(
                    &mut Armor::ALL.iter().filter(|a| **a != Armor::None).map(|a| a.name()),
                ));
                gear.push("Shield".to_owned());
                gear
            }
            Suggest::Zone => owned(&mut Zone::ALL.iter().map(|z| z.name())),
            Suggest::Race => owned(&mut Race::ALL.iter().map(|r| r.name())),
            Suggest::Class => owned(&mut Class::ALL.iter().map(|c| c.name())),
            Suggest::Monster => owned(&mut Monster::ALL.iter().map(|m| m.name())),
        };
        let partial = partial.trim().to_lowercase();
        names
            .into_iter()
            .filter(|n| n.to_lowercase().contains(&partial))
            .take(25)
            .collect()
    }

    /// Fires due timers (reaction windows that timed out, recovery rests that ended), each
    /// exactly once across processes: the messages to post, by channel. A rest-over message is
    /// addressed to its player (`Reply::to_user`) so the bot can DM them, the channel being
    /// where they paid (the fallback when their DMs are closed).
    pub async fn timers(&self, now: DateTime<Utc>) -> Vec<(String, Reply)> {
        match self.service.fire_due_timers(now, &service::worker_id()).await {
            Ok(fired) => fired.iter().flat_map(|f| self.fired_replies(f)).collect(),
            Err(error) => {
                tracing::error!(%error, "timers failed");
                Vec::new()
            }
        }
    }
}

/// The lists autocomplete draws from ([`App::suggest`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Suggest {
    /// Combatants in the channel's fight.
    Target,
    Spell,
    Item,
    /// Weapons, armour and shields to equip.
    Gear,
    Zone,
    Race,
    Class,
    Monster,
}

/// Why a command produced a refusal.
enum Refused {
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
