//! `agon`: play and study Ringo and Urgammon — the web app, terminal play,
//! analysis tools and benchmarks.
//!
//! Every command that reads untrusted input (rules strings, positions, moves,
//! records) reports what is wrong on stderr and exits with code 2; it never
//! panics on bad input.
#![forbid(unsafe_code)]

mod cli;
mod commands;
mod console;
mod progress;
mod rng;

use clap::Parser;

fn main() {
    // One TLS provider for the process, before any HTTP client is made.
    agon_server::push::install_tls();
    let cli = cli::Cli::parse();
    cli.init_logging();
    if let Err(e) = commands::run(cli) {
        // The reader of our output has gone (`agon … | head`): it has what
        // it wanted, so end quietly, as Unix tools do.
        if console::is_broken_pipe(&e) {
            std::process::exit(0);
        }
        eprintln!("error: {e:#}");
        std::process::exit(2);
    }
}
