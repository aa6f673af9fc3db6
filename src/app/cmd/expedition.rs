//! `/expedition start|status|advance|leave`: a run through a zone, room by room.

use render::{Key, RoomEntry};

use super::{Ctx, Invocation, Refused, Reply};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expedition {
    Start { zone: String },
    Status,
    Advance,
    Leave,
}

impl Expedition {
    pub fn parse(sub: &str, inv: &Invocation) -> Result<Self, String> {
        Ok(match sub {
            "start" => Self::Start {
                zone: inv.need("zone")?.to_owned(),
            },
            "status" => Self::Status,
            "advance" => Self::Advance,
            _ => Self::Leave,
        })
    }

    pub async fn run(self, ctx: &Ctx<'_>) -> Result<Vec<Reply>, Refused> {
        let (app, s, campaign, me) = (ctx.app, ctx.service(), ctx.campaign, ctx.me());
        Ok(match self {
            Self::Start { zone } => {
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
                        "Room {} of {} · tier {} · {}",
                        view.room, view.rooms, view.tier, view.status
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
                            .filter(|c| c.stat_block().is_some())
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
