//! The session's small types: a player's action, and why an
//! action is refused. The game kind, mode and status are in [`crate::model`],
//! because the store holds them too.

use crate::dice::DiceUnavailable;

/// What a refusal is about, in the session's own words. The HTTP layer
/// turns each into the API's stable code (`crate::http::error::ErrorCode`, the
/// same name in kebab-case): the session knows nothing of HTTP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Not the asking seat's turn.
    NotYourTurn,
    /// An Urgammon game has ended and the next has not begun.
    BetweenGames,
    /// The game is over.
    GameOver,
    /// A spectator's token (or none).
    WatchOnly,
    /// Nothing to take back.
    CannotUndo,
    /// No next game to start.
    NoNextGame,
    /// An illegal move.
    IllegalMove,
    /// A die sent as a move.
    DieNotMove,
    /// Not a move of this game.
    NotAMove,
    /// No die to roll now.
    NoDice,
    /// The verdict die is not allowed now.
    VerdictNotNow,
    /// The chance die has been rolled already.
    AlreadyRolled,
    /// The chance die must be rolled first.
    RollFirst,
    /// The verdict die must be rolled (no move).
    VerdictRequired,
    /// The action does not fit this moment.
    WrongMoment,
    /// The record would pass the longest the server keeps.
    RecordTooLong,
    /// A friend game whose friend has not joined.
    WaitingForFriend,
    /// Abort is only for a game between two people before both have moved.
    CannotAbort,
    /// Offers are between two people (or the offer does not fit now).
    NoOffers,
    /// This player has made this offer already.
    OfferPending,
    /// No such offer from the other player to answer.
    NoOffer,
    /// The opponent has not been gone long enough to claim the win.
    CannotClaim,
    /// A rematch is offered after the end.
    RematchBeforeEnd,
}

/// Why an action or a stored game was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// The request is malformed: a die token sent as a move, an action that
    /// does not exist in this game.
    #[error("{1}")]
    BadRequest(Refusal, String),
    /// Well-formed but not allowed now: an illegal move, not your turn,
    /// nothing to take back, the game is over.
    #[error("{1}")]
    Conflict(Refusal, String),
    /// The seat asking is not a player of this game.
    #[error("{1}")]
    Forbidden(Refusal, String),
    /// The stored record does not replay (it never should).
    #[error("stored game is damaged: {0}")]
    Corrupt(String),
    /// No die could be drawn.
    #[error(transparent)]
    Dice(#[from] DiceUnavailable),
}

/// The reason stored for a game that ended by resignation.
pub const RESIGNATION: &str = "resignation";

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
    /// End a game between two people before both have moved: no result,
    /// never rated.
    Abort,
    /// Offer the other player a takeback or (after the end) a rematch.
    Offer(crate::model::OfferKind),
    /// Accept the other player's offer (a rematch is made by the games
    /// service, which makes the new game).
    Accept(crate::model::OfferKind),
    /// Decline the other player's offer.
    Decline(crate::model::OfferKind),
    /// Claim the win of a live game whose opponent has been gone this many
    /// milliseconds (the games service measures it; the rules say how long
    /// is enough).
    Claim {
        /// How long the opponent has had no socket open.
        absent_ms: i64,
        /// How long is enough (the server's setting).
        needed_ms: i64,
    },
}

impl Action {
    /// A decision of the game itself (a move, a roll, the verdict die):
    /// the only actions whose network lag is credited to the clock, since
    /// only they are made against it (an offer, an answer or a claim is
    /// not, and a resignation costs nothing).
    pub fn is_decision(&self) -> bool {
        matches!(self, Action::Move(_) | Action::Roll | Action::Verdict)
    }
}
