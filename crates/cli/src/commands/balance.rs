//! `agon balance`: the Ringo balance lab (`agon_ai::ringo::balance`), as a
//! table for people or `{"rows": [...]}` for programs, with a progress bar
//! and every game written to `--records` as it ends. `--from` redraws the
//! table and chart from saved rows without playing, pooling the games of a
//! cell that several saved runs measured.

use crate::cli::parse_player;
use crate::cli::BalanceArgs;
use crate::console::{print_json, print_out};
use agon_ai::ringo::balance::{measure, players, pool, rule_sets, verdicts, Row, POOLED};
use agon_ai::ringo::Spec;
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;

/// `--json`'s object: the command line that made the rows, and the rows
/// (what `--from` reads back).
#[derive(Serialize, Deserialize)]
struct Rows {
    command: String,
    rows: Vec<Row>,
    /// The commands of the runs whose rows `--from` pooled (none for a run
    /// that played its games).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    sources: Vec<String>,
}

/// Runs every cell (or reads them with `--from`), writes the Markdown and
/// the chart asked for, then prints the table (the JSON with `--json`).
pub(crate) fn run(args: &BalanceArgs) -> Result<()> {
    let this_command = || {
        std::iter::once("agon".to_string())
            .chain(std::env::args().skip(1))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let Rows {
        command,
        rows,
        sources,
    } = match args.from.as_slice() {
        [] => Rows {
            rows: play(args)?,
            command: this_command(),
            sources: vec![],
        },
        [path] => read_rows(path)?,
        paths => {
            // Several runs: the rows pooled, made by this command from theirs.
            let (mut rows, mut sources) = (vec![], vec![]);
            for path in paths {
                let saved = read_rows(path)?;
                rows.extend(saved.rows);
                if saved.sources.is_empty() {
                    sources.push(saved.command);
                } else {
                    sources.extend(saved.sources);
                }
            }
            Rows {
                rows: pool(&rows),
                command: this_command(),
                sources,
            }
        }
    };
    let players = players(&rows);
    if let Some(path) = &args.markdown {
        std::fs::write(path, markdown(&rows, &players))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.svg {
        std::fs::write(path, chart(&rows, &players))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        return print_json(&Rows {
            command,
            rows,
            sources,
        });
    }
    let mut table = format!(
        "{:<32} {:<10} {:>6} {:>9} {:>17} {:>6} {:>8} {:>7} {:>8}\n",
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
        table.push_str(&format!(
            "{:<32} {:<10} {:>6} {:>8.1}% {:>7.1}% – {:>5.1}% {:>6} {:>8} {:>7.1} {:>8.3}\n",
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
        ));
    }
    print_out(&table)
}

/// The rows an earlier `agon balance --json` printed, refused with the
/// reason when the file is missing, is not that JSON or has no rows.
fn read_rows(path: &Path) -> Result<Rows> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read --from {}", path.display()))?;
    let saved: Rows = serde_json::from_str(&text).with_context(|| {
        format!(
            "--from {} is not the JSON of `agon balance --json`",
            path.display()
        )
    })?;
    if saved.rows.is_empty() {
        anyhow::bail!("--from {} has no rows", path.display());
    }
    Ok(saved)
}

/// Plays every cell: each rule set with each player in both seats.
fn play(args: &BalanceArgs) -> Result<Vec<Row>> {
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
    Ok(rows)
}

/// The rows as Markdown: first one line per rule set with the attackers'
/// share of wins at each strength and the verdict on the strongest
/// strengths taken together (the attackers' score, a draw counting half:
/// what a reader compares), then every cell.
fn markdown(rows: &[Row], players: &[&str]) -> String {
    let verdicts = verdicts(rows);
    let pooled = match players.len().min(POOLED) {
        1 => "score".to_string(),
        n => format!("score, strongest {n} together"),
    };
    let mut s = format!(
        "| rules | {} | {pooled} | |\n| --- |{} ---: | --- |\n",
        players.join(" | "),
        " ---: |".repeat(players.len())
    );
    for v in &verdicts {
        let cells: Vec<String> = players
            .iter()
            .map(|p| {
                rows.iter()
                    .find(|r| r.rules == v.rules && r.player == *p)
                    .map_or("–".to_string(), |r| {
                        format!("{:.0}%", 100.0 * r.attackers_win_rate)
                    })
            })
            .collect();
        s.push_str(&format!(
            "| `{}` | {} | {:.0}% ({:.0}–{:.0}%) | {} |\n",
            v.rules,
            cells.join(" | "),
            100.0 * v.attackers_score,
            100.0 * v.ci95[0],
            100.0 * v.ci95[1],
            if v.balanced { "**balanced**" } else { "" }
        ));
    }
    s.push_str(
        "\n| rules | player | games | attackers win | 95% interval | draws | timeouts | mean plies | balance |\n\
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

/// Twelve colours that stay apart on a light background, then the same
/// colours dashed and dotted, so no two of up to 36 lines look alike (the
/// Rules lab page draws its lines with the same styles).
const COLOURS: [&str; 12] = [
    "#1a237e", "#c62828", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#5d4037", "#ad1457",
    "#9e9d24", "#0277bd", "#4e342e", "#546e7a",
];
/// The dash patterns of the second, third and fourth rounds of colours
/// (solid, dashed, dotted, dash-dot): 48 lines that all look different. With
/// three (36 lines), the 37th to 40th rule sets were drawn like the first four.
const DASHES: [&str; 4] = ["", "7 4", "2 3", "10 3 2 3"];

/// The `k`-th line's stroke attributes: its colour and dash pattern.
fn line_style(k: usize) -> (&'static str, String) {
    let dash = DASHES[(k / COLOURS.len()) % DASHES.len()];
    let dash = if dash.is_empty() {
        String::new()
    } else {
        format!(" stroke-dasharray=\"{dash}\"")
    };
    (COLOURS[k % COLOURS.len()], dash)
}

/// An SVG line chart: the attackers' win rate (0–100%) against the players
/// in the order given, one line per rule set, with its 95% interval as bars.
/// The legend lists every rule set beside the plot; the picture grows to
/// hold it (an SVG clips what lies outside its box).
fn chart(rows: &[Row], players: &[&str]) -> String {
    let sets = rule_sets(rows);
    let (left, top, plot_w, plot_h) = (60.0, 20.0, 480.0, 340.0);
    let legend_x = left + plot_w + 16.0;
    // About 7 units a character at font-size 12 (sans-serif), with room.
    let longest = sets.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    let w = legend_x + 44.0 + 7.0 * longest as f64;
    let h = f64::max(
        top + plot_h + 40.0,
        top + 14.0 + 18.0 * sets.len() as f64 + 10.0,
    );
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
    for (k, rules) in sets.iter().enumerate() {
        let (colour, dash) = line_style(k);
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
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"{dash} points=\"{}\"><title>{rules}</title></polyline>\n",
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
            "<line x1=\"{legend_x}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"{colour}\" stroke-width=\"3\"{dash}/><text x=\"{}\" y=\"{ly}\">{rules}</text>\n",
            legend_x + 28.0,
            ly - 4.0,
            ly - 4.0,
            legend_x + 36.0,
        ));
    }
    s.push_str("</svg>\n");
    s
}
