//! When a change happens ([`Moment`]) and what a clocked game waits for
//! ([`Deadline`]): the words the session and its clock share.

use crate::model::Seat;

/// When a change happens and who keeps the clock after it.
#[derive(Clone, Copy, Debug)]
pub struct Moment<'a> {
    /// Milliseconds since the epoch.
    pub now_ms: i64,
    /// The network lag the acting client reports, in milliseconds (credited
    /// up to [`crate::clock::LAG_BOUND_MS`]).
    pub lag_ms: i64,
    /// The instance that makes the change and keeps the clock after it.
    pub instance: &'a str,
}

impl<'a> Moment<'a> {
    /// Now, for `instance`, with `lag_ms` reported.
    pub fn now(instance: &'a str, lag_ms: i64) -> Moment<'a> {
        Moment {
            now_ms: crate::clock::now_ms(),
            lag_ms,
            instance,
        }
    }
}

/// What the server does when a clocked game's deadline passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deadline {
    /// The running side's flag falls at this moment.
    Flag(Seat, i64),
    /// The side to act has not made its first decision by this moment: the
    /// game is aborted.
    FirstMove(i64),
}

impl Deadline {
    /// When, in milliseconds since the epoch.
    pub fn at(self) -> i64 {
        match self {
            Deadline::Flag(_, t) | Deadline::FirstMove(t) => t,
        }
    }
}
