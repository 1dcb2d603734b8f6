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

/// `--json`'s object: the command line that made the rows, and the rows.
#[derive(Serialize)]
struct Rows<'a> {
    command: String,
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
    if let Some(path) = &args.markdown {
        std::fs::write(path, markdown(&rows))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.svg {
        std::fs::write(path, chart(&rows, &args.players))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        let command = std::iter::once("agon".to_string())
            .chain(std::env::args().skip(1))
            .collect::<Vec<_>>()
            .join(" ");
        return print_json(&Rows {
            command,
            rows: &rows,
        });
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

/// The rows as a Markdown table.
fn markdown(rows: &[Row]) -> String {
    let mut s = String::from(
        "| rules | player | games | attackers win | 95% interval | draws | timeouts | mean plies | balance |\n\
         | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for r in rows {
        s.push_str(&format!(
            "| `{}` | {} | {} | {:.1}% | {:.1}–{:.1}% | {} | {} | {:.1} | {:.2} |\n",
            r.rules,
            r.player,
            r.games,
            100.0 * r.attackers_win_rate,
            100.0 * r.ci95[0],
            100.0 * r.ci95[1],
            r.draws,
            r.timeouts,
            r.mean_plies,
            r.balance
        ));
    }
    s
}

/// An SVG line chart: the attackers' win rate (0–100%) against the players
/// in the order given, one line per rule set, with its 95% interval as bars.
fn chart(rows: &[Row], players: &[String]) -> String {
    const COLOURS: [&str; 8] = [
        "#1a237e", "#9c3d2a", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#5d4037", "#ad1457",
    ];
    let (w, h, left, top, plot_w, plot_h) = (760.0, 420.0, 60.0, 20.0, 480.0, 340.0);
    let x = |i: usize| left + plot_w * (i as f64 + 0.5) / players.len().max(1) as f64;
    let y = |p: f64| top + plot_h * (1.0 - p);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <title>Attackers' win rate against strength, one line per rule set</title>\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#fffaf0\"/>\n"
    );
    for pct in [0, 25, 50, 75, 100] {
        let yy = y(f64::from(pct) / 100.0);
        s.push_str(&format!(
            "<line x1=\"{left}\" x2=\"{}\" y1=\"{yy}\" y2=\"{yy}\" stroke=\"#ccc\"{}/>\n<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{pct}%</text>\n",
            left + plot_w,
            if pct == 50 { " stroke-dasharray=\"4 3\"" } else { "" },
            left - 6.0,
            yy + 4.0
        ));
    }
    for (i, p) in players.iter().enumerate() {
        s.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{p}</text>\n",
            x(i),
            top + plot_h + 18.0
        ));
    }
    let mut rule_sets: Vec<&str> = vec![];
    for r in rows {
        if !rule_sets.contains(&r.rules.as_str()) {
            rule_sets.push(&r.rules);
        }
    }
    for (k, rules) in rule_sets.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let pts: Vec<(f64, &Row)> = players
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                rows.iter()
                    .find(|r| r.rules == *rules && r.player == *p)
                    .map(|r| (x(i), r))
            })
            .collect();
        let line: Vec<String> = pts
            .iter()
            .map(|(xx, r)| format!("{xx:.1},{:.1}", y(r.attackers_win_rate)))
            .collect();
        s.push_str(&format!(
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>\n",
            line.join(" ")
        ));
        for (xx, r) in &pts {
            s.push_str(&format!(
                "<line x1=\"{xx:.1}\" x2=\"{xx:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"{colour}\" stroke-opacity=\"0.5\"/><circle cx=\"{xx:.1}\" cy=\"{:.1}\" r=\"3.5\" fill=\"{colour}\"/>\n",
                y(r.ci95[0]),
                y(r.ci95[1]),
                y(r.attackers_win_rate)
            ));
        }
        let ly = top + 14.0 + 18.0 * k as f64;
        s.push_str(&format!(
            "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{colour}\"/><text x=\"{}\" y=\"{}\">{rules}</text>\n",
            left + plot_w + 16.0,
            ly - 10.0,
            left + plot_w + 34.0,
            ly
        ));
    }
    s.push_str("</svg>\n");
    s
}
