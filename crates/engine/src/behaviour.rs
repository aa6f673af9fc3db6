//! Behaviour profiles: how the game plays monsters (and AI-controlled characters in
//! simulations) — the next command of a turn, and which offered reaction to take, chosen at once.

use crate::content::data::{Feature, RaceTrait, SpellDef, SpellEffectDef};
use crate::content::{Behaviour, Spell};
use crate::movement;
use crate::multiattack;
use crate::state::combat::Combat;
use crate::state::combatant::Combatant;
use crate::state::command::{BonusAction, Command};
use crate::state::ids::CombatantId;
use crate::state::movement::{Band, MoveIntent};
use crate::state::reactions::{ReactionKind, ReactionTrigger};

/// What an AI-controlled combatant does next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    Do(Command),
    /// Use its area ability of this index (`crate::abilities`).
    Ability(usize),
}

/// Picks the enemy to go after: standing and visible ones; Brutes finish off the downed when
/// nobody stands.
pub fn choose_target(c: &Combat, me: &Combatant, profile: Behaviour) -> Option<CombatantId> {
    let mut standing: Vec<(&Combatant, Band)> = c
        .combatants
        .iter()
        .filter(|o| o.side != me.side && o.is_standing() && o.conditions.hidden.is_none())
        .map(|o| (o, c.band(me.id, o.id)))
        .collect();
    if standing.is_empty() && profile == Behaviour::Brute {
        standing = c
            .combatants
            .iter()
            .filter(|o| o.side != me.side && o.death.dying())
            .map(|o| (o, c.band(me.id, o.id)))
            .collect();
    }
    match profile {
        Behaviour::Brute => standing.iter().min_by_key(|(o, band)| (o.hp, *band, o.id)),
        _ => standing.iter().min_by_key(|(o, band)| (*band, o.hp, o.id)),
    }
    .map(|(o, _)| o.id)
}

/// The weakest visible enemy standing in melee with `me` that one of its strikes reaches.
fn in_reach(c: &Combat, me: &Combatant) -> Option<CombatantId> {
    c.standing_engaged_with(me.id)
        .into_iter()
        .filter(|&o| c.get(o).conditions.hidden.is_none())
        .filter(|&o| multiattack::strike_for(c, me, o, 1).is_some_and(|s| multiattack::reaches(c, me, o, s)))
        .min_by_key(|&o| (c.get(o).hp, o))
}

fn feet_to_melee(c: &Combat, me: &Combatant, target: CombatantId) -> Option<i32> {
    let plan = movement::plan(MoveIntent::Melee(target), &c.bands_of(me.id), c.difficult_for(me.id)).ok()?;
    let stand = if me.conditions.prone { me.speed() / 2 } else { 0 };
    Some(plan.feet - movement::banked_toward(c, me.id, target) + stand)
}

fn bonus_choice(c: &Combat, me: &Combatant) -> Option<Command> {
    if !crate::timing::has_slot(c, me.id, crate::state::resources::Resource::BonusAction) || !me.is_character() {
        return None;
    }
    let has = |feature| me.has_feature(feature, c.ruleset);
    let can_rage = (has(Feature::Rage) && me.pools.rage > 0) || (me.has_trait(RaceTrait::Rage) && me.pools.racial_rage);
    if can_rage && !me.conditions.raging {
        return Some(Command::Bonus(BonusAction::Rage));
    }
    if has(Feature::SecondWind) && me.pools.second_wind > 0 && me.hp * 2 <= me.max_hp {
        return Some(Command::Bonus(BonusAction::SecondWind));
    }
    if me.knows(Spell::HEALING_WORD)
        && me.lowest_slot(1).is_some()
        && let Some(ally) = c.combatants.iter().find(|a| a.side == me.side && a.death.dying())
    {
        return Some(Command::Bonus(BonusAction::HealingWord { target: ally.id }));
    }
    if me.knows(Spell::HUNTERS_MARK)
        && me.conditions.hunters_mark.is_none_or(|t| c.get(t).is_dead())
        && me.lowest_slot(1).is_some()
        && let Some(t) = choose_target(c, me, Behaviour::Aggressive)
    {
        return Some(Command::Bonus(BonusAction::HuntersMark { target: t }));
    }
    if me.conditions.attacked_this_turn && me.off_hand().is_some_and(|w| w.light) {
        let target = c.standing_engaged_with(me.id).into_iter().next()?;
        return Some(Command::Bonus(BonusAction::OffHandAttack { target: Some(target) }));
    }
    None
}

/// The strongest damaging spell it can cast now, by what each spell does: an area save against
/// two or more enemies, darts that always hit, beams once they multiply, a spell attack, a
/// single-target save from out of melee.
fn spell_choice(c: &Combat, me: &Combatant, target: CombatantId) -> Option<Command> {
    let enemies = c
        .combatants
        .iter()
        .filter(|o| o.side != me.side && o.is_standing())
        .count();
    // What it can cast now at whom it would cast it: an ally spell on itself, any other on `target`.
    let castable: Vec<&SpellDef> = me
        .known_spells()
        .iter()
        .filter(|s| me.can_cast(s))
        .filter(|s| {
            let on = if s.targets_ally() { me } else { c.get(target) };
            s.affects(on.creature_type())
        })
        .collect();
    let find = |wanted: &dyn Fn(&SpellEffectDef) -> bool| castable.iter().find(|s| wanted(&s.effect));
    let in_melee = c.band(me.id, target) == Band::Melee;
    // A buff no ally holds yet, while the fight is still big enough to be worth it.
    if enemies >= 2
        && let Some(buff) = castable.iter().find(|s| {
            matches!(s.effect, SpellEffectDef::Buff { .. })
                && s.status.as_ref().is_some_and(|status| {
                    !c.combatants
                        .iter()
                        .any(|a| a.side == me.side && a.statuses.iter().any(|h| *h.name == *status.name))
                })
        })
    {
        return Some(Command::Cast {
            spell: Spell::named(&buff.name)?,
            target: Some(me.id),
        });
    }
    // Temporary hit points while it has none and the fight is still big enough to be worth it.
    if enemies >= 2
        && me.temp_hp == 0
        && let Some(ward) = find(&|e| matches!(e, SpellEffectDef::TempHp { .. }))
    {
        return Some(Command::Cast {
            spell: Spell::named(&ward.name)?,
            target: Some(me.id),
        });
    }
    let choice = None
        .or_else(|| {
            (enemies >= 2)
                .then(|| find(&|e| matches!(e, SpellEffectDef::Save { area: true, .. })))
                .flatten()
        })
        .or_else(|| {
            // A status the target lacks and can be given (Hold Person on the one it fights).
            castable
                .iter()
                .find(|s| matches!(s.effect, SpellEffectDef::Afflict { .. }) && would_take(c.get(target), s))
        })
        .or_else(|| find(&|e| matches!(e, SpellEffectDef::Darts { .. })))
        .or_else(|| {
            (me.cantrip_dice() >= 2)
                .then(|| find(&|e| matches!(e, SpellEffectDef::Beams { .. })))
                .flatten()
        })
        .or_else(|| find(&|e| matches!(e, SpellEffectDef::Attack { .. })))
        .or_else(|| {
            (!in_melee)
                .then(|| find(&|e| matches!(e, SpellEffectDef::Save { area: false, .. })))
                .flatten()
        })?;
    Some(Command::Cast {
        spell: Spell::named(&choice.name)?,
        target: Some(target),
    })
}

/// Whether `target` would be given `spell`'s status: it does not hold it and is not immune to
/// the condition it stands for.
fn would_take(target: &Combatant, spell: &SpellDef) -> bool {
    spell.status.as_ref().is_some_and(|status| {
        !target.statuses.iter().any(|held| *held.name == *status.name)
            && !status.condition.is_some_and(|k| crate::defences::immune(target, k))
    })
}

/// The next command of an AI-controlled combatant's turn.
pub fn decide(c: &Combat, id: CombatantId) -> Choice {
    let me = c.get(id);
    let profile = me.behaviour().unwrap_or(Behaviour::Aggressive);
    let end = Choice::Do(Command::EndTurn);
    if let Some(bonus) = bonus_choice(c, me)
        && !matches!(bonus, Command::Bonus(BonusAction::OffHandAttack { .. }))
    {
        return Choice::Do(bonus);
    }
    let Some(target) = choose_target(c, me, profile) else {
        return end;
    };
    if crate::timing::has_slot(c, id, crate::state::resources::Resource::Action) {
        if let Some(i) = crate::abilities::choice(c, me) {
            return Choice::Ability(i);
        }
        let caster = profile == Behaviour::Caster || me.character_def().is_some_and(|ch| ch.casting_ability.is_some());
        if caster && let Some(cast) = spell_choice(c, me, target) {
            return Choice::Do(cast);
        }
        // A hider (the Quickling) slips out of sight while no one is in its reach (§2.1 Hide);
        // Search finds it.
        if me.stat_block().is_some_and(|m| m.hides)
            && me.conditions.hidden.is_none()
            && crate::actions::hide_allowed(c, id).is_ok()
        {
            return Choice::Do(Command::Hide);
        }
        // Skirmishers hit and run: they close to melee when they can, strike, and fall back later.
        let in_melee = c.band(id, target) == Band::Melee;
        if profile == Behaviour::Skirmisher
            && !in_melee
            && me.has_melee_attack()
            && feet_to_melee(c, me, target).is_some_and(|f| f <= me.resources.movement_left())
        {
            return Choice::Do(Command::Move(MoveIntent::Melee(target)));
        }
        let reaches = multiattack::strike_for(c, me, target, 1).is_some_and(|s| multiattack::reaches(c, me, target, s));
        if reaches {
            return Choice::Do(Command::Attack { target: Some(target) });
        }
        // Its target out of reach while others hold it in melee: it strikes the weakest of those
        // it can reach rather than dash in place beside them.
        if let Some(near) = in_reach(c, me) {
            return Choice::Do(Command::Attack { target: Some(near) });
        }
        // Held fast by a net, a web or vines with no one in reach: break free first (§3.2).
        if me.conditions.restrained || me.conditions.entangled > 0 {
            return Choice::Do(Command::Escape);
        }
        return match feet_to_melee(c, me, target) {
            Some(feet) if feet <= me.resources.movement_left() => Choice::Do(Command::Move(MoveIntent::Melee(target))),
            // Not dashed yet this turn: Dash; dashed and still short: close in (the feet carry over).
            Some(_) if me.speed() > 0 && me.resources.movement_left() <= me.speed() => Choice::Do(Command::Dash),
            Some(_) if me.resources.movement_left() > 0 => Choice::Do(Command::Move(MoveIntent::Melee(target))),
            _ => end,
        };
    }
    if let Some(bonus) = bonus_choice(c, me) {
        return Choice::Do(bonus);
    }
    let engaged = !c.standing_engaged_with(id).is_empty();
    if profile == Behaviour::Skirmisher
        && engaged
        && let Ok(plan) = movement::plan(MoveIntent::Ranged, &c.bands_of(id), c.difficult_for(id))
        && plan.feet <= me.resources.movement_left()
    {
        return Choice::Do(Command::Move(MoveIntent::Ranged));
    }
    if !engaged
        && matches!(profile, Behaviour::Aggressive | Behaviour::Brute | Behaviour::Breather)
        && !me.has_ranged_attack()
        && feet_to_melee(c, me, target).is_some()
        && me.resources.movement_left() > 0
    {
        // All the way if the feet suffice; else as far as they go (the rest carries over).
        return Choice::Do(Command::Move(MoveIntent::Melee(target)));
    }
    end
}

/// Which offered reaction an AI-controlled reactor takes: the best-ranked one it wants (each
/// reaction's module ranks it) — always something if offered, but a counterspell for a cantrip.
pub fn choose_reaction(
    c: &Combat,
    reactor: CombatantId,
    trigger: &ReactionTrigger,
    options: &[ReactionKind],
) -> Option<ReactionKind> {
    crate::reactions::ai_choice(c, reactor, trigger, options)
}

/// A reaction queued for an AI reactor on the tick timeline: the reaction, the trigger it
/// answers, and whether the trigger's actor is winding up a spell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Queued {
    pub kind: ReactionKind,
    pub trigger: ReactionTrigger,
    pub casting: bool,
}

/// Which of the reactions queued for an AI reactor in one tick it uses (seed 004 "Reaction
/// pass": "Monsters rank by profile"; the rest are discarded). `queued` lists each legal one,
/// the earlier actor in initiative order first. By profile:
/// - *Aggressive*, *Breather*, *Ranged*: break a windup (Cancel) before exploiting a recover,
///   the earlier actor first.
/// - *Skirmisher*: the opening first (Exploit, at advantage), then a windup — it hits and runs
///   rather than trading blows.
/// - *Brute*: the weakest enemy (lowest HP) first, whichever reaction reaches it; ties as
///   Aggressive.
/// - *Caster*: a spellcaster's windup first (Cancel against a spell in prep), then as Aggressive.
///
/// A reaction the AI does not want (its module's `ai_wants`) is never chosen.
pub fn choose_queued(c: &Combat, reactor: CombatantId, queued: &[Queued]) -> Option<(ReactionKind, ReactionTrigger)> {
    let me = c.get(reactor);
    let profile = me.behaviour().unwrap_or(Behaviour::Aggressive);
    let kind_order = |kind: ReactionKind| -> u8 {
        match (profile, kind) {
            (Behaviour::Skirmisher, ReactionKind::Exploit) => 0,
            (Behaviour::Skirmisher, ReactionKind::Cancel) => 1,
            (_, ReactionKind::Cancel) => 0,
            (_, ReactionKind::Exploit) => 1,
            (_, other) => 2 + other.reaction().ai_rank() / 100,
        }
    };
    queued
        .iter()
        .enumerate()
        .filter(|(_, q)| q.kind.reaction().ai_wants(c, me, &q.trigger))
        .min_by_key(|(i, q)| {
            let first = match profile {
                Behaviour::Brute => c.get(q.trigger.source()).hp,
                Behaviour::Caster => i32::from(!(q.kind == ReactionKind::Cancel && q.casting)),
                _ => 0,
            };
            (first, kind_order(q.kind), *i)
        })
        .map(|(_, q)| (q.kind, q.trigger.clone()))
}
