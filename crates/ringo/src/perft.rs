//! Perft: counting the leaf nodes of the game tree to a fixed depth, the standard
//! check that move generation is exact.
//!
//! A finished game (2 in `F`, fewer than 2 attackers, a double pass, a third
//! occurrence) contributes no nodes below it, and a forced pass counts as a move.

use crate::game::Game;
use crate::movegen::{legal_moves, position_is_terminal};
use crate::moves::MoveList;
use crate::position::Position;
use crate::rules::Rules;

/// Counts the leaf nodes exactly `depth` plies below the game's current position.
/// Repetition counts the positions the game has already been through.
///
/// ```
/// use ringo::{perft, Game, Rules};
/// let game = Game::new(Rules::default());
/// assert_eq!(perft(&game, 1), 9); // 7 forward steps, b6-a6 and h6-a6
/// assert_eq!(perft(&game, 2), 108);
/// ```
pub fn perft(game: &Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.is_over() {
        return 0;
    }
    let mut history = game.repetition_keys();
    let mut lists = vec![MoveList::new(); depth as usize];
    perft_rec(
        game.position(),
        game.rules(),
        depth,
        game.last_was_pass(),
        &mut history,
        &mut lists,
    )
}

/// The perft of one node that is known not to be finished. `lists[depth - 1]` is
/// this level's move buffer, so the recursion never allocates.
fn perft_rec(
    pos: &Position,
    rules: &Rules,
    depth: u32,
    last_was_pass: bool,
    history: &mut Vec<u64>,
    lists: &mut [MoveList],
) -> u64 {
    let (list, deeper) = lists.split_last_mut().expect("one list per level");
    legal_moves(pos, rules, list);
    if depth == 1 {
        // Bulk counting: every child is a leaf, finished or not.
        return list.len() as u64;
    }
    let mut nodes = 0;
    for &m in list.iter() {
        let mut child = *pos;
        child.play_unchecked(m);
        if position_is_terminal(&child) || (m.is_pass() && last_was_pass) {
            continue;
        }
        let key = child.key();
        if history.iter().filter(|&&k| k == key).count() >= 2 {
            continue; // a third occurrence ends the game
        }
        history.push(key);
        nodes += perft_rec(&child, rules, depth - 1, m.is_pass(), history, deeper);
        history.pop();
    }
    nodes
}

/// Perft split by root move: each legal move in notation with its node count,
/// for finding where two move generators disagree.
pub fn divide(game: &Game, depth: u32) -> Vec<(String, u64)> {
    let list = game.legal_moves();
    let mut out: Vec<(String, u64)> = list
        .iter()
        .map(|&m| {
            let mut child = game.clone();
            child.play_unchecked(m);
            (m.to_notation(&list), perft(&child, depth.saturating_sub(1)))
        })
        .collect();
    out.sort();
    out
}
