//! One entry of a campaign's homebrew: a monster, item, spell or status as its TOML.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel, serde::Deserialize)]
#[sea_orm(table_name = "homebrew")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub campaign_id: i64,
    /// `monster`, `item`, `spell` or `status` (the TOML table it came in).
    pub kind: String,
    /// The entry's id: its normalised name.
    pub key: String,
    pub name: String,
    /// The entry as TOML (`[[monster]]` and its fields).
    pub body: String,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
