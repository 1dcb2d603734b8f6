//! Ratings: Glicko-2 (the `skillratings` crate) per game, and how a rated
//! game's result becomes one rating period.
//!
//! - **A rated Ringo game is a pair** with the seats swapped: between equal
//!   players every preset is decided by the seat (docs/balance/README.md),
//!   so one game would rate the seat lottery. The pair is one rating
//!   period holding its two games' results: 2–0 moves a rating as two wins
//!   do, 1–1 leaves it near where it was.
//! - **A rated Urgammon match to N points** is one rating period holding the
//!   match's result ⌈√N⌉ times: a longer match says more about the players,
//!   as FIBS's √N factor has it (a match to 1 is one game; to 7, three
//!   results; to 25, five), without a long match's result swamping the
//!   rating.
//! - A rating whose deviation is over 110 is provisional (shown with `?`,
//!   left off the leaderboard).

use crate::store::{RatingRow, Replayed, ReplayedGame};
use skillratings::glicko2::{glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;
use std::collections::{BTreeMap, HashSet};

/// A rating whose deviation is over this is provisional.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// Whether a rating is still provisional.
pub fn provisional(r: &RatingRow) -> bool {
    r.deviation > PROVISIONAL_DEVIATION
}

/// How many times an Urgammon match to `to` points counts: ⌈√to⌉.
pub fn match_weight(to: u32) -> usize {
    (f64::from(to.max(1))).sqrt().ceil() as usize
}

fn glicko(r: &RatingRow) -> Glicko2Rating {
    Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

/// Both players' ratings after one rating period: `scores` holds seat 0's
/// account's score in each result (1 a win, 0.5 a draw, 0 a loss).
pub fn rate(before: [RatingRow; 2], scores: &[f64]) -> [RatingRow; 2] {
    let config = Glicko2Config::new();
    let outcome = |s: f64| {
        if s > 0.5 {
            Outcomes::WIN
        } else if s < 0.5 {
            Outcomes::LOSS
        } else {
            Outcomes::DRAW
        }
    };
    let one = |me: usize| {
        let other = glicko(&before[1 - me]);
        let results: Vec<_> = scores
            .iter()
            .map(|&s| (other, outcome(if me == 0 { s } else { 1.0 - s })))
            .collect();
        let new = glicko2_rating_period(&glicko(&before[me]), &results, &config);
        RatingRow {
            rating: new.rating,
            deviation: new.deviation,
            volatility: new.volatility,
            games: before[me].games + 1,
        }
    };
    [one(0), one(1)]
}

/// A rated game's result as one rating period: the game, when it was
/// rated, its seats' accounts and the first seat's account's scores (as
/// [`rate`] takes them).
#[derive(Clone, Debug, PartialEq)]
pub struct RatedResult {
    /// The game.
    pub game: String,
    /// When it was rated, seconds since the epoch.
    pub at: i64,
    /// The two seats' accounts.
    pub accounts: [i64; 2],
    /// The first seat's account's score in each result.
    pub scores: Vec<f64>,
}

/// Every rating of one kind from nothing, rating the `results` in order as
/// they were rated when played, except those with a player in `void` (a
/// player marked for cheating): those count for nobody, so her opponents
/// get back what they lost or gave back what they won, and every later
/// rating follows from theirs. Replaying with nobody void gives back
/// exactly the ratings as played.
pub fn replay(results: &[RatedResult], void: &HashSet<i64>) -> Replayed {
    let mut now: BTreeMap<i64, RatingRow> = BTreeMap::new();
    let mut games = Vec::with_capacity(results.len());
    for r in results {
        if r.accounts.iter().any(|a| void.contains(a)) {
            games.push(ReplayedGame {
                id: r.game.clone(),
                at: r.at,
                accounts: r.accounts,
                after: None,
                change: [0.0; 2],
            });
            continue;
        }
        let before = r
            .accounts
            .map(|a| now.get(&a).copied().unwrap_or(RatingRow::NEW));
        let after = rate(before, &r.scores);
        for (a, row) in r.accounts.iter().zip(after) {
            now.insert(*a, row);
        }
        games.push(ReplayedGame {
            id: r.game.clone(),
            at: r.at,
            accounts: r.accounts,
            after: Some(after),
            change: [
                after[0].rating - before[0].rating,
                after[1].rating - before[1].rating,
            ],
        });
    }
    Replayed {
        ratings: now.into_iter().collect(),
        games,
    }
}

/// How sure a puzzle's rating is: puzzles are rated by how hard the engine
/// found them, not by play, so they count as a fairly well-known opponent.
pub const PUZZLE_DEVIATION: f64 = 80.0;

/// A player's puzzle rating after one try at a puzzle rated `puzzle`:
/// solving it is a win against the puzzle, failing it a loss (one rating
/// period, as lichess rates puzzles).
pub fn rate_puzzle(player: RatingRow, puzzle: f64, solved: bool) -> RatingRow {
    let opponent = Glicko2Rating {
        rating: puzzle,
        deviation: PUZZLE_DEVIATION,
        volatility: 0.06,
    };
    let outcome = if solved {
        Outcomes::WIN
    } else {
        Outcomes::LOSS
    };
    let new = glicko2_rating_period(
        &glicko(&player),
        &[(opponent, outcome)],
        &Glicko2Config::new(),
    );
    RatingRow {
        rating: new.rating,
        deviation: new.deviation,
        volatility: new.volatility,
        games: player.games + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_moves_ratings_apart_and_a_split_pair_leaves_them_near() {
        let [a, b] = rate([RatingRow::NEW; 2], &[1.0, 1.0]);
        assert!(a.rating > 1600.0 && b.rating < 1400.0, "{a:?} {b:?}");
        assert!(
            (a.rating - 1500.0 + (b.rating - 1500.0)).abs() < 1e-6,
            "symmetric"
        );
        assert_eq!((a.games, b.games), (1, 1), "a pair counts once");
        let [c, d] = rate([RatingRow::NEW; 2], &[1.0, 0.0]);
        assert!((c.rating - 1500.0).abs() < 1e-6 && (d.rating - 1500.0).abs() < 1e-6);
        assert!(c.deviation < 350.0, "but the deviation shrinks");
        assert!(provisional(&c));
    }

    #[test]
    fn a_puzzle_solved_raises_the_rating_and_one_failed_lowers_it() {
        let up = rate_puzzle(RatingRow::NEW, 1500.0, true);
        let down = rate_puzzle(RatingRow::NEW, 1500.0, false);
        assert!(
            up.rating > 1600.0 && down.rating < 1400.0,
            "{up:?} {down:?}"
        );
        assert_eq!(up.games, 1);
        // An easy puzzle solved moves a settled rating little.
        let settled = RatingRow {
            deviation: 60.0,
            ..RatingRow::NEW
        };
        let easy = rate_puzzle(settled, 900.0, true).rating - 1500.0;
        let hard = rate_puzzle(settled, 2100.0, true).rating - 1500.0;
        assert!(0.0 < easy && easy < hard, "{easy} {hard}");
    }

    #[test]
    fn a_replay_without_a_cheat_gives_her_opponents_back_what_they_lost() {
        let result = |game: &str, accounts: [i64; 2], score: f64| RatedResult {
            game: game.into(),
            at: 0,
            accounts,
            scores: vec![score; 2],
        };
        // 1 beats 2, the cheat 9 beats 2, 2 beats 3.
        let results = [
            result("a", [1, 2], 1.0),
            result("b", [9, 2], 1.0),
            result("c", [2, 3], 1.0),
        ];
        let played = replay(&results, &HashSet::new());
        // As played, game by game.
        let [one, two] = rate([RatingRow::NEW; 2], &[1.0, 1.0]);
        let [_, two_b] = rate([RatingRow::NEW, two], &[1.0, 1.0]);
        let [two_c, three] = rate([two_b, RatingRow::NEW], &[1.0, 1.0]);
        assert_eq!(
            played.ratings,
            vec![
                (1, one),
                (2, two_c),
                (3, three),
                (9, rate([RatingRow::NEW, two], &[1.0, 1.0])[0])
            ]
        );
        // Without the cheat: game b is void, and 2 and 3 are rated as if it
        // had never been played.
        let fair = replay(&results, &HashSet::from([9]));
        let [two_c, three] = rate([two, RatingRow::NEW], &[1.0, 1.0]);
        assert_eq!(fair.ratings, vec![(1, one), (2, two_c), (3, three)]);
        assert_eq!(fair.games[1].after, None);
        assert_eq!(fair.games[1].change, [0.0, 0.0]);
        assert_eq!(fair.games[2].change[0], two_c.rating - two.rating);
        // Unmarked: everything as played.
        assert_eq!(replay(&results, &HashSet::new()), played);
    }

    #[test]
    fn longer_matches_weigh_more() {
        assert_eq!(match_weight(1), 1);
        assert_eq!(match_weight(3), 2);
        assert_eq!(match_weight(7), 3);
        assert_eq!(match_weight(25), 5);
        let short = rate([RatingRow::NEW; 2], &[1.0])[0].rating;
        let long = rate([RatingRow::NEW; 2], &vec![1.0; match_weight(7)])[0].rating;
        assert!(long > short);
    }

    /// What the leaderboard says of settling (`leaderboard.help`, in three
    /// languages): against settled players of the same strength (deviation
    /// 60), a new rating loses its `?` after 5 rated Ringo pairs split 1–1,
    /// or 4 Urgammon matches to 7 won and lost in turn; against new players
    /// it takes longer, as it does with matches to 1.
    #[test]
    fn a_rating_settles_as_the_leaderboard_says() {
        let periods = |opponent_deviation: f64, scores: &dyn Fn(usize) -> Vec<f64>| {
            let mut me = RatingRow::NEW;
            let mut them = RatingRow {
                deviation: opponent_deviation,
                ..RatingRow::NEW
            };
            let mut n = 0;
            while provisional(&me) {
                let [a, b] = rate([me, them], &scores(n));
                me = a;
                // A new opponent settles too; a settled one stays settled.
                if opponent_deviation > PROVISIONAL_DEVIATION {
                    them = b;
                }
                n += 1;
            }
            n
        };
        let pair = |_: usize| vec![1.0, 0.0];
        let to = |points: u32| {
            move |n: usize| vec![if n.is_multiple_of(2) { 1.0 } else { 0.0 }; match_weight(points)]
        };
        assert_eq!(periods(60.0, &pair), 5);
        assert_eq!(periods(60.0, &to(7)), 4);
        assert!(periods(350.0, &pair) > 5);
        assert!(periods(350.0, &to(7)) > 4);
        assert!(periods(60.0, &to(1)) > 4);
    }
}
