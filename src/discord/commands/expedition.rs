//! `/expedition start|status|advance|leave`.

use super::{complete, options};
use crate::discord::{Context, Error, play};

/// Explore a zone room by room: start, look where you are, go on, or leave.
#[allow(clippy::unused_async)] // poise commands are async, even a parent that only groups subcommands
#[poise::command(
    slash_command,
    subcommands("start", "status", "advance", "leave"),
    subcommand_required
)]
pub async fn expedition(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Set out into a zone.
#[poise::command(slash_command)]
async fn start(
    ctx: Context<'_>,
    #[description = "Where to go"]
    #[autocomplete = "complete::zone"]
    #[max_length = 100]
    zone: String,
) -> Result<(), Error> {
    play(ctx, &["expedition", "start"], options!(zone)).await
}

/// Where you are on your expedition.
#[poise::command(slash_command)]
async fn status(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["expedition", "status"], options!()).await
}

/// Go on to the next room (there may be a fight).
#[poise::command(slash_command)]
async fn advance(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["expedition", "advance"], options!()).await
}

/// Leave the expedition and head back to the inn.
#[poise::command(slash_command)]
async fn leave(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["expedition", "leave"], options!()).await
}
