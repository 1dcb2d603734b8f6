//! Ringo players.

use crate::Rng;
use ringo::{Game, Move, Side};

/// A uniformly random legal move (`None` once the game is over).
pub fn random_move(game: &Game, rng: &mut Rng) -> Option<Move> {
    let legal = game.legal_moves();
    (!legal.is_empty()).then(|| legal[rng.below(legal.len())])
}

/// Scores a move one ply deep: an immediate win first, then captures, then an
/// attacker's progress inward, then not leaving a piece where it can be
/// captured at once. Ties are broken at random by the caller.
fn greedy_score(game: &Game, m: Move) -> i32 {
    let side = game.position().to_move();
    let mut child = game.clone();
    child.play_unchecked(m);
    if let Some(outcome) = child.outcome() {
        return match outcome.winner {
            Some(w) if w == side => 10_000,
            None => 0,
            Some(_) => -10_000,
        };
    }
    let mut score = 0;
    if m.is_capture() {
        score += 1_000;
    }
    if side == Side::Attackers {
        if let (Some(from), Some(to)) = (m.from(), m.to()) {
            let ring = |c: ringo::Cell| i32::from(c.ring().unwrap_or(0));
            score += 100 * (ring(from) - ring(to));
        }
    }
    // Penalise moves after which the opponent can capture.
    let replies = child.legal_moves();
    if replies.iter().any(|r| r.is_capture()) {
        score -= 500;
    }
    score
}

/// The greedy baseline: an immediate win first, then captures, then progress
/// inward, avoiding moves that allow a capture; ties at random.
pub fn greedy_move(game: &Game, rng: &mut Rng) -> Option<Move> {
    let legal = game.legal_moves();
    let mut best: Vec<Move> = vec![];
    let mut best_score = i32::MIN;
    for &m in legal.iter() {
        let s = greedy_score(game, m);
        if s > best_score {
            best_score = s;
            best.clear();
        }
        if s == best_score {
            best.push(m);
        }
    }
    (!best.is_empty()).then(|| best[rng.below(best.len())])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_finish_games_with_legal_moves() {
        let mut rng = Rng::new(1);
        for player in [random_move, greedy_move] {
            let mut game = Game::new(ringo::Rules::default());
            while let Some(m) = player(&game, &mut rng) {
                game.play(m).unwrap();
            }
            assert!(game.is_over());
        }
    }

    #[test]
    fn greedy_takes_an_immediate_win_and_captures() {
        let rules = ringo::Rules::default();
        // c1-F puts the second attacker in the fortress.
        let pos = ringo::Position::parse(
            "......../......../......../......../......../..A..D.. 1 a",
            &rules,
        )
        .unwrap();
        let game = Game::from_position(rules, pos);
        for seed in 0..10 {
            assert_eq!(
                greedy_move(&game, &mut Rng::new(seed)).unwrap().to_string(),
                "c1-F"
            );
        }
        // Defenders to move: the only capture, c3 over d3, is chosen.
        let pos = ringo::Position::parse(
            "......../......../......../..DA..../......../........ 1 d",
            &rules,
        )
        .unwrap();
        let game = Game::from_position(rules, pos);
        for seed in 0..10 {
            assert!(greedy_move(&game, &mut Rng::new(seed))
                .unwrap()
                .is_capture());
        }
    }
}
