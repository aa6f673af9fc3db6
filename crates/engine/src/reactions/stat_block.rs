//! A stat block's own reactions (seed 000 §2.3, "one reaction per round"; SRD 5.1 "Reactions":
//! Parry, "adds 2 to its AC against one melee attack that would hit it"). The content defines
//! them ([`ReactionDef`]): hit by an attack of the kind it names, from an attacker it can see,
//! the creature raises its AC against that attack (a hit that no longer beats it misses; a
//! critical hit lands), reduces the damage by a roll, or halves it. The first of its reactions
//! that answers is taken. Under TDGS it is an Interrupt, once a round.

use super::{Limit, Reaction, ReactionTrigger, TriggerKind, cut_pending};
use crate::state::combat::Combat;
use crate::state::ids::Ruleset;
use crate::state::combatant::Combatant;
use crate::state::ids::CombatantId;
use crate::state::sheet::Sheet;
use crate::content::data::{ReactionDef, ReactionEffect};
use crate::state::event::Event;
use crate::ctx::Ctx;
use crate::state::step::Step;

pub struct StatBlock;

/// The first of `c`'s reactions that answers `trigger`, if any.
fn answering<'c>(c: &'c Combatant, trigger: &ReactionTrigger) -> Option<&'c ReactionDef> {
    let ReactionTrigger::Hit {
        target,
        melee,
        unseen: false,
        critical,
        ..
    } = trigger
    else {
        return None;
    };
    if *target != c.id {
        return None;
    }
    let reactions = c.sheet.monster_def().map_or(&[][..], |m| &m.reactions);
    reactions
        .iter()
        .find(|r| r.on.answers(*melee) && !(*critical && matches!(r.effect, ReactionEffect::Ac(_))))
}

impl Reaction for StatBlock {
    fn label(&self) -> &'static str {
        "Stat-block reaction"
    }

    fn grants(&self, c: &Combatant, ruleset: Ruleset) -> bool {
        self.sheet_grants(&c.sheet, ruleset)
    }

    fn sheet_grants(&self, sheet: &Sheet, _ruleset: Ruleset) -> bool {
        sheet.monster_def().is_some_and(|m| !m.reactions.is_empty())
    }

    fn triggers(&self) -> &'static [TriggerKind] {
        &[TriggerKind::Hit]
    }

    fn target_only(&self) -> bool {
        true
    }

    fn answers(&self, _combat: &Combat, r: &Combatant, trigger: &ReactionTrigger) -> bool {
        answering(r, trigger).is_some()
    }

    fn take(&self, ctx: &mut Ctx, reactor: CombatantId, trigger: &ReactionTrigger) -> Vec<Step> {
        let ReactionTrigger::Hit {
            attacker, target, total, ..
        } = *trigger
        else {
            return vec![];
        };
        let me = ctx.combat.get(reactor);
        let Some(def) = answering(me, trigger).cloned() else {
            return vec![];
        };
        let missed = matches!(def.effect, ReactionEffect::Ac(bonus) if total < me.armor_class() + bonus);
        let cut = match def.effect {
            ReactionEffect::Ac(_) if missed => {
                // The hit becomes a miss: no damage, and nothing it would have carried lands.
                super::drop_riders(ctx, attacker, target);
                let at = ctx.combat.queue.iter().position(
                    |step| matches!(step, Step::Damage(p) if p.target == target && p.source == Some(attacker)),
                );
                match at.and_then(|at| ctx.combat.queue.remove(at)) {
                    Some(Step::Damage(p)) => Some((p.amount, 0)),
                    _ => None,
                }
            }
            ReactionEffect::Ac(_) => cut_pending(ctx, target, |d| d),
            ReactionEffect::Reduce(dice) => {
                let roll = dice.roll(ctx.dice, false);
                cut_pending(ctx, target, |d| d - roll)
            }
            ReactionEffect::Halve => cut_pending(ctx, target, |d| d / 2),
        };
        let (amount, remaining) = cut.unwrap_or((0, 0));
        ctx.emit(Event::StatBlockReaction {
            by: reactor,
            attacker,
            reaction: def.name,
            missed,
            amount,
            remaining,
        });
        vec![]
    }

    fn ai_rank(&self) -> u8 {
        58
    }

    /// The AI raises its AC only when that turns the hit into a miss; it always takes less damage.
    fn ai_wants(&self, _combat: &Combat, reactor: &Combatant, trigger: &ReactionTrigger) -> bool {
        match (answering(reactor, trigger), trigger) {
            (Some(def), ReactionTrigger::Hit { total, .. }) => match def.effect {
                ReactionEffect::Ac(bonus) => *total < reactor.armor_class() + bonus,
                ReactionEffect::Reduce(_) | ReactionEffect::Halve => true,
            },
            _ => false,
        }
    }

    fn interrupt_limit(&self, _c: &Combatant) -> Option<Limit> {
        Some(Limit::PerRound(1))
    }

    /// Its own event ([`Event::StatBlockReaction`]) names the reaction and what it did.
    fn narrated(&self) -> bool {
        false
    }
}
