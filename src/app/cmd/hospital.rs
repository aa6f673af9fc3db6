//! `/hospital bill|pay|status` (seed 000 §8), in Thom Krooke's voice.

use render::Key;
use service::cmd::hospital::describe;
use service::{HospitalView, Payment};

use super::{Ctx, Refused, Reply};
use crate::app::App;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hospital {
    /// The fee and any debt, then the rest.
    Bill,
    Pay,
    /// The rest first.
    Status,
}

impl Hospital {
    pub fn parse(sub: &str) -> Result<Self, String> {
        Ok(match sub {
            "bill" => Self::Bill,
            "pay" => Self::Pay,
            "status" => Self::Status,
            other => return Err(format!("/hospital {other} is not a command.")),
        })
    }

    pub async fn run(self, ctx: &Ctx<'_>) -> Result<Vec<Reply>, Refused> {
        let (app, s, campaign, me) = (ctx.app, ctx.service(), ctx.campaign, ctx.me());
        Ok(match self {
            Self::Bill => view(app, &s.hospital(campaign, me, ctx.now).await?, false),
            Self::Status => view(app, &s.hospital(campaign, me, ctx.now).await?, true),
            Self::Pay => {
                let paid = s.hospital_pay(campaign, ctx.channel(), me, ctx.now).await?;
                let name = paid.name.as_str();
                match paid.payment {
                    Payment::Paid {
                        fee,
                        admission_fee,
                        rest,
                        coins_left,
                    } => {
                        let mut replies = vec![app.story(
                            Key::HospitalPaid,
                            &[("name", name), ("fee", &fee.to_string()), ("duration", &describe(rest))],
                        )];
                        if fee < admission_fee {
                            replies.push(Reply::public(
                                render::info(
                                    "Hospital fee capped",
                                    &format!(
                                        "{fee} coins instead of {admission_fee}: the fee never exceeds 40% of the {} coins you held at payment.",
                                        fee + coins_left
                                    ),
                                )
                                .ephemeral(),
                            ));
                        }
                        replies
                    }
                    Payment::DebtCleared { amount, .. } => {
                        vec![app.story(Key::DebtCleared, &[("name", name), ("fee", &amount.to_string())])]
                    }
                    Payment::StillOwed { amount, coins } => vec![
                        app.story(Key::HospitalStatus, &[("name", name), ("fee", &amount.to_string())]),
                        Reply::public(
                            render::info(
                                "Hospital debt",
                                &format!(
                                    "You hold {} of the {amount} owed. Until it is paid, XP gains are 10% lower.",
                                    super::count(coins, "coin")
                                ),
                            )
                            .ephemeral(),
                        ),
                    ],
                    Payment::NothingOwed => vec![app.story(Key::NothingOwed, &[("name", name)])],
                }
            }
        })
    }
}

/// `/hospital bill` (the fee and any debt, then the rest) or `/hospital status` (the rest first).
fn view(app: &App, view: &HospitalView, rest_only: bool) -> Vec<Reply> {
    let name = view.name.as_str();
    let mut replies = Vec::new();
    let rest = view
        .rest
        .map(|(_, left)| app.story(Key::RestRemaining, &[("name", name), ("remaining", &describe(left))]));
    if rest_only && let Some(rest) = &rest {
        return vec![rest.clone()];
    }
    if let Some(fee) = view.awaiting_payment {
        replies.push(app.story(Key::HospitalStatus, &[("name", name), ("fee", &fee.to_string())]));
    }
    if view.debt > 0 {
        replies.push(app.story(Key::HospitalStatus, &[("name", name), ("fee", &view.debt.to_string())]));
        replies.push(Reply::public(
            render::info(
                "Hospital debt",
                &format!(
                    "{} owed (you hold {}): XP gains are 10% lower until /hospital pay clears it.",
                    super::count(view.debt, "coin"),
                    view.coins
                ),
            )
            .ephemeral(),
        ));
    }
    replies.extend(rest);
    if replies.is_empty() {
        replies.push(app.story(Key::NothingOwed, &[("name", name)]));
    }
    replies
}
