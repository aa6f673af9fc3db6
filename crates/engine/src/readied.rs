//! The Ready action (seed 000 §5): `ready <action> when <trigger>`. Any of §2.1's actions that
//! make sense as a reaction can be held — attack, cast, dash, disengage, dodge, help, hide,
//! shove, grapple, use item — each firing with its real effect (`reactions::readied`). The
//! trigger text is parsed into a structured [`Trigger`]; a readied action fires as the readier's
//! reaction, and expires at the start of their next turn with the action and the reaction both
//! spent.

use crate::content::{Spell, normalize};
use crate::state::combatant::Combatant;
use crate::state::ids::CombatantId;
pub use crate::state::readied::{HeldAction, Observed, ReadiedAction, Trigger, Victim, Who};
use crate::state::violation::RuleViolation;

/// The forms of `ready` text the parser accepts.
pub const READY_FORMS: &str = "\"attack when the goblin moves into melee range\", \
\"attack when an enemy leaves melee\", \"cast magic missile when an enemy casts a spell\", \
\"dodge when the dragon uses breath weapon\", \"attack when the orc attacks an ally\", \
\"dodge when an enemy moves\", \"disengage when the ogre moves into melee\", \
\"dash when an enemy casts a spell\", \"help Bo when the goblin attacks Bo\", \
\"hide when the goblin moves away\", \"shove prone when the orc comes close\", \
\"grapple when the goblin moves into melee\", \"use potion of healing on Bo when the goblin attacks Bo\"";

impl HeldAction {
    pub fn describe(self) -> String {
        match self {
            HeldAction::Attack { .. } => "attack".into(),
            HeldAction::Cast { spell, .. } => format!("cast {}", spell.label()),
            HeldAction::Dodge => "dodge".into(),
            HeldAction::Dash => "dash".into(),
            HeldAction::Disengage => "disengage".into(),
            HeldAction::Help { .. } => "help".into(),
            HeldAction::Hide => "hide".into(),
            HeldAction::Shove {
                mode: crate::state::movement::ShoveMode::Prone,
                ..
            } => "shove prone".into(),
            HeldAction::Shove { .. } => "shove".into(),
            HeldAction::Grapple { .. } => "grapple".into(),
            HeldAction::UseItem { item, .. } => format!("use {}", item.label()),
        }
    }
}

impl Observed {
    /// The creature whose doing this is.
    pub fn actor(&self) -> CombatantId {
        match self {
            Observed::EntersMelee { mover, .. } | Observed::LeavesMelee { mover, .. } | Observed::Moves { mover } => {
                *mover
            }
            Observed::CastsSpell { caster, .. } => *caster,
            Observed::UsesAbility { user, .. } => *user,
            Observed::Attacks { attacker, .. } => *attacker,
        }
    }
}

/// Where a readied Dash or Disengage takes the readier: out of every reach (a Disengage in
/// melee), or one band farther from every enemy.
pub fn getaway(
    combat: &crate::state::combat::Combat,
    readier: CombatantId,
    action: HeldAction,
) -> crate::state::movement::MoveIntent {
    let in_melee = combat
        .bands_of(readier)
        .iter()
        .any(|(_, b)| *b == crate::state::movement::Band::Melee);
    if action == HeldAction::Disengage && in_melee {
        crate::state::movement::MoveIntent::Ranged
    } else {
        crate::state::movement::MoveIntent::Away
    }
}

/// The ally a readied Help helps: the one named, or the one the trigger's attack is aimed at;
/// standing, on the readier's side, not the readier.
pub fn helped_ally(
    combat: &crate::state::combat::Combat,
    readier: &Combatant,
    named: Option<CombatantId>,
    observed: &Observed,
) -> Option<CombatantId> {
    let ally = named.or(match observed {
        Observed::Attacks { target, .. } => Some(*target),
        _ => None,
    })?;
    let a = combat.get(ally);
    (a.id != readier.id && a.side == readier.side && a.is_standing()).then_some(ally)
}

/// Whether `words` (normalised) name `c`: part of its name, or of its kind ("the dragon" is the
/// Red Dragon Wyrmling the GM called Ember; "the goblin" is Snagtooth the goblin).
fn answers_to(c: &Combatant, words: &str) -> bool {
    normalize(&c.name).contains(words) || c.monster_name().is_some_and(|m| normalize(m).contains(words))
}

impl Who {
    fn matches(&self, actor: &Combatant, readier: &Combatant) -> bool {
        if actor.side == readier.side {
            return false;
        }
        match self {
            Who::AnyEnemy => true,
            Who::Named(id) => actor.id == *id,
            Who::Kind(words) => answers_to(actor, words),
        }
    }
}

impl Trigger {
    /// Whether `observed`, done by `actor`, sets off this trigger readied by `readier`.
    pub fn matches(
        &self,
        observed: &Observed,
        actor: &Combatant,
        readier: &Combatant,
        victim: Option<&Combatant>,
    ) -> bool {
        match (self, observed) {
            (Trigger::EntersMelee(who), Observed::EntersMelee { with, .. }) => {
                *with == readier.id && who.matches(actor, readier)
            }
            (Trigger::LeavesMelee(who), Observed::LeavesMelee { from, .. }) => {
                *from == readier.id && who.matches(actor, readier)
            }
            (Trigger::Moves(who), Observed::Moves { .. }) => who.matches(actor, readier),
            (Trigger::CastsSpell(who, wanted), Observed::CastsSpell { spell, .. }) => {
                who.matches(actor, readier) && wanted.is_none_or(|w| w == *spell)
            }
            (Trigger::UsesAbility(who, wanted), Observed::UsesAbility { ability, .. }) => {
                who.matches(actor, readier) && normalize(ability) == *wanted
            }
            (Trigger::Attacks(who, whom), Observed::Attacks { target, .. }) => {
                who.matches(actor, readier)
                    && match whom {
                        Victim::Anyone => true,
                        Victim::Me => *target == readier.id,
                        Victim::AnyAlly => victim.is_some_and(|v| v.side == readier.side && v.id != readier.id),
                        Victim::Named(id) => target == id,
                    }
            }
            _ => false,
        }
    }
}

fn unparsable(reason: impl Into<String>) -> RuleViolation {
    RuleViolation::UnparsableReady {
        reason: reason.into(),
        forms: READY_FORMS.to_owned(),
    }
}

/// Strips leading articles and possessives: "the goblin" → "goblin".
fn strip_article(text: &str) -> &str {
    let text = text.trim();
    for article in [
        "the ", "a ", "an ", "my ", "any ", "that ", "this ", "its ", "his ", "her ", "their ", "your ",
    ] {
        if let Some(rest) = text.strip_prefix(article) {
            return rest.trim();
        }
    }
    text
}

/// Resolves a creature reference among `others` (everyone but the readier).
fn parse_who(text: &str, readier: &Combatant, others: &[&Combatant]) -> Result<Who, RuleViolation> {
    let raw = text.trim();
    if raw.is_empty() {
        return Err(unparsable("the trigger names no creature"));
    }
    let bare = strip_article(raw);
    if matches!(bare, "enemy" | "foe" | "monster" | "creature" | "one" | "body")
        || matches!(raw, "someone" | "anyone" | "anybody" | "somebody")
    {
        return Ok(Who::AnyEnemy);
    }
    let wanted = normalize(bare);
    if let Some(exact) = others.iter().find(|c| normalize(&c.name) == wanted) {
        if exact.side == readier.side {
            return Err(unparsable(format!("{} is on your side", exact.name)));
        }
        return Ok(Who::Named(exact.id));
    }
    let stem = wanted.trim_end_matches('s');
    if !stem.is_empty() && others.iter().any(|c| c.side != readier.side && answers_to(c, stem)) {
        return Ok(Who::Kind(stem.to_owned()));
    }
    Err(unparsable(format!("there's no enemy called \"{bare}\" here")))
}

fn parse_victim(text: &str, readier: &Combatant, others: &[&Combatant]) -> Result<Victim, RuleViolation> {
    let bare = strip_article(text);
    match bare {
        "" | "anyone" | "someone" => Ok(Victim::Anyone),
        "me" | "myself" | "you" => Ok(Victim::Me),
        "ally" | "friend" | "companion" | "party member" => Ok(Victim::AnyAlly),
        _ => {
            let wanted = normalize(bare);
            others
                .iter()
                .find(|c| normalize(&c.name) == wanted && c.side == readier.side)
                .map(|c| Victim::Named(c.id))
                .ok_or_else(|| unparsable(format!("there's no ally called \"{bare}\" here")))
        }
    }
}

/// Finds `verb` as a whole word in `text`; returns (before, after).
fn split_on<'t>(text: &'t str, verbs: &[&str]) -> Option<(&'t str, &'t str)> {
    verbs.iter().find_map(|verb| {
        let needle = format!(" {verb}");
        text.find(&needle).and_then(|at| {
            let after = &text[at + needle.len()..];
            (after.is_empty() || after.starts_with(' ')).then(|| (&text[..at], after.trim()))
        })
    })
}

/// Parses the trigger half of a `ready` command.
pub fn parse_trigger(text: &str, readier: &Combatant, others: &[&Combatant]) -> Result<Trigger, RuleViolation> {
    let text = text.trim().trim_end_matches(['.', '!']).to_lowercase();
    let text = text.as_str();
    if let Some((who, rest)) = split_on(
        text,
        &[
            "moves",
            "move",
            "comes",
            "come",
            "steps",
            "step",
            "enters",
            "enter",
            "closes",
            "close",
            "approaches",
            "approach",
            "charges",
            "charge",
        ],
    ) {
        let who = parse_who(who, readier, others)?;
        let rest = rest.trim_start_matches("in ").trim();
        let entering = [
            "into melee",
            "into range",
            "into reach",
            "melee",
            "within reach",
            "within range",
            "close",
            "in",
            "near",
            "adjacent",
        ];
        let leaving = ["away", "out of melee", "out of reach", "out of range", "off"];
        let entering_verb = [" enter", " approach", " charge", " close"];
        if entering_verb.iter().any(|v| text.contains(v)) && !text.contains(" close to") {
            return Ok(Trigger::EntersMelee(who));
        }
        if rest.is_empty() {
            return Ok(Trigger::Moves(who));
        }
        if leaving.iter().any(|p| rest.starts_with(p)) {
            return Ok(Trigger::LeavesMelee(who));
        }
        if entering.iter().any(|p| rest.starts_with(p)) || rest.starts_with("toward") || rest.starts_with("to me") {
            return Ok(Trigger::EntersMelee(who));
        }
        return Ok(Trigger::Moves(who));
    }
    if let Some((who, _)) = split_on(
        text,
        &[
            "leaves",
            "leave",
            "retreats",
            "retreat",
            "flees",
            "flee",
            "withdraws",
            "withdraw",
            "backs",
            "back",
        ],
    ) {
        return Ok(Trigger::LeavesMelee(parse_who(who, readier, others)?));
    }
    if let Some((who, rest)) = split_on(text, &["casts", "cast"]) {
        let who = parse_who(who, readier, others)?;
        let named = strip_article(rest);
        let spell = match named {
            "" | "spell" | "a spell" | "magic" => None,
            other => Some(
                Spell::named(other)
                    .filter(|&s| s.builtin().is_some() || others.iter().chain([&readier]).any(|c| c.spell(s).is_some()))
                    .ok_or_else(|| unparsable(format!("\"{other}\" is not a spell I know")))?,
            ),
        };
        return Ok(Trigger::CastsSpell(who, spell));
    }
    if let Some((who, rest)) = split_on(text, &["uses", "use", "breathes", "breathe"]) {
        let who = parse_who(who, readier, others)?;
        let ability = if text.contains(" breathe") {
            "breathweapon".to_owned()
        } else {
            normalize(strip_article(rest))
        };
        if ability.is_empty() {
            return Err(unparsable("name the ability, e.g. \"uses breath weapon\""));
        }
        let ability = if ability.starts_with("breath") {
            "breathweapon".to_owned()
        } else {
            ability
        };
        return Ok(Trigger::UsesAbility(who, ability));
    }
    if let Some((who, rest)) = split_on(text, &["attacks", "attack", "hits", "hit", "strikes", "strike"]) {
        let who = parse_who(who, readier, others)?;
        return Ok(Trigger::Attacks(who, parse_victim(rest, readier, others)?));
    }
    Err(unparsable(format!("I don't recognise the trigger \"{text}\"")))
}

/// Parses the held action: `attack [target]`, `cast <spell> [at target]`, `dodge`, `dash`,
/// `disengage`, `help [ally]`, `hide`, `shove [prone|away] [target]`, `grapple [target]`,
/// `use <item> [on ally]`.
pub fn parse_action(text: &str, readier: &Combatant, others: &[&Combatant]) -> Result<HeldAction, RuleViolation> {
    let text = text.trim().to_lowercase();
    let (verb, rest) = text.split_once(' ').unwrap_or((text.as_str(), ""));
    let target_of = |name: &str| -> Result<Option<CombatantId>, RuleViolation> {
        let name = strip_article(
            name.trim()
                .trim_start_matches("at ")
                .trim_start_matches("on ")
                .trim_start_matches("to "),
        );
        if name.is_empty() {
            return Ok(None);
        }
        let wanted = normalize(name);
        others
            .iter()
            .find(|c| normalize(&c.name) == wanted)
            .map(|c| Some(c.id))
            .ok_or_else(|| unparsable(format!("there's no one called \"{name}\" here")))
    };
    match verb {
        "attack" | "strike" | "shoot" | "hit" => Ok(HeldAction::Attack {
            target: target_of(rest)?,
        }),
        "dodge" => Ok(HeldAction::Dodge),
        "dash" | "run" | "flee" => Ok(HeldAction::Dash),
        "disengage" | "withdraw" => Ok(HeldAction::Disengage),
        "help" | "aid" | "assist" => Ok(HeldAction::Help { ally: target_of(rest)? }),
        "hide" => Ok(HeldAction::Hide),
        "shove" | "push" | "trip" => {
            let rest = rest.trim();
            let (mode, rest) = if verb == "trip" {
                (crate::state::movement::ShoveMode::Prone, rest)
            } else if let Some(r) = rest.strip_prefix("prone") {
                (crate::state::movement::ShoveMode::Prone, r)
            } else if let Some(r) = rest.strip_prefix("away").or_else(|| rest.strip_prefix("back")) {
                (crate::state::movement::ShoveMode::Push, r)
            } else {
                (crate::state::movement::ShoveMode::Push, rest)
            };
            Ok(HeldAction::Shove {
                target: target_of(rest)?,
                mode,
            })
        }
        "grapple" | "grab" => Ok(HeldAction::Grapple {
            target: target_of(rest)?,
        }),
        "use" | "drink" | "give" => {
            let (item_text, target_text) = rest
                .split_once(" on ")
                .or_else(|| rest.split_once(" to "))
                .unwrap_or((rest, ""));
            let wanted = crate::content::Item::named(item_text);
            let carried = readier
                .sheet
                .items
                .iter()
                .find(|d| wanted.is_some_and(|w| w.names(&d.name) || d.aliases.iter().any(|a| w.names(a))));
            let item = carried
                .and_then(|d| crate::content::Item::named(&d.name))
                .or_else(|| crate::content::data::builtin().item_id(item_text))
                .ok_or_else(|| unparsable(format!("\"{}\" is not an item I know", item_text.trim())))?;
            Ok(HeldAction::UseItem {
                item,
                target: target_of(target_text)?,
            })
        }
        "cast" => {
            let (spell_text, target_text) = rest.split_once(" at ").unwrap_or((rest, ""));
            let spell = Spell::named(spell_text)
                .filter(|&s| s.builtin().is_some() || readier.spell(s).is_some())
                .ok_or_else(|| unparsable(format!("\"{}\" is not a spell I know", spell_text.trim())))?;
            if !readier.knows(spell) {
                let known: Vec<&str> = readier.known_spells().iter().map(|s| &*s.name).collect();
                return Err(RuleViolation::SpellNotKnown {
                    spell: spell.label(),
                    known: known.join(", "),
                });
            }
            Ok(HeldAction::Cast {
                spell,
                target: target_of(target_text)?,
            })
        }
        "" => Err(unparsable("say which action to hold")),
        other => Err(unparsable(format!(
            "\"{other}\" can't be readied (attack, cast, dash, disengage, dodge, help, hide, shove, grapple or use an item)"
        ))),
    }
}

/// Parses `<action> when <trigger>`.
pub fn parse(
    text: &str,
    readier: &Combatant,
    others: &[&Combatant],
) -> Result<(HeldAction, Trigger, String), RuleViolation> {
    let lower = text.to_lowercase();
    let Some(at) = lower.find(" when ").or_else(|| lower.find(" if ")) else {
        return Err(unparsable("write it as \"<action> when <trigger>\""));
    };
    let keyword_len = if lower[at..].starts_with(" when ") { 6 } else { 4 };
    let action = parse_action(&text[..at], readier, others)?;
    let trigger_text = text[at + keyword_len..].trim();
    let trigger = parse_trigger(trigger_text, readier, others)?;
    Ok((action, trigger, trigger_text.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{Class, Monster, Race};
    use crate::state::combatant::Controller;

    fn cast() -> Vec<Combatant> {
        let mut aria = Combatant::character("Aria", Race::ELF, Class::MAGE, 5, Controller::Player("a".into()));
        aria.id = CombatantId(0);
        let mut bo = Combatant::character("Bo", Race::HUMAN, Class::FIGHTER, 3, Controller::Player("b".into()));
        bo.id = CombatantId(1);
        let mut g1 = Combatant::monster("Goblin 1", Monster::GOBLIN);
        g1.id = CombatantId(2);
        let mut g2 = Combatant::monster("Goblin 2", Monster::GOBLIN);
        g2.id = CombatantId(3);
        let mut dragon = Combatant::monster("Young Red Dragon", Monster::YOUNG_RED_DRAGON);
        dragon.id = CombatantId(4);
        vec![aria, bo, g1, g2, dragon]
    }

    fn parse_as_aria(text: &str) -> Result<(HeldAction, Trigger, String), RuleViolation> {
        let all = cast();
        let others: Vec<&Combatant> = all[1..].iter().collect();
        parse(text, &all[0], &others)
    }

    #[test]
    fn the_seed_examples_parse() {
        let (a, t, _) = parse_as_aria("attack when the goblin moves into melee range").unwrap();
        assert_eq!(a, HeldAction::Attack { target: None });
        assert_eq!(t, Trigger::EntersMelee(Who::Kind("goblin".into())));
        let (a, t, _) = parse_as_aria("cast magic missile when an enemy casts a spell").unwrap();
        assert_eq!(
            a,
            HeldAction::Cast {
                spell: Spell::MAGIC_MISSILE,
                target: None
            }
        );
        assert_eq!(t, Trigger::CastsSpell(Who::AnyEnemy, None));
        let (a, t, _) = parse_as_aria("dodge when the dragon uses breath weapon").unwrap();
        assert_eq!(a, HeldAction::Dodge);
        assert_eq!(
            t,
            Trigger::UsesAbility(Who::Kind("dragon".into()), "breathweapon".into())
        );
    }

    #[test]
    fn more_trigger_forms_parse() {
        assert_eq!(
            parse_as_aria("attack when Goblin 2 leaves melee").unwrap().1,
            Trigger::LeavesMelee(Who::Named(CombatantId(3)))
        );
        assert_eq!(
            parse_as_aria("attack when the goblin attacks an ally").unwrap().1,
            Trigger::Attacks(Who::Kind("goblin".into()), Victim::AnyAlly)
        );
        assert_eq!(
            parse_as_aria("attack when a goblin attacks Bo").unwrap().1,
            Trigger::Attacks(Who::Kind("goblin".into()), Victim::Named(CombatantId(1)))
        );
        assert_eq!(
            parse_as_aria("dodge when an enemy moves").unwrap().1,
            Trigger::Moves(Who::AnyEnemy)
        );
        assert_eq!(
            parse_as_aria("attack when the goblins move away").unwrap().1,
            Trigger::LeavesMelee(Who::Kind("goblin".into()))
        );
        assert_eq!(
            parse_as_aria("attack Goblin 1 when goblin 1 enters melee").unwrap().0,
            HeldAction::Attack {
                target: Some(CombatantId(2))
            }
        );
    }

    #[test]
    fn unparsable_text_is_refused_listing_the_forms() {
        for bad in [
            "attack",
            "attack when the moon rises",
            "attack when the troll moves",
            "sing when an enemy moves",
            "cast wish when an enemy moves",
            "attack when Bo moves",
        ] {
            let err = parse_as_aria(bad).unwrap_err();
            match err {
                RuleViolation::UnparsableReady { forms, .. } => {
                    assert_eq!(forms, READY_FORMS, "{bad}");
                }
                other => panic!("{bad}: {other:?}"),
            }
        }
    }

    #[test]
    fn readying_an_unknown_spell_is_refused() {
        let err = parse_as_aria("cast healing word when an enemy moves").unwrap_err();
        assert!(matches!(err, RuleViolation::SpellNotKnown { .. }));
    }

    #[test]
    fn uses_its_breath_weapon_is_the_breath_weapon() {
        let (_, trigger, _) = parse_as_aria("dodge when the dragon uses its breath weapon").unwrap();
        assert_eq!(
            trigger,
            Trigger::UsesAbility(Who::Kind("dragon".into()), "breathweapon".into())
        );
    }

    #[test]
    fn the_dragon_names_a_wyrmling_the_gm_called_something_else() {
        let all = cast();
        let mut ember = Combatant::monster("Ember", Monster::RED_DRAGON_WYRMLING);
        ember.id = CombatantId(5);
        let others: Vec<&Combatant> = all[1..].iter().chain([&ember]).collect();
        let (_, trigger, _) = parse("dodge when the dragon uses breath weapon", &all[0], &others).unwrap();
        let observed = Observed::UsesAbility {
            user: ember.id,
            ability: "breath weapon".into(),
        };
        assert!(trigger.matches(&observed, &ember, &all[0], None));
    }

    #[test]
    fn triggers_match_only_the_right_creature_and_event() {
        let all = cast();
        let aria = &all[0];
        let g1 = &all[2];
        let dragon = &all[4];
        let t = Trigger::EntersMelee(Who::Kind("goblin".into()));
        assert!(t.matches(
            &Observed::EntersMelee {
                mover: g1.id,
                with: aria.id
            },
            g1,
            aria,
            None
        ));
        assert!(!t.matches(
            &Observed::EntersMelee {
                mover: g1.id,
                with: all[1].id
            },
            g1,
            aria,
            None
        ));
        assert!(!t.matches(
            &Observed::EntersMelee {
                mover: dragon.id,
                with: aria.id
            },
            dragon,
            aria,
            None
        ));
        assert!(!t.matches(&Observed::Moves { mover: g1.id }, g1, aria, None));
    }
}
