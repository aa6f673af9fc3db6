//! A character's pet as a combatant beside them, and the name it fights under.

use engine::{Combatant, Side};

use crate::ServiceError;
use crate::entity::character;
use crate::goods::the_world;

/// The name a pet fights under.
pub fn fighting_name(owner: &str, pet: &str) -> String {
    format!("{owner}'s {pet}")
}

/// The character's pet as a combatant for a fight beside them, if they have one (a pet whose
/// kind left the content stays home): its monster by id in the campaign's `content`, so a
/// homebrew wolf that `replaces = "wolf"` is what a wolf pet fights as there.
pub(crate) fn combatant(
    row: &character::Model,
    content: &engine::content::data::Content,
) -> Result<Option<Combatant>, ServiceError> {
    let Some(pet) = row.pet.as_deref() else {
        return Ok(None);
    };
    let world = the_world()?;
    let Some(def) = world.pet(pet) else {
        return Ok(None);
    };
    let Some(monster) = content.monsters.get(&def.monster) else {
        return Ok(None);
    };
    Ok(Some(
        Combatant::of_monster(&fighting_name(&row.name, &def.name), std::sync::Arc::clone(monster))
            .on_side(Side::Party),
    ))
}
