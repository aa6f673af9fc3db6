//! `/house buy|list|store|take`: a room of one's own at Thom Krooke's inn — a chest
//! for what you don't carry, and a free long rest.

use render::Key;
use service::cmd::house::HouseView;

use super::{Ctx, Invocation, Refused, Reply};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum House {
    Buy,
    List,
    Store { item: String, count: u32 },
    Take { item: String, count: u32 },
}

impl House {
    pub fn parse(sub: &str, inv: &Invocation) -> Result<Self, String> {
        let count = || inv.number::<u32>("count").map(|n| n.unwrap_or(1));
        Ok(match sub {
            "buy" => Self::Buy,
            "store" => Self::Store {
                item: inv.need("item")?.to_owned(),
                count: count()?,
            },
            "take" => Self::Take {
                item: inv.need("item")?.to_owned(),
                count: count()?,
            },
            _ => Self::List,
        })
    }

    pub async fn run(self, ctx: &Ctx<'_>) -> Result<Vec<Reply>, Refused> {
        let (s, campaign, me) = (ctx.service(), ctx.campaign, ctx.me());
        let moved = |key: Key, v: &HouseView| {
            let (name, n) = v.moved.clone().unwrap_or_default();
            let good = if n == 1 { name } else { format!("{n} × {name}") };
            ctx.app.story(
                key,
                &[
                    ("name", &v.name),
                    ("good", &good),
                    ("stored", &v.room.stored().to_string()),
                    ("capacity", &v.capacity.to_string()),
                ],
            )
        };
        Ok(match self {
            Self::Buy => {
                let bought = s.house_buy(campaign, me).await?;
                let capacity = service::goods::world().map_or(0, |w| w.room.capacity);
                vec![ctx.app.story(
                    Key::RoomBought,
                    &[
                        ("name", &bought.name),
                        ("coins", &bought.price.to_string()),
                        ("capacity", &capacity.to_string()),
                    ],
                )]
            }
            Self::List => {
                let v = s.house_list(campaign, me).await?;
                let mut lines = vec![format!(
                    "The chest holds **{}/{}**. `/house store item:<name>` · `/house take item:<name>` · `/rest long` is free here.",
                    v.room.stored(),
                    v.capacity
                )];
                if v.room.stored() == 0 {
                    lines.push("Empty — nothing but a spare blanket.".to_owned());
                }
                for (name, n) in v.room.goods.iter().chain(&v.room.materials) {
                    lines.push(format!("{name} × {n}"));
                }
                vec![Reply::public(
                    render::info(&format!("{}'s room at the inn", v.name), &lines.join("\n")).ephemeral(),
                )]
            }
            Self::Store { item, count } => vec![moved(
                Key::RoomStored,
                &s.house_store(campaign, me, &item, count).await?,
            )],
            Self::Take { item, count } => vec![moved(Key::RoomTaken, &s.house_take(campaign, me, &item, count).await?)],
        })
    }
}
