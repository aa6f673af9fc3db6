//! `/character create|sheet|equip|unequip|levelup|inventory|rename|retire`.

use super::{complete, options};
use crate::discord::{Context, Error, play};

/// Your character in this campaign: create one, see the sheet, gear up, level up.
#[allow(clippy::unused_async)] // poise commands are async, even a parent that only groups subcommands
#[poise::command(
    slash_command,
    subcommands("create", "sheet", "equip", "unequip", "levelup", "inventory", "rename", "retire"),
    subcommand_required
)]
pub async fn character(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Create your character for this campaign.
#[poise::command(slash_command)]
async fn create(
    ctx: Context<'_>,
    #[description = "Your character's name"]
    #[min_length = 1]
    #[max_length = 32]
    name: String,
    #[description = "Race (human, elf, dwarf, …)"]
    #[autocomplete = "complete::race"]
    #[max_length = 100]
    race: String,
    #[description = "Class (fighter, rogue, mage, …)"]
    #[autocomplete = "complete::class"]
    #[max_length = 100]
    class: String,
) -> Result<(), Error> {
    play(ctx, &["character", "create"], options!(name, race, class)).await
}

/// Show your character sheet, or another player's.
#[poise::command(slash_command)]
async fn sheet(
    ctx: Context<'_>,
    #[description = "Whose sheet (default: yours)"] user: Option<poise::serenity_prelude::User>,
) -> Result<(), Error> {
    play(ctx, &["character", "sheet"], options!(user)).await
}

/// Give your character a new name (unique in this server).
#[poise::command(slash_command)]
async fn rename(
    ctx: Context<'_>,
    #[description = "The new name (2–32 characters)"]
    #[min_length = 2]
    #[max_length = 32]
    name: String,
) -> Result<(), Error> {
    play(ctx, &["character", "rename"], options!(name)).await
}

/// Retire your character for good (asks you to confirm first).
#[poise::command(slash_command)]
async fn retire(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["character", "retire"], options!()).await
}

/// Which hand a weapon goes in.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Hand {
    #[name = "main"]
    Main,
    #[name = "off"]
    Off,
}
super::choice_text!(Hand);

/// Equip a weapon, armour or a shield from your pack.
#[poise::command(slash_command)]
async fn equip(
    ctx: Context<'_>,
    #[description = "The weapon, armour or shield"]
    #[autocomplete = "complete::gear"]
    #[max_length = 100]
    item: String,
    #[description = "For a weapon: main hand (default) or off hand"] hand: Option<Hand>,
) -> Result<(), Error> {
    play(ctx, &["character", "equip"], options!(item, hand)).await
}

/// Put a weapon, armour or shield back in your pack.
#[poise::command(slash_command)]
async fn unequip(
    ctx: Context<'_>,
    #[description = "The weapon, armour or shield"]
    #[autocomplete = "complete::gear"]
    #[max_length = 100]
    item: String,
) -> Result<(), Error> {
    play(ctx, &["character", "unequip"], options!(item)).await
}

/// Level up, when you have the XP for it.
#[poise::command(slash_command)]
async fn levelup(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["character", "levelup"], options!()).await
}

/// What you carry: coins, items, materials (only you see it).
#[poise::command(slash_command)]
async fn inventory(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["character", "inventory"], options!()).await
}
