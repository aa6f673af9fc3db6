//! `/combat start|join|status|map|end|replay`.

use super::options;
use crate::discord::{Context, Error, play};

/// The fight in this channel: begin it, join it, see it, or (GM) end it.
#[allow(clippy::unused_async)] // poise commands are async, even a parent that only groups subcommands
#[poise::command(
    slash_command,
    subcommands("start", "join", "status", "map", "end", "replay"),
    subcommand_required
)]
pub async fn combat(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Begin the fight in this channel (you join it if you have a character).
#[poise::command(slash_command)]
async fn start(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["combat", "start"], options!()).await
}

/// Join the fight in this channel with your character.
#[poise::command(slash_command)]
async fn join(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["combat", "join"], options!()).await
}

/// Show the fight: hit points, whose turn it is.
#[poise::command(slash_command)]
async fn status(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["combat", "status"], options!()).await
}

/// Who stands where, as a picture (only you see it; the GM's is public).
#[poise::command(slash_command)]
async fn map(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["combat", "map"], options!()).await
}

/// End the fight in this channel (Manage Server only).
#[poise::command(slash_command)]
async fn end(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["combat", "end"], options!()).await
}

/// A fight's referee log (one line per event, with its seed), to review.
#[poise::command(slash_command)]
async fn replay(
    ctx: Context<'_>,
    #[description = "The fight's number (its summary shows it)"]
    #[min = 1]
    #[max = 1_000_000_000]
    combat: i64,
) -> Result<(), Error> {
    play(ctx, &["combat", "replay"], options!(combat)).await
}
