//! Write what happened, not the whole fight. A command appends its log row
//! (`combat_events`) and bumps `combats.version`; the fight's whole state is written only now
//! and then, as a snapshot: `combat_snapshots` holds each fight's latest one (the state at
//! `version`), and loading a fight re-applies the logged commands after it. The ids of the
//! fight's pending timers, which a command may change without a snapshot, move to
//! `combats.reaction_timer_id` / `combats.turn_timer_id`.
//!
//! Fights stored before: each fight's `combats.state` (its whole state at `combats.version`)
//! becomes its snapshot, its timers' ids are read from it, and `combats.state` is emptied (it
//! keeps only a compacted fight's summary). `combats.initial_state`, which `combat_starts`
//! duplicates, is copied there where missing and cleared. The backfill parses in Rust, so it
//! stays backend-neutral.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::big_integer_null;
use sea_orm_migration::sea_orm::{ConnectionTrait, JsonValue};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(CombatSnapshots::Table)
                    .if_not_exists()
                    .col(
                        ColumnDef::new(CombatSnapshots::CombatId)
                            .big_integer()
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(CombatSnapshots::Version).big_integer().not_null())
                    .col(ColumnDef::new(CombatSnapshots::State).text().not_null())
                    .to_owned(),
            )
            .await?;
        for column in [Combats::ReactionTimerId, Combats::TurnTimerId] {
            if !manager.has_column("combats", &column.to_string()).await? {
                manager
                    .alter_table(
                        Table::alter()
                            .table(Combats::Table)
                            .add_column(big_integer_null(column))
                            .to_owned(),
                    )
                    .await?;
            }
        }
        backfill(manager).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for column in [Combats::TurnTimerId, Combats::ReactionTimerId] {
            manager
                .alter_table(Table::alter().table(Combats::Table).drop_column(column).to_owned())
                .await?;
        }
        manager
            .drop_table(Table::drop().table(CombatSnapshots::Table).if_exists().to_owned())
            .await
    }
}

/// Every fight stored whole (`combats.state` not empty, not compacted) gets its snapshot.
async fn backfill(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    let conn = manager.get_connection();
    let query = Query::select()
        .columns([Combats::Id, Combats::Version, Combats::State, Combats::InitialState])
        .from(Combats::Table)
        .and_where(Expr::col(Combats::CompactedAt).is_null())
        .and_where(Expr::col(Combats::State).ne(""))
        .to_owned();
    for row in conn.query_all(&query).await? {
        let id: i64 = row.try_get("", "id")?;
        let version: i64 = row.try_get("", "version")?;
        let state: String = row.try_get("", "state")?;
        let initial: Option<String> = row.try_get("", "initial_state")?;
        let parsed: JsonValue = state
            .parse()
            .map_err(|err| DbErr::Migration(format!("combat {id} has an unreadable state: {err}")))?;
        let timer = |key: &str| parsed.get(key).and_then(JsonValue::as_i64);
        let snapshot = Query::insert()
            .into_table(CombatSnapshots::Table)
            .columns([
                CombatSnapshots::CombatId,
                CombatSnapshots::Version,
                CombatSnapshots::State,
            ])
            .values_panic([id.into(), version.into(), state.clone().into()])
            .on_conflict(OnConflict::column(CombatSnapshots::CombatId).do_nothing().to_owned())
            .to_owned();
        conn.execute(&snapshot).await?;
        if let Some(initial) = initial {
            let start = Query::insert()
                .into_table(CombatStarts::Table)
                .columns([CombatStarts::CombatId, CombatStarts::State])
                .values_panic([id.into(), initial.into()])
                .on_conflict(OnConflict::column(CombatStarts::CombatId).do_nothing().to_owned())
                .to_owned();
            conn.execute(&start).await?;
        }
        let update = Query::update()
            .table(Combats::Table)
            .value(Combats::State, "")
            .value(Combats::InitialState, Option::<String>::None)
            .value(Combats::ReactionTimerId, timer("reaction_timer"))
            .value(Combats::TurnTimerId, timer("turn_timer"))
            .and_where(Expr::col(Combats::Id).eq(id))
            .to_owned();
        conn.execute(&update).await?;
    }
    Ok(())
}

#[derive(DeriveIden, Clone, Copy)]
enum Combats {
    Table,
    Id,
    Version,
    State,
    InitialState,
    CompactedAt,
    ReactionTimerId,
    TurnTimerId,
}

#[derive(DeriveIden)]
enum CombatSnapshots {
    Table,
    CombatId,
    Version,
    State,
}

#[derive(DeriveIden)]
enum CombatStarts {
    Table,
    CombatId,
    State,
}
