//! `gogobee sim`: seeded Monte Carlo over the rules engine — death-save odds and duels.

use anyhow::{Context, Result, bail};
use chrono::DateTime;
use clap::{Args, Subcommand};
use engine::balance::{self, Matchup, Tally};
use engine::content::data::{Content, ContentFile};
use engine::death_saves::{DeathSaveOutcome, DeathSaveResult, DeathSaveState};
use engine::{Dice, Ruleset, Side};
use indicatif::{ProgressBar, ProgressStyle};
use render::balance::Figures;
use serde::Serialize;

#[derive(Debug, Subcommand)]
pub enum Sim {
    /// A downed character left alone until they die, stabilise, or rise on a natural 20 (seed §7.1).
    DeathSaves(DeathSavesArgs),
    /// Two parties fight N seeded times; reports win rates, rounds, hit points lost and the
    /// verdict band for side A (docs/homebrew.md "Is it fair?"), and with --chart a PNG of it.
    Duel(DuelArgs),
    /// The fairness grid: twenty-odd matchups and mirror matches, each fought under every
    /// timing model; prints side A's win rate per model and the widest gap to the default.
    Grid(GridArgs),
}

#[derive(Debug, Args)]
pub struct GridArgs {
    /// Duels per matchup and ruleset.
    #[arg(long, default_value_t = 1_000)]
    duels: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The gap, in points, a model's win rate may stand from the default ruleset's.
    #[arg(long, default_value_t = 20.0)]
    points: f64,
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
pub struct DeathSavesArgs {
    #[arg(long, default_value_t = 100_000)]
    trials: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON object instead of a sentence.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
pub struct DuelArgs {
    /// Side A: comma-separated `class:level` characters and `monster:count` groups, e.g. `fighter:5,cleric:3`.
    #[arg(long)]
    a: String,
    /// Side B, in the same form, e.g. `goblin:3`.
    #[arg(long)]
    b: String,
    #[arg(long, default_value_t = 2_000)]
    trials: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The timing model: gogobee, tdgs, ctb or ticks.
    #[arg(long, default_value = "gogobee")]
    rules: String,
    /// A homebrew file (docs/homebrew.md) whose monsters the sides may name.
    #[arg(long)]
    content: Option<std::path::PathBuf>,
    /// Write the chart (win rate and rounds) to this PNG file.
    #[arg(long)]
    chart: Option<std::path::PathBuf>,
    #[arg(long)]
    json: bool,
}

pub fn run(sim: &Sim) -> Result<()> {
    match sim {
        Sim::DeathSaves(args) => death_saves(args),
        Sim::Duel(args) => duel(args),
        Sim::Grid(args) => grid(args),
    }
}

#[derive(Debug, Serialize, PartialEq, Eq)]
struct DeathSaveTally {
    trials: u64,
    died: u64,
    stabilized: u64,
    revived: u64,
}

fn progress(trials: u64, quiet: bool) -> ProgressBar {
    if quiet || trials < 10_000 {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(trials);
    bar.set_style(ProgressStyle::with_template("{bar:40} {pos}/{len} trials ({eta} left)").expect("valid template"));
    bar
}

fn tally_death_saves(trials: u64, seed: u64, bar: &ProgressBar) -> DeathSaveTally {
    let mut dice = Dice::seeded(seed);
    let now = DateTime::from_timestamp(0, 0).expect("epoch");
    let mut tally = DeathSaveTally {
        trials,
        died: 0,
        stabilized: 0,
        revived: 0,
    };
    for i in 0..trials {
        let mut state = DeathSaveState::default();
        state.down(now);
        loop {
            let roll = dice.die(20);
            match state.record(DeathSaveOutcome::of_roll(roll), now) {
                DeathSaveResult::StillDying => continue,
                DeathSaveResult::Died => tally.died += 1,
                DeathSaveResult::Stabilized => tally.stabilized += 1,
                DeathSaveResult::Revived => tally.revived += 1,
            }
            break;
        }
        if i % 4096 == 0 {
            bar.set_position(i);
        }
    }
    bar.finish_and_clear();
    tally
}

fn death_saves(args: &DeathSavesArgs) -> Result<()> {
    if args.trials == 0 {
        bail!("--trials must be at least 1");
    }
    let tally = tally_death_saves(args.trials, args.seed, &progress(args.trials, args.json));
    if args.json {
        println!("{}", serde_json::to_string(&tally)?);
    } else {
        let pct = |n: u64| 100.0 * n as f64 / tally.trials as f64;
        println!(
            "{} downed characters left alone: {:.1}% died, {:.1}% stabilised, {:.1}% rose on a natural 20",
            tally.trials,
            pct(tally.died),
            pct(tally.stabilized),
            pct(tally.revived)
        );
    }
    Ok(())
}

/// The content a duel draws on: the built-ins, with the homebrew file `path` over them.
fn content(path: Option<&std::path::Path>) -> Result<Content> {
    let Some(path) = path else {
        return Ok(engine::content::data::builtin().clone());
    };
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let name = path.display().to_string();
    Content::with_homebrew(&[ContentFile {
        path: &name,
        text: &text,
    }])
    .map_err(|e| anyhow::anyhow!("{e}"))
}

#[derive(Debug, Serialize)]
struct DuelReport {
    trials: u32,
    a_wins: u32,
    b_wins: u32,
    draws: u32,
    a_win_rate: f64,
    b_win_rate: f64,
    mean_rounds: f64,
    mean_hp_lost: f64,
    verdict: &'static str,
    rounds: std::collections::BTreeMap<u32, u32>,
}

/// The timing model named `name`.
fn ruleset(name: &str) -> Result<Ruleset> {
    Ruleset::parse(name).with_context(|| {
        let names: Vec<&str> = Ruleset::ALL.iter().map(|r| r.name()).collect();
        format!("unknown ruleset \"{name}\"; choose one of {}", names.join(", "))
    })
}

/// Runs the duels `args` asks for: side A is the party.
fn tally(args: &DuelArgs) -> Result<Tally> {
    let ruleset = ruleset(&args.rules)?;
    if !(1..=u64::from(balance::MAX_DUELS)).contains(&args.trials) {
        bail!("--trials is 1 to {}", balance::MAX_DUELS);
    }
    let content = content(args.content.as_deref())?;
    let matchup = Matchup {
        party: balance::side(&args.a, &content, Side::Party, "A").map_err(|e| anyhow::anyhow!("--a: {e}"))?,
        foes: balance::side(&args.b, &content, Side::Enemies, "B").map_err(|e| anyhow::anyhow!("--b: {e}"))?,
        ruleset,
    };
    let trials = args.trials as u32;
    let bar = progress(u64::from(trials) * 10, args.json);
    bar.set_length(u64::from(trials));
    let tally = balance::duel(&matchup, trials, args.seed, |n| bar.set_position(u64::from(n)));
    bar.finish_and_clear();
    Ok(tally)
}

fn duel(args: &DuelArgs) -> Result<()> {
    let tally = tally(args)?;
    let figures = Figures {
        matchup: format!("{} vs {}", args.a, args.b),
        ruleset: args.rules.to_ascii_lowercase(),
        tally,
    };
    if let Some(path) = &args.chart {
        std::fs::write(path, render::balance::chart(&figures))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    let t = &figures.tally;
    if args.json {
        let report = DuelReport {
            trials: t.duels,
            a_wins: t.party_wins,
            b_wins: t.foe_wins,
            draws: t.halted,
            a_win_rate: t.win_rate(),
            b_win_rate: t.loss_rate(),
            mean_rounds: t.mean_rounds(),
            mean_hp_lost: t.mean_hp_lost(),
            verdict: t.verdict().name(),
            rounds: t.rounds.clone(),
        };
        println!("{}", serde_json::to_string(&report)?);
    } else {
        println!("A ({}) against B ({}):", args.a, args.b);
        for line in figures.lines() {
            println!("  {}", line.replace("**", ""));
        }
        println!("  Bands: {}", Figures::bands());
        if let Some(path) = &args.chart {
            println!("  Chart: {}", path.display());
        }
    }
    Ok(())
}

#[derive(Debug, Serialize)]
struct GridRow {
    a: &'static str,
    b: &'static str,
    mirror: bool,
    /// Side A's win rate per ruleset.
    win_rates: std::collections::BTreeMap<&'static str, f64>,
    spread_points: f64,
    fair: bool,
}

fn grid(args: &GridArgs) -> Result<()> {
    if !(1..=balance::MAX_DUELS).contains(&args.duels) {
        bail!("--duels is 1 to {}", balance::MAX_DUELS);
    }
    let content = engine::content::data::builtin();
    let rows = engine::fairness::GRID;
    let bar = if args.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new((rows.len() * Ruleset::ALL.len()) as u64).with_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} cells ({eta} left)").expect("valid template"),
        )
    };
    let started = std::time::Instant::now();
    let results = engine::fairness::run(rows, &Ruleset::ALL, content, args.duels, args.seed, |n| {
        bar.set_position(n as u64);
    })
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    bar.finish_and_clear();
    let report: Vec<GridRow> = results
        .iter()
        .map(|r| GridRow {
            a: r.row.a,
            b: r.row.b,
            mirror: r.row.mirror,
            win_rates: r.tallies.iter().map(|(m, t)| (m.name(), t.win_rate())).collect(),
            spread_points: r.spread(),
            fair: r.fair(args.points),
        })
        .collect();
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
        return Ok(());
    }
    let names: Vec<&str> = Ruleset::ALL.iter().map(|m| m.name()).collect();
    println!(
        "Side A's win rate over {} duels per cell (seed {}); fair: within {} points of gogobee, a mirror 40–60 % everywhere",
        args.duels, args.seed, args.points
    );
    println!("| A | B | {} | widest gap | fair |", names.join(" | "));
    println!("|---|---|{}---|---|", "---|".repeat(names.len()));
    for row in &report {
        let rates: Vec<String> = names
            .iter()
            .map(|n| format!("{:.1} %", 100.0 * row.win_rates.get(n).copied().unwrap_or(0.0)))
            .collect();
        println!(
            "| {} | {} | {} | {:.1} | {} |",
            row.a,
            if row.mirror { "(mirror)" } else { row.b },
            rates.join(" | "),
            row.spread_points,
            if row.fair { "yes" } else { "no" }
        );
    }
    let fair = report.iter().filter(|r| r.fair).count();
    println!(
        "{fair} of {} rows fair; {:.1} s",
        report.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn death_save_outcomes_add_up_and_match_the_odds_of_section_seven() {
        let tally = tally_death_saves(200_000, 7, &ProgressBar::hidden());
        assert_eq!(tally.died + tally.stabilized + tally.revived, tally.trials);
        // Exact odds of the §7.1 table (a Markov chain over the marks): died 40.49%, stabilised 41.38%,
        // revived 18.14%. 200,000 trials put each share within ±0.5 points with overwhelming probability.
        let share = |n: u64| n as f64 / tally.trials as f64;
        assert!((share(tally.died) - 0.404_875).abs() < 0.005, "{tally:?}");
        assert!((share(tally.stabilized) - 0.413_75).abs() < 0.005, "{tally:?}");
        assert!((share(tally.revived) - 0.181_375).abs() < 0.005, "{tally:?}");
    }

    #[test]
    fn the_same_seed_gives_the_same_tally() {
        let a = tally_death_saves(10_000, 3, &ProgressBar::hidden());
        let b = tally_death_saves(10_000, 3, &ProgressBar::hidden());
        assert_eq!(a, b);
    }

    fn args(a: &str, b: &str, rules: &str) -> DuelArgs {
        DuelArgs {
            a: a.into(),
            b: b.into(),
            trials: 20,
            seed: 1,
            rules: rules.into(),
            content: None,
            chart: None,
            json: true,
        }
    }

    #[test]
    fn duels_run_under_every_ruleset() {
        for rules in Ruleset::NAMES {
            duel(&args("fighter:3", "goblin:2", rules)).unwrap_or_else(|e| panic!("{rules}: {e}"));
        }
        assert!(ruleset("chess").is_err());
        assert_eq!(ruleset("CTB").unwrap(), Ruleset::Ctb);
        assert!(tally(&args("bard:3", "goblin:2", "gogobee")).is_err());
        assert!(
            tally(&DuelArgs {
                trials: 0,
                ..args("fighter:3", "goblin:2", "gogobee")
            })
            .is_err()
        );
    }

    #[test]
    fn a_homebrew_files_monsters_can_be_dueled_and_charted() {
        let dir = std::env::temp_dir().join(format!("gogobee-sim-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let chart = dir.join("duel.png");
        let example = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/homebrew/marsh-raiders.toml");
        let with = DuelArgs {
            content: Some(example.clone()),
            chart: Some(chart.clone()),
            ..args("fighter:3,cleric:3", "bog hag:1", "gogobee")
        };
        // Without the file the hag is unknown; with it she fights, and the chart is a PNG.
        assert!(tally(&args("fighter:3,cleric:3", "bog hag:1", "gogobee")).is_err());
        let t = tally(&with).unwrap();
        assert_eq!(t.party_wins + t.foe_wins + t.halted, 20);
        duel(&with).unwrap();
        assert!(std::fs::read(&chart).unwrap().starts_with(b"\x89PNG"));
        // `replaces = "goblin"`: the file's goblin is the Marsh Goblin.
        let goblins = balance::side("goblin:1", &content(Some(&example)).unwrap(), Side::Enemies, "B").unwrap();
        assert_eq!(goblins[0].monster_name(), Some("Marsh Goblin"));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
