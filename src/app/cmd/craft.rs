//! `/craft list|make`: Thom Krooke's workbench — materials and coins into goods.

use render::Key;

use super::{Ctx, Invocation, Refused, Reply};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Craft {
    List,
    Make { recipe: String },
}

impl Craft {
    pub fn parse(sub: &str, inv: &Invocation) -> Result<Self, String> {
        Ok(match sub {
            "make" => Self::Make {
                recipe: inv.need("recipe")?.to_owned(),
            },
            _ => Self::List,
        })
    }

    pub async fn run(self, ctx: &Ctx<'_>) -> Result<Vec<Reply>, Refused> {
        let (s, campaign, me) = (ctx.service(), ctx.campaign, ctx.me());
        Ok(match self {
            Self::List => {
                let list = s.craft_list(campaign, me).await?;
                let mut lines = vec![format!(
                    "{} holds {}. `/craft make recipe:<name>` — ✓ marks what you can make now.",
                    list.name,
                    super::count(list.coins, "coin")
                )];
                for r in &list.recipes {
                    let uses: Vec<String> = r
                        .materials
                        .iter()
                        .map(|(m, n, held)| format!("{n} {m} ({held})"))
                        .collect();
                    let makes = if r.count == 1 {
                        r.makes.clone()
                    } else {
                        format!("{} × {}", r.count, r.makes)
                    };
                    let mark = if r.can_make { "✓" } else { "·" };
                    lines.push(format!(
                        "{mark} **{}** → {makes}: {} + {}",
                        r.name,
                        uses.join(", "),
                        super::count(i64::from(r.coins), "coin")
                    ));
                }
                vec![Reply::public(
                    render::info("Thom's workbench", &lines.join("\n")).ephemeral(),
                )]
            }
            Self::Make { recipe } => {
                let made = s.craft(campaign, me, &recipe).await?;
                let good = if made.recipe.count == 1 {
                    made.recipe.makes.clone()
                } else {
                    format!("{} × {}", made.recipe.count, made.recipe.makes)
                };
                vec![ctx.app.story(
                    Key::Crafted,
                    &[
                        ("name", &made.name),
                        ("good", &good),
                        ("coins", &made.recipe.coins.to_string()),
                    ],
                )]
            }
        })
    }
}
