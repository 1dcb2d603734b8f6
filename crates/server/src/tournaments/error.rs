//! Why a tournament request is refused: each refusal its own variant, with
//! its words, as the game's refusals are (`games::GameError`). The HTTP
//! edge gives each its status and code (`http/error.rs`). A request the
//! event does not allow is a [`Refusal`], which lives with what is asked
//! (`ask.rs`).

pub use super::ask::Refusal;
use crate::lobby::LobbyError;
use crate::model::Kind;
use crate::store::StoreError;

/// Why a tournament request is refused.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// No such event.
    #[error("no tournament with id '{0}'")]
    NotFound(String),
    /// The request is not one the event allows: 400 `bad-tournament`.
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// Signed in only.
    #[error("sign in to enter or make a tournament")]
    NotSignedIn,
    /// Entered already.
    #[error("you are in this tournament already")]
    AlreadyIn,
    /// Not entered.
    #[error("you are not in this tournament")]
    NotIn,
    /// Over.
    #[error("this tournament is over")]
    Over,
    /// An entry condition not met.
    #[error(transparent)]
    Conditions(#[from] Unmet),
    /// A private event's password is wrong.
    #[error("wrong password for this tournament")]
    WrongPassword,
    /// Too many events made.
    #[error("you have {0} tournaments upcoming or running already")]
    TooMany(usize),
    /// The lobby refused (a pause, a ban from rated play, settings).
    #[error(transparent)]
    Lobby(#[from] LobbyError),
    /// The game refused (not hers, not now) or failed: its own code.
    #[error(transparent)]
    Game(#[from] crate::games::GameError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Something of the server's own is broken (a stored event or game that
    /// cannot be read, no randomness for an id, the feeds): never the
    /// asker's fault, so a 500 and not a refusal.
    #[error("{0}")]
    Broken(String),
}

/// An entry condition she does not meet: 403 `conditions-not-met`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Unmet {
    /// Her rating is below the event's lowest.
    #[error("your rating ({rating}) is below this tournament's lowest ({lowest})")]
    RatingBelow {
        /// Her rating, rounded.
        rating: f64,
        /// The lowest allowed.
        lowest: f64,
    },
    /// Her rating is above the event's highest.
    #[error("your rating ({rating}) is above this tournament's highest ({highest})")]
    RatingAbove {
        /// Her rating, rounded.
        rating: f64,
        /// The highest allowed.
        highest: f64,
    },
    /// Too few rated games in the event's game.
    #[error("this tournament needs {needed} rated games of {game}; you have {games}")]
    RatedGames {
        /// The games needed.
        needed: u32,
        /// The event's game.
        game: Kind,
        /// Hers.
        games: u32,
    },
}
