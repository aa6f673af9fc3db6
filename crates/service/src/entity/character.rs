//! A player's character in one campaign (at most one per player per campaign).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel, serde::Deserialize)]
#[sea_orm(table_name = "characters")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub campaign_id: i64,
    /// The Discord user snowflake.
    pub player_id: String,
    pub name: String,
    pub race: String,
    pub class: String,
    pub level: i32,
    pub xp: i32,
    pub coins: i64,
    pub hp: i32,
    pub max_hp: i32,
    pub weapon: Option<String>,
    pub off_hand: Option<String>,
    pub armor: Option<String>,
    pub shield: Option<String>,
    /// Carried items, as the engine serializes them.
    pub inventory: Json,
    /// Equipped gear beyond the named slots, as the engine serializes it.
    pub gear: Json,
    /// Reset to 0 on death (seed 000 §8.2).
    pub arena_streak: i32,
    pub pet: Option<String>,
    pub housing: Option<String>,
    pub created_at: DateTimeUtc,
    /// TDGS Interrupt uses spent today (per-day limits), as [`crate::convert::InterruptsToday`]
    /// JSON; `None` when none.
    pub interrupts_today: Option<String>,
    /// Bumped by every write; a write names the version it read (see
    /// `repo::characters::update`), so no change is lost to a concurrent one.
    pub version: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
