//! The analysis board's request and answer (`POST /api/analyze`, `POST
//! /api/rollout`) and the checks every game's analysis shares; each game
//! reads its own position and computes its own answer (`crate::kinds`).

use super::{BadInput, EngineError};
use crate::model::Kind;
use agon_views::{RingoGame, UrgammonBoard};
use serde::{Deserialize, Serialize};

/// A request's body read as JSON of its shape.
///
/// # Errors
/// Not JSON, or not of the shape.
pub fn parse<T: for<'de> Deserialize<'de>>(body: &[u8]) -> Result<T, EngineError> {
    serde_json::from_slice(body)
        .map_err(|e| EngineError::BadRequest(BadInput::Json, format!("invalid JSON: {e}")))
}

/// The deepest Ringo search the board asks for.
pub const MAX_DEPTH: u32 = 12;
/// A Ringo analysis's time cap, in milliseconds.
pub const MOVETIME_MS: u64 = 3_000;
/// The longest rollout the board asks for.
pub const MAX_ROLLOUT: usize = 5_000;

/// What to analyse.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeRequest {
    /// `ringo` or `urgammon`.
    pub game: Kind,
    /// Ringo: the rules (default `classic`).
    #[serde(default)]
    pub rules: Option<String>,
    /// Ringo: a start position (notation); default the rules' start.
    #[serde(default)]
    pub position: Option<String>,
    /// Ringo: moves from there, separated by spaces.
    #[serde(default)]
    pub moves: Option<String>,
    /// Ringo: the search depth (1–12, default 8).
    #[serde(default)]
    pub depth: Option<u32>,
    /// Urgammon: a set-up position (`light=2a:P dark=8:H roll=dark`);
    /// default the opening.
    #[serde(default)]
    pub setup: Option<String>,
    /// Urgammon: the tokens from there, separated by spaces.
    #[serde(default)]
    pub record: Option<String>,
    /// Urgammon: the level that analyses (1–10, default 10).
    #[serde(default)]
    pub level: Option<u8>,
    /// Urgammon: a match to this many points (else points are the objective).
    #[serde(default)]
    pub to: Option<u32>,
    /// Urgammon: the match score, light's then dark's.
    #[serde(default)]
    pub score: Option<[u32; 2]>,
    /// Rollout: games to play out (1–5000, default 500).
    #[serde(default)]
    pub games: Option<usize>,
}

/// The board's view of the position, whichever game.
#[derive(Serialize)]
#[serde(untagged)]
pub enum BoardView {
    /// Ringo.
    Ringo(Box<RingoGame>),
    /// Urgammon.
    Urgammon(Box<UrgammonBoard>),
}

/// The engine's view, whichever game.
#[derive(Serialize)]
#[serde(untagged)]
pub enum EngineView {
    /// Ringo: `agon ringo analyze`'s object.
    Ringo(agon_ai::ringo::report::AnalysisJson),
    /// Urgammon: `agon urgammon analyze`'s object.
    Urgammon(Box<agon_ai::urgammon::report::AnalysisJson>),
}

/// `POST /api/analyze`'s answer.
#[derive(Serialize)]
pub struct AnalyzeAnswer {
    /// The position as a board draws it (with `game`).
    pub state: BoardView,
    /// `ringo` or `urgammon`.
    pub game: Kind,
    /// The engine's analysis (null once the game is over).
    pub analysis: Option<EngineView>,
}

/// A refused request's error.
pub fn bad(input: BadInput, e: impl std::fmt::Display) -> EngineError {
    EngineError::BadRequest(input, e.to_string())
}

/// The search depth an analysis asks for (1–12, the review's by default).
///
/// # Errors
/// Out of range.
pub fn depth(req: &AnalyzeRequest) -> Result<u32, EngineError> {
    let depth = req.depth.unwrap_or(agon_ai::ringo::review::DEPTH);
    if !(1..=MAX_DEPTH).contains(&depth) {
        return Err(bad(
            BadInput::Number,
            format!("invalid depth {depth}: use 1 to {MAX_DEPTH}"),
        ));
    }
    Ok(depth)
}

/// The games a rollout asks for (1–5000, 500 by default).
///
/// # Errors
/// Out of range.
pub fn rollout_games(req: &AnalyzeRequest) -> Result<usize, EngineError> {
    let games = req.games.unwrap_or(500);
    if !(1..=MAX_ROLLOUT).contains(&games) {
        return Err(bad(
            BadInput::Number,
            format!("invalid games {games}: use 1 to {MAX_ROLLOUT}"),
        ));
    }
    Ok(games)
}
