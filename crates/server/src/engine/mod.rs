//! What the computer's work shares, whichever game: its errors and the
//! analysis board's request and answer. Each game's own work (its decision,
//! its review, its analysis) is in `crate::kinds`, the same for the web app
//! and `agon worker`; where it runs (a pool, a worker) is the games
//! service's business.

pub mod analysis;

/// Why engine work could not be done.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The request does not name a position the engine can read.
    #[error("{1}")]
    BadRequest(BadInput, String),
    /// The position is over: nothing to analyse or roll out.
    #[error("{0}")]
    GameOver(String),
    /// Something that should not happen (a JSON writer failing).
    #[error("{0}")]
    Internal(String),
}

/// What part of an engine request was bad.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BadInput {
    /// Not JSON of the request's shape.
    Json,
    /// The rules string.
    Rules,
    /// A position, set-up or record.
    Record,
    /// A move that is not legal there.
    Move,
    /// The level.
    Level,
    /// A number out of its range (depth, games).
    Number,
    /// A match target or score.
    MatchTarget,
    /// A game that has no such work (a Ringo rollout).
    Game,
}
