//! The computer's work, below the web layer and the same for the web app
//! and `agon worker`: its decision in a game (`engine_action`), an
//! analysis or a rollout of any position (`analysis`), and a finished
//! game's review (`review`). Each returns typed results or an
//! [`EngineError`]; where the work runs (a pool, a worker) is the games
//! service's business.

pub mod analysis;
pub mod review;

use crate::session::{Action, Rules, Session};
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

/// The seeded generator of the engine's decision after `tokens` record
/// tokens at `level`: the same game and level always give the same decision
/// (levels 1–9), so replies can be checked.
fn decision_rng(tokens: usize, level: agon_ai::Level) -> agon_ai::Rng {
    agon_ai::Rng::new(tokens as u64 ^ 0x5eed_a90e ^ (u64::from(level.get()) << 32))
}

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
    match &session.rules {
        Rules::Ringo(g) => {
            ringo_reply(g, level, session.tokens.len(), Some(stop)).map(Action::Move)
        }
        Rules::Urgammon(m) => {
            let state = m.current().state();
            if state.phase() == urgammon::Phase::Roll {
                return Some(Action::Roll);
            }
            let side = state.to_act()?;
            // Decisions maximise the chance to win the match at its score.
            let payoff = agon_ai::urgammon::MatchContext::of(m).payoff();
            let spec = agon_ai::urgammon::level_spec(level);
            let mut rng = decision_rng(session.tokens.len(), level);
            match agon_ai::urgammon::decide(state, spec, payoff, &mut rng)? {
                agon_ai::urgammon::player::Decision::Verdict => Some(Action::Verdict),
                agon_ai::urgammon::player::Decision::Move(mv) => {
                    Some(Action::Move(mv.notation(side)))
                }
            }
        }
    }
}
