//! The principal variation, collected while the search runs (a triangular
//! table: each ply's best line is its move and the best line of the ply
//! below). Read back from the transposition table alone, a deep line broke
//! off after a move or two, where later entries had replaced its positions'.

use super::params::MAX_PLY;
use ringo::Move;

/// One line per ply, each reused from search to search (no allocation once
/// warm).
pub(super) struct Lines {
    rows: Vec<Vec<Move>>,
}

impl Lines {
    /// Empty lines for every ply the search reaches.
    pub(super) fn new() -> Lines {
        Lines {
            rows: (0..=MAX_PLY + 1).map(|_| Vec::new()).collect(),
        }
    }

    /// A node at `ply` starts with no line: a node that returns early (a
    /// cutoff, a terminal or repeated position, quiescence) leaves none.
    #[inline]
    pub(super) fn clear(&mut self, ply: usize) {
        if let Some(row) = self.rows.get_mut(ply) {
            row.clear();
        }
    }

    /// The best move at `ply` is `m`; when its child was searched, the child's
    /// line follows it.
    #[inline]
    pub(super) fn update(&mut self, ply: usize, m: Move, child_searched: bool) {
        if ply + 1 >= self.rows.len() {
            return;
        }
        let (upper, lower) = self.rows.split_at_mut(ply + 1);
        let row = &mut upper[ply];
        row.clear();
        row.push(m);
        if child_searched {
            row.extend_from_slice(&lower[0]);
        }
    }

    /// The root's line.
    pub(super) fn root(&self) -> &[Move] {
        &self.rows[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_its_move_then_the_child_line() {
        let game = ringo::Game::new(ringo::Rules::default());
        let moves = game.legal_moves();
        let (a, b, c) = (moves[0], moves[1], moves[2]);
        let mut lines = Lines::new();
        lines.clear(2);
        lines.update(2, c, true);
        lines.update(1, b, true);
        lines.update(0, a, true);
        assert_eq!(lines.root(), &[a, b, c]);
        // A move whose child was not searched (a double pass) ends the line,
        // whatever an earlier sibling left below it.
        lines.update(0, a, false);
        assert_eq!(lines.root(), &[a]);
        lines.clear(0);
        assert!(lines.root().is_empty());
        // The deepest plies are ignored, not out of bounds.
        lines.clear(MAX_PLY + 5);
        lines.update(MAX_PLY + 1, a, true);
    }
}
