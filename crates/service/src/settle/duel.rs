//! An arena duel's end, written inside the transaction of the command that ended its fight: the
//! streaks, and nothing else of the fight.

use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

use super::Fight;
use crate::entity::arena_duel;
use crate::repo::characters;
use crate::{DateTimeUtc, ServiceError};

/// A challenge waiting for its answer.
pub const OFFERED: &str = "offered";

/// The challenged player said no.
pub const DECLINED: &str = "declined";

/// Accepted: the duel is being fought.
pub const FIGHTING: &str = "fighting";

/// The duel ended (won, or halted).
pub const OVER: &str = "over";

/// Voids the challenges still waiting that `character_id` made or was offered (it retired):
/// they read as declined, and no button accepts them. How many.
pub(crate) async fn void_challenges<C: sea_orm::ConnectionTrait>(
    conn: &C,
    character_id: i64,
    now: DateTimeUtc,
) -> Result<u64, ServiceError> {
    let voided = arena_duel::Entity::update_many()
        .col_expr(arena_duel::Column::Status, Expr::value(DECLINED))
        .col_expr(arena_duel::Column::EndedAt, Expr::value(now))
        .filter(
            sea_orm::Condition::any()
                .add(arena_duel::Column::ChallengerId.eq(character_id))
                .add(arena_duel::Column::ChallengedId.eq(character_id)),
        )
        .filter(arena_duel::Column::Status.eq(OFFERED))
        .exec(conn)
        .await?;
    Ok(voided.rows_affected)
}

/// How a duel ended: written in the transaction of the command that ended it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuelEnd {
    pub duel_id: i64,
    /// The winner's name and streak after the win; `None` when the duel was halted.
    pub winner: Option<(String, i32)>,
    /// The loser's name and the streak it lost.
    pub loser: Option<(String, i32)>,
}

/// Ends a duel inside the transaction of the command that ended its fight: the winner's streak
/// up by one, the loser's to 0 (a halted duel changes neither). Nothing else of the fight is
/// written to the characters. `None` if the fight is no duel of the arena's.
pub(crate) async fn settle<R: crate::access::Access>(
    txn: &R,
    fight: &Fight<'_>,
    now: DateTimeUtc,
) -> Result<Option<DuelEnd>, ServiceError> {
    let fighting = arena_duel::Entity::find()
        .filter(arena_duel::Column::CombatId.eq(fight.id))
        .filter(arena_duel::Column::Status.eq(FIGHTING));
    let Some(d) = crate::access::one(txn, fighting).await? else {
        return Ok(None);
    };
    let (winner, loser) = match fight.combat.outcome {
        Some(engine::Outcome::Victory) => (Some(d.challenger_id), Some(d.challenged_id)),
        Some(engine::Outcome::Defeat) => (Some(d.challenged_id), Some(d.challenger_id)),
        _ => (None, None),
    };
    let mut end = DuelEnd {
        duel_id: d.id,
        winner: None,
        loser: None,
    };
    if let (Some(winner), Some(loser)) = (winner, loser) {
        let won = characters::modify(txn, characters::get(txn, winner).await?, |row| {
            row.arena_streak = row.arena_streak.saturating_add(1);
            Ok(())
        })
        .await?;
        let before = characters::get(txn, loser).await?;
        let lost = before.arena_streak;
        let beaten = characters::modify(txn, before, |row| {
            row.arena_streak = 0;
            Ok(())
        })
        .await?;
        end.winner = Some((won.name, won.arena_streak));
        end.loser = Some((beaten.name, lost));
    }
    let over = arena_duel::Entity::update_many()
        .col_expr(arena_duel::Column::Status, Expr::value(OVER))
        .col_expr(arena_duel::Column::WinnerId, Expr::value(winner))
        .col_expr(arena_duel::Column::EndedAt, Expr::value(now))
        .filter(arena_duel::Column::Id.eq(d.id));
    crate::access::execute(txn, &over).await?;
    Ok(Some(end))
}
