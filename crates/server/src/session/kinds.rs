//! The session's small types: the two games, the three modes, the rules
//! state, a player's action, and why an action is refused.

use crate::dice::DiceUnavailable;
use serde::Deserialize;
use std::fmt;
use std::str::FromStr;

/// Why an action or a stored game was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// The request is malformed: a die token sent as a move, an action that
    /// does not exist in this game.
    #[error("{0}")]
    BadRequest(String),
    /// Well-formed but not allowed now: an illegal move, not your turn,
    /// nothing to take back, the game is over.
    #[error("{0}")]
    Conflict(String),
    /// The seat asking is not a player of this game.
    #[error("{0}")]
    Forbidden(String),
    /// The stored record does not replay (it never should).
    #[error("stored game is damaged: {0}")]
    Corrupt(String),
    /// No die could be drawn.
    #[error(transparent)]
    Dice(#[from] DiceUnavailable),
}

/// The two games.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Ringo.
    Ringo,
    /// Urgammon.
    Urgammon,
}

impl Kind {
    /// The name.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Ringo => "ringo",
            Kind::Urgammon => "urgammon",
        }
    }

    /// The seat names: attackers/defenders, light/dark.
    pub const fn seat_names(self) -> [&'static str; 2] {
        match self {
            Kind::Ringo => ["attackers", "defenders"],
            Kind::Urgammon => ["light", "dark"],
        }
    }

    /// The seat a side name stands for.
    pub fn seat_of(self, name: &str) -> Option<u8> {
        self.seat_names()
            .iter()
            .position(|n| *n == name)
            .map(|i| i as u8)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Kind {
    type Err = SessionError;
    fn from_str(s: &str) -> Result<Kind, SessionError> {
        match s {
            "ringo" => Ok(Kind::Ringo),
            "urgammon" => Ok(Kind::Urgammon),
            other => Err(SessionError::BadRequest(format!(
                "unknown game '{other}'; the games are ringo and urgammon"
            ))),
        }
    }
}

/// Who plays the other seat.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The computer.
    Engine,
    /// A friend, who joins with an invite code.
    Friend,
    /// Both seats on one screen.
    Local,
}

impl Mode {
    /// The name.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Engine => "engine",
            Mode::Friend => "friend",
            Mode::Local => "local",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Mode {
    type Err = SessionError;
    fn from_str(s: &str) -> Result<Mode, SessionError> {
        match s {
            "engine" => Ok(Mode::Engine),
            "friend" => Ok(Mode::Friend),
            "local" => Ok(Mode::Local),
            other => Err(SessionError::BadRequest(format!(
                "unknown opponent '{other}'; use engine, friend or local"
            ))),
        }
    }
}

/// The rules state.
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
