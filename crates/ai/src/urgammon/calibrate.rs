//! Calibration: how well an evaluator predicts what actually happens, on
//! held-out positions rolled out many times.

use super::eval::{Evaluator, Heuristic, Net};
use super::tournament::next_token;
use super::{LevelSpec, Payoff};
use crate::Rng;
use urgammon::{Phase, Side, State};

/// One held-out position: the (win share, mean points) of its rollouts, and
/// the (win chance, equity) the network and the hand-written heuristic
/// predicted, all seen by the side to roll.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// What the rollouts gave.
    pub rollout: (f64, f64),
    /// What the network predicted.
    pub net: (f64, f64),
    /// What the heuristic predicted.
    pub heuristic: (f64, f64),
}

/// Held-out positions from self-play games with their own seed (games that
/// training never saw): one position per game, at a random roll, so the set
/// covers openings, middles and endings.
pub fn held_out_positions(count: usize, (spec, net): (LevelSpec, &Net), seed: u64) -> Vec<State> {
    let mut picked = vec![];
    let mut g = 0u64;
    while picked.len() < count {
        let mut dice = Rng::new(seed ^ 0xca11_b4a7_e000_0000 ^ g);
        let mut rng = Rng::new(seed.wrapping_add(g));
        g += 1;
        let mut rolls = vec![];
        urgammon::playout(&State::new(), |s| {
            let t = next_token(s, [(spec, net); 2], Payoff::MONEY, &mut dice, &mut rng);
            if t.is_some() && s.phase() == Phase::Roll {
                rolls.push(*s);
            }
            t
        });
        if !rolls.is_empty() {
            picked.push(rolls[rng.below(rolls.len())]);
        }
    }
    picked
}

/// Rolls each position out `rollouts` times with `spec` and `net` on both
/// sides, on `threads` threads, and compares the network's and the
/// heuristic's predictions with the results. `progress` is told how many
/// positions are done after each one.
pub fn calibrate(
    positions: &[State],
    rollouts: usize,
    (spec, net): (LevelSpec, &Net),
    threads: usize,
    seed: u64,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<Sample> {
    let mut samples = Vec::with_capacity(positions.len());
    crate::par::run(
        positions.len(),
        threads,
        |i| {
            let state = &positions[i];
            let side = state.to_act().unwrap_or(Side::Light);
            let (mut wins, mut points) = (0u32, 0i64);
            for k in 0..rollouts {
                let mut dice = Rng::new(
                    seed ^ ((i * rollouts + k) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
                );
                let mut rng = Rng::new(k as u64);
                let (s, _) = urgammon::playout(state, |s| {
                    next_token(s, [(spec, net); 2], Payoff::MONEY, &mut dice, &mut rng)
                });
                if let Some(r) = s.result() {
                    match r.winner {
                        Some(w) if w == side => {
                            wins += 1;
                            points += i64::from(r.points);
                        }
                        Some(_) => points -= i64::from(r.points),
                        None => {}
                    }
                }
            }
            let n = rollouts.max(1) as f64;
            let net_o = net.evaluate(state).seen_by(side);
            let heu_o = Heuristic.evaluate(state).seen_by(side);
            Sample {
                rollout: (f64::from(wins) / n, points as f64 / n),
                net: (f64::from(net_o.win()), f64::from(net_o.equity())),
                heuristic: (f64::from(heu_o.win()), f64::from(heu_o.equity())),
            }
        },
        |sample| {
            samples.push(sample);
            progress(samples.len());
            true
        },
    );
    samples
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calibration_samples_every_position_once() {
        let spec = crate::urgammon::level_spec(crate::Level::MIN);
        let positions = held_out_positions(3, (spec, Net::trained()), 5);
        assert_eq!(positions.len(), 3);
        assert!(positions.iter().all(|p| p.phase() == Phase::Roll));
        let samples = calibrate(&positions, 4, (spec, Net::trained()), 2, 5, &|_| {});
        assert_eq!(samples.len(), 3);
        assert!(samples.iter().all(|s| (0.0..=1.0).contains(&s.rollout.0)));
    }
}
