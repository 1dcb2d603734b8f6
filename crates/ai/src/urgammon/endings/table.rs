//! The endings' tables in memory: what each entry holds and how a state
//! about to roll is looked up.

use super::index::{locate, Class};
use crate::urgammon::eval::{Outcomes, OUTCOMES};
use crate::urgammon::payoff::Payoff;
use std::collections::BTreeMap;
use urgammon::State;

/// The outcomes a table keeps (light's point of view): wins and losses by 1,
/// 2 and 3 points and the draw. A Babylon cannot happen: every side has at
/// least five pieces home.
pub(super) const SLOTS: [usize; 7] = [0, 1, 2, 4, 5, 6, 8];

/// A probability's resolution in a table: 1/65535.
pub(super) const SCALE: f64 = 65535.0;

/// One class's table: for each entry, the probability of each of the
/// [`SLOTS`] outcomes, in 1/65535ths (entries no position has are zero).
#[derive(Clone)]
pub(super) struct Table {
    pub(super) values: Vec<u16>,
}

impl Table {
    /// The outcomes stored at an index.
    pub(super) fn outcomes(&self, index: u32) -> Outcomes {
        let mut o = [0.0f32; OUTCOMES];
        let at = index as usize * SLOTS.len();
        for (k, &slot) in SLOTS.iter().enumerate() {
            o[slot] = (f64::from(self.values[at + k]) / SCALE) as f32;
        }
        Outcomes(o)
    }
}

/// Exact values of Urgammon's endings: one table a class, solved for one
/// payoff (points, unless built for a match score).
pub struct Endings {
    pub(super) payoff: Payoff,
    pub(super) tables: BTreeMap<Class, Table>,
}

impl Endings {
    /// No tables, for points.
    pub fn new() -> Endings {
        Endings::for_payoff(Payoff::MONEY)
    }

    /// No tables, for a payoff (a match at a score).
    pub fn for_payoff(payoff: Payoff) -> Endings {
        Endings {
            payoff,
            tables: BTreeMap::new(),
        }
    }

    /// The payoff the tables were solved for.
    pub fn payoff(&self) -> &Payoff {
        &self.payoff
    }

    /// The classes held.
    pub fn classes(&self) -> Vec<Class> {
        self.tables.keys().copied().collect()
    }

    /// The exact outcomes (light's point of view) of a state about to roll
    /// that the tables hold.
    pub fn probe(&self, state: &State) -> Option<Outcomes> {
        let (class, index) = locate(state)?;
        self.tables.get(&class).map(|t| t.outcomes(index))
    }
}

impl Default for Endings {
    fn default() -> Endings {
        Endings::new()
    }
}
