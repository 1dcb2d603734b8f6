//! `agon ringo solve` and `agon ringo tablebase …`: proofs and endgame tables.

use crate::cli::TablebaseCmd;
use crate::console::print_json;
use crate::progress::Progress;
use agon_ai::ringo::solve::{table_line, Solution, SolveOptions};
use agon_ai::ringo::tablebase::{Material, Tablebases};
use anyhow::{Context, Result};
use ringo::{Game, Rules};
use serde::Serialize;
use std::path::Path;

/// Reads the tables of these rules in `dir` (none when the directory does
/// not exist).
fn load(dir: &Path, rules: &Rules) -> Result<Tablebases> {
    if !dir.exists() {
        return Ok(Tablebases::new(rules));
    }
    Tablebases::load(dir, rules)
        .with_context(|| format!("reading the tablebases in {}", dir.display()))
}

/// `agon ringo solve`: df-pn from the game's position, with a progress bar
/// of the node budget.
pub(crate) fn solve(game: &Game, max_nodes: u64, threads: usize, dir: &Path) -> Result<Solution> {
    let tb = load(dir, game.rules())?;
    let progress = Progress::new(max_nodes, "nodes");
    let opts = SolveOptions {
        max_nodes,
        threads,
        tablebases: (!tb.classes().is_empty()).then_some(&tb),
    };
    let solution =
        agon_ai::ringo::solve::solve(game, &opts, &|n| progress.set(n.min(max_nodes), ""));
    progress.set(solution.nodes.min(max_nodes), solution.result);
    progress.finish();
    Ok(solution)
}

/// One bar over several classes: the library reports each class's own
/// `(class, done, of)`; the bar adds up the classes before it.
fn per_class(progress: &Progress, total: u64) -> impl Fn(Material, u64, u64) + Sync + '_ {
    // (the current class, steps of the classes before it, the class's own)
    let state = std::sync::Mutex::new((None::<Material>, 0u64, 0u64));
    move |m, done, of| {
        let Ok(mut g) = state.lock() else { return };
        if g.0 != Some(m) {
            g.1 += g.2;
            g.0 = Some(m);
        }
        g.2 = of;
        progress.set((g.1 + done).min(total), m.to_string());
    }
}

/// `agon ringo tablebase probe`'s answer.
#[derive(Serialize)]
struct ProbeJson {
    /// The position.
    position: String,
    /// Its class, e.g. `3v1`.
    material: String,
    /// `"attackers"`, `"defenders"`, `"draw"`, or `"unknown"` when the
    /// class is not in the directory.
    result: &'static str,
    /// Plies to the end with best play (`null` for a repetition).
    plies: Option<u16>,
    /// The winner's fastest line against the slowest defence.
    pv: Vec<String>,
}

/// `agon ringo tablebase …`.
pub(crate) fn tablebase(cmd: TablebaseCmd) -> Result<()> {
    match cmd {
        TablebaseCmd::Build {
            rules,
            attackers,
            defenders,
            dir,
            threads,
        } => {
            let rules: Rules = rules.parse().context("invalid --rules")?;
            let mut tb = load(&dir, &rules)?;
            let todo: Vec<Material> = Tablebases::plan(attackers, defenders)
                .into_iter()
                .filter(|m| tb.table(*m).is_none())
                .collect();
            let total: u64 = todo
                .iter()
                .map(|&m| 2 * Tablebases::class_size(&rules, m))
                .sum();
            let progress = Progress::new(total, "steps");
            let summaries = tb.build_up_to(
                attackers,
                defenders,
                threads as usize,
                &per_class(&progress, total),
            )?;
            progress.complete();
            tb.save(&dir)
                .with_context(|| format!("writing the tablebases to {}", dir.display()))?;
            print_json(&summaries)
        }
        TablebaseCmd::Verify {
            rules,
            dir,
            samples,
            depth,
            threads,
        } => {
            let rules: Rules = rules.parse().context("invalid --rules")?;
            let tb = load(&dir, &rules)?;
            if tb.classes().is_empty() {
                anyhow::bail!(
                    "no tablebases of {} in {}: build them with `agon ringo tablebase build`",
                    tb.rules(),
                    dir.display()
                );
            }
            let total: u64 = tb
                .classes()
                .iter()
                .map(|&m| Tablebases::class_size(&rules, m) + samples)
                .sum();
            let progress = Progress::new(total, "positions");
            let report = tb.verify(
                threads as usize,
                samples,
                depth,
                1,
                &per_class(&progress, total),
            );
            progress.complete();
            print_json(&report)?;
            if report.inconsistent > 0 || report.disagreements > 0 {
                anyhow::bail!("the tables are wrong: see the report");
            }
            Ok(())
        }
        TablebaseCmd::Probe { game, dir } => {
            let game = game.load()?;
            let rules = *game.rules();
            let tb = load(&dir, &rules)?;
            let pos = *game.position();
            let v = if game.last_was_pass() {
                tb.probe_after_pass(&pos)
            } else {
                tb.probe(&pos)
            };
            print_json(&ProbeJson {
                position: pos.to_text(rules.rings),
                material: Material::of(&pos).to_string(),
                result: v.map_or("unknown", |v| v.result_name(&rules)),
                plies: v.and_then(|v| v.plies()),
                pv: table_line(&tb, &rules, pos, game.last_was_pass()),
            })
        }
    }
}
