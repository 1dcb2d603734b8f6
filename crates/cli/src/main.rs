//! `agon`: play and study Ringo and Urgammon — the web app, terminal play,
//! analysis tools and benchmarks.
//!
//! Every command that reads untrusted input (rules strings, positions, moves,
//! records) reports what is wrong on stderr and exits with code 2; it never
//! panics on bad input.
#![forbid(unsafe_code)]

mod bench;
mod bench_serve;
mod cli;
mod commands;
mod engine_cmd;
mod progress;
mod ringo_cmd;
mod rng;
mod tournament;
mod urgammon_ai;
mod urgammon_cmd;
mod urgammon_train_cmd;

use clap::Parser;

fn main() {
    let cli = cli::Cli::parse();
    cli.init_logging();
    if let Err(e) = commands::run(cli) {
        eprintln!("error: {e:#}");
        std::process::exit(2);
    }
}
