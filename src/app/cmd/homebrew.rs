//! `/homebrew import|list|show|remove|export|balance` (Manage Server): a server's own monsters,
//! items, spells and statuses (docs/homebrew.md), and how fair a monster is for a party. `file:` is the file's text: the Discord adapter
//! downloads the attachment, the terminal table reads the local path.

use service::ServiceError;

use super::{Ctx, Invocation, Refused, Reply};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Homebrew {
    Import { file: String },
    List,
    Show { name: String },
    Remove { name: String },
    Export,
    Balance(service::cmd::balance::BalanceAsk),
}

fn names(entries: &[service::cmd::homebrew::HomebrewEntry]) -> String {
    entries
        .iter()
        .map(|e| format!("{} ({})", e.name, e.kind))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A refused import or removal: every problem, one a line, to the owner alone (a refusal is
/// otherwise one line).
fn problems(error: ServiceError) -> Result<Vec<Reply>, Refused> {
    match error {
        ServiceError::InvalidInput(text) => {
            let (title, list) = text.split_once('\n').unwrap_or((text.as_str(), ""));
            Ok(vec![Reply::public(
                render::info(title, &format!("```\n{list}\n```"))
                    .ephemeral()
                    .clamp_to_limits(),
            )])
        }
        other => Err(other.into()),
    }
}

impl Homebrew {
    pub fn parse(sub: &str, inv: &Invocation) -> Result<Self, String> {
        let need = |name: &str| inv.need(name).map(str::to_owned);
        Ok(match sub {
            "import" => Self::Import {
                file: inv
                    .options
                    .get("file")
                    .cloned()
                    .ok_or("This command needs the `file` option.")?,
            },
            "show" => Self::Show { name: need("name")? },
            "remove" => Self::Remove { name: need("name")? },
            "export" => Self::Export,
            "balance" => Self::Balance(service::cmd::balance::BalanceAsk {
                monster: need("monster")?,
                count: inv.number::<u32>("count")?.unwrap_or(1),
                party: need("party")?,
            }),
            _ => Self::List,
        })
    }

    pub async fn run(self, ctx: &Ctx<'_>) -> Result<Vec<Reply>, Refused> {
        ctx.gm()?;
        let (s, campaign, now) = (ctx.service(), ctx.campaign, ctx.now);
        let reply = match self {
            Self::Import { file } => {
                let done = match s.homebrew_import(campaign, &file, now).await {
                    Ok(done) => done,
                    Err(e) => return problems(e),
                };
                let mut lines = Vec::new();
                for (what, list) in [
                    ("Added", &done.added),
                    ("Changed", &done.changed),
                    ("Unchanged", &done.unchanged),
                ] {
                    if !list.is_empty() {
                        lines.push(format!("{what}: {}", names(list)));
                    }
                }
                if !done.warnings.is_empty() {
                    lines.push("Kept, but does nothing in a fight:".to_owned());
                    lines.extend(done.warnings.iter().map(|w| format!("• {w}")));
                }
                render::info("Homebrew imported", &lines.join("\n")).clamp_to_limits()
            }
            Self::List => {
                let list = s.homebrew_list(campaign).await?;
                let body = if list.is_empty() {
                    "No homebrew yet: `/homebrew import file:` adds some (docs/homebrew.md).".to_owned()
                } else {
                    list.iter()
                        .map(|e| format!("• {} — {}", e.name, e.kind))
                        .collect::<Vec<_>>()
                        .join("\n")
                };
                render::info("This server's homebrew", &body)
            }
            Self::Show { name } => {
                let text = s.homebrew_show(campaign, &name).await?;
                render::info(&name, &format!("```toml\n{text}```")).clamp_to_limits()
            }
            Self::Remove { name } => {
                let gone = match s.homebrew_remove(campaign, &name).await {
                    Ok(gone) => gone,
                    Err(e) => return problems(e),
                };
                render::info(
                    "Homebrew removed",
                    &format!("{} — fights already running keep their copies.", names(&gone)),
                )
            }
            Self::Export => {
                let text = s.homebrew_export(campaign).await?;
                let mut message = render::info("This server's homebrew", "The whole of it, as one file.");
                message.attachments = vec![render::Attachment::text(
                    0,
                    "homebrew.toml",
                    "This server's homebrew, to import again",
                    text,
                )];
                message
            }
            Self::Balance(ask) => {
                let balance = s.homebrew_balance(campaign, &ask).await?;
                let mut notes = Vec::new();
                if balance.queued_behind > 0 {
                    notes.push(format!(
                        "Queued: {} question(s) were waiting ahead of this one.",
                        balance.queued_behind
                    ));
                }
                if balance.cut_short() {
                    notes.push(format!(
                        "Stopped at the time budget after {} of {} duels.",
                        balance.tally.duels,
                        service::cmd::balance::DUELS
                    ));
                }
                let mut message = render::balance::message(&render::balance::Figures {
                    matchup: balance.matchup,
                    ruleset: balance.ruleset.name().to_owned(),
                    tally: balance.tally,
                });
                if let Some(text) = message.embeds.first_mut().and_then(|e| e.description.as_mut())
                    && !notes.is_empty()
                {
                    text.insert_str(0, &format!("{}\n", notes.join("\n")));
                }
                message
            }
        };
        Ok(vec![Reply::public(reply)])
    }
}
