//! `agon puzzles …`: making the puzzles the web app ships, and checking them.

use crate::cli::PuzzlesCmd;
use crate::console::print_json;
use crate::progress::Progress;
use agon_ai::puzzle::{Puzzle, PuzzleGame, PuzzleSet};
use agon_ai::puzzle_check::check_all;
use agon_ai::ringo::puzzles::{self as rp, CLASSES};
use agon_ai::urgammon::puzzles as up;
use agon_ai::Rng;
use anyhow::{bail, Context, Result};
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// Runs `agon puzzles …`.
pub(crate) fn run(cmd: PuzzlesCmd) -> Result<()> {
    match cmd {
        PuzzlesCmd::Build {
            out,
            ringo,
            ringo_games,
            games,
            per_game,
            seed,
            threads,
        } => build(&out, (ringo, ringo_games), (games, per_game), seed, threads),
        PuzzlesCmd::Check { dir, threads } => check(&dir, threads),
    }
}

/// What `agon puzzles build` and `check` print.
#[derive(Serialize)]
struct Report {
    ringo: usize,
    urgammon: usize,
    /// Per theme, puzzles of both games having it.
    themes: std::collections::BTreeMap<String, usize>,
    failed: Vec<(String, String)>,
    secs: f64,
}

fn report(sets: &[&[Puzzle]], failed: Vec<(String, String)>, start: Instant) -> Report {
    let mut themes = std::collections::BTreeMap::new();
    for p in sets.iter().flat_map(|s| s.iter()) {
        for t in &p.themes {
            *themes.entry(format!("{}:{t}", p.game.name())).or_insert(0) += 1;
        }
    }
    Report {
        ringo: sets[0].len(),
        urgammon: sets[1].len(),
        themes,
        failed,
        secs: start.elapsed().as_secs_f64(),
    }
}

fn build(
    out: &Path,
    (per_preset, ringo_games): (usize, usize),
    (games, per_game): (usize, usize),
    seed: u64,
    threads: usize,
) -> Result<()> {
    let start = Instant::now();
    let built_by = format!(
        "agon puzzles build --ringo {per_preset} --ringo-games {ringo_games} --games {games} --per-game {per_game} --seed {seed}"
    );
    // Ringo: each preset's small tables, a share of puzzles from each class.
    let mut ringo = vec![];
    let bar = Progress::new(ringo::Preset::ALL.len() as u64, "presets");
    for (i, preset) in ringo::Preset::ALL.into_iter().enumerate() {
        bar.set(i as u64, format!("{}: tables", preset.name()));
        let rules = preset.rules();
        let tb = rp::tables_for(&rules, threads)?;
        bar.set(i as u64, format!("{}: puzzles", preset.name()));
        let mut rng = Rng::new(seed.wrapping_mul(1_000_003) ^ i as u64);
        let mut found = vec![];
        for (k, m) in CLASSES.into_iter().enumerate() {
            let share = per_preset / CLASSES.len() + usize::from(k < per_preset % CLASSES.len());
            found.extend(rp::from_class(&tb, &rules, m, share, &mut rng));
        }
        for (n, mut p) in found.into_iter().enumerate() {
            p.id = format!("r-{}-{:04}", preset.name(), n + 1);
            if let Err(e) = rp::check(&tb, &p) {
                bail!("puzzle {} failed its check: {e}", p.id);
            }
            ringo.push(p);
        }
        // Level-10 self-play, reviewed; each puzzle proved by the solver.
        bar.set(i as u64, format!("{}: self-play", preset.name()));
        let tb = std::sync::Arc::new(tb);
        let mut games_found: Vec<(usize, Vec<Puzzle>)> = vec![];
        agon_ai::par::run(
            ringo_games,
            threads,
            |g| {
                (
                    g,
                    rp::from_self_play(&rules, &tb, seed.wrapping_mul(31).wrapping_add(g as u64)),
                )
            },
            |found| {
                games_found.push(found);
                bar.set(
                    i as u64,
                    format!(
                        "{}: self-play {}/{ringo_games}",
                        preset.name(),
                        games_found.len()
                    ),
                );
                true
            },
        );
        games_found.sort_by_key(|f| f.0);
        let mut seen = std::collections::HashSet::new();
        let mut n = 0;
        for mut p in games_found.into_iter().flat_map(|f| f.1) {
            if !seen.insert(p.position.clone()) {
                continue;
            }
            n += 1;
            p.id = format!("r-{}-g{:03}", preset.name(), n);
            if let Err(e) = rp::check_self_play(&tb, &p) {
                bail!("puzzle {} failed its check: {e}", p.id);
            }
            ringo.push(p);
        }
    }
    bar.set(3, "");
    bar.finish();
    // Urgammon: level-10 self-play games, each decision reviewed.
    let bar = Progress::new(games as u64, "games");
    let mut by_game: Vec<(usize, Vec<Puzzle>)> = vec![];
    agon_ai::par::run(
        games,
        threads,
        |g| {
            let all = up::from_game(seed.wrapping_mul(7_919).wrapping_add(g as u64));
            // Evenly spread over the game when it has more than its share.
            let step = all.len().div_ceil(per_game.max(1)).max(1);
            (g, all.into_iter().step_by(step).collect::<Vec<_>>())
        },
        |found| {
            by_game.push(found);
            let n: usize = by_game.iter().map(|f| f.1.len()).sum();
            bar.set(by_game.len() as u64, format!("{n} puzzles"));
            true
        },
    );
    bar.finish();
    by_game.sort_by_key(|f| f.0);
    let mut seen = std::collections::HashSet::new();
    let found: Vec<Puzzle> = by_game
        .into_iter()
        .flat_map(|f| f.1)
        .filter(|p| seen.insert((p.setup.clone(), p.record.clone())))
        .collect();
    // Where the exact endings reach, a puzzle gives exact values (and goes
    // if, valued exactly, its answer is not clearly best).
    let endings = up::endings_for(&found, threads).map_err(anyhow::Error::msg)?;
    let mut urgammon = vec![];
    for mut p in found {
        p.id = format!("u-{:04}", urgammon.len() + 1);
        up::make_exact(&mut p, Some(&endings));
        match up::check_with(&p, Some(&endings)) {
            Ok(()) => urgammon.push(p),
            Err(_) if p.exact => continue,
            Err(e) => bail!("puzzle {} failed its check: {e}", p.id),
        }
    }
    std::fs::create_dir_all(out).with_context(|| out.display().to_string())?;
    for (game, list) in [
        (PuzzleGame::Ringo, &ringo),
        (PuzzleGame::Urgammon, &urgammon),
    ] {
        let path = out.join(format!("{}.json", game.name()));
        std::fs::write(&path, to_text(game, &built_by, list)?)
            .with_context(|| path.display().to_string())?;
    }
    print_json(&report(&[&ringo, &urgammon], vec![], start))
}

/// A set as written: one puzzle a line, so a change to the set reads as a
/// change to its lines.
fn to_text(game: PuzzleGame, built_by: &str, list: &[Puzzle]) -> Result<String> {
    let head = serde_json::to_string(&PuzzleSet {
        game,
        built_by: built_by.to_string(),
        puzzles: vec![],
    })?;
    let head = head.trim_end_matches("[]}");
    let lines: Vec<String> = list
        .iter()
        .map(serde_json::to_string)
        .collect::<Result<_, _>>()?;
    Ok(format!("{head}[\n{}\n]}}\n", lines.join(",\n")))
}

/// Reads one game's shipped set.
pub(crate) fn read_set(dir: &Path, game: PuzzleGame) -> Result<PuzzleSet> {
    let path = dir.join(format!("{}.json", game.name()));
    let text = std::fs::read_to_string(&path).with_context(|| path.display().to_string())?;
    serde_json::from_str(&text).with_context(|| path.display().to_string())
}

fn check(dir: &Path, threads: usize) -> Result<()> {
    let start = Instant::now();
    let ringo = read_set(dir, PuzzleGame::Ringo)?.puzzles;
    let urgammon = read_set(dir, PuzzleGame::Urgammon)?.puzzles;
    let all: Vec<Puzzle> = ringo.iter().chain(&urgammon).cloned().collect();
    let bar = Progress::new(all.len() as u64, "puzzles");
    let failed = check_all(&all, threads, &|done, _| bar.set(done as u64, ""));
    bar.finish();
    let bad = failed.len();
    print_json(&report(&[&ringo, &urgammon], failed, start))?;
    if bad > 0 {
        bail!("{bad} puzzles failed their check");
    }
    Ok(())
}
