//! The session's small types: the rules state, a player's action, and why an
//! action is refused. The game kind, mode and status are in [`crate::model`],
//! because the store holds them too.

use crate::dice::DiceUnavailable;
use crate::error::ErrorCode;

/// Why an action or a stored game was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// The request is malformed: a die token sent as a move, an action that
    /// does not exist in this game.
    #[error("{1}")]
    BadRequest(ErrorCode, String),
    /// Well-formed but not allowed now: an illegal move, not your turn,
    /// nothing to take back, the game is over.
    #[error("{1}")]
    Conflict(ErrorCode, String),
    /// The seat asking is not a player of this game.
    #[error("{1}")]
    Forbidden(ErrorCode, String),
    /// The stored record does not replay (it never should).
    #[error("stored game is damaged: {0}")]
    Corrupt(String),
    /// No die could be drawn.
    #[error(transparent)]
    Dice(#[from] DiceUnavailable),
}

/// The rules state.
// One per game in memory, never in a hot collection: boxing the larger
// variant would buy nothing but an indirection.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Rules {
    /// A Ringo game.
    Ringo(ringo::Game),
    /// An Urgammon match.
    Urgammon(urgammon::Match),
}

/// What a player asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Play a move in notation (Ringo: also `pass`). Never a die.
    Move(String),
    /// Urgammon: roll the chance die.
    Roll,
    /// Urgammon: roll the verdict die.
    Verdict,
    /// Take back the asking seat's last decision.
    Undo,
    /// Give up the game (Ringo) or the match (Urgammon).
    Resign,
    /// Urgammon: start the next game of the match after a game has ended.
    Next,
}
