//! The combat actions (`/attack`, `/cast`, …, `/bonus`, `/move …`, `/endturn`) and `/roll`.

use super::{complete, options};
use crate::discord::{Context, Error, play};

/// Attack with your weapon.
#[poise::command(slash_command)]
pub async fn attack(
    ctx: Context<'_>,
    #[description = "Who to attack (default: the enemy in front of you)"]
    #[autocomplete = "complete::target"]
    #[max_length = 100]
    target: Option<String>,
) -> Result<(), Error> {
    play(ctx, &["attack"], options!(target)).await
}

/// Cast a spell you know.
#[poise::command(slash_command)]
pub async fn cast(
    ctx: Context<'_>,
    #[description = "The spell"]
    #[autocomplete = "complete::spell"]
    #[max_length = 100]
    spell: String,
    #[description = "Its target, if it has one"]
    #[autocomplete = "complete::target"]
    #[max_length = 100]
    target: Option<String>,
) -> Result<(), Error> {
    play(ctx, &["cast"], options!(spell, target)).await
}

/// Dash: double your movement this turn.
#[poise::command(slash_command)]
pub async fn dash(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["dash"], options!()).await
}

/// Disengage: move away this turn without opportunity attacks.
#[poise::command(slash_command)]
pub async fn disengage(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["disengage"], options!()).await
}

/// Dodge: attacks against you have disadvantage until your next turn.
#[poise::command(slash_command)]
pub async fn dodge(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["dodge"], options!()).await
}

/// Help an ally (their next attack has advantage); with no ally, every command and an example.
#[poise::command(slash_command)]
pub async fn help(
    ctx: Context<'_>,
    #[description = "The ally to help (leave out for the list of commands)"]
    #[autocomplete = "complete::target"]
    #[max_length = 100]
    ally: Option<String>,
) -> Result<(), Error> {
    play(ctx, &["help"], options!(ally)).await
}

/// Hide: try to slip out of sight.
#[poise::command(slash_command)]
pub async fn hide(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["hide"], options!()).await
}

/// Ready an action for a trigger, e.g. "attack when the goblin moves".
#[poise::command(slash_command)]
pub async fn ready(
    ctx: Context<'_>,
    #[description = "What to do, and when: \"attack when the goblin moves\""]
    #[max_length = 200]
    action: String,
) -> Result<(), Error> {
    play(ctx, &["ready"], options!(action)).await
}

/// Use an item from your pack (a potion, a scroll, …).
#[poise::command(slash_command, rename = "use")]
pub async fn use_item(
    ctx: Context<'_>,
    #[description = "The item"]
    #[autocomplete = "complete::item"]
    #[max_length = 100]
    item: String,
    #[description = "On whom (default: yourself)"]
    #[autocomplete = "complete::target"]
    #[max_length = 100]
    target: Option<String>,
) -> Result<(), Error> {
    play(ctx, &["use"], options!(item, target)).await
}

/// Search: look for what is hidden.
#[poise::command(slash_command)]
pub async fn search(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["search"], options!()).await
}

/// Grapple someone in reach.
#[poise::command(slash_command)]
pub async fn grapple(
    ctx: Context<'_>,
    #[description = "Who to grab"]
    #[autocomplete = "complete::target"]
    #[max_length = 100]
    target: String,
) -> Result<(), Error> {
    play(ctx, &["grapple"], options!(target)).await
}

/// What a shove does.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum ShoveMode {
    #[name = "prone"]
    Prone,
    #[name = "away"]
    Away,
}
super::choice_text!(ShoveMode);

/// Shove someone in reach: knock them prone or push them away.
#[poise::command(slash_command)]
pub async fn shove(
    ctx: Context<'_>,
    #[description = "Who to shove"]
    #[autocomplete = "complete::target"]
    #[max_length = 100]
    target: String,
    #[description = "Knock prone (default) or push away"] mode: Option<ShoveMode>,
) -> Result<(), Error> {
    play(ctx, &["shove"], options!(target, mode)).await
}

/// Stabilize a dying ally.
#[poise::command(slash_command)]
pub async fn stabilize(
    ctx: Context<'_>,
    #[description = "The ally at 0 HP"]
    #[autocomplete = "complete::target"]
    #[max_length = 100]
    ally: String,
) -> Result<(), Error> {
    play(ctx, &["stabilize"], options!(ally)).await
}

/// A bonus action your class or spells give you.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Ability {
    #[name = "off-hand attack"]
    OffHand,
    #[name = "second wind"]
    SecondWind,
    #[name = "cunning action"]
    CunningAction,
    #[name = "cunning strike"]
    CunningStrike,
    #[name = "healing word"]
    HealingWord,
    #[name = "hunter's mark"]
    HuntersMark,
    #[name = "rage"]
    Rage,
    #[name = "misty step"]
    MistyStep,
}
super::choice_text!(Ability);

/// Take a bonus action.
#[poise::command(slash_command)]
pub async fn bonus(
    ctx: Context<'_>,
    #[description = "The bonus action"] ability: Ability,
    #[description = "Its target, if it has one"]
    #[autocomplete = "complete::target"]
    #[max_length = 100]
    target: Option<String>,
    #[description = "Cunning action: dash|disengage|hide · cunning strike: trip|poison|withdraw"]
    #[max_length = 20]
    mode: Option<String>,
) -> Result<(), Error> {
    play(ctx, &["bonus"], options!(ability, target, mode)).await
}

/// Move: into melee, out to range, toward or away, or shift.
#[allow(clippy::unused_async)] // poise commands are async, even a parent that only groups subcommands
#[poise::command(
    slash_command,
    rename = "move",
    subcommands("melee", "ranged", "toward", "away", "shift", "crawl"),
    subcommand_required
)]
pub async fn movement(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Close to melee with someone.
#[poise::command(slash_command)]
async fn melee(
    ctx: Context<'_>,
    #[description = "Who to close with"]
    #[autocomplete = "complete::target"]
    #[max_length = 100]
    target: String,
) -> Result<(), Error> {
    play(ctx, &["move", "melee"], options!(target)).await
}

/// Fall back out of melee, to range.
#[poise::command(slash_command)]
async fn ranged(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["move", "ranged"], options!()).await
}

/// Move toward the enemy.
#[poise::command(slash_command)]
async fn toward(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["move", "toward"], options!()).await
}

/// Move away from the enemy.
#[poise::command(slash_command)]
async fn away(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["move", "away"], options!()).await
}

/// A direction to shift.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Direction {
    #[name = "north"]
    North,
    #[name = "south"]
    South,
    #[name = "east"]
    East,
    #[name = "west"]
    West,
    #[name = "left"]
    Left,
    #[name = "right"]
    Right,
}

/// Shift position without changing distance to the enemy.
#[poise::command(slash_command)]
async fn shift(ctx: Context<'_>, #[description = "Which way"] direction: Direction) -> Result<(), Error> {
    play(ctx, &["move", poise::ChoiceParameter::name(&direction)], options!()).await
}

/// Where a crawl goes.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum CrawlWay {
    #[name = "toward"]
    Toward,
    #[name = "away"]
    Away,
    #[name = "ranged"]
    Ranged,
}

/// Crawl while prone, at half speed, without standing.
#[poise::command(slash_command)]
async fn crawl(ctx: Context<'_>, #[description = "Toward, away or out to range"] way: CrawlWay) -> Result<(), Error> {
    let way = poise::ChoiceParameter::name(&way).to_owned();
    play(ctx, &["move", "crawl"], options!(way)).await
}

/// Break free of a web, vines or a net (STR or DEX check).
#[poise::command(slash_command)]
pub async fn escape(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["escape"], options!()).await
}

/// End your turn.
#[poise::command(slash_command)]
pub async fn endturn(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, &["endturn"], options!()).await
}

/// TDGS rules: act later this round — after someone, or at the round's end.
#[poise::command(slash_command)]
pub async fn delay(
    ctx: Context<'_>,
    #[description = "Act after this combatant (empty: at the end of the round)"]
    #[autocomplete = "complete::target"]
    #[max_length = 100]
    after: Option<String>,
) -> Result<(), Error> {
    play(ctx, &["delay"], options!(after)).await
}

/// TDGS rules: declare an Instant for the next round (Quick Draw, Battle Cry, Premonition, Steady Aim).
#[poise::command(slash_command)]
pub async fn instant(
    ctx: Context<'_>,
    #[description = "The Instant to declare"]
    #[max_length = 100]
    ability: String,
) -> Result<(), Error> {
    play(ctx, &["instant"], options!(ability)).await
}

/// Roll dice: 1d20+5, 2d20kh1 (advantage), 4d6kh3, (2d6+3)*2.
#[poise::command(slash_command)]
pub async fn roll(
    ctx: Context<'_>,
    #[description = "The dice, e.g. 1d20+5"]
    #[max_length = 100]
    expression: String,
) -> Result<(), Error> {
    play(ctx, &["roll"], options!(expression)).await
}
