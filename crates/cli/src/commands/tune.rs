//! `agon tune …`: tuning the Ringo evaluation by self-play.

use super::print_json;
use crate::cli::*;
use crate::tournament;
use anyhow::Result;

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
        } => match method.as_str() {
            "texel" => print_json(&tournament::tune_ringo(games, depth, epochs, verify, seed)),
            "spsa" => print_json(&tournament::spsa_ringo(games, depth, verify, seed)),
            other => anyhow::bail!("invalid --method '{other}': use spsa or texel"),
        },
    }
}
