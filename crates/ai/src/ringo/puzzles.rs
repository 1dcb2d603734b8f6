//! Ringo puzzles, two ways:
//!
//! - **From the endgame tablebases**: positions where exactly one move wins,
//!   or exactly one keeps the fastest proven win. The tables give every
//!   move's exact value, so such a puzzle is proved, and [`check`] proves it
//!   again from the tables alone.
//! - **From level-10 self-play with review** ([`from_self_play`]): positions
//!   of a level-10 game where, every move searched afresh to a fixed depth,
//!   the best move keeps a good win chance and leads every other move by a
//!   wide margin ([`MIN_MARGIN`]). The searches are deterministic, so
//!   [`check_self_play`] repeats them and must find the same numbers.
//!
//! "Wins" is the game's own sense under the puzzle's rules: a forced win, or
//! for the defenders also a position where the attackers can never force
//! theirs (the game then ends by repetition, which the defenders win under
//! every preset). A [`Goal::Win`] puzzle's solution is a forced win and no
//! other move wins in either sense; a [`Goal::Fastest`] puzzle's solution is
//! the one forced win shorter than every other move's.

use super::review::win_chance;
use super::review::{review, DEPTH};
use super::search::{level_move, Limits, Searcher};
use super::tablebase::{Material, Tablebases, Value};
use crate::puzzle::{difficulty, Goal, Puzzle, PuzzleGame, Source};
use crate::{Level, Rng};
use ringo::{Game, Move, Position, Rules, Side};
use std::sync::Arc;

/// What the tables say a position asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// Only win, or only fastest win.
    pub goal: Goal,
    /// The move.
    pub best: Move,
    /// Plies to the win from the position, the move included.
    pub plies: u16,
    /// Legal moves to choose from.
    pub choices: usize,
}

/// Whether `v` (a child's value) is a win for `mover` under `rules`.
fn wins(v: Value, mover: Side, rules: &Rules) -> bool {
    v.outcome(rules).0 == Some(mover)
}

/// The puzzle in `pos`, if the tables hold it and it has one: a unique
/// winning move, else a unique fastest one. A pass is never a solution, and
/// a position with one legal move asks nothing.
pub fn classify(tb: &Tablebases, rules: &Rules, pos: &Position) -> Option<Found> {
    if ringo::position_is_terminal(pos) {
        return None;
    }
    let mover = pos.to_move();
    let kids = tb.move_values(pos)?;
    if kids.len() < 2 {
        return None;
    }
    let forced: Vec<(Move, u16)> = kids
        .iter()
        .filter(|(_, v)| v.winner() == Some(mover))
        .filter_map(|&(m, v)| Some((m, v.plies()?)))
        .collect();
    let fastest = forced.iter().map(|f| f.1).min()?;
    let mut at_fastest = forced.iter().filter(|f| f.1 == fastest);
    let (best, plies) = *at_fastest.next()?;
    if at_fastest.next().is_some() || best.is_pass() {
        return None;
    }
    let winning = kids.iter().filter(|(_, v)| wins(*v, mover, rules)).count();
    Some(Found {
        goal: if winning == 1 {
            Goal::Win
        } else {
            Goal::Fastest
        },
        best,
        plies: plies + 1,
        choices: kids.len(),
    })
}

/// A puzzle's themes from its solution, the main one first: `fortress` (the
/// move enters it), `capture`, `neutral-zone` (the move starts, ends or
/// captures there), `quiet` (none of those); then `attack` or `defence`,
/// `long` for a win of 9 plies or more, and `endgame`.
pub fn themes(pos: &Position, best: Move, plies: u16) -> Vec<String> {
    let mut t = vec![];
    let neutral = [best.from(), best.to(), best.captured()]
        .into_iter()
        .flatten()
        .any(|c| c.is_neutral());
    if best.to().is_some_and(|c| c.is_fortress()) {
        t.push("fortress");
    }
    if best.is_capture() {
        t.push("capture");
    }
    if neutral {
        t.push("neutral-zone");
    }
    if t.is_empty() {
        t.push("quiet");
    }
    t.push(match pos.to_move() {
        Side::Attackers => "attack",
        Side::Defenders => "defence",
    });
    if plies >= 9 {
        t.push("long");
    }
    t.push("endgame");
    t.into_iter().map(String::from).collect()
}

/// What every Ringo puzzle says of its position; the caller adds what the
/// puzzle asks (its id is set later still).
fn ringo_puzzle(rules: &Rules, pos: &Position, found: (Goal, Source), solution: String) -> Puzzle {
    Puzzle {
        id: String::new(),
        game: PuzzleGame::Ringo,
        rules: rules.to_string(),
        position: Some(pos.to_text(rules.rings)),
        setup: None,
        record: None,
        to_act: pos.to_move().name().to_string(),
        themes: vec![],
        rating: 0,
        goal: found.0,
        solution: vec![solution],
        source: found.1,
        plies: None,
        options: vec![],
        exact: false,
    }
}

/// The puzzle for a position the tables classified.
pub fn puzzle(rules: &Rules, pos: &Position, f: Found) -> Puzzle {
    let legal = Game::from_position(*rules, *pos).legal_moves();
    let extra = if f.goal == Goal::Fastest { 150.0 } else { 0.0 };
    Puzzle {
        themes: themes(pos, f.best, f.plies),
        rating: difficulty(800.0 + extra, 55.0 * f64::from(f.plies), f.choices),
        plies: Some(f.plies),
        ..ringo_puzzle(
            rules,
            pos,
            (f.goal, Source::Tablebase),
            f.best.to_notation(legal.as_slice()),
        )
    }
}

/// The longest win a [`Goal::Fastest`] puzzle asks for, in plies.
pub const MAX_FASTEST: u16 = 7;

/// Up to `n` puzzles of one material class, drawn at random from its table:
/// at most a quarter [`Goal::Fastest`], at most a sixth wins in one ply, so
/// the set is mostly "find the only winning move" over a spread of lengths.
pub fn from_class(
    tb: &Tablebases,
    rules: &Rules,
    m: Material,
    n: usize,
    rng: &mut Rng,
) -> Vec<Puzzle> {
    let Some(table) = tb.table(m) else {
        return vec![];
    };
    let (mut out, mut fastest, mut short) = (vec![], 0, 0);
    let mut seen = std::collections::HashSet::new();
    for _ in 0..n * 2000 {
        if out.len() >= n || table.is_empty() {
            break;
        }
        let pos = table.position(rng.next_u64() % table.len(), tb.rules());
        if pos.fortress() >= 2 || !seen.insert(pos.key()) {
            continue;
        }
        let Some(f) = classify(tb, rules, &pos) else {
            continue;
        };
        // "The fastest win" is a fair question for a short win only: among
        // several wins in twenty plies, finding the one a ply shorter is
        // counting, not seeing.
        let long_fastest = f.goal == Goal::Fastest && f.plies > MAX_FASTEST;
        if long_fastest
            || (f.goal == Goal::Fastest && fastest * 4 >= n)
            || (f.plies <= 1 && short * 6 >= n)
        {
            continue;
        }
        fastest += usize::from(f.goal == Goal::Fastest);
        short += usize::from(f.plies <= 1);
        out.push(puzzle(rules, &pos, f));
    }
    out
}

/// The depth every move of a self-play position is searched to: the
/// review's depth less two (the move itself is one ply; one more keeps a
/// position's every move within about a second).
pub const CHANCE_DEPTH: u32 = DEPTH - 2;

/// The least lead in win chance the best move of a self-play puzzle has
/// over every other move.
pub const MIN_MARGIN: f64 = 0.3;

/// The least win chance the best move of a self-play puzzle keeps: a move
/// that only loses slower than the others asks nothing worth finding.
pub const MIN_BEST: f64 = 0.6;

/// Every legal move of `pos` (taken as a fresh start) with the mover's win
/// chance after it, best first: an ended game is 1 or 0, else a fresh search
/// of the position after the move to [`CHANCE_DEPTH`] with these tables
/// (fresh each time, so the answer does not depend on what was searched
/// before).
pub fn move_chances(
    tb: &Arc<Tablebases>,
    rules: &Rules,
    pos: &Position,
) -> Vec<(Move, String, f64)> {
    let game = Game::from_position(*rules, *pos);
    let legal = game.legal_moves();
    let mover = pos.to_move();
    let mut out: Vec<(Move, String, f64)> = legal
        .iter()
        .map(|&m| {
            let mut child = game.clone();
            child.play_unchecked(m);
            let chance = if child.is_over() {
                f64::from(u8::from(
                    child.outcome().and_then(|o| o.winner) == Some(mover),
                ))
            } else {
                let mut s = Searcher::with_weights(*rules, super::eval::WEIGHTS, 1 << 16);
                s.set_tablebases(Some(tb.clone()));
                let r = s.search_game(
                    &child,
                    Limits {
                        depth: Some(CHANCE_DEPTH),
                        ..Limits::default()
                    },
                );
                win_chance(-r.score)
            };
            (m, m.to_notation(legal.as_slice()), chance)
        })
        .collect();
    out.sort_by(|a, b| b.2.total_cmp(&a.2));
    out
}

/// The puzzle in a self-play position, if its best move keeps at least
/// [`MIN_BEST`] and leads every other by [`MIN_MARGIN`].
fn margin_puzzle(tb: &Arc<Tablebases>, rules: &Rules, pos: &Position) -> Option<Puzzle> {
    if ringo::position_is_terminal(pos) {
        return None;
    }
    let chances = move_chances(tb, rules, pos);
    let (best, second) = (chances.first()?, chances.get(1)?);
    if best.0.is_pass() || best.2 < MIN_BEST || best.2 - second.2 < MIN_MARGIN {
        return None;
    }
    let mut themes = themes(pos, best.0, 0);
    themes.retain(|x| x != "endgame");
    themes.push("game".into());
    Some(Puzzle {
        themes,
        // A narrow lead is harder to see than a wide one.
        rating: difficulty(
            1700.0 - 900.0 * (best.2 - second.2 - MIN_MARGIN),
            0.0,
            chances.len(),
        ),
        options: chances.iter().map(|c| (c.1.clone(), c.2)).collect(),
        exact: false,
        ..ringo_puzzle(rules, pos, (Goal::Best, Source::SelfPlay), best.1.clone())
    })
}

/// Plays one level-10 game against itself under `rules` (`seed` for its
/// choices), reviews it at the review's depth, and answers the puzzles
/// among its positions: every move searched afresh, the best one leading
/// every other by a wide margin ([`margin_puzzle`]).
pub fn from_self_play(rules: &Rules, tb: &Arc<Tablebases>, seed: u64) -> Vec<Puzzle> {
    let mut searcher = Searcher::new(*rules);
    searcher.set_tablebases(Some(tb.clone()));
    let mut game = Game::new(*rules);
    while !game.is_over() && game.ply() < 400 {
        let ply = game.ply() as u64;
        let Some(m) = level_move(&mut searcher, &game, Level::MAX, seed ^ ply, None) else {
            break;
        };
        if game.play(m).is_err() {
            break;
        }
    }
    // The review screens the positions: one whose best move keeps under
    // MIN_BEST cannot be a puzzle; the others are weighed move by move.
    let r = review(&game, DEPTH, &|_, _| {});
    let mut out = vec![];
    let mut seen = std::collections::HashSet::new();
    for p in &r.plies {
        let Some(pos) = game.position_at(p.ply).copied() else {
            continue;
        };
        if p.best_win < MIN_BEST || !seen.insert(pos.key()) {
            continue;
        }
        out.extend(margin_puzzle(tb, rules, &pos));
    }
    tracing::debug!(
        plies = game.ply(),
        puzzles = out.len(),
        "ringo self-play game reviewed"
    );
    out
}

/// Checks a shipped self-play puzzle again with the same searches: the same
/// best move, with the same win chances, leading by at least [`MIN_MARGIN`].
///
/// # Errors
/// What does not hold, in words.
pub fn check_self_play(tb: &Arc<Tablebases>, p: &Puzzle) -> Result<(), String> {
    let rules: Rules = p.rules.parse().map_err(|e| format!("rules: {e}"))?;
    let pos = Position::parse(p.position.as_deref().ok_or("no position")?, &rules)
        .map_err(|e| format!("position: {e}"))?;
    let chances = move_chances(tb, &rules, &pos);
    let (best, second) = match (chances.first(), chances.get(1)) {
        (Some(b), Some(s)) => (b, s),
        _ => return Err("fewer than two moves".into()),
    };
    if Some(&best.1) != p.solution.first() {
        return Err(format!("the best move is now {}", best.1));
    }
    if best.2 < MIN_BEST || best.2 - second.2 < MIN_MARGIN {
        return Err(format!(
            "the lead is {:.3} (best {:.3})",
            best.2 - second.2,
            best.2
        ));
    }
    let same = chances.len() == p.options.len()
        && chances
            .iter()
            .zip(&p.options)
            .all(|(a, b)| a.1 == b.0 && (a.2 - b.1).abs() < 1e-9);
    if !same {
        return Err("the moves' win chances are not the ones shipped".into());
    }
    Ok(())
}

/// Checks a shipped puzzle against the tables: the solution is legal, wins
/// in the stated plies, and is the only winning move ([`Goal::Win`]) or the
/// only fastest one ([`Goal::Fastest`]).
///
/// # Errors
/// What does not hold, in words.
pub fn check(tb: &Tablebases, p: &Puzzle) -> Result<(), String> {
    let rules: Rules = p.rules.parse().map_err(|e| format!("rules: {e}"))?;
    let text = p.position.as_deref().ok_or("no position")?;
    let pos = Position::parse(text, &rules).map_err(|e| format!("position: {e}"))?;
    let game = Game::from_position(rules, pos);
    let answer = p.solution.first().ok_or("no solution")?;
    let best = game
        .parse_move(answer)
        .map_err(|e| format!("solution: {e}"))?;
    let kids = tb.move_values(&pos).ok_or("a child is not in the tables")?;
    let mover = pos.to_move();
    let (_, value) = kids
        .iter()
        .find(|(m, _)| *m == best)
        .ok_or("the solution is not a legal move")?;
    let plies = match value.plies() {
        Some(n) if value.winner() == Some(mover) => n + 1,
        _ => return Err(format!("{answer} does not force a win: {value:?}")),
    };
    if Some(plies) != p.plies {
        return Err(format!(
            "{answer} wins in {plies}, the puzzle says {:?}",
            p.plies
        ));
    }
    for &(m, v) in kids.iter().filter(|(m, _)| *m != best) {
        let other = m.to_notation(game.legal_moves().as_slice());
        match p.goal {
            Goal::Win if wins(v, mover, &rules) => {
                return Err(format!("{other} wins too: {v:?}"));
            }
            Goal::Fastest if v.winner() == Some(mover) && v.plies().is_some_and(|n| n < plies) => {
                return Err(format!("{other} wins as fast: {v:?}"));
            }
            Goal::Best => return Err("a Ringo puzzle's goal is win or fastest".into()),
            _ => {}
        }
    }
    if p.goal == Goal::Fastest
        && !kids
            .iter()
            .any(|(m, v)| *m != best && wins(*v, mover, &rules))
    {
        return Err("only one move wins: the goal is win, not fastest".into());
    }
    Ok(())
}

/// The classes puzzles are drawn from: small enough that the tables build
/// in seconds (so the test suite can check every puzzle), with defenders
/// on the board (no defenders is no puzzle).
pub const CLASSES: [Material; 3] = [
    Material {
        attackers: 2,
        defenders: 1,
    },
    Material {
        attackers: 2,
        defenders: 2,
    },
    Material {
        attackers: 3,
        defenders: 1,
    },
];

/// The tables the puzzles of `rules` need: every class up to 2v2 and 3v1.
///
/// # Errors
/// As [`Tablebases::build_up_to`].
pub fn tables_for(
    rules: &Rules,
    threads: usize,
) -> Result<Tablebases, super::tablebase::TablebaseError> {
    let mut tb = Tablebases::new(rules);
    tb.build_up_to(2, 2, threads, &|_, _, _| {})?;
    tb.build_up_to(3, 1, threads, &|_, _, _| {})?;
    Ok(tb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puzzles_drawn_from_small_tables_pass_their_check_and_a_wrong_one_fails() {
        let rules: Rules = "classic,rings=5".parse().unwrap();
        let tb = tables_for(&rules, 2).unwrap();
        let mut rng = Rng::new(5);
        let list = from_class(&tb, &rules, CLASSES[1], 20, &mut rng);
        assert_eq!(list.len(), 20);
        for p in &list {
            check(&tb, p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
        }
        let mut wrong = list[0].clone();
        let pos = Position::parse(wrong.position.as_deref().unwrap(), &rules).unwrap();
        let game = Game::from_position(rules, pos);
        let other = game
            .legal_notations()
            .into_iter()
            .find(|m| *m != wrong.solution[0])
            .unwrap();
        wrong.solution = vec![other];
        assert!(check(&tb, &wrong).is_err());
        let mut longer = list[0].clone();
        longer.plies = longer.plies.map(|n| n + 2);
        assert!(check(&tb, &longer).is_err());
    }
}
