//! A campaign's homebrew: `homebrew`, one row per imported monster, item, spell or
//! status — its kind, its id (the normalised name), its name and its TOML entry as imported —
//! unique per `(campaign_id, kind, key)`, so importing the same file twice changes nothing and
//! two guilds' homebrew never meet.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

const UNIQUE_ENTRY: &str = "ux_homebrew_campaign_kind_key";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Homebrew::Table)
                    .if_not_exists()
                    .col(
                        ColumnDef::new(Homebrew::Id)
                            .big_integer()
                            .not_null()
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(Homebrew::CampaignId).big_integer().not_null())
                    .col(ColumnDef::new(Homebrew::Kind).string().not_null())
                    .col(ColumnDef::new(Homebrew::Key).string().not_null())
                    .col(ColumnDef::new(Homebrew::Name).string().not_null())
                    .col(ColumnDef::new(Homebrew::Body).text().not_null())
                    .col(
                        ColumnDef::new(Homebrew::UpdatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .from(Homebrew::Table, Homebrew::CampaignId)
                            .to(Campaigns::Table, Campaigns::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name(UNIQUE_ENTRY)
                    .table(Homebrew::Table)
                    .col(Homebrew::CampaignId)
                    .col(Homebrew::Kind)
                    .col(Homebrew::Key)
                    .unique()
                    .if_not_exists()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(Homebrew::Table).if_exists().to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum Homebrew {
    Table,
    Id,
    CampaignId,
    Kind,
    Key,
    Name,
    Body,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum Campaigns {
    Table,
    Id,
}
