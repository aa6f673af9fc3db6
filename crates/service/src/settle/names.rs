//! Character names (unique in a campaign, case-insensitively, trimmed, 2–32 printable
//! characters, never only invisible ones, never a monster's): the check and the look-up that a
//! new character and a rename share.

use crate::ServiceError;
use crate::repo::characters;

/// The shortest name.
pub const MIN_NAME_CHARS: usize = 2;

/// Longest character name (it becomes a combatant name and a button label).
pub const MAX_NAME_CHARS: usize = 32;

/// Characters that print nothing: zero-width spaces and joiners, the word joiner, the BOM,
/// the soft hyphen, and bidirectional controls.
fn invisible(c: char) -> bool {
    matches!(c, '\u{00AD}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{FEFF}')
}

/// A name as stored: trimmed; refused unless 2–[`MAX_NAME_CHARS`] characters, printable (no
/// control or invisible characters) and no monster's name ("Goblin", "Goblin 2").
pub fn check_name(name: &str) -> Result<String, ServiceError> {
    let name = name.trim();
    let count = name.chars().count();
    let bad = |why: &str| {
        ServiceError::InvalidInput(format!(
            "A character name is {MIN_NAME_CHARS} to {MAX_NAME_CHARS} printable characters on one line{why}."
        ))
    };
    if name.chars().any(char::is_control) {
        return Err(bad(" (no line breaks or control characters)"));
    }
    if name.chars().any(invisible) {
        return Err(bad(" (no zero-width or other invisible characters)"));
    }
    if !(MIN_NAME_CHARS..=MAX_NAME_CHARS).contains(&count) {
        return Err(bad(&format!(" — \"{name}\" has {count}")));
    }
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit() || c.is_whitespace());
    let monsters = &engine::content::data::builtin().monsters;
    if let Some(monster) = monsters.get(base).or_else(|| monsters.get(name)) {
        return Err(ServiceError::InvalidInput(format!(
            "\"{name}\" is what TwinBee calls a {} in a fight — pick a name no monster has.",
            monster.name
        )));
    }
    Ok(name.to_owned())
}

/// Refuses a name another character of the campaign holds (not `except`).
pub(crate) async fn free<C: sea_orm::ConnectionTrait + crate::access::Access>(
    db: &C,
    campaign_id: i64,
    name: &str,
    except: Option<i64>,
) -> Result<(), ServiceError> {
    match characters::by_name(db, campaign_id, name).await? {
        Some(other) if Some(other.id) != except => Err(ServiceError::NameTaken { name: other.name }),
        _ => Ok(()),
    }
}

/// Before a new character's insert: the name checked and free.
pub(crate) async fn name_for_new<C: sea_orm::ConnectionTrait + crate::access::Access>(
    db: &C,
    campaign_id: i64,
    name: &str,
) -> Result<String, ServiceError> {
    let name = check_name(name)?;
    free(db, campaign_id, &name, None).await?;
    Ok(name)
}

/// A unique violation on the name index, read as the refusal a check would have given.
pub(crate) fn name_race(err: ServiceError, name: &str) -> ServiceError {
    match err {
        ServiceError::Database(e) if crate::db::is_unique_violation(&e) => {
            ServiceError::NameTaken { name: name.to_owned() }
        }
        other => other,
    }
}

/// The `player_id` prefix of retired characters.
pub const RETIRED: &str = "retired:";
