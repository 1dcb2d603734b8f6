//! Positions: the placement of the pieces and the side to move, their text form
//! (section 8) and their Zobrist key.

use crate::board::{Bitboard, Cell, SECTORS};
use crate::rules::Rules;
use std::fmt;

/// One of the two sides.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    /// The attackers (dark, "A"); they move first.
    Attackers,
    /// The defenders (light, "D").
    Defenders,
}

impl Side {
    /// Both sides, attackers first.
    pub const ALL: [Side; 2] = [Side::Attackers, Side::Defenders];

    /// The other side.
    #[inline]
    pub const fn other(self) -> Side {
        match self {
            Side::Attackers => Side::Defenders,
            Side::Defenders => Side::Attackers,
        }
    }

    /// `"attackers"` or `"defenders"`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Attackers => "attackers",
            Side::Defenders => "defenders",
        }
    }

    /// 0 for attackers, 1 for defenders.
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl agon_sides::Two for Side {
    #[inline]
    fn index(self) -> usize {
        self as usize
    }
}

/// Per-side data, indexed by [`Side`]: `[Side::Attackers]`, `[Side::Defenders]`.
pub type BySide<T> = agon_sides::BySide<Side, T>;

/// A placement of the pieces with the side to move.
///
/// A `Position` is always valid for the rules it was made with: it comes from
/// [`Position::start`], from [`Position::parse`] (which checks the text), or from
/// playing legal moves.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    /// The ring cells of each side's pieces.
    pub(crate) pieces: BySide<Bitboard>,
    /// Attackers in the fortress (0..=2).
    pub(crate) fortress: u8,
    /// The side to move.
    pub(crate) to_move: Side,
    /// Zobrist key of the above, kept incrementally.
    pub(crate) key: u64,
}

/// Why a position string was rejected.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// Not three space-separated fields: rings, fortress count, side.
    Fields(usize),
    /// The number of `/`-separated rings is not the board's.
    RingCount {
        /// Rings found.
        found: usize,
        /// Rings the rules' board has.
        expected: u8,
    },
    /// A ring is not 8 characters long.
    RingLength {
        /// 1-based ring number (1 = next to the fortress).
        ring: u8,
        /// Characters found.
        found: usize,
    },
    /// A character other than `A`, `D` or `.`.
    BadChar {
        /// The offending character.
        ch: char,
        /// The cell it stands for.
        cell: String,
    },
    /// The fortress count is not 0, 1 or 2.
    BadFortress(String),
    /// The side is not `a` or `d`.
    BadSide(String),
    /// More attackers than the rules start with.
    TooManyAttackers {
        /// Attackers found (board and fortress).
        found: u32,
        /// The rules' `attackers`.
        max: u8,
    },
    /// More than 4 defenders.
    TooManyDefenders(u32),
    /// A cell holds both an attacker and a defender.
    Overlap(String),
    /// A piece stands on a ring the rules' board does not have.
    OffBoard(String),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Fields(n) => write!(
                f,
                "expected 3 space-separated fields (rings, attackers in F, side to move), found {n}"
            ),
            PositionError::RingCount { found, expected } => {
                write!(
                    f,
                    "expected {expected} rings separated by '/', found {found}"
                )
            }
            PositionError::RingLength { ring, found } => {
                write!(
                    f,
                    "ring {ring} has {found} characters, expected 8 (sectors a-h)"
                )
            }
            PositionError::BadChar { ch, cell } => {
                write!(f, "invalid character '{ch}' at {cell}; use A, D or .")
            }
            PositionError::BadFortress(s) => {
                write!(f, "invalid fortress count '{s}'; expected 0, 1 or 2")
            }
            PositionError::BadSide(s) => write!(f, "invalid side to move '{s}'; expected a or d"),
            PositionError::TooManyAttackers { found, max } => {
                write!(f, "{found} attackers, but these rules start with {max}")
            }
            PositionError::TooManyDefenders(n) => write!(f, "{n} defenders, but there are only 4"),
            PositionError::Overlap(cell) => write!(f, "{cell} holds an attacker and a defender"),
            PositionError::OffBoard(cell) => {
                write!(f, "a piece on {cell}, beyond these rules' outer ring")
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// Zobrist keys, made at compile time by a fixed SplitMix64 sequence (the rules
/// crate has no randomness: the keys are the same in every build).
struct Keys {
    // 64 entries, of which 48 are used, so `index & 63` needs no bounds check.
    cells: [[u64; 64]; 2],
    fortress: [u64; 4],
    defenders_to_move: u64,
}

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

const KEYS: Keys = {
    let mut keys = Keys {
        cells: [[0; 64]; 2],
        fortress: [0; 4],
        defenders_to_move: 0,
    };
    let mut state = 0x5249_4e47_4f21_u64; // "RINGO!"
    let mut side = 0;
    while side < 2 {
        let mut i = 0;
        while i < 48 {
            let (s, k) = splitmix(state);
            state = s;
            keys.cells[side][i] = k;
            i += 1;
        }
        side += 1;
    }
    // Fortress count 0 keeps key 0 so an empty fortress changes nothing.
    let (s, k1) = splitmix(state);
    let (s, k2) = splitmix(s);
    let (_, k3) = splitmix(s);
    keys.fortress = [0, k1, k2, 0];
    keys.defenders_to_move = k3;
    keys
};

#[inline]
pub(crate) fn cell_key(side: Side, cell: Cell) -> u64 {
    KEYS.cells[side.index()][cell.index() & 63]
}

#[inline]
pub(crate) fn fortress_key(count: u8) -> u64 {
    KEYS.fortress[count as usize & 3]
}

#[inline]
pub(crate) fn side_key() -> u64 {
    KEYS.defenders_to_move
}

impl Position {
    /// The start position of these rules: defenders on `b1 d1 f1 h1`, attackers on
    /// the outer ring (7: b–h; 6: all but e; 5: all but d and f), attackers to move.
    pub fn start(rules: &Rules) -> Position {
        let outer = rules.rings;
        let sectors: &[u8] = match rules.attackers {
            5 => &[1, 2, 4, 6, 7],
            6 => &[1, 2, 3, 5, 6, 7],
            _ => &[1, 2, 3, 4, 5, 6, 7],
        };
        let mut attackers = Bitboard::EMPTY;
        for &s in sectors {
            attackers = attackers.or(Cell::new(s, outer).expect("sector < 8").bb());
        }
        let mut defenders = Bitboard::EMPTY;
        for s in [1, 3, 5, 7] {
            defenders = defenders.or(Cell::new(s, 1).expect("sector < 8").bb());
        }
        Position::from_parts(attackers, defenders, 0, Side::Attackers)
    }

    /// Builds a position from its parts, computing the key. The caller guarantees
    /// the parts are consistent (disjoint sets, fortress ≤ 2).
    pub(crate) fn from_parts(
        attackers: Bitboard,
        defenders: Bitboard,
        fortress: u8,
        to_move: Side,
    ) -> Position {
        let mut key = fortress_key(fortress);
        for c in attackers.iter() {
            key ^= cell_key(Side::Attackers, c);
        }
        for c in defenders.iter() {
            key ^= cell_key(Side::Defenders, c);
        }
        if to_move == Side::Defenders {
            key ^= side_key();
        }
        Position {
            pieces: BySide::new(attackers, defenders),
            fortress,
            to_move,
            key,
        }
    }

    /// A position from its pieces, checked against these rules: what
    /// tablebases and other generated positions use instead of text.
    ///
    /// # Errors
    /// Overlapping pieces, a piece beyond the outer ring, a fortress count
    /// above 2, or more pieces than the rules have.
    pub fn from_cells(
        attackers: Bitboard,
        defenders: Bitboard,
        fortress: u8,
        to_move: Side,
        rules: &Rules,
    ) -> Result<Position, PositionError> {
        if let Some(c) = attackers.and(defenders).iter().next() {
            return Err(PositionError::Overlap(c.to_string()));
        }
        let off = attackers.or(defenders).0 & !Bitboard::board(rules.rings).0;
        if off != 0 {
            let cell = Cell::from_index(off.trailing_zeros() as usize).map_or_else(
                || format!("bit {}", off.trailing_zeros()),
                |c| c.to_string(),
            );
            return Err(PositionError::OffBoard(cell));
        }
        if fortress > 2 {
            return Err(PositionError::BadFortress(fortress.to_string()));
        }
        let total = attackers.count() + fortress as u32;
        if total > rules.attackers as u32 {
            return Err(PositionError::TooManyAttackers {
                found: total,
                max: rules.attackers,
            });
        }
        if defenders.count() > 4 {
            return Err(PositionError::TooManyDefenders(defenders.count()));
        }
        Ok(Position::from_parts(
            attackers, defenders, fortress, to_move,
        ))
    }

    /// Parses and checks a position string for these rules, e.g.
    /// `.AAAAAAA/......../......../......../......../.D.D.D.D 0 a`.
    ///
    /// # Errors
    /// A [`PositionError`] saying what is wrong and where.
    pub fn parse(text: &str, rules: &Rules) -> Result<Position, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 3 {
            return Err(PositionError::Fields(fields.len()));
        }
        let rings: Vec<&str> = fields[0].split('/').collect();
        if rings.len() != rules.rings as usize {
            return Err(PositionError::RingCount {
                found: rings.len(),
                expected: rules.rings,
            });
        }
        let mut attackers = Bitboard::EMPTY;
        let mut defenders = Bitboard::EMPTY;
        for (i, ring_text) in rings.iter().enumerate() {
            let ring = rules.rings - i as u8;
            let chars: Vec<char> = ring_text.chars().collect();
            if chars.len() != SECTORS as usize {
                return Err(PositionError::RingLength {
                    ring,
                    found: chars.len(),
                });
            }
            for (s, &ch) in chars.iter().enumerate() {
                let cell = Cell::new(s as u8, ring).expect("sector and ring in range");
                match ch {
                    'A' => attackers = attackers.or(cell.bb()),
                    'D' => defenders = defenders.or(cell.bb()),
                    '.' => {}
                    _ => {
                        return Err(PositionError::BadChar {
                            ch,
                            cell: cell.to_string(),
                        })
                    }
                }
            }
        }
        let fortress = match fields[1] {
            "0" => 0,
            "1" => 1,
            "2" => 2,
            other => return Err(PositionError::BadFortress(other.to_string())),
        };
        let to_move = match fields[2] {
            "a" => Side::Attackers,
            "d" => Side::Defenders,
            other => return Err(PositionError::BadSide(other.to_string())),
        };
        Position::from_cells(attackers, defenders, fortress, to_move, rules)
    }

    /// The side to move.
    #[inline]
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// The ring cells holding `side`'s pieces.
    #[inline]
    pub fn pieces(&self, side: Side) -> Bitboard {
        self.pieces[side]
    }

    /// All occupied ring cells.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.pieces[Side::Attackers].or(self.pieces[Side::Defenders])
    }

    /// Attackers in the fortress (0, 1 or 2).
    #[inline]
    pub fn fortress(&self) -> u8 {
        self.fortress
    }

    /// Attackers left: on the board plus in the fortress.
    #[inline]
    pub fn attackers_left(&self) -> u32 {
        self.pieces[Side::Attackers].count() + self.fortress as u32
    }

    /// Defenders left on the board.
    #[inline]
    pub fn defenders_left(&self) -> u32 {
        self.pieces[Side::Defenders].count()
    }

    /// Attackers standing in the neutral zone.
    #[inline]
    pub fn attackers_in_neutral(&self) -> u32 {
        self.pieces[Side::Attackers]
            .and(Bitboard::NEUTRAL_ZONE)
            .count()
    }

    /// The piece on a ring cell, if any. The fortress is read with [`Position::fortress`].
    pub fn piece_at(&self, cell: Cell) -> Option<Side> {
        Side::ALL
            .into_iter()
            .find(|&s| self.pieces[s].contains(cell))
    }

    /// The Zobrist key of placement plus side to move (what repetition compares).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Writes the position string for a board of `rings` rings.
    pub fn to_text(&self, rings: u8) -> String {
        let mut s = String::with_capacity(64);
        for ring in (1..=rings).rev() {
            for sector in 0..SECTORS {
                let cell = Cell::new(sector, ring).expect("in range");
                s.push(match self.piece_at(cell) {
                    Some(Side::Attackers) => 'A',
                    Some(Side::Defenders) => 'D',
                    None => '.',
                });
            }
            if ring > 1 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push((b'0' + self.fortress) as char);
        s.push(' ');
        s.push(match self.to_move {
            Side::Attackers => 'a',
            Side::Defenders => 'd',
        });
        s
    }

    /// Recomputes the key from scratch; debug checks compare it with the
    /// incremental one.
    pub fn recompute_key(&self) -> u64 {
        Position::from_parts(
            self.pieces[Side::Attackers],
            self.pieces[Side::Defenders],
            self.fortress,
            self.to_move,
        )
        .key
    }
}

impl Position {
    /// Plays `m` without checking it: for search and perft, with moves taken from
    /// [`crate::legal_moves`]. Untrusted moves go through [`crate::Game::play`].
    #[inline]
    pub fn play_unchecked(&mut self, m: crate::moves::Move) {
        let side = self.to_move;
        let (from, to, captured) = m.raw_parts();
        // Raw indices on this hot path: 48 is the fortress, 255 "none".
        if from != 255 {
            let enemy = side.other();
            if captured == 48 {
                self.key ^= KEYS.fortress[self.fortress as usize & 3];
                self.fortress -= 1;
                self.key ^= KEYS.fortress[self.fortress as usize & 3];
            } else if captured != 255 {
                self.pieces[enemy].0 ^= 1 << captured;
                self.key ^= KEYS.cells[enemy.index()][captured as usize & 63];
            }
            self.pieces[side].0 ^= 1 << from;
            self.key ^= KEYS.cells[side.index()][from as usize & 63];
            if to == 48 {
                self.key ^= KEYS.fortress[self.fortress as usize & 3];
                self.fortress += 1;
                self.key ^= KEYS.fortress[self.fortress as usize & 3];
            } else {
                self.pieces[side].0 ^= 1 << to;
                self.key ^= KEYS.cells[side.index()][to as usize & 63];
            }
        }
        self.to_move = side.other();
        self.key ^= side_key();
        debug_assert_eq!(self.key, self.recompute_key());
        debug_assert!(self.pieces[Side::Attackers]
            .and(self.pieces[Side::Defenders])
            .is_empty());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_from_cells_are_checked() {
        let rules: Rules = "classic,rings=5".parse().unwrap();
        let a = Cell::new(2, 3).unwrap().bb();
        let d = Cell::new(4, 1).unwrap().bb();
        let p = Position::from_cells(a, d, 1, Side::Defenders, &rules).unwrap();
        assert_eq!(
            p.to_text(5),
            "......../......../..A...../......../....D... 1 d"
        );
        assert_eq!(p.key(), p.recompute_key());
        let outer6 = Cell::new(0, 6).unwrap().bb();
        for (att, def, f, want) in [
            (a, a, 0, PositionError::Overlap("c3".into())),
            (outer6, d, 0, PositionError::OffBoard("a6".into())),
            (a, d, 3, PositionError::BadFortress("3".into())),
            (
                Bitboard(0xff << 16),
                d,
                0,
                PositionError::TooManyAttackers { found: 8, max: 7 },
            ),
            (a, Bitboard(0x1f00), 0, PositionError::TooManyDefenders(5)),
        ] {
            assert_eq!(
                Position::from_cells(att, def, f, Side::Attackers, &rules),
                Err(want)
            );
        }
    }

    const START: &str = ".AAAAAAA/......../......../......../......../.D.D.D.D 0 a";

    #[test]
    fn standard_start_string() {
        let rules = Rules::default();
        assert_eq!(Position::start(&rules).to_text(6), START);
        assert_eq!(Position::parse(START, &rules), Ok(Position::start(&rules)));
    }

    #[test]
    fn start_cells_for_fewer_attackers() {
        let mut rules = Rules {
            attackers: 6,
            ..Rules::default()
        };
        assert!(Position::start(&rules).to_text(6).starts_with(".AAA.AAA/"));
        rules.attackers = 5;
        assert!(Position::start(&rules).to_text(6).starts_with(".AA.A.AA/"));
        rules.rings = 5;
        let p = Position::start(&rules);
        assert_eq!(
            p.to_text(5),
            ".AA.A.AA/......../......../......../.D.D.D.D 0 a"
        );
    }

    #[test]
    fn rejects_bad_text() {
        let rules = Rules::default();
        let bad = [
            "",
            ".AAAAAAA/......../......../......../.D.D.D.D 0 a",
            ".AAAAAAA/......../......../......../......../.D.D.D.D 3 a",
            ".AAAAAAA/......../......../......../......../.D.D.D.D 0 x",
            ".AAAAAAX/......../......../......../......../.D.D.D.D 0 a",
            ".AAAAAAA/......./......../......../......../.D.D.D.D 0 a",
            "AAAAAAAA/......../......../......../......../.D.D.D.D 0 a",
            ".AAAAAAA/......../......../......../......../DD.D.D.D 0 a",
            ".AAAAAAA/......../......../......../......../.D.D.D.D 0 a extra",
            "ééééééé/......../......../......../......../.D.D.D.D 0 a",
        ];
        for text in bad {
            assert!(Position::parse(text, &rules).is_err(), "{text}");
        }
    }
}
