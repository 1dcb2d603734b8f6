//! Fast whole-game playouts: random games for benchmarks and for the engine.
//!
//! A playout follows the full rules, including double passes and repetition, but
//! keeps only what those need: the position, whether the last move was a pass,
//! and the keys since the last irreversible move. The choices come from the
//! caller (the rules crate has no randomness); a test checks that a playout and
//! a [`Game`](crate::Game) given the same choices end the same way.

use crate::game::{is_irreversible, EndReason, Outcome};
use crate::movegen::legal_moves;
use crate::moves::MoveList;
use crate::position::{Position, Side};
use crate::rules::{Repetition, Rules};

/// How a playout ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PlayoutResult {
    /// The outcome.
    pub outcome: Outcome,
    /// Moves played.
    pub plies: usize,
}

/// Plays from `start` to the end of the game. At each turn `choose(n)` picks one
/// of the `n` legal moves by index (it must return a number below `n`; larger
/// numbers are taken modulo `n`).
///
/// ```
/// use ringo::{playout, Position, Rules};
/// let rules = Rules::default();
/// let result = playout(&Position::start(&rules), &rules, |_| 0);
/// assert!(result.plies > 0);
/// ```
pub fn playout(
    start: &Position,
    rules: &Rules,
    mut choose: impl FnMut(usize) -> usize,
) -> PlayoutResult {
    let mut pos = *start;
    let mut list = MoveList::new();
    let mut keys: Vec<u64> = Vec::with_capacity(64);
    keys.push(pos.key());
    let mut last_pass = false;
    let mut plies = 0;
    let end = |winner, reason, plies| PlayoutResult {
        outcome: Outcome { winner, reason },
        plies,
    };
    loop {
        if pos.fortress() >= 2 {
            return end(Some(Side::Attackers), EndReason::Fortress, plies);
        }
        if pos.attackers_left() < 2 {
            return end(Some(Side::Defenders), EndReason::Attrition, plies);
        }
        legal_moves(&pos, rules, &mut list);
        let n = list.len();
        let i = choose(n);
        // A division per ply is measurable here; only divide when needed.
        let m = list[if i < n { i } else { i % n }];
        let side = pos.to_move();
        pos.play_unchecked(m);
        plies += 1;
        if m.is_pass() && last_pass && pos.fortress() < 2 && pos.attackers_left() >= 2 {
            return end(Some(Side::Defenders), EndReason::DoublePass, plies);
        }
        last_pass = m.is_pass();
        if is_irreversible(side, m) {
            keys.clear();
            keys.push(pos.key());
            continue;
        }
        let key = pos.key();
        keys.push(key);
        // Same side to move: every second key back from this one.
        if keys.iter().rev().step_by(2).filter(|&&k| k == key).count() >= 3 {
            let winner = match rules.repetition {
                Repetition::Defenders => Some(Side::Defenders),
                Repetition::Draw => None,
            };
            return end(winner, EndReason::Repetition, plies);
        }
    }
}
