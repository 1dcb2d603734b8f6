//! `agon tournament …`: engine-against-engine matches with a progress bar.

use agon_ai::ringo::tournament::{self, Spec, Tally};
use anyhow::{Context, Result};
use serde_json::json;

/// Moves the progress bar on: games done, W/D/L and the Elo estimate.
fn bar(t: &Tally, progress: &crate::progress::Progress) {
    let (elo, _, _) = t.elo();
    progress.set(
        t.games() as u64,
        format!(
            "+{} ={} -{}  score {:.3}  Elo {elo:+.0}",
            t.wins,
            t.draws,
            t.losses,
            t.score()
        ),
    );
}

/// Reads a player spec (either game's), naming the flag it came from.
pub fn parse_player<T: std::str::FromStr<Err = String>>(text: &str, flag: &str) -> Result<T> {
    text.parse()
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("invalid {flag}"))
}

/// What `agon tournament ringo` plays: its command-line arguments.
#[derive(clap::Args)]
pub struct RingoArgs {
    /// Rules: PRESET[,key=value]...
    #[arg(long, default_value = "classic")]
    rules: String,
    /// Player A: level:N, depth:D, nodes:N, random, greedy (1 ply) or cautious (greedy that avoids allowing a capture).
    #[arg(long)]
    a: String,
    /// Player B.
    #[arg(long)]
    b: String,
    /// Games to play (an even number plays every opening from both seats).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Stop early by SPRT between Elo elo0 and elo1, e.g. 0,50.
    #[arg(long)]
    sprt: Option<String>,
    /// Seed for the openings and the players' randomness.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write every game to this file as it ends, one JSON object a line:
    /// game, a_attacks, winner, plies and the record (replay it with
    /// `agon ringo show --rules … --moves …`).
    #[arg(long)]
    records: Option<std::path::PathBuf>,
}

/// `agon tournament ringo`.
pub fn ringo(args: &RingoArgs) -> Result<serde_json::Value> {
    let (a, b, games, threads, seed) = (&args.a, &args.b, args.games, args.threads, args.seed);
    let rules: ringo::Rules = args.rules.parse().context("invalid --rules")?;
    let a: Spec = parse_player(a, "--a")?;
    let b: Spec = parse_player(b, "--b")?;
    let sprt = match args.sprt.as_deref() {
        None => None,
        Some(text) => {
            let (e0, e1) = text
                .split_once(',')
                .and_then(|(x, y)| {
                    Some((x.trim().parse::<f64>().ok()?, y.trim().parse::<f64>().ok()?))
                })
                .filter(|(x, y)| x < y)
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "invalid --sprt '{text}': use elo0,elo1 with elo0 < elo1, e.g. 0,50"
                    )
                })?;
            Some((e0, e1))
        }
    };
    if games == 0 {
        anyhow::bail!("--games must be at least 1");
    }
    let start = std::time::Instant::now();
    let config = tournament::Config {
        rules,
        a,
        b,
        games,
        threads,
        seed,
        sprt,
    };
    // Opened before the first game, so a bad path fails at once; each game is
    // written (and flushed) as it ends, so an interrupted run keeps its games.
    let records = match args.records.as_deref() {
        None => None,
        Some(path) => Some(std::sync::Mutex::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot create --records {}", path.display()))?,
        ))),
    };
    let write_failed = std::sync::atomic::AtomicBool::new(false);
    let progress = crate::progress::Progress::new(games as u64, "games");
    let t = tournament::run(config, &|t, g| {
        if let Some(Ok(mut out)) = records.as_ref().map(|r| r.lock()) {
            use std::io::Write;
            let winner = g.winner.map(ringo::Side::name);
            let line = json!({"game": g.index, "a_attacks": g.a_attacks, "winner": winner, "plies": g.plies, "record": g.record});
            if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
                write_failed.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        }
        bar(t, &progress);
    });
    progress.finish();
    if write_failed.into_inner() {
        // The match result is still worth printing; the records are not whole.
        eprintln!("warning: some game records could not be written to --records");
    }
    let (elo, lo, hi) = t.elo();
    let seat = |(points, n): (f64, usize)| json!({"games": n, "score": if n > 0 { points / n as f64 } else { 0.0 }});
    Ok(json!({
        "rules": rules.to_string(),
        "a": a.to_string(),
        "b": b.to_string(),
        "games": t.games(),
        "wins": t.wins,
        "draws": t.draws,
        "losses": t.losses,
        "score": t.score(),
        "elo": elo.round(),
        "elo_95": [lo.round(), hi.round()],
        "a_as_attackers": seat(t.a_as_attackers),
        "a_as_defenders": seat(t.a_as_defenders),
        "attackers_win_rate": if t.games() > 0 { t.attacker_wins as f64 / t.games() as f64 } else { 0.0 },
        "mean_plies": if t.games() > 0 { t.plies as f64 / t.games() as f64 } else { 0.0 },
        "sprt": sprt.map(|(e0, e1)| {
            let llr = t.llr(e0, e1);
            json!({"elo0": e0, "elo1": e1, "llr": llr, "result": if llr >= tournament::SPRT_BOUNDS.1 { "H1" } else if llr <= tournament::SPRT_BOUNDS.0 { "H0" } else { "undecided" }})
        }),
        "seconds": start.elapsed().as_secs_f64().round(),
    }))
}

/// `agon tune ringo`: self-play, fit, verify. Progress goes to stderr; the
/// result (the weights as JSON and as Rust, the losses, the verification score)
/// to stdout.
pub fn tune_ringo(
    games: usize,
    depth: u32,
    epochs: usize,
    verify: usize,
    seed: u64,
) -> serde_json::Value {
    use agon_ai::ringo::{eval as ringo_eval, tune};
    let start = ringo_eval::HAND_WEIGHTS;
    let mut rng = agon_ai::Rng::new(seed);
    let mut samples = vec![];
    for i in 0..games {
        samples.extend(tune::self_play_game(depth, start, &mut rng));
        eprint!(
            "\rself-play {}/{games}: {} positions ",
            i + 1,
            samples.len()
        );
    }
    eprintln!();
    let before = tune::loss(&samples, &start.as_array());
    let tuned = tune::fit(&samples, start, epochs, 0.05);
    let after = tune::loss(&samples, &tuned.as_array());
    eprintln!("loss {before:.5} -> {after:.5}; verifying over {verify} games…");
    let score = tune::verify(tuned, start, verify, 3, seed ^ 0xabcd);
    json!({
        "games": games,
        "positions": samples.len(),
        "depth": depth,
        "epochs": epochs,
        "loss_before": before,
        "loss_after": after,
        "weights": weights_json(&tuned),
        "rust": weights_rust(&tuned),
        "verify_games": verify,
        "verify_score_tuned_vs_start": score,
    })
}

const WEIGHT_NAMES: [&str; 11] = [
    "in_fortress",
    "progress",
    "on_ring_one",
    "attackers",
    "defenders",
    "attackers_in_neutral",
    "guards",
    "attackers_attacked",
    "defenders_attacked",
    "mobility",
    "tempo",
];

fn weights_json(w: &agon_ai::ringo::eval::Weights) -> serde_json::Value {
    WEIGHT_NAMES
        .iter()
        .zip(w.as_array())
        .map(|(n, w)| ((*n).to_string(), json!((w * 10.0).round() / 10.0)))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

fn weights_rust(w: &agon_ai::ringo::eval::Weights) -> String {
    WEIGHT_NAMES
        .iter()
        .zip(w.as_array())
        .map(|(n, w)| format!("    {n}: {w:.1},"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `agon tune ringo --method spsa`: SPSA on match results at `depth`, then a
/// verification match against the starting weights one ply deeper.
pub fn spsa_ringo(iterations: usize, depth: u32, verify: usize, seed: u64) -> serde_json::Value {
    use agon_ai::ringo::{eval as ringo_eval, tune};
    let start = ringo_eval::HAND_WEIGHTS;
    let tuned = tune::spsa(start, iterations, 4, depth, seed, &|k, _| {
        eprint!("\rSPSA iteration {k}/{iterations} ");
    });
    eprintln!("\nverifying over {verify} games…");
    let score = tune::verify(tuned, start, verify, depth + 1, seed ^ 0xabcd);
    json!({
        "method": "spsa",
        "iterations": iterations,
        "games_per_iteration": 8,
        "depth": depth,
        "weights": weights_json(&tuned),
        "rust": weights_rust(&tuned),
        "verify_games": verify,
        "verify_depth": depth + 1,
        "verify_score_tuned_vs_start": score,
    })
}
