//! Move ordering: the table move, captures, fortress entries, two killer
//! moves per ply, then the history of cut-offs. The ordered moves live in a
//! fixed array on the stack, so no node allocates.

use super::params::MAX_PLY;
use ringo::{Move, MoveList, Side, MAX_MOVES};

fn history_index(side: Side, m: Move) -> usize {
    let from = m.from().map_or(63, |c| c.index());
    let to = m.to().map_or(63, |c| c.index());
    (side.index() * 64 + from) * 64 + to
}

/// What earlier searches learned about good quiet moves.
pub(super) struct History {
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
}

/// A node's moves with their ordering scores.
pub(super) struct Ordered {
    moves: [(i32, Move); MAX_MOVES],
    len: usize,
}

impl Ordered {
    /// The scored moves.
    pub(super) fn as_mut_slice(&mut self) -> &mut [(i32, Move)] {
        &mut self.moves[..self.len]
    }
}

impl History {
    /// Nothing learned yet.
    pub(super) fn new() -> History {
        History {
            killers: vec![[None; 2]; MAX_PLY + 2],
            history: vec![0; 2 * 64 * 64],
        }
    }

    /// Forgets everything (for deterministic, independent searches).
    pub(super) fn clear(&mut self) {
        self.history.iter_mut().for_each(|h| *h = 0);
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
    }

    /// Scores the moves of a node for ordering: table move, captures, fortress
    /// entries, killers, history.
    pub(super) fn order(
        &self,
        list: &MoveList,
        side: Side,
        tt_move: Option<Move>,
        ply: usize,
    ) -> Ordered {
        let mut out = Ordered {
            moves: [(0, Move::PASS); MAX_MOVES],
            len: list.len(),
        };
        for (slot, &m) in out.moves.iter_mut().zip(list.iter()) {
            let s = if Some(m) == tt_move {
                1_000_000
            } else if m.is_capture() {
                500_000
                    + if m.to().is_some_and(|c| c.is_fortress()) {
                        1000
                    } else {
                        0
                    }
            } else if m.to().is_some_and(|c| c.is_fortress()) {
                400_000
            } else if self.killers[ply][0] == Some(m) {
                300_000
            } else if self.killers[ply][1] == Some(m) {
                290_000
            } else {
                self.history[history_index(side, m)].min(280_000)
            };
            *slot = (s, m);
        }
        out
    }

    /// A quiet move that caused a cut-off at `ply`: remember it as a killer
    /// and raise its history.
    pub(super) fn reward(&mut self, side: Side, m: Move, ply: usize, depth: i32) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        self.history[history_index(side, m)] += depth * depth;
    }
}
