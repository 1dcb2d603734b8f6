//! One place per game: what the server needs of a game that its rules crate
//! and the session do not already say, behind [`GameKind`]. A third game is
//! one implementation of it (a file beside `ringo.rs` and `urgammon.rs`) and
//! one line in [`of`], besides its `Kind` variant, its session rules
//! (`session::GameRules`, registered in `session::rules_for`) and the page's registry
//! (`static/js/games.js`).

mod kind;
mod ringo;
mod urgammon;

pub use kind::{GameKind, ImportError, Imported, SettingsFields, SettingsRefusal};

pub use ringo::ringo_reply;

use crate::engine::analysis::{self, parse, AnalyzeRequest};
use crate::engine::EngineError;
use crate::model::Kind;
use crate::session::{Action, Rules, Session};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The game of this kind.
pub fn of(kind: Kind) -> &'static dyn GameKind {
    match kind {
        Kind::Ringo => &ringo::Ringo,
        Kind::Urgammon => &urgammon::Urgammon,
    }
}

/// What the computer does now in a game: roll when it must roll, else its
/// level's decision. A raised `stop` ends a search early.
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
    let tokens = session.tokens.len();
    match &session.rules {
        Rules::Ringo(g) => ringo::engine_action(g, level, tokens, stop),
        Rules::Urgammon(m) => urgammon::engine_action(m, level, tokens),
    }
}

/// A finished game's review as the API's JSON (the CLI's): engine work, run
/// on the analysis pool or by an `agon worker`, calling `progress` as it
/// goes.
///
/// # Errors
/// The JSON could not be written.
pub fn review_json(rules: &Rules, progress: &dyn Fn(usize, usize)) -> Result<String, EngineError> {
    match rules {
        Rules::Ringo(g) => ringo::review_json(g, progress),
        Rules::Urgammon(m) => urgammon::review_json(m, progress),
    }
    .map_err(|e| EngineError::Internal(format!("review JSON: {e}")))
}

/// Checks an analysis request (its depth and position) before any engine
/// work.
///
/// # Errors
/// The request is not valid.
pub fn checked_analyze(req: &AnalyzeRequest) -> Result<(), EngineError> {
    analysis::depth(req)?;
    of(req.game).check_analysis(req)
}

/// The answer to an analysis request's body, as the API's JSON: engine
/// work, run on the analysis pool or by an `agon worker`.
///
/// # Errors
/// The request is not valid.
pub fn analyze_json(body: &[u8]) -> Result<String, EngineError> {
    let req: AnalyzeRequest = parse(body)?;
    let answer = of(req.game).analyze(&req, analysis::depth(&req)?)?;
    serde_json::to_string(&answer).map_err(|e| EngineError::Internal(format!("analysis JSON: {e}")))
}

/// Checks a rollout request (its games and position) before any engine
/// work.
///
/// # Errors
/// The request is not valid, or the position is over.
pub fn checked_rollout(req: &AnalyzeRequest) -> Result<(), EngineError> {
    analysis::rollout_games(req)?;
    of(req.game).check_rollout(req)
}

/// The answer to a rollout request's body, as the API's JSON: engine work.
///
/// # Errors
/// The request is not valid, or the position is over.
pub fn rollout_json(body: &[u8]) -> Result<String, EngineError> {
    let req: AnalyzeRequest = parse(body)?;
    of(req.game).rollout(&req, analysis::rollout_games(&req)?)
}
