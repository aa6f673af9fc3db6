//! `gogobee replay`: re-runs stored fights from their starting state and stored commands, and
//! reports per fight whether the events came out identical, or the first that did not.

use anyhow::{Context, Result, bail};
use service::Db;
use service::replay::{self, Verdict};

/// Replays `--combat N` or `--all` the fights in the database; fails if any differs.
pub fn run(db_url: &str, combat: Option<i64>, all: bool, out: &mut impl std::io::Write) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let db = Db::connect(db_url)
            .await
            .with_context(|| format!("opening the database {db_url}"))?;
        let ids = match (combat, all) {
            (Some(id), false) => vec![id],
            (None, true) => replay::combat_ids(&db).await?,
            _ => bail!("say which fights: --combat N, or --all"),
        };
        let (mut identical, mut differ, mut skipped) = (0, 0, 0);
        for id in &ids {
            let verdict = replay::replay(&db, *id).await?;
            writeln!(out, "combat {id}: {verdict}")?;
            match verdict {
                Verdict::Identical { .. } => identical += 1,
                Verdict::Differs { .. } => differ += 1,
                Verdict::NotReplayable(_) => skipped += 1,
            }
        }
        writeln!(
            out,
            "{} fight(s): {identical} identical, {differ} differ, {skipped} cannot be replayed",
            ids.len()
        )?;
        if differ > 0 {
            bail!("{differ} fight(s) replayed differently");
        }
        Ok(())
    })
}
