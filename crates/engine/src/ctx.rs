//! The rules' working context while a command resolves (DESIGN "Suspension"): the fight, the
//! dice, the time and the events so far, with the resolution queue's two basic moves. Every rule
//! module takes it; it names only the fight's state, so any rule may sit above it.

use chrono::{DateTime, Utc};

use crate::dice::Dice;
use crate::state::combat::Combat;
use crate::state::event::Event;
use crate::state::step::Step;

/// What rules code works with while resolving: the fight, the dice, the time, and the events so far.
pub struct Ctx<'a> {
    pub combat: &'a mut Combat,
    pub dice: &'a mut Dice,
    pub now: DateTime<Utc>,
    pub events: Vec<Event>,
}

impl Ctx<'_> {
    pub fn emit(&mut self, event: Event) {
        self.events.push(event);
    }

    /// Runs `steps` next, in order, before anything already queued.
    pub fn push_front(&mut self, steps: Vec<Step>) {
        if steps.is_empty() {
            // Nothing to run: the queue keeps its room.
            return;
        }
        if self.combat.queue.is_empty() {
            // The usual case (a command's steps, a hit's damage): the Vec becomes the queue,
            // without copying or allocating.
            self.combat.queue = steps.into();
            return;
        }
        for step in steps.into_iter().rev() {
            self.combat.queue.push_front(step);
        }
    }
}
