//! `agon bench …`: speed benchmarks, and the web app under load.

use super::print_json;
use crate::cli::*;
use crate::{bench, bench_serve};
use anyhow::Result;

/// `agon bench …`: speed benchmarks, and the web app under load.
pub(crate) fn run(cmd: BenchCmd) -> Result<()> {
    match cmd {
        BenchCmd::RingoSearch { depth } => print_json(&bench::ringo_search(depth)?),
        BenchCmd::Serve(b) => print_json(&bench_serve::run(&b)?),
        BenchCmd::UrgammonEval { runs, decisions } => {
            print_json(&bench::urgammon_eval(runs.max(1), decisions)?)
        }
        BenchCmd::Urgammon { games, runs, seed } => {
            print_json(&bench::urgammon(games, runs.max(1), seed)?)
        }
        BenchCmd::Ringo {
            rules,
            games,
            runs,
            depth,
            seed,
        } => print_json(&bench::ringo(&rules, games, runs.max(1), depth, seed)?),
    }
}
