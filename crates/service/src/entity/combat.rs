//! A fight, guarded by `version` (optimistic concurrency): its state is its latest snapshot
//! (`combat_snapshots`) and the logged commands after it (`combat_events`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel, serde::Deserialize)]
#[sea_orm(table_name = "combats")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub campaign_id: i64,
    pub channel_id: String,
    pub expedition_id: Option<i64>,
    pub status: String,
    /// The seed of the combat's dice stream.
    pub seed: i64,
    /// Empty while the fight's state lives in `combat_snapshots` and its log; a compacted
    /// fight's summary (see `cmd::retention`).
    #[sea_orm(column_type = "Text")]
    pub state: String,
    /// The number of commands applied; every save must name the version it read.
    pub version: i64,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
    /// The state the fight was created with, as the oldest fights kept it (`None`
    /// for newer ones: `combat_starts` keeps it).
    #[sea_orm(column_type = "Text", nullable)]
    pub initial_state: Option<String>,
    /// When the retention policy dropped this finished fight's log (`state` is then a summary).
    pub compacted_at: Option<DateTimeUtc>,
    /// The pending reaction window's timeout timer (`timers.id`), as of `version`.
    pub reaction_timer_id: Option<i64>,
    /// The pending turn timer, as of `version`.
    pub turn_timer_id: Option<i64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
