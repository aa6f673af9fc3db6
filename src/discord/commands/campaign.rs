//! `/campaign rules|timeout|turntimeout` (Manage Server).

use super::options;
use crate::discord::{Context, Error, play};

/// Campaign settings for this server (Manage Server only).
#[allow(clippy::unused_async)] // poise commands are async, even a parent that only groups subcommands
#[poise::command(
    slash_command,
    subcommands("rules", "timeout", "turntimeout"),
    subcommand_required,
    default_member_permissions = "MANAGE_GUILD"
)]
pub async fn campaign(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// A campaign's timing model.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Ruleset {
    #[name = "gogobee"]
    Gogobee,
    #[name = "tdgs"]
    Tdgs,
    #[name = "ctb"]
    Ctb,
    #[name = "ticks"]
    Ticks,
}
super::choice_text!(Ruleset);

/// Pick the rules new fights here use.
#[poise::command(slash_command)]
async fn rules(ctx: Context<'_>, #[description = "The timing model"] ruleset: Ruleset) -> Result<(), Error> {
    play(ctx, &["campaign", "rules"], options!(ruleset)).await
}

/// How long a reaction prompt waits before it passes by itself.
#[poise::command(slash_command)]
async fn timeout(
    ctx: Context<'_>,
    #[description = "Seconds (default 30)"]
    #[min = 1]
    #[max = 3600]
    seconds: u32,
) -> Result<(), Error> {
    play(ctx, &["campaign", "timeout"], options!(seconds)).await
}

/// How long a fight waits on a player before their turn ends by itself.
#[poise::command(slash_command)]
async fn turntimeout(
    ctx: Context<'_>,
    #[description = "Seconds (default 300; 0 waits for ever)"]
    #[min = 0]
    #[max = 86400]
    seconds: u32,
) -> Result<(), Error> {
    play(ctx, &["campaign", "turntimeout"], options!(seconds)).await
}
