//! `agon puzzles …`'s flags.

use clap::Subcommand;
use std::path::PathBuf;

/// Where the web app's puzzles live in the source tree: `agon puzzles
/// build` writes there by default, and the server embeds what it finds.
pub(crate) const PUZZLES: &str = "crates/server/puzzles";

#[derive(Subcommand)]
pub(crate) enum PuzzlesCmd {
    /// Make the puzzles the web app ships: Ringo from the endgame tablebases
    /// (built in memory, classes 2v1, 2v2 and 3v1 of each preset) and from
    /// level-10 self-play with review (proved by the solver), Urgammon from
    /// level-10 self-play with review. Writes ringo.json and
    /// urgammon.json; every puzzle is checked before it is written.
    Build {
        /// The folder to write.
        #[arg(long, default_value = PUZZLES)]
        out: PathBuf,
        /// Ringo puzzles per preset (spread over the three classes).
        #[arg(long, default_value_t = 420)]
        ringo: usize,
        /// Ringo level-10 self-play games per preset to play and review (about
        /// a second a move, and a minute of review each).
        #[arg(long, default_value_t = 30)]
        ringo_games: usize,
        /// Urgammon self-play games to play and review.
        #[arg(long, default_value_t = 60)]
        games: usize,
        /// At most this many puzzles from one game (spread over the game), so
        /// the set is not a few games' every turn.
        #[arg(long, default_value_t = 12)]
        per_game: usize,
        /// The random seed (positions drawn, dice).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Threads.
        #[arg(long, default_value_t = 2)]
        threads: usize,
    },
    /// Check every puzzle of a folder again (the tables, the engine): exit 2
    /// if one fails.
    Check {
        /// The folder to read.
        #[arg(long, default_value = PUZZLES)]
        dir: PathBuf,
        /// Threads.
        #[arg(long, default_value_t = 2)]
        threads: usize,
    },
}
