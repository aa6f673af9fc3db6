//! Bonus actions (seed 000 §2.2): only when a class ability, spell, race or item grants one —
//! the off-hand attack, Second Wind, Cunning Action, Healing Word, Hunter's Mark, Rage, Misty Step
//! and Cunning Strike, each with its gate.

use crate::content::Spell;
use crate::content::data::{Feature, RaceTrait};
use crate::ctx::Ctx;
use crate::dice::DiceExpr;
use crate::state::command::{BonusAction, CunningMove};
use crate::state::event::{AttackKind, Event};
use crate::state::ids::CombatantId;
use crate::state::readied::Observed;
use crate::state::resources::Resource;
use crate::state::step::{Step, Strike, Swing};
use crate::state::violation::RuleViolation;
use crate::{actions, attack, casting};

fn not_granted(ability: &str, why: &str) -> RuleViolation {
    RuleViolation::NoBonusActionGranted {
        ability: ability.into(),
        why: why.into(),
    }
}

/// Refuses `ability` unless the combatant's class grants `feature` at its level: a class that
/// grants it later says from which level; otherwise the refusal names the classes that have it.
fn gate(ctx: &Ctx, id: CombatantId, feature: Feature, ability: &str) -> Result<(), RuleViolation> {
    let c = ctx.combat.get(id);
    let ruleset = ctx.combat.ruleset;
    if c.has_feature(feature, ruleset) {
        return Ok(());
    }
    if let (Some(level), Some(class)) = (c.sheet.feature_level(feature, ruleset), c.class_name()) {
        return Err(RuleViolation::NotEligible {
            ability: ability.into(),
            requirement: format!("{class} level {level}"),
        });
    }
    let classes: Vec<&str> = crate::content::data::builtin()
        .classes
        .all()
        .iter()
        .filter(|k| k.features.iter().any(|g| g.feature == feature))
        .map(|k| &*k.name)
        .collect();
    let why = match classes.as_slice() {
        [] => "no class has it".to_owned(),
        [one] => format!("it is a {one} ability"),
        many => format!("it is an ability of the {}", many.join(" or ")),
    };
    Err(not_granted(ability, &why))
}

/// Validates the gate, then spends the bonus action and applies the effect.
#[allow(
    clippy::too_many_lines,
    reason = "one short arm per bonus action: the match is their table"
)]
pub fn perform(ctx: &mut Ctx, id: CombatantId, bonus: BonusAction) -> Result<Vec<Step>, RuleViolation> {
    match bonus {
        BonusAction::OffHandAttack { target } => {
            if !ctx.combat.get(id).off_hand().is_some_and(|w| w.light) {
                return Err(not_granted(
                    "an off-hand attack",
                    "it needs a Light weapon in your off hand",
                ));
            }
            crate::timing::check_slot(ctx.combat, id, Resource::BonusAction)?;
            let target = actions::attack_target(ctx.combat, id, target, Strike::OffHand)?;
            crate::timing::spend_slot(ctx.combat, id, Resource::BonusAction);
            Ok(vec![Step::Swing(Swing {
                attacker: id,
                target,
                strike: Strike::OffHand,
                kind: AttackKind::OffHand,
                swing: 1,
                of: 1,
                declared: false,
            })])
        }
        BonusAction::SecondWind => {
            gate(ctx, id, Feature::SecondWind, "Second Wind")?;
            crate::timing::check_slot(ctx.combat, id, Resource::BonusAction)?;
            if ctx.combat.get(id).pools.second_wind == 0 {
                return Err(RuleViolation::PoolEmpty {
                    pool: "Second Wind".into(),
                });
            }
            crate::timing::spend_slot(ctx.combat, id, Resource::BonusAction);
            let c = ctx.combat.get_mut(id);
            c.pools.second_wind -= 1;
            let level = c.level() as i32;
            ctx.emit(Event::AbilityUsed {
                id,
                ability: "Second Wind".into(),
            });
            let amount = DiceExpr::new(1, 10, level).roll(ctx.dice, false);
            attack::heal(ctx, id, id, amount);
            Ok(ctx.readied_offers(&Observed::UsesAbility {
                user: id,
                ability: "second wind".into(),
            }))
        }
        BonusAction::CunningAction(movement) => {
            gate(ctx, id, Feature::CunningAction, "Cunning Action")?;
            crate::timing::check_slot(ctx.combat, id, Resource::BonusAction)?;
            if movement == CunningMove::Hide {
                actions::hide_allowed(ctx.combat, id)?;
            }
            crate::timing::spend_slot(ctx.combat, id, Resource::BonusAction);
            match movement {
                CunningMove::Dash => {
                    actions::dash(ctx, id);
                }
                CunningMove::Disengage => {
                    ctx.combat.get_mut(id).conditions.disengaged = true;
                    ctx.emit(Event::Disengaged { id });
                }
                CunningMove::Hide => actions::hide(ctx, id),
            }
            Ok(vec![])
        }
        BonusAction::HealingWord { target } => {
            if !ctx.combat.get(id).knows(Spell::HEALING_WORD) {
                return Err(not_granted("Healing Word", "it needs the spell (a Cleric's)"));
            }
            casting::cast(ctx, id, Spell::HEALING_WORD, Some(target))
        }
        BonusAction::HuntersMark { target } => {
            if !ctx.combat.get(id).knows(Spell::HUNTERS_MARK) {
                return Err(not_granted("Hunter's Mark", "it needs the spell (a Ranger's)"));
            }
            casting::cast(ctx, id, Spell::HUNTERS_MARK, Some(target))
        }
        BonusAction::Rage => {
            let c = ctx.combat.get(id);
            let berserker = c.has_feature(Feature::Rage, ctx.combat.ruleset);
            let orc = c.has_trait(RaceTrait::Rage);
            if !berserker && !orc {
                return Err(not_granted("Rage", "it needs the Orc heritage or the Berserker class"));
            }
            if c.conditions.raging {
                return Err(RuleViolation::Pointless {
                    reason: "You are already raging.".into(),
                });
            }
            crate::timing::check_slot(ctx.combat, id, Resource::BonusAction)?;
            let c = ctx.combat.get_mut(id);
            if berserker && c.pools.rage > 0 {
                c.pools.rage -= 1;
            } else if orc && c.pools.racial_rage {
                c.pools.racial_rage = false;
            } else {
                return Err(RuleViolation::PoolEmpty { pool: "Rage".into() });
            }
            c.conditions.raging = true;
            crate::timing::spend_slot(ctx.combat, id, Resource::BonusAction);
            ctx.emit(Event::AbilityUsed {
                id,
                ability: "Rage".into(),
            });
            ctx.emit(Event::ConditionApplied {
                id,
                condition: "raging".into(),
            });
            Ok(ctx.readied_offers(&Observed::UsesAbility {
                user: id,
                ability: "rage".into(),
            }))
        }
        BonusAction::MistyStep { target } => {
            let c = ctx.combat.get(id);
            if c.has_trait(RaceTrait::MistyStep) && c.pools.racial_misty_step {
                crate::timing::check_slot(ctx.combat, id, Resource::BonusAction)?;
                let plan = {
                    let intent = match target {
                        Some(t) if t != id => {
                            actions::enemy(ctx.combat, id, t)?;
                            crate::state::movement::MoveIntent::Melee(t)
                        }
                        _ => crate::state::movement::MoveIntent::Ranged,
                    };
                    let mut plan = crate::movement::plan(intent, &ctx.combat.bands_of(id), false)?;
                    plan.feet = 0;
                    plan.teleport = true;
                    plan
                };
                crate::timing::spend_slot(ctx.combat, id, Resource::BonusAction);
                let c = ctx.combat.get_mut(id);
                c.pools.racial_misty_step = false;
                ctx.emit(Event::AbilityUsed {
                    id,
                    ability: "Misty Step".into(),
                });
                let mut steps = ctx.readied_offers(&Observed::UsesAbility {
                    user: id,
                    ability: "misty step".into(),
                });
                steps.push(Step::Arrive { mover: id, plan });
                return Ok(steps);
            }
            if !c.knows(Spell::MISTY_STEP) {
                let why = if c.has_trait(RaceTrait::MistyStep) {
                    "your Tiefling Misty Step is spent this fight"
                } else {
                    "it needs the Tiefling heritage or the spell"
                };
                return Err(not_granted("Misty Step", why));
            }
            casting::cast(ctx, id, Spell::MISTY_STEP, target)
        }
        BonusAction::CunningStrike(rider) => {
            gate(ctx, id, Feature::CunningStrike, "Cunning Strike")?;
            let c = ctx.combat.get(id);
            crate::timing::check_slot(ctx.combat, id, Resource::BonusAction)?;
            if c.conditions.sneak_attack_used {
                return Err(RuleViolation::Pointless {
                    reason: "You already used Sneak Attack this turn.".into(),
                });
            }
            crate::timing::spend_slot(ctx.combat, id, Resource::BonusAction);
            let c = ctx.combat.get_mut(id);
            c.conditions.cunning_strike = Some(rider);
            ctx.emit(Event::CunningStrikeReady { id, rider });
            Ok(vec![])
        }
    }
}

/// The bonus actions `c` is granted at all (by class and level, race, spell or off-hand
/// weapon), named as `/bonus ability:` takes them — what autocomplete offers. Whether one can
/// be taken now (the slot, a spent pool) is `perform`'s to say.
pub fn granted(c: &crate::combatant::Combatant, ruleset: crate::Ruleset) -> Vec<&'static str> {
    [
        ("off-hand attack", c.off_hand().is_some_and(|w| w.light)),
        ("second wind", c.has_feature(Feature::SecondWind, ruleset)),
        ("cunning action", c.has_feature(Feature::CunningAction, ruleset)),
        ("cunning strike", c.has_feature(Feature::CunningStrike, ruleset)),
        ("healing word", c.knows(Spell::HEALING_WORD)),
        ("hunter's mark", c.knows(Spell::HUNTERS_MARK)),
        (
            "rage",
            c.has_feature(Feature::Rage, ruleset) || c.has_trait(RaceTrait::Rage),
        ),
        (
            "misty step",
            c.has_trait(RaceTrait::MistyStep) || c.knows(Spell::MISTY_STEP),
        ),
    ]
    .into_iter()
    .filter_map(|(name, granted)| granted.then_some(name))
    .collect()
}
