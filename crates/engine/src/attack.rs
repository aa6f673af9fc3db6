//! The Attack action's rolls (seed 000 §2.1): d20 + modifiers against AC, natural 20 a critical
//! that doubles the dice, advantage and disadvantage; damage with its riders (Rage, Hunter's Mark,
//! Sneak Attack, Cunning Strike); damage landing, dropping characters to Downed (§7) and adding
//! failure marks to the downed (§7.3).

use std::sync::Arc;

use crate::content::data::{Feature, SpellEffectDef, WeaponDef};
use crate::content::statuses::Affliction;
use crate::content::{Ability, Condition, DamageType};
use crate::ctx::Ctx;
use crate::death_saves::after_mark as after_death_mark;
use crate::dice::{DiceExpr, RollMode};
use crate::multiattack;
use crate::outcome::{check_outcome, release_grapples};
use crate::state::combat::Combat;
use crate::state::combatant::{Combatant, CunningStrike};
use crate::state::damage::{DamagePart, ExtraParts};
use crate::state::event::{AttackKind, Event};
use crate::state::ids::{CombatantId, Side};
use crate::state::movement::Band;
use crate::state::reactions::ReactionTrigger;
use crate::state::readied::Observed;
use crate::state::sheet::Kind;
use crate::state::step::{PendingDamage, Step, Strike, Swing};

/// What a strike rolls: to-hit bonus, damage dice, ability modifier to damage, type (its name,
/// which only the event needs, is [`strike_name`]).
struct StrikeProfile {
    to_hit: i32,
    damage: DiceExpr,
    damage_mod: i32,
    damage_type: DamageType,
    weapon_attack: bool,
    /// A magic weapon's or a spell's: "nonmagical" resistances do not hold against it.
    magical: bool,
    finesse_or_ranged: bool,
}

/// The attack bonus `attacker` rolls with when it strikes with `strike`.
pub fn to_hit(attacker: &Combatant, strike: Strike) -> i32 {
    profile(attacker, strike).to_hit
}

fn profile(attacker: &Combatant, strike: Strike) -> StrikeProfile {
    let weapon_profile = |stats: &WeaponDef, off_hand: bool| {
        let str_mod = attacker.modifier(Ability::Str);
        let dex_mod = attacker.modifier(Ability::Dex);
        let modifier = if stats.ranged {
            dex_mod
        } else if stats.finesse {
            str_mod.max(dex_mod)
        } else {
            str_mod
        };
        StrikeProfile {
            to_hit: modifier + attacker.proficiency() + stats.magic,
            damage: stats.damage,
            // The off-hand attack adds no ability modifier to damage (§2.2); a magic weapon's
            // bonus it keeps.
            damage_mod: (if off_hand { 0 } else { modifier }) + stats.magic,
            damage_type: stats.damage_type,
            magical: stats.magic > 0,
            weapon_attack: true,
            finesse_or_ranged: stats.finesse || stats.ranged,
        }
    };
    match strike {
        Strike::MainHand => weapon_profile(attacker.weapon(), false),
        Strike::Unarmed => weapon_profile(&attacker.sheet.unarmed, false),
        Strike::OffHand => weapon_profile(attacker.off_hand().unwrap_or(&attacker.sheet.unarmed), true),
        Strike::Natural(i) => {
            let a = attacker
                .stat_block()
                .and_then(|m| m.attacks.get(i))
                .expect("natural strikes belong to monsters");
            StrikeProfile {
                to_hit: a.to_hit,
                damage: a.damage,
                damage_mod: 0,
                damage_type: a.damage_type,
                magical: false,
                weapon_attack: true,
                finesse_or_ranged: false,
            }
        }
        Strike::Spell(spell) => {
            let def = attacker.spell(spell);
            let effect = def.map(|d| d.effect);
            let (damage, damage_type) = match effect {
                Some(
                    SpellEffectDef::Attack { damage, damage_type } | SpellEffectDef::Beams { damage, damage_type },
                ) => (damage, damage_type),
                _ => (DiceExpr::new(1, 4, 0), DamageType::Force),
            };
            let cantrip = def.is_some_and(|d| d.level == 0);
            let multiplier = if cantrip && matches!(effect, Some(SpellEffectDef::Attack { .. })) {
                attacker.cantrip_dice()
            } else {
                1
            };
            StrikeProfile {
                to_hit: attacker.proficiency() + attacker.casting_modifier(),
                damage: DiceExpr::new(damage.count * multiplier, damage.sides, damage.bonus),
                damage_mod: 0,
                damage_type,
                magical: true,
                weapon_attack: false,
                finesse_or_ranged: false,
            }
        }
    }
}

/// What the attack roll's event calls `strike`: the weapon's, the natural attack's or the spell's
/// name (a weapon's or a natural attack's shared with its definition, not copied).
fn strike_name(attacker: &Combatant, strike: Strike) -> Arc<str> {
    match strike {
        Strike::MainHand => Arc::clone(&attacker.weapon().name),
        Strike::Unarmed => Arc::clone(&attacker.sheet.unarmed.name),
        Strike::OffHand => Arc::clone(&attacker.off_hand().unwrap_or(&attacker.sheet.unarmed).name),
        Strike::Natural(i) => Arc::clone(
            &attacker
                .stat_block()
                .and_then(|m| m.attacks.get(i))
                .expect("natural strikes belong to monsters")
                .name,
        ),
        Strike::Spell(spell) => attacker.spell_name(spell).into(),
    }
}

/// Advantage and disadvantage on an attack roll.
pub fn attack_mode(combat: &Combat, attacker: &Combatant, target: &Combatant, ranged: bool) -> RollMode {
    let tc = &target.conditions;
    let ac = &attacker.conditions;
    let melee_range = combat.band(attacker.id, target.id) == Band::Melee;
    let pack = attacker.stat_block().is_some_and(|m| m.pack_tactics)
        && combat.combatants.iter().any(|a| {
            a.side == attacker.side
                && a.id != attacker.id
                && a.is_standing()
                && combat.band(a.id, target.id) == Band::Melee
        });
    let (held_advantage, held_disadvantage) = crate::conditions::attack_sources(attacker, target);
    let advantage = ac.helped
        || ac.hidden.is_some()
        || (tc.prone && melee_range && !ranged)
        || target.is_downed()
        || tc.restrained
        || pack
        || held_advantage;
    let disadvantage = (tc.dodging && ac.hidden.is_none())
        || ac.prone
        || ac.poisoned
        || ac.restrained
        || (ranged && (tc.prone || combat.is_engaged(attacker.id)))
        || held_disadvantage;
    RollMode::from_sources(advantage, disadvantage)
}

/// Resolves one swing: readied "attacks" triggers first, then the roll, then the hit's reactions.
pub fn swing(ctx: &mut Ctx, mut s: Swing) {
    let c = &*ctx.combat;
    let attacker = c.get(s.attacker);
    if !attacker.is_standing() {
        return;
    }
    let target_ok = {
        let t = c.get(s.target);
        !t.is_dead()
            && multiattack::reaches(c, attacker, s.target, s.strike)
            && !(t.is_downed() && s.kind == AttackKind::Action && s.swing > 1)
    };
    if !target_ok {
        let retarget = if matches!(s.kind, AttackKind::Action | AttackKind::OffHand) {
            multiattack::retarget(c, &s)
        } else {
            None
        };
        if let Some(t) = retarget {
            s.target = t;
            if let Some(strike) = multiattack::strike_for(c, attacker, t, s.swing) {
                s.strike = strike;
            }
        } else {
            ctx.emit(Event::SwingLost {
                attacker: s.attacker,
                swing: s.swing,
            });
            return;
        }
    }
    if !s.declared {
        // The interrupt check (seed 001 "Action anatomy"): Interrupts answering the declared
        // attack (TDGS's Parry — only TDGS has one), then readied "attacks" triggers.
        let mut offers = if crate::timing::model(ctx.combat.ruleset).has_interrupt_check() {
            ctx.offers_to_all(&ReactionTrigger::AttackDeclared {
                attacker: s.attacker,
                target: s.target,
                melee: !multiattack::ranged(attacker, s.strike),
            })
        } else {
            Vec::new()
        };
        offers.extend(ctx.readied_offers(&Observed::Attacks {
            attacker: s.attacker,
            target: s.target,
        }));
        if !offers.is_empty() {
            let mut steps = offers;
            steps.push(Step::Swing(Swing { declared: true, ..s }));
            ctx.push_front(steps);
            return;
        }
    }
    roll_swing(ctx, s);
}

fn roll_swing(ctx: &mut Ctx, s: Swing) {
    let c = &*ctx.combat;
    let attacker = c.get(s.attacker);
    let target = c.get(s.target);
    let is_ranged = multiattack::ranged(attacker, s.strike);
    let mode = attack_mode(c, attacker, target, is_ranged);
    let p = profile(attacker, s.strike);
    let weapon = strike_name(attacker, s.strike);
    let armor_class = target.armor_class();
    // A melee hit on the paralyzed or unconscious from within reach is a critical (conditions).
    let helpless_in_reach =
        !is_ranged && crate::conditions::melee_hits_crit(target) && c.band(s.attacker, s.target) == Band::Melee;
    let d20 = ctx.dice.d20(mode);
    let total = d20.natural as i32 + p.to_hit + crate::statuses::attack_modifier(ctx, s.attacker);
    let hit = d20.natural == 20 || (d20.natural != 1 && total >= armor_class);
    let critical = d20.natural == 20 || (hit && helpless_in_reach);
    crate::timing::model(ctx.combat.ruleset).swung(ctx.combat, s.attacker, s.target, hit);
    ctx.emit(Event::AttackRolled {
        attacker: s.attacker,
        target: s.target,
        weapon,
        kind: s.kind,
        swing: s.swing,
        of: s.of,
        d20,
        total,
        armor_class,
        hit,
        critical,
    });
    let unseen = {
        let a = ctx.combat.get_mut(s.attacker);
        a.conditions.helped = false;
        let was_hidden = a.conditions.hidden.take().is_some();
        if was_hidden {
            ctx.emit(Event::Revealed { id: s.attacker });
        }
        was_hidden
    };
    if !hit {
        return;
    }
    let first = damage(ctx, &s, &p, mode, critical);
    let extra = extra_parts(ctx, s.attacker, s.strike, critical);
    let amount = first + extra.total();
    let pending = PendingDamage {
        source: Some(s.attacker),
        target: s.target,
        amount,
        damage_type: p.damage_type,
        critical,
        extra,
        mundane: !p.magical,
    };
    let trigger = ReactionTrigger::Hit {
        attacker: s.attacker,
        target: s.target,
        melee: !is_ranged,
        damage: amount,
        unseen,
        total,
        critical,
    };
    let offers = ctx.offers_to_all(&trigger);
    let affliction = on_hit(ctx.combat.get(s.attacker), s.strike);
    if offers.is_empty() && affliction.is_none() {
        // The damage alone is next: `run` (which runs every swing, with no window open and the
        // fight going on) would take it from the front of the queue at once. It lands now.
        land(ctx, pending);
        return;
    }
    // Next: the offers, the damage, then the status it inflicts — put in front of the queue one
    // by one, last first (no `Vec` of their own).
    if let Some(affliction) = affliction {
        ctx.combat.queue.push_front(Step::Afflict {
            source: s.attacker,
            target: s.target,
            affliction,
        });
    }
    ctx.combat.queue.push_front(Step::Damage(pending));
    ctx.push_front(offers);
}

/// The status a strike's hit inflicts (`crate::statuses`).
fn on_hit(attacker: &Combatant, strike: Strike) -> Option<Affliction> {
    match strike {
        Strike::Spell(spell) => attacker
            .spell(spell)?
            .on_hit
            .as_ref()
            .map(|a| Affliction::from(a).by_spell()),
        Strike::Natural(i) => attacker
            .stat_block()?
            .attacks
            .get(i)?
            .on_hit
            .as_ref()
            .map(Affliction::from),
        Strike::MainHand | Strike::OffHand | Strike::Unarmed => None,
    }
}

/// Rolls a natural attack's parts of other types ("plus 1d6 fire"); a critical doubles their dice.
fn extra_parts(ctx: &mut Ctx, attacker: CombatantId, strike: Strike, critical: bool) -> ExtraParts {
    let Strike::Natural(i) = strike else {
        return ExtraParts::NONE;
    };
    let Some(attack) = ctx.combat.get(attacker).stat_block().and_then(|m| m.attacks.get(i)) else {
        return ExtraParts::NONE;
    };
    if attack.extra.is_empty() {
        return ExtraParts::NONE;
    }
    let parts: Vec<_> = attack.extra.to_vec();
    ExtraParts::of(parts.into_iter().map(|part| DamagePart {
        amount: part.damage.roll(ctx.dice, critical).max(0),
        damage_type: part.damage_type,
    }))
}

/// Rolls a hit's damage with its riders.
fn damage(ctx: &mut Ctx, s: &Swing, p: &StrikeProfile, mode: RollMode, critical: bool) -> i32 {
    let mut amount = p.damage.roll(ctx.dice, critical) + p.damage_mod;
    let c = &*ctx.combat;
    let attacker = c.get(s.attacker);
    let melee = !multiattack::ranged(attacker, s.strike);
    if attacker.conditions.raging && melee && p.weapon_attack {
        // The class's Rage adds its table's bonus; a racial Rage (no class bonus) adds 2.
        let class_bonus = i32::from(attacker.class_row().rage_damage);
        amount += if class_bonus > 0 { class_bonus } else { 2 };
    }
    if p.weapon_attack && attacker.conditions.hunters_mark == Some(s.target) {
        amount += DiceExpr::new(1, 6, 0).roll(ctx.dice, critical);
    }
    let c = &*ctx.combat;
    let attacker = c.get(s.attacker);
    let ally_adjacent = || {
        c.combatants.iter().any(|a| {
            a.side == attacker.side && a.id != attacker.id && a.is_standing() && c.band(a.id, s.target) == Band::Melee
        })
    };
    let sneak = attacker.has_feature(Feature::SneakAttack, c.ruleset)
        && !attacker.conditions.sneak_attack_used
        && p.finesse_or_ranged
        && mode != RollMode::Disadvantage
        && (mode == RollMode::Advantage || ally_adjacent());
    if sneak {
        let mut dice_count = u32::from(attacker.class_row().sneak_attack_dice);
        let rider = attacker.conditions.cunning_strike;
        if rider.is_some() {
            dice_count = dice_count.saturating_sub(1);
        }
        ctx.combat.get_mut(s.attacker).conditions.sneak_attack_used = true;
        ctx.emit(Event::SneakAttack {
            attacker: s.attacker,
            dice: dice_count,
        });
        amount += DiceExpr::new(dice_count, 6, 0).roll(ctx.dice, critical);
        if let Some(rider) = rider {
            cunning_strike(ctx, s.attacker, s.target, rider);
        }
    }
    amount.max(0)
}

/// Applies a Cunning Strike rider (§2.2): the target saves against 8 + DEX + proficiency.
fn cunning_strike(ctx: &mut Ctx, rogue: CombatantId, target: CombatantId, rider: CunningStrike) {
    ctx.combat.get_mut(rogue).conditions.cunning_strike = None;
    let r = ctx.combat.get(rogue);
    let dc = 8 + r.modifier(Ability::Dex) + r.proficiency();
    match rider {
        CunningStrike::Withdraw => {
            ctx.combat.get_mut(rogue).conditions.disengaged = true;
            ctx.emit(Event::ConditionApplied {
                id: rogue,
                condition: "withdrawing".into(),
            });
        }
        CunningStrike::Trip | CunningStrike::Poison => {
            let ability = if rider == CunningStrike::Trip {
                Ability::Dex
            } else {
                Ability::Con
            };
            let condition = if rider == CunningStrike::Trip {
                Condition::Prone
            } else {
                Condition::Poisoned
            };
            if !saving_throw(ctx, target, ability, dc) && !crate::defences::shrugs_off(ctx, target, condition) {
                let t = &mut ctx.combat.get_mut(target).conditions;
                let condition = if rider == CunningStrike::Trip {
                    t.prone = true;
                    "prone"
                } else {
                    t.poisoned = true;
                    "poisoned"
                };
                ctx.emit(Event::ConditionApplied {
                    id: target,
                    condition: condition.into(),
                });
            }
        }
    }
}

/// Rolls a saving throw against something other than a spell (`crate::saves`).
pub fn saving_throw(ctx: &mut Ctx, id: CombatantId, ability: Ability, dc: i32) -> bool {
    crate::saves::roll(ctx, id, ability, dc, false)
}

/// Damage lands, each part through the target's defences (Rage's resistance to physical damage
/// among them, `crate::defences`); a downed character takes failure marks instead (§7.3); a
/// character at 0 HP is Downed (§7), a monster slain.
pub fn land(ctx: &mut Ctx, p: PendingDamage) {
    if ctx.combat.get(p.target).is_dead() {
        return;
    }
    let mut amount = 0;
    let mut extra = p.extra;
    let mut landed = Vec::new();
    for (i, part) in p.parts().enumerate() {
        let left = crate::defences::take(ctx, p.target, part, p.mundane);
        crate::regeneration::wounded(ctx.combat, p.target, part.damage_type, left);
        amount += left;
        if i > 0 {
            landed.push(DamagePart { amount: left, ..part });
        }
    }
    if !p.extra.is_empty() {
        extra = ExtraParts::of(landed);
    }
    land_amount(ctx, PendingDamage { amount, extra, ..p });
}

/// Damage lands as it is, no defence asked (the GM's `/gm hp`).
pub fn land_exact(ctx: &mut Ctx, p: PendingDamage) {
    if ctx.combat.get(p.target).is_dead() {
        return;
    }
    land_amount(ctx, p);
}

/// Undead Fortitude (a stat block's trait): damage that would drop the creature to 0 HP leaves it
/// at 1 on a CON save against 5 + the damage — never against radiant damage or a critical hit.
fn undead_fortitude(ctx: &mut Ctx, p: &PendingDamage, amount: i32) -> bool {
    let t = ctx.combat.get(p.target);
    let would_fall = amount > 0 && t.hp > 0 && t.hp <= amount;
    if !would_fall || !t.stat_block().is_some_and(|m| m.undead_fortitude) || p.critical {
        return false;
    }
    let radiant = p.damage_type == DamageType::Radiant || p.extra.iter().any(|x| x.damage_type == DamageType::Radiant);
    if radiant {
        return false;
    }
    let held = crate::saves::roll(ctx, p.target, Ability::Con, 5 + amount, false);
    if held {
        ctx.emit(Event::UndeadFortitude { id: p.target });
    }
    held
}

fn land_amount(ctx: &mut Ctx, mut p: PendingDamage) {
    let whole = p.amount.max(0);
    let absorbed = crate::temp_hp::absorb(ctx, p.target, whole);
    if absorbed > 0 {
        p.cut_to(whole - absorbed);
        if p.amount == 0 {
            // All of it on the buffer: damage taken all the same, for concentration.
            crate::concentration::after_damage(ctx, p.target, whole);
            return;
        }
    }
    let amount = p.amount.max(0);
    let downed = ctx.combat.get(p.target).is_downed();
    if downed {
        if amount == 0 {
            return;
        }
        let marks = if p.critical { 2 } else { 1 };
        let c = ctx.combat.get_mut(p.target);
        let result = c.death.add_failures(marks);
        let failures = c.death.failures;
        ctx.emit(Event::DamagedWhileDowned {
            id: p.target,
            marks,
            failures,
        });
        after_death_mark(ctx, p.target, result);
        return;
    }
    let now = ctx.now;
    let fortitude = undead_fortitude(ctx, &p, amount);
    let c = ctx.combat.get_mut(p.target);
    c.hp = if fortitude {
        1
    } else {
        c.hp.saturating_sub(amount).max(0)
    };
    let hp = c.hp;
    ctx.emit(Event::DamageDealt {
        source: p.source,
        target: p.target,
        amount,
        damage_type: p.damage_type,
        critical: p.critical,
        hp,
        extra: p.extra,
    });
    if hp > 0 {
        crate::concentration::after_damage(ctx, p.target, whole);
        return;
    }
    crate::concentration::end(ctx, p.target);
    let c = ctx.combat.get_mut(p.target);
    match c.sheet.kind {
        Kind::Character(_) => {
            c.death.down(now);
            c.conditions.prone = true;
            c.conditions.dodging = false;
            c.conditions.hidden = None;
            c.conditions.raging = false;
            c.readied = None;
            ctx.emit(Event::Downed { id: p.target });
            release_grapples(ctx, p.target);
            let offers = ctx.offers_to_all(&ReactionTrigger::DroppedToZero { ally: p.target });
            ctx.push_front(offers);
        }
        Kind::Monster(_) => {
            ctx.emit(Event::MonsterSlain {
                id: p.target,
                by: p.source,
            });
            release_grapples(ctx, p.target);
        }
    }
    check_outcome(ctx);
}

/// Heals `target` by `amount`: a downed character regains consciousness (a potion also stabilises, §7.2).
pub fn heal(ctx: &mut Ctx, by: CombatantId, target: CombatantId, amount: i32) {
    let now = ctx.now;
    let c = ctx.combat.get_mut(target);
    if c.is_dead() {
        return;
    }
    let was_downed = c.is_downed();
    let before = c.hp.max(0);
    c.hp = c.hp.saturating_add(amount.max(0)).min(c.max_hp);
    let hp = c.hp;
    // What the healing really gave: none of it past the maximum (Second Wind at full HP is +0).
    let amount = hp - before;
    if was_downed && hp > 0 {
        c.death.revive(now);
    }
    let prone = c.conditions.prone;
    ctx.emit(Event::Healed { target, by, amount, hp });
    if was_downed && hp > 0 {
        // Healed awake but still on the floor: standing costs half their speed (§3.2).
        ctx.emit(Event::Revived { id: target, hp, prone });
    }
}

/// Whether two combatants are on opposite sides.
pub fn opponents(combat: &Combat, a: CombatantId, b: CombatantId) -> bool {
    combat.get(a).side != combat.get(b).side
}

/// The side's standing members.
pub fn standing(combat: &Combat, side: Side) -> Vec<CombatantId> {
    combat
        .combatants
        .iter()
        .filter(|c| c.side == side && c.is_standing())
        .map(|c| c.id)
        .collect()
}
