//! `/gm spawn|hp|grant|level|end` (Manage Server).

use poise::serenity_prelude as serenity;

use super::{complete, options};
use crate::discord::{Context, Error, play};

/// Game-master tools (Manage Server only).
#[allow(clippy::unused_async)] // poise commands are async, even a parent that only groups subcommands
#[poise::command(
    slash_command,
    subcommands("spawn", "hp", "grant", "level", "end"),
    subcommand_required,
    default_member_permissions = "MANAGE_GUILD"
)]
pub async fn gm(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Bring monsters into this channel's fight (or start one with them).
#[poise::command(slash_command)]
async fn spawn(
    ctx: Context<'_>,
    #[description = "Which monster"]
    #[autocomplete = "complete::monster"]
    #[max_length = 100]
    monster: String,
    #[description = "How many (default 1)"]
    #[min = 1]
    #[max = 10]
    count: Option<u32>,
    #[description = "Their names: Orc# numbers them Orc1, Orc2"]
    #[max_length = 100]
    name: Option<String>,
    #[description = "Hit points, this fight only"]
    #[min = 1]
    #[max = 999]
    hp: Option<i64>,
    #[description = "Armor class, this fight only"]
    #[min = 1]
    #[max = 40]
    ac: Option<i64>,
) -> Result<(), Error> {
    play(ctx, &["gm", "spawn"], options!(monster, count, name, hp, ac)).await
}

/// Heal or hurt someone (negative to hurt).
#[poise::command(slash_command)]
async fn hp(
    ctx: Context<'_>,
    #[description = "Who (a combatant, or a character's name)"]
    #[autocomplete = "complete::target"]
    #[max_length = 100]
    target: String,
    #[description = "Hit points to add (negative to take away)"]
    #[min = -1000]
    #[max = 1000]
    delta: i32,
) -> Result<(), Error> {
    play(ctx, &["gm", "hp"], options!(target, delta)).await
}

/// Give a player coins or items.
#[poise::command(slash_command)]
async fn grant(
    ctx: Context<'_>,
    #[description = "The player"] player: serenity::User,
    #[description = "Coins to give"]
    #[min = 1]
    #[max = 100_000]
    coins: Option<i64>,
    #[description = "An item to give"]
    #[autocomplete = "complete::item"]
    #[max_length = 100]
    item: Option<String>,
    #[description = "How many of the item (default 1)"]
    #[min = 1]
    #[max = 99]
    count: Option<u32>,
) -> Result<(), Error> {
    play(ctx, &["gm", "grant"], options!(player, coins, item, count)).await
}

/// Set a player's character level.
#[poise::command(slash_command)]
async fn level(
    ctx: Context<'_>,
    #[description = "The player"] player: serenity::User,
    #[description = "The level (1–20)"]
    #[min = 1]
    #[max = 20]
    level: u32,
) -> Result<(), Error> {
    play(ctx, &["gm", "level"], options!(player, level)).await
}

/// End the fight in this channel.
#[poise::command(slash_command)]
async fn end(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["gm", "end"], options!()).await
}
