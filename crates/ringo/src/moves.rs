//! Moves, the fixed-capacity move list, and move notation (section 8).

use crate::board::Cell;
use std::fmt;

const NONE: u8 = 255;

/// One move: a step, slide or NZ jump (`FROM-TO`), a capture (`FROMxTO`), or a pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(C, align(4))] // four bytes, so the generator stores a move in one write
pub struct Move {
    from: u8,
    to: u8,
    captured: u8,
}

impl Move {
    /// The pass.
    pub const PASS: Move = Move {
        from: NONE,
        to: NONE,
        captured: NONE,
    };

    /// A move from raw cell indices (`captured` 255 for none), for the bulk generator.
    #[inline(always)]
    pub(crate) const fn raw(from: u8, to: u8, captured: u8) -> Move {
        Move { from, to, captured }
    }

    /// The raw `(from, to, captured)` indices: 48 is the fortress, 255 none.
    #[inline(always)]
    pub(crate) const fn raw_parts(self) -> (u8, u8, u8) {
        (self.from, self.to, self.captured)
    }

    /// A move that captures nothing.
    #[inline]
    pub const fn quiet(from: Cell, to: Cell) -> Move {
        Move {
            from: from.index() as u8,
            to: to.index() as u8,
            captured: NONE,
        }
    }

    /// A capture: the capturer goes from `from` to `to` and `captured` leaves the game.
    /// `captured` is the fortress for a fortress capture.
    #[inline]
    pub const fn capture(from: Cell, to: Cell, captured: Cell) -> Move {
        Move {
            from: from.index() as u8,
            to: to.index() as u8,
            captured: captured.index() as u8,
        }
    }

    /// True for the pass.
    #[inline]
    pub const fn is_pass(self) -> bool {
        self.from == NONE
    }

    /// The start cell (`None` for a pass).
    #[inline]
    pub const fn from(self) -> Option<Cell> {
        Cell::from_index(self.from as usize)
    }

    /// The end cell (`None` for a pass).
    #[inline]
    pub const fn to(self) -> Option<Cell> {
        Cell::from_index(self.to as usize)
    }

    /// The captured piece's cell, if the move captures.
    #[inline]
    pub const fn captured(self) -> Option<Cell> {
        Cell::from_index(self.captured as usize)
    }

    /// True when the move captures.
    #[inline]
    pub const fn is_capture(self) -> bool {
        self.captured != NONE
    }

    /// Writes the move in notation. `legal` is the list the move was chosen from:
    /// it decides whether the captured cell must be added in parentheses, which
    /// happens exactly when another legal capture shares this `FROMxTO`.
    pub fn to_notation(self, legal: &[Move]) -> String {
        let mut s = self.to_string();
        if self.is_capture()
            && legal.iter().any(|m| {
                m.from == self.from
                    && m.to == self.to
                    && m.is_capture()
                    && m.captured != self.captured
            })
        {
            if let Some(c) = self.captured() {
                s.push('(');
                s.push_str(&c.to_string());
                s.push(')');
            }
        }
        s
    }
}

impl fmt::Display for Move {
    /// The move without disambiguation: `FROM-TO`, `FROMxTO` or `pass`. Use
    /// [`Move::to_notation`] to write a move for a record.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.from(), self.to()) {
            (Some(from), Some(to)) => {
                let sep = if self.is_capture() { 'x' } else { '-' };
                write!(f, "{from}{sep}{to}")
            }
            _ => f.write_str("pass"),
        }
    }
}

/// Capacity of a [`MoveList`]. The most moves one side can have is well below
/// this: 7 attackers × 14, or 4 defenders × 22 with slides.
pub const MAX_MOVES: usize = 128;

/// A fixed-capacity list of moves, so move generation never allocates.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            moves: [Move::PASS; MAX_MOVES],
            len: 0,
        }
    }
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList::default()
    }

    /// Appends a move.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES, "move list overflow");
        // The capacity is above the most moves any position has (see MAX_MOVES);
        // masking the index keeps the hot path free of a bounds check.
        self.moves[self.len & (MAX_MOVES - 1)] = m;
        self.len = (self.len + 1).min(MAX_MOVES);
    }

    /// A writer that keeps the count in a local, for the generator's hot loops;
    /// [`Sink::finish`] stores it back.
    #[inline(always)]
    pub(crate) fn sink(&mut self) -> Sink<'_> {
        Sink {
            n: self.len,
            list: self,
        }
    }

    /// Appends a move unless it is already among the moves from index `since` on.
    #[inline]
    pub(crate) fn push_unique(&mut self, m: Move, since: usize) {
        if !self.moves[since..self.len].contains(&m) {
            self.push(m);
        }
    }

    /// Keeps the moves for which `keep` is true.
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[j] = m;
                j += 1;
            }
        }
        self.len = j;
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

/// Appends to a [`MoveList`] with the count held in a register.
pub(crate) struct Sink<'a> {
    list: &'a mut MoveList,
    n: usize,
}

impl Sink<'_> {
    /// Appends a move. The list's capacity exceeds any position's move count;
    /// the mask keeps even a broken count inside the array.
    #[inline(always)]
    pub(crate) fn push(&mut self, m: Move) {
        self.list.moves[self.n & (MAX_MOVES - 1)] = m;
        self.n += 1;
    }

    /// Stores the count back into the list.
    #[inline(always)]
    pub(crate) fn finish(self) {
        debug_assert!(self.n <= MAX_MOVES, "move list overflow");
        self.list.len = self.n.min(MAX_MOVES);
    }
}

/// A move as written, before it is matched against the legal moves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveText {
    /// `pass`.
    Pass,
    /// `FROM-TO`, `FROMxTO` or `FROMxTO(CAPTURED)`.
    Move {
        /// Start cell.
        from: Cell,
        /// End cell.
        to: Cell,
        /// True when written with `x`.
        capture: bool,
        /// The cell in parentheses, if given.
        captured: Option<Cell>,
    },
}

/// Why a move text could not be played.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveError {
    /// The text is not move notation.
    Syntax {
        /// The text.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The game is already over.
    GameOver,
    /// Well-formed, but not a legal move here.
    Illegal {
        /// The text.
        text: String,
        /// Why it is illegal.
        reason: String,
    },
    /// Several legal captures share this `FROMxTO`; the captured cell must be given.
    Ambiguous {
        /// The text.
        text: String,
        /// The disambiguated notations it could mean.
        candidates: Vec<String>,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax { text, reason } => write!(f, "'{text}' is not a move: {reason}"),
            MoveError::GameOver => f.write_str("the game is over"),
            MoveError::Illegal { text, reason } => write!(f, "'{text}' is illegal: {reason}"),
            MoveError::Ambiguous { text, candidates } => write!(
                f,
                "'{text}' is ambiguous; write one of {}",
                candidates.join(", ")
            ),
        }
    }
}

impl std::error::Error for MoveError {}

impl MoveText {
    /// Parses move notation for a board of `rings` rings. Never panics.
    ///
    /// # Errors
    /// [`MoveError::Syntax`] with the reason.
    pub fn parse(text: &str, rings: u8) -> Result<MoveText, MoveError> {
        let syntax = |reason: String| MoveError::Syntax {
            text: text.to_string(),
            reason,
        };
        if text == "pass" {
            return Ok(MoveText::Pass);
        }
        let (body, captured) = match text.split_once('(') {
            Some((body, rest)) => {
                let inner = rest
                    .strip_suffix(')')
                    .ok_or_else(|| syntax("missing ')' after the captured cell".into()))?;
                let cell = Cell::parse(inner, rings)
                    .ok_or_else(|| syntax(format!("'{inner}' is not a cell of this board")))?;
                (body, Some(cell))
            }
            None => (text, None),
        };
        let (from, to, capture) = if let Some((a, b)) = body.split_once('x') {
            (a, b, true)
        } else if let Some((a, b)) = body.split_once('-') {
            (a, b, false)
        } else {
            return Err(syntax(
                "expected FROM-TO, FROMxTO, FROMxTO(CAPTURED) or pass".into(),
            ));
        };
        if captured.is_some() && !capture {
            return Err(syntax("a captured cell is given only with 'x'".into()));
        }
        let from_cell = Cell::parse(from, rings)
            .ok_or_else(|| syntax(format!("'{from}' is not a cell of this board")))?;
        if from_cell.is_fortress() {
            return Err(syntax("no piece ever moves out of F".into()));
        }
        let to_cell = Cell::parse(to, rings)
            .ok_or_else(|| syntax(format!("'{to}' is not a cell of this board")))?;
        Ok(MoveText::Move {
            from: from_cell,
            to: to_cell,
            capture,
            captured,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(s: &str) -> Cell {
        Cell::parse(s, 6).unwrap()
    }

    #[test]
    fn display_forms() {
        assert_eq!(Move::quiet(cell("b6"), cell("b5")).to_string(), "b6-b5");
        assert_eq!(Move::quiet(cell("b1"), Cell::FORTRESS).to_string(), "b1-F");
        assert_eq!(
            Move::capture(cell("d3"), cell("d1"), cell("d2")).to_string(),
            "d3xd1"
        );
        assert_eq!(Move::PASS.to_string(), "pass");
    }

    #[test]
    fn disambiguation_only_when_needed() {
        // "d2xa2(b2), d2xa2(h2)"
        let a = Move::capture(cell("d2"), cell("a2"), cell("b2"));
        let b = Move::capture(cell("d2"), cell("a2"), cell("h2"));
        assert_eq!(a.to_notation(&[a]), "d2xa2");
        assert_eq!(a.to_notation(&[a, b]), "d2xa2(b2)");
        assert_eq!(b.to_notation(&[a, b]), "d2xa2(h2)");
        let f = Move::capture(cell("f1"), cell("b1"), Cell::FORTRESS);
        let r = Move::capture(cell("f1"), cell("b1"), cell("c1"));
        assert_eq!(f.to_notation(&[f, r]), "f1xb1(F)");
    }

    #[test]
    fn parse_errors_do_not_panic() {
        for bad in [
            "",
            "x",
            "-",
            "a1",
            "a1-",
            "-a1",
            "a7-a6",
            "z1-z2",
            "a1-b1(",
            "a1xb1(c1",
            "a1-b1(c1)",
            "F-a1",
            "a1xb1(q9)",
            "ää-éé",
            "a1xb1)",
            "pas",
            "a1--b1",
        ] {
            assert!(MoveText::parse(bad, 6).is_err(), "{bad}");
        }
        assert!(MoveText::parse("a6-a5", 5).is_err());
        assert!(MoveText::parse("c1xg1", 6).is_ok());
    }
}
