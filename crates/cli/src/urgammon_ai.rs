//! `agon urgammon analyze|rollout|met|calibrate` and `agon tournament
//! urgammon`: the Urgammon engine's commands (training is in
//! `urgammon_train_cmd`).

use crate::progress::Progress;
use agon_ai::urgammon::eval::{Net, Outcomes, OUTCOME_NAMES};
use agon_ai::urgammon::player::Decision;
use agon_ai::urgammon::search::{analyze, Brain, MatchTable, Payoff};
use agon_ai::urgammon::tournament::{self as tour, Spec, Tally};
pub use agon_ai::urgammon::MatchContext;
use anyhow::{bail, Context, Result};
use serde_json::{json, Value};
use urgammon::{DrawRule, Match, Side, State};

/// Outcome probabilities as JSON: `win`, `loss`, `draw`, `equity`, and each of
/// the nine outcomes.
pub fn outcomes_json(o: &Outcomes) -> Value {
    let mut v = serde_json::Map::new();
    let r = |x: f32| (f64::from(x) * 10_000.0).round() / 10_000.0;
    v.insert("equity".into(), json!(r(o.equity())));
    v.insert("win".into(), json!(r(o.win())));
    v.insert("loss".into(), json!(r(o.loss())));
    for (name, p) in OUTCOME_NAMES.iter().zip(o.0) {
        v.insert((*name).into(), json!(r(p)));
    }
    Value::Object(v)
}

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

/// `agon tournament urgammon`.
pub fn tournament(args: &TournamentArgs) -> Result<Value> {
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
    let a: Spec = crate::tournament::parse_player(a, "--a")?;
    let b: Spec = crate::tournament::parse_player(b, "--b")?;
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
    let r4 = |x: f64| (x * 10_000.0).round() / 10_000.0;
    let unit = if match_to.is_some() {
        "matches"
    } else {
        "games"
    };
    Ok(json!({
        "a": a.to_string(),
        "b": b.to_string(),
        "net_a": net_a.map(|p| p.display().to_string()),
        "net_b": net_b.map(|p| p.display().to_string()),
        "match_to": match_to,
        unit: t.played,
        "games_played": t.games,
        "wins": t.wins,
        "draws": t.draws,
        "losses": t.losses,
        "win_rate": r4(p),
        "win_rate_95": [r4(lo), r4(hi)],
        "points_per_game": r4(if match_to.is_some() { t.points as f64 / t.games.max(1) as f64 } else { pts }),
        "points_per_game_95": if match_to.is_some() { Value::Null } else { json!([r4(plo), r4(phi)]) },
        "a_as_light": {"played": t.a_light.1, "wins": t.a_light.0},
        "seconds": start.elapsed().as_secs_f64().round(),
    }))
}

/// A match context as JSON: `to`, `score` and `draw`.
fn context_json(c: &MatchContext) -> Value {
    json!({
        "to": c.to,
        "score": {"light": c.score.0, "dark": c.score.1},
        "draw": c.draw.name(),
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
    let m = crate::urgammon_cmd::load_record(record)?;
    let is_match = record.trim_start().starts_with("urgammon");
    let ctx = match_context(&m, is_match, match_to, score)?;
    Ok((m, ctx))
}

fn r4(x: f32) -> f64 {
    (f64::from(x) * 10_000.0).round() / 10_000.0
}

/// `agon urgammon analyze`: one JSON object for the decision at `state` (or
/// the position's evaluation when no decision is due), from the side to act.
pub fn analysis_json(state: &State, level: agon_ai::Level, ctx: Option<MatchContext>) -> Value {
    let payoff = ctx.map_or(Payoff::MONEY, |c| c.payoff());
    let a = analyze(state, level, payoff);
    let side = state.to_act().unwrap_or(Side::Light);
    let option_json = |c: &agon_ai::urgammon::search::Choice| {
        let seen = c.outcomes.seen_by(side);
        let mut v = json!({
            "option": match c.decision {
                Decision::Move(m) => m.notation(side),
                Decision::Verdict => "verdict".into(),
            },
            "equity": r4(seen.equity()),
            "win": r4(seen.win()),
            "outcomes": outcomes_json(&seen),
        });
        if ctx.is_some() {
            v["mwc"] = json!(r4(payoff.value(&c.outcomes, side)));
        }
        v
    };
    let seen = a.position.seen_by(side);
    let mut v = json!({
        "phase": state.phase().name(),
        "to_act": state.to_act().map(Side::name),
        "perspective": side.name(),
        "chance": state.chance(),
        "value": state.value(),
        "level": level.get(),
        "evaluator": match a.brain { Brain::Net => "network", _ => "heuristic" },
        "plies": a.plies,
        "blended": a.blended,
        "objective": if ctx.is_some() { "match" } else { "points" },
        "match": ctx.as_ref().map(context_json),
        "best": a.options.first().map(|c| option_json(c)["option"].clone()),
        "options": a.options.iter().map(option_json).collect::<Vec<_>>(),
        "equity": r4(seen.equity()),
        "win": r4(seen.win()),
        "outcomes": outcomes_json(&seen),
    });
    if ctx.is_some() {
        v["mwc"] = json!(r4(payoff.value(&a.position, side)));
    }
    if let Some(r) = state.result() {
        v["result"] = json!({
            "winner": r.winner.map(Side::name),
            "points": r.points,
            "kind": r.kind.name(),
        });
    }
    v
}

/// `agon urgammon rollout`: plays the position out `games` times with level
/// `level` on both sides and reports, from the side to act, the mean points,
/// the win rate and every outcome's share, with 95% intervals.
pub fn rollout(
    state: &State,
    games: usize,
    level: agon_ai::Level,
    ctx: Option<MatchContext>,
    threads: usize,
    seed: u64,
) -> Result<Value> {
    if state.phase() == urgammon::Phase::Over {
        bail!("the game is over: nothing to roll out");
    }
    if games == 0 {
        bail!("--games must be at least 1");
    }
    let payoff = ctx.map_or(Payoff::MONEY, |c| c.payoff());
    let side = state.to_act().unwrap_or(Side::Light);
    let spec = agon_ai::urgammon::search::level_spec(level);
    let start = std::time::Instant::now();
    let progress = Progress::new(games as u64, "games played out");
    let counts = agon_ai::urgammon::rollout(
        state,
        games,
        (spec, Net::trained()),
        payoff,
        threads,
        seed,
        &|done| progress.set(done as u64, ""),
    );
    progress.finish();
    let n = counts.iter().sum::<u64>() as usize;
    let n_f = n.max(1) as f64;
    let points = agon_ai::urgammon::eval::POINTS;
    let mean = counts
        .iter()
        .zip(points)
        .map(|(&c, p)| c as f64 * f64::from(p))
        .sum::<f64>()
        / n_f;
    let sq = counts
        .iter()
        .zip(points)
        .map(|(&c, p)| c as f64 * f64::from(p * p))
        .sum::<f64>()
        / n_f;
    let half = 1.96 * ((sq - mean * mean).max(0.0) / n_f).sqrt();
    let wins: u64 = counts[..4].iter().sum();
    let p = wins as f64 / n_f;
    let (wlo, whi) = agon_ai::share_95(p, n_f);
    let r = |x: f64| (x * 10_000.0).round() / 10_000.0;
    let mut dist = serde_json::Map::new();
    for (name, c) in OUTCOME_NAMES.iter().zip(counts) {
        dist.insert((*name).into(), json!(r(c as f64 / n_f)));
    }
    Ok(json!({
        "phase": state.phase().name(),
        "perspective": side.name(),
        "games": n,
        "level": level.get(),
        "match": ctx.as_ref().map(context_json),
        "mean_points": r(mean),
        "mean_points_95": [r(mean - half), r(mean + half)],
        "win": r(p),
        "win_95": [r(wlo), r(whi)],
        "outcomes": dist,
        "seconds": (start.elapsed().as_secs_f64() * 10.0).round() / 10.0,
    }))
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
        return Ok(json!({
            "to": to,
            "draw": draw.name(),
            "game_rates": {
                "win1": r4(rates[0]), "win2": r4(rates[1]), "win3": r4(rates[2]), "win4": r4(rates[3]),
                "draw": r4(d),
            },
            "table": table,
            "note": "table[a-1][b-1]: the chance to win the match needing a points against an opponent needing b",
        })
        .to_string());
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
fn calibration_bins(pairs: &[(f64, f64)], bins: usize) -> Vec<Value> {
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
            let r = |x: f64| (x * 10_000.0).round() / 10_000.0;
            Some(json!({
                "lo": lo,
                "hi": hi,
                "positions": inside.len(),
                "predicted": r(inside.iter().map(|p| p.0).sum::<f64>() / n),
                "observed": r(inside.iter().map(|p| p.1).sum::<f64>() / n),
            }))
        })
        .collect()
}

/// Accuracy against rollouts: mean absolute error of the win estimate and of
/// the equity, the mean signed error, and the calibration bins.
fn accuracy(pairs_win: &[(f64, f64)], pairs_eq: &[(f64, f64)]) -> Value {
    let n = pairs_win.len().max(1) as f64;
    let mae = |v: &[(f64, f64)]| v.iter().map(|(p, o)| (p - o).abs()).sum::<f64>() / n;
    let bias = pairs_win.iter().map(|(p, o)| p - o).sum::<f64>() / n;
    let r = |x: f64| (x * 10_000.0).round() / 10_000.0;
    json!({
        "win_mae": r(mae(pairs_win)),
        "win_bias": r(bias),
        "equity_mae": r(mae(pairs_eq)),
        "calibration": calibration_bins(pairs_win, 10),
    })
}

/// `agon urgammon calibrate`: how well the network and the hand-written
/// heuristic predict rollouts, on positions from self-play games that training
/// never saw (their own seed). Each position is rolled out `rollouts` times by
/// level 8 on both sides; a progress bar counts the positions.
pub fn calibrate(positions: usize, rollouts: usize, threads: usize, seed: u64) -> Result<Value> {
    use agon_ai::urgammon::calibrate::{self, Sample};
    use agon_ai::urgammon::search::level_spec;
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
    Ok(json!({
        "positions": rows.len(),
        "rollouts_per_position": rollouts,
        "rollout_player": "level 8 (the network, 0 plies) on both sides",
        "seed": seed,
        "network": accuracy(&pairs(|r| (r.net.0, r.rollout.0)), &pairs(|r| (r.net.1, r.rollout.1))),
        "heuristic": accuracy(
            &pairs(|r| (r.heuristic.0, r.rollout.0)),
            &pairs(|r| (r.heuristic.1, r.rollout.1)),
        ),
        "rollout_noise_win_mae": (noise * 10_000.0).round() / 10_000.0,
        "seconds": start.elapsed().as_secs_f64().round(),
    }))
}
