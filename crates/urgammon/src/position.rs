//! Where the pieces are: each side's army (on the board, waiting, in the
//! palace) and the move generation over both armies.

use crate::board::{house_at, progress_of, BySide, House, Kind, Side, CROSS, PALACE, ROSETTE};
use crate::moves::{Move, MoveList};
use crate::result::ResultKind;

/// Where one side's pieces are.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Army {
    /// `cells[progress]` for progress 1..=16: 0 empty, else the kind + 1.
    cells: [u8; 17],
    /// Bit `p` set when `cells[p]` holds a piece: move generation walks only these.
    mask: u32,
    /// Pieces in the waiting area, by kind.
    waiting: [u8; 3],
    /// Pieces in the palace, by kind.
    palace: [u8; 3],
}

impl Army {
    const START: Army = Army {
        cells: [0; 17],
        mask: 0,
        waiting: [3, 3, 1],
        palace: [0; 3],
    };

    /// The piece at a progress 1..=16.
    #[inline]
    pub fn at(&self, progress: u8) -> Option<Kind> {
        match self.cells.get(progress as usize).copied().unwrap_or(0) {
            0 => None,
            k => Some(Kind::from_index(k - 1)),
        }
    }

    /// Waiting pieces of a kind.
    pub fn waiting(&self, kind: Kind) -> u8 {
        self.waiting[kind as usize]
    }

    /// Pieces of a kind in the palace.
    pub fn palace(&self, kind: Kind) -> u8 {
        self.palace[kind as usize]
    }

    /// All waiting pieces.
    pub fn waiting_total(&self) -> u8 {
        self.waiting.iter().sum()
    }

    /// All pieces in the palace.
    pub fn palace_total(&self) -> u8 {
        self.palace.iter().sum()
    }

    /// The steps still to travel to the palace (the race count, as a pip
    /// count in backgammon): `PALACE` for each waiting piece, `PALACE` −
    /// progress for each piece on the board, nothing for the palace's.
    #[inline]
    pub fn pips(&self) -> u32 {
        let mut total = u32::from(PALACE) * u32::from(self.waiting_total());
        let mut mask = self.mask;
        while mask != 0 {
            let p = mask.trailing_zeros();
            mask &= mask - 1;
            total += u32::from(PALACE) - p;
        }
        total
    }

    /// The pieces on the board as (progress, kind).
    pub fn on_board(&self) -> impl Iterator<Item = (u8, Kind)> + '_ {
        (1..=16u8).filter_map(|p| self.at(p).map(|k| (p, k)))
    }

    /// The occupied progresses as bits (bit `p` for progress `p`, 1..=16), for
    /// callers that walk the pieces fast (evaluation features).
    #[inline]
    pub fn mask(&self) -> u32 {
        self.mask
    }

    /// True when a piece stands at a progress 1..=16.
    #[inline]
    pub fn occupied(&self, progress: u8) -> bool {
        self.mask & (1u32 << (progress & 31)) != 0
    }
}

/// The placement of both armies.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    armies: BySide<Army>,
}

impl Default for Position {
    fn default() -> Position {
        Position::START
    }
}

impl Position {
    /// Every piece waiting.
    pub const START: Position = Position {
        armies: BySide::new(Army::START, Army::START),
    };

    /// Builds a position from the pieces on the board and in the palace; every
    /// other piece is waiting.
    ///
    /// # Errors
    /// Two pieces on one house, a house off the side's path, or more pieces of a
    /// kind than a side has.
    pub fn setup(
        board: &[(Side, House, Kind)],
        palace: &[(Side, Kind, u8)],
    ) -> Result<Position, String> {
        let mut pos = Position::START;
        let mut used = [false; 20];
        let take = |pos: &mut Position, side: Side, kind: Kind, n: u8| -> Result<(), String> {
            let w = &mut pos.armies[side].waiting[kind as usize];
            *w = w.checked_sub(n).ok_or_else(|| {
                format!("{} has only {} {}s", side.name(), kind.count(), kind.name())
            })?;
            Ok(())
        };
        for &(side, house, kind) in board {
            let p = progress_of(side, house)
                .ok_or_else(|| format!("{house} is not on {}'s path", side.name()))?;
            if std::mem::replace(&mut used[house.index()], true) {
                return Err(format!("two pieces on {house}"));
            }
            take(&mut pos, side, kind, 1)?;
            pos.armies[side].cells[p as usize] = kind as u8 + 1;
            pos.armies[side].mask |= 1 << p;
        }
        for &(side, kind, n) in palace {
            take(&mut pos, side, kind, n)?;
            pos.armies[side].palace[kind as usize] += n;
        }
        Ok(pos)
    }

    /// One side's pieces.
    pub fn army(&self, side: Side) -> &Army {
        &self.armies[side]
    }

    /// The piece on a house, with its side.
    pub fn at(&self, house: House) -> Option<(Side, Kind)> {
        Side::ALL.into_iter().find_map(|s| {
            progress_of(s, house)
                .and_then(|p| self.armies[s].at(p))
                .map(|k| (s, k))
        })
    }

    /// The legal moves of `side` with value `v` into `out`. `promoted` says the
    /// value came from the verdict die: then pawns cannot enter and nothing bears
    /// off, and chariots (5–7) and the hero (10) may enter.
    pub fn moves(&self, side: Side, v: u8, promoted: bool, out: &mut MoveList) {
        out.clear();
        let own = &self.armies[side];
        let enemy = &self.armies[side.other()];
        let cross = &CROSS[side.index()];
        let rosette = &ROSETTE[side.index()];
        // A step or entry onto progress `t`: not onto an own piece; onto an enemy
        // only where the capture table allows and the house is not a rosette.
        let target = |t: u8, piece: Kind| -> Option<Option<Kind>> {
            if own.mask & (1 << t) != 0 {
                return None;
            }
            let e = enemy.cells[cross[t as usize] as usize];
            if cross[t as usize] == 0 || e == 0 {
                return Some(None);
            }
            let victim = Kind::from_index(e - 1);
            (!rosette[t as usize] && piece.captures(victim)).then_some(Some(victim))
        };
        let last_piece = own.palace_total() == 6;
        let mut mask = own.mask;
        while mask != 0 {
            let from = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            let piece = Kind::from_index(own.cells[from as usize] - 1);
            let t = from + v;
            if t < PALACE {
                if let Some(captured) = target(t, piece) {
                    out.push(Move {
                        piece,
                        from,
                        to: t,
                        captured,
                    });
                }
            } else if !promoted && (t == PALACE || last_piece) {
                // Bear-off: exact, or greater for the last piece; never promoted.
                out.push(Move {
                    piece,
                    from,
                    to: PALACE,
                    captured: None,
                });
            }
        }
        let pawns_waiting = own.waiting[Kind::Pawn as usize] > 0;
        let entry = match (promoted, v) {
            (false, 1..=4) if pawns_waiting => Some(Kind::Pawn),
            (true, 5..=7) if !pawns_waiting && own.waiting[Kind::Chariot as usize] > 0 => {
                Some(Kind::Chariot)
            }
            (true, 10) if !pawns_waiting && own.waiting[Kind::Hero as usize] > 0 => {
                Some(Kind::Hero)
            }
            _ => None,
        };
        if let Some(piece) = entry {
            if let Some(captured) = target(v, piece) {
                out.push(Move {
                    piece,
                    from: 0,
                    to: v,
                    captured,
                });
            }
        }
    }

    /// Plays a move of `side` (from [`Position::moves`]). Returns true when it
    /// ended on a rosette.
    pub(crate) fn play(&mut self, side: Side, m: Move) -> bool {
        let kind = m.piece as usize;
        {
            let own = &mut self.armies[side];
            if m.from == 0 {
                own.waiting[kind] -= 1;
            } else {
                own.cells[m.from as usize] = 0;
                own.mask &= !(1 << m.from);
            }
            if m.to == PALACE {
                own.palace[kind] += 1;
                return false;
            }
            own.cells[m.to as usize] = kind as u8 + 1;
            own.mask |= 1 << m.to;
        }
        let house = house_at(side, m.to);
        if let Some(victim) = m.captured {
            let enemy = &mut self.armies[side.other()];
            if let Some(ep) = progress_of(side.other(), house) {
                enemy.cells[ep as usize] = 0;
                enemy.mask &= !(1 << ep);
            }
            enemy.waiting[victim as usize] += 1;
        }
        house.is_rosette()
    }

    /// The points a loss scores, judged from the loser's position (section 6):
    /// 4 Babylon, 3 waiting, 2 streets, 1 plain.
    pub fn loss_points(&self, loser: Side) -> (u8, ResultKind) {
        let army = &self.armies[loser];
        if army.palace_total() == 0 {
            (4, ResultKind::Babylon)
        } else if army.waiting_total() > 0 {
            (3, ResultKind::Waiting)
        } else if army.mask & 0b111_1111_1110 != 0 {
            // A piece at progress 1..=10: the lower city or the bridge.
            (2, ResultKind::Streets)
        } else {
            (1, ResultKind::Plain)
        }
    }
}
