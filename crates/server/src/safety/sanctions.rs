//! A player's sanctions as the store keeps them, asked by every part of
//! the site that must honour them: a chat mute (the chat, and every notice
//! that says until when and why), a ban from rated play (seeks, challenges,
//! pairings), a mark for cheating (the leaderboards, the ratings' recount).

use super::actions::ModAction;
use crate::clock::now_ms;
use crate::store::{Sanction, Store, StoreError};

/// A mark's end: never, until a moderator lifts it (year 9999).
pub const MARKED_UNTIL: i64 = 253_402_300_799_000;

/// Whether `account` is marked for cheating.
///
/// # Errors
/// The store failed.
pub async fn marked(store: &Store, account: i64) -> Result<bool, StoreError> {
    Ok(store
        .sanction_until(account, Sanction::Cheat)
        .await?
        .is_some())
}

/// The longest mute, in minutes (30 days).
pub const MAX_MUTE_MINUTES: i64 = 30 * 24 * 60;

/// Until when `account`'s chat is muted (milliseconds since the epoch), if
/// it is now: the chat asks this before it takes a line.
///
/// # Errors
/// The store failed.
pub async fn muted(store: &Store, account: i64) -> Result<Option<i64>, StoreError> {
    Ok(store
        .sanction_until(account, Sanction::Mute)
        .await?
        .filter(|until| *until > now_ms()))
}

/// A mute in force: until when, and the moderator's reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mute {
    /// When it ends, milliseconds since the epoch.
    pub until_ms: i64,
    /// Why, in the moderator's words (the newest mute's).
    pub reason: String,
}

/// `account`'s mute, if she is muted now: until when and why, so that
/// every refusal and every notice says both.
///
/// # Errors
/// The store failed.
pub async fn mute(store: &Store, account: i64) -> Result<Option<Mute>, StoreError> {
    let Some(until_ms) = muted(store, account).await? else {
        return Ok(None);
    };
    let reason = store
        .actions(Some(account), 50)
        .await?
        .into_iter()
        .find(|a| a.action == ModAction::Mute.name())
        .map(|a| a.reason)
        .unwrap_or_default();
    Ok(Some(Mute { until_ms, reason }))
}

/// Until when `account` is banned from rated play, if she is now: asked
/// before a rated game is sought, accepted, paired or challenged.
///
/// # Errors
/// The store failed.
pub async fn rated_banned(store: &Store, account: i64) -> Result<Option<i64>, StoreError> {
    Ok(store
        .sanction_until(account, Sanction::RatedBan)
        .await?
        .filter(|until| *until > now_ms()))
}
