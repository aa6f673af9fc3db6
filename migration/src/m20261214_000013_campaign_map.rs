//! The battlefield's picture on every turn, per campaign (`/campaign map every_turn|on_request`).
//!
//! `campaigns.map_every_turn`: when true, each message that passes the turn carries the
//! battlefield's picture; when false (the default, and every campaign before this migration)
//! the picture comes only with `/combat status` and `/combat map`.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::boolean;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if manager.has_column("campaigns", "map_every_turn").await? {
            return Ok(());
        }
        manager
            .alter_table(
                Table::alter()
                    .table(Campaigns::Table)
                    .add_column(boolean(Campaigns::MapEveryTurn).default(false))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Campaigns::Table)
                    .drop_column(Campaigns::MapEveryTurn)
                    .to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum Campaigns {
    Table,
    MapEveryTurn,
}
