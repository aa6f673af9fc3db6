//! The Hospital's messages outside its commands (seed 000 §8): Thom Krooke's admission embed
//! after a death, and what fired timers post (a passed reaction, a turn that ran out, a rest over).

use render::Key;
use service::{Admission, Fired};

use super::{App, Reply};

impl App {
    /// Thom's admission embed after TwinBee's death narration, and the abandoned run.
    pub(super) fn admission_replies(&self, admission: &Admission) -> Vec<Reply> {
        let fee = u32::try_from(admission.fee.fee).unwrap_or(u32::MAX);
        let seed = self.seed ^ admission.hospital_record_id.unsigned_abs();
        let mut replies = vec![Reply::public(self.renderer.hospital_admission(
            &admission.name,
            fee,
            seed,
        ))];
        if let Some(zone) = &admission.expedition_abandoned {
            replies.push(self.story(Key::ExpeditionAbandoned, &[("name", &admission.name), ("zone", zone)]));
        }
        replies
    }

    /// What a fired timer posts, by channel: a passed reaction's narration, a turn that ran out
    /// (TwinBee says so, then the fight goes on), or Thom telling a
    /// player their rest is over (addressed to them, so the bot can DM them).
    pub(super) fn fired_replies(&self, fired: &Fired) -> Vec<(String, Reply)> {
        match fired {
            Fired::ReactionPassed(update) => self
                .combat_replies(update)
                .into_iter()
                .map(|r| (update.channel_id.clone(), r))
                .collect(),
            Fired::TurnTimedOut(ended) => {
                let channel = &ended.update.channel_id;
                let seed = self.seed ^ ended.update.combat_id.unsigned_abs() ^ ended.update.version.unsigned_abs();
                let line = self.renderer.story(Key::TurnTimedOut, &[("name", &ended.name)], seed);
                let mut replies = vec![(channel.clone(), Reply::public(line))];
                replies.extend(
                    self.combat_replies(&ended.update)
                        .into_iter()
                        .map(|r| (channel.clone(), r)),
                );
                replies
            }
            Fired::FightPaused(paused) => {
                let names: Vec<String> = paused.names.iter().map(|n| format!("**{n}**")).collect();
                let text = format!(
                    "Nobody has played for {} turns in a row ({}), so the fight waits here: nobody acts, \
                     falls or pays meanwhile. Any command from one of you in this channel — even `/combat status` — \
                     picks it up again.",
                    service::cmd::turn_timer::IDLE_TURNS,
                    names.join(", ")
                );
                vec![(
                    paused.channel_id.clone(),
                    Reply::public(render::info("The fight is paused", &text)),
                )]
            }
            Fired::RestOver {
                player_id,
                name,
                channel_id,
                ..
            } => {
                let mut reply = self.story(Key::RestOver, &[("name", name)]);
                reply.to_user = Some(player_id.clone());
                vec![(channel_id.clone().unwrap_or_default(), reply)]
            }
        }
    }
}
