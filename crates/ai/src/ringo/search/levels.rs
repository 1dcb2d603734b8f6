//! The playing levels: a depth, a time, and noise in the scores of the root
//! moves, from 1 (beginner) to 10 (full strength).

use super::{Limits, Reading, Report, Searcher};
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
    let limits = Limits {
        stop,
        ..Limits::default()
    };
    level_play(searcher, game, level, seed, limits).best
}

/// How a level chose its move, for callers that show the work behind it
/// (`agon engine`'s `go level L`).
#[derive(Clone, Debug)]
pub struct LevelPlay {
    /// The move (`None` only when the game is over).
    pub best: Option<Move>,
    /// The search behind the move: the plain search's report, or at the noisy
    /// levels the chosen move's own score (without the noise) and no further
    /// line; `None` when level 10 played against its model of a fallible
    /// opponent (its move is then not one search's best).
    pub report: Option<Report>,
    /// What level 10 read of its opponent before it moved (`None` below 10).
    pub reading: Option<Reading>,
}

/// The move a level plays and how it chose it: the level's noise (levels
/// 1–6), its depth or time, and at level 10 the reading of the opponent
/// ([`Searcher::read_opponent`]). A depth, node count or time in `limits`
/// replaces the level's own (the noisy levels score every move to the depth
/// and take no other limit); `limits.stop` ends a search early.
pub fn level_play(
    searcher: &mut Searcher,
    game: &Game,
    level: crate::Level,
    seed: u64,
    limits: Limits,
) -> LevelPlay {
    let spec = level_spec(level);
    let limits = Limits {
        depth: limits.depth.or(spec.depth),
        movetime: limits.movetime.or(spec.movetime),
        ..limits
    };
    if spec.noise > 0 {
        let started = std::time::Instant::now();
        let nodes = searcher.nodes();
        let depth = limits.depth.unwrap_or(1);
        let mut rng = crate::Rng::new(seed);
        let chosen = searcher
            .score_root_moves(game, depth)
            .into_iter()
            .map(|(m, s)| {
                let noisy = s + rng.below(2 * spec.noise as usize + 1) as i32 - spec.noise;
                (m, s, noisy)
            })
            .max_by_key(|&(_, _, noisy)| noisy);
        let report = chosen.map(|(m, score, _)| Report {
            best: Some(m),
            score,
            proven: None,
            pv: vec![m],
            depth,
            nodes: searcher.nodes().saturating_sub(nodes),
            elapsed: started.elapsed(),
        });
        return LevelPlay {
            best: chosen.map(|(m, _, _)| m),
            report,
            reading: None,
        };
    }
    let mut reading = None;
    if spec.movetime.is_some() {
        // Full strength reads its opponent first (`fallible`): against one
        // who plays like a one-move-lookahead player it plays for the likely
        // reply, not only the best one.
        let started = std::time::Instant::now();
        let read = searcher.read_opponent(game);
        let ms = started.elapsed().as_secs_f64() * 1e3;
        tracing::debug!(ply = game.ply(), ?read, ms, "opponent read");
        reading = Some(read);
        if read.fallible() {
            return LevelPlay {
                best: searcher.play_fallible(game, limits),
                report: None,
                reading,
            };
        }
    }
    let report = searcher.search_game(game, limits);
    LevelPlay {
        best: report.best,
        report: Some(report),
        reading,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ringo::eval::WEIGHTS;
    use crate::Level;

    fn searcher(game: &Game) -> Searcher {
        Searcher::with_weights(*game.rules(), WEIGHTS, 1 << 16)
    }

    #[test]
    fn a_noisy_level_reports_its_choice_without_the_noise() {
        let game = Game::new(ringo::Rules::default());
        let scores = searcher(&game).score_root_moves(&game, 1);
        let mut chosen = Vec::new();
        for seed in 0..8 {
            let play = level_play(
                &mut searcher(&game),
                &game,
                Level::new(2),
                seed,
                Limits::default(),
            );
            let best = play.best.unwrap();
            let report = play.report.unwrap();
            assert_eq!(report.pv, vec![best]);
            assert_eq!(report.depth, 1);
            let own = scores.iter().find(|&&(m, _)| m == best).unwrap().1;
            assert_eq!(report.score, own, "the score without the noise");
            assert!(play.reading.is_none(), "only level 10 reads");
            let moved = level_move(&mut searcher(&game), &game, Level::new(2), seed, None);
            assert_eq!(moved, Some(best), "level_move plays the same move");
            chosen.push(best);
        }
        chosen.dedup();
        assert!(chosen.len() > 1, "the noise varies the move: {chosen:?}");
    }

    #[test]
    fn level_10_reads_then_searches_to_a_given_depth() {
        let game = Game::new(ringo::Rules::default());
        let limits = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        let play = level_play(&mut searcher(&game), &game, Level::new(10), 0, limits);
        let reading = play.reading.unwrap();
        assert_eq!(reading.moves, 0, "no opponent move to read yet");
        assert!(!reading.fallible());
        let report = play.report.unwrap();
        assert_eq!(report.best, play.best);
        assert_eq!(report.depth, 2, "the given depth replaces the level's time");
    }
}
