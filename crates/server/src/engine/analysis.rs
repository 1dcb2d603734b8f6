//! Any position's analysis and rollout, as the API's JSON: the analysis
//! board's `POST /api/analyze` and `POST /api/rollout`, computed on the web
//! app's pool or by an `agon worker` alike. A bad request is refused before
//! any engine work.

use super::{BadInput, EngineError};
use crate::model::Kind;
use agon_ai::urgammon::MatchContext;
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

/// The deepest Ringo search the board asks for, and its time cap.
const MAX_DEPTH: u32 = 12;
const MOVETIME_MS: u64 = 3_000;
/// The longest rollout the board asks for.
const MAX_ROLLOUT: usize = 5_000;

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

/// A position the engine reads: a Ringo game, or an Urgammon game with its
/// match and the level that analyses it.
pub enum Position {
    /// A Ringo game.
    Ringo(ringo::Game),
    /// An Urgammon game, its match (if any), and the analysing level.
    Urgammon(urgammon::Game, Option<MatchContext>, agon_ai::Level),
}

fn bad(input: BadInput, e: impl std::fmt::Display) -> EngineError {
    EngineError::BadRequest(input, e.to_string())
}

fn position(req: &AnalyzeRequest) -> Result<Position, EngineError> {
    match req.game {
        Kind::Ringo => {
            let rules: ringo::Rules = req
                .rules
                .as_deref()
                .unwrap_or("classic")
                .parse()
                .map_err(|e| bad(BadInput::Rules, e))?;
            let start = match req.position.as_deref() {
                Some(p) => ringo::Position::parse(p, &rules)
                    .map_err(|e| bad(BadInput::Record, format!("invalid position: {e}")))?,
                None => ringo::Position::start(&rules),
            };
            let mut game = ringo::Game::from_position(rules, start);
            for (i, m) in req
                .moves
                .as_deref()
                .unwrap_or("")
                .split_whitespace()
                .enumerate()
            {
                game.play_text(m)
                    .map_err(|e| bad(BadInput::Move, format!("move at index {i}: {e}")))?;
            }
            Ok(Position::Ringo(game))
        }
        Kind::Urgammon => {
            let start = match req.setup.as_deref() {
                Some(s) => urgammon::parse_setup(s)
                    .map_err(|e| bad(BadInput::Record, format!("invalid setup: {e}")))?,
                None => urgammon::State::new(),
            };
            let mut game = urgammon::Game::from_state(start);
            game.apply_all(req.record.as_deref().unwrap_or(""), 0)
                .map_err(|e| bad(BadInput::Record, e))?;
            let level = match req.level {
                None => agon_ai::Level::MAX,
                Some(n) => agon_ai::Level::try_from(n).map_err(|e| bad(BadInput::Level, e))?,
            };
            let ctx = match (req.to, req.score) {
                (None, _) => None,
                (Some(to), score) => {
                    let [l, d] = score.unwrap_or([0, 0]);
                    if !(1..=99).contains(&to) || l >= to || d >= to {
                        return Err(bad(
                            BadInput::MatchTarget,
                            "the match is 1 to 99 points, and neither score may have reached it",
                        ));
                    }
                    Some(MatchContext {
                        to,
                        score: (l, d),
                        draw: urgammon::DrawRule::Replay,
                    })
                }
            };
            Ok(Position::Urgammon(game, ctx, level))
        }
    }
}

/// Checks an analysis request: the depth and the position.
pub fn checked_analyze(req: &AnalyzeRequest) -> Result<(u32, Position), EngineError> {
    let depth = req.depth.unwrap_or(agon_ai::ringo::review::DEPTH);
    if !(1..=MAX_DEPTH).contains(&depth) {
        return Err(bad(
            BadInput::Number,
            format!("invalid depth {depth}: use 1 to {MAX_DEPTH}"),
        ));
    }
    Ok((depth, position(req)?))
}

/// The answer to an analysis request, as the API's JSON: engine work, run on
/// the engine pool or by an `agon worker`.
///
/// # Errors
/// The request is not valid.
pub fn analyze_json(body: &[u8]) -> Result<String, EngineError> {
    let req: AnalyzeRequest = parse(body)?;
    let kind = req.game;
    let (depth, pos) = checked_analyze(&req)?;
    let answer = match pos {
        Position::Ringo(game) => {
            let limit = agon_ai::ringo::report::AnalyzeLimit {
                depth: Some(depth),
                movetime: Some(MOVETIME_MS),
                ..Default::default()
            };
            AnalyzeAnswer {
                state: BoardView::Ringo(Box::new(RingoGame::of(&game))),
                game: kind,
                analysis: agon_ai::ringo::report::analyze_json(&game, limit)
                    .ok()
                    .map(EngineView::Ringo),
            }
        }
        Position::Urgammon(game, ctx, level) => {
            let over = game.is_over();
            AnalyzeAnswer {
                state: BoardView::Urgammon(Box::new(UrgammonBoard::of(&game))),
                game: kind,
                analysis: (!over).then(|| {
                    EngineView::Urgammon(Box::new(agon_ai::urgammon::report::analysis_json(
                        game.state(),
                        level,
                        ctx,
                    )))
                }),
            }
        }
    };
    serde_json::to_string(&answer).map_err(|e| EngineError::Internal(format!("analysis JSON: {e}")))
}

/// Checks a rollout request: the number of games and an Urgammon position.
pub fn checked_rollout(
    req: &AnalyzeRequest,
) -> Result<(usize, urgammon::State, Option<MatchContext>), EngineError> {
    let games = req.games.unwrap_or(500);
    if !(1..=MAX_ROLLOUT).contains(&games) {
        return Err(bad(
            BadInput::Number,
            format!("invalid games {games}: use 1 to {MAX_ROLLOUT}"),
        ));
    }
    let Position::Urgammon(game, ctx, _) = position(req)? else {
        return Err(bad(
            BadInput::Game,
            "a rollout is for Urgammon: Ringo has no dice",
        ));
    };
    if game.is_over() {
        return Err(EngineError::GameOver(
            "the game is over: nothing to roll out".into(),
        ));
    }
    Ok((games, *game.state(), ctx))
}

/// The answer to a rollout request, as the API's JSON: engine work.
///
/// # Errors
/// The request is not valid, or the position is over.
pub fn rollout_json(body: &[u8]) -> Result<String, EngineError> {
    let req: AnalyzeRequest = parse(body)?;
    let (games, state, ctx) = checked_rollout(&req)?;
    let json = agon_ai::urgammon::report::rollout_json(
        &state,
        games,
        agon_ai::Level::new(8),
        ctx,
        1,
        1,
        &|_| {},
    )
    .map_err(EngineError::GameOver)?;
    serde_json::to_string(&json).map_err(|e| EngineError::Internal(format!("rollout JSON: {e}")))
}
