//! What the service tests check of the denormalised rows (`turn_resources`, `readied_actions`,
//! `death_save_states`): they hold the fight's latest snapshot.

use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use service::entity::{combat_snapshot, combatant as combatant_row, death_save_state, readied_action, turn_resources};
use service::{Db, ServiceError};

/// The denormalised rows hold what the fight's latest snapshot holds: they are written with
/// each snapshot (every few commands, at a death, at the end) and by no command between.
pub async fn check_denormalised_rows(db: &Db, combat_id: i64) -> Result<(), ServiceError> {
    let snapshot = combat_snapshot::Entity::find_by_id(combat_id)
        .one(db.conn())
        .await?
        .expect("every fight has a snapshot");
    let state: serde_json::Value = serde_json::from_str(&snapshot.state).expect("a snapshot is JSON");
    let combat: engine::Combat = serde_json::from_value(state["combat"].clone()).expect("a snapshot holds a fight");
    let resources = turn_resources::Entity::find()
        .filter(turn_resources::Column::CombatId.eq(combat_id))
        .all(db.conn())
        .await?;
    assert_eq!(resources.len(), combat.combatants.len());
    for r in &resources {
        let c = combat.combatants[r.combatant_index as usize].resources;
        assert_eq!(
            (
                r.action_used,
                r.bonus_used,
                r.reaction_used,
                r.movement_used,
                r.movement_total
            ),
            (
                c.action_used,
                c.bonus_used,
                c.reaction_used,
                c.movement_used,
                c.movement_total
            ),
            "combatant {}'s turn resources",
            r.combatant_index
        );
    }
    let readied = readied_action::Entity::find()
        .filter(readied_action::Column::CombatId.eq(combat_id))
        .all(db.conn())
        .await?;
    let holding: Vec<i32> = (0..combat.combatants.len())
        .filter(|&i| combat.combatants[i].readied.is_some())
        .map(|i| i as i32)
        .collect();
    let mut stored: Vec<i32> = readied.iter().map(|r| r.combatant_index).collect();
    stored.sort_unstable();
    assert_eq!(
        stored, holding,
        "one readied_actions row per combatant holding a readied action"
    );
    for r in &readied {
        let held = combat.combatants[r.combatant_index as usize]
            .readied
            .as_ref()
            .expect("held");
        assert_eq!(r.trigger_desc, held.trigger_desc);
    }
    let members = combatant_row::Entity::find()
        .filter(combatant_row::Column::CombatId.eq(combat_id))
        .all(db.conn())
        .await?;
    let deaths = death_save_state::Entity::find()
        .filter(death_save_state::Column::CombatId.eq(combat_id))
        .all(db.conn())
        .await?;
    for d in deaths {
        let index = members
            .iter()
            .find(|m| m.character_id == Some(d.character_id))
            .expect("a death save row is a character's in the fight")
            .combatant_index;
        let c = &combat.combatants[index as usize].death;
        assert_eq!(
            (d.downed, d.successes, d.failures, d.stabilized),
            (c.downed, i32::from(c.successes), i32::from(c.failures), c.stabilized),
            "{}'s death saves",
            d.player_id
        );
    }
    Ok(())
}
