//! Every slash command as Discord knows it, built from the commands' one declaration
//! ([`spec`](crate::app::spec)): the commands the bot registers ([`registration`]) and the
//! poise commands that dispatch them ([`all`]). One action serves every command — its options
//! become the app's [`Invocation`](crate::app::Invocation) options (a choice by its name, a
//! user by id, a file as its text) and [`play`](super::play) does the rest — and one
//! autocomplete callback answers from the list the focused option declares.

use std::collections::BTreeMap;

use poise::serenity_prelude as serenity;

use super::{Data, Error};
use crate::app::spec::{COMMANDS, Commands, Kind, Opt, Spec};
use crate::app::{Caller, Suggest};

/// An invocation's options by name.
pub type Options = BTreeMap<String, String>;

type Command = poise::Command<Data, Error>;
type AppContext<'a> = poise::ApplicationContext<'a, Data, Error>;
/// An option that could not be read, as poise reports it.
type Unreadable<'a> = Box<poise::FrameworkError<'a, Data, Error>>;

/// The game's commands as poise dispatches them.
pub fn all() -> Vec<Command> {
    build(COMMANDS)
}

/// The game's commands as the bot registers them: installed to servers; offered in servers'
/// channels, and in the bot's DMs too for those declared so.
pub fn registered() -> Vec<serenity::CreateCommand> {
    registration(COMMANDS)
}

/// Whether the game's command `name` is offered in the bot's DMs.
pub fn in_dms(name: &str) -> bool {
    COMMANDS.all().any(|s| s.path[0] == name && s.in_dms)
}

/// The game's commands offered in the bot's DMs (`/roll`).
pub fn usable_in_dms() -> Vec<String> {
    COMMANDS.all().filter(|s| s.in_dms).map(Spec::name).collect()
}

/// A description as Discord shows it: the declaration's, first letter capitalised.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The specs of the command `name` (one, or its subcommands).
fn specs_of(commands: Commands, name: &str) -> Vec<&'static Spec> {
    commands.all().filter(|s| s.path[0] == name).collect()
}

/// Whether `name` is a command with subcommands (rather than one spec of its own).
fn has_subcommands(specs: &[&Spec]) -> bool {
    specs.iter().any(|s| s.path.len() > 1)
}

/// `commands` as poise commands, one per first word with its subcommands under it; each leaf
/// carries its spec (`custom_data`) for the action and the autocomplete callback.
pub fn build(commands: Commands) -> Vec<Command> {
    commands
        .names()
        .into_iter()
        .map(|name| {
            let specs = specs_of(commands, name);
            if !has_subcommands(&specs) {
                return leaf(specs[0]);
            }
            Command {
                name: name.into(),
                qualified_name: name.into(),
                identifying_name: name.into(),
                description: commands.parent(name).map(|p| p.about.into()),
                subcommands: specs.into_iter().map(leaf).collect(),
                subcommand_required: true,
                // poise walks down to a subcommand only through a parent that has an action.
                slash_action: Some(slash),
                ..Default::default()
            }
        })
        .collect()
}

fn leaf(spec: &'static Spec) -> Command {
    let name = spec.path[spec.path.len() - 1];
    Command {
        name: name.into(),
        qualified_name: spec.path.join(" ").into(),
        identifying_name: spec.path.join(" ").into(),
        description: Some(capitalised(spec.about).into()),
        parameters: spec.options.iter().map(parameter).collect(),
        slash_action: Some(slash),
        custom_data: Box::new(spec),
        ..Default::default()
    }
}

/// An option as poise dispatches it: its name and, for a listed one, the autocomplete callback.
/// (`CommandParameter` has no constructor; its hidden field is the one poise's macro sets.)
fn parameter(opt: &Opt) -> poise::CommandParameter<Data, Error> {
    poise::CommandParameter {
        name: opt.name.into(),
        name_localizations: Vec::new().into(),
        description: Some(opt.about.into()),
        description_localizations: Vec::new().into(),
        required: opt.required,
        channel_types: None,
        choices: Vec::new().into(),
        type_setter: None,
        autocomplete_callback: opt.suggest.map(|_| complete as _),
        __non_exhaustive: (),
    }
}

/// `commands` as Discord registers them.
pub fn registration(commands: Commands) -> Vec<serenity::CreateCommand> {
    commands
        .names()
        .into_iter()
        .map(|name| {
            let specs = specs_of(commands, name);
            let subcommands = has_subcommands(&specs);
            let about = match commands.parent(name) {
                Some(parent) if subcommands => parent.about.to_owned(),
                _ => capitalised(specs[0].about),
            };
            let mut contexts = vec![serenity::InteractionContext::Guild];
            if specs.iter().any(|s| s.in_dms) {
                contexts.push(serenity::InteractionContext::BotDm);
            }
            let mut command = serenity::CreateCommand::new(name)
                .description(about)
                .integration_types(vec![serenity::InstallationContext::Guild])
                .contexts(contexts);
            if specs.iter().any(|s| s.gm) {
                command = command.default_member_permissions(serenity::Permissions::MANAGE_GUILD);
            }
            if subcommands {
                for spec in specs {
                    let kind = serenity::CommandOptionType::SubCommand;
                    let mut sub = serenity::CreateCommandOption::new(kind, spec.path[1], capitalised(spec.about));
                    for opt in spec.options {
                        sub = sub.add_sub_option(option(opt));
                    }
                    command = command.add_option(sub);
                }
            } else {
                for opt in specs[0].options {
                    command = command.add_option(option(opt));
                }
            }
            command
        })
        .collect()
}

/// An option as Discord registers it. A choice is an integer with named choices (Discord
/// sends the index of the one picked).
fn option(opt: &Opt) -> serenity::CreateCommandOption {
    use serenity::CommandOptionType as Type;
    let kind = match opt.kind {
        Kind::Text { .. } => Type::String,
        Kind::Integer { .. } | Kind::Choice(_) => Type::Integer,
        Kind::User => Type::User,
        Kind::File => Type::Attachment,
    };
    let mut option = serenity::CreateCommandOption::new(kind, opt.name, opt.about)
        .required(opt.required)
        .set_autocomplete(opt.suggest.is_some());
    match opt.kind {
        Kind::Text { min_len, max_len } => {
            if min_len > 0 {
                option = option.min_length(min_len as u16);
            }
            option = option.max_length(max_len as u16);
        }
        Kind::Integer { min, max } => {
            option = option.min_number_value(min as f64).max_number_value(max as f64);
        }
        Kind::Choice(choices) => {
            for (i, name) in choices.iter().enumerate() {
                option = option.add_int_choice(*name, i as i32);
            }
        }
        Kind::User | Kind::File => {}
    }
    option
}

/// The spec a dispatched leaf command carries.
fn spec_of(ctx: AppContext<'_>) -> Option<&'static Spec> {
    ctx.command().custom_data.downcast_ref::<&'static Spec>().copied()
}

/// Every command's action: its options as the app reads them, then [`super::play`].
fn slash(ctx: AppContext<'_>) -> poise::BoxFuture<'_, Result<(), poise::FrameworkError<'_, Data, Error>>> {
    Box::pin(async move {
        let Some(spec) = spec_of(ctx) else {
            return Ok(());
        };
        let (options, file) = options(ctx, spec).map_err(|e| *e)?;
        super::play(poise::Context::Application(ctx), spec, options, file)
            .await
            .map_err(|error| poise::FrameworkError::new_command(poise::Context::Application(ctx), error))
    })
}

/// The invocation's options by name: text as typed, a number, a choice by its name, a user by
/// id; and its attached file, not yet downloaded ([`super::attachment`]: [`super::play`]
/// checks it first). A number outside the registered range, or a choice that is not one
/// (which Discord's client never sends), is an option that could not be read.
fn options<'a>(ctx: AppContext<'a>, spec: &Spec) -> Result<(Options, Option<super::attachment::File>), Unreadable<'a>> {
    let mut file = None;
    let unreadable = |input: i64, why: String| {
        Box::new(poise::FrameworkError::new_argument_parse(
            poise::Context::Application(ctx),
            Some(input.to_string()),
            why.into(),
        ))
    };
    let mut options = Options::new();
    for given in ctx.args {
        let value = match &given.value {
            serenity::ResolvedValue::String(text) => (*text).to_owned(),
            serenity::ResolvedValue::Integer(n) => match spec.option(given.name).map(|o| o.kind) {
                Some(Kind::Choice(choices)) => match usize::try_from(*n).ok().and_then(|i| choices.get(i)) {
                    Some(choice) => (*choice).to_owned(),
                    None => return Err(unreadable(*n, format!("not one of the {} choices", choices.len()))),
                },
                Some(Kind::Integer { min, max }) if !(min..=max).contains(n) => {
                    return Err(unreadable(*n, format!("out of range ({min} to {max})")));
                }
                _ => n.to_string(),
            },
            serenity::ResolvedValue::Number(x) => x.to_string(),
            serenity::ResolvedValue::Boolean(b) => b.to_string(),
            serenity::ResolvedValue::User(user, _) => user.id.to_string(),
            serenity::ResolvedValue::Attachment(attached) => {
                file = Some(super::attachment::File {
                    option: given.name.to_owned(),
                    filename: attached.filename.clone(),
                    url: attached.url.clone(),
                    size: u64::from(attached.size),
                    content_type: attached.content_type.clone(),
                });
                continue;
            }
            _ => continue,
        };
        options.insert(given.name.to_owned(), value);
    }
    Ok((options, file))
}

/// Every listed option's autocomplete: up to 25 names from the list its spec declares.
fn complete<'a>(ctx: AppContext<'a>, partial: &'a str) -> poise::BoxFuture<'a, serenity::CreateAutocompleteResponse> {
    Box::pin(async move {
        let focused = ctx.args.iter().find_map(|o| match o.value {
            serenity::ResolvedValue::Autocomplete { .. } => Some(o.name),
            _ => None,
        });
        let list = spec_of(ctx)
            .zip(focused)
            .and_then(|(spec, name)| spec.option(name)?.suggest);
        match list {
            Some(list) => suggest(ctx, list, partial).await,
            None => serenity::CreateAutocompleteResponse::new(),
        }
    })
}

/// Up to 25 suggestions from one of the app's lists.
async fn suggest(ctx: AppContext<'_>, list: Suggest, partial: &str) -> serenity::CreateAutocompleteResponse {
    let i = ctx.interaction;
    let caller: Caller = super::caller(i.guild_id, i.channel_id, &i.user, i.member.as_deref());
    let span = super::interaction_span(
        "autocomplete",
        &i.data.name,
        ctx.framework.serenity_context.shard_id,
        i.guild_id,
        i.channel_id,
        &i.user,
    );
    let data = ctx.framework.user_data;
    let work = data.app.suggest(&caller, list, partial, data.clock.now());
    let names = super::traced(span, super::Report::Debug, work).await;
    serenity::CreateAutocompleteResponse::new()
        .set_choices(names.into_iter().map(serenity::AutocompleteChoice::from).collect())
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::app::Invocation;
    use crate::app::spec::{Parent, Section};

    /// The registered commands as the JSON Discord gets.
    fn registered_json(commands: Commands) -> Vec<Value> {
        registration(commands)
            .into_iter()
            .map(|c| serde_json::to_value(c).unwrap())
            .collect()
    }

    /// A registered leaf command's options, by its path.
    fn registered_options<'a>(registered: &'a [Value], path: &[&str]) -> &'a Vec<Value> {
        let command = registered.iter().find(|c| c["name"] == path[0]).expect("registered");
        let options = command["options"].as_array().unwrap();
        match path.get(1) {
            None => options,
            Some(sub) => {
                let sub = options.iter().find(|o| o["name"] == *sub).expect("a subcommand");
                assert_eq!(sub["type"], 1, "{path:?}: a subcommand");
                sub["options"].as_array().unwrap()
            }
        }
    }

    /// Checks each of `commands` against what is registered for it and what poise dispatches.
    fn assert_every_form_is_the_declaration(commands: Commands) {
        let registered = registered_json(commands);
        let built = build(commands);
        assert_eq!(
            registered.len(),
            commands.names().len(),
            "one registered command per name"
        );
        for spec in commands.all() {
            let options = registered_options(&registered, spec.path);
            let names: Vec<&str> = options.iter().filter_map(|o| o["name"].as_str()).collect();
            let declared: Vec<&str> = spec.options.iter().map(|o| o.name).collect();
            assert_eq!(names, declared, "{}", spec.name());
            for (json, opt) in options.iter().zip(spec.options) {
                let what = format!("{} {} {json}", spec.name(), opt.name);
                assert_eq!(json["required"], opt.required, "{what}: required");
                assert_eq!(json["autocomplete"], opt.suggest.is_some(), "{what}: autocomplete");
                assert_eq!(json["description"], opt.about, "{what}: description");
                match opt.kind {
                    Kind::Choice(choices) => {
                        assert_eq!(json["type"], 4, "{what}: an integer choice");
                        let names: Vec<&str> = json["choices"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .filter_map(|c| c["name"].as_str())
                            .collect();
                        assert_eq!(names, choices, "{what}: choices");
                    }
                    Kind::Text { min_len, max_len } => {
                        assert_eq!(json["type"], 3, "{what}: a string");
                        assert_eq!(json["max_length"].as_u64(), Some(max_len as u64), "{what}: max length");
                        assert_eq!(
                            json["min_length"].as_u64().unwrap_or(0),
                            min_len as u64,
                            "{what}: min length"
                        );
                    }
                    Kind::Integer { min, max } => {
                        assert_eq!(json["type"], 4, "{what}: an integer");
                        assert_eq!(json["min_value"].as_f64(), Some(min as f64), "{what}: min");
                        assert_eq!(json["max_value"].as_f64(), Some(max as f64), "{what}: max");
                    }
                    Kind::User => assert_eq!(json["type"], 6, "{what}: a user"),
                    Kind::File => assert_eq!(json["type"], 11, "{what}: an attachment"),
                }
            }
            // poise dispatches it to the one action, with the spec it came from.
            let mut command = built.iter().find(|c| c.name == spec.path[0]).expect("built");
            if let Some(sub) = spec.path.get(1) {
                assert!(
                    command.slash_action.is_some(),
                    "{}: a parent poise walks through",
                    spec.name()
                );
                command = command
                    .subcommands
                    .iter()
                    .find(|c| c.name == *sub)
                    .expect("a subcommand");
            }
            assert!(command.slash_action.is_some(), "{}", spec.name());
            let carried = command.custom_data.downcast_ref::<&'static Spec>().copied();
            assert_eq!(carried, Some(spec), "{}: carries its spec", spec.name());
            let params: Vec<(&str, bool)> = command
                .parameters
                .iter()
                .map(|p| (p.name.as_ref(), p.autocomplete_callback.is_some()))
                .collect();
            let declared: Vec<(&str, bool)> = spec.options.iter().map(|o| (o.name, o.suggest.is_some())).collect();
            assert_eq!(params, declared, "{}: parameters and their autocomplete", spec.name());
        }
    }

    #[test]
    fn what_discord_registers_is_the_declaration() {
        assert_every_form_is_the_declaration(COMMANDS);
        let registered = registered_json(COMMANDS);
        for command in &registered {
            let name = command["name"].as_str().unwrap();
            let gm = matches!(name, "gm" | "campaign" | "homebrew");
            // MANAGE_GUILD is bit 5.
            assert_eq!(command["default_member_permissions"] == json!("32"), gm, "{command}");
            let contexts = if name == "roll" { json!([0, 1]) } else { json!([0]) };
            assert_eq!(command["contexts"], contexts, "{command}");
            assert_eq!(command["integration_types"], json!([0]), "{command}");
        }
        assert_eq!(usable_in_dms(), ["/roll"]);
        assert!(in_dms("roll") && !in_dms("attack") && !in_dms("character"));
        let attack = registered.iter().find(|c| c["name"] == "attack").unwrap();
        assert_eq!(attack["description"], "Attack with your weapon");
        let character = registered.iter().find(|c| c["name"] == "character").unwrap();
        assert_eq!(
            character["description"],
            "Your character in this campaign: create one, see the sheet, gear up, level up."
        );
        let rules = registered_options(&registered, &["campaign", "rules"]);
        assert_eq!(rules[0]["choices"][3], json!({"name": "ticks", "value": 3}));
    }

    /// A command that is not the game's: `/brew potion herb:<recipe> [strength:<1–5>]`.
    const BREW: Section = Section {
        title: "Brewing",
        commands: &[Spec {
            path: &["brew", "potion"],
            about: "brew a potion from a herb",
            options: &[
                Opt {
                    name: "herb",
                    kind: Kind::Text {
                        min_len: 0,
                        max_len: 40,
                    },
                    required: true,
                    suggest: Some(Suggest::Recipe),
                    about: "The herb",
                },
                Opt {
                    name: "strength",
                    kind: Kind::Integer { min: 1, max: 5 },
                    required: false,
                    suggest: None,
                    about: "How strong (default 1)",
                },
            ],
            gm: false,
            in_dms: false,
            example: "herb:Shadow moss strength:3",
        }],
    };

    /// The game's commands and `/brew`, declared as any command is.
    fn with_brew() -> Commands {
        let sections: Vec<Section> = COMMANDS.sections.iter().copied().chain([BREW]).collect();
        let mut parents = COMMANDS.parents.to_vec();
        parents.push(Parent {
            name: "brew",
            about: "Thom's kettle: brew what you gathered.",
        });
        Commands {
            sections: Box::leak(sections.into_boxed_slice()),
            parents: Box::leak(parents.into_boxed_slice()),
        }
    }

    #[test]
    fn a_command_declared_once_is_on_discord_at_the_table_and_in_the_guide() {
        let commands = with_brew();
        // Discord: registered with its options, dispatched by poise to the one action.
        assert_every_form_is_the_declaration(commands);
        let registered = registered_json(commands);
        let brew = registered
            .iter()
            .find(|c| c["name"] == "brew")
            .expect("/brew registered");
        assert_eq!(brew["description"], "Thom's kettle: brew what you gathered.");
        assert_eq!(brew["options"][0]["description"], "Brew a potion from a herb");
        let options = registered_options(&registered, &["brew", "potion"]);
        assert_eq!(options[0]["autocomplete"], true);
        assert_eq!(options[1]["max_value"].as_f64(), Some(5.0));
        assert!(!registered_json(COMMANDS).iter().any(|c| c["name"] == "brew"));
        // The table: found, its options checked strictly, completed from its list.
        let invocation = |strength: &str| Invocation {
            path: vec!["brew".into(), "potion".into()],
            options: [("herb", "moss"), ("strength", strength)]
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect(),
        };
        let (spec, found) = commands.find(&invocation("3")).expect("/brew potion is a command");
        assert_eq!(spec.check(&found).unwrap().options["strength"], "3");
        let (spec, found) = commands.find(&invocation("9")).unwrap();
        assert_eq!(
            spec.check(&found).unwrap_err(),
            "`strength` is a whole number from 1 to 5, not \"9\". Usage: /brew potion herb:<text> [strength:<1–5>]"
        );
        assert!(COMMANDS.find(&invocation("3")).is_err(), "not one of the game's");
        assert!(commands.suggest_lists().contains(&Suggest::Recipe));
        // The guide: in its group, with its example.
        let guide = crate::app::guide::groups_of(commands);
        let (title, lines) = guide.last().unwrap();
        assert_eq!(title, "Brewing");
        assert_eq!(
            lines,
            &["`/brew potion herb:Shadow moss strength:3` — brew a potion from a herb"]
        );
    }
}
