//! Checking shipped puzzles of both games again, each the way it was made:
//! above the two games' puzzle modules (which share the shape in
//! [`crate::puzzle`]), so the shape does not depend on what uses it.

use crate::puzzle::{Puzzle, PuzzleGame, Source};

/// Checks puzzles of both games again, the way each was proved: Ringo ones
/// against tables built here for each rule set they use (classes up to 2v2
/// and 3v1, seconds each), those from self-play with the solver over those
/// tables, Urgammon ones with the engine that built them (and the exact
/// endings they reach, solved here).
/// Answers each failure as (id, why); `progress(done, total)` counts
/// puzzles.
pub fn check_all(
    puzzles: &[Puzzle],
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<(String, String)> {
    use crate::ringo::puzzles as rp;
    use crate::urgammon::puzzles as up;
    let mut failed = vec![];
    let mut tables = std::collections::HashMap::new();
    for p in puzzles.iter().filter(|p| p.game == PuzzleGame::Ringo) {
        if !tables.contains_key(&p.rules) {
            match p.rules.parse::<ringo::Rules>() {
                Ok(rules) => match rp::tables_for(&rules, threads) {
                    Ok(tb) => {
                        tables.insert(p.rules.clone(), std::sync::Arc::new(tb));
                    }
                    Err(e) => failed.push((p.id.clone(), e.to_string())),
                },
                Err(e) => failed.push((p.id.clone(), e.to_string())),
            }
        }
    }
    // The Urgammon puzzles in the endings' reach were made with their exact
    // values: the classes they need are solved here, in memory.
    let endings = match up::endings_for(puzzles, threads) {
        Ok(e) => Some(e),
        Err(e) => {
            failed.push(("urgammon endings".to_string(), e));
            None
        }
    };
    let done = std::sync::atomic::AtomicUsize::new(0);
    let total = puzzles.len();
    crate::par::run(
        total,
        threads,
        |i| {
            let p = &puzzles[i];
            let result = match p.game {
                PuzzleGame::Ringo => match tables.get(&p.rules) {
                    Some(tb) if p.source == Source::SelfPlay => rp::check_self_play(tb, p),
                    Some(tb) => rp::check(tb, p),
                    None => Err("no tables for its rules".to_string()),
                },
                PuzzleGame::Urgammon => up::check_with(p, endings.as_ref()),
            };
            progress(
                done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1,
                total,
            );
            result.err().map(|e| (p.id.clone(), e))
        },
        |bad| {
            failed.extend(bad);
            true
        },
    );
    failed.sort();
    failed.dedup();
    failed
}
