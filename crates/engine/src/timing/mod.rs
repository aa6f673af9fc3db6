//! Timing models (DESIGN "Timing models"): who acts when and what a turn's budget is.
//! GogoBee's own model is the default; the alternatives arrive with their seeds.

pub mod gogobee;
