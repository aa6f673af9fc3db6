//! Every event told once (STYLE 11, DESIGN "Narration files"): one function per family of events
//! says what an event comes to — the referee's plain line, and the narrator's lines as the
//! flavor key each one picks and the values it fills in. The referee's log (scenario snapshots,
//! simulations, `gogobee replay`) is the plain form; the renderer turns the same [`Said`] lines
//! into TwinBee's words from `flavor/`. The words are data; which line and which facts are here.

mod abilities;
mod actions;
mod attacks;
mod damage;
mod death;
mod healing;
mod joins;
mod models;
mod movement;
mod reactions;
mod spells;
mod statuses;
mod turns;

use crate::combat::Combat;
use crate::combatant::CombatantId;
use crate::dice::{D20, RollMode};
use crate::event::Event;
use crate::reactions::ReactionKind;
use crate::readied::Observed;

/// One event told: the referee's line and what the narrator says (nothing, for an event the
/// table need not hear about, such as a turn's end).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Told {
    /// The referee's plain line.
    pub plain: String,
    /// The narrator's lines, in order.
    pub said: Vec<Said>,
}

/// One narrated line: the flavor key it picks, the values its placeholders take, and the dice
/// shown after it (`18 vs AC 14, nat 20`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    pub say: Say,
    pub slots: Vec<(&'static str, Vec<Piece>)>,
    pub check: Option<String>,
}

/// A piece of a placeholder's value. The plain form writes each as it is; the narration shows
/// a combatant as their name in bold and escapes the markdown of content's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// A combatant, by name.
    Who(CombatantId),
    /// A number.
    Num(String),
    /// Text from content or a player (a weapon, a status, an action described).
    Text(String),
    /// Our own words ("this round", "STR").
    Word(String),
}

/// A combatant's name in a slot.
pub fn who(id: CombatantId) -> Vec<Piece> {
    vec![Piece::Who(id)]
}

/// A number in a slot.
pub fn num(n: impl std::fmt::Display) -> Vec<Piece> {
    vec![Piece::Num(n.to_string())]
}

/// Content's or a player's text in a slot.
pub fn text(s: impl AsRef<str>) -> Vec<Piece> {
    vec![Piece::Text(s.as_ref().to_owned())]
}

/// Our own words in a slot.
pub fn word(s: impl AsRef<str>) -> Vec<Piece> {
    vec![Piece::Word(s.as_ref().to_owned())]
}

impl Told {
    /// The referee's line; the narrator says nothing until [`Told::say`].
    fn plain(plain: String) -> Self {
        Told {
            plain,
            said: Vec::new(),
        }
    }

    /// Adds a narrated line.
    fn say<const N: usize>(mut self, say: Say, slots: [(&'static str, Vec<Piece>); N]) -> Self {
        self.said.push(Said {
            say,
            slots: slots.into(),
            check: None,
        });
        self
    }

    /// The dice shown after the last narrated line.
    fn check(mut self, check: String) -> Self {
        if let Some(last) = self.said.last_mut() {
            last.check = Some(check);
        }
        self
    }
}

macro_rules! says {
    ($( $(#[doc = $doc:literal])* $say:ident => [$($ph:literal),* $(,)?] ),* $(,)?) => {
        /// Which narration line an event picks: the flavor key of that name, and the
        /// placeholders its lines may use.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Say {
            $( $(#[doc = $doc])* $say, )*
            /// Taking a reaction: `React<Name>`, for every narrated reaction of the registry
            /// (`{name}` is the reactor).
            Reaction(ReactionKind),
        }

        impl Say {
            /// Every line an event may pick.
            pub fn all() -> Vec<Say> {
                let mut all = vec![$(Say::$say,)*];
                all.extend(
                    ReactionKind::ALL
                        .into_iter()
                        .filter(|k| k.reaction().narrated())
                        .map(Say::Reaction),
                );
                all
            }

            /// The key as written in the flavor files.
            pub fn name(self) -> &'static str {
                match self {
                    $( Say::$say => stringify!($say), )*
                    Say::Reaction(kind) => kind.flavor_key(),
                }
            }

            /// The placeholders the key's lines may use.
            pub fn placeholders(self) -> &'static [&'static str] {
                match self {
                    $( Say::$say => &[$($ph),*], )*
                    Say::Reaction(_) => &["name"],
                }
            }
        }
    };
}

says! {
    /// Initiative order, as a list of names and totals.
    InitiativeRolled => ["order"],
    RoundStarted => ["round"],
    TurnStarted => ["name", "round"],
    MoveIntoMelee => ["name", "target", "feet"],
    /// §3.3: each move narrated by what it came to (`crate::movement::MoveOutcome`).
    MoveOutOfReach => ["name", "target", "feet"],
    MoveCloser => ["name", "target", "feet"],
    MoveFellBack => ["name", "target", "feet"],
    MoveShiftInMelee => ["name", "target", "feet"],
    MoveShift => ["name", "feet"],
    /// A move made crawling while prone (§3.2), after the move's own line.
    MoveCrawled => ["name"],
    /// `escape` (§3.2): broke free, or still held (the check is shown after the line).
    EscapeFreed => ["name"],
    EscapeHeld => ["name"],
    /// Appended to a move through Difficult Terrain (§3.4).
    MoveDifficultTerrain => ["name", "feet"],
    /// Closing on someone too far to reach this turn (the feet carry over).
    Closing => ["name", "target", "feet", "remaining"],
    MoveAborted => ["name"],
    StoodUp => ["name", "feet"],
    Teleported => ["name"],
    Dashed => ["name", "feet"],
    Disengaged => ["name"],
    Dodging => ["name"],
    Helped => ["name", "ally"],
    HideSuccess => ["name"],
    HideFailure => ["name"],
    Revealed => ["name"],
    SearchFound => ["name", "found"],
    SearchNothing => ["name"],
    /// One swing of a sequence (§6: each hit and miss narrated).
    AttackHit => ["name", "target", "weapon", "swing", "of"],
    AttackMiss => ["name", "target", "weapon", "swing", "of"],
    /// A miss by 1 or 2 (not a natural 1).
    AttackMissClose => ["name", "target", "weapon", "swing", "of"],
    AttackCritical => ["name", "target", "weapon", "swing", "of"],
    SwingLost => ["name"],
    SneakAttack => ["name", "dice"],
    Damage => ["target", "damage", "damage_type", "hp"],
    Resisted => ["name", "amount"],
    /// A stat block's resistance, immunity or vulnerability (SRD 5.1) to a part of the damage.
    DefendedResistance => ["name", "amount", "damage_type"],
    DefendedImmunity => ["name", "amount", "damage_type"],
    DefendedVulnerability => ["name", "amount", "damage_type"],
    /// Undead Fortitude: the creature stays up at 1 HP.
    UndeadFortitude => ["name"],
    /// A helpless creature fails a STR or DEX save outright.
    SaveFailedHelpless => ["name", "ability", "dc"],
    /// Legendary Resistance turns a failed save into a success.
    LegendaryResistance => ["name", "left"],
    /// A creature starts its turn in an enemy's aura.
    Aura => ["name", "holder", "aura"],
    ConcentrationEnded => ["name", "spell"],
    /// Regeneration stopped this turn (fire or acid, most often).
    RegenerationStopped => ["name"],
    /// A legendary action at the end of another creature's turn.
    LegendaryAction => ["name", "action", "left"],
    /// A condition that does not take hold: the creature is immune to it.
    ConditionImmune => ["name", "condition"],
    /// Public line while a player's reaction window is open.
    ReactionOffered => ["name"],
    ReactionPassed => ["name"],
    DamageReduced => ["name", "target", "reaction", "amount", "damage"],
    /// Temporary hit points given (`{temp}`: what the target now has).
    TempHpGained => ["name", "target", "amount", "temp"],
    /// Temporary hit points given, fewer than the target already had.
    TempHpKept => ["name", "target", "amount", "temp"],
    /// A hit taken on temporary hit points (`{temp}`: those left).
    TempHpAbsorbed => ["name", "amount", "temp"],
    /// A stat block's reaction turned a hit into a miss.
    StatBlockReactionMiss => ["name", "attacker", "reaction"],
    /// A stat block's reaction cut a hit's damage.
    StatBlockReactionReduce => ["name", "reaction", "amount", "damage"],
    SpellCountered => ["name", "caster", "spell"],
    CounterspellFailed => ["name", "caster"],
    /// TDGS mutual destruction: both would stop the other; the faster goes first.
    MutualDestruction => ["first", "second"],
    /// TDGS Parry: the declared attack is turned aside before it is rolled.
    Deflected => ["name", "attacker"],
    /// TDGS Parry: the roll falls short and the attack goes on.
    ParryFailed => ["name", "attacker"],
    ReadiedActionSet => ["name", "action", "trigger"],
    /// Set off by a move (the seed's "The goblin moves. Your readied attack fires.").
    ReadiedActionTriggered => ["name", "mover", "action"],
    /// Set off by a spell, an ability or an attack: `did` says which.
    ReadiedActionTriggeredBy => ["name", "mover", "action", "did"],
    ReadiedActionExpired => ["name", "action"],
    SpellCast => ["name", "spell", "target"],
    SpellCastUntargeted => ["name", "spell"],
    SaveSuccess => ["name", "ability"],
    SaveFailure => ["name", "ability"],
    AbilityUsed => ["name", "ability"],
    BreathRecharged => ["name"],
    /// An area ability other than a breath weapon is ready again.
    AbilityRecharged => ["name", "ability"],
    Healed => ["name", "target", "amount", "hp"],
    HealedSelf => ["name", "amount", "hp"],
    ItemUsed => ["name", "item", "target"],
    ItemUsedSelf => ["name", "item"],
    /// A net (a `restrain` item) thrown at an enemy.
    ItemThrown => ["name", "item", "target"],
    CunningStrikeReady => ["name", "rider"],
    ContestWon => ["name", "target"],
    ContestLost => ["name", "target"],
    Grappled => ["name", "target"],
    ShovedProne => ["name", "target"],
    ShovedAway => ["name", "target"],
    ConditionApplied => ["name", "condition"],
    ConditionEnded => ["name", "condition"],
    Downed => ["name"],
    /// Knocked out in an arena duel (no death saves follow).
    DownedInDuel => ["name"],
    /// §7.3, narrated with gravity.
    DamageWhileDowned => ["name", "failures"],
    DamageWhileDownedCritical => ["name", "failures"],
    DeathSaveSuccess => ["name", "roll", "successes", "failures"],
    DeathSaveFailure => ["name", "roll", "successes", "failures"],
    DeathSaveCriticalSuccess => ["name", "roll", "successes", "failures"],
    DeathSaveCriticalFailure => ["name", "roll", "successes", "failures"],
    Stabilised => ["name", "turns"],
    /// A Medicine check (§7.2) succeeded.
    StabiliseSuccess => ["name", "target"],
    StabiliseFailure => ["name", "target"],
    Woke => ["name"],
    Revived => ["name", "hp"],
    /// Healed awake by a potion or a spell, still prone.
    RevivedProne => ["name", "hp"],
    MonsterSlain => ["name", "killer"],
    MonsterSlainUnattributed => ["name"],
    /// CTB: the charge race stopped; `name` acts.
    ChargeRace => ["name", "ticks"],
    /// CTB: the turn's AP.
    ActionPoints => ["name", "ap"],
    ActionPointsSpent => ["name", "cost", "ap"],
    CooldownStarted => ["name", "ability", "turns"],
    /// CTB: a hit's status takes hold (seed 003 §1.C), for `turns` turns.
    StatusApplied => ["name", "status", "turns"],
    /// CTB: an innate status for good (a Troll's Regeneration).
    StatusAppliedPermanent => ["name", "status"],
    StatusDamage => ["name", "status", "amount"],
    StatusHeal => ["name", "status", "amount"],
    StatusHolds => ["name", "status"],
    StatusExpired => ["name", "status"],
    Stunned => ["name"],
    /// TDGS: the fixed order, REF → LUK → d2.
    InitiativeFixed => ["order"],
    /// TDGS: the same, when d2 flips broke ties (each flip shown).
    InitiativeFixedFlipped => ["order"],
    /// TDGS: an Instant held for a round's Instant phase.
    InstantDeclared => ["name", "instant", "round"],
    InstantResolved => ["name", "instant"],
    /// Someone joins a fight not yet begun.
    Joined => ["name"],
    /// Someone joins a fight in progress: GogoBee and ticks roll initiative.
    JoinedInitiative => ["name", "initiative"],
    /// TDGS: into the REF → LUK order; `when` is "this round" or "next round".
    JoinedOrder => ["name", "when"],
    /// TDGS: the same, a tie broken by d2 flips.
    JoinedOrderFlipped => ["name", "when", "flips"],
    /// CTB: into the charge race with an empty meter.
    JoinedCharge => ["name"],
    Delayed => ["name", "target"],
    DelayedToEnd => ["name"],
    /// Ticks: an action enters prep, exec or recover.
    PhaseStarted => ["name", "action", "phase", "ticks"],
    WindupBroken => ["name", "action", "by"],
    ActionDropped => ["name", "action"],
    ActionFizzled => ["name", "reason"],
    /// Ticks: the timeline waits for this player's choice.
    AwaitingCommand => ["name"],
    /// §8.6: with complete respect.
    PlayerDeath => ["name"],
    Victory => ["xp"],
    Defeat => [],
    Halted => [],
    GmHpRaised => ["name", "amount", "hp"],
    GmHpLowered => ["name", "amount", "hp"],
    /// A duel's last line: `name` is still standing, `rival` at 0 HP (no one dies).
    DuelWon => ["name", "rival"],
}

/// A combatant's name, `?` for an id the fight does not have.
pub fn name(c: &Combat, id: CombatantId) -> &str {
    c.combatants.get(id.0 as usize).map_or("?", |x| x.name.as_str())
}

/// A spell as its caster's copy names it (a server's own spell has no built-in name).
fn spell_name(c: &Combat, caster: CombatantId, spell: crate::content::Spell) -> String {
    c.combatants
        .get(caster.0 as usize)
        .map_or_else(|| spell.label(), |x| x.spell_name(spell))
}

/// An item as its user's copy names it.
fn item_name(c: &Combat, id: CombatantId, item: crate::content::Item) -> String {
    c.combatants
        .get(id.0 as usize)
        .map_or_else(|| item.label(), |x| x.item_name(item))
}

/// The plain form of a d20: `d20 15 (adv, other 3)`.
fn d20(roll: &D20) -> String {
    match (roll.mode, roll.other) {
        (RollMode::Advantage, Some(o)) => format!("d20 {} (adv, other {o})", roll.natural),
        (RollMode::Disadvantage, Some(o)) => format!("d20 {} (dis, other {o})", roll.natural),
        _ => format!("d20 {}", roll.natural),
    }
}

/// A d20 roll as players read it, the same in the log and after a narrated line: the dice, the
/// modifiers, the total — `1d20 (14) + 5 = 19`; with advantage both dice, the higher kept
/// (`2d20kh1 (14, 7) + 5 = 19`).
fn d20_shown(roll: &D20, total: i32) -> String {
    let dice = match (roll.mode, roll.other) {
        (RollMode::Advantage, Some(other)) => format!("2d20kh1 ({}, {other})", roll.natural),
        (RollMode::Disadvantage, Some(other)) => format!("2d20kl1 ({}, {other})", roll.natural),
        _ => format!("1d20 ({})", roll.natural),
    };
    let modifier = total - i32::try_from(roll.natural).unwrap_or(0);
    let modifier = match modifier {
        0 => String::new(),
        m if m > 0 => format!(" + {m}"),
        m => format!(" - {}", -m),
    };
    format!("{dice}{modifier} = {total}")
}

/// What follows a d20 roll's target when its die came up 20 or 1: `, nat 20`.
fn natural(roll: &D20) -> &'static str {
    match roll.natural {
        20 => ", nat 20",
        1 => ", nat 1",
        _ => "",
    }
}

/// d2 flips, `1/2`.
fn flips(flips: &[u32], sep: &str) -> String {
    flips.iter().map(u32::to_string).collect::<Vec<_>>().join(sep)
}

/// "1 turn", "3 turns".
fn turns(n: impl Into<u64>) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { "turn" } else { "turns" })
}

/// `CamelCase` debug names as lower-case words: `UncannyDodge` → `uncanny dodge`.
pub fn lower_words(camel: &str) -> String {
    let mut out = String::with_capacity(camel.len() + 4);
    for (i, ch) in camel.chars().enumerate() {
        if ch.is_uppercase() {
            if i > 0 {
                out.push(' ');
            }
            out.extend(ch.to_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}

/// What a readied action's trigger did, as the verb after its doer: "moves", "casts Fire Bolt",
/// "uses breath weapon", "attacks Bo", "closes in", "pulls away".
pub fn did(c: &Combat, observed: Option<&Observed>) -> Vec<Piece> {
    match observed {
        None | Some(Observed::Moves { .. }) => word("moves"),
        Some(Observed::EntersMelee { .. }) => word("closes in"),
        Some(Observed::LeavesMelee { .. }) => word("pulls away"),
        Some(Observed::CastsSpell { caster, spell }) => {
            vec![
                Piece::Word("casts ".into()),
                Piece::Text(spell_name(c, *caster, *spell)),
            ]
        }
        Some(Observed::UsesAbility { ability, .. }) => {
            vec![Piece::Word("uses ".into()), Piece::Text(lower_words(ability))]
        }
        Some(Observed::Attacks { target, .. }) => vec![Piece::Word("attacks ".into()), Piece::Who(*target)],
    }
}

/// `event` in `combat`: the referee's line and the narrator's lines.
pub fn tell(c: &Combat, event: &Event) -> Told {
    use Event as E;
    match event {
        E::InitiativeRolled { .. }
        | E::InitiativeFixed { .. }
        | E::RoundStarted { .. }
        | E::TurnStarted { .. }
        | E::TurnEnded { .. }
        | E::Delayed { .. }
        | E::CombatEnded { .. } => turns::tell(c, event),
        E::ChargeRace { .. }
        | E::ActionPointsRefreshed { .. }
        | E::ActionPointsSpent { .. }
        | E::CooldownStarted { .. }
        | E::InstantDeclared { .. }
        | E::InstantResolved { .. }
        | E::MutualDestruction { .. }
        | E::PhaseStarted { .. }
        | E::ActionCancelled { .. }
        | E::ActionFizzled { .. }
        | E::AwaitingCommand { .. } => models::tell(c, event),
        E::Joined { id, placement } => joins::tell(c, *id, placement),
        E::Moved { .. }
        | E::MoveAborted { .. }
        | E::Closing { .. }
        | E::StoodUp { .. }
        | E::Teleported { .. }
        | E::Dashed { .. }
        | E::Disengaged { .. }
        | E::EscapeAttempted { .. } => movement::tell(c, event),
        E::Dodging { .. }
        | E::Helped { .. }
        | E::HideAttempted { .. }
        | E::Revealed { .. }
        | E::Searched { .. }
        | E::Contest { .. }
        | E::Grappled { .. }
        | E::Shoved { .. }
        | E::ItemUsed { .. }
        | E::MedicineCheck { .. } => actions::tell(c, event),
        E::ReadiedActionSet { .. }
        | E::ReadiedActionTriggered { .. }
        | E::ReadiedActionExpired { .. }
        | E::AbilityUsed { .. }
        | E::BreathRecharged { .. }
        | E::LegendaryAction { .. }
        | E::CunningStrikeReady { .. } => abilities::tell(c, event),
        E::AttackRolled { .. } | E::SwingLost { .. } | E::SneakAttack { .. } => attacks::tell(c, event),
        E::DamageDealt { .. }
        | E::Defended { .. }
        | E::Resisted { .. }
        | E::UndeadFortitude { .. }
        | E::RegenerationStopped { .. }
        | E::Aura { .. } => damage::tell(c, event),
        E::TempHpGained { .. } | E::TempHpAbsorbed { .. } | E::Healed { .. } | E::HpAdjusted { .. } => {
            healing::tell(c, event)
        }
        E::ReactionOffered { .. }
        | E::ReactionTaken { .. }
        | E::ReactionPassed { .. }
        | E::DamageReduced { .. }
        | E::StatBlockReaction { .. }
        | E::ParryRolled { .. } => reactions::tell(c, event),
        E::SpellCast { .. }
        | E::SpellCountered { .. }
        | E::CounterspellFailed { .. }
        | E::ConcentrationEnded { .. }
        | E::SavingThrow { .. }
        | E::SaveFailedHelpless { .. }
        | E::LegendaryResistance { .. } => spells::tell(c, event),
        E::StatusApplied { .. }
        | E::StatusTicked { .. }
        | E::StatusExpired { .. }
        | E::Stunned { .. }
        | E::ConditionApplied { .. }
        | E::ConditionEnded { .. }
        | E::ConditionImmune { .. } => statuses::tell(c, event),
        E::Downed { .. }
        | E::DamagedWhileDowned { .. }
        | E::DeathSaveRolled { .. }
        | E::Stabilized { .. }
        | E::Woke { .. }
        | E::Revived { .. }
        | E::Died { .. }
        | E::MonsterSlain { .. } => death::tell(c, event),
    }
}

/// One line describing `event` in `combat`: the referee's plain line.
pub fn line(c: &Combat, event: &Event) -> String {
    tell(c, event).plain
}

/// An event handed to the wrong family: a bug in [`tell`]'s dispatch.
fn not_in_family(family: &str, event: &Event) -> ! {
    unreachable!("{event:?} is not told by the {family} family")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camel_case_reads_as_lower_case_words() {
        assert_eq!(lower_words("UncannyDodge"), "uncanny dodge");
    }

    #[test]
    fn every_line_an_event_picks_has_a_distinct_key() {
        let all = Say::all();
        let mut names: Vec<&str> = all.iter().map(|s| s.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all.len());
    }
}
