//! Ringo, for the server: the computer's reply by search, the review, a
//! record read for import.

use super::kind::{decision_rng, GameKind, ImportError, Imported, SettingsFields, SettingsRefusal};
use crate::engine::analysis::{
    bad, AnalyzeAnswer, AnalyzeRequest, BoardView, EngineView, MOVETIME_MS,
};
use crate::engine::{BadInput, EngineError};
use crate::model::Kind;
use crate::session::Action;
use agon_views::RingoGame;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The Rules lab's most even set (the set closest to even among those the
/// lab played again and found balanced).
pub const EVEN_RULES: &str = "classic,rings=5,slide=on";

/// Ringo.
pub(super) struct Ringo;

/// The engine's Ringo reply at `level` in `game`, whose record has `tokens`
/// moves, in notation. A raised `stop` ends the search early.
pub fn ringo_reply(
    game: &ringo::Game,
    level: agon_ai::Level,
    tokens: usize,
    stop: Option<Arc<AtomicBool>>,
) -> Option<String> {
    // A 4 MB table per move keeps many concurrent games cheap.
    let mut searcher = agon_ai::ringo::search::Searcher::with_weights(
        *game.rules(),
        agon_ai::ringo::eval::WEIGHTS,
        1 << 18,
    );
    let seed = decision_rng(tokens, level).next_u64();
    let m = agon_ai::ringo::search::level_move(&mut searcher, game, level, seed, stop)?;
    Some(m.to_notation(&game.legal_moves()))
}

/// The Ringo game an analysis request names: its rules, start and moves.
fn analysis_game(req: &AnalyzeRequest) -> Result<ringo::Game, EngineError> {
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
    Ok(game)
}

impl GameKind for Ringo {
    fn check_analysis(&self, req: &AnalyzeRequest) -> Result<(), EngineError> {
        analysis_game(req).map(|_| ())
    }

    fn analyze(&self, req: &AnalyzeRequest, depth: u32) -> Result<AnalyzeAnswer, EngineError> {
        let game = analysis_game(req)?;
        let limit = agon_ai::ringo::report::AnalyzeLimit {
            depth: Some(depth),
            movetime: Some(MOVETIME_MS),
            ..Default::default()
        };
        Ok(AnalyzeAnswer {
            state: BoardView::Ringo(Box::new(RingoGame::of(&game))),
            game: Kind::Ringo,
            analysis: agon_ai::ringo::report::analyze_json(&game, limit)
                .ok()
                .map(EngineView::Ringo),
        })
    }

    fn check_rollout(&self, req: &AnalyzeRequest) -> Result<(), EngineError> {
        analysis_game(req)?;
        Err(bad(
            BadInput::Game,
            "a rollout is for Urgammon: Ringo has no dice",
        ))
    }

    fn rollout(&self, req: &AnalyzeRequest, _games: usize) -> Result<String, EngineError> {
        self.check_rollout(req).map(|()| String::new())
    }

    fn settings(&self, fields: &SettingsFields<'_>) -> Result<String, SettingsRefusal> {
        let rules: ringo::Rules = fields
            .rules
            .unwrap_or("classic")
            .parse()
            .map_err(|e: ringo::RulesError| SettingsRefusal::Rules(e.to_string()))?;
        Ok(rules.to_string())
    }

    fn import(&self, text: &str) -> Result<Imported, ImportError> {
        let game = ringo::Game::parse_record(text).map_err(|e| ImportError {
            message: e.to_string(),
            at: match &e {
                ringo::RecordError::Move { index, text, .. } => Some((*index, text.clone())),
                _ => None,
            },
        })?;
        let rules = *game.rules();
        let start = (*game.start_position() != ringo::Position::start(&rules))
            .then(|| game.start_position().to_text(rules.rings));
        Ok(Imported {
            settings: rules.to_string(),
            start,
            tokens: game.move_notations(),
            to_act: Some(game.position().to_move().into()),
        })
    }

    fn turn_plies(&self, _tokens: &[String]) -> Option<Vec<usize>> {
        None
    }

    /// The attackers move first (rules §2).
    fn first_mover(&self, _tokens: &[String]) -> Option<crate::model::Seat> {
        crate::model::Kind::Ringo.seat_of("attackers")
    }

    /// A Ringo round is a pair of games with the seats swapped: its seats
    /// are no colours to balance.
    fn seats_are_colours(&self) -> bool {
        false
    }

    fn engine_measure(&self, review: &str, side: &str) -> Option<f64> {
        let v: serde_json::Value = serde_json::from_str(review).ok()?;
        let moves = v["plies"]
            .as_array()?
            .iter()
            .filter(|p| p["side"] == side)
            .count();
        let accuracy = v["accuracy"][side].as_f64()?;
        (moves >= super::kind::ACCURACY_MIN_MOVES && accuracy >= ENGINE_ACCURACY)
            .then_some(accuracy)
    }

    /// Attackers and defenders are unequal sides: each player takes both.
    fn plays_pairs(&self) -> bool {
        true
    }

    fn match_target(&self, _settings: &str) -> Option<u32> {
        None
    }

    fn rating_weight(&self, _settings: &str) -> usize {
        1
    }

    fn title(&self) -> &'static str {
        "Ringo"
    }

    fn even_rules(&self) -> Option<&'static str> {
        Some(EVEN_RULES)
    }

    fn measure_name(&self) -> &'static str {
        "accuracy"
    }
}

/// A side's accuracy in a game (the review's mean per-move accuracy, 0–100)
/// at least this is the engine's own.
pub const ENGINE_ACCURACY: f64 = 97.0;

/// The computer's move in a Ringo game at `level`; a raised `stop` ends the
/// search early.
pub(super) fn engine_action(
    g: &ringo::Game,
    level: agon_ai::Level,
    tokens: usize,
    stop: Arc<AtomicBool>,
) -> Option<Action> {
    ringo_reply(g, level, tokens, Some(stop)).map(Action::Move)
}

/// A finished Ringo game's review as the API's JSON.
pub(super) fn review_json(
    g: &ringo::Game,
    progress: &dyn Fn(usize, usize),
) -> serde_json::Result<String> {
    serde_json::to_string(
        &agon_ai::ringo::review::review(g, agon_ai::ringo::review::DEPTH, progress).to_json(),
    )
}
