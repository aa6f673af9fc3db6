//! The first schema: campaigns, characters, expeditions, combats and what hangs off them
//! (seed 000 §7.4 death saves, §9 turn resources, readied actions and hospital records),
//! the append-only combat event log, and timers.
//!
//! Conventions: Discord snowflakes are text; times are `TIMESTAMP WITH TIME ZONE` (text on
//! SQLite); JSON columns hold content the engine owns; the combat state and the event log
//! are text, exactly as the engine serialized them, so a replay compares bytes.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::{
    big_integer, big_integer_null, big_pk_auto, boolean, integer, integer_null, json, string, string_null, text,
    timestamp_with_time_zone, timestamp_with_time_zone_null,
};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in tables() {
            manager.create_table(table).await?;
        }
        for index in indexes() {
            manager.create_index(index).await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // Children first, so no foreign key is left dangling.
        let names = [
            Timers::Table.into_iden(),
            CombatEvents::Table.into_iden(),
            Debts::Table.into_iden(),
            HospitalRecords::Table.into_iden(),
            DeathSaveStates::Table.into_iden(),
            ReadiedActions::Table.into_iden(),
            TurnResources::Table.into_iden(),
            Combatants::Table.into_iden(),
            Combats::Table.into_iden(),
            Expeditions::Table.into_iden(),
            Characters::Table.into_iden(),
            Campaigns::Table.into_iden(),
        ];
        for name in names {
            manager
                .drop_table(Table::drop().table(name).if_exists().to_owned())
                .await?;
        }
        Ok(())
    }
}

/// A foreign key from `from.0.from.1` to `to.0.to.1`; deleting the parent deletes or
/// detaches the child as `on_delete` says.
fn fk(
    name: &str,
    from: (impl IntoIden, impl IntoIden),
    to: (impl IntoIden, impl IntoIden),
    on_delete: ForeignKeyAction,
) -> ForeignKeyCreateStatement {
    ForeignKey::create()
        .name(name)
        .from(from.0, from.1)
        .to(to.0, to.1)
        .on_delete(on_delete)
        .on_update(ForeignKeyAction::Cascade)
        .to_owned()
}

fn create(table: impl IntoIden + 'static) -> TableCreateStatement {
    Table::create().table(table).if_not_exists().to_owned()
}

#[allow(clippy::too_many_lines, reason = "the first schema, one table after another")]
fn tables() -> Vec<TableCreateStatement> {
    use ForeignKeyAction::{Cascade, SetNull};
    vec![
        // One per Discord server by default, or one per channel inside it.
        create(Campaigns::Table)
            .col(big_pk_auto(Campaigns::Id))
            .col(string(Campaigns::GuildId))
            .col(string_null(Campaigns::ChannelId))
            .col(string(Campaigns::Ruleset).default("gogobee"))
            .col(integer(Campaigns::ReactionTimeoutSecs).default(30))
            .col(integer_null(Campaigns::TurnTimeoutSecs))
            .col(timestamp_with_time_zone(Campaigns::CreatedAt))
            .to_owned(),
        // One per player per campaign.
        create(Characters::Table)
            .col(big_pk_auto(Characters::Id))
            .col(big_integer(Characters::CampaignId))
            .col(string(Characters::PlayerId))
            .col(string(Characters::Name))
            .col(string(Characters::Race))
            .col(string(Characters::Class))
            .col(integer(Characters::Level).default(1))
            .col(integer(Characters::Xp).default(0))
            .col(big_integer(Characters::Coins).default(0))
            .col(integer(Characters::Hp))
            .col(integer(Characters::MaxHp))
            .col(string_null(Characters::Weapon))
            .col(string_null(Characters::OffHand))
            .col(string_null(Characters::Armor))
            .col(string_null(Characters::Shield))
            .col(json(Characters::Inventory))
            .col(json(Characters::Gear))
            .col(integer(Characters::ArenaStreak).default(0))
            .col(string_null(Characters::Pet))
            .col(string_null(Characters::Housing))
            .col(timestamp_with_time_zone(Characters::CreatedAt))
            .foreign_key(&mut fk(
                "fk_characters_campaign",
                (Characters::Table, Characters::CampaignId),
                (Campaigns::Table, Campaigns::Id),
                Cascade,
            ))
            .to_owned(),
        // A run through one zone; rooms are the unit of exploration (seed 000 §3.4).
        create(Expeditions::Table)
            .col(big_pk_auto(Expeditions::Id))
            .col(big_integer(Expeditions::CharacterId))
            .col(string(Expeditions::Zone))
            .col(integer(Expeditions::Room).default(0))
            // active | completed | abandoned | left
            .col(string(Expeditions::Status).default("active"))
            .col(json(Expeditions::HarvestedMaterials))
            .col(timestamp_with_time_zone(Expeditions::StartedAt))
            .col(timestamp_with_time_zone_null(Expeditions::EndedAt))
            .foreign_key(&mut fk(
                "fk_expeditions_character",
                (Expeditions::Table, Expeditions::CharacterId),
                (Characters::Table, Characters::Id),
                Cascade,
            ))
            .to_owned(),
        // A fight: the engine's state as text, guarded by `version` (optimistic concurrency).
        create(Combats::Table)
            .col(big_pk_auto(Combats::Id))
            .col(big_integer(Combats::CampaignId))
            .col(string(Combats::ChannelId))
            .col(big_integer_null(Combats::ExpeditionId))
            .col(string(Combats::Status).default("active"))
            .col(big_integer(Combats::Seed))
            .col(text(Combats::State))
            .col(big_integer(Combats::Version).default(0))
            .col(timestamp_with_time_zone(Combats::CreatedAt))
            .col(timestamp_with_time_zone(Combats::UpdatedAt))
            .foreign_key(&mut fk(
                "fk_combats_campaign",
                (Combats::Table, Combats::CampaignId),
                (Campaigns::Table, Campaigns::Id),
                Cascade,
            ))
            .foreign_key(&mut fk(
                "fk_combats_expedition",
                (Combats::Table, Combats::ExpeditionId),
                (Expeditions::Table, Expeditions::Id),
                SetNull,
            ))
            .to_owned(),
        // Who is in a fight, in the engine's combatant order.
        create(Combatants::Table)
            .col(big_integer(Combatants::CombatId))
            .col(integer(Combatants::CombatantIndex))
            .col(big_integer_null(Combatants::CharacterId))
            .col(string_null(Combatants::Monster))
            .col(string(Combatants::Name))
            .primary_key(
                Index::create()
                    .col(Combatants::CombatId)
                    .col(Combatants::CombatantIndex),
            )
            .foreign_key(&mut fk(
                "fk_combatants_combat",
                (Combatants::Table, Combatants::CombatId),
                (Combats::Table, Combats::Id),
                Cascade,
            ))
            .foreign_key(&mut fk(
                "fk_combatants_character",
                (Combatants::Table, Combatants::CharacterId),
                (Characters::Table, Characters::Id),
                SetNull,
            ))
            .to_owned(),
        // Seed 000 §9 `TurnResources`, one row per combatant.
        create(TurnResources::Table)
            .col(big_integer(TurnResources::CombatId))
            .col(integer(TurnResources::CombatantIndex))
            .col(boolean(TurnResources::ActionUsed).default(false))
            .col(boolean(TurnResources::BonusUsed).default(false))
            .col(boolean(TurnResources::ReactionUsed).default(false))
            .col(integer(TurnResources::MovementUsed).default(0))
            .col(integer(TurnResources::MovementTotal).default(0))
            .primary_key(
                Index::create()
                    .col(TurnResources::CombatId)
                    .col(TurnResources::CombatantIndex),
            )
            .foreign_key(&mut fk(
                "fk_turn_resources_combat",
                (TurnResources::Table, TurnResources::CombatId),
                (Combats::Table, Combats::Id),
                Cascade,
            ))
            .to_owned(),
        // Seed 000 §9 `ReadiedAction`; `expires_at` is an initiative count, not a time.
        create(ReadiedActions::Table)
            .col(big_pk_auto(ReadiedActions::Id))
            .col(big_integer(ReadiedActions::CombatId))
            .col(integer(ReadiedActions::CombatantIndex))
            .col(string(ReadiedActions::Action))
            .col(text(ReadiedActions::TriggerDesc))
            .col(integer(ReadiedActions::ExpiresAt))
            .col(boolean(ReadiedActions::Fired).default(false))
            .foreign_key(&mut fk(
                "fk_readied_actions_combat",
                (ReadiedActions::Table, ReadiedActions::CombatId),
                (Combats::Table, Combats::Id),
                Cascade,
            ))
            .to_owned(),
        // Seed 000 §7.4 `DeathSaveState`, one row per downed character per combat.
        create(DeathSaveStates::Table)
            .col(big_integer(DeathSaveStates::CombatId))
            .col(big_integer(DeathSaveStates::CharacterId))
            .col(string(DeathSaveStates::PlayerId))
            .col(boolean(DeathSaveStates::Downed).default(false))
            .col(integer(DeathSaveStates::Successes).default(0))
            .col(integer(DeathSaveStates::Failures).default(0))
            .col(boolean(DeathSaveStates::Stabilized).default(false))
            .col(timestamp_with_time_zone(DeathSaveStates::UpdatedAt))
            .primary_key(
                Index::create()
                    .col(DeathSaveStates::CombatId)
                    .col(DeathSaveStates::CharacterId),
            )
            .foreign_key(&mut fk(
                "fk_death_save_states_combat",
                (DeathSaveStates::Table, DeathSaveStates::CombatId),
                (Combats::Table, Combats::Id),
                Cascade,
            ))
            .foreign_key(&mut fk(
                "fk_death_save_states_character",
                (DeathSaveStates::Table, DeathSaveStates::CharacterId),
                (Characters::Table, Characters::Id),
                Cascade,
            ))
            .to_owned(),
        // Seed 000 §9 `HospitalRecord`; `death_saves` is the §7.4 state at death, as JSON.
        create(HospitalRecords::Table)
            .col(big_pk_auto(HospitalRecords::Id))
            .col(big_integer(HospitalRecords::CharacterId))
            .col(string(HospitalRecords::PlayerId))
            .col(timestamp_with_time_zone(HospitalRecords::AdmittedAt))
            .col(big_integer(HospitalRecords::Fee))
            .col(boolean(HospitalRecords::FeePaid).default(false))
            .col(timestamp_with_time_zone_null(HospitalRecords::PaidAt))
            .col(timestamp_with_time_zone_null(HospitalRecords::RecoveryEnds))
            .col(string(HospitalRecords::ZoneDiedIn))
            .col(big_integer_null(HospitalRecords::ExpeditionId))
            .col(json(HospitalRecords::DeathSaves))
            .foreign_key(&mut fk(
                "fk_hospital_records_character",
                (HospitalRecords::Table, HospitalRecords::CharacterId),
                (Characters::Table, Characters::Id),
                Cascade,
            ))
            .foreign_key(&mut fk(
                "fk_hospital_records_expedition",
                (HospitalRecords::Table, HospitalRecords::ExpeditionId),
                (Expeditions::Table, Expeditions::Id),
                SetNull,
            ))
            .to_owned(),
        // Seed 000 §8.3: a hospital fee the character could not pay is deferred as debt.
        create(Debts::Table)
            .col(big_pk_auto(Debts::Id))
            .col(big_integer(Debts::CharacterId))
            .col(big_integer_null(Debts::HospitalRecordId))
            .col(big_integer(Debts::Amount))
            .col(timestamp_with_time_zone(Debts::CreatedAt))
            .col(timestamp_with_time_zone_null(Debts::PaidAt))
            .foreign_key(&mut fk(
                "fk_debts_character",
                (Debts::Table, Debts::CharacterId),
                (Characters::Table, Characters::Id),
                Cascade,
            ))
            .foreign_key(&mut fk(
                "fk_debts_hospital_record",
                (Debts::Table, Debts::HospitalRecordId),
                (HospitalRecords::Table, HospitalRecords::Id),
                SetNull,
            ))
            .to_owned(),
        // Append-only: one row per applied command; `seq` is the combat's version after it.
        create(CombatEvents::Table)
            .col(big_integer(CombatEvents::CombatId))
            .col(big_integer(CombatEvents::Seq))
            .col(text(CombatEvents::Command))
            .col(text(CombatEvents::Events))
            .col(timestamp_with_time_zone(CombatEvents::CreatedAt))
            .primary_key(Index::create().col(CombatEvents::CombatId).col(CombatEvents::Seq))
            .foreign_key(&mut fk(
                "fk_combat_events_combat",
                (CombatEvents::Table, CombatEvents::CombatId),
                (Combats::Table, Combats::Id),
                Cascade,
            ))
            .to_owned(),
        // Runtime timers as data: one task sleeps until the earliest unfired `due_at`.
        create(Timers::Table)
            .col(big_pk_auto(Timers::Id))
            .col(string(Timers::Kind))
            .col(timestamp_with_time_zone(Timers::DueAt))
            .col(json(Timers::Payload))
            .col(string_null(Timers::ClaimedBy))
            .col(timestamp_with_time_zone_null(Timers::ClaimedAt))
            .col(timestamp_with_time_zone_null(Timers::FiredAt))
            .to_owned(),
    ]
}

fn indexes() -> Vec<IndexCreateStatement> {
    vec![
        // A guild has at most one guild-wide campaign (channel_id NULL) ...
        Index::create()
            .name("ux_campaigns_guild_wide")
            .table(Campaigns::Table)
            .col(Campaigns::GuildId)
            .unique()
            .and_where(Expr::col(Campaigns::ChannelId).is_null())
            .if_not_exists()
            .to_owned(),
        // ... and at most one campaign per channel.
        Index::create()
            .name("ux_campaigns_guild_channel")
            .table(Campaigns::Table)
            .col(Campaigns::GuildId)
            .col(Campaigns::ChannelId)
            .unique()
            .if_not_exists()
            .to_owned(),
        Index::create()
            .name("ux_characters_campaign_player")
            .table(Characters::Table)
            .col(Characters::CampaignId)
            .col(Characters::PlayerId)
            .unique()
            .if_not_exists()
            .to_owned(),
        Index::create()
            .name("ix_expeditions_character")
            .table(Expeditions::Table)
            .col(Expeditions::CharacterId)
            .col(Expeditions::Status)
            .if_not_exists()
            .to_owned(),
        Index::create()
            .name("ix_combats_campaign_channel")
            .table(Combats::Table)
            .col(Combats::CampaignId)
            .col(Combats::ChannelId)
            .col(Combats::Status)
            .if_not_exists()
            .to_owned(),
        Index::create()
            .name("ix_readied_actions_combat")
            .table(ReadiedActions::Table)
            .col(ReadiedActions::CombatId)
            .col(ReadiedActions::CombatantIndex)
            .if_not_exists()
            .to_owned(),
        Index::create()
            .name("ix_hospital_records_character")
            .table(HospitalRecords::Table)
            .col(HospitalRecords::CharacterId)
            .if_not_exists()
            .to_owned(),
        Index::create()
            .name("ix_debts_character")
            .table(Debts::Table)
            .col(Debts::CharacterId)
            .if_not_exists()
            .to_owned(),
        Index::create()
            .name("ix_timers_due_at")
            .table(Timers::Table)
            .col(Timers::DueAt)
            .if_not_exists()
            .to_owned(),
    ]
}

#[derive(DeriveIden)]
enum Campaigns {
    Table,
    Id,
    GuildId,
    ChannelId,
    Ruleset,
    ReactionTimeoutSecs,
    TurnTimeoutSecs,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Characters {
    Table,
    Id,
    CampaignId,
    PlayerId,
    Name,
    Race,
    Class,
    Level,
    Xp,
    Coins,
    Hp,
    MaxHp,
    Weapon,
    OffHand,
    Armor,
    Shield,
    Inventory,
    Gear,
    ArenaStreak,
    Pet,
    Housing,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Expeditions {
    Table,
    Id,
    CharacterId,
    Zone,
    Room,
    Status,
    HarvestedMaterials,
    StartedAt,
    EndedAt,
}

#[derive(DeriveIden)]
enum Combats {
    Table,
    Id,
    CampaignId,
    ChannelId,
    ExpeditionId,
    Status,
    Seed,
    State,
    Version,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum Combatants {
    Table,
    CombatId,
    CombatantIndex,
    CharacterId,
    Monster,
    Name,
}

#[derive(DeriveIden)]
enum TurnResources {
    Table,
    CombatId,
    CombatantIndex,
    ActionUsed,
    BonusUsed,
    ReactionUsed,
    MovementUsed,
    MovementTotal,
}

#[derive(DeriveIden)]
enum ReadiedActions {
    Table,
    Id,
    CombatId,
    CombatantIndex,
    Action,
    TriggerDesc,
    ExpiresAt,
    Fired,
}

#[derive(DeriveIden)]
enum DeathSaveStates {
    Table,
    CombatId,
    CharacterId,
    PlayerId,
    Downed,
    Successes,
    Failures,
    Stabilized,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum HospitalRecords {
    Table,
    Id,
    CharacterId,
    PlayerId,
    AdmittedAt,
    Fee,
    FeePaid,
    PaidAt,
    RecoveryEnds,
    ZoneDiedIn,
    ExpeditionId,
    DeathSaves,
}

#[derive(DeriveIden)]
enum Debts {
    Table,
    Id,
    CharacterId,
    HospitalRecordId,
    Amount,
    CreatedAt,
    PaidAt,
}

#[derive(DeriveIden)]
enum CombatEvents {
    Table,
    CombatId,
    Seq,
    Command,
    Events,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Timers {
    Table,
    Id,
    Kind,
    DueAt,
    Payload,
    ClaimedBy,
    ClaimedAt,
    FiredAt,
}
