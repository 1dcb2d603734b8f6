//! The JSON reports of Urgammon analysis that the CLI and the web app share:
//! a decision's options with their outcome split, and a rollout's result.

use super::eval::{Outcomes, OUTCOME_NAMES};
use super::{analyze, Brain, MatchContext, Payoff};
use crate::stats::round4;
use serde::Serialize;
use std::collections::BTreeMap;
use urgammon::{Side, State};

/// `x` (a probability or an equity) to four decimals.
pub fn r4(x: f32) -> f64 {
    round4(f64::from(x))
}

/// Outcome probabilities: `win`, `loss`, `equity`, and each of the nine
/// outcomes by name.
#[derive(Serialize)]
pub struct OutcomesJson {
    /// The expected points.
    pub equity: f64,
    /// The chance to win.
    pub win: f64,
    /// The chance to lose.
    pub loss: f64,
    /// Each outcome's chance, by name.
    #[serde(flatten)]
    pub outcomes: BTreeMap<&'static str, f64>,
}

impl OutcomesJson {
    /// The report of outcome probabilities.
    pub fn of(o: &Outcomes) -> OutcomesJson {
        OutcomesJson {
            equity: r4(o.equity()),
            win: r4(o.win()),
            loss: r4(o.loss()),
            outcomes: OUTCOME_NAMES.iter().copied().zip(o.0.map(r4)).collect(),
        }
    }
}

/// Light's and dark's points.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    /// Light's points.
    pub light: u32,
    /// Dark's points.
    pub dark: u32,
}

/// A game's result.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResultJson {
    /// `light` or `dark` (none for a draw).
    pub winner: Option<&'static str>,
    /// The points.
    pub points: u8,
    /// `plain`, `streets`, `waiting`, `babylon` or `draw`.
    pub kind: &'static str,
}

/// A match context: `to`, `score` and `draw`.
#[derive(Serialize)]
pub struct ContextJson {
    /// Points to win the match.
    pub to: u32,
    /// The score.
    pub score: Score,
    /// What a drawn game does.
    pub draw: &'static str,
}

impl ContextJson {
    /// The report of a match context.
    pub fn of(c: &MatchContext) -> ContextJson {
        ContextJson {
            to: c.to,
            score: Score {
                light: c.score.0,
                dark: c.score.1,
            },
            draw: c.draw.name(),
        }
    }
}

/// One option of a decision, from the side to act.
#[derive(Serialize)]
pub struct OptionJson {
    /// The move's notation, or `verdict`.
    pub option: String,
    /// Its expected points.
    pub equity: f64,
    /// Its chance to win the game.
    pub win: f64,
    /// Its outcome probabilities.
    pub outcomes: OutcomesJson,
    /// Its chance to win the match (in a match only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mwc: Option<f64>,
}

impl OptionJson {
    /// The report of one option for `side` (its match-winning chance when
    /// `payoff` is a match's).
    pub fn of(c: &super::search::Choice, side: Side, payoff: &Payoff) -> OptionJson {
        let seen = c.outcomes.seen_by(side);
        OptionJson {
            option: c.decision.notation(side),
            equity: r4(seen.equity()),
            win: r4(seen.win()),
            outcomes: OutcomesJson::of(&seen),
            mwc: payoff
                .is_match()
                .then(|| r4(payoff.value(&c.outcomes, side))),
        }
    }
}

/// `agon urgammon analyze`'s report.
#[derive(Serialize)]
pub struct AnalysisJson {
    /// The turn's phase.
    pub phase: &'static str,
    /// The side to act, if any.
    pub to_act: Option<&'static str>,
    /// The side every number is seen from.
    pub perspective: &'static str,
    /// The chance roll, if rolled.
    pub chance: Option<u8>,
    /// The move's value, if known.
    pub value: Option<u8>,
    /// The engine's level.
    pub level: u8,
    /// `network` or `heuristic`.
    pub evaluator: &'static str,
    /// Search depth in plies.
    pub plies: u32,
    /// Whether the evaluation blends network and heuristic.
    pub blended: bool,
    /// `match` (match-winning chance) or `points`.
    pub objective: &'static str,
    /// The match context, if any.
    #[serde(rename = "match")]
    pub match_: Option<ContextJson>,
    /// True when every value is exact (every line played out to the game's
    /// end or to the endings' tables), not the engine's estimate.
    pub exact: bool,
    /// The best option's name.
    pub best: Option<String>,
    /// Every option, best first.
    pub options: Vec<OptionJson>,
    /// The position's expected points.
    pub equity: f64,
    /// Its chance to win the game.
    pub win: f64,
    /// Its outcome probabilities.
    pub outcomes: OutcomesJson,
    /// Its chance to win the match (in a match only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mwc: Option<f64>,
    /// The game's result, once over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultJson>,
}

/// `agon urgammon analyze`: the decision at `state` (or the position's
/// evaluation when no decision is due), from the side to act.
pub fn analysis_json(
    state: &State,
    level: crate::Level,
    ctx: Option<MatchContext>,
) -> AnalysisJson {
    let payoff = ctx.map_or(Payoff::MONEY, |c| c.payoff());
    let a = analyze(state, level, payoff);
    let side = state.to_act().unwrap_or(Side::Light);
    let seen = a.position.seen_by(side);
    let options: Vec<OptionJson> = a
        .options
        .iter()
        .map(|c| OptionJson::of(c, side, &payoff))
        .collect();
    AnalysisJson {
        phase: state.phase().name(),
        to_act: state.to_act().map(Side::name),
        perspective: side.name(),
        chance: state.chance(),
        value: state.value(),
        level: level.get(),
        evaluator: match a.brain {
            Brain::Net => "network",
            _ => "heuristic",
        },
        plies: a.plies,
        blended: a.blended,
        objective: if ctx.is_some() { "match" } else { "points" },
        match_: ctx.as_ref().map(ContextJson::of),
        exact: a.exact,
        best: options.first().map(|o| o.option.clone()),
        options,
        equity: r4(seen.equity()),
        win: r4(seen.win()),
        outcomes: OutcomesJson::of(&seen),
        mwc: ctx.map(|_| r4(payoff.value(&a.position, side))),
        result: state.result().map(|r| ResultJson {
            winner: r.winner.map(Side::name),
            points: r.points,
            kind: r.kind.name(),
        }),
    }
}

/// `agon urgammon rollout`'s report, from the side to act.
#[derive(Serialize)]
pub struct RolloutJson {
    /// The turn's phase.
    pub phase: &'static str,
    /// The side every number is seen from.
    pub perspective: &'static str,
    /// Games played out.
    pub games: usize,
    /// The level on both sides.
    pub level: u8,
    /// The match context, if any.
    #[serde(rename = "match")]
    pub match_: Option<ContextJson>,
    /// The mean points.
    pub mean_points: f64,
    /// Its 95% interval.
    pub mean_points_95: [f64; 2],
    /// The share of wins.
    pub win: f64,
    /// Its 95% interval.
    pub win_95: [f64; 2],
    /// Each outcome's share, by name.
    pub outcomes: BTreeMap<&'static str, f64>,
    /// Wall time.
    pub seconds: f64,
}

/// A rollout: plays the position out `games` times with level `level` on
/// both sides and reports, from the side to act, the mean points,
/// the win rate and every outcome's share, with 95% intervals.
///
/// # Errors
/// The game is over, or `games` is 0.
pub fn rollout_json(
    state: &State,
    games: usize,
    level: crate::Level,
    ctx: Option<MatchContext>,
    threads: usize,
    seed: u64,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<RolloutJson, String> {
    if state.phase() == urgammon::Phase::Over {
        return Err("the game is over: nothing to roll out".into());
    }
    if games == 0 {
        return Err("--games must be at least 1".into());
    }
    let payoff = ctx.map_or(Payoff::MONEY, |c| c.payoff());
    let side = state.to_act().unwrap_or(Side::Light);
    let spec = super::level_spec(level);
    let start = std::time::Instant::now();
    let counts = super::rollout(
        state,
        games,
        (spec, super::Net::trained()),
        payoff,
        threads,
        seed,
        progress,
    );
    let n = counts.iter().sum::<u64>() as usize;
    let n_f = n.max(1) as f64;
    let points = super::eval::POINTS;
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
    let (wlo, whi) = crate::share_95(p, n_f);
    Ok(RolloutJson {
        phase: state.phase().name(),
        perspective: side.name(),
        games: n,
        level: level.get(),
        match_: ctx.as_ref().map(ContextJson::of),
        mean_points: round4(mean),
        mean_points_95: [round4(mean - half), round4(mean + half)],
        win: round4(p),
        win_95: [round4(wlo), round4(whi)],
        outcomes: OUTCOME_NAMES
            .iter()
            .copied()
            .zip(counts.map(|c| round4(c as f64 / n_f)))
            .collect(),
        seconds: (start.elapsed().as_secs_f64() * 10.0).round() / 10.0,
    })
}
