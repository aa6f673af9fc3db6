//! Shield (a Mage's reaction): hit by an attack — spend a 1st-level slot for +5 AC against the
//! triggering hit and until the start of the mage's next turn; a hit that no longer beats the
//! raised AC misses, a critical still hits.

mod common;

use common::{Fight, damage_to, offered_to, pc, puppet, rolls};
use engine::content::{Class, Monster, Race};
use engine::timing::tdgs;
use engine::{Combat, CombatantId, Command, Event, ReactionKind, Ruleset, Terrain};

/// A level-1 mage in melee with a goblin whose turn it is.
fn mage_and_goblin() -> (Fight, CombatantId, CombatantId) {
    let mut f = Fight::new(vec![
        pc("Ione", Race::HUMAN, Class::MAGE, 1),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let (ione, goblin) = (f.id("Ione"), f.id("Goblin"));
    f.melee(ione, goblin);
    f.start_with_order(vec![goblin, ione]);
    (f, ione, goblin)
}

/// The goblin hits the mage (not a critical) with a total in `totals`.
fn hit_with_total(f: &mut Fight, goblin: CombatantId, ione: CombatantId, totals: std::ops::Range<i32>) -> Vec<Event> {
    f.act_with(goblin, Command::Attack { target: Some(ione) }, |e, _| {
        rolls(e)
            .first()
            .is_some_and(|r| r.hit && !r.critical && totals.contains(&r.total))
    })
}

#[test]
fn shield_turns_a_hit_below_ac_plus_five_into_a_miss_and_spends_a_first_level_slot() {
    let (mut f, ione, goblin) = mage_and_goblin();
    let ac = f.get(ione).armor_class();
    let slots = f.get(ione).pools.spell_slots[0];
    let hp = f.get(ione).hp;
    let events = hit_with_total(&mut f, goblin, ione, ac..ac + 5);
    assert_eq!(offered_to(&events, ione), Some(vec![ReactionKind::Shield]));
    let events = f.act(ione, Command::React(ReactionKind::Shield));
    assert!(damage_to(&events, ione).iter().all(|d| *d == 0), "the hit misses");
    assert_eq!(f.get(ione).hp, hp);
    assert_eq!(f.get(ione).pools.spell_slots[0], slots - 1);
    assert_eq!(
        f.get(ione).armor_class(),
        ac + 5,
        "+5 AC until the start of its next turn"
    );
    assert!(f.get(ione).resources.reaction_used);
}

#[test]
fn shield_lasts_until_the_start_of_the_mages_next_turn() {
    let (mut f, ione, goblin) = mage_and_goblin();
    let ac = f.get(ione).armor_class();
    hit_with_total(&mut f, goblin, ione, ac..ac + 5);
    f.act(ione, Command::React(ReactionKind::Shield));
    assert_eq!(f.get(ione).armor_class(), ac + 5);
    f.act(goblin, Command::EndTurn);
    assert_eq!(f.current(), ione);
    assert_eq!(
        f.get(ione).armor_class(),
        ac,
        "the bonus ends when the mage's turn starts"
    );
}

#[test]
fn a_hit_that_beats_ac_plus_five_still_lands_through_shield() {
    let (mut f, ione, goblin) = mage_and_goblin();
    let ac = f.get(ione).armor_class();
    let hp = f.get(ione).hp;
    // A goblin's scimitar is +4: a natural 19 makes 23, past AC 12 + 5 for a mage in no armor.
    let events = hit_with_total(&mut f, goblin, ione, ac + 5..99);
    assert_eq!(offered_to(&events, ione), Some(vec![ReactionKind::Shield]));
    let damage = match &f.combat.window.as_ref().expect("a window").trigger {
        engine::ReactionTrigger::Hit { damage, .. } => *damage,
        other => panic!("not a hit: {other:?}"),
    };
    f.act(ione, Command::React(ReactionKind::Shield));
    assert_eq!(f.get(ione).hp, (hp - damage).max(0));
    assert_eq!(f.get(ione).armor_class(), ac + 5);
}

#[test]
fn shield_is_offered_only_to_a_mage_with_a_first_level_slot() {
    let (mut f, ione, goblin) = mage_and_goblin();
    f.get_mut(ione).pools.spell_slots = [0; 9];
    let ac = f.get(ione).armor_class();
    let events = hit_with_total(&mut f, goblin, ione, ac..99);
    assert_eq!(offered_to(&events, ione), None, "no slot, no Shield");

    let mut f = Fight::new(vec![
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
        puppet("Goblin", Monster::GOBLIN),
    ]);
    let (bo, goblin) = (f.id("Bo"), f.id("Goblin"));
    f.melee(bo, goblin);
    f.start_with_order(vec![goblin, bo]);
    let events = hit_with_total(&mut f, goblin, bo, 0..99);
    assert_eq!(offered_to(&events, bo), None, "a fighter has no Shield");
}

#[test]
fn a_monster_mage_raises_shield_only_when_it_turns_the_hit_into_a_miss() {
    // An AI-controlled mage: the AI ranks Shield and takes it when it helps.
    let mut f = Fight::new(vec![
        puppet("Goblin", Monster::GOBLIN),
        pc("Ione", Race::HUMAN, Class::MAGE, 1)
            .controlled_by(engine::Controller::Ai(engine::content::Behaviour::Caster))
            .on_side(engine::Side::Enemies),
        pc("Bo", Race::HUMAN, Class::FIGHTER, 1),
    ]);
    let (ione, bo) = (f.id("Ione"), f.id("Bo"));
    f.melee(ione, bo);
    f.start_with_order(vec![bo, ione]);
    let ac = f.get(ione).armor_class();
    let events = f.act_with(bo, Command::Attack { target: Some(ione) }, |e, _| {
        rolls(e)
            .first()
            .is_some_and(|r| r.hit && !r.critical && r.total < ac + 5)
    });
    assert!(events.iter().any(|e| matches!(
        e,
        Event::ReactionTaken { reactor, reaction: ReactionKind::Shield } if *reactor == ione
    )));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::DamageReduced {
            reaction: ReactionKind::Shield,
            remaining: 0,
            ..
        }
    )));
    assert_eq!(
        damage_to(&events, ione).iter().sum::<i32>(),
        0,
        "one attack, turned into a miss"
    );
}

#[test]
fn tdgs_shield_is_an_interrupt_once_a_round() {
    let mage = pc("Ione", Race::HUMAN, Class::MAGE, 1);
    assert_eq!(
        tdgs::interrupt_limit(&mage, ReactionKind::Shield),
        Some(tdgs::Limit::PerRound(1))
    );
    let combat = Combat::new(vec![mage], Terrain::default()).with_ruleset(Ruleset::Tdgs);
    assert!(
        tdgs::interrupts(&combat.combatants[0])
            .iter()
            .any(|i| i.kind == ReactionKind::Shield)
    );
}
