//! Cast Spell (seed 000 §2.1): slots or class resources, casting time deciding which resource of
//! the action economy it spends; every cast can be answered by Counterspell (§2.3) and readied
//! actions (§5) before its effect resolves. Whom an area catches (`caught`) serves area abilities
//! too (`crate::abilities`).

use crate::content::CastingTime;
use crate::content::data::{AfflictionDef, Area, CreatureType, SpellDef, SpellEffectDef as SpellEffect, StatusDef};
use crate::content::statuses::{Affliction, StatusEffect};
use crate::content::{Ability, Spell};
use crate::ctx::Ctx;
use crate::movement;
use crate::state::combat::Combat;
use crate::state::combatant::Combatant;
use crate::state::event::{AttackKind, Event};
use crate::state::ids::CombatantId;
use crate::state::movement::{Band, MoveIntent};
use crate::state::reactions::ReactionTrigger;
use crate::state::readied::Observed;
use crate::state::resources::Resource;
use crate::state::step::{PendingDamage, SpellCast, Step, Strike, Swing};
use crate::state::violation::RuleViolation;
use crate::{actions, attack};

/// Refuses a spell the caster doesn't know or has no slot for (`readied` skips the casting-time check).
pub fn check_castable(caster: &Combatant, spell: Spell, readied: bool) -> Result<(), RuleViolation> {
    let Some(stats) = caster.known_spell(spell) else {
        let known: Vec<&str> = caster.known_spells().iter().map(|s| &*s.name).collect();
        let known = if known.is_empty() {
            "none".to_owned()
        } else {
            known.join(", ")
        };
        return Err(RuleViolation::SpellNotKnown {
            spell: spell.label(),
            known,
        });
    };
    if !readied && stats.casting_time == CastingTime::Reaction {
        return Err(RuleViolation::WrongCastingTime {
            spell: stats.name.to_string(),
            how: "as a reaction — it is offered when an enemy casts a spell".into(),
        });
    }
    if !caster.can_cast(stats) {
        return Err(match caster.innate(stats) {
            Some((_, per_day)) => RuleViolation::InnateSpellSpent {
                spell: stats.name.to_string(),
                per_day: u32::from(per_day),
            },
            None => RuleViolation::NoSpellSlot { level: stats.level },
        });
    }
    Ok(())
}

/// How a cast was paid for.
enum Paid {
    /// A slot of this level.
    Slot(u32),
    /// No slot: a cantrip, or an innate cast.
    Free,
}

impl Paid {
    fn slot(self) -> Option<u32> {
        match self {
            Paid::Slot(level) => Some(level),
            Paid::Free => None,
        }
    }
}

/// Pays for casting `spell`: an innate cast (none at will), or the lowest slot of its level or
/// higher (none for a cantrip); `None` when it cannot be paid for.
fn pay(c: &mut Combatant, spell: Spell) -> Option<Paid> {
    let def = c.spell(spell)?;
    if !c.can_cast(def) {
        return None;
    }
    if let Some((i, per_day)) = c.innate(def) {
        if per_day > 0 {
            c.pools.innate_spent[i] += 1;
        }
        return Some(Paid::Free);
    }
    if def.level == 0 {
        return Some(Paid::Free);
    }
    let level = c.lowest_slot(def.level)?;
    c.pools.spell_slots[level as usize - 1] -= 1;
    Some(Paid::Slot(level))
}

/// What the caster's copy of `spell` says (known, or on a scroll it carries).
pub fn spell_def(caster: &Combatant, spell: Spell) -> Result<&SpellDef, RuleViolation> {
    caster.spell(spell).ok_or_else(|| RuleViolation::SpellNotKnown {
        spell: spell.label(),
        known: caster
            .known_spells()
            .iter()
            .map(|s| &*s.name)
            .collect::<Vec<_>>()
            .join(", "),
    })
}

/// The target a spell lands on: named, or yourself for ally spells, or the nearest standing enemy.
fn spell_target(
    ctx: &Ctx,
    id: CombatantId,
    spell: Spell,
    target: Option<CombatantId>,
) -> Result<Option<CombatantId>, RuleViolation> {
    let stats = spell_def(ctx.combat.get(id), spell)?;
    if !stats.needs_target() {
        if let Some(t) = target {
            ctx.combat.find(t)?;
        }
        return Ok(target);
    }
    if stats.targets_ally() {
        let t = target.unwrap_or(id);
        actions::ally(ctx.combat, id, t, true)?;
        affected(stats, ctx.combat.get(t))?;
        return Ok(Some(t));
    }
    if let Some(t) = target {
        actions::enemy(ctx.combat, id, t)?;
        affected(stats, ctx.combat.get(t))?;
        Ok(Some(t))
    } else {
        let mut enemies: Vec<(Band, CombatantId)> = ctx
            .combat
            .bands_of(id)
            .into_iter()
            .filter(|(t, _)| ctx.combat.get(*t).is_standing() && stats.affects(ctx.combat.get(*t).creature_type()))
            .map(|(t, b)| (b, t))
            .collect();
        enemies.sort();
        enemies
            .first()
            .map(|(_, t)| Some(*t))
            .ok_or_else(|| RuleViolation::InvalidTarget {
                reason: "There's no enemy left to target.".into(),
            })
    }
}

/// Refuses a target of a creature type the spell does not affect (Hold Person on a wolf).
fn affected(stats: &SpellDef, target: &Combatant) -> Result<(), RuleViolation> {
    if stats.affects(target.creature_type()) {
        return Ok(());
    }
    let types: Vec<&str> = stats.affects.iter().map(|t| t.name()).collect();
    let is = target
        .creature_type()
        .map_or_else(|| "of no type it names".to_owned(), |t| format!("a {}", t.name()));
    Err(RuleViolation::InvalidTarget {
        reason: format!(
            "{} affects only a {} — {} is {is}.",
            stats.name,
            types.join(" or a "),
            target.name
        ),
    })
}

/// Refuses a Misty Step that would go nowhere.
fn misty_step_plan(
    ctx: &Ctx,
    id: CombatantId,
    target: Option<CombatantId>,
) -> Result<movement::MovePlan, RuleViolation> {
    let intent = match target {
        Some(t) if t != id => {
            actions::enemy(ctx.combat, id, t)?;
            MoveIntent::Melee(t)
        }
        _ => MoveIntent::Ranged,
    };
    let mut plan = movement::plan(intent, &ctx.combat.bands_of(id), false)?;
    plan.feet = 0;
    plan.teleport = true;
    Ok(plan)
}

/// Cast Spell: validates, spends the action (or bonus action) and the slot, then offers
/// counterspells and readied actions before the effect.
pub fn cast(
    ctx: &mut Ctx,
    id: CombatantId,
    spell: Spell,
    target: Option<CombatantId>,
) -> Result<Vec<Step>, RuleViolation> {
    let caster = ctx.combat.get(id);
    check_castable(caster, spell, false)?;
    let (effect, casting_time) = spell_def(caster, spell).map(|d| (d.effect, d.casting_time))?;
    let resource = if casting_time == CastingTime::BonusAction {
        Resource::BonusAction
    } else {
        Resource::Action
    };
    crate::timing::check_slot(ctx.combat, id, resource)?;
    let target = spell_target(ctx, id, spell, target)?;
    if effect == SpellEffect::MistyStep {
        misty_step_plan(ctx, id, target)?;
    }
    if let (SpellEffect::Heal { .. }, Some(t)) = (effect, target) {
        let t = ctx.combat.get(t);
        if t.hp >= t.max_hp {
            return Err(RuleViolation::Pointless {
                reason: format!("{} is at full hit points — the spell would be wasted.", t.name),
            });
        }
    }
    crate::timing::spend_slot(ctx.combat, id, resource);
    let slot = pay(ctx.combat.get_mut(id), spell).and_then(Paid::slot);
    Ok(begin(
        ctx,
        SpellCast {
            caster: id,
            spell,
            target,
            slot,
            countered: false,
        },
    ))
}

/// Casts a spell from a scroll: the Use Item action, no slot.
pub fn cast_scroll(
    ctx: &mut Ctx,
    id: CombatantId,
    spell: Spell,
    target: Option<CombatantId>,
) -> Result<Vec<Step>, RuleViolation> {
    crate::timing::check_slot(ctx.combat, id, Resource::Action)?;
    let target = spell_target(ctx, id, spell, target)?;
    crate::timing::spend_slot(ctx.combat, id, Resource::Action);
    Ok(begin(
        ctx,
        SpellCast {
            caster: id,
            spell,
            target,
            slot: None,
            countered: false,
        },
    ))
}

/// Casts a readied spell as a reaction: the slot is spent now.
pub fn cast_readied(ctx: &mut Ctx, id: CombatantId, spell: Spell, target: Option<CombatantId>) -> Vec<Step> {
    let Ok(target) = spell_target(ctx, id, spell, target) else {
        return vec![];
    };
    let Some(slot) = pay(ctx.combat.get_mut(id), spell).map(Paid::slot) else {
        return vec![];
    };
    begin(
        ctx,
        SpellCast {
            caster: id,
            spell,
            target,
            slot,
            countered: false,
        },
    )
}

/// Announces a cast: counterspell offers, readied offers, then the effect.
pub fn begin(ctx: &mut Ctx, cast: SpellCast) -> Vec<Step> {
    ctx.emit(Event::SpellCast {
        caster: cast.caster,
        spell: cast.spell,
        slot: cast.slot,
        target: cast.target,
    });
    let mut steps = ctx.offers_to_all(&ReactionTrigger::CastsSpell {
        caster: cast.caster,
        spell: cast.spell,
    });
    steps.extend(ctx.readied_offers(&Observed::CastsSpell {
        caster: cast.caster,
        spell: cast.spell,
    }));
    steps.push(Step::Spell(cast));
    steps
}

/// Beams of Eldritch Blast by caster level (the cantrip dice of the built-in level table):
/// 1, 2 at 5, 3 at 11, 4 at 17.
pub fn beams(level: u32) -> u32 {
    crate::content::data::builtin().levels.cantrip_multiplier(level)
}

/// The spell's effect, unless it was countered or its caster fell.
#[allow(
    clippy::too_many_lines,
    reason = "one arm per kind of spell effect, in the order the seed lists them"
)]
pub fn resolve(ctx: &mut Ctx, cast: SpellCast) {
    if cast.countered || !ctx.combat.get(cast.caster).is_standing() {
        return;
    }
    let caster = ctx.combat.get(cast.caster);
    let Ok((spell_level, effect, status, concentration, affects)) = spell_def(caster, cast.spell).map(|d| {
        (
            d.level,
            d.effect,
            d.status.clone(),
            d.concentration.then(|| d.name.to_string()),
            d.affects.clone(),
        )
    }) else {
        return;
    };
    // A concentration spell: the caster's concentration (a new one ending the old) holds up the
    // statuses it gives.
    let held_by = concentration.map(|spell| {
        crate::concentration::begin(ctx, cast.caster, &spell);
        cast.caster
    });
    let caster = ctx.combat.get(cast.caster);
    let target = cast.target;
    let mut steps = Vec::new();
    match effect {
        SpellEffect::Attack { .. } | SpellEffect::Beams { .. } => {
            let Some(t) = target.filter(|t| !ctx.combat.get(*t).is_dead()) else {
                return;
            };
            let of = if matches!(effect, SpellEffect::Beams { .. }) {
                caster.cantrip_dice()
            } else {
                1
            };
            for swing in 1..=of {
                steps.push(Step::Swing(Swing {
                    attacker: cast.caster,
                    target: t,
                    strike: Strike::Spell(cast.spell),
                    kind: AttackKind::Spell,
                    swing,
                    of,
                    declared: false,
                }));
            }
        }
        SpellEffect::Darts { count, damage } => {
            let Some(t) = target.filter(|t| !ctx.combat.get(*t).is_dead()) else {
                return;
            };
            let darts = count + cast.slot.map_or(0, |s| s.saturating_sub(spell_level));
            for _ in 0..darts {
                let amount = damage.roll(ctx.dice, false);
                steps.push(Step::Damage(PendingDamage::single(
                    Some(cast.caster),
                    t,
                    amount,
                    crate::content::DamageType::Force,
                )));
            }
        }
        SpellEffect::Save {
            ability,
            damage,
            damage_type,
            half_on_save,
            area,
        } => {
            let Some(t) = target.filter(|t| !ctx.combat.get(*t).is_dead()) else {
                return;
            };
            let dc = caster.spell_save_dc();
            let multiplier = if spell_level == 0 { caster.cantrip_dice() } else { 1 };
            let damage = crate::dice::DiceExpr::new(damage.count * multiplier, damage.sides, damage.bonus);
            let mut targets = vec![t];
            if area {
                let others: Vec<CombatantId> = ctx
                    .combat
                    .combatants
                    .iter()
                    .filter(|o| {
                        o.id != t
                            && o.id != cast.caster
                            && !o.is_dead()
                            && ctx.combat.band(o.id, t) == Band::Melee
                            && CreatureType::affected(&affects, o.creature_type())
                    })
                    .map(|o| o.id)
                    .collect();
                targets.extend(others);
            }
            let rolled = damage.roll(ctx.dice, false);
            let affliction = status.map(|status| Affliction {
                save: None,
                ..spell_affliction(status, ability, dc, held_by)
            });
            steps = save_for_damage(
                ctx,
                Some(cast.caster),
                &targets,
                ability,
                dc,
                rolled,
                damage_type,
                half_on_save,
                affliction.as_ref(),
            );
        }
        SpellEffect::Afflict { ability, targets } => {
            let (Some(t), Some(status)) = (target.filter(|t| ctx.combat.get(*t).is_standing()), status) else {
                return;
            };
            let affliction = spell_affliction(status, ability, caster.spell_save_dc(), held_by);
            for victim in also_caught(ctx.combat, cast.caster, t, targets, true, &affects) {
                steps.push(Step::Afflict {
                    source: cast.caster,
                    target: victim,
                    affliction: affliction.clone(),
                });
            }
        }
        SpellEffect::Buff { targets } => {
            let (Some(t), Some(status)) = (target, status) else {
                return;
            };
            let status = StatusEffect {
                concentration: held_by,
                ..StatusEffect::from(&status)
            };
            for ally in also_caught(ctx.combat, cast.caster, t, targets, false, &affects) {
                crate::statuses::bestow(ctx, cast.caster, ally, status.clone());
            }
        }
        SpellEffect::Heal { dice } => {
            let Some(t) = target else { return };
            let amount = dice.roll(ctx.dice, false) + caster.casting_modifier();
            attack::heal(ctx, cast.caster, t, amount);
        }
        SpellEffect::TempHp { dice } => {
            let Some(t) = target else { return };
            let amount = dice.roll(ctx.dice, false);
            crate::temp_hp::gain(ctx, cast.caster, t, amount);
        }
        SpellEffect::HuntersMark => {
            let Some(t) = target else { return };
            ctx.combat.get_mut(cast.caster).conditions.hunters_mark = Some(t);
            ctx.emit(Event::ConditionApplied {
                id: t,
                condition: "hunter's mark".into(),
            });
        }
        SpellEffect::Entangle { ability } => {
            let Some(t) = target.filter(|t| !ctx.combat.get(*t).is_dead()) else {
                return;
            };
            let dc = caster.spell_save_dc();
            // Webs and vines hold what can be restrained (a creature immune to it slips them).
            if !crate::saves::roll(ctx, t, ability, dc, true)
                && !crate::defences::shrugs_off(ctx, t, crate::content::Condition::Restrained)
            {
                let held = &mut ctx.combat.get_mut(t).conditions;
                held.entangled = 1;
                held.escape_dc = held.escape_dc.max(dc);
                ctx.emit(Event::ConditionApplied {
                    id: t,
                    condition: "entangled".into(),
                });
            }
        }
        SpellEffect::MistyStep => {
            if let Ok(plan) = misty_step_plan(ctx, cast.caster, target) {
                steps.push(Step::Arrive {
                    mover: cast.caster,
                    plan,
                });
            }
        }
        SpellEffect::Haste => {
            let Some(t) = target else { return };
            actions::haste(ctx, t);
        }
        SpellEffect::Counterspell => {}
    }
    ctx.push_front(steps);
}

/// A spell's status as a failed save against it gives it: `save_ends = true` repeats that save,
/// and Magic Resistance gives advantage on both.
fn spell_affliction(status: StatusDef, ability: Ability, dc: i32, held_by: Option<CombatantId>) -> Affliction {
    let mut affliction = Affliction::from(&AfflictionDef {
        status,
        save: Some((ability, dc)),
    })
    .by_spell();
    affliction.status.concentration = held_by;
    affliction
}

/// Whom a spell for up to `count` creatures reaches: its target first, then — enemies of the
/// caster (`enemies`) standing within Near, or the caster's standing allies (the caster
/// included) — those in melee with the caster before those Near, by id.
fn also_caught(
    combat: &Combat,
    caster: CombatantId,
    target: CombatantId,
    count: u32,
    enemies: bool,
    affects: &[CreatureType],
) -> Vec<CombatantId> {
    let mut chosen = vec![target];
    if count <= 1 {
        return chosen;
    }
    let side = combat.get(caster).side;
    let mut others: Vec<(Band, CombatantId)> = combat
        .combatants
        .iter()
        .filter(|o| o.id != target && o.is_standing() && (o.side == side) != enemies)
        .filter(|o| CreatureType::affected(affects, o.creature_type()))
        .map(|o| {
            let band = if o.id == caster {
                Band::Melee
            } else {
                combat.band(caster, o.id)
            };
            (band, o.id)
        })
        .filter(|(band, _)| !enemies || *band != Band::Far)
        .collect();
    others.sort();
    chosen.extend(others.into_iter().take(count as usize - 1).map(|(_, id)| id));
    chosen
}

/// A spell's save for damage against several targets: full on a failure (Evasion offered on a
/// failed DEX save) and the spell's status after it, half or none on a success.
#[allow(clippy::too_many_arguments)]
fn save_for_damage(
    ctx: &mut Ctx,
    source: Option<CombatantId>,
    targets: &[CombatantId],
    ability: Ability,
    dc: i32,
    rolled: i32,
    damage_type: crate::content::DamageType,
    half_on_save: bool,
    affliction: Option<&Affliction>,
) -> Vec<Step> {
    let mut steps = Vec::new();
    for &t in targets {
        let success = crate::saves::roll(ctx, t, ability, dc, true);
        let amount = if success {
            if half_on_save { rolled / 2 } else { 0 }
        } else {
            rolled
        };
        if !success && ability == Ability::Dex {
            steps.push(Step::Offer {
                reactor: t,
                trigger: ReactionTrigger::FailedDexSave {
                    target: t,
                    damage: rolled,
                    half_on_save,
                },
            });
        }
        steps.push(Step::Damage(PendingDamage::single(source, t, amount, damage_type)));
        if !success && let (Some(source), Some(affliction)) = (source, affliction) {
            steps.push(Step::Afflict {
                source,
                target: t,
                affliction: affliction.clone(),
            });
        }
    }
    steps
}

/// Whom an area effect of `area` and `size` feet from `source` catches (docs/content.md
/// "Areas"): only enemies, only within Near, and no more than the area holds (`Area::catches`:
/// a 15-ft cone two, a 30-ft cone three, a 60-ft line two). Positions among allies are not
/// tracked, so a *scrum* is what the bands tell: an enemy and every enemy in melee with one of
/// the same creatures of the source's side (the source included). The area aims at the standing
/// enemy with the largest scrum (the first such by id) and fills with that scrum first, then
/// with the enemies nearest the source (those in melee with it before those Near), by id; the
/// caught are returned by id. A burst catches everyone within Near.
pub fn caught(combat: &Combat, source: CombatantId, area: Area, size: i32) -> Vec<CombatantId> {
    let near: Vec<(CombatantId, Band)> = combat
        .bands_of(source)
        .into_iter()
        .filter(|(_, band)| *band != Band::Far)
        .collect();
    let Some(room) = area.catches(size) else {
        return near.into_iter().map(|(t, _)| t).collect();
    };
    let source_side = combat.get(source).side;
    let holders: Vec<CombatantId> = combat
        .combatants
        .iter()
        .filter(|c| c.side == source_side && !c.is_dead())
        .map(|c| c.id)
        .collect();
    let in_scrum = |aim: CombatantId, o: CombatantId| {
        o == aim
            || holders
                .iter()
                .any(|&h| combat.band(h, aim) == Band::Melee && combat.band(h, o) == Band::Melee)
    };
    let Some(aim) = near
        .iter()
        .map(|&(o, _)| o)
        .filter(|&o| combat.get(o).is_standing())
        .max_by_key(|&aim| {
            let scrum = near.iter().filter(|&&(o, _)| in_scrum(aim, o)).count();
            (scrum, std::cmp::Reverse(aim.0))
        })
    else {
        return near.into_iter().map(|(t, _)| t).collect();
    };
    let mut order = near.clone();
    order.sort_by_key(|&(o, band)| (o != aim, !in_scrum(aim, o), band, o));
    let mut caught: Vec<CombatantId> = order.into_iter().take(room).map(|(o, _)| o).collect();
    caught.sort_unstable();
    caught
}
