//! The action economy (seed 000 §1, §9 `TurnResources`): one action, one bonus action, one
//! reaction and movement in feet per turn, reset at the start of the owner's turn; nothing
//! carries over.

pub use crate::state::resources::{Resource, TurnResources};
use crate::state::violation::RuleViolation;

impl TurnResources {
    /// Fresh resources for a new turn: everything unspent, `movement` feet to move.
    pub fn fresh(movement: i32) -> Self {
        Self {
            movement_total: movement.max(0),
            ..Self::default()
        }
    }

    /// Feet of movement left.
    pub fn movement_left(&self) -> i32 {
        (self.movement_total - self.movement_used).max(0)
    }

    pub fn has(&self, resource: Resource) -> bool {
        match resource {
            Resource::Action => !self.action_used,
            Resource::BonusAction => !self.bonus_used,
            Resource::Reaction => !self.reaction_used,
            Resource::Movement => self.movement_left() > 0,
        }
    }

    /// Refuses unless `resource` is still available.
    pub fn check(&self, resource: Resource) -> Result<(), RuleViolation> {
        if self.has(resource) {
            Ok(())
        } else {
            Err(RuleViolation::ResourceSpent { resource })
        }
    }

    /// Spends `resource` (movement is spent with [`Self::spend_movement`]).
    pub fn spend(&mut self, resource: Resource) {
        match resource {
            Resource::Action => self.action_used = true,
            Resource::BonusAction => self.bonus_used = true,
            Resource::Reaction => self.reaction_used = true,
            Resource::Movement => self.movement_used = self.movement_total,
        }
    }

    /// Refuses unless `feet` of movement are left.
    pub fn check_movement(&self, feet: i32) -> Result<(), RuleViolation> {
        if feet <= self.movement_left() {
            Ok(())
        } else {
            Err(RuleViolation::NotEnoughMovement {
                needed: feet,
                left: self.movement_left(),
            })
        }
    }

    pub fn spend_movement(&mut self, feet: i32) {
        self.movement_used = (self.movement_used + feet).min(self.movement_total);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_turn_grants_one_action_one_bonus_one_reaction_and_speed_in_feet() {
        let r = TurnResources::fresh(30);
        assert!(r.has(Resource::Action) && r.has(Resource::BonusAction) && r.has(Resource::Reaction));
        assert_eq!(r.movement_left(), 30);
    }

    #[test]
    fn a_spent_resource_is_refused_with_a_typed_violation() {
        let mut r = TurnResources::fresh(30);
        r.spend(Resource::Action);
        assert_eq!(
            r.check(Resource::Action),
            Err(RuleViolation::ResourceSpent {
                resource: Resource::Action
            })
        );
        assert_eq!(r.check(Resource::BonusAction), Ok(()));
    }

    #[test]
    fn unused_resources_do_not_carry_over() {
        let mut r = TurnResources::fresh(30);
        r.spend_movement(10);
        let next = TurnResources::fresh(30);
        assert_eq!(next.movement_left(), 30);
        assert_eq!(r.movement_left(), 20);
    }

    #[test]
    fn movement_beyond_what_is_left_is_refused() {
        let mut r = TurnResources::fresh(30);
        r.spend_movement(25);
        assert_eq!(
            r.check_movement(10),
            Err(RuleViolation::NotEnoughMovement { needed: 10, left: 5 })
        );
        assert_eq!(r.check_movement(5), Ok(()));
    }
}
