//! Game review for Ringo: every ply searched at one fixed depth (so a review
//! is reproducible), the played move's loss against the best, a grade, the
//! proven results, each side's accuracy and the key moments.
//!
//! # Win chance, loss and grades
//! A score `s` (about 100 per attacker, from the mover's side) is read as a
//! win chance `w(s) = 1 / (1 + e^(−s / 200))`: two attackers up is about
//! 73%; a proven win is 1 and a proven loss 0. A move's **loss** is the drop
//! in the mover's win chance from the best move to the played one, in
//! percentage points (0 when the played move is the best). Grades by loss:
//! best (the engine's move, or no loss), excellent (< 2), good (< 5),
//! inaccuracy (< 10), mistake (< 20), blunder (≥ 20); docs/review.md gives
//! the distribution they were chosen from.
//!
//! # Accuracy
//! Per move `103.1668 · e^(−0.04354 · loss) − 3.1669`, clamped to 0–100 (the
//! curve lichess publishes: 100 for no loss, about 65 for a 10-point loss),
//! and a side's accuracy is the mean over its moves.

pub use crate::review::Grade;
use crate::ringo::search::{params::MATE_BAND, Limits, Searcher};
use ringo::{Game, Move, Side};

/// The default search depth of a review.
pub const DEPTH: u32 = 8;

/// Ringo's grade thresholds: losses in win-chance points.
pub const THRESHOLDS: [f64; 4] = [2.0, 5.0, 10.0, 20.0];

/// The mover's win chance, 0–1, of a score from the mover's side.
pub fn win_chance(score: i32) -> f64 {
    if score >= MATE_BAND {
        1.0
    } else if score <= -MATE_BAND {
        0.0
    } else {
        1.0 / (1.0 + (-f64::from(score) / 200.0).exp())
    }
}

/// A move's accuracy, 0–100, from its loss in win-chance points.
pub fn accuracy(loss: f64) -> f64 {
    (103.1668 * (-0.04354 * loss.max(0.0)).exp() - 3.1669).clamp(0.0, 100.0)
}

/// A result proven after a move: who wins, and in how many plies from the
/// position after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProvenAfter {
    /// The winner.
    pub winner: Side,
    /// Plies from the position after the move.
    pub plies: u32,
}

/// One reviewed ply.
#[derive(Clone, Debug, PartialEq)]
pub struct Ply {
    /// The ply's number, from 0.
    pub ply: usize,
    /// Who moved.
    pub side: Side,
    /// The move played.
    pub played: Move,
    /// The engine's move.
    pub best: Move,
    /// The best move's score for the mover.
    pub best_score: i32,
    /// The played move's score for the mover.
    pub score: i32,
    /// The mover's win chance after the best move, 0–1.
    pub best_win: f64,
    /// The mover's win chance after the played move, 0–1.
    pub win: f64,
    /// The loss in win-chance points (0–100).
    pub loss: f64,
    /// The grade.
    pub grade: Grade,
    /// A result the search proved after the played move.
    pub proven: Option<ProvenAfter>,
}

/// A whole game's review.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// Every ply.
    pub plies: Vec<Ply>,
    /// The depth searched.
    pub depth: u32,
}

impl Review {
    /// A side's accuracy (mean per-move accuracy), or `None` if it never moved.
    pub fn accuracy(&self, side: Side) -> Option<f64> {
        let moves: Vec<f64> = self
            .plies
            .iter()
            .filter(|p| p.side == side)
            .map(|p| accuracy(p.loss))
            .collect();
        (!moves.is_empty()).then(|| moves.iter().sum::<f64>() / moves.len() as f64)
    }

    /// A side's mean loss per move, in win-chance points.
    pub fn mean_loss(&self, side: Side) -> Option<f64> {
        let losses: Vec<f64> = self
            .plies
            .iter()
            .filter(|p| p.side == side)
            .map(|p| p.loss)
            .collect();
        (!losses.is_empty()).then(|| losses.iter().sum::<f64>() / losses.len() as f64)
    }

    /// The key moments: up to `n` plies with the largest losses (at least
    /// an inaccuracy), in game order.
    pub fn key_moments(&self, n: usize) -> Vec<usize> {
        let mut big: Vec<&Ply> = self.plies.iter().filter(|p| p.loss >= 5.0).collect();
        big.sort_by(|a, b| b.loss.total_cmp(&a.loss));
        let mut key: Vec<usize> = big.iter().take(n).map(|p| p.ply).collect();
        key.sort_unstable();
        key
    }
}

/// Searches `game`'s position to `depth` with fresh tables (so every ply's
/// result depends on the position alone).
fn search(searcher: &mut Searcher, game: &Game, depth: u32) -> crate::ringo::Report {
    searcher.clear();
    searcher.search_game(
        game,
        Limits {
            depth: Some(depth),
            ..Limits::default()
        },
    )
}

/// Reviews the moves of `game` from its start position at `depth`; calls
/// `progress(done, total)` after each ply.
pub fn review(game: &Game, depth: u32, progress: &dyn Fn(usize, usize)) -> Review {
    let rules = *game.rules();
    let moves = game.moves();
    let mut replay = Game::from_position(rules, *game.start_position());
    let mut searcher = Searcher::with_weights(rules, crate::ringo::eval::WEIGHTS, 1 << 18);
    let mut plies = Vec::with_capacity(moves.len());
    let depth = depth.max(1);
    for (i, &played) in moves.iter().enumerate() {
        let side = replay.position().to_move();
        let root = search(&mut searcher, &replay, depth);
        let best = root.best.unwrap_or(played);
        let mut after = replay.clone();
        after.play_unchecked(played);
        // The played move's score: the reply's search, from the mover's side.
        let (score, proven) = if after.is_over() {
            let won = after.outcome().and_then(|o| o.winner);
            let s = match won {
                Some(w) if w == side => crate::ringo::search::params::MATE - 1,
                Some(_) => -(crate::ringo::search::params::MATE - 1),
                None => 0,
            };
            (s, won.map(|winner| ProvenAfter { winner, plies: 0 }))
        } else if played == best {
            let after_proven = root.proven.map(|p| ProvenAfter {
                winner: p.winner,
                plies: p.plies.saturating_sub(1),
            });
            (root.score, after_proven)
        } else {
            let reply = search(&mut searcher, &after, depth.saturating_sub(1).max(1));
            (
                -reply.score,
                reply.proven.map(|p| ProvenAfter {
                    winner: p.winner,
                    plies: p.plies,
                }),
            )
        };
        let best_score = root.score.max(score);
        let (best_win, win) = (win_chance(best_score), win_chance(score));
        let is_best = played == best || score >= best_score;
        let loss = if is_best {
            0.0
        } else {
            (100.0 * (best_win - win)).max(0.0)
        };
        plies.push(Ply {
            ply: i,
            side,
            played,
            best,
            best_score,
            score,
            best_win,
            win,
            loss,
            grade: Grade::of(loss, is_best, THRESHOLDS),
            proven,
        });
        replay.play_unchecked(played);
        progress(i + 1, moves.len());
    }
    Review { plies, depth }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engines_own_line_is_graded_best_and_grades_follow_the_thresholds() {
        // The engine's line is graded best throughout.
        let mut game = Game::new(ringo::Rules::default());
        let mut searcher = Searcher::new(*game.rules());
        for _ in 0..6 {
            let r = search(&mut searcher, &game, 4);
            game.play_unchecked(r.best.unwrap());
        }
        let review = review(&game, 4, &|_, _| {});
        assert_eq!(review.plies.len(), 6);
        assert!(
            review
                .plies
                .iter()
                .all(|p| p.loss == 0.0 && p.grade == Grade::Best),
            "{review:?}"
        );
        assert_eq!(
            review.accuracy(Side::Attackers).map(f64::round),
            Some(100.0)
        );
        // Grades follow the thresholds.
        assert_eq!(Grade::of(0.0, false, THRESHOLDS), Grade::Best);
        assert_eq!(Grade::of(1.9, false, THRESHOLDS), Grade::Excellent);
        assert_eq!(Grade::of(25.0, false, THRESHOLDS), Grade::Blunder);
        assert!((accuracy(0.0) - 100.0).abs() < 0.01);
        assert!(accuracy(10.0) < 70.0 && accuracy(10.0) > 60.0);
    }

    #[test]
    fn progress_counts_every_ply() {
        let game = Game::parse_record("classic b6-b5 b1-b2 c6-c5").unwrap();
        let seen = std::sync::Mutex::new(vec![]);
        let review = review(&game, 3, &|done, total| {
            seen.lock().unwrap().push((done, total))
        });
        assert_eq!(review.plies.len(), 3);
        assert_eq!(*seen.lock().unwrap(), vec![(1, 3), (2, 3), (3, 3)]);
        assert_eq!(review.plies[1].side, Side::Defenders);
    }
}
