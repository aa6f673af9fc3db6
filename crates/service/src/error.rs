//! The service layer's errors: what a caller can act on, plus the database's own failures.
//!
//! Every variant's message is written for the player or the server owner who sent the
//! command: it says what went wrong and what to do instead.

use engine::RuleViolation;

/// Database errors met by this process since it started, every one of them (each becomes a
/// [`ServiceError::Database`] through `From`): the bot's `gogobee_database_errors_total`.
static DATABASE_ERRORS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many database errors this process has met ([`DATABASE_ERRORS`]).
pub fn database_errors() -> u64 {
    DATABASE_ERRORS.load(std::sync::atomic::Ordering::Relaxed)
}

impl From<sea_orm::DbErr> for ServiceError {
    fn from(err: sea_orm::DbErr) -> Self {
        DATABASE_ERRORS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Self::Database(err)
    }
}

/// What went wrong in a service or repository call.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The database could not be reached, or refused or failed a statement.
    #[error("database error: {0}")]
    Database(sea_orm::DbErr),
    /// Another command changed the combat after this one read it; reload and retry.
    #[error("combat {combat_id} changed while this command ran (expected version {expected}, found {found})")]
    StaleCombat { combat_id: i64, expected: i64, found: i64 },
    /// Another command kept changing the character while this one ran; nothing was written.
    #[error("That character changed while this command ran (version {expected}, now {found}) — try again.")]
    StaleCharacter {
        character_id: i64,
        expected: i64,
        found: i64,
    },
    /// Another command kept winning the race for the same row; nothing was written.
    #[error("Too many commands at once on the same thing — try again.")]
    Contended,
    /// The fight has as many combatants as a fight may hold.
    #[error(
        "This fight has {count} combatants; one fight holds at most {max} — spawn fewer, or end it and start another."
    )]
    FightFull { count: usize, max: usize },
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
    #[error("You already have a character here (one per player in a server) — /character sheet shows it.")]
    CharacterExists { campaign_id: i64, player_id: String },
    /// The ruleset name is not one GogoBee knows.
    #[error("unknown ruleset `{0}` (expected one of: {names})", names = engine::Ruleset::NAMES.join(", "))]
    UnknownRuleset(String),
    /// The rules refused the command; nothing changed.
    #[error("{0}")]
    Rules(#[from] RuleViolation),
    /// A name (race, class, zone, item, monster, spell, gear) that the content does not know.
    #[error("There's no {kind} called \"{given}\". Choose one of: {valid}.")]
    Unknown {
        kind: &'static str,
        given: String,
        valid: String,
    },
    /// An argument is malformed or out of range.
    #[error("{0}")]
    InvalidInput(String),
    /// The player has no character in this campaign yet.
    #[error("You don't have a character here yet — create one with /character create.")]
    NoCharacter,
    /// There is no active combat in the channel.
    #[error("There's no fight in this channel — start an expedition or ask the GM to spawn monsters.")]
    NoCombatInChannel,
    /// A second combat in a channel that already has one.
    #[error("A fight is already under way in this channel — join it with /combat join.")]
    CombatInChannel,
    /// The character is fighting, so this must wait.
    #[error("{name} is in a fight — finish it first.")]
    InCombat { name: String },
    /// The character already fights in this combat.
    #[error("{name} is already in this fight.")]
    AlreadyJoined { name: String },
    /// The character cannot fight right now (no hit points left).
    #[error("{name} is in no state to fight (0 HP) — rest before fighting again.")]
    CannotFight { name: String },
    /// The character is already on an expedition.
    #[error("{name} is already exploring {zone} — leave or complete it first.")]
    OnExpedition { name: String, zone: String },
    /// The character is not on an expedition.
    #[error("You're not on an expedition — start one with /expedition start.")]
    NoExpedition,
    /// Level-up asked for without the XP for the next level.
    #[error("You need {needed} XP for level {next}; you have {xp}.")]
    NotEnoughXp { xp: u32, needed: u32, next: u32 },
    /// The item or gear is not carried.
    #[error("You don't have {item}. {have}")]
    NotCarried { item: String, have: String },
    /// A reaction button from an earlier moment of the fight.
    #[error("That button is out of date — the fight has moved on.")]
    StaleButton,
    /// The character died and is in the Hospital: the fee must be paid (or deferred) first.
    #[error("{name} is in the Hospital — /hospital pay settles the {fee}-coin fee and starts the recovery rest.")]
    InHospital { name: String, fee: i64 },
    /// The character is on recovery rest after a Hospital stay: no expedition until it ends.
    #[error("{name} is on recovery rest for {rem} more — no expeditions until it ends; everything else is open.", rem = crate::error::describe(*remaining))]
    Resting { name: String, remaining: chrono::Duration },
    /// The character died in this fight and takes no further part in it.
    #[error("{name} has died and takes no further part in this fight — see /hospital bill.")]
    Dead { name: String },
    /// A `/roll` expression that does not parse or cannot be rolled.
    #[error("I can't roll \"{expression}\": {reason}. Try e.g. 1d20+5, 2d20kh1 (advantage), 4d6kh3 or (2d6+3)*2.")]
    BadDiceExpression { expression: String, reason: String },
    /// Something in the shop or at the inn costs more than the character holds; nothing changed.
    #[error("{what} costs {price} coins; you have {coins}. Nothing changed.")]
    CannotAfford { what: String, price: i64, coins: i64 },
    /// The inn's shop, workbench and rooms are at home, not out on an expedition.
    #[error("{name} is out exploring {zone} — the inn is at home: /expedition leave first.")]
    AwayFromInn { name: String, zone: String },
    /// The healers' recovery rest is under way (it ends at the Unix time `ends`, with full HP).
    #[error(
        "{name} is on the healers' recovery rest until <t:{ends}:t> (<t:{ends}:R>) — it ends with full HP; the inn's rest can wait."
    )]
    OnRecoveryRest { name: String, ends: i64 },
    /// Another character of the campaign has this name (case-insensitively).
    #[error("There's already a character called {name} here — pick another name.")]
    NameTaken { name: String },
    /// The channel's fight is an arena duel: one against one, no one else joins.
    #[error("That's an arena duel — one against one, no one else joins. /arena spectate follows it.")]
    ArenaDuel,
    /// An arena challenge or its answer refused: who cannot duel, and why.
    #[error("{0}")]
    Arena(String),
}

/// A duration for players, to the minute (seconds under a minute): "2 hours", "1 hour 5 minutes",
/// "45 minutes", "30 seconds".
pub fn describe(d: chrono::Duration) -> String {
    fn unit(n: i64, one: &str) -> String {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {one}s")
        }
    }
    let secs = d.num_seconds().max(0);
    let (h, m) = (secs / 3600, secs % 3600 / 60);
    match (h, m) {
        (0, 0) => unit(secs, "second"),
        (0, m) => unit(m, "minute"),
        (h, 0) => unit(h, "hour"),
        (h, m) => format!("{} {}", unit(h, "hour"), unit(m, "minute")),
    }
}
