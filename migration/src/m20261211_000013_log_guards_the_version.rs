//! The combat log guards a fight's version, and each entry names the timers pending after it
//! (a command writes its log entry, not the combat row).
//!
//! A command's write was its combat row's update (the version guard, the pending timers' ids)
//! and its log entry: two B-trees, three pages of SQLite's WAL with the log's index. Now the
//! entry's primary key `(combat_id, seq)` is the guard (`INSERT … ON CONFLICT DO NOTHING`: of
//! two commands that read one version, one inserts the next `seq`, the other inserts nothing),
//! and the entry carries `reaction_timer_id` / `turn_timer_id`, what the row held. The combat row
//! is written with each snapshot only. `down` drops the two columns; a fight written since is
//! then read as of its row (its latest snapshot's version), which `down` brings up to the log.
//!
//! The log stays a rowid table with its key's index on SQLite. As a `WITHOUT ROWID` table (one
//! B-tree, as measured) it wrote more, not less: its ≈ 400-byte entries, clustered by
//! fight, split their leaves every few commands (2.5 pages a command over 64 fights against
//! 1.7 for the rowid table and its index, whose rows append and whose entries are small).

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::ConnectionTrait;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for column in [CombatEvents::ReactionTimerId, CombatEvents::TurnTimerId] {
            if !manager.has_column("combat_events", &column.to_string()).await? {
                manager
                    .alter_table(
                        Table::alter()
                            .table(CombatEvents::Table)
                            .add_column(ColumnDef::new(column).big_integer().null())
                            .to_owned(),
                    )
                    .await?;
            }
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // The rows as the schema before this one reads them: each fight's version and pending
        // timers on its combat row, taken from its last log entry where that is newer.
        let db = manager.get_connection();
        for (column, from) in [
            ("reaction_timer_id", "reaction_timer_id"),
            ("turn_timer_id", "turn_timer_id"),
            ("version", "seq"),
        ] {
            let sql = format!(
                "UPDATE combats SET {column} = (SELECT e.{from} FROM combat_events e WHERE e.combat_id = combats.id \
                 ORDER BY e.seq DESC LIMIT 1) \
                 WHERE version < (SELECT max(e.seq) FROM combat_events e WHERE e.combat_id = combats.id)"
            );
            db.execute_unprepared(&sql).await?;
        }
        for column in [CombatEvents::ReactionTimerId, CombatEvents::TurnTimerId] {
            if manager.has_column("combat_events", &column.to_string()).await? {
                manager
                    .alter_table(Table::alter().table(CombatEvents::Table).drop_column(column).to_owned())
                    .await?;
            }
        }
        Ok(())
    }
}

#[derive(DeriveIden)]
enum CombatEvents {
    Table,
    ReactionTimerId,
    TurnTimerId,
}
