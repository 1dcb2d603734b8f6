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
    /// Its notation.
    pub played_text: String,
    /// The engine's move.
    pub best: Move,
    /// Its notation.
    pub best_text: String,
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

/// A ply as JSON (`agon ringo review` and `GET /api/games/{id}/review`).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PlyJson {
    /// The ply's number, from 0.
    pub ply: usize,
    /// `attackers` or `defenders`.
    pub side: &'static str,
    /// The move played.
    pub played: String,
    /// The engine's move.
    pub best: String,
    /// The played move's score for the mover.
    pub score: i32,
    /// The best move's score for the mover.
    pub best_score: i32,
    /// The mover's win chance after the played move, 0–1.
    pub win: f64,
    /// The loss in win-chance points, 0–100.
    pub loss: f64,
    /// The grade.
    pub grade: Grade,
    /// `?!`, `?`, `??` or empty.
    pub symbol: &'static str,
    /// A result proven after the move: `{"winner", "plies"}`.
    pub proven: Option<ProvenJson>,
}

/// A proven result as JSON.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct ProvenJson {
    /// `attackers` or `defenders`.
    pub winner: &'static str,
    /// Plies from the position after the move.
    pub plies: u32,
}

/// Both sides' numbers.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct PerSide {
    /// The attackers'.
    pub attackers: Option<f64>,
    /// The defenders'.
    pub defenders: Option<f64>,
}

/// A review as JSON.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ReviewJson {
    /// Always `ringo`.
    pub game: &'static str,
    /// The depth searched.
    pub depth: u32,
    /// Every ply.
    pub plies: Vec<PlyJson>,
    /// Each side's accuracy, 0–100.
    pub accuracy: PerSide,
    /// Each side's mean loss per move, in win-chance points.
    pub mean_loss: PerSide,
    /// The key moments: plies with the largest losses.
    pub key: Vec<usize>,
}

impl Review {
    /// The review as JSON.
    pub fn to_json(&self) -> ReviewJson {
        let round = |x: f64| (x * 100.0).round() / 100.0;
        let per_side = |f: &dyn Fn(Side) -> Option<f64>| PerSide {
            attackers: f(Side::Attackers).map(round),
            defenders: f(Side::Defenders).map(round),
        };
        ReviewJson {
            game: "ringo",
            depth: self.depth,
            plies: self
                .plies
                .iter()
                .map(|p| PlyJson {
                    ply: p.ply,
                    side: p.side.name(),
                    played: p.played_text.clone(),
                    best: p.best_text.clone(),
                    score: p.score,
                    best_score: p.best_score,
                    win: crate::stats::round4(p.win),
                    loss: round(p.loss),
                    grade: p.grade,
                    symbol: p.grade.symbol(),
                    proven: p.proven.map(|q| ProvenJson {
                        winner: q.winner.name(),
                        plies: q.plies,
                    }),
                })
                .collect(),
            accuracy: per_side(&|s| self.accuracy(s)),
            mean_loss: per_side(&|s| self.mean_loss(s)),
            key: self.key_moments(5),
        }
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
        let legal = replay.legal_moves();
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
            played_text: played.to_notation(legal.as_slice()),
            best,
            best_text: best.to_notation(legal.as_slice()),
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

/// One player's numbers over a study's reviewed games.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct PlayerStudy {
    /// Moves reviewed.
    pub moves: usize,
    /// Mean loss per move, in win-chance points.
    pub mean_loss: f64,
    /// Mean accuracy, 0–100.
    pub accuracy: f64,
    /// Moves per grade: best, excellent, good, inaccuracy, mistake, blunder.
    pub grades: [usize; 6],
    /// The share of moves graded best or excellent.
    pub best_or_excellent: f64,
    /// Every loss, for the distribution (not serialized).
    #[serde(skip)]
    pub losses: Vec<f64>,
}

/// A study: `a` against `b` over many games, every game reviewed.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Study {
    /// The rules.
    pub rules: String,
    /// Player A.
    pub a: String,
    /// Player B.
    pub b: String,
    /// Games played and reviewed.
    pub games: usize,
    /// The review depth.
    pub depth: u32,
    /// A's moves.
    pub player_a: PlayerStudy,
    /// B's moves.
    pub player_b: PlayerStudy,
    /// Losses at the 50th, 75th, 90th, 95th and 99th percentiles, over both
    /// players' moves that were not the engine's choice (the grades'
    /// thresholds were read off this).
    pub loss_percentiles: [f64; 5],
}

fn add(p: &mut PlayerStudy, ply: &Ply) {
    p.moves += 1;
    p.losses.push(ply.loss);
    p.grades[Grade::ALL.iter().position(|g| *g == ply.grade).unwrap_or(0)] += 1;
}

fn finish(p: &mut PlayerStudy) {
    let n = p.moves.max(1) as f64;
    p.mean_loss = (p.losses.iter().sum::<f64>() / n * 100.0).round() / 100.0;
    p.accuracy = (p.losses.iter().map(|&l| accuracy(l)).sum::<f64>() / n * 10.0).round() / 10.0;
    p.best_or_excellent = ((p.grades[0] + p.grades[1]) as f64 / n * 1000.0).round() / 1000.0;
}

/// Plays `games` games of `a` against `b` under `rules` (seats alternating,
/// openings as in tournaments) on `threads` threads and reviews every one at
/// `depth`; `progress(done)` counts reviewed games.
pub fn study(
    rules: ringo::Rules,
    (a, b): (crate::ringo::Spec, crate::ringo::Spec),
    games: usize,
    depth: u32,
    threads: usize,
    seed: u64,
    progress: &(dyn Fn(usize) + Sync),
) -> Study {
    let mut out = Study {
        rules: rules.to_string(),
        a: a.to_string(),
        b: b.to_string(),
        games: 0,
        depth,
        player_a: PlayerStudy::default(),
        player_b: PlayerStudy::default(),
        loss_percentiles: [0.0; 5],
    };
    crate::par::run(
        games,
        threads,
        |i| {
            let g = crate::ringo::tournament::play_game(rules, a, b, i, seed, None);
            let game = Game::parse_record(&g.record).ok();
            (
                g.a_attacks,
                game.map(|game| review(&game, depth, &|_, _| {})),
            )
        },
        |(a_attacks, r)| {
            if let Some(r) = r {
                for p in &r.plies {
                    let a_moved = (p.side == Side::Attackers) == a_attacks;
                    add(
                        if a_moved {
                            &mut out.player_a
                        } else {
                            &mut out.player_b
                        },
                        p,
                    );
                }
                out.games += 1;
                progress(out.games);
            }
            true
        },
    );
    finish(&mut out.player_a);
    finish(&mut out.player_b);
    out.loss_percentiles = crate::stats::positive_percentiles(
        out.player_a
            .losses
            .iter()
            .chain(&out.player_b.losses)
            .copied(),
    );
    out
}
