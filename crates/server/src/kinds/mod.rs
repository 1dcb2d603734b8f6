//! One place per game: what the server needs of a game that its rules crate
//! and the session do not already say, behind [`GameKind`]. A third game is
//! one implementation of it (a file beside `ringo.rs` and `urgammon.rs`) and
//! one line in [`of`], besides its `Kind` variant, its session rules
//! (`session::GameRules`, registered in `session::rules_for`) and the page's registry
//! (`static/js/games.js`).

mod ringo;
mod urgammon;

pub use ringo::ringo_reply;

use crate::engine::analysis::{self, parse, AnalyzeAnswer, AnalyzeRequest};
use crate::engine::EngineError;
use crate::model::Kind;
use crate::session::{Action, Rules, Session};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A record read for import: what the new game is, and where it stands.
pub struct Imported {
    /// The settings text (a Ringo rules string, an Urgammon match header).
    pub settings: String,
    /// A start position other than the rules' own, as text.
    pub start: Option<String>,
    /// The record's tokens.
    pub tokens: Vec<String>,
    /// The seat to act at the record's end, if any.
    pub to_act: Option<crate::model::Seat>,
}

/// Why a record cannot be imported: the English words, and where (the
/// token's index and text) when one token is to blame.
pub struct ImportError {
    /// What is wrong.
    pub message: String,
    /// Which token, from 0, and its text.
    pub at: Option<(usize, String)>,
}

/// A new game's settings as a creation request gives them, the fields of
/// both games read already (each game takes its own).
pub struct SettingsFields<'a> {
    /// Ringo: the rules string (default `classic`).
    pub rules: Option<&'a str>,
    /// Urgammon: the match target, checked to be a whole number 1 to 99.
    pub to: u32,
    /// Urgammon: what a drawn game does.
    pub draw: Option<&'a str>,
    /// Urgammon: the stake per point, as written.
    pub stake: Option<&'a str>,
}

/// Why a new game's settings are refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingsRefusal {
    /// The rules string.
    #[error("{0}")]
    Rules(String),
    /// A match setting (the draw rule).
    #[error("{0}")]
    Match(String),
    /// The stake.
    #[error("{0}")]
    Stake(String),
}

/// What the server needs of one game.
pub trait GameKind: Sync {
    /// A new game's settings text (a Ringo rules string, an Urgammon match
    /// header) from a creation request's fields.
    ///
    /// # Errors
    /// A field is not valid for this game.
    fn settings(&self, fields: &SettingsFields<'_>) -> Result<String, SettingsRefusal>;

    /// A record's text (its resignation already split off) as a game to
    /// import.
    ///
    /// # Errors
    /// The record cannot be read.
    fn import(&self, text: &str) -> Result<Imported, ImportError>;

    /// Checks an analysis request's position without analysing it, so a bad
    /// request is refused before any engine work is queued.
    ///
    /// # Errors
    /// The position cannot be read.
    fn check_analysis(&self, req: &AnalyzeRequest) -> Result<(), EngineError>;

    /// The analysis board's answer for a request's position, searched to
    /// `depth` where the game searches.
    ///
    /// # Errors
    /// The position cannot be read.
    fn analyze(&self, req: &AnalyzeRequest, depth: u32) -> Result<AnalyzeAnswer, EngineError>;

    /// Checks a rollout request's position without rolling it out.
    ///
    /// # Errors
    /// The position cannot be read, is over, or the game has no rollouts.
    fn check_rollout(&self, req: &AnalyzeRequest) -> Result<(), EngineError>;

    /// A rollout of `games` games from a request's position, as JSON.
    ///
    /// # Errors
    /// As for [`GameKind::check_rollout`].
    fn rollout(&self, req: &AnalyzeRequest, games: usize) -> Result<String, EngineError>;

    /// The plies at which a replay stops when it steps a turn at a time,
    /// for a game whose record counts more than one token a turn; `None`
    /// when every token is a turn.
    fn turn_plies(&self, tokens: &[String]) -> Option<Vec<usize>>;
}

/// The game of this kind.
pub fn of(kind: Kind) -> &'static dyn GameKind {
    match kind {
        Kind::Ringo => &ringo::Ringo,
        Kind::Urgammon => &urgammon::Urgammon,
    }
}

/// The seeded generator of the engine's decision after `tokens` record
/// tokens at `level`: the same game and level always give the same decision
/// (levels 1–9), so replies can be checked.
fn decision_rng(tokens: usize, level: agon_ai::Level) -> agon_ai::Rng {
    agon_ai::Rng::new(tokens as u64 ^ 0x5eed_a90e ^ (u64::from(level.get()) << 32))
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
