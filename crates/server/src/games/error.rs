//! Why the games service could not do what was asked: one error for the
//! whole service, which the HTTP layer turns into a status and a code.

use super::chat::ChatRefusal;
use crate::engine::EngineError;
use crate::session::SessionError;
use crate::store::StoreError;

/// Why the games service could not do what was asked. The HTTP layer turns
/// each into a status and a code; the service knows nothing of HTTP.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// No game with this id.
    #[error("no game with id '{0}'")]
    NotFound(String),
    /// The request named a revision the game has passed.
    #[error(
        "the game has changed: you sent revision {sent}, it is at {now}; reload and try again"
    )]
    Stale {
        /// The revision the request named.
        sent: i64,
        /// The game's revision now.
        now: i64,
    },
    /// The rules refused the action.
    #[error(transparent)]
    Session(#[from] SessionError),
    /// The store failed or refused.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Engine work failed.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// A chat line refused.
    #[error(transparent)]
    Chat(#[from] ChatRefusal),
    /// This client has its share of analyses queued or running already.
    #[error("you have {held} analyses or rollouts running already (at most {cap} at once): wait for them, then try again")]
    AnalysisLimit {
        /// How many it has.
        held: usize,
        /// How many it may have.
        cap: usize,
    },
    /// The analysis queue is full.
    #[error("the engine has too many analyses queued: try again in a few seconds")]
    EngineBusy,
    /// No engine worker answered a queued job in time.
    #[error(
        "no engine worker answered in time: the site is busy or has no worker running; try again"
    )]
    NoWorker,
    /// A new game's record does not replay.
    #[error("{0}")]
    BadRecord(String),
    /// A takeback offered in a rated game where a player turned them off.
    #[error(
        "takebacks in this rated game are off: both players must allow them in their settings"
    )]
    TakebacksOff,
    /// A review asked of a game not over.
    #[error("a review is for a finished game: finish or resign it first")]
    NotOver,
    /// An invite code already used, or not for this game.
    #[error("this invite has already been used (or is not for this game): you can watch the game")]
    InviteUsed,
    /// A rated game's seat taken signed out.
    #[error("this game is rated: sign in (or make an account) to take your seat")]
    RatedNeedsAccount,
    /// A moderator banned the player from rated play for now.
    #[error("a moderator banned you from rated play for now: play casual games")]
    RatedBanned,
    /// A rated game's second seat taken by the account holding the first.
    #[error("this rated game is yours already: send the invite to your opponent")]
    OwnRatedGame,
    /// The request holds no seat of the game.
    #[error("{0}")]
    NotAPlayer(String),
    /// A new game's record is longer than the server keeps.
    #[error("{0}")]
    RecordTooLong(String),
    /// Something that should not happen.
    #[error("{0}")]
    Internal(String),
}

impl From<crate::secrets::NoSecret> for GameError {
    fn from(e: crate::secrets::NoSecret) -> GameError {
        GameError::Internal(e.to_string())
    }
}
