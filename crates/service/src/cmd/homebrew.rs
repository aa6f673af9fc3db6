//! A campaign's homebrew: monsters, items, spells and statuses a server owner imports
//! as a content file (docs/homebrew.md), kept per campaign in `homebrew`, one row per entry.
//! [`Service::content`] is what the campaign's new fights draw on: the built-in content with its
//! homebrew over it. A fight already running keeps the definitions it started with (its
//! combatants' sheets), whatever is edited or removed later.
//!
//! An import is checked whole before anything is stored: every problem is listed as
//! `line N: what is wrong, what is allowed`, and a refused file changes nothing. An entry of the
//! same kind and name as one already imported replaces it; importing the same file twice
//! changes nothing.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

use engine::content::data::{Content, ContentError, ContentFile, MAX_CAMPAIGN_ENTRIES, homebrew};
use engine::content::id::Id;
use sea_orm::{ActiveModelTrait, ActiveValue::Set, ColumnTrait, EntityTrait, IntoActiveModel, QueryFilter, QueryOrder};

use crate::entity::homebrew as entry;
use crate::{DateTimeUtc, Service, ServiceError};

/// How the upload is named in the loader (its problems are given by line alone).
const UPLOAD: &str = "the file";
/// How the campaign's stored homebrew is named in the loader.
const STORED: &str = "this server's homebrew";

/// One imported entry, as `/homebrew list` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HomebrewEntry {
    /// `monster`, `item`, `spell` or `status`.
    pub kind: String,
    pub name: String,
}

/// What an import did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Imported {
    /// Entries new to the campaign.
    pub added: Vec<HomebrewEntry>,
    /// Entries that replaced an imported one of the same kind and name.
    pub changed: Vec<HomebrewEntry>,
    /// Entries already imported exactly so.
    pub unchanged: Vec<HomebrewEntry>,
    /// What the file says that is kept but does nothing in a fight, one a line (`line 12: …`).
    pub warnings: Vec<String>,
}

fn listed(e: &homebrew::Entry) -> HomebrewEntry {
    HomebrewEntry {
        kind: e.kind.to_owned(),
        name: e.name.clone(),
    }
}

/// The problems of a refused file, one a line: the upload's by line, the stored homebrew's by
/// entry (a removal or a replacement would break what refers to it).
fn refusal(what: &str, e: &ContentError) -> ServiceError {
    let mut lines = vec![format!(
        "{what} ({} problem{}; nothing was stored):",
        e.issues.len(),
        if e.issues.len() == 1 { "" } else { "s" }
    )];
    let mut issues: Vec<_> = e.issues.iter().collect();
    issues.sort_by_key(|i| (i.file != UPLOAD, i.line));
    for issue in issues {
        lines.push(match issue.file.as_str() {
            UPLOAD => format!("line {}: {}", issue.line, issue.message),
            STORED => format!("{STORED}: {}", issue.message),
            file => format!("{file} line {}: {}", issue.line, issue.message),
        });
    }
    ServiceError::InvalidInput(lines.join("\n"))
}

/// The built-in content behind an `Arc`, made once.
fn builtin() -> Arc<Content> {
    static BUILTIN: OnceLock<Arc<Content>> = OnceLock::new();
    Arc::clone(BUILTIN.get_or_init(|| Arc::new(engine::content::data::builtin().clone())))
}

/// Loaded homebrew by its text's hash: a campaign's content is loaded once per change, and two
/// campaigns with the same homebrew share it.
fn cached(text: &str) -> Result<Arc<Content>, ContentError> {
    static CACHE: OnceLock<Mutex<HashMap<u64, Arc<Content>>>> = OnceLock::new();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    let key = hasher.finish();
    let cache = CACHE.get_or_init(Mutex::default);
    if let Some(hit) = cache
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .get(&key)
    {
        return Ok(Arc::clone(hit));
    }
    let loaded = Arc::new(Content::with_stored_homebrew(
        &[ContentFile { path: STORED, text }],
        &[],
    )?);
    let mut cache = cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if cache.len() >= 64 {
        cache.clear();
    }
    cache.insert(key, Arc::clone(&loaded));
    Ok(loaded)
}

/// The stored entries as one file.
fn joined<'a>(rows: impl IntoIterator<Item = &'a entry::Model>) -> String {
    rows.into_iter().map(|r| r.body.as_str()).collect::<Vec<_>>().join("\n")
}

impl Service {
    async fn homebrew_rows(&self, campaign_id: i64) -> Result<Vec<entry::Model>, ServiceError> {
        let select = entry::Entity::find()
            .filter(entry::Column::CampaignId.eq(campaign_id))
            .order_by_asc(entry::Column::Id);
        Ok(crate::access::all(self.db(), select).await?)
    }

    /// The content the campaign's new fights use: the built-in content with the campaign's
    /// homebrew over it (`/gm spawn`, `/use`, `/cast` and their autocomplete).
    pub async fn content(&self, campaign_id: i64) -> Result<Arc<Content>, ServiceError> {
        let rows = self.homebrew_rows(campaign_id).await?;
        if rows.is_empty() {
            return Ok(builtin());
        }
        cached(&joined(&rows)).map_err(|e| refusal("This server's homebrew no longer loads", &e))
    }

    /// `/homebrew import file:`: checks the file whole against the built-in content and the
    /// campaign's other homebrew, then stores each entry (replacing one of the same kind and
    /// name). Refused with every problem listed, storing nothing.
    pub async fn homebrew_import(
        &self,
        campaign_id: i64,
        text: &str,
        now: DateTimeUtc,
    ) -> Result<Imported, ServiceError> {
        let rows = self.homebrew_rows(campaign_id).await?;
        let upload = ContentFile { path: UPLOAD, text };
        let new = homebrew::entries(text);
        let redefined = |r: &entry::Model| new.iter().any(|e| e.kind == r.kind && e.id.as_str() == r.key);
        let kept_rows = rows.iter().filter(|r| !redefined(r)).count();
        if kept_rows + new.len() > MAX_CAMPAIGN_ENTRIES {
            return Err(ServiceError::InvalidInput(format!(
                "The file was not imported: this server holds {} homebrew entries, and its {} would make {} — \
                 a server keeps at most {MAX_CAMPAIGN_ENTRIES}. Remove some first (/homebrew list, /homebrew remove); \
                 nothing was stored.",
                rows.len(),
                new.len(),
                kept_rows + new.len()
            )));
        }
        let kept = joined(rows.iter().filter(|r| !redefined(r)));
        let checked = Content::with_stored_homebrew(
            &[ContentFile {
                path: STORED,
                text: &kept,
            }],
            &[upload],
        )
        .map_err(|e| refusal("The file was not imported", &e))?;
        if new.is_empty() {
            return Err(ServiceError::InvalidInput(
                "The file has no entries: a homebrew file holds [[monster]], [[item]], [[spell]] and [[status]] \
                 tables (docs/homebrew.md)."
                    .into(),
            ));
        }
        let mut imported = Imported {
            warnings: checked
                .warnings
                .iter()
                .filter(|w| w.file == UPLOAD)
                .map(|w| format!("line {}: {}", w.line, w.message))
                .collect(),
            ..Imported::default()
        };
        let txn = self.db().begin_write().await?;
        for e in &new {
            let existing = rows.iter().find(|r| r.kind == e.kind && r.key == e.id.as_str());
            match existing {
                Some(r) if r.body == e.text && r.name == e.name => imported.unchanged.push(listed(e)),
                Some(r) => {
                    let mut row = r.clone().into_active_model();
                    row.name = Set(e.name.clone());
                    row.body = Set(e.text.clone());
                    row.updated_at = Set(now);
                    row.update(&*txn).await?;
                    imported.changed.push(listed(e));
                }
                None => {
                    entry::ActiveModel {
                        campaign_id: Set(campaign_id),
                        kind: Set(e.kind.to_owned()),
                        key: Set(e.id.as_str().to_owned()),
                        name: Set(e.name.clone()),
                        body: Set(e.text.clone()),
                        updated_at: Set(now),
                        ..Default::default()
                    }
                    .insert(&*txn)
                    .await?;
                    imported.added.push(listed(e));
                }
            }
        }
        txn.commit().await?;
        Ok(imported)
    }

    /// `/homebrew list`: the campaign's entries by kind, then name.
    pub async fn homebrew_list(&self, campaign_id: i64) -> Result<Vec<HomebrewEntry>, ServiceError> {
        let mut list: Vec<HomebrewEntry> = self
            .homebrew_rows(campaign_id)
            .await?
            .into_iter()
            .map(|r| HomebrewEntry {
                kind: r.kind,
                name: r.name,
            })
            .collect();
        let order = |k: &str| homebrew::KINDS.iter().position(|x| *x == k).unwrap_or(usize::MAX);
        list.sort_by(|a, b| (order(&a.kind), &a.name).cmp(&(order(&b.kind), &b.name)));
        Ok(list)
    }

    async fn homebrew_named(&self, campaign_id: i64, name: &str) -> Result<Vec<entry::Model>, ServiceError> {
        let rows = self.homebrew_rows(campaign_id).await?;
        let key = Id::new(name);
        let (found, others): (Vec<_>, Vec<_>) =
            rows.into_iter().partition(|r| key.is_some_and(|k| k.as_str() == r.key));
        if found.is_empty() {
            return Err(ServiceError::Unknown {
                kind: "homebrew entry",
                given: name.trim().to_owned(),
                valid: crate::convert::choices(others.iter().map(|r| r.name.as_str())),
            });
        }
        Ok(found)
    }

    /// `/homebrew show name:`: the entry's TOML as imported (every kind of that name).
    pub async fn homebrew_show(&self, campaign_id: i64, name: &str) -> Result<String, ServiceError> {
        Ok(joined(&self.homebrew_named(campaign_id, name).await?))
    }

    /// `/homebrew remove name:`: removes the entry (every kind of that name); refused while
    /// other homebrew refers to it. Running fights keep their copies.
    pub async fn homebrew_remove(&self, campaign_id: i64, name: &str) -> Result<Vec<HomebrewEntry>, ServiceError> {
        let gone = self.homebrew_named(campaign_id, name).await?;
        let rows = self.homebrew_rows(campaign_id).await?;
        let kept = joined(rows.iter().filter(|r| !gone.iter().any(|g| g.id == r.id)));
        Content::with_stored_homebrew(
            &[ContentFile {
                path: STORED,
                text: &kept,
            }],
            &[],
        )
        .map_err(|e| refusal(&format!("{} is still needed", gone[0].name), &e))?;
        let ids: Vec<i64> = gone.iter().map(|g| g.id).collect();
        let txn = self.db().begin_write().await?;
        entry::Entity::delete_many()
            .filter(entry::Column::CampaignId.eq(campaign_id))
            .filter(entry::Column::Id.is_in(ids))
            .exec(&*txn)
            .await?;
        txn.commit().await?;
        Ok(gone
            .into_iter()
            .map(|r| HomebrewEntry {
                kind: r.kind,
                name: r.name,
            })
            .collect())
    }

    /// `/homebrew export`: the campaign's homebrew as one file, which imports back unchanged.
    pub async fn homebrew_export(&self, campaign_id: i64) -> Result<String, ServiceError> {
        let rows = self.homebrew_rows(campaign_id).await?;
        Ok(format!(
            "# This server's homebrew ({} entr{}), as imported. Import it again with /homebrew import.\n\n{}",
            rows.len(),
            if rows.len() == 1 { "y" } else { "ies" },
            joined(&rows)
        ))
    }
}
