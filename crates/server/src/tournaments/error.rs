//! Why a tournament request is refused: each refusal its own variant, with
//! its words, as the game's refusals are (`games::GameError`). The HTTP
//! edge gives each its status and code (`http/error.rs`).

use super::ask::{MAX_MINUTES, MAX_ROUNDS};
use crate::lobby::LobbyError;
use crate::model::Kind;
use crate::store::StoreError;
use crate::text::TextError;

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

/// A request the event does not allow, in the asker's terms: all answered
/// 400 `bad-tournament` (the API's code for them since the first release),
/// each in its own words.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Refusal {
    /// An arena without its length.
    #[error("an arena needs its length: minutes")]
    NoMinutes,
    /// An arena's length out of range.
    #[error("an arena lasts 1 to {MAX_MINUTES} minutes, not {0}")]
    Minutes(u32),
    /// Rounds asked of an arena.
    #[error("an arena has minutes, not rounds")]
    RoundsInArena,
    /// A Swiss event without its rounds.
    #[error("a Swiss event needs its number of rounds")]
    NoRounds,
    /// A Swiss event's rounds out of range.
    #[error("a Swiss event has 1 to {MAX_ROUNDS} rounds, not {0}")]
    Rounds(u32),
    /// Minutes asked of a Swiss event.
    #[error("a Swiss event has rounds, not minutes")]
    MinutesInSwiss,
    /// An arena on a correspondence clock, or none.
    #[error("an arena is played on a live clock")]
    NotLive,
    /// A start in the past or too far ahead.
    #[error("a tournament starts within the next 30 days")]
    Start,
    /// An entry rating out of range.
    #[error("{0} is not a rating (0 to 4000)")]
    Rating(f64),
    /// The entry ratings the wrong way round.
    #[error("the lowest rating is above the highest")]
    RatingsCrossed,
    /// Too many rated games asked of entrants.
    #[error("at most 1000 rated games may be asked for")]
    RatedGames,
    /// The name refused by the public text policy.
    #[error(transparent)]
    Name(#[from] TextError),
    /// A password too short or too long.
    #[error("a password has 1 to 100 characters")]
    Password,
    /// Berserk outside an arena under way.
    #[error("berserk is for an arena under way")]
    BerserkNotNow,
    /// Berserk with no game of hers in the event in play.
    #[error("you have no game in play here")]
    NoGameInPlay,
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
