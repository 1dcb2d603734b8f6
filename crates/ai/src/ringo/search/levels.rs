//! The playing levels: a depth, a time, and noise in the scores of the root
//! moves, from 1 (beginner) to 10 (full strength).

use super::{Limits, Searcher};
use ringo::{Game, Move};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// A playing level, 1 (beginner) to 10 (full strength under a time limit).
#[derive(Clone, Copy, Debug)]
pub struct LevelSpec {
    /// Search depth (levels 1–9).
    pub depth: Option<u32>,
    /// Time per move (level 10).
    pub movetime: Option<Duration>,
    /// Random noise added to root scores, in evaluation units.
    pub noise: i32,
}

/// The search settings of a level.
pub fn level_spec(level: crate::Level) -> LevelSpec {
    let (depth, movetime, noise) = match level.get() {
        1 => (Some(1), None, 1500),
        2 => (Some(1), None, 600),
        3 => (Some(1), None, 250),
        4 => (Some(1), None, 80),
        5 => (Some(2), None, 50),
        6 => (Some(3), None, 20),
        7 => (Some(4), None, 0),
        8 => (Some(5), None, 0),
        9 => (Some(7), None, 0),
        _ => (None, Some(Duration::from_millis(1000)), 0),
    };
    LevelSpec {
        depth,
        movetime,
        noise,
    }
}

/// The move a level plays. Deterministic for a given seed at levels 1–9.
pub fn level_move(
    searcher: &mut Searcher,
    game: &Game,
    level: crate::Level,
    seed: u64,
    stop: Option<Arc<AtomicBool>>,
) -> Option<Move> {
    let spec = level_spec(level);
    if spec.noise > 0 {
        let mut rng = crate::Rng::new(seed);
        let scored = searcher.score_root_moves(game, spec.depth.unwrap_or(1));
        return scored
            .into_iter()
            .map(|(m, s)| {
                (
                    m,
                    s + rng.below(2 * spec.noise as usize + 1) as i32 - spec.noise,
                )
            })
            .max_by_key(|&(_, s)| s)
            .map(|(m, _)| m);
    }
    let limits = Limits {
        depth: spec.depth,
        nodes: None,
        movetime: spec.movetime,
        stop,
    };
    if spec.movetime.is_some() {
        // Full strength reads its opponent first (`fallible`): against one
        // who plays like a one-move-lookahead player it plays for the likely
        // reply, not only the best one.
        let started = std::time::Instant::now();
        let reading = searcher.read_opponent(game);
        let ms = started.elapsed().as_secs_f64() * 1e3;
        tracing::debug!(ply = game.ply(), ?reading, ms, "opponent read");
        if reading.fallible() {
            return searcher.play_fallible(game, limits);
        }
    }
    searcher.search_game(game, limits).best
}
