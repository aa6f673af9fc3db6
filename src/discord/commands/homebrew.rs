//! `/homebrew import|list|show|remove|export|balance` (Manage Server).

use poise::serenity_prelude as serenity;

use super::{complete, options};
use crate::discord::{Context, Error, play};

/// This server's own monsters, items and spells (Manage Server only).
#[allow(clippy::unused_async)] // poise commands are async, even a parent that only groups subcommands
#[poise::command(
    slash_command,
    subcommands("import", "list", "show", "remove", "export", "balance"),
    subcommand_required,
    default_member_permissions = "MANAGE_GUILD"
)]
pub async fn homebrew(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Add monsters, items and spells from a file (TOML, docs/homebrew.md).
#[poise::command(slash_command)]
async fn import(
    ctx: Context<'_>,
    #[description = "The homebrew file (TOML, docs/homebrew.md)"] file: serenity::Attachment,
) -> Result<(), Error> {
    // The app is given the file's text (the loader refuses one over 256 KB, listing why).
    let file = String::from_utf8_lossy(&file.download().await?).into_owned();
    play(ctx, &["homebrew", "import"], options!(file)).await
}

/// This server's homebrew.
#[poise::command(slash_command)]
async fn list(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["homebrew", "list"], options!()).await
}

/// One homebrew entry as its TOML.
#[poise::command(slash_command)]
async fn show(
    ctx: Context<'_>,
    #[description = "The entry's name"]
    #[autocomplete = "complete::homebrew"]
    #[max_length = 100]
    name: String,
) -> Result<(), Error> {
    play(ctx, &["homebrew", "show"], options!(name)).await
}

/// Remove a homebrew entry (running fights keep theirs).
#[poise::command(slash_command)]
async fn remove(
    ctx: Context<'_>,
    #[description = "The entry's name"]
    #[autocomplete = "complete::homebrew"]
    #[max_length = 100]
    name: String,
) -> Result<(), Error> {
    play(ctx, &["homebrew", "remove"], options!(name)).await
}

/// This server's homebrew as one file.
#[poise::command(slash_command)]
async fn export(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["homebrew", "export"], options!()).await
}

/// How fair a monster is: seeded duels against a party, a verdict and a chart.
#[poise::command(slash_command)]
async fn balance(
    ctx: Context<'_>,
    #[description = "Which monster (this server's homebrew too)"]
    #[autocomplete = "complete::monster"]
    #[max_length = 100]
    monster: String,
    #[description = "class:level characters, e.g. fighter:3,cleric:3"]
    #[max_length = 100]
    party: String,
    #[description = "How many of the monster (default 1)"]
    #[min = 1]
    #[max = 12]
    count: Option<u32>,
) -> Result<(), Error> {
    play(ctx, &["homebrew", "balance"], options!(monster, party, count)).await
}
