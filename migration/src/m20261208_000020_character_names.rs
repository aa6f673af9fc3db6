//! A character's name is unique in its campaign, case-insensitively:
//! `ux_characters_campaign_name` on `(campaign_id, lower(name))` replaces the plain index of the
//! same columns, so two racing creates or renames cannot both take a name (PostgreSQL's READ
//! COMMITTED lets both check). Names an older database doubled are folded first: every later
//! holder of a name gets its id appended ("Aria (7)"); the first keeps it.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::ConnectionTrait;

#[derive(DeriveMigrationName)]
pub struct Migration;

const UNIQUE_NAME: &str = "ux_characters_campaign_name";
const PLAIN_NAME: &str = "ix_characters_campaign_name";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        // The same SQL on both backends (`||`, `CAST(… AS TEXT)`, `lower`, index expressions).
        db.execute_unprepared(
            "UPDATE characters SET name = name || ' (' || CAST(id AS TEXT) || ')' WHERE EXISTS (\
             SELECT 1 FROM characters AS first WHERE first.campaign_id = characters.campaign_id \
             AND lower(first.name) = lower(characters.name) AND first.id < characters.id)",
        )
        .await?;
        db.execute_unprepared(&format!(
            "CREATE UNIQUE INDEX IF NOT EXISTS {UNIQUE_NAME} ON characters (campaign_id, lower(name))"
        ))
        .await?;
        db.execute_unprepared(&format!("DROP INDEX IF EXISTS {PLAIN_NAME}"))
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared(&format!(
            "CREATE INDEX IF NOT EXISTS {PLAIN_NAME} ON characters (campaign_id, lower(name))"
        ))
        .await?;
        db.execute_unprepared(&format!("DROP INDEX IF EXISTS {UNIQUE_NAME}"))
            .await?;
        Ok(())
    }
}
