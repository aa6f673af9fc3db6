//! What operators watch: the database answers, how many fights are active, how many reaction
//! windows are open.

use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};

use crate::entity::{combat, timer};
use crate::store::REACTION_TIMEOUT;
use crate::{Service, ServiceError};

/// A snapshot for the health check and the metrics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    pub active_combats: u64,
    pub open_reaction_windows: u64,
}

impl Service {
    /// Whether the database answers.
    pub async fn ping(&self) -> Result<(), ServiceError> {
        Ok(self.db().conn().ping().await?)
    }

    /// Active combats and open reaction windows, across every process on this database.
    pub async fn stats(&self) -> Result<Stats, ServiceError> {
        let conn = self.db().conn();
        let active_combats = combat::Entity::find()
            .filter(crate::repo::is(combat::Column::Status, crate::repo::combats::ACTIVE))
            .count(conn)
            .await?;
        let open_reaction_windows = timer::Entity::find()
            .filter(timer::Column::Kind.eq(REACTION_TIMEOUT))
            .filter(timer::Column::FiredAt.is_null())
            .count(conn)
            .await?;
        Ok(Stats {
            active_combats,
            open_reaction_windows,
        })
    }
}
