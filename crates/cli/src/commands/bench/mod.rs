//! `agon bench …`: speed benchmarks, and the web app under load.

pub(crate) mod arena;
mod load;
pub(crate) mod lobby;
mod readers;
mod serve;
mod signin;
mod speed;

use crate::cli::*;
use crate::console::print_json;
use anyhow::Result;

/// `agon bench …`: speed benchmarks, and the web app under load.
pub(crate) fn run(cmd: BenchCmd) -> Result<()> {
    match cmd {
        BenchCmd::RingoSearch { depth } => print_json(&speed::ringo_search(depth)?),
        BenchCmd::Serve(b) => print_json(&serve::run(&b)?),
        BenchCmd::Lobby(b) => print_json(&lobby::run(&b)?),
        BenchCmd::Arena(b) => print_json(&arena::run(&b)?),
        BenchCmd::Signin {
            concurrent,
            rounds,
            sequential,
        } => print_json(&signin::run(
            concurrent.max(1),
            rounds.max(1),
            sequential.max(1),
        )?),
        BenchCmd::UrgammonEval { runs, decisions } => {
            print_json(&speed::urgammon_eval(runs.max(1), decisions)?)
        }
        BenchCmd::Urgammon { games, runs, seed } => {
            print_json(&speed::urgammon(games, runs.max(1), seed)?)
        }
        BenchCmd::Ringo {
            rules,
            games,
            runs,
            depth,
            seed,
        } => print_json(&speed::ringo(&rules, games, runs.max(1), depth, seed)?),
    }
}
