//! How a finished game ended, and its points (section 6).

use crate::board::Side;

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ResultKind {
    /// 1 point.
    Plain,
    /// 2 points: dogs in the streets (*psy na ulicach*).
    Streets,
    /// 3 points: dogs in the waiting area (*psy na przedpolu*).
    Waiting,
    /// 4 points: Babylon (*Babilon*).
    Babylon,
    /// Both finished: no points.
    Draw,
}

impl ResultKind {
    /// `"plain"`, `"streets"`, `"waiting"`, `"babylon"` or `"draw"`.
    pub const fn name(self) -> &'static str {
        match self {
            ResultKind::Plain => "plain",
            ResultKind::Streets => "streets",
            ResultKind::Waiting => "waiting",
            ResultKind::Babylon => "babylon",
            ResultKind::Draw => "draw",
        }
    }
}

/// A finished game's result.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct GameResult {
    /// The winner (`None` for a draw).
    pub winner: Option<Side>,
    /// Points won: 1–4, or 0 for a draw.
    pub points: u8,
    /// What kind of win.
    pub kind: ResultKind,
}
