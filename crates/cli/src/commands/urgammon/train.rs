//! `agon urgammon train`: TD(λ) self-play with a progress bar, checkpoints
//! written atomically, a JSON-lines log, and a probe match at each
//! checkpoint. The learning and its stages are
//! `agon_ai::urgammon::train::train_with_checkpoints`; this file holds the
//! files and the progress bar around it.

use crate::progress::Progress;
use agon_ai::urgammon::eval::Net;
use agon_ai::urgammon::train::{train_with_checkpoints, Checkpoint, Plan, TrainConfig};
use anyhow::{bail, Context, Result};
use serde::Serialize;
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

/// `agon urgammon train`'s report.
#[derive(Serialize)]
pub struct TrainReport {
    /// The network file.
    pub out: String,
    /// Games the network has played in all.
    pub games: u64,
    /// Wall time.
    pub seconds: f64,
    /// TD(λ)'s λ.
    pub lambda: f32,
    /// The learning rate.
    pub lr: f32,
    /// Its decay.
    pub lr_decay: f32,
    /// The seed.
    pub seed: u64,
    /// Every checkpoint of this run.
    pub checkpoints: Vec<Checkpoint>,
}

/// `agon urgammon train`: TD(λ) self-play with a progress bar, checkpoints, a
/// log, and a probe match against greedy at each checkpoint.
pub fn train(args: &TrainArgs) -> Result<TrainReport> {
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
    let start = std::time::Instant::now();
    let progress = Progress::new(args.games, "games");
    progress.set(net.games, "");
    let plan = Plan {
        games: args.games,
        checkpoint_every: args.checkpoint_every,
        probe: args.probe,
    };
    let checkpoints = train_with_checkpoints(
        &mut net,
        plan,
        &args.config,
        &mut |games, loss| progress.set(games, format!("loss {loss:.4}")),
        &mut |net, report| {
            write_atomic(&args.out, &net.to_bytes())?;
            if let Some(f) = log.as_mut() {
                writeln!(f, "{}", serde_json::to_string(report)?)?;
            }
            anyhow::Ok(())
        },
    )?;
    progress.finish();
    Ok(TrainReport {
        out: args.out.display().to_string(),
        games: net.games,
        seconds: start.elapsed().as_secs_f64().round(),
        lambda: args.config.lambda,
        lr: args.config.lr,
        lr_decay: args.config.lr_decay,
        seed: args.config.seed,
        checkpoints,
    })
}
