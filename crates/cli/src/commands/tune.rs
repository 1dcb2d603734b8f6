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
        } => match method {
            TuneMethod::Texel => {
                print_json(&tournament::tune_ringo(games, depth, epochs, verify, seed))
            }
            TuneMethod::Spsa => print_json(&tournament::spsa_ringo(games, depth, verify, seed)),
        },
    }
}
