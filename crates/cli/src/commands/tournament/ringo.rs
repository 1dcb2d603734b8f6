//! `agon tournament ringo`: engine-against-engine Ringo matches with a progress bar.

use crate::cli::{parse_player, RingoArgs};
use agon_ai::ringo::tournament::{self, Spec, Tally};
use anyhow::{Context, Result};
use serde::Serialize;

/// One finished game, as a line of `--records`.
#[derive(Serialize)]
struct RecordLine<'a> {
    game: usize,
    a_attacks: bool,
    winner: Option<&'static str>,
    plies: usize,
    record: &'a str,
}

/// A's result in one seat.
#[derive(Serialize)]
pub struct SeatScore {
    /// Games A played in that seat.
    pub games: usize,
    /// A's mean score there (1 a win, ½ a draw).
    pub score: f64,
}

/// The sequential test's verdict.
#[derive(Serialize)]
pub struct SprtReport {
    /// The null hypothesis's Elo.
    pub elo0: f64,
    /// The alternative's Elo.
    pub elo1: f64,
    /// The log-likelihood ratio.
    pub llr: f64,
    /// `H0`, `H1` or `undecided`.
    pub result: &'static str,
}

/// `agon tournament ringo`'s report, from A's side.
#[derive(Serialize)]
pub struct RingoReport {
    /// The rules.
    pub rules: String,
    /// Player A.
    pub a: String,
    /// Player B.
    pub b: String,
    /// Games played.
    pub games: usize,
    /// A's wins.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// A's losses.
    pub losses: usize,
    /// A's mean score.
    pub score: f64,
    /// A's Elo over B.
    pub elo: f64,
    /// Its 95% interval.
    pub elo_95: [f64; 2],
    /// A as the attackers.
    pub a_as_attackers: SeatScore,
    /// A as the defenders.
    pub a_as_defenders: SeatScore,
    /// The attackers' share of wins, whoever attacked.
    pub attackers_win_rate: f64,
    /// Mean game length in plies.
    pub mean_plies: f64,
    /// The sequential test, when asked for.
    pub sprt: Option<SprtReport>,
    /// Wall time.
    pub seconds: f64,
}

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

/// The most `--openings` reads: far more than any study needs (a record is
/// a few kilobytes), and a bound so that `/dev/zero` is refused, not read
/// until memory runs out.
const OPENINGS_MAX_BYTES: u64 = 64 << 20;

/// The openings of `--openings`, one game record a line.
fn read_openings(path: &std::path::Path, rules: &ringo::Rules) -> Result<tournament::Openings> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(OPENINGS_MAX_BYTES + 1).read_to_string(&mut text))
        .with_context(|| format!("cannot read --openings {}", path.display()))?;
    if text.len() as u64 > OPENINGS_MAX_BYTES {
        anyhow::bail!(
            "invalid --openings {}: larger than {} MiB",
            path.display(),
            OPENINGS_MAX_BYTES >> 20
        );
    }
    tournament::Openings::parse(&text, rules)
        .with_context(|| format!("invalid --openings {}", path.display()))
}

/// `agon tournament ringo`.
pub fn ringo(args: &RingoArgs) -> Result<RingoReport> {
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
    let openings = match &args.openings {
        Some(path) => Some(read_openings(path, &rules)?),
        None => None,
    };
    let start = std::time::Instant::now();
    let config = tournament::Config {
        rules,
        a,
        b,
        games,
        threads,
        seed,
        sprt,
        seat: args.seat.map(ringo::Side::from),
        openings,
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
            let line = RecordLine {
                game: g.index,
                a_attacks: g.a_attacks,
                winner,
                plies: g.plies,
                record: &g.record,
            };
            let written = serde_json::to_writer(&mut *out, &line)
                .map_err(std::io::Error::from)
                .and_then(|()| writeln!(out))
                .and_then(|()| out.flush());
            if written.is_err() {
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
    let per_game = |x: f64| {
        if t.games() > 0 {
            x / t.games() as f64
        } else {
            0.0
        }
    };
    let seat = |(points, n): (f64, usize)| SeatScore {
        games: n,
        score: if n > 0 { points / n as f64 } else { 0.0 },
    };
    Ok(RingoReport {
        rules: rules.to_string(),
        a: a.to_string(),
        b: b.to_string(),
        games: t.games(),
        wins: t.wins,
        draws: t.draws,
        losses: t.losses,
        score: t.score(),
        elo: elo.round(),
        elo_95: [lo.round(), hi.round()],
        a_as_attackers: seat(t.a_as_attackers),
        a_as_defenders: seat(t.a_as_defenders),
        attackers_win_rate: per_game(t.attacker_wins as f64),
        mean_plies: per_game(t.plies as f64),
        sprt: sprt.map(|(elo0, elo1)| {
            let llr = t.llr(elo0, elo1);
            SprtReport {
                elo0,
                elo1,
                llr,
                result: if llr >= tournament::SPRT_BOUNDS.1 {
                    "H1"
                } else if llr <= tournament::SPRT_BOUNDS.0 {
                    "H0"
                } else {
                    "undecided"
                },
            }
        }),
        seconds: start.elapsed().as_secs_f64().round(),
    })
}
