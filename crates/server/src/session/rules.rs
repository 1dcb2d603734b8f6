//! A game's rules state as one type, [`Rules`], with a variant per game
//! (shakmaty's `VariantPosition`): the session plays it through
//! [`GameRules`], which each game implements on its rules crate's own type
//! (`ringo.rs`, `urgammon.rs`), and a game's own code (`kinds/`: the
//! computer's move, the review) matches on the variant, so a third game is
//! flagged by the compiler wherever it needs code, with no downcast. The
//! session keeps what every game shares (the record, the dice ledger, the
//! revision, Undo's and resignation's bookkeeping) and asks the rules for
//! the rest.

use super::actions::{Action, SessionError};
use crate::dice::Die;
use crate::model::Seat;
use crate::model::{Kind, Status};
use std::fmt::Debug;

/// The game's own view, whichever game it is (its fields sit at the top level
/// of [`SessionView`](super::SessionView)).
#[derive(serde::Serialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
pub enum GameView {
    /// A Ringo game.
    Ringo(Box<agon_views::RingoGame>),
    /// An Urgammon match.
    Urgammon(Box<agon_views::UrgammonMatch>),
}

/// A game's rules state: one variant per game.
#[derive(Clone, Debug)]
pub enum Rules {
    /// A Ringo game.
    Ringo(ringo::Game),
    /// An Urgammon match (boxed: a match is several times a Ringo game's
    /// size, and sessions move).
    Urgammon(Box<urgammon::Match>),
}

impl std::ops::Deref for Rules {
    type Target = dyn GameRules;
    fn deref(&self) -> &(dyn GameRules + 'static) {
        match self {
            Rules::Ringo(g) => g,
            Rules::Urgammon(m) => &**m,
        }
    }
}

impl std::ops::DerefMut for Rules {
    fn deref_mut(&mut self) -> &mut (dyn GameRules + 'static) {
        match self {
            Rules::Ringo(g) => g,
            Rules::Urgammon(m) => &mut **m,
        }
    }
}

/// How a game ended other than by its rules, as its view shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// This seat resigned.
    Resigned(Seat),
    /// This seat's clock ran out.
    Time(Seat),
    /// Aborted before both sides had moved: no winner.
    Aborted,
    /// This seat's opponent claimed the win: it had left a live game.
    Claimed(Seat),
}

impl End {
    /// The seat that lost by this end, if one did.
    pub fn loser(self) -> Option<Seat> {
        match self {
            End::Resigned(s) | End::Time(s) | End::Claimed(s) => Some(s),
            End::Aborted => None,
        }
    }

    /// The `reason` word the API gives: `resignation`, `time`, `abort` or
    /// `claim`.
    pub fn reason(self) -> &'static str {
        match self {
            End::Resigned(_) => super::actions::RESIGNATION,
            End::Time(_) => "time",
            End::Aborted => "abort",
            End::Claimed(_) => "claim",
        }
    }
}

/// A game's rules state as the session plays it. Seats are 0 and 1 in the
/// game's own order (`Kind::seat_names`).
pub trait GameRules: Debug + Send + Sync + 'static {
    /// Which game these rules play.
    fn kind(&self) -> Kind;

    /// The game (Ringo) or match (Urgammon) is over by the rules.
    fn over(&self) -> bool;

    /// A game of a match has ended and the next has not begun.
    fn between_games(&self) -> bool {
        false
    }

    /// The seat whose turn it is by the rules, if any.
    fn to_act(&self) -> Option<Seat>;

    /// The winner's seat once over by the rules (`None` for a draw or while
    /// in play).
    fn winner(&self) -> Option<Seat>;

    /// A match's score, seat 0's then seat 1's; `None` for a single game.
    fn score(&self) -> Option<[u32; 2]> {
        None
    }

    /// Refuses, as a bad request, a move text that could never be a move of
    /// this game whatever the moment (a die, a malformed token).
    ///
    /// # Errors
    /// The text is not a move of this game.
    fn check_move_text(&self, _text: &str) -> Result<(), SessionError> {
        Ok(())
    }

    /// Plays a move for `seat`; returns its token as recorded.
    ///
    /// # Errors
    /// The move is illegal or does not fit this moment.
    fn play_move(&mut self, seat: Seat, text: &str) -> Result<String, SessionError>;

    /// The die a roll action (`Roll` or `Verdict`) draws now.
    ///
    /// # Errors
    /// The game has no dice, or this die may not be rolled now.
    fn die_for(&self, action: &Action) -> Result<Die, SessionError>;

    /// The opening die is due: a new game of a match has not yet decided who
    /// starts.
    fn opening_due(&self) -> bool {
        false
    }

    /// Applies a die token the server drew.
    ///
    /// # Errors
    /// The token does not fit (it never should: the session asked for it).
    fn apply_die(&mut self, token: &str) -> Result<(), String>;

    /// Where Undo by `seats` would cut a record of `recorded` tokens: before
    /// the last decision of one of them in the game in play; `None` when
    /// there is none.
    fn undo_point(&self, recorded: usize, seats: &[Seat]) -> Option<usize>;

    /// The record as text (without a resignation).
    fn record(&self) -> String;

    /// What separates a resignation token from the record before it.
    fn resignation_separator(&self) -> char {
        ' '
    }

    /// Why `{"type": "next"}` is refused, when no game of a match has just
    /// ended; `over` says whether the whole game (or match) is over.
    fn no_next_game(&self, over: bool) -> String;

    /// The game's view; `end` says how it ended other than by the rules (a
    /// resignation, a flag, an abort), and `status` is the session's status.
    fn view(&self, end: Option<End>, status: Status) -> GameView;

    /// The decision due now is no choice (Urgammon's verdict die when the
    /// chance die gave no move): a clocked game makes it at once, and it
    /// costs nobody time.
    fn forced(&self) -> bool {
        false
    }

    /// The next decision is a roll that decides nothing (the computer makes
    /// it after half its pause).
    fn rolls_next(&self) -> bool {
        false
    }

    /// How many steps a review of this game takes.
    fn review_steps(&self) -> usize;

    /// The turns played so far, both sides together: a Ringo move, an
    /// Urgammon turn (each roll of the chance die, over every game of the
    /// match). A tournament reads it to tell a game played from one ended
    /// at once, as lichess counts a game's plies (its berserk bonus and its
    /// quick draws).
    fn turns(&self) -> usize;
}
