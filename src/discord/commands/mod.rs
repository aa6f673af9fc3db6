//! Every slash command, grouped as players think of them. Each is a thin adapter: its typed
//! options become the app's [`Invocation`](crate::app::Invocation) options and
//! [`play`](super::play) does the rest. The `///` doc of each is its slash description.

mod actions;
mod campaign;
mod character;
mod combat;
mod expedition;
mod gm;
mod homebrew;
mod hospital;
mod inn;

use std::collections::BTreeMap;

use poise::serenity_prelude as serenity;

use super::{Context, Data, Error};
use crate::app::{Caller, Suggest};

/// An invocation's options by name.
pub type Options = BTreeMap<String, String>;

/// The commands that make sense in the bot's DMs (no server, no campaign, no fight).
pub const IN_DMS: &[&str] = &["roll"];

/// Every command the bot registers: installed to servers; offered in servers' channels, and
/// in the bot's DMs only for [`IN_DMS`].
pub fn all() -> Vec<poise::Command<Data, Error>> {
    let mut commands = every_command();
    for command in &mut commands {
        command.install_context = Some(vec![serenity::InstallationContext::Guild]);
        let mut contexts = vec![serenity::InteractionContext::Guild];
        if IN_DMS.iter().any(|n| *n == command.name) {
            contexts.push(serenity::InteractionContext::BotDm);
        }
        command.interaction_context = Some(contexts);
    }
    commands
}

fn every_command() -> Vec<poise::Command<Data, Error>> {
    vec![
        character::character(),
        expedition::expedition(),
        combat::combat(),
        actions::attack(),
        actions::cast(),
        actions::dash(),
        actions::disengage(),
        actions::dodge(),
        actions::help(),
        actions::hide(),
        actions::ready(),
        actions::use_item(),
        actions::search(),
        actions::grapple(),
        actions::shove(),
        actions::stabilize(),
        actions::bonus(),
        actions::movement(),
        actions::escape(),
        actions::endturn(),
        actions::delay(),
        actions::instant(),
        actions::roll(),
        campaign::campaign(),
        gm::gm(),
        homebrew::homebrew(),
        hospital::hospital(),
        inn::shop(),
        inn::rest(),
        inn::craft(),
        inn::leaderboard(),
        inn::arena(),
        inn::house(),
        inn::guide(),
    ]
}

/// An option's value as the app reads it (a user as a mention, a choice by its name).
pub trait OptionText {
    fn text(&self) -> Option<String>;
}

impl OptionText for String {
    fn text(&self) -> Option<String> {
        Some(self.clone())
    }
}

impl OptionText for serenity::User {
    fn text(&self) -> Option<String> {
        Some(self.id.to_string())
    }
}

macro_rules! numbers {
    ($($t:ty),*) => {$(
        impl OptionText for $t {
            fn text(&self) -> Option<String> {
                Some(self.to_string())
            }
        }
    )*};
}
numbers!(u32, i32, i64);

impl<T: OptionText> OptionText for Option<T> {
    fn text(&self) -> Option<String> {
        self.as_ref().and_then(OptionText::text)
    }
}

/// Implements [`OptionText`] for `poise::ChoiceParameter` enums: the choice's name.
macro_rules! choice_text {
    ($($t:ty),*) => {$(
        impl $crate::discord::commands::OptionText for $t {
            fn text(&self) -> Option<String> {
                Some(poise::ChoiceParameter::name(self).to_owned())
            }
        }
    )*};
}
pub(crate) use choice_text;

/// The options map from the command's parameters, by their names.
macro_rules! options {
    ($($name:ident),* $(,)?) => {{
        #[allow(unused_mut)]
        let mut options = $crate::discord::commands::Options::new();
        $(
            if let Some(value) = $crate::discord::commands::OptionText::text(&$name) {
                options.insert(stringify!($name).to_owned(), value);
            }
        )*
        options
    }};
}
pub(crate) use options;

/// Up to 25 suggestions from one of the app's lists.
async fn suggest(ctx: Context<'_>, list: Suggest, partial: &str) -> serenity::CreateAutocompleteResponse {
    let poise::Context::Application(actx) = ctx else {
        return serenity::CreateAutocompleteResponse::new();
    };
    let i = actx.interaction;
    let caller: Caller = super::caller(i.guild_id, i.channel_id, &i.user, i.member.as_deref());
    let span = super::interaction_span(
        "autocomplete",
        &i.data.name,
        ctx.serenity_context().shard_id,
        i.guild_id,
        i.channel_id,
        &i.user,
    );
    let work = ctx.data().app.suggest(&caller, list, partial, ctx.data().clock.now());
    let names = super::traced(span, super::Report::Debug, work).await;
    serenity::CreateAutocompleteResponse::new()
        .set_choices(names.into_iter().map(serenity::AutocompleteChoice::from).collect())
}

/// Autocomplete callbacks, one per list (poise takes a function per parameter).
pub mod complete {
    use poise::serenity_prelude::CreateAutocompleteResponse as Choices;

    use super::{Context, Suggest, suggest};

    pub async fn target(ctx: Context<'_>, partial: &str) -> Choices {
        suggest(ctx, Suggest::Target, partial).await
    }
    pub async fn spell(ctx: Context<'_>, partial: &str) -> Choices {
        suggest(ctx, Suggest::Spell, partial).await
    }
    pub async fn item(ctx: Context<'_>, partial: &str) -> Choices {
        suggest(ctx, Suggest::Item, partial).await
    }
    pub async fn gear(ctx: Context<'_>, partial: &str) -> Choices {
        suggest(ctx, Suggest::Gear, partial).await
    }
    pub async fn zone(ctx: Context<'_>, partial: &str) -> Choices {
        suggest(ctx, Suggest::Zone, partial).await
    }
    pub async fn race(ctx: Context<'_>, partial: &str) -> Choices {
        suggest(ctx, Suggest::Race, partial).await
    }
    pub async fn class(ctx: Context<'_>, partial: &str) -> Choices {
        suggest(ctx, Suggest::Class, partial).await
    }
    pub async fn monster(ctx: Context<'_>, partial: &str) -> Choices {
        suggest(ctx, Suggest::Monster, partial).await
    }
    pub async fn stock(ctx: Context<'_>, partial: &str) -> Choices {
        suggest(ctx, Suggest::Stock, partial).await
    }
    pub async fn sellable(ctx: Context<'_>, partial: &str) -> Choices {
        suggest(ctx, Suggest::Sellable, partial).await
    }
    pub async fn recipe(ctx: Context<'_>, partial: &str) -> Choices {
        suggest(ctx, Suggest::Recipe, partial).await
    }
    pub async fn stored(ctx: Context<'_>, partial: &str) -> Choices {
        suggest(ctx, Suggest::Stored, partial).await
    }
    pub async fn homebrew(ctx: Context<'_>, partial: &str) -> Choices {
        suggest(ctx, Suggest::Homebrew, partial).await
    }
}
