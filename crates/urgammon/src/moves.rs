//! Moves (steps, entries, bear-offs) and the fixed-capacity move list.

use crate::board::{house_at, House, Kind, Side, PALACE};

/// A move: a step, an entry (`from` 0), or a bear-off (`to` 17).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// The moving piece.
    pub piece: Kind,
    /// Its progress before the move (0 for an entry from the waiting area).
    pub from: u8,
    /// Its progress after (17 = the palace).
    pub to: u8,
    /// The captured enemy piece, if any.
    pub captured: Option<Kind>,
}

impl Move {
    /// Writes the move for `side`: `P-2a`, `Cx6`, `2a-3a`, `5x9`, `13b-off`.
    pub fn notation(&self, side: Side) -> String {
        let sep = if self.captured.is_some() { 'x' } else { '-' };
        let from = if self.from == 0 {
            self.piece.letter().to_string()
        } else {
            house_at(side, self.from).to_string()
        };
        let to = if self.to == PALACE {
            "off".to_string()
        } else {
            house_at(side, self.to).to_string()
        };
        format!("{from}{sep}{to}")
    }

    /// The house the move ends on (`None` for a bear-off).
    pub fn to_house(&self, side: Side) -> Option<House> {
        (self.to < PALACE).then(|| house_at(side, self.to))
    }

    /// The house the move starts from (`None` for an entry).
    pub fn from_house(&self, side: Side) -> Option<House> {
        (self.from > 0).then(|| house_at(side, self.from))
    }
}

/// At most one move per piece on the board, plus three entries: 8 is plenty.
pub const MAX_MOVES: usize = 10;

/// A fixed-capacity move list, so generation never allocates.
#[derive(Clone, Copy, Debug)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: u8,
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList {
            moves: [Move {
                piece: Kind::Pawn,
                from: 0,
                to: 0,
                captured: None,
            }; MAX_MOVES],
            len: 0,
        }
    }
}

impl MoveList {
    /// Empties the list, keeping its storage (generation refills it).
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// Adds a move; a full list ignores it (it cannot fill: see
    /// [`MAX_MOVES`]).
    #[inline]
    pub(crate) fn push(&mut self, m: Move) {
        if let Some(slot) = self.moves.get_mut(self.len as usize) {
            *slot = m;
            self.len += 1;
        }
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }
}
