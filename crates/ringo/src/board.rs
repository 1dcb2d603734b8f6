//! Board geometry: cells, bitboards and the neighbour tables.
//!
//! The ring cells are numbered `(ring - 1) * 8 + sector`, so ring 1 is byte 0 of a
//! `u64`, ring 2 byte 1, and so on. Sector `a` is bit 0 of every byte. The fortress
//! is not a bit: it holds only attackers, so a count (0..=2) is enough.
//!
//! ```text
//!            sector  a  b  c  d  e  f  g  h
//!  ring 6 (byte 5)  40 41 42 43 44 45 46 47
//!  ring 5 (byte 4)  32 33 34 35 36 37 38 39
//!  ring 4 (byte 3)  24 25 26 27 28 29 30 31
//!  ring 3 (byte 2)  16 17 18 19 20 21 22 23
//!  ring 2 (byte 1)   8  9 10 11 12 13 14 15
//!  ring 1 (byte 0)   0  1  2  3  4  5  6  7      F = 48
//! ```

use std::fmt;

/// Number of sectors in every ring.
pub const SECTORS: u8 = 8;
/// The most rings a board can have (the standard board).
pub const MAX_RINGS: u8 = 6;
/// Number of ring cells on the largest board.
pub const RING_CELLS: usize = (SECTORS * MAX_RINGS) as usize;

/// A cell of the board: a ring cell `0..48`, or the fortress [`Cell::FORTRESS`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Cell(u8);

impl Cell {
    /// The central fortress `F`.
    pub const FORTRESS: Cell = Cell(48);

    /// The ring cell in `sector` (0 = `a` … 7 = `h`) and `ring` (1 = next to `F`).
    /// Returns `None` outside the largest board.
    pub const fn new(sector: u8, ring: u8) -> Option<Cell> {
        if sector < SECTORS && ring >= 1 && ring <= MAX_RINGS {
            Some(Cell((ring - 1) * SECTORS + sector))
        } else {
            None
        }
    }

    /// The cell with this index (`0..48` ring cells, `48` the fortress).
    pub const fn from_index(index: usize) -> Option<Cell> {
        if index <= 48 {
            Some(Cell(index as u8))
        } else {
            None
        }
    }

    /// The cell's index: `(ring - 1) * 8 + sector`, or 48 for the fortress.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// True for the fortress.
    pub const fn is_fortress(self) -> bool {
        self.0 == 48
    }

    /// The sector, 0 (`a`) … 7 (`h`). The fortress has none.
    pub const fn sector(self) -> Option<u8> {
        if self.is_fortress() {
            None
        } else {
            Some(self.0 % SECTORS)
        }
    }

    /// The ring, 1 (inner) … 6 (outer). The fortress has none.
    pub const fn ring(self) -> Option<u8> {
        if self.is_fortress() {
            None
        } else {
            Some(self.0 / SECTORS + 1)
        }
    }

    /// True for cells of the neutral zone, sector `a`.
    pub const fn is_neutral(self) -> bool {
        !self.is_fortress() && self.0.is_multiple_of(SECTORS)
    }

    /// The bitboard with only this cell (empty for the fortress, which has no bit).
    pub const fn bb(self) -> Bitboard {
        if self.is_fortress() {
            Bitboard::EMPTY
        } else {
            Bitboard(1 << self.0)
        }
    }

    /// Display colour: true for a light cell. Outside the NZ a cell is light when
    /// (sector index + ring) is even. The NZ and the fortress have colours of their
    /// own, and this returns false for them.
    pub const fn is_light(self) -> bool {
        match (self.sector(), self.ring()) {
            (Some(s), Some(r)) if s != 0 => (s + r) % 2 == 0,
            _ => false,
        }
    }

    /// Parses `c4`-style cell names and `F`. Rejects cells beyond `rings`.
    pub fn parse(text: &str, rings: u8) -> Option<Cell> {
        if text == "F" {
            return Some(Cell::FORTRESS);
        }
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let sector = bytes[0].wrapping_sub(b'a');
        let ring = bytes[1].wrapping_sub(b'0');
        if ring > rings {
            return None;
        }
        Cell::new(sector, ring)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.sector(), self.ring()) {
            (Some(s), Some(r)) => write!(f, "{}{}", (b'a' + s) as char, r),
            _ => f.write_str("F"),
        }
    }
}

/// A set of ring cells, one bit per cell (see the module docs for the layout).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No cell.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// The neutral zone: sector `a` of every ring.
    ///
    /// ```text
    /// ring 6  X . . . . . . .
    ///   …     X . . . . . . .
    /// ring 1  X . . . . . . .
    /// ```
    pub const NEUTRAL_ZONE: Bitboard = Bitboard(0x0101_0101_0101);
    /// Ring 1, the cells next to the fortress.
    pub const RING_1: Bitboard = Bitboard(0xff);

    /// Every ring cell of a board with `rings` rings.
    pub const fn board(rings: u8) -> Bitboard {
        Bitboard((1u64 << (rings as u32 * 8)) - 1)
    }

    /// The cells of one ring (1-based).
    pub const fn ring(ring: u8) -> Bitboard {
        Bitboard(0xff << ((ring as u32 - 1) * 8))
    }

    /// Number of cells in the set.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when the set has no cell.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when `cell` is in the set (never for the fortress).
    pub const fn contains(self, cell: Cell) -> bool {
        !cell.is_fortress() && self.0 & (1 << cell.0) != 0
    }

    /// The set with `cell` added or removed (no-op for the fortress).
    pub const fn toggle(self, cell: Cell) -> Bitboard {
        Bitboard(self.0 ^ cell.bb().0)
    }

    /// Set intersection.
    pub const fn and(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & other.0)
    }

    /// Set union.
    pub const fn or(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 | other.0)
    }

    /// Iterates the cells from the lowest index.
    pub fn iter(self) -> BitIter {
        BitIter(self.0)
    }
}

/// Iterator over the cells of a [`Bitboard`].
pub struct BitIter(u64);

impl Iterator for BitIter {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Cell(i))
    }
}

/// A direction of movement on the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Dir {
    /// Sideways, towards the next sector (a → b … h → a).
    Clockwise = 0,
    /// Sideways, towards the previous sector (b → a … a → h).
    Counter = 1,
    /// Forward: one ring inward; from ring 1 this is the fortress.
    In = 2,
    /// Backward: one ring outward.
    Out = 3,
}

impl Dir {
    /// All four directions.
    pub const ALL: [Dir; 4] = [Dir::Clockwise, Dir::Counter, Dir::In, Dir::Out];
    /// The two sideways directions.
    pub const SIDEWAYS: [Dir; 2] = [Dir::Clockwise, Dir::Counter];
}

/// No neighbour in that direction.
const NONE: u8 = 255;

/// `NEIGHBOURS[cell][dir]`: the neighbouring cell index, 48 for the fortress, or
/// [`NONE`]. Outward neighbours are given up to ring 6; a smaller board masks them
/// out with [`Bitboard::board`]. This table is the one place where the ring wraps.
const NEIGHBOURS: [[u8; 4]; RING_CELLS] = build_neighbours();

const fn build_neighbours() -> [[u8; 4]; RING_CELLS] {
    let mut table = [[NONE; 4]; RING_CELLS];
    let mut i = 0;
    while i < RING_CELLS {
        let sector = (i % 8) as u8;
        let ring = (i / 8) as u8 + 1;
        let base = (ring - 1) * 8;
        table[i][Dir::Clockwise as usize] = base + (sector + 1) % 8;
        table[i][Dir::Counter as usize] = base + (sector + 7) % 8;
        table[i][Dir::In as usize] = if ring == 1 { 48 } else { i as u8 - 8 };
        table[i][Dir::Out as usize] = if ring == MAX_RINGS { NONE } else { i as u8 + 8 };
        i += 1;
    }
    table
}

/// The neighbour of a ring cell in `dir` on a board of `rings` rings: a ring cell,
/// the fortress (inward from ring 1), or `None` (outward from the outer ring, or
/// from the fortress itself).
#[inline]
pub fn neighbour(cell: Cell, dir: Dir, rings: u8) -> Option<Cell> {
    if cell.is_fortress() {
        return None;
    }
    let n = NEIGHBOURS[cell.index()][dir as usize];
    if n == NONE || (n != 48 && n >= rings * 8) {
        None
    } else {
        Some(Cell(n))
    }
}

/// The ring-1 cell facing `cell` across the fortress (4 sectors away), used by the
/// fortress capture. Only meaningful for ring-1 cells.
#[inline]
pub const fn across_fortress(cell: Cell) -> Cell {
    Cell((cell.0 + 4) % 8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for i in 0..48 {
            let c = Cell::from_index(i).unwrap();
            assert_eq!(Cell::parse(&c.to_string(), 6), Some(c));
        }
        assert_eq!(Cell::parse("F", 6), Some(Cell::FORTRESS));
        assert_eq!(Cell::parse("a6", 5), None);
        assert_eq!(Cell::parse("i1", 6), None);
        assert_eq!(Cell::parse("a0", 6), None);
    }

    #[test]
    fn sideways_wraps_between_h_and_a() {
        // "it wraps, so h3 and a3 are neighbours"
        let h3 = Cell::parse("h3", 6).unwrap();
        let a3 = Cell::parse("a3", 6).unwrap();
        assert_eq!(neighbour(h3, Dir::Clockwise, 6), Some(a3));
        assert_eq!(neighbour(a3, Dir::Counter, 6), Some(h3));
    }

    #[test]
    fn forward_from_ring_one_is_the_fortress() {
        let c1 = Cell::parse("c1", 6).unwrap();
        assert_eq!(neighbour(c1, Dir::In, 6), Some(Cell::FORTRESS));
        assert_eq!(neighbour(Cell::parse("c6", 6).unwrap(), Dir::Out, 6), None);
        assert_eq!(neighbour(Cell::parse("c5", 5).unwrap(), Dir::Out, 5), None);
        assert_eq!(
            neighbour(Cell::parse("c5", 6).unwrap(), Dir::Out, 6),
            Cell::parse("c6", 6)
        );
    }

    #[test]
    fn facing_cells_across_the_fortress() {
        // "a1↔e1, b1↔f1, c1↔g1, d1↔h1"
        for (x, y) in [("a1", "e1"), ("b1", "f1"), ("c1", "g1"), ("d1", "h1")] {
            let x = Cell::parse(x, 6).unwrap();
            let y = Cell::parse(y, 6).unwrap();
            assert_eq!(across_fortress(x), y);
            assert_eq!(across_fortress(y), x);
        }
    }

    #[test]
    fn colours() {
        // Light when (sector + ring) is even, outside the NZ.
        assert!(Cell::parse("b1", 6).unwrap().is_light());
        assert!(!Cell::parse("c1", 6).unwrap().is_light());
        assert!(!Cell::parse("a2", 6).unwrap().is_light());
        assert!(Cell::parse("a2", 6).unwrap().is_neutral());
    }
}
