//! The computer's work, below the web layer and the same for the web app
//! and `agon worker`: its decision in a game (`engine_action`), an
//! analysis or a rollout of any position (`analysis`), and a finished
//! game's review (`review`). Each returns typed results or an
//! [`EngineError`]; where the work runs (a pool, a worker) is the games
//! service's business.

pub mod analysis;
pub mod review;

use crate::session::{Action, Session};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

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

pub use crate::kinds::ringo_reply;

/// What the engine does now: roll when it must roll, else the level's
/// decision. A raised `stop` ends a Ringo search early.
pub(crate) fn engine_action(session: &Session, stop: Arc<AtomicBool>) -> Option<Action> {
    engine_action_at(session, None, stop)
}

/// [`engine_action`] at `level` instead of the game's own (a move retried
/// after failures is made at level 1).
pub(crate) fn engine_action_at(
    session: &Session,
    level: Option<u8>,
    stop: Arc<AtomicBool>,
) -> Option<Action> {
    let level = agon_ai::Level::new(level.or(session.row.level).unwrap_or(5));
    crate::kinds::of(session.kind()).engine_action(
        &session.rules,
        level,
        session.tokens.len(),
        stop,
    )
}
