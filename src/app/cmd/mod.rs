//! The app's commands, typed: an [`Invocation`] is checked against its [`spec`](super::spec)
//! and parsed once into an [`AppCommand`]; each module holds one slash command — its parse, its
//! one service call, its render — like mini-redis's `cmd/`.

mod action;
mod campaign;
mod character;
mod combat;
mod expedition;
mod gm;
mod hospital;
mod roll;

use chrono::{DateTime, Utc};

pub use action::Action;
pub use campaign::Campaign;
pub use character::Character;
pub use combat::CombatCmd;
pub use expedition::Expedition;
pub use gm::Gm;
pub use hospital::Hospital;
pub use roll::Roll;

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
    Hospital(Hospital),
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
            "hospital" => Self::Hospital(Hospital::parse(sub)?),
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
            Self::Hospital(c) => c.run(ctx).await,
            Self::Help => Ok(vec![Reply::public(help())]),
        }
    }
}

/// Every command with one line each, grouped by its first word.
pub fn help() -> render::MessagePayload {
    let mut lines = Vec::new();
    for name in super::spec::names() {
        for spec in super::spec::COMMANDS.iter().filter(|s| s.path[0] == name) {
            let gm = if spec.gm { " (Manage Server)" } else { "" };
            lines.push(format!("`{}` — {}{gm}", spec.usage(), spec.about));
        }
    }
    lines.push(
        "At the table: `[Label]` presses a button, `@name /command` speaks as someone else, `quit` leaves.".into(),
    );
    render::info("Commands", &lines.join("\n"))
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
