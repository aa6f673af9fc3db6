//! A fight's run of turns nobody played (`cmd::turn_timer`): the timeouts in a row per player
//! while the fight stays at `version`, and the pause once every player has let three run out.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "idle_fights")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub combat_id: i64,
    /// The fight's version after the last command a timer made; the counts hold while it is.
    pub version: i64,
    /// JSON: combatant index → turns in a row that ran out.
    #[sea_orm(column_type = "Text")]
    pub timeouts: String,
    /// When the fight paused (every player idle), if it is paused.
    pub paused_at: Option<DateTimeUtc>,
    /// JSON: the turn timer taken out by the pause, put back when a player returns.
    #[sea_orm(column_type = "Text", nullable)]
    pub timer: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
