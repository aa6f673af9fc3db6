//! `gogobee sim`: seeded Monte Carlo over the rules engine — death-save odds and duels.

use anyhow::{Context, Result, bail};
use chrono::DateTime;
use clap::{Args, Subcommand};
use engine::content::{Behaviour, Class, Monster, Race};
use engine::death_saves::{DeathSaveOutcome, DeathSaveResult, DeathSaveState};
use engine::{Actor, Combat, Combatant, Command, Controller, Dice, Outcome, Ruleset, Side, Terrain, apply};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

#[derive(Debug, Subcommand)]
pub enum Sim {
    /// A downed character left alone until they die, stabilise, or rise on a natural 20 (seed §7.1).
    DeathSaves(DeathSavesArgs),
    /// Two parties fight N seeded times; reports win rates and mean rounds.
    Duel(DuelArgs),
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
    #[arg(long, default_value_t = 1_000)]
    trials: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The timing model: gogobee, tdgs, ctb or ticks.
    #[arg(long, default_value = "gogobee")]
    rules: String,
    #[arg(long)]
    json: bool,
}

pub fn run(sim: &Sim) -> Result<()> {
    match sim {
        Sim::DeathSaves(args) => death_saves(args),
        Sim::Duel(args) => duel(args),
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

/// Parses `fighter:5,goblin:3` into combatants on `side`, controlled by the AI.
fn party(spec: &str, side: Side, tag: &str) -> Result<Vec<Combatant>> {
    let mut members = Vec::new();
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (name, number) = part.split_once(':').unwrap_or((part, "1"));
        let number: u32 = number
            .parse()
            .with_context(|| format!("\"{part}\": the number after ':' must be a whole number"))?;
        if let Some(class) = Class::parse(name) {
            if !(1..=20).contains(&number) {
                bail!("\"{part}\": a character's level is 1 to 20");
            }
            let who = format!("{tag} {} {number}", class.name());
            members.push(
                Combatant::character(&who, Race::Human, class, number, Controller::Ai(Behaviour::Aggressive))
                    .on_side(side),
            );
        } else if let Some(monster) = Monster::parse(name) {
            if !(1..=20).contains(&number) {
                bail!("\"{part}\": between 1 and 20 monsters per group");
            }
            for i in 1..=number {
                members.push(Combatant::monster(&format!("{tag} {} {i}", monster.name()), monster).on_side(side));
            }
        } else {
            let classes: Vec<&str> = Class::ALL.iter().map(|c| c.name()).collect();
            bail!(
                "\"{name}\" is neither a class ({}) nor a monster in the bestiary",
                classes.join(", ")
            );
        }
    }
    if members.is_empty() {
        bail!("each side needs at least one combatant, e.g. --a fighter:5 --b goblin:3");
    }
    Ok(members)
}

#[derive(Debug, Serialize)]
struct DuelReport {
    trials: u64,
    a_wins: u64,
    b_wins: u64,
    draws: u64,
    a_win_rate: f64,
    b_win_rate: f64,
    mean_rounds: f64,
}

/// The timing model named `name`.
fn ruleset(name: &str) -> Result<Ruleset> {
    Ruleset::parse(name).with_context(|| {
        let names: Vec<&str> = Ruleset::ALL.iter().map(|r| r.name()).collect();
        format!("unknown ruleset \"{name}\"; choose one of {}", names.join(", "))
    })
}

fn duel(args: &DuelArgs) -> Result<()> {
    let ruleset = ruleset(&args.rules)?;
    if args.trials == 0 {
        bail!("--trials must be at least 1");
    }
    let a = party(&args.a, Side::Party, "A")?;
    let b = party(&args.b, Side::Enemies, "B")?;
    let bar = progress(args.trials * 10, args.json);
    bar.set_length(args.trials);
    let now = DateTime::from_timestamp(0, 0).expect("epoch");
    let (mut a_wins, mut b_wins, mut draws, mut rounds) = (0, 0, 0, 0u64);
    for trial in 0..args.trials {
        let mut combat =
            Combat::new(a.iter().chain(b.iter()).cloned().collect(), Terrain::default()).with_ruleset(ruleset);
        let mut dice = Dice::seeded(args.seed.wrapping_add(trial));
        apply(&mut combat, Actor::Director, Command::Begin, &mut dice, now).map_err(|e| anyhow::anyhow!("{e}"))?;
        match combat.outcome {
            Some(Outcome::Victory) => a_wins += 1,
            Some(Outcome::Defeat) => b_wins += 1,
            _ => draws += 1,
        }
        rounds += u64::from(combat.round);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let n = args.trials as f64;
    let report = DuelReport {
        trials: args.trials,
        a_wins,
        b_wins,
        draws,
        a_win_rate: a_wins as f64 / n,
        b_win_rate: b_wins as f64 / n,
        mean_rounds: rounds as f64 / n,
    };
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        println!(
            "{} trials: A ({}) wins {:.1}%, B ({}) wins {:.1}%, {} halted; {:.2} rounds on average",
            report.trials,
            args.a,
            100.0 * report.a_win_rate,
            args.b,
            100.0 * report.b_win_rate,
            report.draws,
            report.mean_rounds
        );
    }
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

    #[test]
    fn duels_run_under_every_ruleset() {
        for rules in ["gogobee", "tdgs", "ctb", "ticks"] {
            let args = DuelArgs {
                a: "fighter:3".into(),
                b: "goblin:2".into(),
                trials: 20,
                seed: 1,
                rules: rules.into(),
                json: true,
            };
            duel(&args).unwrap_or_else(|e| panic!("{rules}: {e}"));
        }
        assert!(ruleset("chess").is_err());
        assert_eq!(ruleset("CTB").unwrap(), Ruleset::Ctb);
    }

    #[test]
    fn party_specs_parse_classes_and_monster_groups() {
        let a = party("fighter:5,cleric:2", Side::Party, "A").unwrap();
        assert_eq!(a.len(), 2);
        assert_eq!(a[0].level(), 5);
        let b = party("goblin:3", Side::Enemies, "B").unwrap();
        assert_eq!(b.len(), 3);
        assert!(b.iter().all(|c| c.side == Side::Enemies));
        assert!(party("bard:3", Side::Party, "A").is_err());
        assert!(party("fighter:0", Side::Party, "A").is_err());
        assert!(party("fighter:x", Side::Party, "A").is_err());
        assert!(party("", Side::Party, "A").is_err());
    }
}
