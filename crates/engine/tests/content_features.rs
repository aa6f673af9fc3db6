//! Class features by level as data: for every class at every level 1–20, and under each timing
//! model, a feature the built-in `classes.toml` grants is exactly one the rule code grants today
//! (the reaction gates, TDGS's Instants and Interrupt limits, and the bonus-action gates through
//! `engine::apply`), and a monster's Parry trait is the one the reactions see.

mod common;

use common::{Fight, pc, puppet};
use engine::combatant::CunningStrike;
use engine::content::data::{Content, Feature};
use engine::content::{Class, Monster, Race};
use engine::timing::tdgs::{Instant, Limit, interrupt_limit};
use engine::{Actor, BonusAction, Command, CunningMove, ReactionKind, RuleViolation, Ruleset, reactions};

fn content() -> Content {
    Content::builtin().unwrap_or_else(|e| panic!("{e}"))
}

const RULESETS: [Ruleset; 4] = [Ruleset::Gogobee, Ruleset::Tdgs, Ruleset::Ctb, Ruleset::Ticks];

#[test]
fn reaction_features_are_the_reactions_the_rules_grant() {
    let content = content();
    let table = [
        (Feature::Parry, ReactionKind::Parry),
        (Feature::UncannyDodge, ReactionKind::UncannyDodge),
        (Feature::Interception, ReactionKind::Interception),
        (Feature::Evasion, ReactionKind::Evasion),
        (Feature::ShieldOfFaith, ReactionKind::ShieldOfFaith),
    ];
    for class in Class::all() {
        let def = content.classes.get(class.name()).unwrap();
        for level in 1..=20 {
            let c = pc("Hero", Race::HUMAN, class, level);
            for ruleset in RULESETS {
                for (feature, kind) in table {
                    assert_eq!(
                        def.has_feature(feature, level, ruleset == Ruleset::Tdgs),
                        reactions::grants(&c, kind, ruleset),
                        "{} level {level} {feature:?} under {ruleset:?}",
                        class.name()
                    );
                }
            }
        }
    }
}

#[test]
fn tdgs_instants_and_interrupt_limits_follow_the_class_table() {
    let content = content();
    let instants = [
        (Feature::BattleCry, Instant::BattleCry),
        (Feature::QuickDraw, Instant::QuickDraw),
        (Feature::Premonition, Instant::Premonition),
        (Feature::SteadyAim, Instant::SteadyAim),
    ];
    for class in Class::all() {
        let def = content.classes.get(class.name()).unwrap();
        for level in 1..=20 {
            let c = pc("Hero", Race::HUMAN, class, level);
            let at = format!("{} level {level}", class.name());
            let from_data = instants
                .iter()
                .find(|(f, _)| def.has_feature(*f, level, true))
                .map(|(_, i)| *i);
            assert_eq!(from_data, Instant::granted(&c), "{at}");
            assert_eq!(
                def.has_feature(Feature::Opportunist, level, true),
                interrupt_limit(&c, ReactionKind::OpportunityAttack).is_some(),
                "{at}"
            );
            assert_eq!(
                def.has_feature(Feature::DivineIntervention, level, true),
                interrupt_limit(&c, ReactionKind::DivineIntervention).is_some()
                    && reactions::grants(&c, ReactionKind::DivineIntervention, Ruleset::Tdgs),
                "{at}"
            );
            let parries = def
                .has_feature(Feature::Parry, level, true)
                .then(|| Limit::PerRound(u32::from(def.at(level).tdgs_parries)));
            assert_eq!(parries, interrupt_limit(&c, ReactionKind::Parry), "{at}");
        }
    }
}

#[test]
fn a_monsters_parry_trait_is_the_parry_the_rules_grant() {
    let content = content();
    for m in Monster::all() {
        let def = content.monsters.get(m.name()).unwrap();
        let c = puppet("Foe", m);
        for ruleset in RULESETS {
            assert_eq!(
                def.parry,
                reactions::grants(&c, ReactionKind::Parry, ruleset),
                "{}",
                m.name()
            );
        }
        assert_eq!(
            def.parry.then_some(Limit::PerRound(1)),
            interrupt_limit(&c, ReactionKind::Parry),
            "{}",
            m.name()
        );
    }
}

/// Whether the rules let `class` at `level` use `bonus` at all: refused for its class or level
/// (`NoBonusActionGranted`, `NotEligible`) means not granted; anything else got past the gate.
fn bonus_granted(class: Class, level: u32, bonus: BonusAction) -> bool {
    let mut f = Fight::new(vec![
        pc("Hero", Race::HUMAN, class, level),
        puppet("Ogre", Monster::OGRE),
    ]);
    let (hero, ogre) = (f.id("Hero"), f.id("Ogre"));
    f.melee(hero, ogre);
    f.turn_of(hero);
    !matches!(
        f.apply(Actor::Combatant(hero), Command::Bonus(bonus)),
        Err(RuleViolation::NoBonusActionGranted { .. } | RuleViolation::NotEligible { .. })
    )
}

#[test]
fn bonus_action_features_are_the_bonus_actions_the_rules_grant() {
    let content = content();
    let table = [
        (Feature::SecondWind, BonusAction::SecondWind),
        (
            Feature::CunningAction,
            BonusAction::CunningAction(CunningMove::Disengage),
        ),
        (Feature::CunningStrike, BonusAction::CunningStrike(CunningStrike::Trip)),
        (Feature::Rage, BonusAction::Rage),
    ];
    for class in Class::all() {
        let def = content.classes.get(class.name()).unwrap();
        for level in 1..=20 {
            for (feature, bonus) in table {
                assert_eq!(
                    def.has_feature(feature, level, false),
                    bonus_granted(class, level, bonus),
                    "{} level {level} {feature:?}",
                    class.name()
                );
            }
        }
    }
}

#[test]
fn sneak_attack_is_the_rogues_at_every_level() {
    // attack.rs rolls Sneak Attack for a Rogue of any level, with the class's dice.
    let content = content();
    for class in Class::all() {
        let def = content.classes.get(class.name()).unwrap();
        for level in 1..=20 {
            assert_eq!(
                def.has_feature(Feature::SneakAttack, level, false),
                class == Class::ROGUE,
                "{} level {level}",
                class.name()
            );
            // SRD 5.1 Rogue: 1d6 at level 1, one more every odd level (10d6 at 19).
            let dice = if class == Class::ROGUE { level.div_ceil(2) } else { 0 };
            assert_eq!(
                u32::from(def.at(level).sneak_attack_dice),
                dice,
                "{} level {level}",
                class.name()
            );
        }
    }
}
