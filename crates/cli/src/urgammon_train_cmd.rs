//! `agon urgammon train`: TD(λ) self-play with a progress bar, checkpoints
//! written atomically, a JSON-lines log, and a probe match at each
//! checkpoint. The learning itself is `agon_ai::urgammon::train`; this file
//! holds the files and the progress around it.

use crate::progress;
use agon_ai::urgammon::eval::Net;
use agon_ai::urgammon::tournament::{self as tour, Spec};
use agon_ai::urgammon::train::{self as urgammon_train, TrainConfig};
use anyhow::{bail, Context, Result};
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;

/// The arguments of `agon urgammon train`.
pub struct TrainArgs {
    /// Games to have played in all (a resumed run counts its earlier games).
    pub games: u64,
    /// The weights file: written at every checkpoint, read by `--resume`.
    pub out: PathBuf,
    /// Continue from `out`.
    pub resume: bool,
    /// Games between checkpoints.
    pub checkpoint_every: u64,
    /// Games against greedy at each checkpoint (0: none).
    pub probe: usize,
    /// A JSON-lines log of the checkpoints (appended).
    pub log: Option<PathBuf>,
    /// The training settings.
    pub config: TrainConfig,
}

/// Writes `bytes` to `path` through a temporary file and a rename, so a crash
/// mid-write never leaves a truncated checkpoint.
fn write_atomic(path: &std::path::Path, bytes: &[u8]) -> Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// Mixes `x` into a moving average.
fn ema(avg: &mut f64, x: f64, n: u64) {
    let k = (1.0 / n.max(1) as f64).max(0.002);
    *avg += k * (x - *avg);
}

/// `agon urgammon train`: TD(λ) self-play with a progress bar, checkpoints, a
/// log, and a probe match against greedy at each checkpoint.
pub fn train(args: &TrainArgs) -> Result<Value> {
    let mut net = if args.resume {
        let bytes = std::fs::read(&args.out)
            .with_context(|| format!("cannot resume from {}", args.out.display()))?;
        Net::from_bytes(&bytes)
            .with_context(|| format!("cannot resume from {}", args.out.display()))?
    } else {
        if args.out.exists() {
            bail!(
                "{} exists: use --resume to continue it, or another --out",
                args.out.display()
            );
        }
        Net::random(args.config.seed)
    };
    if args.games <= net.games {
        bail!(
            "the network has already played {} games; ask for more with --games",
            net.games
        );
    }
    let first = net.games;
    let start = std::time::Instant::now();
    let mut loss_avg = 0.0f64;
    let mut log = match &args.log {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .with_context(|| format!("cannot open {}", p.display()))?,
        ),
        None => None,
    };
    let mut checkpoints = vec![];
    while net.games < args.games {
        let until = (net.games / args.checkpoint_every + 1) * args.checkpoint_every;
        let until = until.min(args.games);
        urgammon_train::train(&mut net, until, &args.config, &mut |net, loss| {
            ema(&mut loss_avg, f64::from(loss), net.games - first);
            if net.games % 20 == 0 || net.games == until {
                let rate = (net.games - first) as f64 / start.elapsed().as_secs_f64().max(1e-9);
                progress::bar(
                    net.games,
                    args.games,
                    &format!("{rate:.0} games/s  loss {loss_avg:.4}"),
                );
            }
            true
        });
        write_atomic(&args.out, &net.to_bytes())?;
        let probe = |b: Spec| {
            (args.probe > 0).then(|| {
                let config = tour::Config {
                    a: Spec::Ply(0),
                    b,
                    games: args.probe,
                    match_to: None,
                    threads: 1,
                    seed: 12345,
                };
                tour::run(config, [&net, &net], &|_| {}).win_rate().0
            })
        };
        let entry = json!({
            "games": net.games,
            "loss": loss_avg,
            "vs_greedy": probe(Spec::Greedy),
            "vs_heuristic": probe(Spec::Heuristic(0)),
            "seconds": start.elapsed().as_secs_f64().round(),
            "lr": urgammon_train::learning_rate(&args.config, net.games),
        });
        if let Some(f) = log.as_mut() {
            writeln!(f, "{entry}")?;
        }
        checkpoints.push(entry);
    }
    progress::finish();
    Ok(json!({
        "out": args.out.display().to_string(),
        "games": net.games,
        "seconds": start.elapsed().as_secs_f64().round(),
        "lambda": args.config.lambda,
        "lr": args.config.lr,
        "lr_decay": args.config.lr_decay,
        "seed": args.config.seed,
        "checkpoints": checkpoints,
    }))
}
