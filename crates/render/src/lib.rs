//! GogoBee's one renderer (DESIGN "One renderer turns events + flavor into a Discord message
//! payload"): the terminal table and the Discord adapter both send what this crate builds, so
//! what a script test sees is what Discord gets.
//!
//! - [`flavor`]: the narration files under `flavor/`, embedded, loaded and checked once at start.
//! - [`payload`]: serde types that serialise to exactly Discord's message JSON, with its limits.
//! - [`Renderer::combat`]: a command's events become the public narration embed (HP bars, the
//!   timing model's state, whose turn is next, a ping), on the tick timeline a running status
//!   message edited in place, and, when a player may react, a prompt with buttons.
//! - [`battlefield`]: the battlefield in words — engagements, distances and what closing costs,
//!   conditions, terrain — in every status embed and under "Up next".
//! - [`custom_id`]: reaction button ids, checked by the service against stored state.
//! - [`balance`]: `/homebrew balance`'s figures as text and as a PNG chart.
//! - [`map`]: the battlefield as a PNG — lanes from the acting combatant, melee groups, HP bars,
//!   condition markers, the timing model's view — with the layout it drew.
//! - [`messages`]: refusals, info, the character sheet, room entry and the Hospital.
//! - [`models`]: what each timing model shows — the initiative order, the charge race, the tick
//!   timeline — and a combatant's budget for the turn.
//!
//! No I/O, no async, no Discord client: plain data in, plain data out.

pub mod balance;
pub mod battlefield;
pub mod combat;
pub mod custom_id;
pub mod flavor;
mod font;
pub mod map;
pub mod messages;
pub mod models;
pub mod payload;
pub mod text;

pub use combat::{RenderContext, RenderError, Rendered, Renderer, hp_bar};
pub use custom_id::{ReactionButton, ReactionChoice};
pub use flavor::{Flavor, FlavorError, FlavorFile, FlavorProblem, Key, Speaker};
pub use messages::{CharacterSheet, RoomEntry, character_sheet, info, refusal, refusal_text};
pub use payload::{
    ActionRow, AllowedMentions, Attachment, Button, ButtonStyle, Embed, EmbedField, EmbedFooter, MessagePayload,
};
