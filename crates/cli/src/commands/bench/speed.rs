//! `agon bench …`: the speed goals, measured on one core. Each benchmark runs
//! several times and reports the median, so one noisy run does not decide.

use agon_ai::Rng;
use anyhow::Result;
use serde::Serialize;
use std::time::Instant;

/// `agon bench ringo`'s report.
#[derive(Serialize)]
pub struct RingoBench {
    /// Always `ringo`.
    pub benchmark: &'static str,
    /// The rules.
    pub rules: String,
    /// Random games per second (the median run).
    pub random_games_per_second: f64,
    /// And the best run.
    pub random_games_per_second_best: f64,
    /// Mean game length.
    pub mean_plies_per_game: f64,
    /// The perft depth.
    pub perft_depth: u32,
    /// Its leaf count.
    pub perft_nodes: u64,
    /// Perft leaves per second (the median run).
    pub perft_nodes_per_second: f64,
    /// And the best run.
    pub perft_nodes_per_second_best: f64,
    /// Runs.
    pub runs: usize,
    /// Random games in each run.
    pub games_per_run: usize,
}

/// `agon bench urgammon`'s report.
#[derive(Serialize)]
pub struct UrgammonBench {
    /// Always `urgammon`.
    pub benchmark: &'static str,
    /// Random games per second (the median run).
    pub random_games_per_second: f64,
    /// And the best run.
    pub random_games_per_second_best: f64,
    /// Mean record length in tokens.
    pub mean_tokens_per_game: f64,
    /// Runs.
    pub runs: usize,
    /// Random games in each run.
    pub games_per_run: usize,
}

/// `agon bench ringo-search`'s report.
#[derive(Serialize)]
pub struct RingoSearchBench {
    /// Always `ringo-search`.
    pub benchmark: &'static str,
    /// Positions searched.
    pub positions: usize,
    /// The depth.
    pub depth: u32,
    /// Nodes in all (deterministic).
    pub nodes: u64,
    /// Nodes per second.
    pub nodes_per_second: f64,
    /// Milliseconds in all.
    pub ms: f64,
}

/// `agon bench urgammon-eval`'s report.
#[derive(Serialize)]
pub struct UrgammonEvalBench {
    /// Always `urgammon-eval`.
    pub benchmark: &'static str,
    /// Positions evaluated in each run.
    pub positions: usize,
    /// Network evaluations per second (the median run).
    pub evaluations_per_second: f64,
    /// And the best run.
    pub evaluations_per_second_best: f64,
    /// Level-10 decisions timed.
    pub level10_decisions: usize,
    /// Their mean time.
    pub level10_decision_ms_mean: f64,
    /// Their median time.
    pub level10_decision_ms_median: f64,
    /// The slowest.
    pub level10_decision_ms_max: f64,
    /// Runs.
    pub runs: usize,
    /// A sum of the results, so the work cannot be optimised away.
    pub checksum: f64,
}

/// Median of a list of rates.
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        0.0
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The best of a list of rates, rounded.
fn best(rates: &[f64]) -> f64 {
    rates.iter().copied().fold(0.0, f64::max).round()
}

/// Plays one random Ringo game to its end; returns its length in plies.
pub fn random_ringo_game(rules: ringo::Rules, rng: &mut Rng) -> usize {
    ringo::playout(&ringo::Position::start(&rules), &rules, |n| rng.below(n)).plies
}

/// `agon bench ringo`: random games per second from the start, and perft leaf
/// nodes per second, each the median of `runs` runs.
pub fn ringo(rules: &str, games: usize, runs: usize, depth: u32, seed: u64) -> Result<RingoBench> {
    let rules: ringo::Rules = rules.parse()?;
    let mut rng = Rng::new(seed);
    let mut game_rates = vec![];
    let mut plies = 0usize;
    for run in 0..runs {
        let start = Instant::now();
        for _ in 0..games {
            plies += random_ringo_game(rules, &mut rng);
        }
        let rate = games as f64 / start.elapsed().as_secs_f64();
        eprintln!("run {}/{runs}: {rate:.0} random games/s", run + 1);
        game_rates.push(rate);
    }
    let game = ringo::Game::new(rules);
    let mut perft_rates = vec![];
    let mut nodes = 0;
    for run in 0..runs {
        let start = Instant::now();
        nodes = ringo::perft(&game, depth);
        let rate = nodes as f64 / start.elapsed().as_secs_f64();
        eprintln!(
            "run {}/{runs}: perft({depth}) {nodes} nodes, {:.1} M nodes/s",
            run + 1,
            rate / 1e6
        );
        perft_rates.push(rate);
    }
    Ok(RingoBench {
        benchmark: "ringo",
        rules: rules.to_string(),
        random_games_per_second: median(game_rates.clone()).round(),
        random_games_per_second_best: best(&game_rates),
        mean_plies_per_game: plies as f64 / (games * runs) as f64,
        perft_depth: depth,
        perft_nodes: nodes,
        perft_nodes_per_second: median(perft_rates.clone()).round(),
        perft_nodes_per_second_best: best(&perft_rates),
        runs,
        games_per_run: games,
    })
}

/// Plays one random Urgammon game: fair dice, random legal moves, and the verdict
/// die taken 30% of the time when it is optional. Returns the tokens played.
pub fn random_urgammon_game(rng: &mut Rng) -> usize {
    use urgammon::{Phase, State, Token};
    // Tokens chosen from the legal ones always apply.
    urgammon::playout(&State::new(), |state| {
        Some(match state.phase() {
            Phase::Over => return None,
            Phase::Opening => Token::Start(rng.chance(), rng.chance()),
            Phase::Roll => Token::Roll(rng.chance()),
            Phase::Verdict => Token::Verdict(rng.verdict()),
            Phase::Decide if rng.below(10) < 3 => Token::Verdict(rng.verdict()),
            Phase::Decide | Phase::Move => {
                let moves = state.moves();
                Token::Move(moves[rng.below(moves.len())])
            }
        })
    })
    .1
}

/// `agon bench urgammon`: random games per second, the median of `runs` runs.
pub fn urgammon(games: usize, runs: usize, seed: u64) -> Result<UrgammonBench> {
    let mut rng = Rng::new(seed);
    let mut rates = vec![];
    let mut tokens = 0usize;
    for run in 0..runs {
        let start = Instant::now();
        for _ in 0..games {
            tokens += random_urgammon_game(&mut rng);
        }
        let rate = games as f64 / start.elapsed().as_secs_f64();
        eprintln!("run {}/{runs}: {rate:.0} random games/s", run + 1);
        rates.push(rate);
    }
    Ok(UrgammonBench {
        benchmark: "urgammon",
        random_games_per_second: median(rates.clone()).round(),
        random_games_per_second_best: best(&rates),
        mean_tokens_per_game: tokens as f64 / (games * runs) as f64,
        runs,
        games_per_run: games,
    })
}

/// `agon bench ringo-search`: the engine's fixed positions searched to a
/// fixed depth with fresh tables ([`agon_ai::ringo::bench`]); the node total
/// is deterministic, so a change in it shows a functional change to the search.
pub fn ringo_search(depth: u32) -> Result<RingoSearchBench> {
    let runs = agon_ai::ringo::bench::run(depth).map_err(anyhow::Error::msg)?;
    for r in &runs {
        eprintln!(
            "{}: depth {depth}, {} nodes, best {:?}",
            r.rules, r.nodes, r.best
        );
    }
    let nodes: u64 = runs.iter().map(|r| r.nodes).sum();
    let secs: f64 = runs.iter().map(|r| r.elapsed.as_secs_f64()).sum();
    Ok(RingoSearchBench {
        benchmark: "ringo-search",
        positions: runs.len(),
        depth,
        nodes,
        nodes_per_second: (nodes as f64 / secs).round(),
        ms: (secs * 1000.0).round(),
    })
}

/// Positions from self-play of level 8 (seeded): the roll-phase positions for
/// evaluation, and the decisions with a real choice for decision timing.
fn urgammon_positions(games: usize, seed: u64) -> (Vec<urgammon::State>, Vec<urgammon::State>) {
    use agon_ai::urgammon::tournament::next_token;
    use agon_ai::urgammon::{level_spec, Payoff};
    let net = agon_ai::urgammon::eval::Net::trained();
    let spec = level_spec(agon_ai::Level::new(8));
    let (mut rolls, mut decisions) = (vec![], vec![]);
    for g in 0..games {
        let mut dice = agon_ai::Rng::new(seed.wrapping_add(g as u64));
        let mut rng = agon_ai::Rng::new(seed ^ 0x5555);
        urgammon::playout(&urgammon::State::new(), |s| {
            let t = next_token(s, [(spec, net); 2], Payoff::MONEY, &mut dice, &mut rng);
            if t.is_some() {
                match s.phase() {
                    urgammon::Phase::Roll => rolls.push(*s),
                    urgammon::Phase::Decide => decisions.push(*s),
                    urgammon::Phase::Move if s.moves().len() > 1 => decisions.push(*s),
                    _ => {}
                }
            }
            t
        });
    }
    (rolls, decisions)
}

/// `agon bench urgammon-eval`: network evaluations per second over fixed
/// self-play positions (the median of `runs` runs), and the time of a level-10
/// decision (2 plies) over fixed decision positions.
pub fn urgammon_eval(runs: usize, decisions: usize) -> Result<UrgammonEvalBench> {
    use agon_ai::urgammon::eval::{Evaluator, Net};
    let net = Net::trained();
    let (rolls, mut choices) = urgammon_positions(40, 7);
    let mut rates = vec![];
    let mut checksum = 0.0f64;
    for run in 0..runs {
        let start = Instant::now();
        let reps = 50;
        for _ in 0..reps {
            for s in &rolls {
                checksum += f64::from(net.evaluate(s).0[0]);
            }
        }
        let rate = (reps * rolls.len()) as f64 / start.elapsed().as_secs_f64();
        eprintln!("run {}/{runs}: {:.2} M evaluations/s", run + 1, rate / 1e6);
        rates.push(rate);
    }
    // Spread the timed decisions over the whole game.
    let step = (choices.len() / decisions.max(1)).max(1);
    choices = choices.into_iter().step_by(step).take(decisions).collect();
    let mut times = vec![];
    let mut rng = agon_ai::Rng::new(1);
    let progress = crate::progress::Progress::new(choices.len() as u64, "level-10 decisions");
    for (i, s) in choices.iter().enumerate() {
        let start = Instant::now();
        let d = agon_ai::urgammon::decide(
            s,
            agon_ai::urgammon::level_spec(agon_ai::Level::MAX),
            agon_ai::urgammon::Payoff::MONEY,
            &mut rng,
        );
        times.push(start.elapsed().as_secs_f64() * 1000.0);
        checksum += f64::from(u8::from(d.is_some()));
        progress.set((i + 1) as u64, "");
    }
    progress.finish();
    let max = times.iter().copied().fold(0.0, f64::max);
    let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
    let ms = |x: f64| (x * 100.0).round() / 100.0;
    Ok(UrgammonEvalBench {
        benchmark: "urgammon-eval",
        positions: rolls.len(),
        evaluations_per_second: median(rates.clone()).round(),
        evaluations_per_second_best: best(&rates),
        level10_decisions: times.len(),
        level10_decision_ms_mean: ms(mean),
        level10_decision_ms_median: ms(median(times.clone())),
        level10_decision_ms_max: ms(max),
        runs,
        checksum: (checksum * 1000.0).round() / 1000.0,
    })
}
