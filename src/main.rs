//! The `gogobee` binary: parses the command line and hands over to the part that runs it.

mod sim;

use anyhow::Result;
use clap::{Parser, Subcommand};

/// GogoBee: tactical tabletop combat for Discord, with persistent campaigns.
#[derive(Debug, Parser)]
#[command(name = "gogobee", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Mode>,
}

#[derive(Debug, Subcommand)]
enum Mode {
    /// Run the Discord bot (needs `DISCORD_TOKEN`). The default.
    Bot,
    /// Monte Carlo simulations over the rules engine.
    Sim {
        #[command(subcommand)]
        sim: sim::Sim,
    },
}

fn main() -> std::process::ExitCode {
    match run(Cli::parse()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command.unwrap_or(Mode::Bot) {
        Mode::Bot => anyhow::bail!(
            "the Discord bot is not built yet — try `gogobee sim duel --a fighter:5 --b goblin:3` or `gogobee sim death-saves`"
        ),
        Mode::Sim { sim } => sim::run(&sim),
    }
}
