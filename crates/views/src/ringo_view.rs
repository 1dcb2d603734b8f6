//! The Ringo views.

use serde::Serialize;

/// A Ringo game: the `agon ringo legal` object (position, side to move,
/// status, sorted legal moves) plus the history and counts a board needs.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct RingoGame {
    /// The rules string.
    pub rules: String,
    /// Rings around the fortress.
    pub rings: u8,
    /// The position in notation.
    pub position: String,
    /// The start position in notation.
    pub start_position: String,
    /// `attackers` or `defenders`.
    pub to_move: &'static str,
    /// `ongoing`, `attackers-win`, `defenders-win` or `draw`.
    pub status: &'static str,
    /// Why the game ended, once it has.
    pub reason: Option<&'static str>,
    /// Moves played.
    pub ply: usize,
    /// The legal moves, sorted.
    pub moves: Vec<String>,
    /// The moves played, in notation.
    pub history: Vec<String>,
    /// The last move's cells.
    pub last_move: Option<RingoLastMove>,
    /// Pieces captured so far, by whose pieces they were.
    pub captured: RingoCaptured,
    /// Attackers in the fortress.
    pub fortress: u8,
    /// Every piece on the board (the fortress's attackers are `fortress`).
    pub board: Vec<RingoPiece>,
    /// The legal moves with their cells, so a page never parses notation.
    pub legal: Vec<RingoMoveView>,
}

/// A piece on a Ringo board.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct RingoPiece {
    /// Its cell: `b6`.
    pub cell: String,
    /// `attackers` or `defenders`.
    pub side: &'static str,
}

/// A Ringo move with its cells.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct RingoMoveView {
    /// Its notation, as the API takes it.
    pub notation: String,
    /// Where the piece starts (none for a pass).
    pub from: Option<String>,
    /// Where it ends (`F` for the fortress; none for a pass).
    pub to: Option<String>,
    /// The captured piece's cell, if it captures.
    pub captured: Option<String>,
}

/// A Ringo move as a view, written against the list it was chosen from.
fn ringo_move(m: ringo::Move, legal: &[ringo::Move]) -> RingoMoveView {
    RingoMoveView {
        notation: m.to_notation(legal),
        from: m.from().map(|c| c.to_string()),
        to: m.to().map(|c| c.to_string()),
        captured: m.captured().map(|c| c.to_string()),
    }
}

/// The cells of the last Ringo move.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct RingoLastMove {
    /// Where it came from (none for a pass).
    pub from: Option<String>,
    /// Where it went.
    pub to: Option<String>,
    /// The captured piece's cell.
    pub captured: Option<String>,
}

/// Ringo pieces captured so far.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct RingoCaptured {
    /// Attackers taken off the board.
    pub attackers: u32,
    /// Defenders taken off the board.
    pub defenders: u32,
}

impl RingoGame {
    /// The view of a game.
    pub fn of(game: &ringo::Game) -> RingoGame {
        let pos = game.position();
        let rules = game.rules();
        RingoGame {
            rules: rules.to_string(),
            rings: rules.rings,
            position: pos.to_text(rules.rings),
            start_position: game.start_position().to_text(rules.rings),
            to_move: pos.to_move().name(),
            status: game.status_name(),
            reason: game.outcome().map(|o| o.reason.name()),
            ply: game.ply(),
            moves: game.legal_notations(),
            history: game.move_notations(),
            last_move: game.moves().last().map(|m| RingoLastMove {
                from: m.from().map(|c| c.to_string()),
                to: m.to().map(|c| c.to_string()),
                captured: m.captured().map(|c| c.to_string()),
            }),
            captured: RingoCaptured {
                attackers: u32::from(rules.attackers).saturating_sub(pos.attackers_left()),
                defenders: 4u32.saturating_sub(pos.defenders_left()),
            },
            fortress: pos.fortress(),
            board: ringo::Side::ALL
                .into_iter()
                .flat_map(|side| {
                    pos.pieces(side).iter().map(move |c| RingoPiece {
                        cell: c.to_string(),
                        side: side.name(),
                    })
                })
                .filter(|p| p.cell != "F")
                .collect(),
            legal: {
                let list = game.legal_moves();
                let mut v: Vec<RingoMoveView> = list
                    .as_slice()
                    .iter()
                    .map(|&m| ringo_move(m, list.as_slice()))
                    .collect();
                v.sort_by(|a, b| a.notation.cmp(&b.notation));
                v
            },
        }
    }
}
