//! The transposition table: one entry per slot, replaced by depth, with mate
//! scores stored relative to the node so they stay right at any ply.

use super::params::{INF, MATE_BAND};
use ringo::Move;

/// One slot of the table.
#[derive(Clone, Copy, Default)]
pub(super) struct Entry {
    pub(super) key: u64,
    pub(super) mv: Option<Move>,
    pub(super) score: i16,
    pub(super) depth: i8,
    pub(super) bound: u8,
}

pub(super) const EXACT: u8 = 1;
pub(super) const LOWER: u8 = 2;
pub(super) const UPPER: u8 = 3;

/// The table: a power-of-two number of slots, indexed by the key's low bits.
pub(super) struct Table(Vec<Entry>);

impl Table {
    /// A table of at least `entries` slots.
    pub(super) fn new(entries: usize) -> Table {
        Table(vec![Entry::default(); entries.next_power_of_two()])
    }

    /// Empties every slot.
    pub(super) fn clear(&mut self) {
        self.0.iter_mut().for_each(|e| *e = Entry::default());
    }

    /// The entry for `key`, if the table holds one.
    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.0[key as usize & (self.0.len() - 1)];
        (e.key == key && e.bound != 0).then_some(e)
    }

    /// Stores a result, keeping a deeper one for the same key unless this one
    /// is exact.
    pub(super) fn store(
        &mut self,
        key: u64,
        depth: i32,
        score: i32,
        bound: u8,
        mv: Option<Move>,
        ply: usize,
    ) {
        // Mate scores are stored relative to this node, so they stay right when
        // the same position is reached at another ply.
        let score = if score >= MATE_BAND {
            score + ply as i32
        } else if score <= -MATE_BAND {
            score - ply as i32
        } else {
            score
        };
        let index = key as usize & (self.0.len() - 1);
        let slot = &mut self.0[index];
        if slot.key != key || depth as i8 >= slot.depth || bound == EXACT {
            *slot = Entry {
                key,
                mv,
                score: score.clamp(-INF, INF) as i16,
                depth: depth.clamp(-1, 100) as i8,
                bound,
            };
        }
    }
}

/// A stored score as seen from a node `ply` plies deep.
pub(super) fn score_at(score: i32, ply: usize) -> i32 {
    if score >= MATE_BAND {
        score - ply as i32
    } else if score <= -MATE_BAND {
        score + ply as i32
    } else {
        score
    }
}
