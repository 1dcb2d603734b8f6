//! Tuning the Ringo evaluation by self-play (a Texel-style fit).
//!
//! 1. Self-play games at a shallow depth, from the three presets with random
//!    options and a few random opening moves, so the positions cover every rule
//!    set. Each quiet position (no capture available) is kept with the game's
//!    result: 1 when the attackers won, 0 when the defenders did, ½ for a draw.
//! 2. The weights are fitted to minimise the mean squared error between the
//!    result and `sigmoid(eval / SCALE)`, by gradient descent. The evaluation is
//!    linear in the features, so the gradient is exact and cheap.
//! 3. A verification match plays the tuned weights against the starting ones.

use crate::ringo::eval::{features, Weights};
use crate::ringo::player as ringo_player;
use crate::ringo::search::{Limits, Searcher};
use crate::Rng;
use ringo::{Game, Rules, Side, OPTIONS};

use crate::ringo::eval::sigmoid;
pub use crate::ringo::eval::SCALE;

/// One training sample: the features and the attackers' result.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// The features of the position.
    pub features: [f32; 11],
    /// 1 attackers won, 0 defenders won, 0.5 draw.
    pub result: f32,
}

/// A random rule set: a preset, with each option changed at random one time in
/// four, so common rule sets dominate but every option appears.
pub fn random_rules(rng: &mut Rng) -> Rules {
    let preset = ["classic", "encyclopedia", "globe"][rng.below(3)];
    let mut rules: Rules = preset.parse().unwrap_or_default();
    for (key, values) in OPTIONS {
        if rng.below(4) == 0 {
            let _ = rules.set(key, values[rng.below(values.len())]);
        }
    }
    rules
}

/// Plays one self-play game at `depth` and returns its quiet positions' samples.
pub fn self_play_game(depth: u32, weights: Weights, rng: &mut Rng) -> Vec<Sample> {
    let rules = random_rules(rng);
    let mut game = Game::new(rules);
    for _ in 0..(2 + rng.below(4)) {
        if let Some(m) = ringo_player::random_move(&game, rng) {
            game.play_unchecked(m);
        }
    }
    let mut searcher = Searcher::with_weights(rules, weights, 1 << 16);
    let mut positions = vec![];
    while !game.is_over() && game.ply() < 300 {
        let legal = game.legal_moves();
        if !legal.iter().any(|m| m.is_capture()) {
            positions.push(features(game.position(), &rules).as_array());
        }
        // A little noise at the root keeps the games varied.
        let scored = searcher.score_root_moves(&game, depth);
        let Some((m, _)) = scored
            .into_iter()
            .map(|(m, s)| (m, s + rng.below(21) as i32 - 10))
            .max_by_key(|&(_, s)| s)
        else {
            break;
        };
        game.play_unchecked(m);
    }
    let result = match game.outcome().and_then(|o| o.winner) {
        Some(Side::Attackers) => 1.0,
        Some(Side::Defenders) => 0.0,
        None => 0.5,
    };
    positions
        .into_iter()
        .map(|features| Sample { features, result })
        .collect()
}

/// The mean squared error of `weights` on the samples.
pub fn loss(samples: &[Sample], weights: &[f32; 11]) -> f32 {
    let sum: f32 = samples
        .iter()
        .map(|s| {
            let e: f32 = s.features.iter().zip(weights).map(|(f, w)| f * w).sum();
            (sigmoid(e / SCALE) - s.result).powi(2)
        })
        .sum();
    sum / samples.len().max(1) as f32
}

/// Fits the weights by gradient descent from `start`; `rate` is the step size
/// in evaluation units. Returns the weights after `epochs` full passes.
pub fn fit(samples: &[Sample], start: Weights, epochs: usize, rate: f32) -> Weights {
    let mut w = start.as_array();
    // Features differ in scale (progress runs to ~35, tempo is ±1), so each
    // weight's step is scaled by its feature's mean square (a diagonal
    // preconditioner), which keeps the descent stable for all of them.
    let mut scale = [0f32; 11];
    for s in samples {
        for (k, f) in s.features.iter().enumerate() {
            scale[k] += f * f;
        }
    }
    let n = samples.len().max(1) as f32;
    for v in &mut scale {
        *v = (*v / n).max(1e-3);
    }
    for _ in 0..epochs {
        let mut grad = [0f32; 11];
        for s in samples {
            let e: f32 = s.features.iter().zip(&w).map(|(f, w)| f * w).sum();
            let p = sigmoid(e / SCALE);
            // d/dw (p - y)^2 = 2 (p - y) p (1 - p) f / SCALE
            let g = 2.0 * (p - s.result) * p * (1.0 - p) / SCALE;
            for (k, f) in s.features.iter().enumerate() {
                grad[k] += g * f;
            }
        }
        for k in 0..11 {
            w[k] -= rate * SCALE * SCALE * grad[k] / n / scale[k];
        }
    }
    Weights::from_array(w)
}

/// Plays `games` games between two weight sets at `depth` (each opening from
/// both seats) and returns the first set's score.
pub fn verify(a: Weights, b: Weights, games: usize, depth: u32, seed: u64) -> f64 {
    let mut points = 0.0;
    for i in 0..games {
        let mut rng = Rng::new(seed ^ (i / 2) as u64);
        let rules = random_rules(&mut rng);
        let mut game = Game::new(rules);
        for _ in 0..3 {
            if let Some(m) = ringo_player::random_move(&game, &mut rng) {
                game.play_unchecked(m);
            }
        }
        let a_attacks = i % 2 == 0;
        let mut sa = Searcher::with_weights(rules, a, 1 << 16);
        let mut sb = Searcher::with_weights(rules, b, 1 << 16);
        while !game.is_over() && game.ply() < 400 {
            let a_to_move = (game.position().to_move() == Side::Attackers) == a_attacks;
            let s = if a_to_move { &mut sa } else { &mut sb };
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let Some(m) = s.search_game(&game, limits).best else {
                break;
            };
            game.play_unchecked(m);
        }
        points += match game.outcome().and_then(|o| o.winner) {
            None => 0.5,
            Some(w) if (w == Side::Attackers) == a_attacks => 1.0,
            Some(_) => 0.0,
        };
    }
    points / games.max(1) as f64
}

/// SPSA: simultaneous perturbation stochastic approximation on match results.
/// Each iteration plays `pairs` game pairs between the weights pushed up and
/// down along a random ±1 direction, and moves the weights towards the winner.
/// `progress(k, weights)` is called after each iteration.
pub fn spsa(
    start: Weights,
    iterations: usize,
    pairs: usize,
    depth: u32,
    seed: u64,
    progress: &dyn Fn(usize, &Weights),
) -> Weights {
    let mut theta = start.as_array();
    // Each weight is perturbed in proportion to its size (and at least 4 units),
    // since the weights range from a few units to hundreds.
    let step: Vec<f32> = theta.iter().map(|w| (w.abs() * 0.15).max(4.0)).collect();
    let mut rng = Rng::new(seed);
    for k in 1..=iterations {
        let ck = 1.0 / (k as f32).powf(0.101);
        let ak = 0.5 / ((k as f32) + 10.0).powf(0.602) * 10f32.powf(0.602);
        let delta: Vec<f32> = (0..11)
            .map(|_| if rng.below(2) == 0 { -1.0 } else { 1.0 })
            .collect();
        let mut plus = theta;
        let mut minus = theta;
        for i in 0..11 {
            plus[i] += ck * step[i] * delta[i];
            minus[i] -= ck * step[i] * delta[i];
        }
        let score = verify(
            Weights::from_array(plus),
            Weights::from_array(minus),
            2 * pairs,
            depth,
            rng.next_u64(),
        );
        let g = (score as f32 - 0.5) * 2.0;
        for i in 0..11 {
            theta[i] += ak * g * step[i] * delta[i];
        }
        progress(k, &Weights::from_array(theta));
    }
    Weights::from_array(theta)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fitting_lowers_the_loss() {
        let mut rng = Rng::new(5);
        let samples: Vec<Sample> = (0..6)
            .flat_map(|_| self_play_game(1, crate::ringo::eval::WEIGHTS, &mut rng))
            .collect();
        assert!(!samples.is_empty());
        let start = crate::ringo::eval::WEIGHTS;
        let before = loss(&samples, &start.as_array());
        let after = loss(&samples, &fit(&samples, start, 50, 0.05).as_array());
        assert!(after <= before, "{after} > {before}");
    }
}
