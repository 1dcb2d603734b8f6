//! Urgammon puzzles from level-10 self-play with review: every decision of a
//! game the level-10 engine plays against itself (for points) is analysed as
//! the review analyses it, and a decision whose best option beats the second
//! by at least [`MIN_GAP`] in equity becomes a puzzle: a move, or the choice
//! of the verdict die. [`check`] analyses the shipped position again with
//! the same engine, which is deterministic, and requires the same answer
//! with the same gap.

use super::endings::{locate, Class, Endings};
use super::levels::{analyze, analyze_with, Analysis};
use super::payoff::Payoff;
use super::player::Decision;
use super::search::Choice;
use crate::puzzle::{difficulty, Goal, Puzzle, PuzzleGame, Source};
use crate::{Level, Rng};
use urgammon::{parse_setup, setup_text, Game, Phase, Side, State, Token};

/// The least equity gap between the best option and the second.
pub const MIN_GAP: f64 = 0.1;

/// The level that builds and checks the puzzles.
pub const LEVEL: u8 = 10;

fn name(d: Decision, side: Side) -> String {
    d.notation(side)
}

/// Every option's equity for `side`, best first, named.
fn options(choices: &[Choice], side: Side) -> Vec<(String, f64)> {
    choices
        .iter()
        .map(|c| {
            (
                name(c.decision, side),
                f64::from(c.outcomes.seen_by(side).equity()),
            )
        })
        .collect()
}

/// A decision's themes, the main one first: `verdict-die` (the best choice
/// is the verdict die), `capture`, `bear-off`, `rosette`, `enter`, `promotion`
/// (a move the verdict die's YES allowed), `verdict-choice` (the die was an
/// option, and a move is better), `position` (none of those).
fn themes(state: &State, best: Decision, has_verdict: bool) -> Vec<String> {
    let mut t = vec![];
    match best {
        Decision::Verdict => t.push("verdict-die"),
        Decision::Move(m) => {
            if m.captured.is_some() {
                t.push("capture");
            }
            if m.to == 17 {
                t.push("bear-off");
            }
            let side = state.to_act().unwrap_or(Side::Light);
            if m.to_house(side).is_some_and(|h| h.is_rosette()) {
                t.push("rosette");
            }
            if m.from == 0 {
                t.push("enter");
            }
            if state.promoted() {
                t.push("promotion");
            }
            if has_verdict {
                t.push("verdict-choice");
            }
        }
    }
    if t.is_empty() {
        t.push("position");
    }
    t.into_iter().map(String::from).collect()
}

/// The puzzle at `state` if its decision has a clear best option by `a`,
/// the level-10 analysis of it: `start` is the state at the start of the
/// turn and `record` the turn's tokens since.
fn puzzle_at(state: &State, a: &Analysis, start: &State, record: &str) -> Option<Puzzle> {
    let side = state.to_act()?;
    let opts = options(&a.options, side);
    let gap = opts.first()?.1 - opts.get(1)?.1;
    if gap < MIN_GAP {
        return None;
    }
    let best = a.options[0].decision;
    let has_verdict = a.options.iter().any(|c| c.decision == Decision::Verdict);
    let p = Puzzle {
        id: String::new(),
        game: PuzzleGame::Urgammon,
        rules: "money".into(),
        position: None,
        setup: setup_text(start),
        record: Some(record.to_string()),
        to_act: side.name().to_string(),
        themes: themes(state, best, has_verdict),
        // A narrow gap is harder to see than a wide one.
        rating: difficulty(1750.0 - 900.0 * (gap - MIN_GAP).min(0.8), 0.0, opts.len()),
        goal: Goal::Best,
        solution: vec![name(best, side)],
        source: Source::SelfPlay,
        plies: None,
        options: opts,
        exact: a.exact,
    };
    // The set-up must give back this very state: it has no word for every
    // flag (the last turn after the opponent's last piece is borne off), and
    // a puzzle whose position reads back otherwise would ask something else.
    (state_of(&p).ok() == Some(*state)).then_some(p)
}

/// Plays one level-10 game against itself with the dice of `seed`, and
/// answers the puzzles met on the way (decisions of the opening turn, which
/// has no set-up to start from, are left out).
pub fn from_game(seed: u64) -> Vec<Puzzle> {
    let mut dice = Rng::new(seed);
    let mut game = Game::new();
    let mut turn: Option<(State, usize)> = None;
    let mut out = vec![];
    while !game.is_over() {
        let state = *game.state();
        let token = match state.phase() {
            Phase::Over => break,
            Phase::Opening => Token::Start(dice.chance(), dice.chance()),
            Phase::Roll => {
                turn = Some((state, game.tokens().len()));
                Token::Roll(dice.chance())
            }
            Phase::Verdict => Token::Verdict(dice.verdict()),
            Phase::Decide | Phase::Move => {
                // One analysis both finds the puzzle and plays the move.
                let a = analyze(&state, Level::new(LEVEL), Payoff::MONEY);
                if let Some((start, from)) = &turn {
                    let record = game.token_texts()[*from..].join(" ");
                    out.extend(puzzle_at(&state, &a, start, &record));
                }
                match a.options.first().map(|c| c.decision) {
                    Some(Decision::Move(m)) => Token::Move(m),
                    Some(Decision::Verdict) => Token::Verdict(dice.verdict()),
                    None => break,
                }
            }
        };
        if game.apply(token).is_err() {
            break;
        }
    }
    out
}

/// The state a shipped puzzle asks about.
///
/// # Errors
/// A set-up or record that does not read.
pub fn state_of(p: &Puzzle) -> Result<State, String> {
    let start = parse_setup(p.setup.as_deref().ok_or("no set-up")?).map_err(|e| e.to_string())?;
    let mut g = Game::from_state(start);
    g.apply_all(p.record.as_deref().unwrap_or(""), 0)
        .map_err(|e| e.to_string())?;
    Ok(*g.state())
}

/// Checks a shipped puzzle with the engine that built it: the same best
/// option, ahead of the second by at least [`MIN_GAP`], with the options'
/// equities as shipped, exact where the puzzle says so (and only there).
///
/// # Errors
/// What does not hold, in words.
pub fn check(p: &Puzzle) -> Result<(), String> {
    check_with(p, crate::urgammon::endings::installed())
}

/// The endings a set of puzzles reaches: every class (with the smaller
/// ones) of a puzzle whose side to act and its opponent each have one or
/// two pieces left, solved here in memory for points (seconds), so that
/// those puzzles are made and checked with exact values wherever or
/// whatever installs tables.
///
/// # Errors
/// A class whose solve fails.
pub fn endings_for(puzzles: &[Puzzle], threads: usize) -> Result<Endings, String> {
    let classes: Vec<Class> = puzzles
        .iter()
        .filter(|p| p.game == PuzzleGame::Urgammon)
        .filter_map(|p| state_of(p).ok())
        .filter_map(|s| {
            let side = s.to_act()?;
            let roll = State::from_position(*s.position(), side, s.starter()?);
            locate(&roll).map(|(c, _)| c)
        })
        .collect();
    let mut endings = Endings::new();
    endings.build(&classes, threads, &|_, _, _| {})?;
    Ok(endings)
}

/// Gives a puzzle the exact values of its options where `tables` (or every
/// line played out) make them exact; the engine's estimates stay otherwise.
pub fn make_exact(p: &mut Puzzle, tables: Option<&Endings>) {
    let Ok(state) = state_of(p) else { return };
    let Some(side) = state.to_act() else { return };
    let a = analyze_with(&state, Level::new(LEVEL), Payoff::MONEY, tables);
    if a.exact {
        p.options = options(&a.options, side);
        p.exact = true;
    }
}

/// [`check`] with these endings instead of the installed ones.
///
/// # Errors
/// What does not hold, in words.
pub fn check_with(p: &Puzzle, tables: Option<&Endings>) -> Result<(), String> {
    let state = state_of(p)?;
    let side = state.to_act().ok_or("nobody is to act")?;
    if side.name() != p.to_act {
        return Err(format!(
            "{} is to act, the puzzle says {}",
            side.name(),
            p.to_act
        ));
    }
    let a = analyze_with(&state, Level::new(LEVEL), Payoff::MONEY, tables);
    let opts = options(&a.options, side);
    let (best, second) = match (opts.first(), opts.get(1)) {
        (Some(b), Some(s)) => (b, s),
        _ => return Err("fewer than two options".into()),
    };
    if Some(&best.0) != p.solution.first() {
        return Err(format!(
            "the engine's best is {}, the puzzle says {:?}",
            best.0, p.solution
        ));
    }
    let gap = best.1 - second.1;
    if gap < MIN_GAP {
        return Err(format!("the gap is {gap:.3}, under {MIN_GAP}"));
    }
    if a.exact != p.exact {
        return Err(format!(
            "the options' values are now {}",
            if a.exact { "exact" } else { "estimates" }
        ));
    }
    if opts.len() != p.options.len()
        || opts
            .iter()
            .zip(&p.options)
            .any(|(a, b)| a.0 != b.0 || (a.1 - b.1).abs() > 1e-4)
    {
        return Err(format!("the options are now {opts:?}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_self_play_game_gives_puzzles_that_pass_their_check() {
        let mut found = vec![];
        for seed in 0..4 {
            found.extend(from_game(seed));
        }
        assert!(
            !found.is_empty(),
            "four games give at least one clear decision"
        );
        for p in &found {
            check(p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
            assert!(p.options[0].1 - p.options[1].1 >= MIN_GAP);
        }
        let mut wrong = found[0].clone();
        wrong.solution = vec![wrong.options[1].0.clone()];
        assert!(check(&wrong).is_err());
    }
}
