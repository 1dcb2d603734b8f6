//! What a table holds: material classes, values and their encoding.

use ringo::{Position, Repetition, Rules, Side};
use std::fmt;

/// One material class: pieces of each side (attackers counting the one in
/// the fortress, if any).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Material {
    /// Attackers on the board plus in the fortress (2 or more).
    pub attackers: u8,
    /// Defenders on the board.
    pub defenders: u8,
}

impl Material {
    /// The material of a position.
    pub fn of(pos: &Position) -> Material {
        Material {
            attackers: pos.attackers_left() as u8,
            defenders: pos.defenders_left() as u8,
        }
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}v{}", self.attackers, self.defenders)
    }
}

/// A position's value with best play from a fresh history.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Value {
    /// The attackers win in this many plies.
    Attackers(u16),
    /// The defenders win in this many plies (without needing a repetition).
    Defenders(u16),
    /// Neither side can force a win: the game ends by repetition.
    Cycle,
}

impl Value {
    /// Stored form: 0 a cycle, `1 + plies` an attackers' win, with the top
    /// bit set a defenders' win.
    pub(super) fn encode(self) -> u16 {
        match self {
            Value::Cycle => 0,
            Value::Attackers(n) => 1 + n,
            Value::Defenders(n) => DEFENDERS_BIT | (1 + n),
        }
    }

    pub(super) fn decode(raw: u16) -> Value {
        match raw {
            0 => Value::Cycle,
            r if r & DEFENDERS_BIT != 0 => Value::Defenders((r & !DEFENDERS_BIT) - 1),
            r => Value::Attackers(r - 1),
        }
    }

    /// The winner under these rules (`None`: a draw), with the plies when
    /// the win is forced (a defenders' win by repetition has none).
    pub fn outcome(self, rules: &Rules) -> (Option<Side>, Option<u16>) {
        match self {
            Value::Attackers(n) => (Some(Side::Attackers), Some(n)),
            Value::Defenders(n) => (Some(Side::Defenders), Some(n)),
            Value::Cycle => match rules.repetition {
                Repetition::Defenders => (Some(Side::Defenders), None),
                Repetition::Draw => (None, None),
            },
        }
    }

    /// A forced win for `side` in `plies`.
    pub fn win(side: Side, plies: u16) -> Value {
        match side {
            Side::Attackers => Value::Attackers(plies),
            Side::Defenders => Value::Defenders(plies),
        }
    }

    /// The winner of a forced win (`None` for a cycle).
    pub fn winner(self) -> Option<Side> {
        match self {
            Value::Attackers(_) => Some(Side::Attackers),
            Value::Defenders(_) => Some(Side::Defenders),
            Value::Cycle => None,
        }
    }

    /// The plies of a forced win.
    pub fn plies(self) -> Option<u16> {
        match self {
            Value::Attackers(n) | Value::Defenders(n) => Some(n),
            Value::Cycle => None,
        }
    }

    /// `"attackers"`, `"defenders"` or `"draw"` under these rules.
    pub fn result_name(self, rules: &Rules) -> &'static str {
        match self.outcome(rules).0 {
            Some(Side::Attackers) => "attackers",
            Some(Side::Defenders) => "defenders",
            None => "draw",
        }
    }
}

pub(super) const DEFENDERS_BIT: u16 = 0x8000;
/// The longest win a table can store.
pub(super) const MAX_PLIES: u16 = 0x7ffe;
