//! Temporary hit points (SRD 5.1 "Temporary Hit Points", used by seed 000's spells and items): a
//! buffer against damage, lost first — what is left of a hit after them comes off the hit
//! points. They are not healing, don't stack (a creature keeps the larger of what it has and
//! what it is given), don't wake a downed character, and last until the fight ends.

use crate::ctx::Ctx;
use crate::state::event::Event;
use crate::state::ids::CombatantId;

/// Gives `target` `amount` temporary hit points from `by`: it keeps the larger of them and those
/// it has.
pub fn gain(ctx: &mut Ctx, by: CombatantId, target: CombatantId, amount: i32) {
    let c = ctx.combat.get_mut(target);
    if c.is_dead() {
        return;
    }
    let before = c.temp_hp;
    c.temp_hp = before.max(amount.max(0));
    let temp_hp = c.temp_hp;
    ctx.emit(Event::TempHpGained {
        target,
        by,
        amount: amount.max(0),
        temp_hp,
        kept: temp_hp == before,
    });
}

/// Takes what it can of `amount` damage to `target` off its temporary hit points: the part they
/// absorbed.
pub fn absorb(ctx: &mut Ctx, target: CombatantId, amount: i32) -> i32 {
    let c = ctx.combat.get_mut(target);
    let absorbed = c.temp_hp.min(amount.max(0));
    if absorbed == 0 {
        return 0;
    }
    c.temp_hp -= absorbed;
    let left = c.temp_hp;
    ctx.emit(Event::TempHpAbsorbed {
        id: target,
        amount: absorbed,
        left,
    });
    absorbed
}
