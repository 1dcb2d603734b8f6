//! Checking built tables: every entry against its children, and a plain
//! minimax that knows nothing of tables.

use super::build::*;
use super::table::*;
use super::value::*;
use ringo::{legal_moves, Move, MoveList, Position, Rules, Side};

/// What [`Tablebases::verify`] checked and found.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Verification {
    /// Positions whose value was recomputed from their children's values.
    pub checked: u64,
    /// Of those, values that disagree with their children's (should be 0).
    pub inconsistent: u64,
    /// Sampled positions searched by the plain minimax.
    pub sampled: u64,
    /// Of those, forced wins short enough for the minimax depth.
    pub sampled_short: u64,
    /// Sampled positions where the minimax and the table disagree (should
    /// be 0).
    pub disagreements: u64,
    /// The first few disagreements or inconsistencies, as position strings.
    pub examples: Vec<String>,
}

impl Tablebases {
    /// Checks every table two ways. **Consistency**: every entry is
    /// recomputed from its children's entries (a winner's fastest child, a
    /// loser's slowest, otherwise a cycle), which by induction on the
    /// distance proves the whole table right. **Minimax**: `samples`
    /// positions a class (half of them forced wins within `depth`, where the
    /// table has them) are searched by [`minimax`] without the tables, from
    /// a fresh history and just after a pass, and must agree exactly.
    pub fn verify(
        &self,
        threads: usize,
        samples: u64,
        depth: u32,
        seed: u64,
        progress: &(dyn Fn(Material, u64, u64) + Sync),
    ) -> Verification {
        let mut report = Verification::default();
        for (&m, table) in &self.tables {
            let n = table.len();
            let mut done = 0u64;
            chunked(
                n,
                threads,
                |range| {
                    let count = range.end - range.start;
                    let mut bad = vec![];
                    for i in range {
                        let pos = table.position(i, &self.rules);
                        if self.recompute(&pos) != table.get(&pos) {
                            bad.push(pos.to_text(self.rules.rings));
                        }
                    }
                    (count, bad)
                },
                |(k, bad)| {
                    report.checked += k;
                    report.inconsistent += bad.len() as u64;
                    report.examples.extend(bad.into_iter().take(3));
                    done += k;
                    progress(m, done, n + samples);
                    true
                },
            );
            let mut rng =
                crate::Rng::new(seed ^ u64::from(m.attackers) << 8 ^ u64::from(m.defenders));
            let (mut short, mut tries) = (0u64, 0u64);
            let mut picked = 0u64;
            while picked < samples && tries < 100 * samples {
                tries += 1;
                let i = rng.next_u64() % n;
                let pos = table.position(i, &self.rules);
                let after_pass = rng.below(4) == 0;
                let want = if after_pass {
                    self.probe_after_pass(&pos)
                } else {
                    self.probe(&pos)
                };
                let is_short = want
                    .and_then(Value::plies)
                    .is_some_and(|p| p as u32 <= depth);
                // Half the sample are short forced wins, when there are any.
                if !is_short && short * 2 < picked && tries < 50 * samples {
                    continue;
                }
                picked += 1;
                short += u64::from(is_short);
                let expected = if is_short { want } else { None };
                let got = minimax(&pos, after_pass, &self.rules, depth);
                if got != expected {
                    report.disagreements += 1;
                    if report.examples.len() < 6 {
                        report.examples.push(format!(
                            "{} (after a pass: {after_pass}): table {want:?}, minimax {got:?}",
                            pos.to_text(self.rules.rings)
                        ));
                    }
                }
                progress(m, n + picked, n + samples);
            }
            report.sampled += picked;
            report.sampled_short += short;
        }
        report
    }

    /// A position's value from its children's table entries.
    pub(super) fn recompute(&self, pos: &Position) -> Option<Value> {
        let children = self.move_values(pos)?.into_iter().map(|(_, v)| Some(v));
        Some(back_up(pos.to_move(), children).unwrap_or(Value::Cycle))
    }
}

/// A plain minimax with exact distances, for checking tables: the winner and
/// the plies when a side forces a win within `depth` plies, `None` otherwise.
/// It knows nothing of tables, so it is an independent check; with `depth`
/// ≤ 7 no position can occur a third time, so repetitions cannot matter.
pub fn minimax(pos: &Position, after_pass: bool, rules: &Rules, depth: u32) -> Option<Value> {
    if pos.fortress() >= 2 {
        return Some(Value::Attackers(0));
    }
    if pos.attackers_left() < 2 {
        return Some(Value::Defenders(0));
    }
    if depth == 0 {
        return None;
    }
    let mut list = MoveList::new();
    legal_moves(pos, rules, &mut list);
    let children = list.iter().map(|&mv| {
        if mv == Move::PASS && after_pass {
            Some(Value::Defenders(0))
        } else {
            let mut next = *pos;
            next.play_unchecked(mv);
            minimax(&next, mv == Move::PASS, rules, depth - 1)
        }
    });
    back_up(pos.to_move(), children)
}

/// A position's forced result from its children's (`None`: a child whose
/// result is not a forced win): the mover's fastest win, else, when every
/// child wins for the opponent, its slowest loss, else `None`.
pub(super) fn back_up(
    mover: Side,
    children: impl IntoIterator<Item = Option<Value>>,
) -> Option<Value> {
    let mut best_win: Option<u16> = None;
    let mut worst_loss: Option<u16> = Some(0);
    for child in children {
        match child.and_then(|v| Some((v.winner()?, v.plies()? + 1))) {
            Some((w, d)) if w == mover => best_win = Some(best_win.map_or(d, |b| b.min(d))),
            Some((_, d)) => worst_loss = worst_loss.map(|w| w.max(d)),
            None => worst_loss = None,
        }
    }
    best_win
        .map(|d| Value::win(mover, d))
        .or_else(|| worst_loss.map(|d| Value::win(mover.other(), d)))
}
