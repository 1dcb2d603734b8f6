//! What one change of a game is, and who caused it: the words the door
//! (`round.rs`) and its callers share, apart from the door itself so that
//! the finisher, which the door calls, can say what finishing owes
//! without calling the door back.

use crate::model::InviteSeats;
use crate::model::Seat;
use crate::session::{Session, SessionView};
use crate::store::ratings::Rater;
use crate::store::{Commit, SeatAccount};

/// Who or what changed a game: the only after-effects that depend on it are
/// whether this instance owes them at all (another instance's change is
/// finished and announced there) and whether the computer's search in
/// flight is for a position that is gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cause {
    /// A player's request (an action, a join, a seat claimed, a rematch).
    Player,
    /// The clock this instance keeps (a flag, an abort for want of a first
    /// move, a clock taken over or begun).
    Clock,
    /// The computer's own action.
    Computer,
    /// The server itself (an account deleted, a game rated on load).
    Server,
    /// Another instance changed the game in the shared store: this one
    /// only catches up (publishes, and wakes the computer); the effects
    /// were owed, and paid, where the change was made.
    Elsewhere,
}

/// One change of a game, decided on the session as it stands.
pub(crate) enum Change {
    /// What the rules decided (a move, an offer, a flag, an abort, a clock
    /// resumed or begun): the next session and the commit that stores it.
    Play(Box<Session>, Commit),
    /// A signed-in player's seat becomes her account's.
    SeatAccount {
        /// The seat.
        seat: Seat,
        /// The account.
        account: SeatAccount,
    },
    /// A one-time code (its hash) used: its seat, or both, go to a new
    /// token (its hash); the store says which seat, or that the code is
    /// spent.
    Invite {
        /// The code's hash.
        code: String,
        /// The new token's hash.
        token: String,
    },
    /// A finished game linked to the game that follows it (a rematch, or
    /// a rated pair's second game).
    Link(String),
    /// A finished rated game rated (once: the store refuses a second time).
    Rated {
        /// The two seats' accounts.
        accounts: [i64; 2],
        /// The new ratings from the old.
        rater: Rater,
        /// A Ringo pair's score over its two games.
        pair_score: Option<[f64; 2]>,
    },
    /// An account was renamed or deleted: the game shows its name as
    /// stored now (the store shows it so already; nothing is written).
    AccountName {
        /// The account.
        account: i64,
        /// Its name now; `None`: deleted.
        name: Option<String>,
    },
}

/// What a change wrote that its caller needs to know.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Written {
    /// For [`Change::Invite`]: the seat the code gave (2: both).
    pub seat: Option<InviteSeats>,
}

/// The game after a change through the door.
pub(crate) struct Outcome {
    /// Its state as every socket was told.
    pub view: SessionView,
    /// Whether anything was written (`None`: the decision was to change
    /// nothing).
    pub written: Option<Written>,
}
