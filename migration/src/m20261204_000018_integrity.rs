//! Nothing lost, nothing doubled outside a fight.
//!
//! - `characters.version`: bumped by every write to a character, which names the version it
//!   read (`WHERE id = ? AND version = ?`), as combats do: of two writers that read the same
//!   row, one wins and the other re-reads; no update is lost.
//! - "Only one" in the schema, so PostgreSQL (READ COMMITTED: two transactions can both check
//!   and both insert) refuses the second insert as SQLite's `BEGIN IMMEDIATE` would:
//!   `ux_expeditions_active_character` (one active expedition per character),
//!   `ux_debts_hospital_record` (one debt per admission), `timers.unique_key` with
//!   `ux_timers_unique_key` (one recovery rest per admission: its key is
//!   `recovery_rest:<record id>`). Rows the old races doubled are folded first (the newest
//!   active expedition stays active, the others are marked `left`; the first debt of a record
//!   stays), so the indexes can be built on an upgraded database.
//! - Indexed look-ups for per-character commands: `ix_characters_campaign_name` on
//!   `(campaign_id, lower(name))` (`/gm hp` out of combat finds a character without reading the
//!   campaign's), `ix_combatants_character` and `ix_death_save_states_character` ("is this
//!   character fighting?"), and `ix_combats_finished` on `(status, updated_at)` for retention.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::{big_integer, string_null};
use sea_orm_migration::sea_orm::ConnectionTrait;

#[derive(DeriveMigrationName)]
pub struct Migration;

const ACTIVE_EXPEDITION: &str = "ux_expeditions_active_character";
const DEBT_PER_RECORD: &str = "ux_debts_hospital_record";
const TIMER_KEY: &str = "ux_timers_unique_key";
const CHARACTER_NAME: &str = "ix_characters_campaign_name";
const COMBATANT_CHARACTER: &str = "ix_combatants_character";
const DEATH_SAVE_CHARACTER: &str = "ix_death_save_states_character";
const COMBATS_FINISHED: &str = "ix_combats_finished";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if !manager.has_column("characters", "version").await? {
            manager
                .alter_table(
                    Table::alter()
                        .table(Characters::Table)
                        .add_column(big_integer(Characters::Version).default(0))
                        .to_owned(),
                )
                .await?;
        }
        if !manager.has_column("timers", "unique_key").await? {
            manager
                .alter_table(
                    Table::alter()
                        .table(Timers::Table)
                        .add_column(string_null(Timers::UniqueKey))
                        .to_owned(),
                )
                .await?;
        }
        fold_doubles(manager).await?;
        for index in indexes() {
            manager.create_index(index).await?;
        }
        // sea-query cannot write an index on an expression for SQLite; this text is the same
        // SQL on both backends (SQLite ≥ 3.9 and PostgreSQL index expressions alike).
        manager
            .get_connection()
            .execute_unprepared(&format!(
                "CREATE INDEX IF NOT EXISTS {CHARACTER_NAME} ON characters (campaign_id, lower(name))"
            ))
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let tables = [
            (ACTIVE_EXPEDITION, Expeditions::Table.into_iden()),
            (DEBT_PER_RECORD, Debts::Table.into_iden()),
            (TIMER_KEY, Timers::Table.into_iden()),
            (CHARACTER_NAME, Characters::Table.into_iden()),
            (COMBATANT_CHARACTER, Combatants::Table.into_iden()),
            (DEATH_SAVE_CHARACTER, DeathSaveStates::Table.into_iden()),
            (COMBATS_FINISHED, Combats::Table.into_iden()),
        ];
        for (name, table) in tables {
            manager
                .drop_index(Index::drop().name(name).table(table).if_exists().to_owned())
                .await?;
        }
        manager
            .alter_table(
                Table::alter()
                    .table(Timers::Table)
                    .drop_column(Timers::UniqueKey)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Characters::Table)
                    .drop_column(Characters::Version)
                    .to_owned(),
            )
            .await
    }
}

/// Folds what the check-then-insert races doubled, so the unique indexes can be built.
async fn fold_doubles(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    let db = manager.get_connection();
    // Per character, the newest active expedition stays active; older ones were left.
    let newest = Query::select()
        .expr(Expr::col(Expeditions::Id).max())
        .from(Expeditions::Table)
        .and_where(Expr::col(Expeditions::Status).eq("active"))
        .group_by_col(Expeditions::CharacterId)
        .to_owned();
    let older = Query::update()
        .table(Expeditions::Table)
        .value(Expeditions::Status, "left")
        .and_where(Expr::col(Expeditions::Status).eq("active"))
        .and_where(Expr::col(Expeditions::Id).not_in_subquery(newest))
        .to_owned();
    db.execute(&older).await?;
    // Per admission, the first debt stays; the copies were never owed.
    let first = Query::select()
        .expr(Expr::col(Debts::Id).min())
        .from(Debts::Table)
        .and_where(Expr::col(Debts::HospitalRecordId).is_not_null())
        .group_by_col(Debts::HospitalRecordId)
        .to_owned();
    let copies = Query::delete()
        .from_table(Debts::Table)
        .and_where(Expr::col(Debts::HospitalRecordId).is_not_null())
        .and_where(Expr::col(Debts::Id).not_in_subquery(first))
        .to_owned();
    db.execute(&copies).await?;
    Ok(())
}

fn indexes() -> Vec<IndexCreateStatement> {
    vec![
        Index::create()
            .name(ACTIVE_EXPEDITION)
            .table(Expeditions::Table)
            .col(Expeditions::CharacterId)
            .unique()
            .and_where(Expr::col(Expeditions::Status).eq("active"))
            .if_not_exists()
            .to_owned(),
        Index::create()
            .name(DEBT_PER_RECORD)
            .table(Debts::Table)
            .col(Debts::HospitalRecordId)
            .unique()
            .and_where(Expr::col(Debts::HospitalRecordId).is_not_null())
            .if_not_exists()
            .to_owned(),
        Index::create()
            .name(TIMER_KEY)
            .table(Timers::Table)
            .col(Timers::UniqueKey)
            .unique()
            .and_where(Expr::col(Timers::UniqueKey).is_not_null())
            .if_not_exists()
            .to_owned(),
        Index::create()
            .name(COMBATANT_CHARACTER)
            .table(Combatants::Table)
            .col(Combatants::CharacterId)
            .if_not_exists()
            .to_owned(),
        Index::create()
            .name(DEATH_SAVE_CHARACTER)
            .table(DeathSaveStates::Table)
            .col(DeathSaveStates::CharacterId)
            .if_not_exists()
            .to_owned(),
        Index::create()
            .name(COMBATS_FINISHED)
            .table(Combats::Table)
            .col(Combats::Status)
            .col(Combats::UpdatedAt)
            .if_not_exists()
            .to_owned(),
    ]
}

#[derive(DeriveIden)]
enum Characters {
    Table,
    Version,
}

#[derive(DeriveIden)]
enum Timers {
    Table,
    UniqueKey,
}

#[derive(DeriveIden)]
enum Expeditions {
    Table,
    Id,
    CharacterId,
    Status,
}

#[derive(DeriveIden)]
enum Debts {
    Table,
    Id,
    HospitalRecordId,
}

#[derive(DeriveIden)]
enum Combatants {
    Table,
    CharacterId,
}

#[derive(DeriveIden)]
enum DeathSaveStates {
    Table,
    CharacterId,
}

#[derive(DeriveIden)]
enum Combats {
    Table,
    Status,
    UpdatedAt,
}
