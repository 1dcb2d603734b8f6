//! The Swiss system's rules, pure: a round's pairings by the FIDE (Dutch)
//! system ([`dutch`], over the general matching of [`matching`]) and the
//! tie-breaks (Buchholz, Sonneborn–Berger).
//!
//! For Ringo a round is a pair of games with the seats swapped, so colours
//! (seats) do not matter there; for Urgammon they alternate as in chess.

pub mod dutch;
pub mod matching;
pub mod trf;

pub use dutch::{pair, Entrant, Float, Round, Rules};

/// One player's result in a round, for the tie-breaks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Result {
    /// The opponent (`None`: a bye).
    pub opponent: Option<i64>,
    /// Her score in it (1, ½, 0).
    pub score: f64,
}

/// Buchholz: the sum of her opponents' scores (a bye adds nothing).
pub fn buchholz(results: &[Result], score_of: &dyn Fn(i64) -> f64) -> f64 {
    results
        .iter()
        .filter_map(|r| r.opponent.map(score_of))
        .sum()
}

/// Sonneborn–Berger: the scores of the opponents she beat, and half of
/// those she drew with.
pub fn sonneborn_berger(results: &[Result], score_of: &dyn Fn(i64) -> f64) -> f64 {
    results
        .iter()
        .filter_map(|r| r.opponent.map(|o| score_of(o) * r.score))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hand-worked: A beat B and drew with C; B beat C; C had a bye.
    /// Scores: A 1.5, B 1, C 1.5 (½ + the bye). A's Buchholz: B 1 + C 1.5
    /// = 2.5; her Sonneborn–Berger: B's 1 × 1 + C's 1.5 × ½ = 1.75.
    #[test]
    fn tie_breaks_on_a_hand_worked_table() {
        let score = |p: i64| match p {
            1 => 1.5,
            2 => 1.0,
            3 => 1.5,
            _ => 0.0,
        };
        let a = [
            Result {
                opponent: Some(2),
                score: 1.0,
            },
            Result {
                opponent: Some(3),
                score: 0.5,
            },
        ];
        assert_eq!(buchholz(&a, &score), 2.5);
        assert_eq!(sonneborn_berger(&a, &score), 1.75);
        let c = [
            Result {
                opponent: Some(1),
                score: 0.5,
            },
            Result {
                opponent: None,
                score: 1.0,
            },
        ];
        assert_eq!(buchholz(&c, &score), 1.5, "the bye adds nothing");
        assert_eq!(sonneborn_berger(&c, &score), 0.75);
    }
}
