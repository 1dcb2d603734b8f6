//! Why the lobby refused: each refusal its own variant, with its words (a
//! pause says until when and why); the HTTP edge gives each its code.

use crate::games::GameError;

/// A player's pause: until when, and how many live games she abandoned in
/// a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Pause {
    /// The end of the pause, in milliseconds since the epoch.
    pub until_ms: i64,
    /// Her latest live games abandoned in a row.
    pub abandoned: usize,
}

/// Why the lobby refused.
#[derive(Debug, thiserror::Error)]
pub enum LobbyError {
    /// No open seek with this id (it was cancelled or lapsed).
    #[error("no open seek with id '{0}': it was cancelled or lapsed")]
    NoSuchSeek(String),
    /// Someone else accepted it first.
    #[error("this seek was accepted by someone else first")]
    Taken,
    /// The seek is someone else's.
    #[error("this seek is not yours")]
    NotYours,
    /// One's own seek.
    #[error("this is your own seek: wait for someone to accept it, or cancel it")]
    Own,
    /// The accepter's rating is outside the seek's range (or she has none).
    #[error("{0}")]
    OutOfRange(String),
    /// A rated seek needs an account.
    #[error("a rated game is between two accounts: sign in first")]
    NotSignedIn,
    /// The clock is out of range.
    #[error("{0}")]
    BadClock(String),
    /// The rating range is not one.
    #[error("{0}")]
    BadRange(String),
    /// Too many seeks open.
    #[error("you have {0} seeks open already: cancel one first")]
    TooMany(usize),
    /// No such pool.
    #[error("no quick-pairing pool named '{0}'")]
    UnknownPool(String),
    /// The account waits in the pool already, held by another page.
    #[error("you are waiting in this pool already, on another page: play from there, or leave the pool there first")]
    AlreadyWaiting,
    /// The rules or match settings.
    #[error(transparent)]
    Settings(#[from] crate::kinds::SettingsRefusal),
    /// No player by this name (or a deleted one).
    #[error("no player named '{0}'")]
    NoSuchPlayer(String),
    /// A challenge to oneself.
    #[error("you cannot challenge yourself")]
    ChallengeYourself,
    /// The player takes no such challenge (her setting).
    #[error("{0}")]
    ChallengeRefused(String),
    /// A challenge to this player is open already.
    #[error("you have a challenge open to this player already: wait for her answer, or cancel it")]
    ChallengeOpen,
    /// Too many challenges open.
    #[error("you have {0} challenges open already: cancel one first")]
    TooManyChallenges(usize),
    /// A page's cursor that does not read.
    #[error("'{0}' is not a cursor of this list: use the one an answer gave")]
    BadCursor(String),
    /// No challenge with this id for this player.
    #[error("no challenge with id '{0}' for you")]
    NoSuchChallenge(String),
    /// The challenge is not this player's to answer so.
    #[error("{0}")]
    NotYourChallenge(&'static str),
    /// She abandoned her latest live games: paused until then.
    #[error("you abandoned your last {} live games (left them to be claimed, or never made your first move): you may seek or pair again in {} minutes", .0.abandoned, (.0.until_ms - crate::clock::now_ms()).max(60_000) / 60_000)]
    Paused(Pause),
    /// A moderator banned the player from rated play for now.
    #[error("a moderator banned you from rated play for now: seek casual games")]
    RatedBanned,
    /// Either player blocks the other.
    #[error("this player and you cannot play each other: one of you blocks the other")]
    Blocked,
    /// The challenge was answered already (or lapsed).
    #[error("this challenge is {0} already")]
    ChallengeAnswered(crate::store::ChallengeStatus),
    /// The games service failed.
    #[error(transparent)]
    Game(#[from] GameError),
}

impl From<crate::store::StoreError> for LobbyError {
    fn from(e: crate::store::StoreError) -> LobbyError {
        LobbyError::Game(e.into())
    }
}

impl From<crate::secrets::NoSecret> for LobbyError {
    fn from(e: crate::secrets::NoSecret) -> LobbyError {
        LobbyError::Game(e.into())
    }
}
