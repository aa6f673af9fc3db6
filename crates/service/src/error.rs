//! The service layer's errors: what a caller can act on, plus the database's own failures.

/// What went wrong in a service or repository call.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The database could not be reached, or refused or failed a statement.
    #[error("database error: {0}")]
    Database(#[from] sea_orm::DbErr),
    /// Another command changed the combat after this one read it; reload and retry.
    #[error("combat {combat_id} changed while this command ran (expected version {expected}, found {found})")]
    StaleCombat { combat_id: i64, expected: i64, found: i64 },
    /// No combat has this id.
    #[error("no combat with id {0}")]
    CombatNotFound(i64),
    /// No campaign has this id.
    #[error("no campaign with id {0}")]
    CampaignNotFound(i64),
    /// No character has this id.
    #[error("no character with id {0}")]
    CharacterNotFound(i64),
    /// The player already has a character in this campaign; one per player per campaign.
    #[error("player {player_id} already has a character in campaign {campaign_id}")]
    CharacterExists { campaign_id: i64, player_id: String },
    /// The ruleset name is not one GogoBee knows.
    #[error("unknown ruleset `{0}` (expected one of: gogobee, tdgs, ctb, ticks)")]
    UnknownRuleset(String),
}
