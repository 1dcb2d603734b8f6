//! `agon swiss pair`: reads a TRF(x) file, pairs its next round with the
//! server's Dutch pairing (the one the tournaments use), and writes the
//! pairs in bbpPairings' output format.

use crate::cli::{SwissCmd, SwissPairArgs};
use agon_server::tournaments::swiss::{pair as dutch, trf};
use anyhow::{bail, Context, Result};

/// Runs an `agon swiss` command.
pub(crate) fn run(cmd: SwissCmd) -> Result<()> {
    match cmd {
        SwissCmd::Pair(args) => pair(&args),
    }
}

fn pair(args: &SwissPairArgs) -> Result<()> {
    if !args.dutch {
        bail!("say which system: --dutch (the FIDE Dutch system, the only one here)");
    }
    let text = std::fs::read_to_string(&args.input)
        .with_context(|| format!("cannot read {}", args.input.display()))?;
    let t = trf::Trf::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", args.input.display()))?;
    if let Some(r) = t.rounds {
        if t.played() >= r {
            bail!("{}: all {r} rounds (XXR) are played", args.input.display());
        }
    }
    let (field, rules) = t.field();
    let round = dutch(&field, &std::collections::HashSet::new(), rules);
    if round.limited {
        eprintln!(
            "note: a bracket's search stopped at its bound; this pairing may be worse than the Dutch system's best (see docs/tournaments.md)"
        );
    }
    let out = trf::output(&round);
    match &args.output {
        Some(p) if p.as_os_str() != "-" => {
            std::fs::write(p, out).with_context(|| format!("cannot write {}", p.display()))?;
        }
        _ => print!("{out}"),
    }
    Ok(())
}
