//! A command's write as SQL: its log entry, snapshot, combat row, denormalised rows and timers'
//! statements, rendered for one backend ([`Batch`]).

use std::sync::OnceLock;

use sea_orm::sea_query::{
    DeleteStatement, InsertStatement, OnConflict, PostgresQueryBuilder, Query, QueryStatementWriter,
    SqliteQueryBuilder, UpdateStatement, Value, inject_parameters,
};
use sea_orm::{ColumnTrait, DbBackend};

use crate::DateTimeUtc;
use crate::entity::{
    combat, combat_event, combat_snapshot, combatant, death_save_state, readied_action, timer, turn_resources,
};
use crate::group::{Prepared, Statements};

use super::live::to_micros;
use super::{Before, Live};

/// The statements of one command's write, rendered for one backend, and how many rows they
/// must touch between them.
pub(super) struct Batch {
    pub(super) backend: DbBackend,
    /// Each statement with its values, bound parameters in the backend's dialect (the group
    /// commit prepares each distinct statement once; a transaction of its own inlines them).
    pub(super) statements: Vec<Prepared>,
    pub(super) expected: u64,
}

/// A time as the log stores it: to the microsecond ([`to_micros`]), so PostgreSQL keeps it exactly.
pub(super) fn ts(now: DateTimeUtc) -> String {
    to_micros(now).to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
}

/// A time as a bound value: text on SQLite ([`ts`], as sqlx writes it there), a `timestamptz`
/// on PostgreSQL (a text parameter would not convert).
pub(super) fn at(backend: DbBackend, now: DateTimeUtc) -> sea_orm::sea_query::Value {
    match backend {
        DbBackend::Postgres => to_micros(now).into(),
        _ => ts(now).into(),
    }
}

impl Batch {
    pub(super) fn new(backend: DbBackend) -> Self {
        Self {
            backend,
            statements: Vec::new(),
            expected: 0,
        }
    }

    pub(super) fn push(&mut self, statement: &impl QueryStatementWriter, rows: u64) {
        let built = match self.backend {
            DbBackend::Postgres => statement.build(PostgresQueryBuilder),
            _ => statement.build(SqliteQueryBuilder),
        };
        self.statements.push(built);
        self.expected += rows;
    }

    /// Pushes a statement of a fixed shape: its SQL text rendered once ([`Rendered`]), `values`
    /// bound to it.
    pub(super) fn push_rendered<S: QueryStatementWriter>(
        &mut self,
        sql: &'static Rendered,
        values: Vec<Value>,
        rows: u64,
        statement: impl FnOnce(Vec<Value>) -> S,
    ) {
        let text = sql.text(self.backend, || statement(values.clone()));
        self.statements
            .push((text.to_owned(), sea_orm::sea_query::Values(values)));
        self.expected += rows;
    }

    /// A command's new fight timer's insert ([`Live::fight_timer`]), its id taken ahead.
    pub(super) fn push_timer(&mut self, row: timer::ActiveModel) {
        self.push_rendered(&TIMER_INSERT, timer_values(row), 1, timer_insert);
    }

    /// The fight's snapshot, `state` at `live`'s version, in place of the one before.
    pub(super) fn push_snapshot(&mut self, live: &Live, state: String) {
        let mut upsert = Query::insert();
        upsert
            .into_table(combat_snapshot::Entity)
            .columns([
                combat_snapshot::Column::CombatId,
                combat_snapshot::Column::Version,
                combat_snapshot::Column::State,
            ])
            .values_panic([live.id.into(), live.version.into(), state.into()])
            .on_conflict(
                OnConflict::column(combat_snapshot::Column::CombatId)
                    .update_columns([combat_snapshot::Column::Version, combat_snapshot::Column::State])
                    .to_owned(),
            );
        self.push(&upsert, 1);
    }

    /// The statements as one text with their values inlined, for one `execute_unprepared`.
    pub(super) fn inline(&self) -> String {
        self.inline_from(0)
    }

    /// [`Batch::inline`] of the statements from the `first` on.
    pub(super) fn inline_from(&self, first: usize) -> String {
        let texts: Vec<String> = self.statements[first..]
            .iter()
            .map(|(sql, values)| {
                if values.0.is_empty() {
                    sql.clone()
                } else if self.backend == DbBackend::Postgres {
                    inject_parameters(sql, &values.0, &PostgresQueryBuilder)
                } else {
                    inject_parameters(sql, &values.0, &SqliteQueryBuilder)
                }
            })
            .collect();
        texts.join(";\n")
    }

    pub(super) fn into_statements(self) -> Statements {
        Statements {
            statements: self.statements,
            expected: self.expected,
        }
    }

    /// The `combatants` rows of those who joined since `before`, and — with a snapshot
    /// (`snapshot`) — every denormalised row as `after` holds it: each combatant's turn
    /// resources, the readied actions (those stored replaced), each character's death saves.
    pub(super) fn rows(mut self, before: &Before, after: &Live, snapshot: bool, now: DateTimeUtc) -> Self {
        let id = after.id;
        let combatants = &after.combat.combatants;
        if combatants.len() > before.combatants {
            let mut insert = Query::insert();
            insert.into_table(combatant::Entity).columns([
                combatant::Column::CombatId,
                combatant::Column::CombatantIndex,
                combatant::Column::CharacterId,
                combatant::Column::Monster,
                combatant::Column::Name,
            ]);
            for (i, c) in combatants.iter().enumerate().skip(before.combatants) {
                let monster = c.monster_name().map(str::to_owned);
                insert.values_panic([
                    id.into(),
                    (i as i32).into(),
                    after.characters[i].into(),
                    monster.into(),
                    c.name.clone().into(),
                ]);
            }
            self.push(&insert, (combatants.len() - before.combatants) as u64);
        }
        if !snapshot {
            return self;
        }

        if !combatants.is_empty() {
            use turn_resources::Column as T;
            let mut upsert = Query::insert();
            upsert.into_table(turn_resources::Entity).columns([
                T::CombatId,
                T::CombatantIndex,
                T::ActionUsed,
                T::BonusUsed,
                T::ReactionUsed,
                T::MovementUsed,
                T::MovementTotal,
            ]);
            for (i, c) in combatants.iter().enumerate() {
                let r = c.resources;
                upsert.values_panic([
                    id.into(),
                    (i as i32).into(),
                    r.action_used.into(),
                    r.bonus_used.into(),
                    r.reaction_used.into(),
                    r.movement_used.into(),
                    r.movement_total.into(),
                ]);
            }
            upsert.on_conflict(
                OnConflict::columns([T::CombatId, T::CombatantIndex])
                    .update_columns([
                        T::ActionUsed,
                        T::BonusUsed,
                        T::ReactionUsed,
                        T::MovementUsed,
                        T::MovementTotal,
                    ])
                    .to_owned(),
            );
            self.push(&upsert, combatants.len() as u64);
        }

        if before.readied_rows > 0 {
            let mut delete = Query::delete();
            delete
                .from_table(readied_action::Entity)
                .and_where(readied_action::Column::CombatId.eq(id));
            self.push(&delete, before.readied_rows);
        }
        let readied: Vec<(usize, &engine::readied::ReadiedAction)> = combatants
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.readied.as_ref().map(|r| (i, r)))
            .collect();
        if !readied.is_empty() {
            use readied_action::Column as R;
            let mut insert = Query::insert();
            insert.into_table(readied_action::Entity).columns([
                R::CombatId,
                R::CombatantIndex,
                R::Action,
                R::TriggerDesc,
                R::ExpiresAt,
                R::Fired,
            ]);
            for &(i, r) in &readied {
                insert.values_panic([
                    id.into(),
                    (i as i32).into(),
                    r.action.describe().into(),
                    r.trigger_desc.clone().into(),
                    (r.expires_at as i32).into(),
                    r.fired.into(),
                ]);
            }
            self.push(&insert, readied.len() as u64);
        }

        let characters: Vec<usize> = (0..combatants.len())
            .filter(|&i| after.characters[i].is_some())
            .collect();
        if !characters.is_empty() {
            use death_save_state::Column as D;
            let mut upsert = Query::insert();
            upsert.into_table(death_save_state::Entity).columns([
                D::CombatId,
                D::CharacterId,
                D::PlayerId,
                D::Downed,
                D::Successes,
                D::Failures,
                D::Stabilized,
                D::UpdatedAt,
            ]);
            for &i in &characters {
                let c = &combatants[i];
                upsert.values_panic([
                    id.into(),
                    after.characters[i].into(),
                    c.player_id().unwrap_or_default().to_owned().into(),
                    c.death.downed.into(),
                    i32::from(c.death.successes).into(),
                    i32::from(c.death.failures).into(),
                    c.death.stabilized.into(),
                    at(self.backend, now).into(),
                ]);
            }
            upsert.on_conflict(
                OnConflict::columns([D::CombatId, D::CharacterId])
                    .update_columns([D::Downed, D::Successes, D::Failures, D::Stabilized, D::UpdatedAt])
                    .to_owned(),
            );
            self.push(&upsert, characters.len() as u64);
        }
        self
    }
}

/// The SQL text of a statement most commands run — their log entry, their timers' inserts and
/// deletions — for each backend, rendered by sea-query the first time it is needed: such a
/// statement differs from one command to the next in its values alone, and rendering it anew
/// each time was ≈ 7 % of a one-fight bench's time.
pub(super) struct Rendered([OnceLock<String>; 2]);

impl Rendered {
    pub(super) const fn new() -> Self {
        Self([OnceLock::new(), OnceLock::new()])
    }

    /// The text for `backend`, rendered from `statement` (its placeholders; the values it
    /// holds are not kept) if it has not been yet.
    pub(super) fn text<S: QueryStatementWriter>(
        &'static self,
        backend: DbBackend,
        statement: impl FnOnce() -> S,
    ) -> &'static str {
        let postgres = backend == DbBackend::Postgres;
        self.0[usize::from(postgres)].get_or_init(|| {
            if postgres {
                statement().build(PostgresQueryBuilder).0
            } else {
                statement().build(SqliteQueryBuilder).0
            }
        })
    }
}

pub(super) static LOG_ENTRY: Rendered = Rendered::new();
pub(super) static TIMER_INSERT: Rendered = Rendered::new();
pub(super) static TIMER_DELETE: Rendered = Rendered::new();

/// A log entry's insert (see [`Batch::record`]): `values` in the order of its columns.
pub(super) fn log_entry_insert(values: Vec<Value>) -> InsertStatement {
    let mut log = Query::insert();
    log.into_table(combat_event::Entity)
        .columns([
            combat_event::Column::CombatId,
            combat_event::Column::Seq,
            combat_event::Column::Command,
            combat_event::Column::Events,
            combat_event::Column::Packed,
            combat_event::Column::CreatedAt,
            combat_event::Column::ReactionTimerId,
            combat_event::Column::TurnTimerId,
        ])
        .values_panic(values.into_iter().map(Into::into))
        .on_conflict(
            OnConflict::columns([combat_event::Column::CombatId, combat_event::Column::Seq])
                .do_nothing()
                .to_owned(),
        );
    log
}

/// A command's new timer's insert, its id taken ahead: `values` in the order of
/// [`timer_values`].
pub(super) fn timer_insert(values: Vec<Value>) -> InsertStatement {
    let mut insert = Query::insert();
    insert
        .into_table(timer::Entity)
        .columns([
            timer::Column::Id,
            timer::Column::Kind,
            timer::Column::CampaignId,
            timer::Column::DueAt,
            timer::Column::Payload,
        ])
        .values_panic(values.into_iter().map(Into::into));
    insert
}

/// A retired timer's deletion: `values` holds its id.
pub(super) fn timer_delete(values: Vec<Value>) -> DeleteStatement {
    let mut delete = Query::delete();
    delete
        .from_table(timer::Entity)
        .and_where(timer::Column::Id.is_in(values));
    delete
}

/// The values of a fight's new timer ([`Live::fight_timer`]) for [`timer_insert`].
pub(super) fn timer_values(row: timer::ActiveModel) -> Vec<Value> {
    [
        row.id.into_value(),
        row.kind.into_value(),
        row.campaign_id.into_value(),
        row.due_at.into_value(),
        row.payload.into_value(),
    ]
    .into_iter()
    .map(|column| column.expect("a new timer's columns are all set"))
    .collect()
}

/// The combat row's update with a snapshot: its version and pending timers' ids as of it, and
/// the status and `updated_at` when the status changed (a fight ends with a snapshot).
///
/// Only with a snapshot: between them the log holds the version (its entry's key is the guard,
/// see [`Batch::record`]) and the timers' ids, so a command writes no page of the row. The
/// status and `updated_at` are indexed (`ix_combats_campaign_channel`, `ix_combats_finished`,
/// `ux_combats_active_channel`) and SQLite rewrites an index entry whenever its column is set,
/// to the same value or not: both are set only when the status changes. `updated_at` is what
/// retention reads of a finished fight: when it finished.
pub(super) fn combat_update(backend: DbBackend, before: &Before, after: &Live, now: DateTimeUtc) -> UpdateStatement {
    let mut update = Query::update();
    update
        .table(combat::Entity)
        .value(combat::Column::Version, after.version)
        .value(combat::Column::ReactionTimerId, after.window_token)
        .value(combat::Column::TurnTimerId, after.fight_timer);
    let status = after.status();
    if status != before.status {
        update
            .value(combat::Column::Status, status)
            .value(combat::Column::UpdatedAt, at(backend, now));
    }
    update.and_where(combat::Column::Id.eq(after.id));
    update
}

/// A command's statements: its log entry first (the version guard: the writers check that it
/// touched its row), the fight's snapshot and combat row when one is due, the denormalised rows
/// that changed, and the retired timers' deletion.
pub(super) fn statements(
    backend: DbBackend,
    before: &Before,
    after: &Live,
    packed: Vec<u8>,
    old_timers: &[i64],
    snapshot: bool,
    now: DateTimeUtc,
) -> Batch {
    Batch::new(backend).record(before, after, packed, old_timers, snapshot, now)
}

impl Batch {
    /// What a command adds besides the combat row: see [`statements`].
    pub(super) fn record(
        mut self,
        before: &Before,
        after: &Live,
        packed: Vec<u8>,
        old_timers: &[i64],
        snapshot: bool,
        now: DateTimeUtc,
    ) -> Self {
        // The version guard: of two commands that read one version, one inserts the next entry
        // and the other nothing (its write then touches a row fewer than it must). The command
        // and its events are packed (`combat_event::pack`); the JSON columns stay empty.
        let entry = vec![
            after.id.into(),
            after.version.into(),
            "".into(),
            "".into(),
            packed.into(),
            at(self.backend, now),
            after.window_token.into(),
            after.fight_timer.into(),
        ];
        self.push_rendered(&LOG_ENTRY, entry, 1, log_entry_insert);
        if snapshot {
            self.push(&combat_update(self.backend, before, after, now), 1);
            let state = serde_json::to_string(&after.stored()).expect("combat state serialises");
            self.push_snapshot(after, state);
        }
        let mut batch = self.rows(before, after, snapshot, now);
        for &old in old_timers {
            batch.push_rendered(&TIMER_DELETE, vec![old.into()], 1, timer_delete);
        }
        batch
    }
}
