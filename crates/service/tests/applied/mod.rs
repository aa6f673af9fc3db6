//! What the service tests check of a fight read back from the database: it is the fight as it
//! was applied, and its whole log replays identically.

use service::{CombatUpdate, Service, ServiceError};

/// The fight as the database holds it equals `update`'s, version and all.
pub async fn assert_stored_as_applied(svc: &Service, update: &CombatUpdate) -> Result<(), ServiceError> {
    let (version, stored) = svc.stored_combat(update.combat_id).await?;
    assert_eq!(version, update.version);
    assert_eq!(
        serde_json::to_value(&stored).unwrap(),
        serde_json::to_value(&update.combat).unwrap(),
        "the fight read back at version {version} differs from the one applied"
    );
    // And its timing: the window's token, when it opened and when the wait began, which its
    // timer's deadlines are counted from.
    assert_eq!(
        svc.stored_timing(update.combat_id).await?,
        (update.window_token, update.window_since, update.wait_since),
        "the timing read back at version {version} differs from the one applied"
    );
    Ok(())
}

/// Replaying the fight's whole log from its start agrees with every logged event and with the
/// state the store holds.
pub async fn assert_replays_identically(svc: &Service, combat_id: i64) -> Result<(), ServiceError> {
    let replayed = svc.replay(combat_id).await?;
    assert_eq!(
        (replayed.diverged_at, replayed.same_state),
        (None, true),
        "{replayed:?}"
    );
    Ok(())
}
