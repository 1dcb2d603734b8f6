//! `agon urgammon analyze|rollout|met|calibrate` and `agon tournament
//! urgammon`: the Urgammon engine's commands (training is in
//! `urgammon_train_cmd`).

use crate::progress::Progress;
use agon_ai::stats::round4;
use agon_ai::urgammon::eval::Net;
pub use agon_ai::urgammon::report::{analysis_json, r4, RolloutJson};
use agon_ai::urgammon::tournament::{self as tour, Spec, Tally};
pub use agon_ai::urgammon::MatchContext;
use agon_ai::urgammon::MatchTable;
use anyhow::{bail, Context, Result};
use serde::Serialize;
use urgammon::{DrawRule, Match, State};

/// `x` (a probability or an equity) to four decimals.
/// Moves the tournament bar on.
fn tournament_bar(t: &Tally, progress: &Progress) {
    let (p, _, _) = t.win_rate();
    let (pts, _, _) = t.mean_points();
    progress.set(
        t.played as u64,
        format!(
            "+{} ={} -{}  won {:.1}%  points/game {pts:+.3}",
            t.wins,
            t.draws,
            t.losses,
            100.0 * p
        ),
    );
}

/// `agon tournament urgammon`.
/// Reads a network file for `--net-a`/`--net-b`, or the trained network.
fn load_net(path: Option<&std::path::Path>) -> Result<Net> {
    match path {
        None => Ok(Net::trained().clone()),
        Some(p) => {
            let bytes = std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))?;
            Net::from_bytes(&bytes).with_context(|| format!("cannot load {}", p.display()))
        }
    }
}

/// What `agon tournament urgammon` plays.
pub struct TournamentArgs<'a> {
    /// Player A.
    pub a: &'a str,
    /// Player B.
    pub b: &'a str,
    /// Games, or matches with `match_to`.
    pub games: usize,
    /// Match length.
    pub match_to: Option<u32>,
    /// Games played at once.
    pub threads: usize,
    /// Seed.
    pub seed: u64,
    /// Another network for A (a checkpoint), instead of the trained one.
    pub net_a: Option<&'a std::path::Path>,
    /// Another network for B.
    pub net_b: Option<&'a std::path::Path>,
}

/// A wins / games record: `{"played", "wins"}`.
#[derive(Serialize)]
pub struct Played {
    /// Games (or matches) played.
    pub played: usize,
    /// Of those, won.
    pub wins: usize,
}

/// `agon tournament urgammon`'s report, from A's side.
#[derive(Serialize)]
pub struct TournamentReport {
    /// Player A.
    pub a: String,
    /// Player B.
    pub b: String,
    /// A's network file, when not the trained one.
    pub net_a: Option<String>,
    /// B's network file.
    pub net_b: Option<String>,
    /// The match length, when matches were played.
    pub match_to: Option<u32>,
    /// Matches played (`matches`), or games (`games`): one of the two.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matches: Option<usize>,
    /// Games played, when no matches were.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub games: Option<usize>,
    /// Games played (within the matches too).
    pub games_played: u64,
    /// A's wins.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// A's losses.
    pub losses: usize,
    /// A's share of wins.
    pub win_rate: f64,
    /// Its 95% interval.
    pub win_rate_95: [f64; 2],
    /// A's mean points per game.
    pub points_per_game: f64,
    /// Its 95% interval (games only).
    pub points_per_game_95: Option<[f64; 2]>,
    /// A's record as light.
    pub a_as_light: Played,
    /// Wall time.
    pub seconds: f64,
}

/// `agon tournament urgammon`.
pub fn tournament(args: &TournamentArgs) -> Result<TournamentReport> {
    let TournamentArgs {
        a,
        b,
        games,
        match_to,
        threads,
        seed,
        net_a,
        net_b,
    } = *args;
    let a: Spec = crate::cli::parse_player(a, "--a")?;
    let b: Spec = crate::cli::parse_player(b, "--b")?;
    if games == 0 {
        bail!("--games must be at least 1");
    }
    if match_to.is_some_and(|n| !(1..=99).contains(&n)) {
        bail!("--match-to must be 1 to 99");
    }
    let start = std::time::Instant::now();
    let config = tour::Config {
        a,
        b,
        games,
        match_to,
        threads,
        seed,
    };
    let nets = [load_net(net_a)?, load_net(net_b)?];
    let progress = Progress::new(games as u64, "games");
    let t = tour::run(config, [&nets[0], &nets[1]], &|t| {
        tournament_bar(t, &progress)
    });
    progress.finish();
    let (p, lo, hi) = t.win_rate();
    let (pts, plo, phi) = t.mean_points();
    let matches = match_to.is_some();
    Ok(TournamentReport {
        a: a.to_string(),
        b: b.to_string(),
        net_a: net_a.map(|p| p.display().to_string()),
        net_b: net_b.map(|p| p.display().to_string()),
        match_to,
        matches: matches.then_some(t.played),
        games: (!matches).then_some(t.played),
        games_played: t.games,
        wins: t.wins,
        draws: t.draws,
        losses: t.losses,
        win_rate: round4(p),
        win_rate_95: [round4(lo), round4(hi)],
        points_per_game: round4(if matches {
            t.points as f64 / t.games.max(1) as f64
        } else {
            pts
        }),
        points_per_game_95: (!matches).then_some([round4(plo), round4(phi)]),
        a_as_light: Played {
            played: t.a_light.1,
            wins: t.a_light.0,
        },
        seconds: start.elapsed().as_secs_f64().round(),
    })
}

/// The match context from a match record, or from `--match-to` and `--score`
/// (which win over the record's).
///
/// # Errors
/// A malformed score, a score at or past the target, or `--score` alone.
pub fn match_context(
    m: &Match,
    is_match_record: bool,
    match_to: Option<u32>,
    score: Option<&str>,
) -> Result<Option<MatchContext>> {
    let from_record = is_match_record.then(|| MatchContext::of(m));
    let score = match score {
        None => None,
        Some(text) => Some(
            text.split_once('-')
                .and_then(|(l, d)| {
                    Some((l.trim().parse::<u32>().ok()?, d.trim().parse::<u32>().ok()?))
                })
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "invalid --score '{text}': use L-D, e.g. 3-5 (light's points, then dark's)"
                    )
                })?,
        ),
    };
    let ctx = match (match_to, score, from_record) {
        (None, None, ctx) => ctx,
        (None, Some(_), None) => bail!("--score needs --match-to"),
        (to, score, ctx) => {
            let to = to.or(ctx.map(|c| c.to)).unwrap_or(7);
            if !(1..=99).contains(&to) {
                bail!("--match-to must be 1 to 99");
            }
            Some(MatchContext {
                to,
                score: score.or(ctx.map(|c| c.score)).unwrap_or((0, 0)),
                draw: ctx.map_or(DrawRule::Replay, |c| c.draw),
            })
        }
    };
    if let Some(c) = ctx {
        if c.score.0 >= c.to || c.score.1 >= c.to {
            bail!(
                "the score {}-{} has already reached the match target {}",
                c.score.0,
                c.score.1,
                c.to
            );
        }
    }
    Ok(ctx)
}

/// Reads a game or match record and the match it is played in (from the
/// record's header, or `--match-to`/`--score`), for `analyze` and `rollout`.
///
/// # Errors
/// A bad record, or a bad match context ([`match_context`]).
pub fn load_in_context(
    record: &str,
    match_to: Option<u32>,
    score: Option<&str>,
) -> Result<(Match, Option<MatchContext>)> {
    let m = super::game::load_record(record)?;
    let is_match = record.trim_start().starts_with("urgammon");
    let ctx = match_context(&m, is_match, match_to, score)?;
    Ok((m, ctx))
}

/// `agon urgammon rollout`: plays the position out `games` times with level
/// `level` on both sides, with a progress bar.
pub fn rollout(
    state: &State,
    games: usize,
    level: agon_ai::Level,
    ctx: Option<MatchContext>,
    threads: usize,
    seed: u64,
) -> Result<RolloutJson> {
    let progress = Progress::new(games as u64, "games played out");
    let r =
        agon_ai::urgammon::report::rollout_json(state, games, level, ctx, threads, seed, &|done| {
            progress.set(done as u64, "")
        });
    progress.finish();
    r.map_err(anyhow::Error::msg)
}

/// Per game, a given player's chance to win by 1, 2, 3 or 4 points, and of a
/// draw.
#[derive(Serialize)]
pub struct GameRates {
    /// Wins by 1 point.
    pub win1: f64,
    /// Wins by 2.
    pub win2: f64,
    /// Wins by 3.
    pub win3: f64,
    /// Wins by 4.
    pub win4: f64,
    /// Draws.
    pub draw: f64,
}

/// `agon urgammon met --json`.
#[derive(Serialize)]
pub struct MetJson {
    /// The match length.
    pub to: u32,
    /// What a drawn game does.
    pub draw: &'static str,
    /// The per-game rates the table comes from.
    pub game_rates: GameRates,
    /// `table[a-1][b-1]`: the chance to win needing a against b.
    pub table: Vec<Vec<f64>>,
    /// How to read the table.
    pub note: &'static str,
}

/// `agon urgammon met`: the match equity table for matches to `to` points,
/// as text (rows: points the player needs; columns: points the opponent needs)
/// or JSON.
pub fn met(to: u32, draw: DrawRule, as_json: bool) -> Result<String> {
    if !(1..=99).contains(&to) {
        bail!("--to must be 1 to 99");
    }
    let t = MatchTable::trained(to, draw);
    let (rates, d) = t.rates();
    if as_json {
        let table: Vec<Vec<f64>> = (1..=to as i32)
            .map(|a| (1..=to as i32).map(|b| r4(t.mwc(a, b))).collect())
            .collect();
        return Ok(serde_json::to_string(&MetJson {
            to,
            draw: draw.name(),
            game_rates: GameRates {
                win1: r4(rates[0]),
                win2: r4(rates[1]),
                win3: r4(rates[2]),
                win4: r4(rates[3]),
                draw: r4(d),
            },
            table,
            note: "table[a-1][b-1]: the chance to win the match needing a points against an opponent needing b",
        })?);
    }
    let mut s = format!(
        "Match equity table, match to {to} (draw={}): the chance to win the match.\n\
         Rows: points you need; columns: points your opponent needs.\n\
         Per game, from the network's own play: a given player wins by 1/2/3/4 points \
         with {:.1}%/{:.1}%/{:.1}%/{:.1}%; draws {:.1}%.\n\n     ",
        draw,
        100.0 * rates[0],
        100.0 * rates[1],
        100.0 * rates[2],
        100.0 * rates[3],
        100.0 * d
    );
    for b in 1..=to {
        s.push_str(&format!("{b:>7}"));
    }
    s.push('\n');
    for a in 1..=to as i32 {
        s.push_str(&format!("{a:>4} "));
        for b in 1..=to as i32 {
            s.push_str(&format!("{:>6.1}%", 100.0 * t.mwc(a, b)));
        }
        s.push('\n');
    }
    Ok(s)
}

/// One calibration bin: predictions in `[lo, hi)`, their mean, and the mean
/// rollout result of the same positions.
#[derive(Serialize)]
pub struct Bin {
    /// The bin's lower edge.
    pub lo: f64,
    /// Its upper edge.
    pub hi: f64,
    /// Positions inside.
    pub positions: usize,
    /// Their mean prediction.
    pub predicted: f64,
    /// Their mean rollout result.
    pub observed: f64,
}

/// The calibration bins of (prediction, observation) pairs.
fn calibration_bins(pairs: &[(f64, f64)], bins: usize) -> Vec<Bin> {
    (0..bins)
        .filter_map(|b| {
            let lo = b as f64 / bins as f64;
            let hi = (b + 1) as f64 / bins as f64;
            let inside: Vec<&(f64, f64)> = pairs
                .iter()
                .filter(|(p, _)| *p >= lo && (*p < hi || (b + 1 == bins && *p <= hi)))
                .collect();
            if inside.is_empty() {
                return None;
            }
            let n = inside.len() as f64;
            Some(Bin {
                lo,
                hi,
                positions: inside.len(),
                predicted: round4(inside.iter().map(|p| p.0).sum::<f64>() / n),
                observed: round4(inside.iter().map(|p| p.1).sum::<f64>() / n),
            })
        })
        .collect()
}

/// Accuracy against rollouts: mean absolute error of the win estimate and of
/// the equity, the mean signed error, and the calibration bins.
#[derive(Serialize)]
pub struct Accuracy {
    /// Mean absolute error of the win estimate.
    pub win_mae: f64,
    /// Mean signed error of the win estimate.
    pub win_bias: f64,
    /// Mean absolute error of the equity.
    pub equity_mae: f64,
    /// The calibration bins.
    pub calibration: Vec<Bin>,
}

/// The accuracy of (prediction, rollout) pairs.
fn accuracy(pairs_win: &[(f64, f64)], pairs_eq: &[(f64, f64)]) -> Accuracy {
    let n = pairs_win.len().max(1) as f64;
    let mae = |v: &[(f64, f64)]| v.iter().map(|(p, o)| (p - o).abs()).sum::<f64>() / n;
    let bias = pairs_win.iter().map(|(p, o)| p - o).sum::<f64>() / n;
    Accuracy {
        win_mae: round4(mae(pairs_win)),
        win_bias: round4(bias),
        equity_mae: round4(mae(pairs_eq)),
        calibration: calibration_bins(pairs_win, 10),
    }
}

/// `agon urgammon calibrate`'s report.
#[derive(Serialize)]
pub struct CalibrationJson {
    /// Positions rolled out.
    pub positions: usize,
    /// Rollouts of each.
    pub rollouts_per_position: usize,
    /// Who played the rollouts.
    pub rollout_player: &'static str,
    /// The seed.
    pub seed: u64,
    /// The network's accuracy.
    pub network: Accuracy,
    /// The heuristic's accuracy.
    pub heuristic: Accuracy,
    /// The rollouts' own expected error of the win share.
    pub rollout_noise_win_mae: f64,
    /// Wall time.
    pub seconds: f64,
}

/// `agon urgammon calibrate`: how well the network and the hand-written
/// heuristic predict rollouts, on positions from self-play games that training
/// never saw (their own seed). Each position is rolled out `rollouts` times by
/// level 8 on both sides; a progress bar counts the positions.
pub fn calibrate(
    positions: usize,
    rollouts: usize,
    threads: usize,
    seed: u64,
) -> Result<CalibrationJson> {
    use agon_ai::urgammon::calibrate::{self, Sample};
    use agon_ai::urgammon::level_spec;
    if positions == 0 || rollouts == 0 {
        bail!("--positions and --rollouts must be at least 1");
    }
    let net = Net::trained();
    let spec = level_spec(agon_ai::Level::new(8));
    let picked = calibrate::held_out_positions(positions, (spec, net), seed);
    let start = std::time::Instant::now();
    let progress = Progress::new(picked.len() as u64, "positions rolled out");
    let rows = calibrate::calibrate(&picked, rollouts, (spec, net), threads, seed, &|done| {
        progress.set(done as u64, "")
    });
    progress.finish();
    let pairs = |f: fn(&Sample) -> (f64, f64)| rows.iter().map(f).collect::<Vec<_>>();
    let noise = rows
        .iter()
        .map(|r| {
            (2.0 / std::f64::consts::PI).sqrt()
                * (r.rollout.0 * (1.0 - r.rollout.0) / rollouts as f64).sqrt()
        })
        .sum::<f64>()
        / rows.len().max(1) as f64;
    Ok(CalibrationJson {
        positions: rows.len(),
        rollouts_per_position: rollouts,
        rollout_player: "level 8 (the network, 0 plies) on both sides",
        seed,
        network: accuracy(
            &pairs(|r| (r.net.0, r.rollout.0)),
            &pairs(|r| (r.net.1, r.rollout.1)),
        ),
        heuristic: accuracy(
            &pairs(|r| (r.heuristic.0, r.rollout.0)),
            &pairs(|r| (r.heuristic.1, r.rollout.1)),
        ),
        rollout_noise_win_mae: round4(noise),
        seconds: start.elapsed().as_secs_f64().round(),
    })
}
