//! What a search answers: its best move, score, line and effort, and a
//! result it proved.

use ringo::{Move, Side};
use std::time::Duration;

/// A proven result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proven {
    /// Who wins.
    pub winner: Side,
    /// In how many plies from the position.
    pub plies: u32,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Report {
    /// The best move (`None` only when the game is already over).
    pub best: Option<Move>,
    /// Its score for the side to move (about 100 per attacker).
    pub score: i32,
    /// The proven result, if the search proved one.
    pub proven: Option<Proven>,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// The last completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}
