//! `/expedition start|status|advance|leave`: a run through a zone, room by room; a zone far
//! above the character's level asks first, with buttons.

use chrono::{DateTime, Utc};
use render::{ActionRow, Button, ButtonStyle, Key, RoomEntry};

use super::{AppCommand, Ctx, Invocation, Refused, Reply};
use crate::app::{App, Caller};

/// The buttons of the question before a zone far above one's level: `trip:go:<player>:<zone>`
/// and `trip:stay:<player>`.
const PREFIX: &str = "trip";

/// Levels below a zone's suggested ones that start without a question.
const LEVELS_OF_GRACE: u32 = 2;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expedition {
    /// `confirmed`: asked and answered "go anyway" (a zone far above the character's level).
    Start {
        zone: String,
        confirmed: bool,
    },
    Status,
    Advance,
    Leave,
}

impl Expedition {
    pub fn parse(sub: &str, inv: &Invocation) -> Result<Self, String> {
        Ok(match sub {
            "start" => Self::Start {
                zone: inv.need("zone")?.to_owned(),
                confirmed: false,
            },
            "status" => Self::Status,
            "advance" => Self::Advance,
            _ => Self::Leave,
        })
    }

    pub async fn run(self, ctx: &Ctx<'_>) -> Result<Vec<Reply>, Refused> {
        let (app, s, campaign, me) = (ctx.app, ctx.service(), ctx.campaign, ctx.me());
        Ok(match self {
            Self::Start { zone, confirmed } => {
                if !confirmed && let Some(asked) = too_far(ctx, &zone).await? {
                    return Ok(vec![asked]);
                }
                let view = s.start_expedition(campaign, me, &zone, ctx.now).await?;
                let name = view.character.clone();
                // TwinBee's return narration on the first outing after a Hospital stay (§8.6).
                let key = if view.returning_from_hospital {
                    Key::ExpeditionResume
                } else {
                    Key::ExpeditionStart
                };
                vec![app.story(key, &[("name", &name), ("zone", &view.zone.label())])]
            }
            Self::Status => match s.expedition(campaign, me).await? {
                Some(view) => vec![Reply::public(render::info(
                    &view.zone.label(),
                    &format!(
                        "Room {} of {} · tier {} (levels {}) · {}",
                        view.room,
                        view.rooms,
                        view.tier,
                        levels(&view.zone.label()),
                        view.status
                    ),
                ))],
                None => {
                    return Err(Refused::Input(
                        "You are not on an expedition — /expedition start zone:<zone>.".into(),
                    ));
                }
            },
            Self::Advance => {
                let room = s.advance(campaign, ctx.channel(), me, ctx.now).await?;
                let name = room.expedition.character.clone();
                let monsters = room
                    .encounter
                    .as_ref()
                    .map(|u| {
                        u.combat
                            .combatants
                            .iter()
                            // The monsters met, not the party's own pets.
                            .filter(|c| c.stat_block().is_some() && c.side == engine::Side::Enemies)
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
                    app.renderer
                        .room_entry(&entry, app.seed ^ u64::from(room.expedition.room)),
                )];
                if let Some(found) = &room.harvested {
                    replies.push(app.story(Key::Harvest, &[("name", &name), ("materials", found)]));
                }
                if let Some(update) = &room.encounter {
                    replies.extend(app.combat_replies(update));
                }
                replies
            }
            Self::Leave => {
                let (view, sheet) = s.leave_expedition(campaign, me, ctx.now).await?;
                vec![app.story(
                    Key::ExpeditionLeave,
                    &[("name", &sheet.name), ("zone", &view.zone.label())],
                )]
            }
        })
    }
}

/// A zone's suggested levels, `1–4`.
fn levels(zone: &str) -> String {
    engine::content::data::builtin()
        .zone(zone)
        .map(|z| z.suggested_levels())
        .map_or_else(String::new, |(lo, hi)| format!("{lo}–{hi}"))
}

/// The question before a zone far above the caller's character (more than
/// [`LEVELS_OF_GRACE`] levels below its suggested ones), with its two buttons; `None` to go.
async fn too_far(ctx: &Ctx<'_>, zone: &str) -> Result<Option<Reply>, Refused> {
    let Some(def) = engine::content::data::builtin().zone(zone) else {
        return Ok(None);
    };
    let sheet = ctx.service().sheet(ctx.campaign, ctx.me()).await?;
    let (lo, hi) = def.suggested_levels();
    if sheet.level + LEVELS_OF_GRACE >= lo {
        return Ok(None);
    }
    let mut payload = render::info(
        &format!("{} is a tier {} zone", def.name, def.tier),
        &format!(
            "It suits characters of level {lo}–{hi}; {} is level {} with {} of {} HP. \
             Its monsters are chosen for that tier. Go anyway?",
            sheet.name, sheet.level, sheet.hp, sheet.max_hp
        ),
    );
    payload.components = vec![ActionRow::new(vec![
        Button::new(
            ButtonStyle::Danger,
            "Go anyway",
            format!("{PREFIX}:go:{}:{}", ctx.me(), def.name),
        ),
        Button::new(ButtonStyle::Secondary, "Stay", format!("{PREFIX}:stay:{}", ctx.me())),
    ])];
    Ok(Some(Reply::public(payload.ephemeral())))
}

impl App {
    /// A press of the far-zone question's buttons, if `custom_id` is one (`None`: not ours).
    pub(crate) async fn trip_press(&self, caller: &Caller, custom_id: &str, now: DateTime<Utc>) -> Option<Vec<Reply>> {
        let mut parts = custom_id.splitn(4, ':');
        if parts.next() != Some(PREFIX) {
            return None;
        }
        let (what, player, zone) = (parts.next(), parts.next(), parts.next());
        if player != Some(caller.user.as_str()) {
            return Some(super::super::refusal("Those buttons are another player's."));
        }
        Some(match (what, zone) {
            (Some("go"), Some(zone)) => {
                let start = Expedition::Start {
                    zone: zone.to_owned(),
                    confirmed: true,
                };
                self.run(caller, AppCommand::Expedition(start), now).await
            }
            _ => vec![Reply::public(
                render::info("Staying", "Nothing changed — pick a zone nearer your level.").ephemeral(),
            )],
        })
    }
}
