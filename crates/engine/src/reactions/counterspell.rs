//! Counterspell (seed 000 §2.3; seed 001 "Interrupt chains"): Mage 5+ (or a monster that knows
//! it), an enemy casts a spell — spend a 3rd-level slot; an INT check against DC 10 + the spell's
//! level cancels it. A counterspell may itself be countered: the chain resolves responder first.

use super::{Limit, Reaction, ReactionTrigger, TriggerKind};
use crate::state::combat::Combat;
use crate::state::ids::Ruleset;
use crate::state::combatant::Combatant;
use crate::state::ids::CombatantId;
use crate::state::sheet::Sheet;
use crate::content::{Ability, Spell};
use crate::dice::RollMode;
use crate::state::event::Event;
use crate::ctx::Ctx;
use crate::state::step::Step;

pub struct Counterspell;

impl Reaction for Counterspell {
    fn label(&self) -> &'static str {
        "Counterspell"
    }

    fn grants(&self, c: &Combatant, ruleset: Ruleset) -> bool {
        self.sheet_grants(&c.sheet, ruleset) && c.lowest_slot(3).is_some()
    }

    /// Knowing the spell (a Mage 5+'s, or a monster's that knows it).
    fn sheet_grants(&self, sheet: &Sheet, _ruleset: Ruleset) -> bool {
        sheet.known_spell(Spell::COUNTERSPELL).is_some()
    }

    fn triggers(&self) -> &'static [TriggerKind] {
        &[TriggerKind::CastsSpell]
    }

    fn answers(&self, combat: &Combat, r: &Combatant, trigger: &ReactionTrigger) -> bool {
        matches!(trigger, ReactionTrigger::CastsSpell { caster, .. } if combat.get(*caster).side != r.side)
            && self.grants(r, combat.ruleset)
    }

    fn take(&self, ctx: &mut Ctx, reactor: CombatantId, trigger: &ReactionTrigger) -> Vec<Step> {
        let ReactionTrigger::CastsSpell { caster, spell } = trigger else {
            return vec![];
        };
        let slot = ctx.combat.get(reactor).lowest_slot(3);
        if let Some(level) = slot {
            ctx.combat.get_mut(reactor).pools.spell_slots[level as usize - 1] -= 1;
        }
        ctx.emit(Event::SpellCast {
            caster: reactor,
            spell: Spell::COUNTERSPELL,
            slot,
            target: Some(*caster),
        });
        let mut steps = ctx.offers_to_all(&ReactionTrigger::CastsSpell {
            caster: reactor,
            spell: Spell::COUNTERSPELL,
        });
        steps.extend(ctx.readied_offers(&crate::state::readied::Observed::CastsSpell {
            caster: reactor,
            spell: Spell::COUNTERSPELL,
        }));
        steps.push(Step::Counterspell {
            reactor,
            caster: *caster,
            spell: *spell,
            countered: false,
        });
        steps
    }

    fn ai_rank(&self) -> u8 {
        30
    }

    /// The AI counters real spells, not cantrips.
    fn ai_wants(&self, combat: &Combat, _reactor: &Combatant, trigger: &ReactionTrigger) -> bool {
        matches!(trigger, ReactionTrigger::CastsSpell { caster, spell } if spell_level(combat, *caster, *spell) > 0)
    }

    /// TDGS: once a scene.
    fn interrupt_limit(&self, _c: &Combatant) -> Option<Limit> {
        Some(Limit::PerScene(1))
    }
}

/// The level of `spell` as its caster's copy defines it (0 for one it no longer has).
fn spell_level(combat: &Combat, caster: CombatantId, spell: Spell) -> u32 {
    combat.get(caster).spell(spell).map_or(0, |s| s.level)
}

/// A Counterspell's check: INT against DC 10 + the spell's level; success cancels the spell
/// (or, in a chain, the counterspell it answers).
pub fn resolve(ctx: &mut Ctx, reactor: CombatantId, caster: CombatantId, spell: Spell, countered: bool) {
    if countered {
        return;
    }
    let dc = 10 + spell_level(ctx.combat, caster, spell) as i32;
    let bonus = ctx.combat.get(reactor).modifier(Ability::Int);
    let roll = ctx.dice.d20(RollMode::Normal).natural as i32 + bonus;
    if roll < dc {
        ctx.emit(Event::CounterspellFailed {
            caster,
            by: reactor,
            roll,
            dc,
        });
        return;
    }
    ctx.emit(Event::SpellCountered {
        caster,
        spell,
        by: reactor,
        roll,
        dc,
    });
    for step in &mut ctx.combat.queue {
        match step {
            Step::Spell(cast) if cast.caster == caster && cast.spell == spell && !cast.countered => {
                cast.countered = true;
                return;
            }
            Step::Counterspell {
                reactor: r, countered, ..
            } if *r == caster && spell == Spell::COUNTERSPELL && !*countered => {
                *countered = true;
                return;
            }
            _ => {}
        }
    }
}
