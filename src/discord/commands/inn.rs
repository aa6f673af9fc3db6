//! `/shop list|buy|sell`, `/rest short|long`, `/craft list|make`: Thom Krooke's inn; and
//! `/leaderboard`, `/arena`, `/guide`.

use super::{complete, options};
use crate::discord::{Context, Error, play};

/// Thom Krooke's shop: see the shelves, buy, or sell what you brought home.
#[allow(clippy::unused_async)] // poise commands are async, even a parent that only groups subcommands
#[poise::command(slash_command, subcommands("shop_list", "buy", "sell"), subcommand_required)]
pub async fn shop(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Thom's shelves and prices, and what he pays for your materials (only you see it).
#[poise::command(slash_command, rename = "list")]
async fn shop_list(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["shop", "list"], options!()).await
}

/// Buy potions, scrolls, weapons, armor or a pet.
#[poise::command(slash_command)]
async fn buy(
    ctx: Context<'_>,
    #[description = "What to buy"]
    #[autocomplete = "complete::stock"]
    #[max_length = 100]
    item: String,
    #[description = "How many (default 1)"]
    #[min = 1]
    #[max = 99]
    count: Option<u32>,
) -> Result<(), Error> {
    play(ctx, &["shop", "buy"], options!(item, count)).await
}

/// Sell materials, trophies or spare gear from your pack.
#[poise::command(slash_command)]
async fn sell(
    ctx: Context<'_>,
    #[description = "What to sell"]
    #[autocomplete = "complete::sellable"]
    #[max_length = 100]
    item: String,
    #[description = "How many (default 1)"]
    #[min = 1]
    #[max = 99]
    count: Option<u32>,
) -> Result<(), Error> {
    play(ctx, &["shop", "sell"], options!(item, count)).await
}

/// Rest at Thom's inn, for coins: a short rest by the fire or a long one upstairs.
#[allow(clippy::unused_async)] // poise commands are async, even a parent that only groups subcommands
#[poise::command(slash_command, subcommands("short", "long"), subcommand_required)]
pub async fn rest(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// A meal and an hour by the fire: back half your max HP.
#[poise::command(slash_command)]
async fn short(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["rest", "short"], options!()).await
}

/// A room for the night: back to full HP.
#[poise::command(slash_command)]
async fn long(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["rest", "long"], options!()).await
}

/// Thom's workbench: turn harvested materials and coins into items.
#[allow(clippy::unused_async)] // poise commands are async, even a parent that only groups subcommands
#[poise::command(slash_command, subcommands("craft_list", "make"), subcommand_required)]
pub async fn craft(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// The recipes, and what you hold of each material (only you see it).
#[poise::command(slash_command, rename = "list")]
async fn craft_list(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["craft", "list"], options!()).await
}

/// Make something from a recipe.
#[poise::command(slash_command)]
async fn make(
    ctx: Context<'_>,
    #[description = "The recipe"]
    #[autocomplete = "complete::recipe"]
    #[max_length = 100]
    recipe: String,
) -> Result<(), Error> {
    play(ctx, &["craft", "make"], options!(recipe)).await
}

/// Which standing a leaderboard ranks.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum By {
    #[name = "level"]
    Level,
    #[name = "coins"]
    Coins,
    #[name = "streak"]
    Streak,
}
super::choice_text!(By);

/// The campaign's top characters by level, coins or arena streak.
#[poise::command(slash_command)]
pub async fn leaderboard(
    ctx: Context<'_>,
    #[description = "Rank by (default: level)"] by: Option<By>,
) -> Result<(), Error> {
    play(ctx, &["leaderboard"], options!(by)).await
}

/// Every command, grouped, with an example each (only you see it).
#[poise::command(slash_command)]
pub async fn guide(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["guide"], options!()).await
}

/// The arena behind Thom's inn: duels to 0 HP (no one dies), and the win streaks.
#[allow(clippy::unused_async)] // poise commands are async, even a parent that only groups subcommands
#[poise::command(slash_command, subcommands("challenge", "spectate", "top"), subcommand_required)]
pub async fn arena(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Challenge another player to a duel (to 0 HP, no one dies); only they may accept.
#[poise::command(slash_command)]
async fn challenge(
    ctx: Context<'_>,
    #[description = "Whom to challenge"] user: poise::serenity_prelude::User,
) -> Result<(), Error> {
    play(ctx, &["arena", "challenge"], options!(user)).await
}

/// Follow the duels being fought (only you see it).
#[poise::command(slash_command)]
async fn spectate(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["arena", "spectate"], options!()).await
}

/// The arena's win streaks.
#[poise::command(slash_command)]
async fn top(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["arena", "top"], options!()).await
}

/// Your room at Thom's inn: a chest for what you don't carry, and free long rests.
#[allow(clippy::unused_async)] // poise commands are async, even a parent that only groups subcommands
#[poise::command(
    slash_command,
    subcommands("house_buy", "house_list", "store", "take"),
    subcommand_required
)]
pub async fn house(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// A room of your own at the inn, bought once.
#[poise::command(slash_command, rename = "buy")]
async fn house_buy(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["house", "buy"], options!()).await
}

/// What your room's chest holds (only you see it).
#[poise::command(slash_command, rename = "list")]
async fn house_list(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["house", "list"], options!()).await
}

/// Put something from your pack in your room's chest.
#[poise::command(slash_command)]
async fn store(
    ctx: Context<'_>,
    #[description = "What to store"]
    #[autocomplete = "complete::sellable"]
    #[max_length = 100]
    item: String,
    #[description = "How many (default 1)"]
    #[min = 1]
    #[max = 99]
    count: Option<u32>,
) -> Result<(), Error> {
    play(ctx, &["house", "store"], options!(item, count)).await
}

/// Take something from your room's chest.
#[poise::command(slash_command)]
async fn take(
    ctx: Context<'_>,
    #[description = "What to take"]
    #[autocomplete = "complete::stored"]
    #[max_length = 100]
    item: String,
    #[description = "How many (default 1)"]
    #[min = 1]
    #[max = 99]
    count: Option<u32>,
) -> Result<(), Error> {
    play(ctx, &["house", "take"], options!(item, count)).await
}
