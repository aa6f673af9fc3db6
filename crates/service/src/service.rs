//! The [`Service`]: one function per player or GM command. Each takes ids and plain
//! arguments plus `now` (time is an input), loads what it needs, calls the engine, saves,
//! and returns what happened for the renderer.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use engine::{Combat, Dice, Event};

use crate::group::GroupCommitCounts;
use crate::notice::Notice;
use crate::store::{Live, Store};
use crate::{DateTimeUtc, Db, ServiceError, Shards};

/// GogoBee's service layer over one database.
///
/// Cheap to clone (the clones share the database pool and the cache of active combats).
/// Two `Service`s on one database (two bot processes) stay correct: each command's write is
/// guarded by the combat's (or the character's) version and retried on a stale read; a cached
/// fight is checked against its stored version before it is shown, and a channel whose cached
/// fight turns out to be over is looked up again (`fresh_channel!`).
#[derive(Clone)]
pub struct Service {
    pub(crate) store: Arc<Store>,
    /// Seeds every new random stream (combats, rooms, `/roll`): the same seed and the same
    /// commands give the same game.
    pub(crate) seed: u64,
    pub(crate) rolls: Arc<Mutex<Dice>>,
    /// The guilds this process owns: the scheduler fires only their timers.
    pub(crate) shards: Arc<Shards>,
    /// Which campaign each (guild, channel) seen so far belongs to (see
    /// [`Service::campaign_id_for`]).
    campaign_ids: Arc<Mutex<HashMap<(String, String), i64>>>,
    /// How long finished fights' logs and fired timers are kept (`None`: for ever); see
    /// `cmd::retention`.
    pub(crate) retention: Option<chrono::Duration>,
    /// When this process last applied the retention policy.
    pub(crate) last_compaction: Arc<Mutex<Option<DateTimeUtc>>>,
    /// Fights paused for want of players (`cmd::turn_timer`), read once from the database.
    pub(crate) paused_fights: Arc<tokio::sync::OnceCell<Mutex<HashSet<i64>>>>,
    /// `/homebrew balance`'s questions, running and waiting (`cmd::balance`).
    pub(crate) balance: Arc<crate::cmd::balance::BalancePool>,
    /// How a retention pass spreads its transactions, and whether one is running.
    pub(crate) compaction: crate::cmd::retention::CompactionPace,
    pub(crate) compacting: Arc<std::sync::atomic::AtomicBool>,
}

/// A combat command's result: everything the renderer needs.
#[derive(Debug, Clone)]
pub struct CombatUpdate {
    pub combat_id: i64,
    /// The channel the fight is in (timers post there).
    pub channel_id: String,
    /// The combat's version after the command (the `seq` of its log row); reaction buttons carry it.
    pub version: i64,
    /// The fight after the command (shared with the service's cache until its next command).
    pub combat: std::sync::Arc<Combat>,
    /// What the engine reported, in order.
    pub events: Vec<Event>,
    /// What the service itself did besides the engine.
    pub notices: Vec<Notice>,
    /// Identifies the open reaction window (if any): reaction buttons carry it, and
    /// [`Service::react`] refuses a button whose window has closed.
    pub window_token: Option<i64>,
    /// When the open reaction window opened: it passes the campaign's reaction timeout later
    /// (`None` for a window opened before the fight's one timer (`m20261210_000013`), timed by a row of its own).
    pub window_since: Option<DateTimeUtc>,
    /// When the wait on the player the fight waits for began: their turn ends the campaign's
    /// turn timeout later, if it is on.
    pub wait_since: Option<DateTimeUtc>,
    /// The campaign's `/campaign map every_turn`: a message that passes the turn carries the
    /// battlefield's picture.
    pub map_every_turn: bool,
}

impl Service {
    /// `/combat replay`: fight `combat_id`'s plain referee log (its seed, one line per event);
    /// `None` if it is not a fight of this campaign.
    pub async fn combat_log(&self, campaign_id: i64, combat_id: i64) -> Result<Option<String>, ServiceError> {
        crate::replay::referee_log(self.db(), campaign_id, combat_id).await
    }

    /// A service with a fixed seed of 0; see [`Service::with_seed`].
    pub fn new(db: Db) -> Self {
        Self::with_seed(db, 0)
    }

    /// A service whose random streams all derive from `seed`.
    pub fn with_seed(db: Db, seed: u64) -> Self {
        Self {
            store: Arc::new(Store::new(db)),
            seed,
            rolls: Arc::new(Mutex::new(Dice::seeded(mix(&[seed, 0x524f_4c4c])))),
            shards: Arc::new(Shards::all()),
            campaign_ids: Arc::default(),
            retention: None,
            last_compaction: Arc::default(),
            paused_fights: Arc::default(),
            balance: Arc::new(crate::cmd::balance::BalancePool::new(
                crate::cmd::balance::BalanceLimits::default(),
            )),
            compaction: crate::cmd::retention::CompactionPace::default(),
            compacting: Arc::default(),
        }
    }

    /// This service as one of several processes on the database, owning the guilds of
    /// `shards`: [`Service::fire_due_timers`] and [`Service::next_timer_due`] then see only
    /// the timers of those guilds' campaigns. (Commands need no filter: Discord delivers a
    /// guild's interactions only on the shard that owns it.)
    pub fn owning(mut self, shards: Shards) -> Self {
        self.shards = Arc::new(shards);
        self
    }

    /// The shards this service owns ([`Shards::all`] unless [`Service::owning`] said otherwise).
    pub fn shards(&self) -> &Shards {
        &self.shards
    }

    /// What the SQLite group commit has written (zero on PostgreSQL, which writes each
    /// command in its own transaction on a pool of connections).
    pub fn group_commit(&self) -> &GroupCommitCounts {
        &self.store.group_counts
    }

    /// This service writes a fight's whole state every `commands` commands (and when it ends)
    /// instead of every [`crate::store::SNAPSHOT_EVERY`]; the commands between are only logged.
    pub fn with_snapshot_every(self, commands: u32) -> Self {
        self.store
            .snapshot_every
            .store(i64::from(commands.max(1)), std::sync::atomic::Ordering::Relaxed);
        self
    }

    /// A fight as the database holds it, read past the cache: its latest snapshot and the
    /// commands logged after it, re-applied. Its version is the stored one.
    pub async fn stored_combat(&self, combat_id: i64) -> Result<(i64, engine::Combat), ServiceError> {
        let (_, live) = crate::store::rebuild(self.db().conn(), combat_id).await?;
        Ok((live.version, std::sync::Arc::unwrap_or_clone(live.combat)))
    }

    /// [`Service::stored_combat`]'s timing: the open window's token and when it opened, and when
    /// the wait on a player began, as a process that loads the fight finds them.
    pub async fn stored_timing(
        &self,
        combat_id: i64,
    ) -> Result<(Option<i64>, Option<DateTimeUtc>, Option<DateTimeUtc>), ServiceError> {
        let (_, live) = crate::store::rebuild(self.db().conn(), combat_id).await?;
        Ok((live.window_token, live.window_since, live.wait_since))
    }

    /// The database this service writes to.
    pub fn db(&self) -> &Db {
        &self.store.db
    }

    /// The campaign a command in `channel_id` of `guild_id` belongs to: the channel's own
    /// campaign if it has one, else the guild's (created on first use).
    pub async fn campaign_for(
        &self,
        guild_id: &str,
        channel_id: &str,
        now: DateTimeUtc,
    ) -> Result<crate::entity::campaign::Model, ServiceError> {
        let conn = self.store.db.conn();
        if let Some(own) = crate::repo::campaigns::find(conn, guild_id, Some(channel_id)).await? {
            return Ok(own);
        }
        crate::repo::campaigns::get_or_create(conn, guild_id, None, now).await
    }

    /// The id of [`Service::campaign_for`]'s campaign, from memory after the first command in
    /// a channel: which campaign a channel belongs to never changes once it has one, and this
    /// saves every command one or two reads queued behind the database's writer. (Per process:
    /// a guild's commands all reach the process that owns its shard.)
    pub async fn campaign_id_for(
        &self,
        guild_id: &str,
        channel_id: &str,
        now: DateTimeUtc,
    ) -> Result<i64, ServiceError> {
        let key = (guild_id.to_owned(), channel_id.to_owned());
        if let Some(id) = self.campaign_ids.lock().expect("campaign cache poisoned").get(&key) {
            return Ok(*id);
        }
        let id = self.campaign_for(guild_id, channel_id, now).await?.id;
        self.campaign_ids
            .lock()
            .expect("campaign cache poisoned")
            .insert(key, id);
        Ok(id)
    }

    /// Pauses a guild's fights and timers (the bot was removed from it: nothing could be posted
    /// there): no reaction window, turn or rest of its campaigns times out until it is resumed.
    /// Kept in the database (`paused_guilds`), so a restart keeps it paused. The campaigns and
    /// their fights stay as they are.
    pub async fn pause_guild(&self, guild_id: &str, now: DateTimeUtc) -> Result<(), ServiceError> {
        use sea_orm::sea_query::OnConflict;
        use sea_orm::{ActiveValue::Set, EntityTrait as _};

        use crate::entity::paused_guild;
        paused_guild::Entity::insert(paused_guild::ActiveModel {
            guild_id: Set(guild_id.to_owned()),
            paused_at: Set(now),
        })
        .on_conflict(
            OnConflict::column(paused_guild::Column::GuildId)
                .do_nothing()
                .to_owned(),
        )
        .exec_without_returning(self.db().conn())
        .await?;
        Ok(())
    }

    /// Resumes a paused guild (the bot is back); returns whether it was paused. Its timers that
    /// fell due meanwhile fire at the next look.
    pub async fn resume_guild(&self, guild_id: &str) -> Result<bool, ServiceError> {
        use sea_orm::EntityTrait as _;

        use crate::entity::paused_guild;
        // Every guild is announced at each start: a read, and a write only for a paused one.
        if paused_guild::Entity::find_by_id(guild_id.to_owned())
            .one(self.db().conn())
            .await?
            .is_none()
        {
            return Ok(false);
        }
        let resumed = paused_guild::Entity::delete_by_id(guild_id.to_owned())
            .exec(self.db().conn())
            .await?
            .rows_affected
            > 0;
        if resumed {
            self.store.wake.notify_one();
        }
        Ok(resumed)
    }

    /// Which timers this service may fire: those of the guilds it owns
    /// ([`Service::owning`]), less the paused ones ([`Service::pause_guild`]).
    pub(crate) fn timer_filter(&self) -> sea_orm::Condition {
        use sea_orm::sea_query::Query;
        use sea_orm::{ColumnTrait as _, Condition};

        use crate::entity::{campaign, paused_guild, timer};
        let owned = self.shards.timer_condition();
        let mut paused = Query::select();
        paused.column(paused_guild::Column::GuildId).from(paused_guild::Entity);
        let mut of_paused = Query::select();
        of_paused
            .column(campaign::Column::Id)
            .from(campaign::Entity)
            .and_where(campaign::Column::GuildId.in_subquery(paused));
        let not_paused = Condition::any()
            .add(timer::Column::CampaignId.not_in_subquery(of_paused))
            .add(timer::Column::CampaignId.is_null());
        match owned {
            Some(owned) => Condition::all().add(owned).add(not_paused),
            None => Condition::all().add(not_paused),
        }
    }

    pub(crate) fn update(live: Live, events: Vec<Event>, notices: Vec<Notice>) -> CombatUpdate {
        CombatUpdate {
            combat_id: live.id,
            channel_id: live.channel_id,
            version: live.version,
            window_token: live.window_token,
            window_since: live.window_since,
            wait_since: live.wait_since,
            map_every_turn: live.map_every_turn,
            combat: live.combat,
            events,
            notices,
        }
    }
}

/// Runs a command's body on a channel's fight (`$body` is an `async` block's contents, run
/// again at most once). If it is refused because the fight the channel cache names is over —
/// another process on the database ended it, and may have opened another in the channel —
/// the channel is looked up again in the database and the body runs once more (the refused try
/// wrote nothing), so it answers as a fresh process would.
macro_rules! fresh_channel {
    ($service:expr, $campaign_id:expr, $channel_id:expr, $body:block) => {{
        let mut refreshed = false;
        loop {
            let result: Result<_, $crate::ServiceError> = async $body.await;
            match result {
                Err($crate::ServiceError::Rules(engine::RuleViolation::CombatOver)) if !refreshed => {
                    $service.store.refresh_channel($campaign_id, $channel_id).await?;
                    refreshed = true;
                }
                other => break other,
            }
        }
    }};
}
pub(crate) use fresh_channel;

/// Mixes numbers into one seed (`SplitMix64` steps).
pub(crate) fn mix(parts: &[u64]) -> u64 {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    for part in parts {
        state ^= part.wrapping_add(0x9E37_79B9_7F4A_7C15);
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        state = z ^ (z >> 31);
    }
    state
}

/// A text's stable hash, for seeding (FNV-1a).
pub(crate) fn hash_text(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
