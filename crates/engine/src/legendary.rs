//! Legendary actions (SRD 5.1 "Legendary Creatures", in every timing model): a stat block's
//! `legendary = { actions = N, options = [...] }` gives it N points, regained whenever its own
//! turn starts; at the end of another creature's turn it may spend an option's cost on that
//! option — one option at a time, never on its own turn, never while incapacitated. Each model
//! says what a turn is: a GogoBee, TDGS or charge-race turn, or a cycle of the tick timeline (a
//! cycle of the creature's own, not a reaction's nor a wait).
//!
//! An option is one attack of the stat block, made at once with no action spent (a Swing of
//! kind `Legendary`), or one of its area abilities (`crate::abilities`: a dragon's Wing Attack),
//! used at once if it is ready (a use spent when it has uses or a recharge). The AI takes the
//! dearest option it can pay for that would do something: an attack reaching a standing enemy
//! (against the weakest such enemy), an ability ready and worth using.

use crate::content::data::LegendaryEffect;
use crate::ctx::Ctx;
use crate::multiattack;
use crate::state::combat::Combat;
use crate::state::combatant::{Combatant, Controller};
use crate::state::event::{AttackKind, Event};
use crate::state::ids::CombatantId;
use crate::state::step::{Step, Strike, Swing};

/// Its turn starts: the points are whole again.
pub fn regain(combat: &mut Combat, id: CombatantId) {
    let c = combat.get_mut(id);
    if let Some(actions) = c.stat_block().and_then(|m| m.legendary.as_ref()).map(|l| l.actions) {
        c.pools.legendary_actions = actions;
    }
}

/// `ended`'s turn is over: every other legendary creature of the AI's with points left may take
/// one legendary action, in id order, before anything else happens.
pub fn after_turn(ctx: &mut Ctx, ended: CombatantId) {
    if ctx.combat.outcome.is_some() {
        return;
    }
    let takers: Vec<CombatantId> = ctx
        .combat
        .combatants
        .iter()
        .filter(|c| c.id != ended && c.pools.legendary_actions > 0 && able(c))
        .map(|c| c.id)
        .collect();
    let mut steps = Vec::new();
    for id in takers {
        let Some((option, target)) = choose(ctx.combat, ctx.combat.get(id)) else {
            continue;
        };
        let Some(legendary) = ctx.combat.get(id).stat_block().and_then(|m| m.legendary.clone()) else {
            continue;
        };
        let chosen = &legendary.options[option];
        let pools = &mut ctx.combat.get_mut(id).pools;
        pools.legendary_actions = pools.legendary_actions.saturating_sub(chosen.cost);
        let left = pools.legendary_actions;
        ctx.emit(Event::LegendaryAction {
            id,
            action: chosen.name.to_string(),
            left,
        });
        match (chosen.effect, target) {
            (LegendaryEffect::Attack(attack), Some(target)) => steps.push(Step::Swing(Swing {
                attacker: id,
                target,
                strike: Strike::Natural(usize::from(attack)),
                kind: AttackKind::Legendary,
                swing: 1,
                of: 1,
                declared: false,
            })),
            (LegendaryEffect::Ability(i), _) => {
                crate::abilities::spend(ctx.combat, id, usize::from(i));
                steps.push(Step::Ability {
                    monster: id,
                    ability: i,
                });
            }
            (LegendaryEffect::Attack(_), None) => {}
        }
    }
    ctx.push_front(steps);
}

/// Standing, the AI's, not incapacitated.
fn able(c: &Combatant) -> bool {
    c.is_standing()
        && matches!(c.controller, Controller::Ai(_))
        && !c.statuses.iter().any(|s| {
            s.condition.is_some_and(crate::conditions::incapacitates)
                || s.kind == crate::content::statuses::StatusKind::Stun
        })
}

/// The option `me` takes, and an attack's target: the dearest it can pay for that would do
/// something (the first listed among equals) — an attack reaching a standing, visible enemy,
/// against the weakest such enemy; an area ability ready and worth using.
fn choose(combat: &Combat, me: &Combatant) -> Option<(usize, Option<CombatantId>)> {
    let legendary = me.stat_block()?.legendary.as_ref()?;
    let points = me.pools.legendary_actions;
    let mut best: Option<(u8, usize, Option<CombatantId>)> = None;
    for (i, option) in legendary.options.iter().enumerate() {
        if option.cost > points || best.is_some_and(|(cost, ..)| cost >= option.cost) {
            continue;
        }
        match option.effect {
            LegendaryEffect::Attack(attack) => {
                let strike = Strike::Natural(usize::from(attack));
                let target = combat
                    .combatants
                    .iter()
                    .filter(|o| o.side != me.side && o.is_standing() && o.conditions.hidden.is_none())
                    .filter(|o| multiattack::reaches(combat, me, o.id, strike))
                    .min_by_key(|o| (o.hp, o.id))
                    .map(|o| o.id);
                if target.is_some() {
                    best = Some((option.cost, i, target));
                }
            }
            LegendaryEffect::Ability(a) => {
                let a = usize::from(a);
                if crate::abilities::ready(me, a) && crate::abilities::worth(combat, me.id, a) {
                    best = Some((option.cost, i, None));
                }
            }
        }
    }
    best.map(|(_, i, target)| (i, target))
}

/// Legendary actions at turns' starts: the points are whole again.
pub struct LegendaryActions;

impl crate::turn::TurnHook for LegendaryActions {
    fn refresh(&self, ctx: &mut Ctx, id: CombatantId) {
        regain(ctx.combat, id);
    }
}
