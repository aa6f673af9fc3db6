//! Reactions (seed 000 §2.3; seed 001 "Interrupts"; seed 004 "Reactions"): what may be taken in
//! response to a trigger, by whom, and what it does. Each reaction is one module holding its gate
//! (who has it), its trigger (what it answers), its effect, its AI ranking and its per-model
//! limits; [`registry!`] lists them once, and the compiler checks that every [`ReactionKind`] has
//! its module. A trigger that offers a player a legal reaction suspends the action in progress
//! behind a [`ReactionWindow`]; monsters choose by their behaviour profile at once.

use crate::ctx::Ctx;
use crate::state::combat::Combat;
use crate::state::combatant::Combatant;
use crate::state::command::{Actor, Command};
use crate::state::event::Event;
use crate::state::ids::CombatantId;
use crate::state::ids::Ruleset;
use crate::state::movement::Band;
pub use crate::state::reactions::{
    InterruptUses, Limit, ReactionKind, ReactionSet, ReactionTrigger, ReactionWindow, Repertoire, TriggerKind,
};
use crate::state::readied::{HeldAction, Observed};
use crate::state::sheet::Sheet;
use crate::state::step::Step;
use crate::state::violation::RuleViolation;

/// One reaction: everything the rules need to know about it, in one place.
pub trait Reaction: Sync {
    /// The button label (also what a player may type).
    fn label(&self) -> &'static str;

    /// Other names a player may type for it.
    fn aliases(&self) -> &'static [&'static str] {
        &[]
    }

    /// The gate: whether `c` has this reaction at all — its class, level, monster traits and
    /// the resources it spends — whatever the trigger and whether its reaction is spent.
    /// Reactions the timing model gives (a readied action, the timeline's strikes) are not an
    /// ability's: `false`. Never true where [`Reaction::sheet_grants`] is false.
    fn grants(&self, c: &Combatant, ruleset: Ruleset) -> bool;

    /// The gate's content part: whether a combatant of this `sheet` could ever have it under
    /// `ruleset` — its class's features at its level, its stat block, the spells it knows —
    /// whatever it has left to spend. A combatant's [`Repertoire`] is made of these, and a
    /// trigger is not put to anyone whose repertoire holds no reaction answering it, so this
    /// must be true wherever [`Reaction::grants`] or [`Reaction::answers`] may be. By default
    /// `true`: a reaction the timing model gives (a readied action, the timeline's strikes) is
    /// never passed over.
    fn sheet_grants(&self, _sheet: &Sheet, _ruleset: Ruleset) -> bool {
        true
    }

    /// The kinds of trigger it may answer at all: [`Reaction::answers`] is false for any other
    /// (the index [`answering`] is built from these; debug builds check it against `answers`).
    fn triggers(&self) -> &'static [TriggerKind];

    /// Whether only the trigger's own target ([`ReactionTrigger::target`]: the one hit, the one
    /// failing the save) may answer it, so the loops over a fight ask no one else.
    fn target_only(&self) -> bool {
        false
    }

    /// The trigger: whether `reactor` may take it in answer to `trigger` (the gate included;
    /// whether its timing allows is the model's question, asked by [`options`]).
    fn answers(&self, combat: &Combat, reactor: &Combatant, trigger: &ReactionTrigger) -> bool;

    /// The effect, once chosen and paid for: the steps that resolve before the interrupted action
    /// continues.
    fn take(&self, ctx: &mut Ctx, reactor: CombatantId, trigger: &ReactionTrigger) -> Vec<Step>;

    /// The AI's preference among the reactions offered at once: the lowest rank is taken.
    fn ai_rank(&self) -> u8;

    /// Whether the AI takes it when offered for `trigger` (by default: always).
    fn ai_wants(&self, _combat: &Combat, _reactor: &Combatant, _trigger: &ReactionTrigger) -> bool {
        true
    }

    /// TDGS: its Interrupt limit for `c` (`None`: not an Interrupt — "no free interrupts").
    fn interrupt_limit(&self, c: &Combatant) -> Option<Limit>;

    /// The tick timeline: the reaction's own PER cycle (prep, exec, recover).
    fn cycle(&self) -> (u32, u32, u32) {
        (0, 0, 3)
    }

    /// Whether TwinBee narrates the taking (a readied action's own line follows instead).
    fn narrated(&self) -> bool {
        true
    }
}

/// Gives every reaction in [`ReactionKind`] its module, in the kinds' order (the buttons' order and
/// their `custom_id` index: new reactions go last, in `crate::state::reactions` and here). The
/// compiler checks that every kind has its module, and a constant below that the order matches.
macro_rules! registry {
    ($( $kind:ident => $module:ident ),* $(,)?) => {
        $( mod $module; )*

        // The registry lists the kinds in their own order, each once.
        const _: () = {
            let listed = [$(ReactionKind::$kind),*];
            assert!(listed.len() == ReactionKind::ALL.len());
            let mut i = 0;
            while i < listed.len() {
                assert!(listed[i] as usize == i);
                i += 1;
            }
        };

        impl ReactionKind {
            /// The reactions that may answer each kind of trigger, split into those anyone may
            /// answer and those only the trigger's target may: built once from each module's
            /// [`Reaction::triggers`] and [`Reaction::target_only`].
            fn index() -> &'static [Answering; TriggerKind::ALL.len()] {
                static INDEX: std::sync::OnceLock<[Answering; TriggerKind::ALL.len()]> = std::sync::OnceLock::new();
                INDEX.get_or_init(|| {
                    TriggerKind::ALL.map(|t| {
                        let answer = |target_only: bool| {
                            Self::ALL
                                .into_iter()
                                .filter(|k| {
                                    k.reaction().triggers().contains(&t) && k.reaction().target_only() == target_only
                                })
                                .collect()
                        };
                        Answering {
                            anyone: answer(false),
                            target: answer(true),
                        }
                    })
                })
            }

            /// [`Reaction::sheet_grants`] without the `dyn` call.
            fn sheet_grants(self, sheet: &Sheet, ruleset: Ruleset) -> bool {
                match self {
                    $( ReactionKind::$kind => Reaction::sheet_grants(&$module::$kind, sheet, ruleset), )*
                }
            }

            /// Its rules.
            pub fn reaction(self) -> &'static dyn Reaction {
                match self {
                    $( ReactionKind::$kind => &$module::$kind, )*
                }
            }

            /// [`Reaction::answers`] without the `dyn` call: the loops over a fight
            /// ([`Asking::has_options`]) inline each reaction's checks.
            #[inline]
            fn answers(self, combat: &Combat, reactor: &Combatant, trigger: &ReactionTrigger) -> bool {
                match self {
                    $( ReactionKind::$kind => Reaction::answers(&$module::$kind, combat, reactor, trigger), )*
                }
            }
        }
    };
}

registry! {
    OpportunityAttack => opportunity_attack,
    Parry => parry,
    UncannyDodge => uncanny_dodge,
    ShieldOfFaith => shield_of_faith,
    Interception => interception,
    Counterspell => counterspell,
    Evasion => evasion,
    Readied => readied,
    Cancel => cancel,
    Exploit => exploit,
    Shield => shield,
    DivineIntervention => divine_intervention,
    StatBlock => stat_block,
}

/// What `sheet` gives under each ruleset ([`Reaction::sheet_grants`]).
pub fn repertoire_of(sheet: &Sheet) -> Repertoire {
    Repertoire::by_ruleset(|ruleset| {
        ReactionKind::ALL
            .into_iter()
            .filter(|k| k.sheet_grants(sheet, ruleset))
            .collect()
    })
}

pub(crate) use counterspell::resolve as resolve_counterspell;

impl ReactionKind {
    /// The button label.
    pub fn label(self) -> &'static str {
        self.reaction().label()
    }

    /// Parses a button label or a typed name.
    pub fn parse(text: &str) -> Option<ReactionKind> {
        let wanted = crate::content::normalize(text);
        Self::ALL.into_iter().find(|k| {
            crate::content::normalize(k.label()) == wanted
                || k.reaction()
                    .aliases()
                    .iter()
                    .any(|a| crate::content::normalize(a) == wanted)
        })
    }
}

/// The offers a trigger makes, in initiative order: called on the context by every rule that
/// sets a trigger off.
impl Ctx<'_> {
    /// Offers for every readied action `observed` sets off, in initiative order.
    pub fn readied_offers(&self, observed: &Observed) -> Vec<Step> {
        let c = &*self.combat;
        debug_assert!(
            c.readied.maybe || c.combatants.iter().all(|r| r.readied.is_none()),
            "the fight's readied hint hides a readied action"
        );
        if !c.readied.maybe
            || !c
                .combatants
                .iter()
                .any(|r| r.readied.as_ref().is_some_and(|readied| !readied.fired))
        {
            return Vec::new();
        }
        let actor = c.get(observed.actor());
        let victim = match observed {
            Observed::Attacks { target, .. } => Some(c.get(*target)),
            _ => None,
        };
        crate::timing::reaction_order(c)
            .into_iter()
            .filter(|&id| {
                let r = c.get(id);
                id != actor.id
                    && r.readied
                        .as_ref()
                        .is_some_and(|readied| !readied.fired && readied.trigger.matches(observed, actor, r, victim))
            })
            .map(|reactor| Step::Offer {
                reactor,
                trigger: ReactionTrigger::Readied {
                    observed: observed.clone(),
                },
            })
            .collect()
    }

    /// Offers `trigger` to every living combatant (in initiative order) who might react to it.
    pub fn offers_to_all(&self, trigger: &ReactionTrigger) -> Vec<Step> {
        let c = &*self.combat;
        // Usually no one can answer: find that out in one pass over the fight, asking only the
        // reactions that answer this kind of trigger, before putting anyone in order.
        let asking = Asking::new(trigger);
        if !c.combatants.iter().any(|r| asking.has_options(c, r)) {
            return Vec::new();
        }
        crate::timing::reaction_order(c)
            .into_iter()
            .filter(|&id| asking.has_options(c, c.get(id)))
            .map(|reactor| Step::Offer {
                reactor,
                trigger: trigger.clone(),
            })
            .collect()
    }
}

/// Whether `c` has the reaction `kind` at all (see [`Reaction::grants`]).
pub fn grants(c: &Combatant, kind: ReactionKind, ruleset: Ruleset) -> bool {
    let granted = kind.reaction().grants(c, ruleset);
    debug_assert!(
        !granted || c.repertoire.under(ruleset).contains(kind),
        "{} grants {kind:?} but its repertoire leaves it out",
        c.name
    );
    granted
}

/// The reactions that may answer a kind of trigger.
#[derive(Debug, Default)]
pub struct Answering {
    /// Those anyone may answer it with (their own checks decide).
    pub anyone: ReactionSet,
    /// Those only the trigger's target may ([`Reaction::target_only`]).
    pub target: ReactionSet,
}

/// The reactions that may answer a trigger of `kind` at all.
pub fn answering(kind: TriggerKind) -> &'static Answering {
    &ReactionKind::index()[kind as usize]
}

/// The reactions `reactor` may legally take now in answer to `trigger`: those it has and that
/// answer the trigger, when its timing model lets it react (GogoBee: standing, reaction unspent —
/// a readied action has its reaction reserved; TDGS: an Interrupt with uses left).
pub fn options(combat: &Combat, reactor: CombatantId, trigger: &ReactionTrigger) -> Vec<ReactionKind> {
    let r = combat.get(reactor);
    let legal = |k: &ReactionKind| k.answers(combat, r, trigger) && crate::timing::may_react(combat, reactor, *k);
    let found: Vec<ReactionKind> = Asking::new(trigger).askable(combat, r).iter().filter(legal).collect();
    #[cfg(debug_assertions)]
    {
        assert!(
            r.repertoire.covers(repertoire_of(&r.sheet)),
            "{}'s repertoire leaves out a reaction its sheet gives",
            r.name
        );
        assert_eq!(
            found,
            ReactionKind::ALL.into_iter().filter(legal).collect::<Vec<_>>(),
            "a reaction answers a trigger its `triggers` or `target_only` does not allow, or that \
             {}'s sheet does not give it (`sheet_grants`)",
            r.name
        );
    }
    found
}

/// One trigger put to a whole fight: what is looked up once for it, before asking each combatant.
pub struct Asking<'t> {
    trigger: &'t ReactionTrigger,
    answering: &'static Answering,
    target: Option<CombatantId>,
}

impl<'t> Asking<'t> {
    pub fn new(trigger: &'t ReactionTrigger) -> Self {
        Self {
            trigger,
            answering: answering(trigger.kind()),
            target: trigger.target(),
        }
    }

    /// The reactions worth asking `r` about the trigger: those answering it that its sheet could
    /// give it under the fight's ruleset (its [`Repertoire`], read from the combatant itself),
    /// the target's own among them for the trigger's target alone.
    #[inline]
    fn askable(&self, combat: &Combat, r: &Combatant) -> ReactionSet {
        let held = r.repertoire.under(combat.ruleset) & (self.answering.anyone | self.answering.target);
        // Most are passed over here, having read nothing else of theirs.
        if held.is_empty() || self.target == Some(r.id) {
            held
        } else {
            held & self.answering.anyone
        }
    }

    /// Whether `r` has any reaction to the trigger now ([`options`] is not empty), without
    /// listing them. Nearly free for one whose sheet gives no reaction answering the trigger.
    #[inline]
    pub fn has_options(&self, combat: &Combat, r: &Combatant) -> bool {
        let askable = self.askable(combat, r);
        // Every model's `may_react` asks for a standing reactor first.
        let any = !askable.is_empty()
            && r.is_standing()
            && askable
                .iter()
                .any(|k| k.answers(combat, r, self.trigger) && crate::timing::may_react(combat, r.id, k));
        debug_assert_eq!(any, !options(combat, r.id, self.trigger).is_empty());
        any
    }
}

/// Which offered reaction an AI-controlled reactor takes: the best-ranked it wants.
pub fn ai_choice(
    combat: &Combat,
    reactor: CombatantId,
    trigger: &ReactionTrigger,
    options: &[ReactionKind],
) -> Option<ReactionKind> {
    let r = combat.get(reactor);
    options
        .iter()
        .copied()
        .filter(|k| k.reaction().ai_wants(combat, r, trigger))
        .min_by_key(|k| k.reaction().ai_rank())
}

/// Answers the open window: the reactor reacts or passes; the Director may pass on a timeout.
pub fn answer(ctx: &mut Ctx, actor: Actor, command: &Command) -> Result<(), RuleViolation> {
    let Some(window) = ctx.combat.window.clone() else {
        return Err(RuleViolation::NoReactionPending);
    };
    match actor {
        Actor::Combatant(id) if id != window.reactor => {
            ctx.combat.find(id)?;
            return Err(RuleViolation::NotYourReaction {
                reactor: ctx.combat.get(window.reactor).name.clone(),
            });
        }
        Actor::Director if command != &Command::Pass => {
            return Err(RuleViolation::NotYourReaction {
                reactor: ctx.combat.get(window.reactor).name.clone(),
            });
        }
        _ => {}
    }
    if let Command::React(kind) = command {
        if !window.options.contains(kind) {
            let offered: Vec<&str> = window.options.iter().map(|k| k.label()).collect();
            return Err(RuleViolation::ReactionNotOffered {
                offered: offered.join(", "),
            });
        }
        ctx.combat.window = None;
        let steps = take(ctx, window.reactor, *kind, window.trigger_for(*kind));
        ctx.push_front(steps);
    } else {
        ctx.combat.window = None;
        ctx.emit(Event::ReactionPassed {
            reactor: window.reactor,
        });
    }
    Ok(())
}

/// Reduces the next pending damage to `target` by `by` (Parry, Interception) or by a function.
pub(crate) fn reduce_pending(
    ctx: &mut Ctx,
    target: CombatantId,
    reactor: CombatantId,
    kind: ReactionKind,
    reduce: impl FnOnce(i32) -> i32,
) {
    if let Some((amount, remaining)) = cut_pending(ctx, target, reduce) {
        ctx.emit(Event::DamageReduced {
            target,
            by: reactor,
            reaction: kind,
            amount,
            remaining,
        });
    }
}

/// A hit by `attacker` on `target` turned into a miss: what it would have carried (its `Afflict`
/// steps) no longer lands (Shield, a stat block's raised AC).
pub(crate) fn drop_riders(ctx: &mut Ctx, attacker: CombatantId, target: CombatantId) {
    ctx.combat
        .queue
        .retain(|step| !matches!(step, Step::Afflict { source, target: t, .. } if *source == attacker && *t == target));
}

/// Cuts the next pending damage to `target` to `reduce` of it: how much it fell by and what is
/// left, if any damage was pending.
pub(crate) fn cut_pending(ctx: &mut Ctx, target: CombatantId, reduce: impl FnOnce(i32) -> i32) -> Option<(i32, i32)> {
    let p = ctx.combat.queue.iter_mut().find_map(|step| match step {
        Step::Damage(p) if p.target == target => Some(p),
        _ => None,
    })?;
    let before = p.amount;
    p.cut_to(reduce(before));
    Some((before - p.amount, p.amount))
}

/// Takes reaction `kind`: the timing model's cost first (on the tick timeline the reaction's own
/// cycle starts here), then its effect.
pub fn take(ctx: &mut Ctx, reactor: CombatantId, kind: ReactionKind, trigger: &ReactionTrigger) -> Vec<Step> {
    crate::timing::spend_reaction(ctx, reactor, kind, trigger);
    ctx.emit(Event::ReactionTaken {
        reactor,
        reaction: kind,
    });
    kind.reaction().take(ctx, reactor, trigger)
}

/// Whether a held action can be carried out against the trigger's creature now (if not, the
/// trigger passes it by and it stays held for a later one).
pub fn readied_feasible(combat: &Combat, reactor: &Combatant, action: HeldAction, observed: &Observed) -> bool {
    let trigger_by = observed.actor();
    let foe_in_reach = |target: Option<CombatantId>| {
        let target = target.unwrap_or(trigger_by);
        let t = combat.get(target);
        t.side != reactor.side && !t.is_dead() && combat.band(reactor.id, target) == Band::Melee
    };
    match action {
        HeldAction::Dodge => true,
        HeldAction::Dash | HeldAction::Disengage => {
            let intent = crate::readied::getaway(combat, reactor.id, action);
            reactor.speed() > 0 && crate::movement::plan(intent, &combat.bands_of(reactor.id), false).is_ok()
        }
        HeldAction::Help { ally } => crate::readied::helped_ally(combat, reactor, ally, observed).is_some(),
        HeldAction::Hide => crate::actions::hide_allowed(combat, reactor.id).is_ok(),
        HeldAction::Shove { target, .. } => foe_in_reach(target),
        HeldAction::Grapple { target } => {
            foe_in_reach(target) && combat.get(target.unwrap_or(trigger_by)).conditions.grappled_by != Some(reactor.id)
        }
        HeldAction::UseItem { item, target } => {
            let usable = reactor.items.get(&item).copied().unwrap_or(0) > 0
                && reactor
                    .item_def(item)
                    .is_some_and(|d| !matches!(d.effect, crate::content::data::ItemEffectDef::Scroll(_)));
            let to = target.unwrap_or(reactor.id);
            usable
                && (to == reactor.id || {
                    let t = combat.get(to);
                    t.side == reactor.side
                        && !t.is_dead()
                        && combat.band(reactor.id, to) == Band::Melee
                        && reactor
                            .item_def(item)
                            .is_some_and(crate::content::data::ItemDef::can_administer)
                })
        }
        HeldAction::Attack { target } => {
            let target = target.unwrap_or(trigger_by);
            let t = combat.get(target);
            t.side != reactor.side
                && !t.is_dead()
                && (combat.band(reactor.id, target) == Band::Melee || reactor.has_ranged_attack())
        }
        HeldAction::Cast { spell, .. } => reactor.spell(spell).is_some_and(|s| reactor.can_cast(s)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reaction_labels_round_trip() {
        for k in ReactionKind::ALL {
            assert_eq!(ReactionKind::parse(k.label()), Some(k));
        }
        assert_eq!(ReactionKind::parse("oa"), Some(ReactionKind::OpportunityAttack));
        assert_eq!(ReactionKind::parse("sneeze"), None);
    }

    #[test]
    fn trigger_kinds_index_their_own_place() {
        for (i, kind) in TriggerKind::ALL.into_iter().enumerate() {
            assert_eq!(kind as usize, i);
        }
    }

    #[test]
    fn reaction_kinds_and_rulesets_index_their_own_place() {
        for (i, kind) in ReactionKind::ALL.into_iter().enumerate() {
            assert_eq!(kind as usize, i);
        }
        for (i, ruleset) in Ruleset::ALL.into_iter().enumerate() {
            assert_eq!(ruleset as usize, i);
        }
        assert_eq!(ReactionSet::ALL.iter().collect::<Vec<_>>(), ReactionKind::ALL);
        assert!(ReactionSet::EMPTY.iter().next().is_none());
        let hit: ReactionSet = [ReactionKind::DivineIntervention, ReactionKind::Parry]
            .into_iter()
            .collect();
        assert_eq!(
            hit.iter().collect::<Vec<_>>(),
            [ReactionKind::Parry, ReactionKind::DivineIntervention],
            "the registry's order, whatever the order they were put in"
        );
    }

    /// Every built-in character (each class at every level, each race) and monster.
    fn everyone() -> Vec<Combatant> {
        use crate::content::{Class, Monster, Race};
        use crate::state::combatant::Controller;
        let mut all: Vec<Combatant> = Monster::all().into_iter().map(|m| Combatant::monster("M", m)).collect();
        for class in Class::all() {
            for level in 1..=20 {
                for race in Race::all() {
                    all.push(Combatant::character(
                        "C",
                        race,
                        class,
                        level,
                        Controller::Player("p".into()),
                    ));
                }
            }
        }
        all
    }

    #[test]
    fn a_repertoire_holds_every_reaction_its_combatant_is_granted_and_those_the_timing_model_gives() {
        for c in everyone() {
            for ruleset in Ruleset::ALL {
                let held = c.repertoire.under(ruleset);
                for kind in ReactionKind::ALL {
                    assert!(
                        !kind.reaction().grants(&c, ruleset) || held.contains(kind),
                        "{:?} {:?} is granted {kind:?} under {ruleset:?}, not in its repertoire",
                        c.class_name(),
                        c.character_def().map(|d| d.level),
                    );
                }
                for given in [ReactionKind::Readied, ReactionKind::Cancel, ReactionKind::Exploit] {
                    assert!(held.contains(given), "{given:?} is the timing model's, never left out");
                }
            }
        }
    }

    #[test]
    fn a_repertoire_leaves_out_what_the_sheet_never_gives() {
        use crate::content::{Class, Monster, Race};
        use crate::state::combatant::Controller;
        let goblin = Combatant::monster("Goblin", Monster::GOBLIN);
        let recruit = Combatant::character(
            "Recruit",
            Race::HUMAN,
            Class::FIGHTER,
            1,
            Controller::Player("r".into()),
        );
        let veteran = Combatant::character(
            "Veteran",
            Race::HUMAN,
            Class::FIGHTER,
            5,
            Controller::Player("v".into()),
        );
        let hit = answering(TriggerKind::Hit).anyone;
        for ruleset in [Ruleset::Gogobee, Ruleset::Ctb, Ruleset::Ticks] {
            assert!((goblin.repertoire.under(ruleset) & hit).is_empty());
            assert!((recruit.repertoire.under(ruleset) & hit).is_empty());
            assert!(
                !recruit.repertoire.under(ruleset).contains(ReactionKind::Parry),
                "Parry at 5"
            );
            assert!(veteran.repertoire.under(ruleset).contains(ReactionKind::Interception));
            assert!(veteran.repertoire.under(ruleset).contains(ReactionKind::Parry));
        }
        assert!(
            recruit.repertoire.under(Ruleset::Tdgs).contains(ReactionKind::Parry),
            "a TDGS Fighter parries from level 1"
        );
    }

    #[test]
    fn a_sheet_changed_mid_fight_changes_the_repertoire() {
        use crate::content::{Class, Monster, Race, Spell};
        use crate::state::combatant::Controller;
        use crate::state::sheet::Kind;
        let mut goblin = Combatant::monster("Goblin", Monster::GOBLIN);
        assert!(
            !goblin
                .repertoire
                .under(Ruleset::Gogobee)
                .contains(ReactionKind::Counterspell)
        );
        let mage = Combatant::character("Mage", Race::ELF, Class::MAGE, 5, Controller::Player("m".into()));
        let counterspell = mage
            .known_spell(Spell::COUNTERSPELL)
            .expect("a Mage 5 knows it")
            .clone();
        let mut def = (**Monster::GOBLIN.def()).clone();
        def.spells = vec![counterspell].into();
        goblin.sheet_mut().kind = Kind::Monster(std::sync::Arc::new(def));
        assert!(
            goblin
                .repertoire
                .under(Ruleset::Gogobee)
                .contains(ReactionKind::Counterspell)
        );
    }

    /// Whether two repertoires hold the same reactions under every ruleset.
    fn same(a: Repertoire, b: Repertoire) -> bool {
        a.covers(b) && b.covers(a)
    }

    #[test]
    fn a_fight_read_back_works_out_each_repertoire_again() {
        use crate::content::{Class, Monster, Race};
        use crate::state::combatant::Controller;
        let party = (1..=5).map(|level| {
            Combatant::character(
                &format!("F{level}"),
                Race::HUMAN,
                Class::FIGHTER,
                level,
                Controller::Player("f".into()),
            )
        });
        let goblins = (1..=3).map(|i| Combatant::monster(&format!("Goblin {i}"), Monster::GOBLIN));
        let combat = Combat::new(party.chain(goblins).collect(), crate::Terrain::default());
        let json = serde_json::to_string(&combat).unwrap();
        assert!(
            !json.contains("repertoire"),
            "not stored: a fight stored before it is the same"
        );
        let back: Combat = serde_json::from_str(&json).unwrap();
        for (loaded, built) in back.combatants.iter().zip(&combat.combatants) {
            assert!(same(loaded.repertoire, repertoire_of(&loaded.sheet)), "{}", loaded.name);
            assert!(same(loaded.repertoire, built.repertoire), "{}", loaded.name);
        }
        assert!(
            !back.combatants[0]
                .repertoire
                .under(Ruleset::Gogobee)
                .contains(ReactionKind::Interception)
        );
        assert!(
            back.combatants[2]
                .repertoire
                .under(Ruleset::Gogobee)
                .contains(ReactionKind::Interception)
        );
        let lone: Combatant = serde_json::from_value(serde_json::to_value(&combat.combatants[0]).unwrap()).unwrap();
        assert!(
            same(lone.repertoire, Repertoire::unknown()),
            "read on its own, it is asked everything until its sheet is known"
        );
    }

    #[test]
    fn a_hit_is_answered_by_its_target_s_four_reactions_and_two_anyone_may_take() {
        let hit = answering(TriggerKind::Hit);
        assert_eq!(
            hit.anyone.iter().collect::<Vec<_>>(),
            [ReactionKind::Interception, ReactionKind::DivineIntervention]
        );
        assert_eq!(
            hit.target.iter().collect::<Vec<_>>(),
            [
                ReactionKind::Parry,
                ReactionKind::UncannyDodge,
                ReactionKind::Shield,
                ReactionKind::StatBlock
            ]
        );
        assert_eq!(
            answering(TriggerKind::LeavesMelee).anyone.iter().collect::<Vec<_>>(),
            [ReactionKind::OpportunityAttack]
        );
        assert!(answering(TriggerKind::LeavesMelee).target.is_empty());
    }

    #[test]
    fn ai_ranks_are_distinct() {
        let mut ranks: Vec<u8> = ReactionKind::ALL.iter().map(|k| k.reaction().ai_rank()).collect();
        ranks.sort_unstable();
        ranks.dedup();
        assert_eq!(ranks.len(), ReactionKind::ALL.len());
    }
}
