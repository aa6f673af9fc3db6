//! The service functions, one module per command group; each is an `impl Service` block.

pub mod arena;
pub mod balance;
pub mod campaign;
pub mod character;
pub mod combat;
pub mod craft;
pub mod expedition;
pub mod gm;
pub mod homebrew;
pub mod hospital;
pub mod house;
pub mod pets;
pub mod rest;
pub mod retention;
pub mod roll;
pub mod roster;
pub mod shop;
pub mod stats;
pub mod turn_timer;
