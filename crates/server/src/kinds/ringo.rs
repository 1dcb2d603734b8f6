//! Ringo, for the server: the computer's reply by search, the review, a
//! record read for import.

use super::{decision_rng, GameKind, ImportError, Imported, SettingsFields, SettingsRefusal};
use crate::session::{Action, Rules};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

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

impl GameKind for Ringo {
    fn settings(&self, fields: &SettingsFields<'_>) -> Result<String, SettingsRefusal> {
        let rules: ringo::Rules = fields
            .rules
            .unwrap_or("classic")
            .parse()
            .map_err(|e: ringo::RulesError| SettingsRefusal::Rules(e.to_string()))?;
        Ok(rules.to_string())
    }

    fn engine_action(
        &self,
        rules: &Rules,
        level: agon_ai::Level,
        tokens: usize,
        stop: Arc<AtomicBool>,
    ) -> Option<Action> {
        let Rules::Ringo(g) = rules else { return None };
        ringo_reply(g, level, tokens, Some(stop)).map(Action::Move)
    }

    fn review_json(
        &self,
        rules: &Rules,
        progress: &dyn Fn(usize, usize),
    ) -> serde_json::Result<String> {
        let Rules::Ringo(g) = rules else {
            return Ok("null".into());
        };
        serde_json::to_string(
            &agon_ai::ringo::review::review(g, agon_ai::ringo::review::DEPTH, progress).to_json(),
        )
    }

    fn review_steps(&self, rules: &Rules) -> usize {
        match rules {
            Rules::Ringo(g) => g.ply(),
            Rules::Urgammon(_) => 0,
        }
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
            to_act: Some(game.position().to_move().index() as u8),
        })
    }

    fn turn_plies(&self, _tokens: &[String]) -> Option<Vec<usize>> {
        None
    }
}
