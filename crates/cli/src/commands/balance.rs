//! `agon balance`: the Ringo balance lab (`agon_ai::ringo::balance`), as a
//! table for people or `{"rows": [...]}` for programs, with a progress bar
//! and every game written to `--records` as it ends.

use super::print_json;
use super::tournament::ringo::parse_player;
use crate::cli::BalanceArgs;
use agon_ai::ringo::balance::{measure, Row};
use agon_ai::ringo::Spec;
use anyhow::{Context, Result};
use serde::Serialize;
use std::io::Write;

/// `--json`'s object.
#[derive(Serialize)]
struct Rows<'a> {
    rows: &'a [Row],
}

/// Runs every cell, then prints the table (and the JSON with `--json`).
pub(crate) fn run(args: &BalanceArgs) -> Result<()> {
    let rules: Vec<ringo::Rules> = args
        .rules
        .iter()
        .map(|r| r.parse().with_context(|| format!("invalid --rules '{r}'")))
        .collect::<Result<_>>()?;
    let players: Vec<Spec> = args
        .players
        .iter()
        .map(|p| parse_player(p, "--players"))
        .collect::<Result<_>>()?;
    if args.games == 0 {
        anyhow::bail!("--games must be at least 1");
    }
    let mut records = match &args.records {
        None => None,
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot create --records {}", path.display()))?,
        )),
    };
    let cells = rules.len() * players.len();
    let progress = crate::progress::Progress::new((cells * args.games) as u64, "games");
    let mut rows = vec![];
    let mut done = 0u64;
    for r in &rules {
        for &p in &players {
            let row = measure(*r, p, args.games, args.threads, args.seed, &mut |rec| {
                done += 1;
                progress.set(done, format!("{} · {}", rec.rules, rec.player));
                if let Some(out) = records.as_mut() {
                    // A failed write loses a record line, never the table.
                    let _ = serde_json::to_writer(&mut *out, rec)
                        .map_err(std::io::Error::from)
                        .and_then(|()| writeln!(out));
                }
            });
            rows.push(row);
        }
    }
    progress.finish();
    if let Some(out) = records.as_mut() {
        out.flush().context("cannot write --records")?;
    }
    if args.json {
        return print_json(&Rows { rows: &rows });
    }
    println!(
        "{:<32} {:<10} {:>6} {:>9} {:>17} {:>6} {:>8} {:>7} {:>8}",
        "rules",
        "player",
        "games",
        "attackers",
        "95% interval",
        "draws",
        "timeouts",
        "plies",
        "balance"
    );
    for row in &rows {
        println!(
            "{:<32} {:<10} {:>6} {:>8.1}% {:>7.1}% – {:>5.1}% {:>6} {:>8} {:>7.1} {:>8.3}",
            row.rules,
            row.player,
            row.games,
            100.0 * row.attackers_win_rate,
            100.0 * row.ci95[0],
            100.0 * row.ci95[1],
            row.draws,
            row.timeouts,
            row.mean_plies,
            row.balance
        );
    }
    Ok(())
}
