//! The retrograde analysis's parts: every position's children, the first
//! pass, and the propagation of wins and losses, in parallel chunks.

use super::index::*;
use super::value::*;
use ringo::{legal_moves, Move, MoveList, Position, Rules, Side};

/// What a child of a position is worth during the build.
pub(super) enum Child {
    /// A position of the class being built.
    Same(u64),
    /// A known value (a terminal position or a smaller class).
    Known(Value),
}

/// Per-position facts from the first pass.
#[derive(Clone, Copy, Default)]
pub(super) struct Start {
    /// Children not (yet) known to be wins for the opponent.
    pub(super) open: u16,
    /// The fastest known win for the side to move, plus one (0: none).
    pub(super) win: u16,
    /// The slowest known loss, in plies from here.
    pub(super) loss: u16,
}

pub(super) const CHUNK: u64 = 1 << 15;

/// Runs `work` over the indices `0..n` in chunks shared out to the
/// threads ([`crate::par::run`]), each chunk's result given to `done`.
pub(super) fn chunked<T: Send>(
    n: u64,
    threads: usize,
    work: impl Fn(std::ops::Range<u64>) -> T + Sync,
    done: impl FnMut(T) -> bool + Send,
) {
    crate::par::run(
        n.div_ceil(CHUNK) as usize,
        threads,
        |c| {
            let lo = c as u64 * CHUNK;
            work(lo..(lo + CHUNK).min(n))
        },
        done,
    );
}

/// Whether the side to move may pass here (it must when it has no move; the
/// defenders may with `defender-pass`).
pub(super) fn may_pass(pos: &Position, rules: &Rules) -> bool {
    let mut list = MoveList::new();
    legal_moves(pos, rules, &mut list);
    list.contains(&Move::PASS)
}

/// Pass 1's facts about one position from its children; same-class children
/// go to `edges`.
pub(super) fn start_of(layout: &Layout, i: u64, children: &[Child], edges: &mut Vec<u32>) -> Start {
    let mover = layout.position_side(i);
    let mut s = Start::default();
    for ch in children {
        match ch {
            Child::Same(j) => {
                s.open += 1;
                edges.push(*j as u32);
            }
            Child::Known(v) => match v.winner() {
                Some(w) if w == mover => {
                    let d = v.plies().unwrap_or(0) + 1;
                    if s.win == 0 || d + 1 < s.win {
                        s.win = d + 1;
                    }
                }
                Some(_) => s.loss = s.loss.max(v.plies().unwrap_or(0) + 1),
                None => s.open += 1,
            },
        }
    }
    s
}

impl Layout {
    /// The side to move at an index (without building the position).
    pub(super) fn position_side(&self, index: u64) -> Side {
        let b0 = self.block(0);
        let side = if index < 2 * b0 {
            index / b0
        } else {
            (index - 2 * b0) / self.block(1)
        };
        if side == 0 {
            Side::Attackers
        } else {
            Side::Defenders
        }
    }
}

/// The retrograde propagation: positions are settled in order of their
/// distance, so each gets its exact distance (the winner's fastest, the
/// loser's slowest).
pub(super) fn propagate(
    layout: &Layout,
    starts: &mut [Start],
    offsets: &[u64],
    preds: &[u32],
    progress: impl Fn(u64),
) -> Vec<u16> {
    let n = starts.len();
    let mut values = vec![0u16; n];
    let mut settled = vec![false; n];
    // buckets[d]: positions that may settle at distance d, as (index, win).
    let mut buckets: Vec<Vec<(u32, bool)>> = vec![];
    let push = |buckets: &mut Vec<Vec<(u32, bool)>>, d: u16, i: usize, win: bool| {
        let d = d as usize;
        if buckets.len() <= d {
            buckets.resize_with(d + 1, Vec::new);
        }
        buckets[d].push((i as u32, win));
    };
    for (i, s) in starts.iter().enumerate() {
        if s.win > 0 {
            push(&mut buckets, s.win - 1, i, true);
        } else if s.open == 0 {
            push(&mut buckets, s.loss, i, false);
        }
    }
    let mut d = 0usize;
    let mut count = 0u64;
    while d < buckets.len() {
        let bucket = std::mem::take(&mut buckets[d]);
        for (i, win) in bucket {
            let i = i as usize;
            if settled[i] {
                continue;
            }
            settled[i] = true;
            count += 1;
            if count.is_multiple_of(1 << 16) {
                progress(count);
            }
            let mover = layout.position_side(i as u64);
            let winner = if win { mover } else { mover.other() };
            let plies = (d as u16).min(MAX_PLIES);
            values[i] = Value::win(winner, plies).encode();
            for &p in &preds[offsets[i] as usize..offsets[i + 1] as usize] {
                let p = p as usize;
                if settled[p] {
                    continue;
                }
                if layout.position_side(p as u64) == winner {
                    push(&mut buckets, plies + 1, p, true);
                } else {
                    let s = &mut starts[p];
                    s.open -= 1;
                    s.loss = s.loss.max(plies + 1);
                    if s.open == 0 && s.win == 0 {
                        push(&mut buckets, s.loss, p, false);
                    }
                }
            }
        }
        d += 1;
    }
    values
}
