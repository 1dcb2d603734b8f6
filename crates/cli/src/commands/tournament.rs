//! `agon tournament …`: engine matches in both games.

use super::print_json;
use crate::cli::*;
use crate::{tournament, urgammon_ai};
use anyhow::Result;

/// `agon tournament …`: engine matches in both games.
pub(crate) fn run(cmd: TournamentCmd) -> Result<()> {
    match cmd {
        TournamentCmd::Ringo(args) => print_json(&tournament::ringo(&args)?),
        TournamentCmd::Urgammon {
            a,
            b,
            games,
            match_to,
            net_a,
            net_b,
            threads,
            seed,
        } => print_json(&urgammon_ai::tournament(&urgammon_ai::TournamentArgs {
            a: &a,
            b: &b,
            games,
            match_to,
            threads,
            seed,
            net_a: net_a.as_deref(),
            net_b: net_b.as_deref(),
        })?),
    }
}
