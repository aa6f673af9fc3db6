//! `/gm spawn|hp|grant|level|end` (Manage Server): the game master's tools.

use super::character::sheet_reply;
use super::{Ctx, Invocation, Refused, Reply};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gm {
    Spawn(service::cmd::gm::Spawn),
    Hp {
        target: String,
        delta: i32,
    },
    Grant {
        player: String,
        coins: Option<i64>,
        item: Option<(String, u32)>,
    },
    Level {
        player: String,
        level: u32,
    },
    End,
}

/// A user id from a mention (`<@123>`, `<@!123>`) or a bare id/name.
pub(super) fn user_id(text: &str) -> String {
    text.trim()
        .trim_start_matches("<@")
        .trim_start_matches('!')
        .trim_end_matches('>')
        .trim_start_matches('@')
        .to_owned()
}

impl Gm {
    pub fn parse(sub: &str, inv: &Invocation) -> Result<Self, String> {
        let need = |name: &str| inv.need(name).map(str::to_owned);
        let number = |name: &str| inv.number::<i64>(name)?.ok_or_else(|| format!("Give `{name}`."));
        Ok(match sub {
            "spawn" => Self::Spawn(service::cmd::gm::Spawn {
                monster: need("monster")?,
                count: inv.number::<u32>("count")?.unwrap_or(1),
                name: inv.opt("name").map(str::to_owned),
                hp: inv.number::<i32>("hp")?,
                ac: inv.number::<i32>("ac")?,
            }),
            "hp" => Self::Hp {
                target: need("target")?,
                delta: number("delta")? as i32,
            },
            "grant" => {
                let item = match inv.opt("item") {
                    Some(item) => Some((item.to_owned(), inv.number::<u32>("count")?.unwrap_or(1))),
                    None => None,
                };
                let coins = inv.number::<i64>("coins")?;
                if coins.is_none() && item.is_none() {
                    return Err("Grant `coins` or an `item` (with `count`).".into());
                }
                Self::Grant {
                    player: user_id(&need("player")?),
                    coins,
                    item,
                }
            }
            "level" => Self::Level {
                player: user_id(&need("player")?),
                level: number("level")? as u32,
            },
            _ => Self::End,
        })
    }

    pub async fn run(self, ctx: &Ctx<'_>) -> Result<Vec<Reply>, Refused> {
        let (app, s, campaign, channel, now) = (ctx.app, ctx.service(), ctx.campaign, ctx.channel(), ctx.now);
        Ok(match self {
            Self::Spawn(spawn) => app.combat_replies(&s.gm_spawn_with(campaign, channel, &spawn, now).await?),
            Self::Hp { target, delta } => match s.gm_adjust_hp(campaign, channel, &target, delta, now).await? {
                service::cmd::gm::HpAdjusted::InCombat(update) => app.combat_replies(&update),
                service::cmd::gm::HpAdjusted::Character(sheet) => vec![sheet_reply(&sheet)],
            },
            Self::Grant { player, coins, item } => {
                let mut replies = Vec::new();
                if let Some(coins) = coins {
                    let inventory = s.gm_grant_coins(campaign, &player, coins).await?;
                    replies.push(Reply::public(render::info(
                        "Coins granted",
                        &format!("{} → now {}", super::count(coins, "coin"), inventory.coins),
                    )));
                }
                if let Some((item, count)) = item {
                    s.gm_grant_item(campaign, &player, &item, count).await?;
                    replies.push(Reply::public(render::info(
                        "Item granted",
                        &format!("{item} × {count}"),
                    )));
                }
                replies
            }
            Self::Level { player, level } => vec![sheet_reply(&s.gm_set_level(campaign, &player, level).await?)],
            Self::End => app.combat_replies(&s.gm_end_combat(campaign, channel, now).await?),
        })
    }
}
