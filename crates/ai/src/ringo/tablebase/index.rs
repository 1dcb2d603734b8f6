//! Indexing: a position of a class as a number, without stored keys (the
//! attackers' cells ranked as a combination of the board's cells, the
//! defenders' as a combination of the cells left).

use super::value::*;
use ringo::{Bitboard, Position, Rules, Side};

/// Binomial coefficients C(n, k) for n ≤ 48, k ≤ 8.
pub(super) const BINOM: [[u64; 9]; 49] = {
    let mut t = [[0u64; 9]; 49];
    let mut n = 0;
    while n < 49 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 9 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

pub(super) fn binom(n: u32, k: u32) -> u64 {
    if k > 8 || n > 48 {
        return 0;
    }
    BINOM[n as usize][k as usize]
}

/// Colex rank of a set of cells (bits of `bits`, all below 48).
pub(super) fn rank(bits: u64) -> u64 {
    let mut r = 0;
    let mut b = bits;
    let mut i = 1;
    while b != 0 {
        let c = b.trailing_zeros();
        r += binom(c, i);
        b &= b - 1;
        i += 1;
    }
    r
}

/// The `k`-set of colex rank `r` (inverse of [`rank`]).
pub(super) fn unrank(mut r: u64, k: u32) -> u64 {
    let mut bits = 0;
    for i in (1..=k).rev() {
        // The largest c with C(c, i) ≤ r.
        let mut c = i - 1;
        while binom(c + 1, i) <= r {
            c += 1;
        }
        r -= binom(c, i);
        bits |= 1 << c;
    }
    bits
}

/// Removes the `taken` cells from the numbering: cell c becomes c minus the
/// taken cells below it.
pub(super) fn compress(bits: u64, taken: u64) -> u64 {
    let mut out = 0;
    let mut b = bits;
    while b != 0 {
        let c = b.trailing_zeros();
        let below = (taken & ((1u64 << c) - 1)).count_ones();
        out |= 1 << (c - below);
        b &= b - 1;
    }
    out
}

/// Inverse of [`compress`]: the j-th free cell for each bit j.
pub(super) fn expand(bits: u64, taken: u64) -> u64 {
    let mut out = 0;
    let mut free = !taken;
    let mut b = bits;
    while b != 0 {
        let c = free.trailing_zeros();
        if b & 1 != 0 {
            out |= 1 << c;
        }
        free &= free - 1;
        b >>= 1;
    }
    out
}

/// How one class's positions are numbered.
#[derive(Clone, Copy, Debug)]
pub(super) struct Layout {
    pub(super) material: Material,
    pub(super) cells: u32,
}

impl Layout {
    /// Positions with `f` attackers in the fortress and one side to move.
    pub(super) fn block(&self, f: u8) -> u64 {
        let on_board = (self.material.attackers - f) as u32;
        binom(self.cells, on_board) * binom(self.cells - on_board, self.material.defenders as u32)
    }

    pub(super) fn len(&self) -> u64 {
        2 * (self.block(0) + self.block(1))
    }

    /// The index of a position of this class (`None` when it is not one).
    pub(super) fn index(&self, pos: &Position) -> Option<u64> {
        let f = pos.fortress();
        if f > 1 || Material::of(pos) != self.material {
            return None;
        }
        let att = pos.pieces(Side::Attackers).0;
        let def = pos.pieces(Side::Defenders).0;
        let on_board = att.count_ones();
        let d_rank = rank(compress(def, att));
        let within =
            rank(att) * binom(self.cells - on_board, self.material.defenders as u32) + d_rank;
        let side = u64::from(pos.to_move() == Side::Defenders);
        let base = if f == 0 {
            side * self.block(0)
        } else {
            2 * self.block(0) + side * self.block(1)
        };
        Some(base + within)
    }

    /// The position at an index.
    pub(super) fn position(&self, index: u64, rules: &Rules) -> Position {
        let (f, side, within) = {
            let b0 = self.block(0);
            let b1 = self.block(1);
            if index < 2 * b0 {
                (0, index / b0, index % b0)
            } else {
                let i = index - 2 * b0;
                (1, i / b1, i % b1)
            }
        };
        let on_board = (self.material.attackers - f) as u32;
        let per = binom(self.cells - on_board, self.material.defenders as u32);
        let att = unrank(within / per, on_board);
        let def = expand(unrank(within % per, self.material.defenders as u32), att);
        let side = if side == 0 {
            Side::Attackers
        } else {
            Side::Defenders
        };
        Position::from_cells(Bitboard(att), Bitboard(def), f, side, rules)
            .expect("an index names a valid position")
    }
}
