//! The board: houses, the two paths, rosettes, sides and pieces.
//!
//! ```text
//!  col    1    2    3    4    5    6    7    8
//!  A    [4a]  3a   2a   1a             [12a] 13a
//!  M      5    6    7   [8]   9   10   11   14
//!  B    [4b]  3b   2b   1b             [12b] 13b
//! ```
//! Rosettes are in brackets. A piece's *progress* is its index on its own path:
//! 1 for its side's `1x`, up to 16 for its gate, and 17 for the palace.

use std::fmt;

/// One of the two players.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    /// Light (row A).
    Light,
    /// Dark (row B).
    Dark,
}

impl Side {
    /// Both sides.
    pub const ALL: [Side; 2] = [Side::Light, Side::Dark];

    /// The other side.
    #[inline]
    pub const fn other(self) -> Side {
        match self {
            Side::Light => Side::Dark,
            Side::Dark => Side::Light,
        }
    }

    /// `"light"` or `"dark"`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Light => "light",
            Side::Dark => "dark",
        }
    }

    /// 0 for light, 1 for dark.
    #[inline]
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

/// Per-side data, indexed by [`Side`]: `[Side::Light]`, `[Side::Dark]`.
pub type BySide<T> = agon_sides::BySide<Side, T>;

/// A kind of piece, weakest first: the order is the capture strength.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Kind {
    /// Pawn (*pion*): captures pawns.
    Pawn = 0,
    /// Chariot (*rydwan*): captures pawns and chariots.
    Chariot = 1,
    /// Hero (*heros*): captures everything.
    Hero = 2,
}

impl Kind {
    /// All kinds, weakest first.
    pub const ALL: [Kind; 3] = [Kind::Pawn, Kind::Chariot, Kind::Hero];

    /// How many of this kind each side has: 3 pawns, 3 chariots, 1 hero.
    pub const fn count(self) -> u8 {
        match self {
            Kind::Pawn | Kind::Chariot => 3,
            Kind::Hero => 1,
        }
    }

    /// The notation letter: `P`, `C` or `H`.
    pub const fn letter(self) -> char {
        match self {
            Kind::Pawn => 'P',
            Kind::Chariot => 'C',
            Kind::Hero => 'H',
        }
    }

    /// The kind for a notation letter.
    pub fn from_letter(c: char) -> Option<Kind> {
        match c {
            'P' => Some(Kind::Pawn),
            'C' => Some(Kind::Chariot),
            'H' => Some(Kind::Hero),
            _ => None,
        }
    }

    /// The English name.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Pawn => "pawn",
            Kind::Chariot => "chariot",
            Kind::Hero => "hero",
        }
    }

    /// The capture table: a pawn captures pawns, a chariot pawns and chariots,
    /// the hero everything.
    #[inline]
    pub const fn captures(self, victim: Kind) -> bool {
        self as u8 >= victim as u8
    }

    #[inline]
    pub(crate) const fn from_index(i: u8) -> Kind {
        match i {
            0 => Kind::Pawn,
            1 => Kind::Chariot,
            _ => Kind::Hero,
        }
    }
}

/// One of the 20 houses.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct House(u8);

/// House names in index order.
const NAMES: [&str; 20] = [
    "1a", "2a", "3a", "4a", "1b", "2b", "3b", "4b", "5", "6", "7", "8", "9", "10", "11", "12a",
    "12b", "13a", "13b", "14",
];

impl House {
    /// Every house, in index order: 1a–4a, 1b–4b, 5–11, 12a, 12b, 13a, 13b, 14.
    pub const ALL: [House; 20] = {
        let mut all = [House(0); 20];
        let mut i = 0;
        while i < 20 {
            all[i] = House(i as u8);
            i += 1;
        }
        all
    };

    /// The house's index (0..20) in [`House::ALL`].
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Parses a house name such as `4a` or `10`.
    pub fn parse(text: &str) -> Option<House> {
        NAMES
            .iter()
            .position(|n| *n == text)
            .map(|i| House(i as u8))
    }

    /// True for the five rosettes: 4a, 4b, 8, 12a, 12b.
    pub const fn is_rosette(self) -> bool {
        matches!(self.0, 3 | 7 | 11 | 15 | 16)
    }

    /// The (row, column) of the house on the 3 × 8 grid: row 0 is A (light's
    /// side), 1 the middle, 2 B; columns 0..8 left to right.
    pub const fn grid(self) -> (u8, u8) {
        match self.0 {
            0..=3 => (0, 3 - self.0),
            4..=7 => (2, 7 - self.0),
            8..=14 => (1, self.0 - 8),
            15 => (0, 6),
            16 => (2, 6),
            17 => (0, 7),
            18 => (2, 7),
            _ => (1, 7),
        }
    }
}

impl fmt::Display for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(NAMES[self.0 as usize])
    }
}

/// The palace's progress value.
pub const PALACE: u8 = 17;

/// `PATHS[side][progress - 1]`: the house at each progress 1..=16.
const PATHS: [[u8; 16]; 2] = [
    // light: 1a 2a 3a 4a 5 6 7 8 9 10 11 12a 13a 14 13b 12b
    [0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 17, 19, 18, 16],
    // dark: 1b 2b 3b 4b 5 6 7 8 9 10 11 12b 13b 14 13a 12a
    [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 18, 19, 17, 15],
];

/// `PROGRESS[side][house]`: the progress of a house on a side's path (0 if the
/// house is not on it: the other side's field).
const PROGRESS: [[u8; 20]; 2] = {
    let mut t = [[0u8; 20]; 2];
    let mut s = 0;
    while s < 2 {
        let mut p = 0;
        while p < 16 {
            t[s][PATHS[s][p] as usize] = p as u8 + 1;
            p += 1;
        }
        s += 1;
    }
    t
};

/// `CROSS[side][progress]`: the enemy's progress on the same house (0 where the
/// enemy's path does not pass: a side's own field). Index 0 is unused.
pub(crate) const CROSS: [[u8; 17]; 2] = {
    let mut t = [[0u8; 17]; 2];
    let mut s = 0;
    while s < 2 {
        let mut p = 1;
        while p <= 16 {
            t[s][p] = PROGRESS[1 - s][PATHS[s][p - 1] as usize];
            p += 1;
        }
        s += 1;
    }
    t
};

/// `ROSETTE[side][progress]`: true where the house at that progress is a rosette.
pub(crate) const ROSETTE: [[bool; 17]; 2] = {
    let mut t = [[false; 17]; 2];
    let mut s = 0;
    while s < 2 {
        let mut p = 1;
        while p <= 16 {
            t[s][p] = matches!(PATHS[s][p - 1], 3 | 7 | 11 | 15 | 16);
            p += 1;
        }
        s += 1;
    }
    t
};

/// The house at `progress` (1..=16) on `side`'s path.
#[inline]
pub const fn house_at(side: Side, progress: u8) -> House {
    House(PATHS[side as usize][(progress as usize - 1) % 16])
}

/// The progress of `house` on `side`'s path, or `None` if it is not on it.
#[inline]
pub const fn progress_of(side: Side, house: House) -> Option<u8> {
    match PROGRESS[side as usize][house.0 as usize] {
        0 => None,
        p => Some(p),
    }
}

/// The chance die's faces: 1, 1, 2, 2, 3, 4.
pub const CHANCE_FACES: [u8; 6] = [1, 1, 2, 2, 3, 4];

/// The verdict die: YES on 4 faces of 6, NO on 2.
pub const VERDICT_YES_FACES: u8 = 4;

/// The promoted value of a chance value: 1→5, 2→6, 3→7, 4→10 (the bull).
#[inline]
pub const fn promote(c: u8) -> u8 {
    match c {
        1 => 5,
        2 => 6,
        3 => 7,
        _ => 10,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_match_the_rules_page() {
        let names =
            |s: Side| -> Vec<String> { (1..=16).map(|p| house_at(s, p).to_string()).collect() };
        assert_eq!(
            names(Side::Light).join(" "),
            "1a 2a 3a 4a 5 6 7 8 9 10 11 12a 13a 14 13b 12b"
        );
        assert_eq!(
            names(Side::Dark).join(" "),
            "1b 2b 3b 4b 5 6 7 8 9 10 11 12b 13b 14 13a 12a"
        );
        for s in Side::ALL {
            for p in 1..=16 {
                assert_eq!(progress_of(s, house_at(s, p)), Some(p));
            }
        }
        assert_eq!(progress_of(Side::Light, House::parse("2b").unwrap()), None);
    }

    #[test]
    fn rosettes_and_names() {
        let rosettes: Vec<String> = House::ALL
            .iter()
            .filter(|h| h.is_rosette())
            .map(|h| h.to_string())
            .collect();
        assert_eq!(rosettes, ["4a", "4b", "8", "12a", "12b"]);
        for h in House::ALL {
            assert_eq!(House::parse(&h.to_string()), Some(h));
        }
        assert_eq!(House::parse("15"), None);
        assert_eq!(House::parse("4a").unwrap().grid(), (0, 0));
        assert_eq!(House::parse("14").unwrap().grid(), (1, 7));
    }

    #[test]
    fn capture_table() {
        assert!(Kind::Pawn.captures(Kind::Pawn) && !Kind::Pawn.captures(Kind::Chariot));
        assert!(Kind::Chariot.captures(Kind::Chariot) && !Kind::Chariot.captures(Kind::Hero));
        assert!(Kind::Hero.captures(Kind::Hero));
    }
}
