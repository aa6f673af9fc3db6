//! Character life and standings: `/character retire`'s confirmation buttons,
//! `/leaderboard by:level|coins|streak`, and what the inventory shows of the pack.

use chrono::{DateTime, Utc};
use render::{ActionRow, Button, ButtonStyle, Key};
use service::cmd::roster::{RetireAsked, Standing};
use service::{Pack, ServiceError};

use super::{Ctx, Invocation, Refused, Reply};
use crate::app::{App, Caller};

/// Retire buttons' ids: `life:retire:<character id>:<version>` and `life:keep:<character id>`.
const PREFIX: &str = "life";

/// `/character retire`'s question, only for the asker, with its two buttons.
pub fn retire_prompt(asked: &RetireAsked) -> Reply {
    let mut payload = render::info(
        &format!("Retire {} for good?", asked.name),
        &format!(
            "{} (level {}) leaves the road and the leaderboards; the name stays in the records. \
             You can create a new character afterwards. This cannot be undone.",
            asked.name, asked.level
        ),
    );
    payload.components = vec![ActionRow::new(vec![
        Button::new(
            ButtonStyle::Danger,
            &format!("Retire {}", asked.name),
            format!("{PREFIX}:retire:{}:{}", asked.character_id, asked.version),
        ),
        Button::new(
            ButtonStyle::Secondary,
            "Keep playing",
            format!("{PREFIX}:keep:{}", asked.character_id),
        ),
    ])];
    Reply::public(payload.ephemeral())
}

/// The pack's spare gear and the materials brought home, as inventory lines.
pub fn pack_lines(pack: &Pack) -> Vec<String> {
    let mut lines = Vec::new();
    let mut gear: Vec<String> = pack.weapons.iter().map(|w| w.name().to_owned()).collect();
    gear.extend(pack.armor.iter().map(|a| a.name().to_owned()));
    if pack.shields > 0 {
        gear.push(format!("Shield × {}", pack.shields));
    }
    if !gear.is_empty() {
        lines.push(format!("Spare gear: {}", gear.join(", ")));
    }
    let materials: Vec<String> = pack
        .materials
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(m, n)| format!("{m} × {n}"))
        .collect();
    if !materials.is_empty() {
        lines.push(format!("Brought home: {}", materials.join(", ")));
    }
    lines
}

impl App {
    /// A press of a character-life button, if `custom_id` is one (`None`: not ours).
    pub(crate) async fn life_press(&self, caller: &Caller, custom_id: &str, now: DateTime<Utc>) -> Option<Vec<Reply>> {
        let mut parts = custom_id.split(':');
        if parts.next() != Some(PREFIX) {
            return None;
        }
        let (what, id, version) = (parts.next(), parts.next(), parts.next());
        let id: Option<i64> = id.and_then(|i| i.parse().ok());
        let result: Result<Vec<Reply>, ServiceError> = async {
            let campaign = self
                .service
                .campaign_id_for(&caller.guild, &caller.channel, now)
                .await?;
            let mine = self.service.sheet(campaign, &caller.user).await.ok();
            let Some(id) = id.filter(|id| mine.as_ref().is_some_and(|m| m.character_id == *id)) else {
                return Ok(super::super::refusal(
                    "Those buttons are for another player's character.",
                ));
            };
            match (what, version.and_then(|v| v.parse::<i64>().ok())) {
                (Some("retire"), Some(version)) => {
                    let name = self.service.retire_confirm(campaign, &caller.user, id, version).await?;
                    Ok(vec![self.story(Key::CharacterRetired, &[("name", &name)])])
                }
                (Some("keep"), _) => Ok(vec![Reply::public(
                    render::info("Still on the road", "Nothing changed — the road goes on.").ephemeral(),
                )]),
                _ => Err(ServiceError::StaleButton),
            }
        }
        .await;
        Some(result.unwrap_or_else(|e| Self::failed(&e)))
    }
}

/// `/leaderboard by:level|coins|streak`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leaderboard(pub Standing);

impl Leaderboard {
    pub fn parse(inv: &Invocation) -> Self {
        Self(match inv.opt("by") {
            Some("coins") => Standing::Coins,
            Some("streak") => Standing::Streak,
            _ => Standing::Level,
        })
    }

    pub async fn run(self, ctx: &Ctx<'_>) -> Result<Vec<Reply>, Refused> {
        let ranked = ctx.service().leaderboard(ctx.campaign, self.0).await?;
        let title = match self.0 {
            Standing::Level => "Leaderboard — level",
            Standing::Coins => "Leaderboard — coins",
            Standing::Streak => "Leaderboard — arena streak",
        };
        let lines: Vec<String> = ranked
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let value = match self.0 {
                    Standing::Level => format!("level {} ({} XP)", r.level, r.xp),
                    Standing::Coins => super::count(r.coins, "coin"),
                    Standing::Streak => format!("{} in a row", super::count(i64::from(r.streak), "win")),
                };
                format!("{}. **{}** — {value}", i + 1, r.name)
            })
            .collect();
        let body = if lines.is_empty() {
            "No characters yet — /character create makes the first.".to_owned()
        } else {
            lines.join("\n")
        };
        Ok(vec![Reply::public(render::info(title, &body))])
    }
}
