//! `/shop list|buy|sell`: Thom Krooke's shop at the inn, in his voice.

use engine::content::data::GoodKind;
use render::Key;
use service::cmd::shop::Trade;

use super::{Ctx, Invocation, Refused, Reply};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shop {
    List,
    Buy { item: String, count: u32 },
    Sell { item: String, count: u32 },
}

impl Shop {
    pub fn parse(sub: &str, inv: &Invocation) -> Result<Self, String> {
        let count = || inv.number::<u32>("count").map(|n| n.unwrap_or(1));
        Ok(match sub {
            "buy" => Self::Buy {
                item: inv.need("item")?.to_owned(),
                count: count()?,
            },
            "sell" => Self::Sell {
                item: inv.need("item")?.to_owned(),
                count: count()?,
            },
            _ => Self::List,
        })
    }

    pub async fn run(self, ctx: &Ctx<'_>) -> Result<Vec<Reply>, Refused> {
        let (app, s, campaign, me) = (ctx.app, ctx.service(), ctx.campaign, ctx.me());
        let trade = |key: Key, t: &Trade| {
            let good = if t.count == 1 {
                t.good.clone()
            } else {
                format!("{} × {}", t.count, t.good)
            };
            app.story(
                key,
                &[
                    ("name", &t.name),
                    ("good", &good),
                    ("coins", &t.total.to_string()),
                    ("left", &t.coins_left.to_string()),
                ],
            )
        };
        Ok(match self {
            Self::List => {
                let list = s.shop_list(campaign, me).await?;
                let mut lines = vec![format!(
                    "{} holds **{}**. `/shop buy item:<name> count:<n>` · `/shop sell item:<name>`",
                    list.name,
                    super::count(list.coins, "coin")
                )];
                for (title, kinds) in [
                    ("Potions and scrolls", &[GoodKind::Item][..]),
                    ("Weapons", &[GoodKind::Weapon][..]),
                    ("Armor and shields", &[GoodKind::Armor, GoodKind::Shield][..]),
                ] {
                    lines.push(format!("\n**{title}**"));
                    for good in list.stock.iter().filter(|g| kinds.contains(&g.kind)) {
                        let held = if good.held > 0 {
                            format!(" · you carry {}", good.held)
                        } else {
                            String::new()
                        };
                        lines.push(format!(
                            "{} — {} (Thom pays {}){held}",
                            good.name,
                            super::count(i64::from(good.price), "coin"),
                            good.buy_back
                        ));
                    }
                }
                lines.push("\n**Your materials and trophies** (Thom buys them)".to_owned());
                if list.materials.is_empty() {
                    lines.push(
                        "None yet — quiet rooms yield a zone's material, slain monsters their trophies; \
                         they come home with /expedition leave."
                            .to_owned(),
                    );
                }
                for (name, n, price) in &list.materials {
                    lines.push(format!("{name} × {n} — {price} coins each"));
                }
                lines.push("\n**Pets** (one each; fights beside you, kept for good)".to_owned());
                for (name, monster, price) in &list.pets {
                    let yours = if list.pet.as_deref() == Some(name.as_str()) {
                        " · yours"
                    } else {
                        ""
                    };
                    lines.push(format!("{name} — {price} coins (fights as a {monster}){yours}"));
                }
                vec![Reply::public(
                    render::info("Thom Krooke's shop", &lines.join("\n")).ephemeral(),
                )]
            }
            Self::Buy { item, count } => {
                let bought = s.shop_buy(campaign, me, &item, count).await?;
                let is_pet = service::goods::world().is_ok_and(|w| w.stock(&bought.good).is_none());
                if is_pet {
                    vec![app.story(
                        Key::PetAdopted,
                        &[
                            ("name", &bought.name),
                            ("pet", &bought.good),
                            ("coins", &bought.total.to_string()),
                            ("left", &bought.coins_left.to_string()),
                        ],
                    )]
                } else {
                    vec![trade(Key::ShopBought, &bought)]
                }
            }
            Self::Sell { item, count } => vec![trade(Key::ShopSold, &s.shop_sell(campaign, me, &item, count).await?)],
        })
    }
}
