//! Following a player: her online state and her games in play on one's
//! home page. One account follows at most [`MAX_FOLLOWS`] players, and
//! neither herself nor a deleted account.

use super::service::People;
use crate::store::{Capped, Relation};
use crate::store::{SeatAccount, StoreError};

/// The most players one account follows.
pub const MAX_FOLLOWS: usize = 200;

/// Why a follow was refused.
#[derive(Debug, thiserror::Error)]
pub enum FollowError {
    /// One's own name.
    #[error("you cannot follow yourself")]
    Yourself,
    /// No such player (or a deleted one).
    #[error("no player named '{0}'")]
    NoSuchPlayer(String),
    /// Either blocks the other.
    #[error("you cannot follow this player")]
    Blocked,
    /// Following as many as one may.
    #[error("you follow {0} players already: unfollow one first")]
    TooMany(usize),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl People {
    /// The account named `name`, if it exists and is not deleted.
    ///
    /// # Errors
    /// The store failed.
    pub async fn named(&self, name: &str) -> Result<Option<SeatAccount>, StoreError> {
        crate::safety::named(self.store(), name).await
    }

    /// `me` follows the player named `name` (following her already is
    /// fine: the same answer).
    ///
    /// # Errors
    /// Herself, no such player, too many followed, the store failed.
    pub async fn follow(&self, me: i64, name: &str) -> Result<SeatAccount, FollowError> {
        let them = self
            .named(name)
            .await?
            .ok_or_else(|| FollowError::NoSuchPlayer(name.to_string()))?;
        if them.id == me {
            return Err(FollowError::Yourself);
        }
        if self
            .store()
            .related_either(Relation::Block, me, them.id)
            .await?
        {
            return Err(FollowError::Blocked);
        }
        // The cap is the store's to decide, with the insert.
        match self
            .store()
            .relate(
                Relation::Follow,
                me,
                them.id,
                crate::clock::now_ms(),
                MAX_FOLLOWS,
            )
            .await?
        {
            Capped::Added | Capped::Already => Ok(them),
            Capped::Full(n) => Err(FollowError::TooMany(n)),
        }
    }

    /// `me` stops following the player named `name` (not following her is
    /// fine).
    ///
    /// # Errors
    /// No such player, the store failed.
    pub async fn unfollow(&self, me: i64, name: &str) -> Result<(), FollowError> {
        let them = self
            .named(name)
            .await?
            .ok_or_else(|| FollowError::NoSuchPlayer(name.to_string()))?;
        self.store().unrelate(Relation::Follow, me, them.id).await?;
        Ok(())
    }
}
