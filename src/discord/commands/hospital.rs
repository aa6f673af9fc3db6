//! `/hospital bill|pay|status`: Thom Krooke's hospital.

use super::options;
use crate::discord::{Context, Error, play};

/// Thom Krooke's hospital: your bill, paying it, and your recovery rest.
#[allow(clippy::unused_async)] // poise commands are async, even a parent that only groups subcommands
#[poise::command(slash_command, subcommands("bill", "pay", "status"), subcommand_required)]
pub async fn hospital(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// What you owe Thom, and how your rest goes.
#[poise::command(slash_command)]
async fn bill(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["hospital"], options!()).await
}

/// Settle Thom's fee or your debt, in full when your coins cover it; an unpaid fee becomes debt.
#[poise::command(slash_command)]
async fn pay(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["hospital", "pay"], options!()).await
}

/// How long your recovery rest has left.
#[poise::command(slash_command)]
async fn status(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["hospital", "status"], options!()).await
}
