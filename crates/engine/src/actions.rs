//! The twelve standard actions (seed 000 §2.1) and movement commands (§3.3): validation first,
//! then effects; anything that can be reacted to is queued as steps.

use crate::content::data::ItemEffectDef as ItemEffect;
use crate::content::{Condition, Item, Skill, Spell};
use crate::ctx::Ctx;
use crate::dice::RollMode;
use crate::movement;
use crate::readied;
use crate::state::combat::Combat;
use crate::state::command::Command;
use crate::state::event::Event;
use crate::state::ids::{CombatantId, Side};
use crate::state::movement::ShoveMode;
use crate::state::movement::{Band, MoveIntent};
use crate::state::reactions::ReactionTrigger;
use crate::state::readied::{Observed, ReadiedAction};
use crate::state::resources::Resource;
use crate::state::step::{PendingDamage, Step, Strike};
use crate::state::violation::RuleViolation;
use crate::{attack, casting, multiattack};

/// Refuses a target that is not an enemy still in the fight.
pub fn enemy(combat: &Combat, id: CombatantId, target: CombatantId) -> Result<(), RuleViolation> {
    let t = combat.find(target)?;
    if t.side == combat.get(id).side {
        return Err(RuleViolation::InvalidTarget {
            reason: format!("{} is on your side.", t.name),
        });
    }
    if t.is_dead() {
        return Err(RuleViolation::InvalidTarget {
            reason: format!("{} is already dead.", t.name),
        });
    }
    Ok(())
}

/// Refuses a target that is not a living ally (or, when `self_ok`, yourself).
pub fn ally(combat: &Combat, id: CombatantId, target: CombatantId, self_ok: bool) -> Result<(), RuleViolation> {
    let t = combat.find(target)?;
    if target == id && !self_ok {
        return Err(RuleViolation::InvalidTarget {
            reason: "Choose an ally, not yourself.".into(),
        });
    }
    if t.side != combat.get(id).side {
        return Err(RuleViolation::InvalidTarget {
            reason: format!("{} is not on your side.", t.name),
        });
    }
    if t.is_dead() {
        return Err(RuleViolation::InvalidTarget {
            reason: format!("{} is beyond help.", t.name),
        });
    }
    Ok(())
}

/// Refuses a target out of melee reach.
pub fn in_melee(combat: &Combat, id: CombatantId, target: CombatantId) -> Result<(), RuleViolation> {
    if combat.band(id, target) == Band::Melee {
        Ok(())
    } else {
        Err(RuleViolation::OutOfReach {
            target: combat.get(target).name.clone(),
        })
    }
}

/// The target of an attack: the one named, or the nearest standing enemy within reach.
pub fn attack_target(
    combat: &Combat,
    id: CombatantId,
    target: Option<CombatantId>,
    strike: Strike,
) -> Result<CombatantId, RuleViolation> {
    let me = combat.get(id);
    if let Some(target) = target {
        enemy(combat, id, target)?;
        if !multiattack::reaches(combat, me, target, strike) && multiattack::strike_for(combat, me, target, 1).is_none()
        {
            return Err(RuleViolation::OutOfReach {
                target: combat.get(target).name.clone(),
            });
        }
        if (strike == Strike::OffHand || me.stat_block().is_none()) && !multiattack::reaches(combat, me, target, strike)
        {
            return Err(RuleViolation::OutOfReach {
                target: combat.get(target).name.clone(),
            });
        }
        return Ok(target);
    }
    // The nearest standing enemy within reach, the lowest id among the nearest.
    combat
        .nearest_opponent(id, |t, _| {
            t.is_standing() && multiattack::reaches(combat, me, t.id, strike)
        })
        .ok_or_else(|| RuleViolation::InvalidTarget {
            reason: "No enemy is within reach — name a target, or /move melee first.".into(),
        })
}

fn spend(ctx: &mut Ctx, id: CombatantId, resource: Resource) -> Result<(), RuleViolation> {
    crate::timing::check_slot(ctx.combat, id, resource)?;
    crate::timing::spend_slot(ctx.combat, id, resource);
    Ok(())
}

/// A d20 ability check with the Help advantage, which it consumes.
pub fn check(ctx: &mut Ctx, id: CombatantId, skill: Skill, extra_advantage: bool) -> i32 {
    let c = ctx.combat.get(id);
    let mode = RollMode::from_sources(c.conditions.helped || extra_advantage, c.conditions.poisoned);
    let bonus = c.skill_bonus(skill);
    ctx.combat.get_mut(id).conditions.helped = false;
    ctx.dice.d20(mode).natural as i32 + bonus
}

/// The standard actions other than Cast Spell and movement.
pub fn perform(ctx: &mut Ctx, id: CombatantId, command: &Command) -> Result<Vec<Step>, RuleViolation> {
    crate::timing::check_slot(ctx.combat, id, Resource::Action)?;
    match command {
        Command::Attack { target } => {
            let target = attack_target(ctx.combat, id, *target, Strike::MainHand)?;
            spend(ctx, id, Resource::Action)?;
            ctx.combat.get_mut(id).conditions.attacked_this_turn = true;
            let me = ctx.combat.get(id);
            // One swing (the usual case) is set aside for `dispatch` to run at once, not put in
            // a `Vec` of its own.
            if let Some(lone) = multiattack::lone_swing(ctx.combat, me, target) {
                ctx.combat.first_swing = lone;
                return Ok(Vec::new());
            }
            Ok(multiattack::sequence(ctx.combat, me, target))
        }
        Command::Dash => {
            spend(ctx, id, Resource::Action)?;
            Ok(dash(ctx, id))
        }
        Command::Disengage => {
            spend(ctx, id, Resource::Action)?;
            ctx.combat.get_mut(id).conditions.disengaged = true;
            ctx.emit(Event::Disengaged { id });
            Ok(vec![])
        }
        Command::Dodge => {
            spend(ctx, id, Resource::Action)?;
            ctx.combat.get_mut(id).conditions.dodging = true;
            ctx.emit(Event::Dodging { id });
            Ok(vec![])
        }
        Command::Help { ally: target } => {
            ally(ctx.combat, id, *target, false)?;
            if !ctx.combat.get(*target).is_standing() {
                return Err(RuleViolation::InvalidTarget {
                    reason: "They're unconscious — stabilise them or give them a potion.".into(),
                });
            }
            spend(ctx, id, Resource::Action)?;
            ctx.combat.get_mut(*target).conditions.helped = true;
            ctx.emit(Event::Helped { id, ally: *target });
            Ok(vec![])
        }
        Command::Hide => {
            hide_allowed(ctx.combat, id)?;
            spend(ctx, id, Resource::Action)?;
            hide(ctx, id);
            Ok(vec![])
        }
        Command::Ready { text } => ready(ctx, id, text),
        Command::UseItem { item, target } => use_item(ctx, id, *item, *target),
        Command::Search => {
            spend(ctx, id, Resource::Action)?;
            search(ctx, id);
            Ok(vec![])
        }
        Command::Grapple { target } => {
            enemy(ctx.combat, id, *target)?;
            in_melee(ctx.combat, id, *target)?;
            if ctx.combat.get(*target).conditions.grappled_by == Some(id) {
                return Err(RuleViolation::Pointless {
                    reason: "You are already grappling them.".into(),
                });
            }
            spend(ctx, id, Resource::Action)?;
            grapple(ctx, id, *target);
            Ok(vec![])
        }
        Command::Shove { target, mode } => {
            enemy(ctx.combat, id, *target)?;
            in_melee(ctx.combat, id, *target)?;
            spend(ctx, id, Resource::Action)?;
            shove(ctx, id, *target, *mode);
            Ok(vec![])
        }
        Command::Escape => {
            let c = ctx.combat.get(id);
            let dc = c.conditions.escape_dc;
            if !(c.conditions.restrained || c.conditions.entangled > 0) {
                return Err(RuleViolation::Pointless {
                    reason: "Nothing holds you: no web, vines or net.".into(),
                });
            }
            spend(ctx, id, Resource::Action)?;
            escape(ctx, id, dc.max(1));
            Ok(vec![])
        }
        Command::Stabilize { ally: target } => {
            ally(ctx.combat, id, *target, false)?;
            if !ctx.combat.get(*target).death.dying() {
                return Err(RuleViolation::InvalidTarget {
                    reason: format!("{} is not dying.", ctx.combat.get(*target).name),
                });
            }
            spend(ctx, id, Resource::Action)?;
            let roll = check(ctx, id, Skill::Medicine, false);
            let success = roll >= 10;
            ctx.emit(Event::MedicineCheck {
                id,
                target: *target,
                roll,
                success,
            });
            if success {
                let wakes_in = ctx.dice.die(4) as u8;
                let now = ctx.now;
                ctx.combat.get_mut(*target).death.stabilize(wakes_in, now);
                ctx.emit(Event::Stabilized { id: *target, wakes_in });
                crate::outcome::check_outcome(ctx);
            }
            Ok(vec![])
        }
        other => Err(RuleViolation::Pointless {
            reason: format!("{other:?} is not an action."),
        }),
    }
}

/// Grapple's contest and, won, its hold.
pub fn grapple(ctx: &mut Ctx, id: CombatantId, target: CombatantId) {
    if contest(ctx, id, target) && !crate::defences::shrugs_off(ctx, target, Condition::Grappled) {
        ctx.combat.get_mut(target).conditions.grappled_by = Some(id);
        ctx.emit(Event::Grappled { id, target });
    }
}

/// Shove's contest and, won, the target prone or pushed out of reach.
pub fn shove(ctx: &mut Ctx, id: CombatantId, target: CombatantId, mode: ShoveMode) {
    if contest(ctx, id, target) {
        if mode == ShoveMode::Prone && crate::defences::shrugs_off(ctx, target, Condition::Prone) {
            return;
        }
        match mode {
            ShoveMode::Prone => ctx.combat.get_mut(target).conditions.prone = true,
            ShoveMode::Push => {
                ctx.combat.set_band(id, target, Band::Near);
                if ctx.combat.get(target).conditions.grappled_by == Some(id) {
                    ctx.combat.get_mut(target).conditions.grappled_by = None;
                }
            }
        }
        ctx.emit(Event::Shoved { id, target, mode });
    }
}

/// Escape (§3.2 "until freed"): the better of STR (Athletics) and DEX (Acrobatics) against `dc`;
/// success ends the web, the vines and the net.
fn escape(ctx: &mut Ctx, id: CombatantId, dc: i32) {
    let c = ctx.combat.get(id);
    let skill = if c.skill_bonus(Skill::Acrobatics) > c.skill_bonus(Skill::Athletics) {
        Skill::Acrobatics
    } else {
        Skill::Athletics
    };
    let roll = check(ctx, id, skill, false);
    let freed = roll >= dc;
    ctx.emit(Event::EscapeAttempted {
        id,
        skill,
        roll,
        dc,
        freed,
    });
    if freed {
        let held = &mut ctx.combat.get_mut(id).conditions;
        let (restrained, entangled) = (held.restrained, held.entangled > 0);
        held.restrained = false;
        held.entangled = 0;
        held.escape_dc = 0;
        for (was, condition) in [(restrained, "restrained"), (entangled, "entangled")] {
            if was {
                ctx.emit(Event::ConditionEnded {
                    id,
                    condition: condition.into(),
                });
            }
        }
    }
}

/// A thrown net (§3.2 Restrained): the target, an enemy within 30 ft, is restrained unless it
/// makes a DEX save against the net's DC; the same DC frees it (`escape`).
fn throw_net(ctx: &mut Ctx, target: CombatantId, dc: i32) {
    if attack::saving_throw(ctx, target, crate::content::Ability::Dex, dc)
        || crate::defences::shrugs_off(ctx, target, Condition::Restrained)
    {
        return;
    }
    let held = &mut ctx.combat.get_mut(target).conditions;
    held.restrained = true;
    held.escape_dc = held.escape_dc.max(dc);
    ctx.emit(Event::ConditionApplied {
        id: target,
        condition: "restrained".into(),
    });
}

/// Dash: movement grows by the combatant's speed this turn.
pub fn dash(ctx: &mut Ctx, id: CombatantId) -> Vec<Step> {
    let speed = ctx.combat.get(id).speed();
    let r = &mut ctx.combat.get_mut(id).resources;
    r.movement_total += speed;
    let movement = r.movement_left();
    ctx.emit(Event::Dashed { id, movement });
    vec![]
}

/// Hide is refused in melee with a standing enemy, or when already hidden.
pub fn hide_allowed(combat: &Combat, id: CombatantId) -> Result<(), RuleViolation> {
    if combat.get(id).conditions.hidden.is_some() {
        return Err(RuleViolation::CannotHide {
            reason: "You are already hidden.".into(),
        });
    }
    if !combat.standing_engaged_with(id).is_empty() {
        return Err(RuleViolation::CannotHide {
            reason: "You can't hide while an enemy is in melee with you — move away first.".into(),
        });
    }
    Ok(())
}

/// Hide: Stealth against the highest passive Perception among standing enemies.
pub fn hide(ctx: &mut Ctx, id: CombatantId) {
    let side = ctx.combat.get(id).side;
    let against = ctx
        .combat
        .combatants
        .iter()
        .filter(|c| c.side != side && c.is_standing())
        .map(crate::state::combatant::Combatant::passive_perception)
        .max()
        .unwrap_or(10);
    let armor_penalty = ctx.combat.get(id).armor().heavy;
    let roll = {
        let c = ctx.combat.get(id);
        let mode = RollMode::from_sources(c.conditions.helped, armor_penalty || c.conditions.poisoned);
        let bonus = c.skill_bonus(Skill::Stealth);
        ctx.combat.get_mut(id).conditions.helped = false;
        ctx.dice.d20(mode).natural as i32 + bonus
    };
    let hidden = roll >= against;
    if hidden {
        ctx.combat.get_mut(id).conditions.hidden = Some(roll);
    }
    ctx.emit(Event::HideAttempted {
        id,
        roll,
        against,
        hidden,
    });
}

/// Search: the better of Perception and Investigation against hidden enemies and hidden things.
fn search(ctx: &mut Ctx, id: CombatantId) {
    let c = ctx.combat.get(id);
    let skill = if c.skill_bonus(Skill::Investigation) > c.skill_bonus(Skill::Perception) {
        Skill::Investigation
    } else {
        Skill::Perception
    };
    let roll = check(ctx, id, skill, false);
    let side = ctx.combat.get(id).side;
    let mut found = Vec::new();
    for i in 0..ctx.combat.combatants.len() {
        let other = &ctx.combat.combatants[i];
        if other.side != side && other.conditions.hidden.is_some_and(|stealth| stealth <= roll) {
            let other_id = other.id;
            found.push(other.name.clone());
            ctx.combat.combatants[i].conditions.hidden = None;
            ctx.emit(Event::Revealed { id: other_id });
        }
    }
    let (seen, unseen): (Vec<_>, Vec<_>) = ctx
        .combat
        .terrain
        .hidden_things
        .drain(..)
        .partition(|(_, dc)| *dc <= roll);
    ctx.combat.terrain.hidden_things = unseen;
    ctx.combat
        .terrain
        .found
        .extend(seen.iter().map(|(what, _)| what.clone()));
    found.extend(seen.into_iter().map(|(what, _)| what));
    ctx.emit(Event::Searched { id, skill, roll, found });
}

/// Grapple and Shove: STR (Athletics) against the better of the target's Athletics and Acrobatics.
/// Ties go to the defender. Rage gives advantage on STR checks.
fn contest(ctx: &mut Ctx, id: CombatantId, target: CombatantId) -> bool {
    let raging = ctx.combat.get(id).conditions.raging;
    let roll = check(ctx, id, Skill::Athletics, raging);
    let t = ctx.combat.get(target);
    let defence = if t.skill_bonus(Skill::Acrobatics) > t.skill_bonus(Skill::Athletics) {
        Skill::Acrobatics
    } else {
        Skill::Athletics
    };
    let against = check(ctx, target, defence, false);
    let won = roll > against;
    ctx.emit(Event::Contest {
        id,
        target,
        roll,
        against,
        won,
    });
    won
}

/// Ready (§5): spends the action now and reserves the reaction for the trigger.
fn ready(ctx: &mut Ctx, id: CombatantId, text: &str) -> Result<Vec<Step>, RuleViolation> {
    let c = &*ctx.combat;
    let me = c.get(id);
    crate::timing::check_slot(c, id, Resource::Reaction)?;
    let others: Vec<&crate::state::combatant::Combatant> =
        c.combatants.iter().filter(|o| o.id != id && !o.is_dead()).collect();
    let (action, trigger, trigger_desc) = readied::parse(text, me, &others)?;
    match action {
        readied::HeldAction::Cast { spell, .. } => casting::check_castable(me, spell, true)?,
        readied::HeldAction::UseItem { item, .. } => {
            let carried = me.items.get(&item).copied().unwrap_or(0) > 0;
            let def = me
                .item_def(item)
                .filter(|_| carried)
                .ok_or_else(|| RuleViolation::ItemNotCarried {
                    item: me.item_name(item),
                })?;
            if matches!(def.effect, ItemEffect::Scroll(_)) {
                return Err(RuleViolation::UnparsableReady {
                    reason: format!("a {} is read on your own turn", def.name),
                    forms: readied::READY_FORMS.to_owned(),
                });
            }
        }
        _ => {}
    }
    let expires_at = c.round + 1;
    crate::timing::spend_slot(ctx.combat, id, Resource::Action);
    crate::timing::spend_slot(ctx.combat, id, Resource::Reaction);
    ctx.combat.readied.maybe = true;
    ctx.combat.get_mut(id).readied = Some(ReadiedAction {
        action,
        trigger,
        trigger_desc: trigger_desc.clone(),
        expires_at,
        fired: false,
    });
    ctx.emit(Event::ReadiedActionSet {
        id,
        action: action.describe(),
        trigger: trigger_desc,
    });
    Ok(vec![])
}

/// Use Item: drink or administer a consumable.
fn use_item(
    ctx: &mut Ctx,
    id: CombatantId,
    item: Item,
    target: Option<CombatantId>,
) -> Result<Vec<Step>, RuleViolation> {
    item_used(ctx, id, item, target, true)
}

/// The item's checks, then (the action spent when `spend_action`: a readied use spent it at
/// Ready) its effect.
pub fn item_used(
    ctx: &mut Ctx,
    id: CombatantId,
    item: Item,
    target: Option<CombatantId>,
    spend_action: bool,
) -> Result<Vec<Step>, RuleViolation> {
    let target = target.unwrap_or(id);
    let not_carried = |combat: &Combat| RuleViolation::ItemNotCarried {
        item: combat.get(id).item_name(item),
    };
    if ctx.combat.get(id).items.get(&item).copied().unwrap_or(0) == 0 {
        return Err(not_carried(ctx.combat));
    }
    let Some(def) = ctx.combat.get(id).item_def(item) else {
        return Err(not_carried(ctx.combat));
    };
    let name = def.name.clone();
    let (effect, can_administer) = (def.effect.clone(), def.can_administer());
    if let ItemEffect::Scroll(spell) = &effect {
        let Some(spell) = Spell::named(&spell.name) else {
            return Err(not_carried(ctx.combat));
        };
        let steps = casting::cast_scroll(ctx, id, spell, Some(target).filter(|t| *t != id))?;
        consume(ctx, id, item);
        ctx.emit(Event::ItemUsed { id, item, target });
        return Ok(steps);
    }
    if let ItemEffect::Restrain { .. } = effect {
        if target == id {
            return Err(RuleViolation::InvalidTarget {
                reason: format!("Throw the {name} at an enemy."),
            });
        }
        enemy(ctx.combat, id, target)?;
        if ctx.combat.band(id, target) == Band::Far {
            return Err(RuleViolation::OutOfReach {
                target: ctx.combat.get(target).name.clone(),
            });
        }
    } else if target != id {
        ally(ctx.combat, id, target, true)?;
        if !can_administer {
            return Err(RuleViolation::InvalidTarget {
                reason: format!("A {name} can only be used on yourself."),
            });
        }
        if ctx.combat.band(id, target) != Band::Melee {
            return Err(RuleViolation::OutOfReach {
                target: ctx.combat.get(target).name.clone(),
            });
        }
    }
    if spend_action {
        spend(ctx, id, Resource::Action)?;
    }
    consume(ctx, id, item);
    ctx.emit(Event::ItemUsed { id, item, target });
    match effect {
        ItemEffect::Heal(dice) => {
            let amount = dice.roll(ctx.dice, false);
            attack::heal(ctx, id, target, amount);
        }
        ItemEffect::TempHp(dice) => {
            let amount = dice.roll(ctx.dice, false);
            crate::temp_hp::gain(ctx, id, target, amount);
        }
        ItemEffect::Haste => haste(ctx, target),
        ItemEffect::CurePoison => {
            ctx.combat.get_mut(target).conditions.poisoned = false;
            ctx.emit(Event::ConditionEnded {
                id: target,
                condition: "poisoned".into(),
            });
        }
        ItemEffect::Restrain { dc } => throw_net(ctx, target, dc),
        ItemEffect::Status(status) => {
            crate::statuses::bestow(ctx, id, target, crate::content::statuses::StatusEffect::from(&*status));
        }
        ItemEffect::Scroll(_) => {}
    }
    Ok(vec![])
}

fn consume(ctx: &mut Ctx, id: CombatantId, item: Item) {
    let items = &mut ctx.combat.get_mut(id).items;
    if let Some(n) = items.get_mut(&item) {
        *n -= 1;
        if *n == 0 {
            items.remove(&item);
        }
    }
}

/// Haste: +30 ft for the rest of the fight (at once, if it is the target's turn).
pub fn haste(ctx: &mut Ctx, target: CombatantId) {
    let current = ctx.combat.current() == Some(target);
    let c = ctx.combat.get_mut(target);
    if !c.conditions.hasted {
        c.conditions.hasted = true;
        if current {
            c.resources.movement_total += 30;
        }
    }
    ctx.emit(Event::ConditionApplied {
        id: target,
        condition: "hasted".into(),
    });
}

/// `move` (§3.3): spends feet (standing from prone costs half speed; difficult terrain doubles the
/// cost), offers opportunity attacks to the enemies whose reach it leaves (§4), then arrives.
pub fn move_to(ctx: &mut Ctx, id: CombatantId, intent: MoveIntent) -> Result<Vec<Step>, RuleViolation> {
    let c = &*ctx.combat;
    let me = c.get(id);
    if me.speed() == 0 {
        let reason = if me.conditions.restrained {
            "restrained"
        } else if me.conditions.grappled_by.is_some() {
            "grappled"
        } else {
            "weighed down"
        };
        return Err(RuleViolation::CannotMove { reason: reason.into() });
    }
    if let MoveIntent::Melee(target) = intent {
        enemy(c, id, target)?;
    }
    let plan = movement::plan(intent, &c.bands_of(id), c.difficult_for(id))?;
    let stand = if me.conditions.prone { me.speed() / 2 } else { 0 };
    if let MoveIntent::Melee(target) = intent {
        let banked = movement::banked_toward(c, id, target);
        let cost = plan.feet - banked;
        let left = me.resources.movement_left();
        if cost + stand > left {
            return close_in(ctx, id, target, cost, stand);
        }
    } else {
        me.resources.check_movement(plan.feet + stand)?;
    }
    ctx.combat.get_mut(id).conditions.approach = None;
    if stand > 0 {
        let c = ctx.combat.get_mut(id);
        c.conditions.prone = false;
        c.resources.spend_movement(stand);
        ctx.emit(Event::StoodUp { id, feet: stand });
    }
    ctx.combat.get_mut(id).resources.spend_movement(plan.feet);
    Ok(departure(ctx, id, plan))
}

/// Crawl (§3.2 "crawling at half speed"): a prone creature moves without standing up, every
/// foot costing two.
pub fn crawl_to(ctx: &mut Ctx, id: CombatantId, intent: MoveIntent) -> Result<Vec<Step>, RuleViolation> {
    let c = &*ctx.combat;
    let me = c.get(id);
    if !me.conditions.prone {
        return Err(RuleViolation::Pointless {
            reason: "You are on your feet: /move walks.".into(),
        });
    }
    if me.speed() == 0 {
        return Err(RuleViolation::CannotMove {
            reason: if me.conditions.restrained {
                "restrained"
            } else {
                "held fast"
            }
            .into(),
        });
    }
    if let MoveIntent::Melee(target) = intent {
        enemy(c, id, target)?;
    }
    let mut plan = movement::plan(intent, &c.bands_of(id), c.difficult_for(id))?;
    plan.feet *= 2;
    plan.crawl = true;
    me.resources.check_movement(plan.feet)?;
    let c = ctx.combat.get_mut(id);
    c.conditions.approach = None;
    c.resources.spend_movement(plan.feet);
    Ok(departure(ctx, id, plan))
}

/// A move to melee with `target` that costs more than the feet left (`cost` after what earlier
/// turns covered). If a Dash would make the difference it is refused ("Dash first"); otherwise
/// the mover spends every foot it has toward the target and the rest carries over to its next
/// move toward them (§3.3: TwinBee resolves the geometry; a slow creature still gets there).
fn close_in(
    ctx: &mut Ctx,
    id: CombatantId,
    target: CombatantId,
    cost: i32,
    stand: i32,
) -> Result<Vec<Step>, RuleViolation> {
    let me = ctx.combat.get(id);
    let left = me.resources.movement_left();
    let dash_left = crate::timing::has_slot(ctx.combat, id, Resource::Action) && left <= me.speed();
    if cost + stand <= left + if dash_left { me.speed() } else { 0 } || left - stand <= 0 {
        return Err(RuleViolation::NotEnoughMovement {
            needed: cost + stand,
            left,
        });
    }
    let from = ctx.combat.band(id, target);
    if stand > 0 {
        let c = ctx.combat.get_mut(id);
        c.conditions.prone = false;
        c.resources.spend_movement(stand);
        ctx.emit(Event::StoodUp { id, feet: stand });
    }
    let feet = left - stand;
    let c = ctx.combat.get_mut(id);
    c.resources.spend_movement(feet);
    let covered = c
        .conditions
        .approach
        .filter(|a| a.target == target && a.from == from)
        .map_or(0, |a| a.feet);
    c.conditions.approach = Some(crate::state::combatant::Approach {
        target,
        from,
        feet: covered + feet,
    });
    ctx.emit(Event::Closing {
        id,
        target,
        feet,
        remaining: cost - feet,
    });
    Ok(ctx.readied_offers(&Observed::Moves { mover: id }))
}

/// The steps of leaving: opportunity attacks (unless suppressed), readied triggers, then arrival.
pub fn departure(ctx: &mut Ctx, id: CombatantId, plan: movement::MovePlan) -> Vec<Step> {
    let mut steps = Vec::new();
    if !crate::opportunity::suppressed(ctx.combat, id, &plan) {
        for reactor in crate::timing::reaction_order(ctx.combat) {
            if plan.leaving.contains(&reactor) {
                steps.push(Step::Offer {
                    reactor,
                    trigger: ReactionTrigger::LeavesMelee { mover: id },
                });
            }
        }
    }
    for &from in &plan.leaving {
        steps.extend(ctx.readied_offers(&Observed::LeavesMelee { mover: id, from }));
    }
    steps.extend(ctx.readied_offers(&Observed::Moves { mover: id }));
    steps.push(Step::Arrive { mover: id, plan });
    steps
}

/// The mover arrives, unless it dropped on the way; entering melee may set off readied actions.
pub fn arrive(ctx: &mut Ctx, mover: CombatantId, plan: &movement::MovePlan) {
    if !ctx.combat.get(mover).is_standing() {
        ctx.emit(Event::MoveAborted { id: mover });
        return;
    }
    // Whoever moved since the move was planned (a held Dash or Disengage away) is not where
    // the mover was headed: the band to them stays as they left it.
    let gone: Vec<CombatantId> = plan
        .from
        .iter()
        .filter(|&&(other, before)| ctx.combat.band(mover, other) != before)
        .map(|&(other, _)| other)
        .collect();
    let plan = if gone.is_empty() {
        std::borrow::Cow::Borrowed(plan)
    } else {
        let mut rerouted = plan.clone();
        rerouted.changes.retain(|(other, _)| !gone.contains(other));
        rerouted.entering.retain(|other| !gone.contains(other));
        if let movement::MoveOutcome::ClosedIn(other) = rerouted.outcome
            && gone.contains(&other)
        {
            rerouted.outcome = movement::MoveOutcome::Advanced(other);
        }
        std::borrow::Cow::Owned(rerouted)
    };
    let plan = plan.as_ref();
    for &(other, band) in &plan.changes {
        ctx.combat.set_band(mover, other, band);
        if band != Band::Melee && ctx.combat.get(other).conditions.grappled_by == Some(mover) {
            ctx.combat.get_mut(other).conditions.grappled_by = None;
            ctx.emit(Event::ConditionEnded {
                id: other,
                condition: "grappled".into(),
            });
        }
    }
    if plan.teleport {
        ctx.emit(Event::Teleported {
            id: mover,
            to: plan.changes.clone(),
        });
    } else {
        let difficult_terrain = ctx.combat.difficult_for(mover);
        ctx.emit(Event::Moved {
            id: mover,
            feet: plan.feet,
            to: plan.changes.clone(),
            difficult_terrain,
            outcome: plan.outcome,
            crawl: plan.crawl,
        });
    }
    let mut steps = Vec::new();
    for &with in &plan.entering {
        steps.extend(ctx.readied_offers(&Observed::EntersMelee { mover, with }));
    }
    ctx.push_front(steps);
}

/// GM tool: damage (negative) or heal (positive) a combatant.
pub fn adjust_hp(ctx: &mut Ctx, target: CombatantId, delta: i32) -> Result<(), RuleViolation> {
    let t = ctx.combat.find(target)?;
    if t.is_dead() {
        return Err(RuleViolation::InvalidTarget {
            reason: format!("{} is dead.", t.name),
        });
    }
    if delta == 0 {
        return Err(RuleViolation::Pointless {
            reason: "A change of 0 HP changes nothing.".into(),
        });
    }
    if delta > 0 && t.hp >= t.max_hp {
        return Err(RuleViolation::Pointless {
            reason: format!("{} is at full hit points ({}).", t.name, t.max_hp),
        });
    }
    let before = t.hp;
    let delta = if delta < 0 {
        // The GM's word is exact: no defence changes it.
        let pending = PendingDamage::single(None, target, delta.saturating_neg(), crate::content::DamageType::Force);
        attack::land_exact(ctx, pending);
        delta
    } else {
        attack::heal(ctx, target, target, delta);
        // A heal is said as what it restored, up to the maximum.
        ctx.combat.get(target).hp - before
    };
    let hp = ctx.combat.get(target).hp;
    ctx.emit(Event::HpAdjusted { id: target, delta, hp });
    Ok(())
}

/// Whether a side still has someone standing.
pub fn side_standing(combat: &Combat, side: Side) -> bool {
    combat.combatants.iter().any(|c| c.side == side && c.is_standing())
}
