//! Ringo players.

use crate::Rng;
use ringo::{legal_moves, position_winner, Game, Move, MoveList, Position, Rules, Side};

/// A uniformly random legal move (`None` once the game is over).
pub fn random_move(game: &Game, rng: &mut Rng) -> Option<Move> {
    let legal = game.legal_moves();
    (!legal.is_empty()).then(|| legal[rng.below(legal.len())])
}

/// Scores a move: an immediate win first, then captures, then an attacker's
/// progress inward. With `cautious`, also not leaving a piece where it can be
/// captured at once, which looks at the opponent's replies (a second ply).
/// Ties are broken at random by the caller.
fn greedy_score(game: &Game, m: Move, cautious: bool) -> i32 {
    let mut child = game.clone();
    child.play_unchecked(m);
    // The game judges the end (repetitions included), the shared scoring the rest.
    let ended = child.outcome().map(|o| o.winner);
    shallow_score(game.position(), game.rules(), m, cautious, ended)
}

/// The shallow players' score of `m` in `pos`, given how the game ends after it
/// (`Some(winner)`, a draw being `Some(None)`), or `None` when it goes on. One
/// copy for the baselines and for the opponent model the engine plays against
/// ([`model_replies`]).
fn shallow_score(
    pos: &Position,
    rules: &Rules,
    m: Move,
    cautious: bool,
    ended: Option<Option<Side>>,
) -> i32 {
    let side = pos.to_move();
    if let Some(winner) = ended {
        return match winner {
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
    // Penalise moves after which the opponent can capture. Attackers that
    // never capture cannot threaten a defender, so there is nothing to look
    // for (and the look costs a move generation a move).
    let opponent_captures =
        side == Side::Attackers || rules.attacker_captures != ringo::AttackerCaptures::None;
    if cautious && opponent_captures {
        let mut child = *pos;
        child.play_unchecked(m);
        let mut replies = MoveList::new();
        legal_moves(&child, rules, &mut replies);
        if replies.iter().any(|r| r.is_capture()) {
            score -= 500;
        }
    }
    score
}

/// The replies the engine's model of a fallible opponent chooses among in
/// `pos` (`last_pass`: the move before was a pass): the moves the `cautious`
/// baseline scores best, which is how a player who looks one move ahead plays
/// (a win, else a capture, else a move that leaves nothing to capture, else
/// progress), each taken as equally likely.
///
/// `third` says whether a position a reply leads to would stand for the
/// third time (the caller knows the game's history and the line searched);
/// such a reply ends the game as the repetition rule says. The baselines
/// judge the end by the game, repetitions included, so a `greedy` defender
/// takes a third occurrence whenever one is in reach. Until 2026-11-24 the
/// model judged the position alone, so the engine, as the `globe` attackers
/// shuffling their last two pieces, weighed such a reply as one among
/// twenty; 6 of 200 games against `greedy` at 200 ms a move ended that way
/// (docs/engine-results/README.md, *The model sees repetitions*).
pub fn model_replies(
    pos: &Position,
    rules: &Rules,
    last_pass: bool,
    third: impl Fn(&Position) -> bool,
) -> Vec<Move> {
    let mut list = MoveList::new();
    legal_moves(pos, rules, &mut list);
    let ended = |m: Move| {
        if m.is_pass() && last_pass {
            // The second pass in a row: the defenders win.
            return Some(Some(Side::Defenders));
        }
        let mut child = *pos;
        child.play_unchecked(m);
        position_winner(&child).map(Some).or_else(|| {
            third(&child).then_some(match rules.repetition {
                ringo::Repetition::Defenders => Some(Side::Defenders),
                ringo::Repetition::Draw => None,
            })
        })
    };
    best_of(list.iter().copied(), |m| {
        shallow_score(pos, rules, m, true, ended(m))
    })
}

/// The greedy baseline, one ply deep as the engine issue defines it ("a 1-ply
/// capture-first baseline"): an immediate win first, then a capture, then
/// progress inward; ties at random. It never looks at the opponent's replies.
pub fn greedy_move(game: &Game, rng: &mut Rng) -> Option<Move> {
    best_scored(game, rng, false)
}

/// The cautious baseline: [`greedy_move`] that also avoids moves after which
/// the opponent can capture at once. It reads the opponent's replies, so it is
/// a two-ply player and a harder opponent than `greedy`.
pub fn cautious_move(game: &Game, rng: &mut Rng) -> Option<Move> {
    best_scored(game, rng, true)
}

/// A best-scoring move by [`greedy_score`], ties at random.
fn best_scored(game: &Game, rng: &mut Rng, cautious: bool) -> Option<Move> {
    let best = best_of(game.legal_moves().iter().copied(), |m| {
        greedy_score(game, m, cautious)
    });
    (!best.is_empty()).then(|| best[rng.below(best.len())])
}

/// The moves with the highest score, in the order given.
fn best_of(moves: impl Iterator<Item = Move>, score: impl Fn(Move) -> i32) -> Vec<Move> {
    let mut best: Vec<Move> = vec![];
    let mut best_score = i32::MIN;
    for m in moves {
        let s = score(m);
        if s > best_score {
            best_score = s;
            best.clear();
        }
        if s == best_score {
            best.push(m);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game from a position under the classic rules.
    fn classic_game(position: &str) -> Game {
        let rules = ringo::Rules::default();
        Game::from_position(rules, ringo::Position::parse(position, &rules).unwrap())
    }

    #[test]
    fn players_finish_games_with_legal_moves() {
        let mut rng = Rng::new(1);
        for player in [random_move, greedy_move, cautious_move] {
            let mut game = Game::new(ringo::Rules::default());
            while let Some(m) = player(&game, &mut rng) {
                game.play(m).unwrap();
            }
            assert!(game.is_over());
        }
    }

    #[test]
    fn greedy_takes_an_immediate_win_and_captures() {
        // c1-F puts the second attacker in the fortress.
        let game = classic_game("......../......../......../......../......../..A..D.. 1 a");
        for seed in 0..10 {
            assert_eq!(
                greedy_move(&game, &mut Rng::new(seed)).unwrap().to_string(),
                "c1-F"
            );
        }
        // Defenders to move: the only capture, c3 over d3, is chosen.
        let game = classic_game("......../......../......../..DA..../......../........ 1 d");
        for seed in 0..10 {
            assert!(greedy_move(&game, &mut Rng::new(seed))
                .unwrap()
                .is_capture());
        }
    }

    #[test]
    fn the_model_replies_are_the_cautious_players_best_moves() {
        let replies = |position: &str| {
            let game = classic_game(position);
            let mut v: Vec<String> = model_replies(game.position(), game.rules(), false, |_| false)
                .iter()
                .map(|m| m.to_string())
                .collect();
            v.sort();
            v
        };
        // A win first: c1-F puts the second attacker in the fortress.
        assert_eq!(
            replies("......../......../......../......../......../..A..D.. 1 a"),
            ["c1-F"]
        );
        // Then a capture: c3 over d3 is the defenders' only one.
        let captures = replies("......../......../......../..DA..../......../........ 1 d");
        assert!(!captures.is_empty());
        let game = classic_game("......../......../......../..DA..../......../........ 1 d");
        assert!(game
            .legal_moves()
            .iter()
            .filter(|m| captures.contains(&m.to_string()))
            .all(|m| m.is_capture()));
        // Then a move that leaves nothing to capture: g6-g5, not c3-c2.
        assert_eq!(
            replies("......A./......../......../..A...../......../..D..... 0 a"),
            ["g6-g5"]
        );
        // After a pass, the defenders' second pass wins the game for them.
        let rules: ringo::Rules = "classic,defender-pass=on".parse().unwrap();
        let pos = ringo::Position::parse(
            "......A./......../......../..A...../......../..D..... 0 d",
            &rules,
        )
        .unwrap();
        assert_eq!(model_replies(&pos, &rules, true, |_| false), [Move::PASS]);
    }

    #[test]
    fn greedy_looks_one_ply_and_cautious_two() {
        // "greedy (a 1-ply capture-first baseline)": both inward steps, c3-c2
        // and g6-g5, are progress; only c3-c2 lets the defender on c1 jump
        // back over it. Greedy does not look at replies, so it plays either;
        // cautious never steps into the capture.
        let game = classic_game("......A./......../......../..A...../......../..D..... 0 a");
        let pick = |f: fn(&Game, &mut Rng) -> Option<Move>, seed| {
            f(&game, &mut Rng::new(seed)).unwrap().to_string()
        };
        let greedy: Vec<String> = (0..20).map(|s| pick(greedy_move, s)).collect();
        assert!(greedy.iter().all(|m| m == "c3-c2" || m == "g6-g5"));
        assert!(greedy.iter().any(|m| m == "c3-c2"), "{greedy:?}");
        for seed in 0..20 {
            assert_eq!(pick(cautious_move, seed), "g6-g5");
        }
    }
}
