//! `agon`: play and study Ringo and Urgammon — the web app, terminal play,
//! analysis tools and benchmarks.
//!
//! Every command that reads untrusted input (rules strings, positions, moves,
//! records) reports what is wrong on stderr and exits with code 2; it never
//! panics on bad input.
#![forbid(unsafe_code)]

mod bench;
mod ringo_cmd;
mod rng;

use anyhow::Result;
use clap::{Parser, Subcommand};
use std::io::Write;

#[derive(Parser)]
#[command(name = "agon", version, about = "Play and study Ringo and Urgammon")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Ringo: legal moves, perft, the board, terminal play.
    #[command(subcommand)]
    Ringo(RingoCmd),
    /// Speed benchmarks (median of several runs, one core).
    #[command(subcommand)]
    Bench(BenchCmd),
}

#[derive(Subcommand)]
enum RingoCmd {
    /// Print the position, side to move, status and sorted legal moves as JSON.
    Legal {
        /// Rules: PRESET[,key=value]... e.g. classic,attackers=6
        #[arg(long, default_value = "classic")]
        rules: String,
        /// Start position (section 8 notation); default: the rules' start.
        #[arg(long)]
        position: Option<String>,
        /// Moves to play first, separated by spaces.
        #[arg(long)]
        moves: Option<String>,
    },
    /// Count leaf nodes at exactly DEPTH plies.
    Perft {
        /// Rules: PRESET[,key=value]...
        #[arg(long, default_value = "classic")]
        rules: String,
        /// Start position; default: the rules' start.
        #[arg(long)]
        position: Option<String>,
        /// Moves to play first.
        #[arg(long)]
        moves: Option<String>,
        /// Depth in plies.
        #[arg(long)]
        depth: u32,
        /// Also print the count below each root move.
        #[arg(long)]
        divide: bool,
    },
    /// Print the board drawing.
    Show {
        /// Rules: PRESET[,key=value]...
        #[arg(long, default_value = "classic")]
        rules: String,
        /// Start position; default: the rules' start.
        #[arg(long)]
        position: Option<String>,
        /// Moves to play first.
        #[arg(long)]
        moves: Option<String>,
    },
    /// Two people play at this terminal.
    Play {
        /// Rules: PRESET[,key=value]...
        #[arg(long, default_value = "classic")]
        rules: String,
        /// Start position; default: the rules' start.
        #[arg(long)]
        position: Option<String>,
    },
}

#[derive(Subcommand)]
enum BenchCmd {
    /// Random Ringo games per second and perft nodes per second.
    Ringo {
        /// Rules to play.
        #[arg(long, default_value = "classic")]
        rules: String,
        /// Random games per run.
        #[arg(long, default_value_t = 100_000)]
        games: usize,
        /// Runs; the median is reported.
        #[arg(long, default_value_t = 5)]
        runs: usize,
        /// Perft depth.
        #[arg(long, default_value_t = 7)]
        depth: u32,
        /// RNG seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

fn print_json(value: &serde_json::Value) -> Result<()> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer(&mut out, value)?;
    writeln!(out)?;
    Ok(())
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Ringo(cmd) => match cmd {
            RingoCmd::Legal {
                rules,
                position,
                moves,
            } => {
                let game = ringo_cmd::load(&rules, position.as_deref(), moves.as_deref())?;
                print_json(&ringo_cmd::legal_json(&game))
            }
            RingoCmd::Perft {
                rules,
                position,
                moves,
                depth,
                divide,
            } => {
                let game = ringo_cmd::load(&rules, position.as_deref(), moves.as_deref())?;
                print_json(&ringo_cmd::perft_json(&game, depth, divide))
            }
            RingoCmd::Show {
                rules,
                position,
                moves,
            } => {
                let game = ringo_cmd::load(&rules, position.as_deref(), moves.as_deref())?;
                print!("{}", ringo_cmd::draw(&game));
                Ok(())
            }
            RingoCmd::Play { rules, position } => {
                let mut game = ringo_cmd::load(&rules, position.as_deref(), None)?;
                ringo_cmd::play(&mut game, &mut std::io::stdin().lock(), &mut std::io::stdout())
            }
        },
        Command::Bench(BenchCmd::Ringo {
            rules,
            games,
            runs,
            depth,
            seed,
        }) => print_json(&bench::ringo(&rules, games, runs.max(1), depth, seed)?),
    }
}

fn main() {
    let cli = Cli::parse();
    if let Err(e) = run(cli) {
        eprintln!("error: {e:#}");
        std::process::exit(2);
    }
}
