//! Character life and the campaign's standings: names (unique in a campaign,
//! case-insensitively, trimmed, 2–32 printable characters, never only invisible ones, never a
//! monster's), `/character rename`, `/character retire` (asked, then confirmed by a button that
//! names the character's version), and `/leaderboard by:level|coins|streak`.
//!
//! A retired character stays in the campaign's records (fights, Hospital, ledger) but belongs to
//! no player any more: its `player_id` becomes `retired:<id>:<player>`, so the player may create
//! a new character, and the leaderboards leave it out. Its name stays taken.

use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use crate::entity::character::{self, Column, Entity as Character};
use crate::repo::characters;
use crate::settle::names::{check_name, free, name_race};
use crate::{Service, ServiceError};

pub use crate::settle::names::RETIRED;

/// How many a leaderboard shows.
pub const LEADERBOARD_SIZE: u64 = 10;

/// `/character retire`'s question, before the button.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetireAsked {
    pub character_id: i64,
    /// The version the button confirms: any change since voids it.
    pub version: i64,
    pub name: String,
    pub level: i32,
}

/// What a leaderboard ranks by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    Level,
    Coins,
    Streak,
}

/// One line of a leaderboard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ranked {
    pub name: String,
    pub player_id: String,
    pub level: i32,
    pub xp: i32,
    pub coins: i64,
    pub streak: i32,
}

impl Service {
    /// `/character rename name`: not during a fight (the fight knows them by name).
    pub async fn rename(
        &self,
        campaign_id: i64,
        player_id: &str,
        name: &str,
    ) -> Result<(String, String), ServiceError> {
        let name = check_name(name)?;
        let conn = self.db().conn();
        let row = Self::character_of(conn, campaign_id, player_id).await?;
        Self::not_fighting(conn, &row).await?;
        free(conn, campaign_id, &name, Some(row.id)).await?;
        let old = row.name.clone();
        let row = characters::modify(self.db(), row, |row| {
            row.name.clone_from(&name);
            Ok(())
        })
        .await
        .map_err(|e| name_race(e, &name))?;
        Ok((old, row.name))
    }

    /// The gate before retiring: not fighting, not out exploring, nothing owed to the Hospital.
    async fn may_retire<C: sea_orm::ConnectionTrait + crate::access::Access>(
        db: &C,
        row: &character::Model,
    ) -> Result<(), ServiceError> {
        Self::at_the_inn(db, row).await?;
        if let Some(record) = crate::settle::hospital::latest(db, row.id).await?
            && record.recovery_ends.is_none()
        {
            return Err(ServiceError::InHospital {
                name: row.name.clone(),
                fee: record.fee,
            });
        }
        if crate::settle::hospital::in_debt(db, row.id).await? {
            return Err(ServiceError::InvalidInput(format!(
                "{} owes the Hospital — /hospital pay clears the debt before the road is left for good.",
                row.name
            )));
        }
        Ok(())
    }

    /// `/character retire`: the question (the app shows it with a confirmation button).
    pub async fn retire_ask(&self, campaign_id: i64, player_id: &str) -> Result<RetireAsked, ServiceError> {
        let conn = self.db().conn();
        let row = Self::character_of(conn, campaign_id, player_id).await?;
        Self::may_retire(conn, &row).await?;
        Ok(RetireAsked {
            character_id: row.id,
            version: row.version,
            name: row.name,
            level: row.level,
        })
    }

    /// The confirmation button: retires the character if it is still the caller's and
    /// unchanged since the question ([`ServiceError::StaleButton`] otherwise). Returns its name.
    pub async fn retire_confirm(
        &self,
        campaign_id: i64,
        player_id: &str,
        character_id: i64,
        version: i64,
    ) -> Result<String, ServiceError> {
        let conn = self.db().conn();
        let row = Self::character_of(conn, campaign_id, player_id).await?;
        if row.id != character_id || row.version != version {
            return Err(ServiceError::StaleButton);
        }
        Self::may_retire(conn, &row).await?;
        let done = Character::update_many()
            .col_expr(
                Column::PlayerId,
                Expr::value(format!("{RETIRED}{}:{player_id}", row.id)),
            )
            .col_expr(Column::Version, Expr::value(row.version + 1))
            .filter(Column::Id.eq(row.id))
            .filter(Column::Version.eq(row.version))
            .filter(Column::PlayerId.eq(player_id))
            .exec(conn)
            .await?;
        if done.rows_affected != 1 {
            return Err(ServiceError::StaleButton);
        }
        // A retired character fights no duel: its open challenges go (and an offer whose
        // side has retired is refused anyway, `Service::arena_offer`).
        crate::settle::duel::void_challenges(conn, row.id, chrono::Utc::now()).await?;
        Ok(row.name)
    }

    /// `/arena top`: the campaign's win streaks, as `/leaderboard by:streak` ranks them.
    pub async fn arena_top(&self, campaign_id: i64) -> Result<Vec<Ranked>, ServiceError> {
        self.leaderboard(campaign_id, Standing::Streak).await
    }

    /// `/leaderboard by`: the campaign's top characters (retired ones left out).
    pub async fn leaderboard(&self, campaign_id: i64, by: Standing) -> Result<Vec<Ranked>, ServiceError> {
        let mut q = Character::find()
            .filter(Column::CampaignId.eq(campaign_id))
            .filter(Column::PlayerId.not_like(format!("{RETIRED}%")));
        q = match by {
            Standing::Level => q.order_by_desc(Column::Level).order_by_desc(Column::Xp),
            Standing::Coins => q.order_by_desc(Column::Coins),
            Standing::Streak => q.order_by_desc(Column::ArenaStreak),
        };
        let rows = q
            .order_by_asc(Column::Id)
            .limit(LEADERBOARD_SIZE)
            .all(self.db().conn())
            .await?;
        Ok(rows
            .into_iter()
            .map(|r| Ranked {
                name: r.name,
                player_id: r.player_id,
                level: r.level,
                xp: r.xp,
                coins: r.coins,
                streak: r.arena_streak,
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::check_name;

    #[test]
    fn names_are_trimmed_printable_two_to_thirty_two_and_no_monsters() {
        assert_eq!(check_name("  Aria  ").unwrap(), "Aria");
        assert_eq!(check_name("Bo").unwrap(), "Bo");
        assert_eq!(check_name(&"x".repeat(32)).unwrap().len(), 32);
        for bad in [
            "A",
            " ",
            "",
            "\u{200B}\u{200B}\u{200B}",
            "Ar\u{200D}ia",
            "Ar\nia",
            &"x".repeat(33),
        ] {
            assert!(check_name(bad).is_err(), "{bad:?} refused");
        }
        let e = check_name("Goblin 2").unwrap_err().to_string();
        assert!(e.contains("a Goblin in a fight"), "{e}");
        assert!(check_name("goblin").is_err());
        assert_eq!(check_name("Goblin King").unwrap(), "Goblin King");
    }
}
