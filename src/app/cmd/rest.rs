//! `/rest short|long`: a rest at Thom Krooke's inn, for coins.

use render::Key;
use service::cmd::rest::RestKind;

use super::{Ctx, Refused, Reply};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rest(pub RestKind);

impl Rest {
    pub fn parse(sub: &str) -> Self {
        Self(if sub == "long" { RestKind::Long } else { RestKind::Short })
    }

    pub async fn run(self, ctx: &Ctx<'_>) -> Result<Vec<Reply>, Refused> {
        let rested = ctx.service().rest(ctx.campaign, ctx.me(), self.0, ctx.now).await?;
        let hp = format!("{}/{} HP", rested.hp, rested.max_hp);
        let coins = rested.cost.to_string();
        let mut replies = vec![match rested.kind {
            RestKind::Short => ctx.app.story(
                Key::RestShort,
                &[
                    ("name", &rested.name),
                    ("coins", &coins),
                    ("healed", &rested.healed.to_string()),
                    ("hp", &hp),
                ],
            ),
            RestKind::Long if rested.own_room => {
                ctx.app.story(Key::RestOwnRoom, &[("name", &rested.name), ("hp", &hp)])
            }
            RestKind::Long => ctx
                .app
                .story(Key::RestLong, &[("name", &rested.name), ("coins", &coins), ("hp", &hp)]),
        }];
        if rested.interrupts_restored {
            replies.push(ctx.app.story(Key::RestRestoresInterrupts, &[("name", &rested.name)]));
        }
        Ok(replies)
    }
}
