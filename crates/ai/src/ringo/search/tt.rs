//! The transposition table: one entry per slot, replaced by depth, with mate
//! scores stored relative to the node so they stay right at any ply.
//!
//! A proven or repetition score depends on the path: a line that was free when
//! it was searched may cross a position the game has since passed through (the
//! graph-history interaction). So each search from a new game history starts a
//! new generation, and an older generation's entry keeps its move and its
//! evaluation but not a score at or beyond a repetition's.

use super::params::{INF, MATE_BAND, REPETITION_WIN};
use ringo::Move;

/// One slot of the table.
#[derive(Clone, Copy, Default)]
pub(super) struct Entry {
    pub(super) key: u64,
    pub(super) mv: Option<Move>,
    pub(super) score: i16,
    pub(super) depth: i8,
    pub(super) bound: u8,
    generation: u8,
}

pub(super) const EXACT: u8 = 1;
pub(super) const LOWER: u8 = 2;
pub(super) const UPPER: u8 = 3;
/// No usable bound: only the move is worth having.
pub(super) const NONE: u8 = 4;

/// The table: a power-of-two number of slots, indexed by the key's low bits,
/// and the generation new entries are stored under.
pub(super) struct Table {
    slots: Vec<Entry>,
    generation: u8,
}

impl Table {
    /// A table of at least `entries` slots.
    pub(super) fn new(entries: usize) -> Table {
        Table {
            slots: vec![Entry::default(); entries.next_power_of_two()],
            generation: 0,
        }
    }

    /// Empties every slot.
    pub(super) fn clear(&mut self) {
        self.slots.iter_mut().for_each(|e| *e = Entry::default());
    }

    /// Starts a new generation: the game's history has changed, so the scores
    /// that depend on it (proofs and repetitions) no longer hold.
    pub(super) fn new_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// The entry for `key`, if the table holds one. An older generation's
    /// proven or repetition score comes without its bound, so it orders moves
    /// but cuts nothing off.
    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        let mut e = self.slots[key as usize & (self.slots.len() - 1)];
        if e.key != key || e.bound == 0 {
            return None;
        }
        if e.generation != self.generation && i32::from(e.score).abs() >= REPETITION_WIN {
            e.bound = NONE;
        }
        Some(e)
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
        let index = key as usize & (self.slots.len() - 1);
        let slot = &mut self.slots[index];
        if slot.key != key
            || depth as i8 >= slot.depth
            || bound == EXACT
            || slot.generation != self.generation
        {
            *slot = Entry {
                key,
                mv,
                score: score.clamp(-INF, INF) as i16,
                depth: depth.clamp(-1, 100) as i8,
                bound,
                generation: self.generation,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_history_keeps_moves_and_evaluations_but_not_proofs() {
        let mut t = Table::new(16);
        let (proof, eval) = (3, 4);
        t.store(proof, 9, MATE_BAND + 10, EXACT, Some(Move::PASS), 0);
        t.store(eval, 9, 120, LOWER, Some(Move::PASS), 0);
        assert_eq!(t.probe(proof).map(|e| e.bound), Some(EXACT));
        t.new_generation();
        let e = t.probe(proof).unwrap();
        assert_eq!((e.bound, e.mv), (NONE, Some(Move::PASS)));
        assert_eq!(
            t.probe(eval).map(|e| (e.bound, e.score)),
            Some((LOWER, 120))
        );
        // A shallower result of the new generation replaces the old one.
        t.store(proof, 2, 50, UPPER, None, 0);
        assert_eq!(t.probe(proof).map(|e| (e.bound, e.depth)), Some((UPPER, 2)));
    }
}
