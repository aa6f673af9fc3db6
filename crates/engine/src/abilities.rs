//! Area abilities of stat blocks (seed 000 §5 breath weapons; SRD 5.1 stat blocks' "Recharge
//! 5–6", "Frightful Presence", gazes), in every timing model: `breath = {…}` and
//! `abilities = [{…}]` in a monster's content. Using one spends the action (unless it goes with
//! the Attack action), readied "uses …" triggers fire before it lands; then each creature its
//! area catches (`crate::casting::caught`) saves: a failure takes the damage and the status, a
//! success half the damage (or none) and never the status. A recharging ability comes back on
//! a d6 at the start of its owner's turn; one with uses a fight runs out; the others are at will.
//! The AI uses the first one ready whose area catches someone it would change; one marked
//! `legendary_only` only a legendary action uses (`crate::legendary`).

use crate::content::data::{AbilityDef, AfflictionDef};
use crate::content::statuses::Affliction;
use crate::ctx::Ctx;
use crate::state::combat::Combat;
use crate::state::combatant::Combatant;
use crate::state::event::Event;
use crate::state::ids::CombatantId;
use crate::state::reactions::ReactionTrigger;
use crate::state::readied::Observed;
use crate::state::resources::Resource;
use crate::state::step::{PendingDamage, Step};

/// Whether `c`'s area ability `i` can be used now: recharged, with a use left, or at will.
pub fn ready(c: &Combatant, i: usize) -> bool {
    let Some(ability) = c.stat_block().and_then(|m| m.ability(i)) else {
        return false;
    };
    let spent = c.pools.ability_uses.get(i).copied().unwrap_or(u8::MAX);
    if ability.recharge > 0 {
        spent == 0
    } else if ability.uses > 0 {
        spent < ability.uses
    } else {
        true
    }
}

/// Whether using `id`'s ability `i` now would catch someone it changes: a standing enemy it may
/// damage, or one it may give its status (not holding it already, not immune to its condition).
pub fn worth(combat: &Combat, id: CombatantId, i: usize) -> bool {
    let Some(ability) = combat.get(id).stat_block().and_then(|m| m.ability(i)) else {
        return false;
    };
    crate::casting::caught(combat, id, ability.area, ability.size)
        .into_iter()
        .map(|t| combat.get(t))
        .filter(|t| t.is_standing())
        .any(|t| {
            ability.damage.is_some()
                || ability.status.as_ref().is_some_and(|s| {
                    !t.statuses.iter().any(|held| *held.name == *s.name)
                        && !s.condition.is_some_and(|k| crate::defences::immune(t, k))
                })
        })
}

/// The first of `c`'s area abilities (a legendary action's own excepted) that is ready and worth
/// using on its turn, if any.
pub fn choice(combat: &Combat, c: &Combatant) -> Option<usize> {
    let monster = c.stat_block()?;
    let on_its_turn: Vec<usize> = monster
        .each_area_ability()
        .enumerate()
        .filter(|(_, a)| !a.legendary_only)
        .map(|(i, _)| i)
        .collect();
    on_its_turn.into_iter().find(|&i| ready(c, i) && worth(combat, c.id, i))
}

/// `id` uses its area ability `i` (as its action, unless the ability goes with the Attack
/// action): it is spent, and readied "uses …" triggers fire before it lands.
pub fn start(ctx: &mut Ctx, id: CombatantId, i: usize) -> Vec<Step> {
    let Some(ability) = ctx.combat.get(id).stat_block().and_then(|m| m.ability(i)).cloned() else {
        return vec![Step::Think(id)];
    };
    if !ability.with_attack {
        crate::timing::spend_slot(ctx.combat, id, Resource::Action);
    }
    spend(ctx.combat, id, i);
    ctx.emit(Event::AbilityUsed {
        id,
        ability: ability.name.to_string(),
    });
    let observed = if breathes(ctx.combat.get(id), i) {
        "breath weapon".to_owned()
    } else {
        ability.name.to_string()
    };
    let mut steps = ctx.readied_offers(&Observed::UsesAbility {
        user: id,
        ability: observed,
    });
    steps.push(Step::Ability {
        monster: id,
        ability: i as u8,
    });
    steps.push(Step::Think(id));
    steps
}

/// A use of ability `i` is spent (a legendary action's use too).
pub fn spend(combat: &mut Combat, id: CombatantId, i: usize) {
    if let Some(spent) = combat.get_mut(id).pools.ability_uses.get_mut(i) {
        *spent = spent.saturating_add(1);
    }
}

/// Whether `c`'s ability `i` is a breath weapon (a fight stored before area abilities kept it
/// apart, as the first).
fn breathes(c: &Combatant, i: usize) -> bool {
    c.stat_block()
        .is_some_and(|m| m.ability(i).is_some_and(|a| a.breath) || (i == 0 && m.breath.is_some()))
}

/// Ability `i` lands on whom its area catches: each saves; a failure takes the damage and the
/// status, a success half the damage (or none).
pub fn resolve(ctx: &mut Ctx, monster: CombatantId, i: usize) {
    let m = ctx.combat.get(monster);
    let Some(ability) = m.stat_block().and_then(|k| k.ability(i)).cloned() else {
        return;
    };
    if !m.is_standing() {
        return;
    }
    let targets = crate::casting::caught(ctx.combat, monster, ability.area, ability.size);
    let rolled = ability.damage.map_or(0, |d| d.roll(ctx.dice, false));
    let mut steps = Vec::new();
    for t in targets {
        let success = crate::saves::roll(ctx, t, ability.save, ability.save_dc, false);
        if let (Some(_), Some(damage_type)) = (ability.damage, ability.damage_type) {
            let amount = match (success, ability.half) {
                (false, _) => rolled,
                (true, true) => rolled / 2,
                (true, false) => 0,
            };
            if !success && ability.save == crate::content::Ability::Dex {
                steps.push(Step::Offer {
                    reactor: t,
                    trigger: ReactionTrigger::FailedDexSave {
                        target: t,
                        damage: rolled,
                        half_on_save: ability.half,
                    },
                });
            }
            steps.push(Step::Damage(PendingDamage::single(
                Some(monster),
                t,
                amount,
                damage_type,
            )));
        }
        if !success && let Some(affliction) = affliction(&ability) {
            steps.push(Step::Afflict {
                source: monster,
                target: t,
                affliction,
            });
        }
    }
    ctx.push_front(steps);
}

/// The status a failed save gives, taking hold with no second save (one that ends on a save
/// repeats this one).
fn affliction(ability: &AbilityDef) -> Option<Affliction> {
    let def = AfflictionDef {
        status: ability.status.clone()?,
        save: Some((ability.save, ability.save_dc)),
    };
    Some(Affliction {
        save: None,
        ..Affliction::from(&def)
    })
}

/// At the start of its turn (every model's upkeep), each spent recharging ability comes back
/// when a d6 rolls its `recharge` or more.
pub fn recharge(ctx: &mut Ctx, id: CombatantId) {
    let Some(monster) = ctx.combat.get(id).stat_block().cloned() else {
        return;
    };
    for (i, ability) in monster.each_area_ability().enumerate() {
        if ability.recharge == 0 || ctx.combat.get(id).pools.ability_uses[i] == 0 {
            continue;
        }
        let roll = ctx.dice.die(6);
        if roll >= u32::from(ability.recharge) {
            ctx.combat.get_mut(id).pools.ability_uses[i] = 0;
            let named = (!breathes(ctx.combat.get(id), i)).then(|| ability.name.to_string());
            ctx.emit(Event::BreathRecharged {
                id,
                roll,
                ability: named,
            });
        }
    }
}

/// Recharging area abilities in turns' upkeep.
pub struct Recharge;

impl crate::turn::TurnHook for Recharge {
    fn upkeep(&self, ctx: &mut Ctx, id: CombatantId) {
        recharge(ctx, id);
    }
}
