//! Training the Urgammon network by TD(λ) self-play, as TD-Gammon did.
//!
//! The network plays both sides at 0 plies (each option's resulting position
//! evaluated by the network itself, the verdict die by expected value). Every
//! position where a side is about to roll is a training position. After the
//! game, each position's target is its **λ-return**: the network's own
//! estimate of the next training position, mixed with later ones and the final
//! result with weights (1 − λ)λⁿ. This is the forward view of TD(λ) (Sutton &
//! Barto, ch. 12); computed after the game it needs no eligibility traces,
//! which for nine outputs would cost nine times the weights. The step is a
//! gradient step on the cross-entropy between the output and that target.
//!
//! Games are seeded by (seed, game number), so a run stopped at a checkpoint
//! and resumed plays exactly the games it would have played.

use crate::urgammon::eval::{inputs, Inputs, Net, Outcomes, OUTCOMES};
use crate::urgammon::player::Decision;
use crate::urgammon::search::{Payoff, Search};
use crate::urgammon::tournament::{self, Spec};
use crate::Rng;
use urgammon::{Phase, Side, State, Token};

/// How to train.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainConfig {
    /// λ: how far back a result reaches (0 = one step, 1 = the final result).
    pub lambda: f32,
    /// The learning rate at the start.
    pub lr: f32,
    /// The learning rate falls as `lr / (1 + games / lr_decay)`.
    pub lr_decay: f32,
    /// The run's seed: game `n` is seeded by (seed, n).
    pub seed: u64,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            lambda: 0.7,
            lr: 0.01,
            lr_decay: 200_000.0,
            seed: 1,
        }
    }
}

/// One self-play game, ready to learn from.
pub struct SelfPlayGame {
    /// The positions where a side was about to roll, with that side.
    pub positions: Vec<(Inputs, Side)>,
    /// The final result, from light's point of view.
    pub result: Outcomes,
}

/// Plays one game of the network against itself at 0 plies.
pub fn self_play(net: &Net, rng: &mut Rng) -> SelfPlayGame {
    let mut state = State::new();
    let mut positions = Vec::with_capacity(128);
    let search = Search::new(net, Payoff::MONEY);
    loop {
        let token = match state.phase() {
            Phase::Over => break,
            Phase::Opening => Token::Start(rng.chance(), rng.chance()),
            Phase::Roll => {
                positions.push((inputs(&state), state.to_act().unwrap_or(Side::Light)));
                Token::Roll(rng.chance())
            }
            _ => match search.options(&state, 0).first().map(|c| c.decision) {
                Some(Decision::Move(m)) => Token::Move(m),
                Some(Decision::Verdict) => Token::Verdict(rng.verdict()),
                None => break,
            },
        };
        if state.apply(token).is_err() {
            break;
        }
    }
    SelfPlayGame {
        positions,
        result: state.result().map(Outcomes::of_result).unwrap_or_default(),
    }
}

/// The generator for game number `n` of a run.
pub fn game_rng(seed: u64, n: u64) -> Rng {
    let mut r = Rng::new(seed ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    r.next_u64();
    r
}

/// Learns from one game: λ-returns as targets, one gradient step per position.
/// Returns the mean cross-entropy before the steps.
pub fn learn(net: &mut Net, game: &SelfPlayGame, config: &TrainConfig, lr: f32) -> f32 {
    let n = game.positions.len();
    if n == 0 {
        return 0.0;
    }
    // Values of every position before this game's updates, from light's view.
    let values: Vec<Outcomes> = game
        .positions
        .iter()
        .map(|(x, side)| Outcomes(net.forward(x).out).seen_by(*side))
        .collect();
    let mut targets = vec![Outcomes::default(); n];
    let mut g = game.result;
    targets[n - 1] = g;
    for t in (0..n - 1).rev() {
        // G_t = (1 − λ) V(s_{t+1}) + λ G_{t+1}
        let mut mix = Outcomes::default();
        mix.add_scaled(&values[t + 1], 1.0 - config.lambda);
        mix.add_scaled(&g, config.lambda);
        g = mix;
        targets[t] = g;
    }
    let mut loss = 0.0;
    for ((x, side), target) in game.positions.iter().zip(&targets) {
        let t: [f32; OUTCOMES] = target.seen_by(*side).0;
        loss += net.train_step(x, &t, lr);
    }
    loss / n as f32
}

/// The learning rate after `games` games.
pub fn learning_rate(config: &TrainConfig, games: u64) -> f32 {
    config.lr / (1.0 + games as f32 / config.lr_decay)
}

/// Trains `net` on self-play games until it has played `until` games in all,
/// calling `progress(net, mean loss of the game)` after each game; it returns
/// false to stop early (the caller then writes a checkpoint).
pub fn train(
    net: &mut Net,
    until: u64,
    config: &TrainConfig,
    progress: &mut dyn FnMut(&Net, f32) -> bool,
) {
    while net.games < until {
        let mut rng = game_rng(config.seed, net.games);
        let game = self_play(net, &mut rng);
        let lr = learning_rate(config, net.games);
        let loss = learn(net, &game, config, lr);
        net.games += 1;
        if !progress(net, loss) {
            break;
        }
    }
}

/// How a training run is cut into stages: after each stage the caller gets
/// a [`Checkpoint`] (to save the weights and log it).
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Games to have played in all (a resumed network counts its earlier games).
    pub games: u64,
    /// Games between checkpoints.
    pub checkpoint_every: u64,
    /// Games of the probe matches against greedy and the heuristic player at
    /// each checkpoint (0: none).
    pub probe: usize,
}

/// What a checkpoint reports (a line of the training log, as JSON).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Checkpoint {
    /// Games the network has played in all.
    pub games: u64,
    /// The moving average of the per-game loss.
    pub loss: f64,
    /// The share of probe games won against greedy, if probed.
    pub vs_greedy: Option<f64>,
    /// The share of probe games won against the heuristic player, if probed.
    pub vs_heuristic: Option<f64>,
    /// Seconds since the run began.
    pub seconds: f64,
    /// The learning rate at this point.
    pub lr: f32,
}

/// Mixes `x` into a moving average of `n` values so far: a plain mean at
/// first, then an exponential average over about the last 500 games.
fn moving_average(avg: &mut f64, x: f64, n: u64) {
    let k = (1.0 / n.max(1) as f64).max(0.002);
    *avg += k * (x - *avg);
}

/// Trains `net` up to `plan.games` in stages of `plan.checkpoint_every`
/// games. `progress(games, mean loss)` is called every 20 games;
/// `checkpoint(net, report)` after each stage, and an error it returns (a
/// file that cannot be written) stops the run. Returns every checkpoint.
pub fn train_with_checkpoints<E>(
    net: &mut Net,
    plan: Plan,
    config: &TrainConfig,
    progress: &mut dyn FnMut(u64, f64),
    checkpoint: &mut dyn FnMut(&Net, &Checkpoint) -> Result<(), E>,
) -> Result<Vec<Checkpoint>, E> {
    let first = net.games;
    let start = std::time::Instant::now();
    let every = plan.checkpoint_every.max(1);
    let mut loss_avg = 0.0f64;
    let mut reports = vec![];
    while net.games < plan.games {
        let until = ((net.games / every + 1) * every).min(plan.games);
        train(net, until, config, &mut |net, loss| {
            moving_average(&mut loss_avg, f64::from(loss), net.games - first);
            if net.games % 20 == 0 || net.games == until {
                progress(net.games, loss_avg);
            }
            true
        });
        let probe = |b: Spec| {
            (plan.probe > 0).then(|| {
                let config = tournament::Config {
                    a: Spec::Ply(0),
                    b,
                    games: plan.probe,
                    match_to: None,
                    threads: 1,
                    seed: 12345,
                };
                tournament::run(config, [&*net, &*net], &|_| {})
                    .win_rate()
                    .0
            })
        };
        let report = Checkpoint {
            games: net.games,
            loss: loss_avg,
            vs_greedy: probe(Spec::Greedy),
            vs_heuristic: probe(Spec::Heuristic(0)),
            seconds: start.elapsed().as_secs_f64().round(),
            lr: learning_rate(config, net.games),
        };
        checkpoint(net, &report)?;
        reports.push(report);
    }
    Ok(reports)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn self_play_games_end_and_give_positions() {
        let net = Net::random(1);
        let g = self_play(&net, &mut Rng::new(2));
        assert!(g.positions.len() > 10);
        assert!((g.result.0.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn training_is_resumable_game_for_game() {
        let config = TrainConfig::default();
        let mut straight = Net::random(9);
        train(&mut straight, 6, &config, &mut |_, _| true);
        let mut halves = Net::random(9);
        train(&mut halves, 3, &config, &mut |_, _| true);
        let mut resumed = Net::from_bytes(&halves.to_bytes()).unwrap();
        train(&mut resumed, 6, &config, &mut |_, _| true);
        assert_eq!(resumed.games, 6);
        assert_eq!(resumed.to_bytes(), straight.to_bytes());
    }

    #[test]
    fn a_run_stops_at_each_checkpoint_and_on_a_failed_save() {
        let config = TrainConfig::default();
        let plan = Plan {
            games: 5,
            checkpoint_every: 2,
            probe: 2,
        };
        let mut net = Net::random(3);
        let mut saved = vec![];
        let reports =
            train_with_checkpoints::<()>(&mut net, plan, &config, &mut |_, _| {}, &mut |n, r| {
                saved.push((n.games, r.games));
                Ok(())
            })
            .unwrap();
        assert_eq!(saved, [(2, 2), (4, 4), (5, 5)]);
        assert_eq!(reports.len(), 3);
        assert!(reports
            .iter()
            .all(|r| r.vs_greedy.is_some() && r.loss.is_finite()));
        // A save that fails ends the run there.
        let mut net = Net::random(3);
        let failed =
            train_with_checkpoints(&mut net, plan, &config, &mut |_, _| {}, &mut |_, _| {
                Err("disk full")
            });
        assert_eq!(failed, Err("disk full"));
        assert_eq!(net.games, 2);
    }
}
