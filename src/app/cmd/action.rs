//! The combat actions — `/attack`, `/cast`, `/dash`, …, `/bonus`, `/move …`, `/endturn`,
//! `/delay`, `/instant` — each a [`PlayerCommand`] for the fight in the channel.

use engine::combatant::CunningStrike;
use engine::{CunningMove, ShoveMode};
use service::PlayerCommand;

use super::{Ctx, Invocation, Refused, Reply};

/// A combat action, as the service takes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Action(pub PlayerCommand);

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
        "cunningstrike" => PlayerCommand::CunningStrike(parse_rider(inv.need("mode")?)?),
        _ => {
            return Err(format!(
                "\"{ability}\" is not a bonus action. Try: {}.",
                crate::app::spec::BONUS_ACTIONS.join(", ")
            ));
        }
    })
}

impl Action {
    /// The action an invocation (already checked against its spec) names.
    pub fn parse(inv: &Invocation) -> Result<Self, String> {
        let target = || inv.opt("target").map(str::to_owned);
        let need = |name: &str| inv.need(name).map(str::to_owned);
        let sub = inv.path.get(1).map_or("", String::as_str);
        let command = match inv.path[0].as_str() {
            "attack" => PlayerCommand::Attack { target: target() },
            "cast" => PlayerCommand::Cast {
                spell: need("spell")?,
                target: target(),
            },
            "dash" => PlayerCommand::Dash,
            "disengage" => PlayerCommand::Disengage,
            "dodge" => PlayerCommand::Dodge,
            "help" => PlayerCommand::Help { ally: need("ally")? },
            "hide" => PlayerCommand::Hide,
            "ready" => PlayerCommand::Ready { text: need("action")? },
            "use" => PlayerCommand::UseItem {
                item: need("item")?,
                target: target(),
            },
            "search" => PlayerCommand::Search,
            "grapple" => PlayerCommand::Grapple {
                target: need("target")?,
            },
            "shove" => PlayerCommand::Shove {
                target: need("target")?,
                mode: match inv.opt("mode").unwrap_or("prone") {
                    "away" => ShoveMode::Push,
                    _ => ShoveMode::Prone,
                },
            },
            "stabilize" => PlayerCommand::Stabilize { ally: need("ally")? },
            "bonus" => bonus(inv)?,
            "move" => match sub {
                "melee" => PlayerCommand::MoveMelee {
                    target: need("target")?,
                },
                "shift" => PlayerCommand::Move {
                    direction: need("direction")?,
                },
                "crawl" => PlayerCommand::Crawl {
                    direction: need("way")?,
                },
                other => PlayerCommand::Move {
                    direction: other.to_owned(),
                },
            },
            "endturn" => PlayerCommand::EndTurn,
            "delay" => PlayerCommand::Delay {
                after: inv.opt("after").map(str::to_owned),
            },
            "instant" => PlayerCommand::Instant {
                ability: need("ability")?,
            },
            other => return Err(format!("/{other} is not a combat action.")),
        };
        Ok(Self(command))
    }

    pub async fn run(self, ctx: &Ctx<'_>) -> Result<Vec<Reply>, Refused> {
        let (s, campaign, channel, me, now) = (ctx.service(), ctx.campaign, ctx.channel(), ctx.me(), ctx.now);
        let update = if self.0 == PlayerCommand::EndTurn {
            s.end_turn(campaign, channel, me, now).await?
        } else {
            s.act(campaign, channel, me, &self.0, now).await?
        };
        Ok(ctx.app.combat_replies(&update))
    }
}
