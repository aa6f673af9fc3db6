//! The app's commands, typed: an [`Invocation`] is checked against its [`spec`](super::spec)
//! and parsed once into an [`AppCommand`]; each module holds one slash command — its parse, its
//! one service call, its render — like mini-redis's `cmd/`.

mod action;
mod arena;
mod campaign;
mod character;
mod combat;
mod craft;
mod escape;
mod expedition;
mod gm;
mod homebrew;
mod hospital;
mod house;
mod life;
mod rest;
mod roll;
mod shop;

use chrono::{DateTime, Utc};

pub use action::Action;
pub use arena::Arena;
pub use campaign::Campaign;
pub use character::Character;
pub use combat::CombatCmd;
pub use craft::Craft;
pub use escape::Escape;
pub use expedition::Expedition;
pub use gm::Gm;
pub use homebrew::Homebrew;
pub use hospital::Hospital;
pub use house::House;
pub use life::Leaderboard;
pub use rest::Rest;
pub use roll::Roll;
pub use shop::Shop;

use super::{App, Caller, Invocation, Refused, Reply};

/// A slash command, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AppCommand {
    Character(Character),
    Expedition(Expedition),
    Combat(CombatCmd),
    /// A combat action (`/attack`, `/move melee`, `/bonus`, `/endturn`, …).
    Action(Action),
    Roll(Roll),
    Campaign(Campaign),
    Gm(Gm),
    Homebrew(Homebrew),
    Hospital(Hospital),
    Shop(Shop),
    Rest(Rest),
    Craft(Craft),
    /// `/escape`: break free of a web, vines or a net.
    Escape(Escape),
    Leaderboard(Leaderboard),
    Arena(Arena),
    House(House),
    /// `/help` with no ally (and `help` at the table): the list of commands.
    Guide,
    /// `/guide command:<name>`: one command in full.
    GuideTo(String),
    /// `/help` with no ally (and `help` at the table): the list of commands.
    Help,
}

/// What a command runs with: the app, who sent it where, the campaign there, and the time.
pub struct Ctx<'a> {
    pub app: &'a App,
    pub caller: &'a Caller,
    pub campaign: i64,
    pub now: DateTime<Utc>,
}

impl Ctx<'_> {
    fn me(&self) -> &str {
        &self.caller.user
    }

    fn channel(&self) -> &str {
        &self.caller.channel
    }

    fn service(&self) -> &service::Service {
        &self.app.service
    }
}

impl AppCommand {
    /// Checks an invocation against its command's spec (unknown, missing or mistyped options
    /// are refused with the real ones listed; a GM command needs Manage Server) and parses it.
    pub fn parse(inv: &Invocation, manage_server: bool) -> Result<Self, String> {
        let (spec, inv) = super::spec::find(inv)?;
        if spec.gm && !manage_server {
            return Err("That needs the Manage Server permission.".into());
        }
        let inv = spec.check(&inv)?;
        let sub = inv.path.get(1).map_or("", String::as_str);
        Ok(match inv.path[0].as_str() {
            "character" => Self::Character(Character::parse(sub, &inv)?),
            "expedition" => Self::Expedition(Expedition::parse(sub, &inv)?),
            "combat" => Self::Combat(CombatCmd::parse(sub, &inv)?),
            "roll" => Self::Roll(Roll::parse(&inv)?),
            "campaign" => Self::Campaign(Campaign::parse(sub, &inv)?),
            "gm" => Self::Gm(Gm::parse(sub, &inv)?),
            "homebrew" => Self::Homebrew(Homebrew::parse(sub, &inv)?),
            "hospital" => Self::Hospital(Hospital::parse(sub)?),
            "shop" => Self::Shop(Shop::parse(sub, &inv)?),
            "rest" => Self::Rest(Rest::parse(sub)),
            "craft" => Self::Craft(Craft::parse(sub, &inv)?),
            "leaderboard" => Self::Leaderboard(Leaderboard::parse(&inv)),
            "arena" => Self::Arena(Arena::parse(sub, &inv)?),
            "house" => Self::House(House::parse(sub, &inv)?),
            "escape" => Self::Escape(Escape),
            "guide" => match inv.opt("command") {
                Some(command) => Self::GuideTo(command.to_owned()),
                None => Self::Guide,
            },
            "help" if inv.opt("ally").is_none() => Self::Help,
            _ => Self::Action(Action::parse(&inv)?),
        })
    }

    /// Runs the command: its one service call, rendered.
    pub async fn run(self, ctx: &Ctx<'_>) -> Result<Vec<Reply>, Refused> {
        match self {
            Self::Character(c) => c.run(ctx).await,
            Self::Expedition(c) => c.run(ctx).await,
            Self::Combat(c) => c.run(ctx).await,
            Self::Action(c) => c.run(ctx).await,
            Self::Roll(c) => c.run(ctx),
            Self::Campaign(c) => c.run(ctx).await,
            Self::Gm(c) => c.run(ctx).await,
            Self::Homebrew(c) => c.run(ctx).await,
            Self::Hospital(c) => c.run(ctx).await,
            Self::Shop(c) => c.run(ctx).await,
            Self::Rest(c) => c.run(ctx).await,
            Self::Craft(c) => c.run(ctx).await,
            Self::Escape(c) => c.run(ctx).await,
            Self::Leaderboard(c) => c.run(ctx).await,
            Self::Arena(c) => c.run(ctx).await,
            Self::House(c) => c.run(ctx).await,
            Self::Guide => Ok(help_pages().into_iter().map(Reply::public).collect()),
            Self::GuideTo(command) => Ok(vec![Reply::public(
                super::guide::command_page(&command).map_err(Refused::Input)?,
            )]),
            Self::Help => Ok(help_pages().into_iter().map(Reply::public).collect()),
        }
    }
}

/// Every command, grouped, one line and an example each ([`super::guide`]): the messages
/// `/guide`, `/help` alone and the table's `help` send.
/// `n` and its noun, singular for one: `1 coin`, `3 coins`.
pub fn count(n: i64, noun: &str) -> String {
    if n == 1 || n == -1 {
        format!("{n} {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

pub fn help_pages() -> Vec<render::MessagePayload> {
    super::guide::pages()
}

impl Ctx<'_> {
    /// Refuses unless the caller has Manage Server.
    fn gm(&self) -> Result<(), Refused> {
        if self.caller.manage_server {
            Ok(())
        } else {
            Err(Refused::Input("That needs the Manage Server permission.".into()))
        }
    }
}
