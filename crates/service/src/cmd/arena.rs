//! The arena (seed 000 §8.2's "Arena streak — reset to 0" on death): `/arena challenge
//! user:@x` offers a duel, which only the challenged player may accept or decline; an accepted
//! challenge is a real engine fight in the channel under the campaign's ruleset, the challenger on
//! one side and the challenged on the other, marked as a duel ([`engine::Combat::duel`]): it ends
//! the moment one of them drops to 0 HP, so no death save is rolled, no one dies and no one goes
//! to the Hospital.
//!
//! *What is at stake is the streak, nothing else.* Both fight at full HP with their gear and what
//! they carry; when the duel ends nothing of it is written back — HP, potions drunk, spell slots
//! and per-day Interrupts are as they were before the duel (the arena's healers and Thom's
//! lending shelf). The winner's `arena_streak` goes up by one; the loser's goes to 0, as a death
//! sets it (`settle::hospital::admit`). A duel a GM halts (`/gm end`) changes no streak.
//!
//! Refused: challenging yourself, someone without a character, and either duellist in a fight
//! (a duel counts), out on an expedition, in the Hospital or on the healers' recovery rest (the
//! rest allows "arena spectate", §8.4 — not a duel). Pets wait outside the ring. The accept runs
//! in one write transaction that bumps both characters' versions, so two challenges accepted at
//! once for the same character cannot both start (the second finds a version it did not read).

use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};

use crate::entity::{arena_duel, character};
use crate::repo::characters;
pub use crate::settle::duel::DuelEnd;
use crate::settle::duel::{DECLINED, FIGHTING, OFFERED};
use crate::store::NewFight;
use crate::{CombatUpdate, DateTimeUtc, Service, ServiceError};

/// A challenge as the buttons show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    pub duel_id: i64,
    pub challenger: String,
    pub challenger_player: String,
    pub challenged: String,
    pub challenged_player: String,
}

/// Refuses a duellist who cannot fight now; `who` names them as the refusal should.
async fn ready<C: ConnectionTrait + crate::access::Access>(
    db: &C,
    row: &character::Model,
    now: DateTimeUtc,
    who: &str,
) -> Result<(), ServiceError> {
    if crate::repo::combats::in_active_combat(db, row).await? {
        return Err(ServiceError::Arena(format!(
            "{who} already in a fight (a duel counts) — the arena waits until it is over."
        )));
    }
    if let Some(on) = crate::settle::expedition::active(db, row.id).await? {
        return Err(ServiceError::Arena(format!(
            "{who} out exploring {} — the arena is at the inn.",
            on.zone
        )));
    }
    if let Some(record) = crate::settle::hospital::latest(db, row.id).await? {
        match record.recovery_ends {
            None => {
                return Err(ServiceError::Arena(format!(
                    "{who} in the Hospital (/hospital pay settles it) — no duels from a hospital bed."
                )));
            }
            Some(ends) if ends > now && record.discharged_at.is_none() => {
                let ends = ends.timestamp();
                return Err(ServiceError::Arena(format!(
                    "{who} on the healers' recovery rest until <t:{ends}:t> (<t:{ends}:R>) — \
                     /arena spectate is open meanwhile, a duel is not."
                )));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// The duel of `duel_id` in this campaign.
async fn duel<C: ConnectionTrait>(db: &C, campaign_id: i64, duel_id: i64) -> Result<arena_duel::Model, ServiceError> {
    arena_duel::Entity::find_by_id(duel_id)
        .one(db)
        .await?
        .filter(|d| d.campaign_id == campaign_id)
        .ok_or(ServiceError::StaleButton)
}

impl Service {
    /// `/arena challenge user`: offers the challenged player a duel (the app shows it with
    /// Accept and Decline buttons only they may press).
    pub async fn arena_challenge(
        &self,
        campaign_id: i64,
        channel_id: &str,
        player_id: &str,
        challenged_player: &str,
        now: DateTimeUtc,
    ) -> Result<Challenge, ServiceError> {
        let conn = self.db().conn();
        let me = Self::character_of(conn, campaign_id, player_id).await?;
        if challenged_player == player_id {
            return Err(ServiceError::Arena(
                "You can't challenge yourself — /arena top shows rivals worth a duel.".into(),
            ));
        }
        let Some(them) = characters::for_player(conn, campaign_id, challenged_player).await? else {
            return Err(ServiceError::Arena(format!(
                "<@{challenged_player}> has no character here — they need /character create before a duel."
            )));
        };
        ready(conn, &me, now, &format!("{} is", me.name)).await?;
        ready(conn, &them, now, &format!("{} is", them.name)).await?;
        let pending = arena_duel::Entity::find()
            .filter(arena_duel::Column::ChallengerId.eq(me.id))
            .filter(arena_duel::Column::ChallengedId.eq(them.id))
            .filter(arena_duel::Column::Status.eq(OFFERED))
            .one(conn)
            .await?;
        if pending.is_some() {
            return Err(ServiceError::Arena(format!(
                "{} has already challenged {} — the challenge waits for their answer.",
                me.name, them.name
            )));
        }
        let row = arena_duel::ActiveModel {
            campaign_id: Set(campaign_id),
            channel_id: Set(channel_id.to_owned()),
            challenger_id: Set(me.id),
            challenged_id: Set(them.id),
            status: Set(OFFERED.to_owned()),
            combat_id: Set(None),
            winner_id: Set(None),
            created_at: Set(now),
            ended_at: Set(None),
            ..Default::default()
        }
        .insert(conn)
        .await?;
        Ok(Challenge {
            duel_id: row.id,
            challenger: me.name,
            challenger_player: me.player_id,
            challenged: them.name,
            challenged_player: them.player_id,
        })
    }

    /// The challenge behind a button, if it is still waiting for its answer
    /// ([`ServiceError::StaleButton`] otherwise).
    pub async fn arena_offer(&self, campaign_id: i64, duel_id: i64) -> Result<Challenge, ServiceError> {
        let conn = self.db().conn();
        let d = duel(conn, campaign_id, duel_id).await?;
        if d.status != OFFERED {
            return Err(ServiceError::StaleButton);
        }
        let (a, b) = (
            characters::get(conn, d.challenger_id).await?,
            characters::get(conn, d.challenged_id).await?,
        );
        // A side no player owns any more (retired) voids the challenge.
        if let Some(gone) = [&a, &b]
            .into_iter()
            .find(|c| c.player_id.starts_with(crate::settle::names::RETIRED))
        {
            return Err(ServiceError::Arena(format!(
                "This challenge is void: {} has retired.",
                gone.name
            )));
        }
        Ok(Challenge {
            duel_id,
            challenger: a.name,
            challenger_player: a.player_id,
            challenged: b.name,
            challenged_player: b.player_id,
        })
    }

    /// The Decline button: only the challenged player's.
    pub async fn arena_decline(
        &self,
        campaign_id: i64,
        player_id: &str,
        duel_id: i64,
        now: DateTimeUtc,
    ) -> Result<Challenge, ServiceError> {
        let offer = self.arena_offer(campaign_id, duel_id).await?;
        if offer.challenged_player != player_id {
            return Err(not_yours(&offer));
        }
        let done = arena_duel::Entity::update_many()
            .col_expr(arena_duel::Column::Status, Expr::value(DECLINED))
            .col_expr(arena_duel::Column::EndedAt, Expr::value(now))
            .filter(arena_duel::Column::Id.eq(duel_id))
            .filter(arena_duel::Column::Status.eq(OFFERED))
            .exec(self.db().conn())
            .await?;
        if done.rows_affected != 1 {
            return Err(ServiceError::StaleButton);
        }
        Ok(offer)
    }

    /// The Accept button: only the challenged player's. Starts the duel in the channel the
    /// challenge was made in (refused while another fight is under way there) and rolls
    /// initiative.
    pub async fn arena_accept(
        &self,
        campaign_id: i64,
        player_id: &str,
        duel_id: i64,
        now: DateTimeUtc,
    ) -> Result<CombatUpdate, ServiceError> {
        let offer = self.arena_offer(campaign_id, duel_id).await?;
        if offer.challenged_player != player_id {
            return Err(not_yours(&offer));
        }
        let content = self.content(campaign_id).await?;
        let txn = self.db().begin_write().await?;
        let d = duel(&*txn, campaign_id, duel_id).await?;
        let red = characters::get(&*txn, d.challenger_id).await?;
        let blue = characters::get(&*txn, d.challenged_id).await?;
        ready(&*txn, &red, now, &format!("{} is", red.name)).await?;
        ready(&*txn, &blue, now, &format!("{} is", blue.name)).await?;
        let taken = arena_duel::Entity::update_many()
            .col_expr(arena_duel::Column::Status, Expr::value(FIGHTING))
            .filter(arena_duel::Column::Id.eq(duel_id))
            .filter(arena_duel::Column::Status.eq(OFFERED))
            .exec(&*txn)
            .await?;
        if taken.rows_affected != 1 {
            return Err(ServiceError::StaleButton);
        }
        // Both rows as read: a duel accepted meanwhile for either of them changed its version.
        for row in [&red, &blue] {
            characters::update(&*txn, row.clone()).await.map_err(|e| match e {
                ServiceError::StaleCharacter { .. } => ServiceError::Arena(format!(
                    "{} just stepped into another fight — try again once it is over.",
                    row.name
                )),
                other => other,
            })?;
        }
        let fighter = |row: &character::Model| -> Result<engine::Combatant, ServiceError> {
            let mut c = crate::convert::fighter(row, &content)?;
            c.hp = c.max_hp;
            Ok(c)
        };
        // The challenger's corner (red) is the engine's party side, the challenged's (blue) the other.
        let members = vec![
            (fighter(&red)?, Some(red.id)),
            (fighter(&blue)?.on_side(engine::Side::Enemies), Some(blue.id)),
        ];
        let live = self
            .new_combat(
                &txn,
                NewFight {
                    campaign_id,
                    channel_id: &d.channel_id,
                    expedition_id: None,
                    members,
                    terrain: engine::Terrain::default(),
                    duel: true,
                },
                now,
            )
            .await
            .map_err(|e| match e {
                ServiceError::CombatInChannel => ServiceError::Arena(
                    "A fight is under way in this channel — the duel needs the floor: accept once it is over.".into(),
                ),
                other => other,
            })?;
        arena_duel::Entity::update_many()
            .col_expr(arena_duel::Column::CombatId, Expr::value(live.id))
            .filter(arena_duel::Column::Id.eq(duel_id))
            .exec(&*txn)
            .await?;
        txn.commit().await?;
        self.store.cache_new(&live).await;
        self.begin(live.id, now).await
    }

    /// `/arena spectate`: every duel being fought in the campaign, as it stands (the newest
    /// first).
    pub async fn arena_spectate(&self, campaign_id: i64) -> Result<Vec<CombatUpdate>, ServiceError> {
        let running = arena_duel::Entity::find()
            .filter(arena_duel::Column::CampaignId.eq(campaign_id))
            .filter(arena_duel::Column::Status.eq(FIGHTING))
            .order_by_desc(arena_duel::Column::Id)
            .all(self.db().conn())
            .await?;
        let mut shown = Vec::new();
        for d in running {
            let Some(combat_id) = d.combat_id else { continue };
            match self.store.snapshot(combat_id).await {
                Ok(live) => shown.push(Self::update(live, Vec::new(), Vec::new())),
                // Ended by another process a moment ago.
                Err(ServiceError::Rules(engine::RuleViolation::CombatOver)) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(shown)
    }
}

fn not_yours(offer: &Challenge) -> ServiceError {
    ServiceError::Arena(format!(
        "Only {} may answer {}'s challenge — /arena challenge makes one of your own.",
        offer.challenged, offer.challenger
    ))
}
