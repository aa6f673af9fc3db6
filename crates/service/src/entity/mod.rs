//! Hand-written sea-orm entities, one module per table of `migration`.
//!
//! They stay inside this crate: service functions convert them to and from engine types.

pub mod arena_duel;
pub mod campaign;
pub mod character;
pub mod combat;
pub mod combat_event;
pub mod combat_snapshot;
pub mod combat_start;
pub mod combatant;
pub mod death_save_state;
pub mod debt;
pub mod expedition;
pub mod homebrew;
pub mod hospital_record;
pub mod idle_fight;
pub mod paused_guild;
pub mod readied_action;
pub mod timer;
pub mod turn_resources;
