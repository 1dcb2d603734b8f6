//! `agon tournament …`: engine matches in both games.

pub(crate) mod ringo;

use crate::cli::*;
use crate::console::print_json;
use anyhow::Result;

/// `agon tournament …`: engine matches in both games.
pub(crate) fn run(cmd: TournamentCmd) -> Result<()> {
    match cmd {
        TournamentCmd::Ringo(args) => print_json(&ringo::ringo(&args)?),
        TournamentCmd::Urgammon {
            a,
            b,
            games,
            match_to,
            net_a,
            net_b,
            threads,
            seed,
        } => {
            // The engines read the exact endings where they are built by default.
            agon_ai::urgammon::endings::install(TABLEBASES.into());
            print_json(&super::urgammon::analysis::tournament(
                &super::urgammon::analysis::TournamentArgs {
                    a: &a,
                    b: &b,
                    games,
                    match_to,
                    threads,
                    seed,
                    net_a: net_a.as_deref(),
                    net_b: net_b.as_deref(),
                },
            )?)
        }
    }
}
