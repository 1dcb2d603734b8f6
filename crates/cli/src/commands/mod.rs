//! What each subcommand does: one file per group, over the crates' own
//! functions (the CLI stays thin). This file only dispatches; what the
//! commands share (reading records, printing, the replay prompt) is in
//! `console`, below them all.

mod balance;
pub(crate) mod bench;
mod engine;
mod puzzles;
pub(crate) mod ringo;
mod serve;
mod swiss;
pub(crate) mod tournament;
mod tune;
pub(crate) mod urgammon;

use crate::cli::{Cli, Command};
use anyhow::Result;

/// Runs a parsed command line.
pub(crate) fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Serve(args) => serve::run(*args, cli.log_format),
        Command::Worker(args) => serve::worker(args),
        Command::Backup(args) => serve::backup(&args),
        Command::Migrate(args) => serve::migrate(&args),
        Command::Mod(crate::cli::ModCmd::Grant(args)) => serve::grant(&args),
        Command::Ringo(cmd) => ringo::run(cmd),
        Command::Urgammon(cmd) => urgammon::run(cmd),
        Command::Engine => engine::run(),
        Command::Tournament(cmd) => tournament::run(cmd),
        Command::Tune(cmd) => tune::run(cmd),
        Command::Bench(cmd) => bench::run(cmd),
        Command::Balance(args) => balance::run(&args),
        Command::Puzzles(cmd) => puzzles::run(cmd),
        Command::Swiss(cmd) => swiss::run(cmd),
    }
}
