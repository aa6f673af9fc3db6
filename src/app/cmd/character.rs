//! `/character create|sheet|equip|unequip|levelup|inventory|rename|retire`: a player's
//! character (`sheet user:@x` shows another's).

use render::CharacterSheet;
use service::Sheet;

use super::{Ctx, Invocation, Refused, Reply};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Character {
    Create {
        name: String,
        race: String,
        class: String,
    },
    /// Yours, or another player's (`user`).
    Sheet {
        user: Option<String>,
    },
    Equip {
        item: String,
        off_hand: bool,
    },
    Unequip {
        item: String,
    },
    LevelUp,
    Inventory,
    Rename {
        name: String,
    },
    /// Asks, with a confirmation button.
    Retire,
}

/// A character's sheet as the renderer shows it.
pub fn sheet_view(sheet: &Sheet) -> CharacterSheet {
    let mut notes = vec![format!(
        "{} per Attack action",
        super::count(i64::from(sheet.attacks_per_action), "attack")
    )];
    let load = if sheet.carried_lb > sheet.heavily_over {
        " — heavily encumbered, −20 ft"
    } else if sheet.carried_lb > sheet.encumbered_over {
        " — encumbered, −10 ft"
    } else {
        ""
    };
    notes.push(format!(
        "Carrying {} lb{load} (encumbered over {} lb, heavily over {} lb)",
        sheet.carried_lb, sheet.encumbered_over, sheet.heavily_over
    ));
    if !sheet.spells.is_empty() {
        notes.push(format!("Spells: {}", sheet.spell_names.join(", ")));
    }
    if sheet.can_level_up {
        notes.push("Enough XP to level up: /character levelup".to_owned());
    }
    if sheet.arena_streak > 0 {
        notes.push(format!(
            "Arena streak: {} in a row",
            super::arena::in_a_row(sheet.arena_streak)
        ));
    }
    if let Some((pet, fights_as)) = &sheet.pet {
        notes.push(format!("Pet: {pet} (fights beside you as {fights_as})"));
    }
    if let Some((stored, capacity)) = sheet.room {
        notes.push(format!(
            "Room at the inn: {stored}/{capacity} in the chest · free long rests"
        ));
    }
    CharacterSheet {
        name: sheet.name.clone(),
        race: sheet.race.name().to_owned(),
        class: sheet.class.name().to_owned(),
        level: sheet.level,
        xp: sheet.xp,
        next_level_xp: sheet.next_level_xp,
        hp: sheet.hp,
        max_hp: sheet.max_hp,
        armor_class: sheet.armor_class,
        speed: sheet.speed,
        coins: sheet.coins,
        abilities: CharacterSheet::ability_scores(&sheet.abilities),
        gear: CharacterSheet::gear_list(
            sheet.weapon.name(),
            sheet.off_hand.map(engine::content::Weapon::name),
            sheet.armor.name(),
            sheet.shield,
        ),
        inventory: sheet.items.clone(),
        notes,
        fight: Vec::new(),
    }
}

/// The sheet as a reply.
pub fn sheet_reply(sheet: &Sheet) -> Reply {
    Reply::public(render::character_sheet(&sheet_view(sheet)))
}

impl Character {
    pub fn parse(sub: &str, inv: &Invocation) -> Result<Self, String> {
        let need = |name: &str| inv.need(name).map(str::to_owned);
        Ok(match sub {
            "create" => Self::Create {
                name: need("name")?,
                race: need("race")?,
                class: need("class")?,
            },
            "sheet" => Self::Sheet {
                user: inv.opt("user").map(super::gm::user_id),
            },
            "rename" => Self::Rename { name: need("name")? },
            "retire" => Self::Retire,
            "equip" => Self::Equip {
                item: need("item")?,
                off_hand: inv.opt("hand").is_some_and(|h| h.eq_ignore_ascii_case("off")),
            },
            "unequip" => Self::Unequip { item: need("item")? },
            "levelup" => Self::LevelUp,
            _ => Self::Inventory,
        })
    }

    pub async fn run(self, ctx: &Ctx<'_>) -> Result<Vec<Reply>, Refused> {
        let (s, campaign, me) = (ctx.service(), ctx.campaign, ctx.me());
        let sheet = match self {
            Self::Create { name, race, class } => {
                s.create_character(campaign, me, &name, &race, &class, ctx.now).await?
            }
            Self::Sheet { user: Some(user) } if user != me => {
                let sheet = match s.sheet(campaign, &user).await {
                    Err(service::ServiceError::NoCharacter) => {
                        return Err(Refused::Input(format!("<@{user}> has no character in this campaign.")));
                    }
                    other => other?,
                };
                let mut view = sheet_view(&sheet);
                view.notes.retain(|n| !n.starts_with("Enough XP"));
                return Ok(vec![Reply::public(render::character_sheet(&view))]);
            }
            Self::Rename { name } => {
                let (old, new) = s.rename(campaign, me, &name).await?;
                return Ok(vec![
                    ctx.app
                        .story(render::Key::CharacterRenamed, &[("name", &new), ("old", &old)]),
                ]);
            }
            Self::Retire => return Ok(vec![super::life::retire_prompt(&s.retire_ask(campaign, me).await?)]),
            Self::Sheet { .. } => {
                let mut view = sheet_view(&s.sheet(campaign, me).await?);
                // In a fight here: the turn's budget and what the timing model tracks for them.
                if let Ok(update) = s.combat_status(campaign, ctx.channel()).await
                    && update.combat.started
                    && update.combat.outcome.is_none()
                    && let Some(c) = update.combat.combatants.iter().find(|c| c.player_id() == Some(me))
                {
                    view.fight = render::models::sheet_lines(&update.combat, c.id);
                }
                return Ok(vec![Reply::public(render::character_sheet(&view))]);
            }
            Self::Equip { item, off_hand } => s.equip(campaign, me, &item, off_hand).await?,
            Self::Unequip { item } => s.unequip(campaign, me, &item).await?,
            Self::LevelUp => s.level_up(campaign, me).await?,
            Self::Inventory => {
                let inventory = s.inventory(campaign, me).await?;
                let mut lines = vec![format!("Coins: {}", inventory.coins)];
                lines.extend(
                    inventory
                        .items
                        .iter()
                        .zip(&inventory.item_names)
                        .map(|((_, n), name)| format!("{name} × {n}")),
                );
                if !inventory.materials.is_empty() {
                    lines.push(format!("Materials this run: {}", inventory.materials.join(", ")));
                }
                let spare = super::life::pack_lines(&inventory.pack);
                lines.extend(spare);
                return Ok(vec![Reply::public(
                    render::info("Inventory", &lines.join("\n")).ephemeral(),
                )]);
            }
        };
        Ok(vec![sheet_reply(&sheet)])
    }
}
