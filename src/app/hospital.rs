//! The Hospital at the table (seed 000 §8): `/hospital`, `/hospital pay`, `/hospital status`
//! in Thom Krooke's voice, his admission embed after a death, and the rest-over message.

use chrono::{DateTime, Utc};
use render::Key;
use service::cmd::hospital::describe;
use service::{Admission, Fired, HospitalView, Payment};

use super::{App, Caller, Refused, Reply};

impl App {
    fn thom(&self, key: Key, values: &[(&str, &str)]) -> Reply {
        self.story(key, values)
    }

    /// `/hospital …`: `sub` is "", "pay" or "status".
    pub(super) async fn hospital_route(
        &self,
        campaign: i64,
        caller: &Caller,
        sub: &str,
        now: DateTime<Utc>,
    ) -> Result<Vec<Reply>, Refused> {
        let s = &self.service;
        let me = caller.user.as_str();
        Ok(match sub {
            "" => self.hospital_view(&s.hospital(campaign, me, now).await?, false),
            "status" => self.hospital_view(&s.hospital(campaign, me, now).await?, true),
            "pay" => {
                let paid = s.hospital_pay(campaign, &caller.channel, me, now).await?;
                let name = paid.name.as_str();
                match paid.payment {
                    Payment::Paid { fee, rest, .. } => vec![self.thom(
                        Key::HospitalPaid,
                        &[("name", name), ("fee", &fee.to_string()), ("duration", &describe(rest))],
                    )],
                    Payment::Deferred { fee, rest, .. } => vec![
                        self.thom(Key::HospitalDebt, &[("name", name), ("fee", &fee.to_string())]),
                        self.thom(Key::RestRemaining, &[("name", name), ("remaining", &describe(rest))]),
                    ],
                    Payment::DebtCleared { amount, .. } => {
                        vec![self.thom(Key::DebtCleared, &[("name", name), ("fee", &amount.to_string())])]
                    }
                    Payment::StillOwed { amount, coins } => vec![
                        self.thom(Key::HospitalStatus, &[("name", name), ("fee", &amount.to_string())]),
                        Reply::public(
                            render::info(
                                "Hospital debt",
                                &format!(
                                    "You hold {coins} coins of the {amount} owed. Until it is paid, XP gains are 10% lower."
                                ),
                            )
                            .ephemeral(),
                        ),
                    ],
                    Payment::NothingOwed => vec![self.thom(Key::NothingOwed, &[("name", name)])],
                }
            }
            other => {
                return Err(Refused::Input(format!(
                    "/hospital {other} is not a thing — try /hospital, /hospital pay or /hospital status."
                )));
            }
        })
    }

    /// `/hospital` (the fee and any debt, then the rest) or `/hospital status` (the rest first).
    fn hospital_view(&self, view: &HospitalView, rest_only: bool) -> Vec<Reply> {
        let name = view.name.as_str();
        let mut replies = Vec::new();
        let rest = view
            .rest
            .map(|(_, left)| self.thom(Key::RestRemaining, &[("name", name), ("remaining", &describe(left))]));
        if rest_only && let Some(rest) = &rest {
            return vec![rest.clone()];
        }
        if let Some(fee) = view.awaiting_payment {
            replies.push(self.thom(Key::HospitalStatus, &[("name", name), ("fee", &fee.to_string())]));
        }
        if view.debt > 0 {
            replies.push(self.thom(Key::HospitalStatus, &[("name", name), ("fee", &view.debt.to_string())]));
            replies.push(Reply::public(
                render::info(
                    "Hospital debt",
                    &format!(
                        "{} coins owed (you hold {}): XP gains are 10% lower until /hospital pay clears it.",
                        view.debt, view.coins
                    ),
                )
                .ephemeral(),
            ));
        }
        replies.extend(rest);
        if replies.is_empty() {
            replies.push(self.thom(Key::NothingOwed, &[("name", name)]));
        }
        replies
    }

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
            Fired::RestOver {
                player_id,
                name,
                channel_id,
                ..
            } => {
                let mut reply = self.thom(Key::RestOver, &[("name", name)]);
                reply.to_user = Some(player_id.clone());
                vec![(channel_id.clone().unwrap_or_default(), reply)]
            }
        }
    }
}
