//! `agon tune …`: tuning the Ringo evaluation by self-play.

use crate::cli::*;
use crate::console::print_json;
use anyhow::Result;
use serde::Serialize;
use std::collections::BTreeMap;

/// `agon tune …`: tuning the Ringo evaluation by self-play.
pub(crate) fn run(cmd: TuneCmd) -> Result<()> {
    match cmd {
        TuneCmd::Ringo {
            method,
            games,
            depth,
            epochs,
            verify,
            seed,
        } => match method {
            TuneMethod::Texel => print_json(&tune_ringo(games, depth, epochs, verify, seed)),
            TuneMethod::Spsa => print_json(&spsa_ringo(games, depth, verify, seed)),
        },
    }
}

/// `agon tune ringo`'s report.
#[derive(Serialize)]
pub struct TuneReport {
    /// `fit` (self-play and a logistic fit) or `spsa`.
    pub method: &'static str,
    /// Self-play games (fit) or iterations (SPSA).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub games: Option<usize>,
    /// SPSA iterations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iterations: Option<usize>,
    /// Games per SPSA iteration.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub games_per_iteration: Option<usize>,
    /// Positions the fit saw.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub positions: Option<usize>,
    /// Search depth of the games.
    pub depth: u32,
    /// Fitting epochs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub epochs: Option<usize>,
    /// The fit's loss before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loss_before: Option<f32>,
    /// And after.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loss_after: Option<f32>,
    /// The tuned weights by name.
    pub weights: BTreeMap<&'static str, f32>,
    /// The same, as Rust to paste into the evaluation.
    pub rust: String,
    /// Verification games, tuned against the start.
    pub verify_games: usize,
    /// Their depth.
    pub verify_depth: u32,
    /// The tuned weights' score in them.
    pub verify_score_tuned_vs_start: f64,
}

/// `agon tune ringo`: self-play, fit, verify. Progress goes to stderr; the
/// result (the weights as JSON and as Rust, the losses, the verification score)
/// to stdout.
pub fn tune_ringo(games: usize, depth: u32, epochs: usize, verify: usize, seed: u64) -> TuneReport {
    use agon_ai::ringo::{eval as ringo_eval, tune};
    let start = ringo_eval::HAND_WEIGHTS;
    let mut rng = agon_ai::Rng::new(seed);
    let mut samples = vec![];
    let progress = crate::progress::Progress::new(games as u64, "self-play games");
    for i in 0..games {
        samples.extend(tune::self_play_game(depth, start, &mut rng));
        progress.set(i as u64 + 1, format!("{} positions", samples.len()));
    }
    progress.finish();
    let before = tune::loss(&samples, &start.as_array());
    let tuned = tune::fit(&samples, start, epochs, 0.05);
    let after = tune::loss(&samples, &tuned.as_array());
    eprintln!("loss {before:.5} -> {after:.5}; verifying over {verify} games…");
    let score = tune::verify(tuned, start, verify, 3, seed ^ 0xabcd);
    TuneReport {
        method: "fit",
        games: Some(games),
        iterations: None,
        games_per_iteration: None,
        positions: Some(samples.len()),
        depth,
        epochs: Some(epochs),
        loss_before: Some(before),
        loss_after: Some(after),
        weights: weights_json(&tuned),
        rust: weights_rust(&tuned),
        verify_games: verify,
        verify_depth: 3,
        verify_score_tuned_vs_start: score,
    }
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

fn weights_json(w: &agon_ai::ringo::eval::Weights) -> BTreeMap<&'static str, f32> {
    WEIGHT_NAMES
        .iter()
        .copied()
        .zip(w.as_array().map(|w| (w * 10.0).round() / 10.0))
        .collect()
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
pub fn spsa_ringo(iterations: usize, depth: u32, verify: usize, seed: u64) -> TuneReport {
    use agon_ai::ringo::{eval as ringo_eval, tune};
    let start = ringo_eval::HAND_WEIGHTS;
    let progress = crate::progress::Progress::new(iterations as u64, "SPSA iterations");
    let tuned = tune::spsa(start, iterations, 4, depth, seed, &|k, _| {
        progress.set(k as u64, "")
    });
    progress.finish();
    eprintln!("verifying over {verify} games…");
    let score = tune::verify(tuned, start, verify, depth + 1, seed ^ 0xabcd);
    TuneReport {
        method: "spsa",
        games: None,
        iterations: Some(iterations),
        games_per_iteration: Some(8),
        positions: None,
        depth,
        epochs: None,
        loss_before: None,
        loss_after: None,
        weights: weights_json(&tuned),
        rust: weights_rust(&tuned),
        verify_games: verify,
        verify_depth: depth + 1,
        verify_score_tuned_vs_start: score,
    }
}
