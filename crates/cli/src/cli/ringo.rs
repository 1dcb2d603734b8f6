//! `agon ringo …`: a game's set-up and every Ringo subcommand.

use super::*;
use agon_ai::Level;
use clap::Subcommand;

/// The rules, start position and moves that set up a Ringo game, or a whole
/// saved record (as the web app's "Download record" writes it).
#[derive(clap::Args)]
pub(crate) struct RingoGameArgs {
    /// Rules: PRESET[,key=value]... e.g. classic,attackers=6
    #[arg(long, default_value = "classic")]
    pub(crate) rules: String,
    /// Start position (section 8 notation); default: the rules' start.
    #[arg(long)]
    pub(crate) position: Option<String>,
    /// Moves to play first, separated by spaces (after --record's or --file's moves).
    #[arg(long)]
    pub(crate) moves: Option<String>,
    /// A whole game record instead of --rules and --position: the rules, an
    /// optional start position, the moves, and maybe a last `resign:SIDE`.
    #[arg(long, conflicts_with_all = ["rules", "position", "file"])]
    pub(crate) record: Option<String>,
    /// The same record from a file, such as the web app's download (`-`: standard input).
    #[arg(long, conflicts_with_all = ["rules", "position"])]
    pub(crate) file: Option<std::path::PathBuf>,
}

#[derive(Subcommand)]
pub(crate) enum RingoCmd {
    /// Print the position, side to move, status and sorted legal moves as JSON.
    Legal {
        #[command(flatten)]
        game: RingoGameArgs,
    },
    /// Count leaf nodes at exactly DEPTH plies.
    Perft {
        #[command(flatten)]
        game: RingoGameArgs,
        /// Depth in plies.
        #[arg(long)]
        depth: u32,
        /// Also print the count below each root move.
        #[arg(long)]
        divide: bool,
    },
    /// Print the board drawing.
    Show {
        #[command(flatten)]
        game: RingoGameArgs,
    },
    /// The engine's best move, score, proof and principal variation, as JSON.
    Analyze {
        #[command(flatten)]
        game: RingoGameArgs,
        /// Search as this playing level (1-10).
        #[arg(long)]
        level: Option<Level>,
        /// Search to this depth.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: Option<u32>,
        /// Search about this many nodes.
        #[arg(long)]
        nodes: Option<u64>,
        /// Search this many milliseconds.
        #[arg(long)]
        movetime: Option<u64>,
        /// Endgame tablebases to use (a missing directory means none).
        #[arg(long, default_value = TABLEBASES)]
        tablebases: std::path::PathBuf,
    },
    /// Review a game: each ply's best move, loss and grade, each side's
    /// accuracy and the key moments, as JSON.
    Review {
        #[command(flatten)]
        game: RingoGameArgs,
        /// The fixed search depth of every ply (the same for every ply, so a
        /// review is reproducible).
        #[arg(long, default_value_t = agon_ai::ringo::review::DEPTH, value_parser = clap::value_parser!(u32).range(1..=20))]
        depth: u32,
        /// Endgame tablebases to use (a missing directory means none).
        #[arg(long, default_value = TABLEBASES)]
        tablebases: std::path::PathBuf,
    },
    /// Play many games of A against B and review every one: each player's
    /// mean loss, accuracy and grades (the evidence of docs/review.md).
    ReviewStudy {
        /// Rules: PRESET[,key=value]...
        #[arg(long, default_value = "classic")]
        rules: String,
        #[command(flatten)]
        study: StudyArgs,
        /// Review depth.
        #[arg(long, default_value_t = agon_ai::ringo::review::DEPTH)]
        depth: u32,
    },
    /// Prove who wins from a position (df-pn with a transposition table and
    /// the tablebases), as JSON: {"result", "plies", "nodes", "pv"}.
    Solve {
        #[command(flatten)]
        game: RingoGameArgs,
        /// Positions to expand at most; the result is "unknown" when they run out.
        #[arg(long, default_value_t = 10_000_000, value_parser = clap::value_parser!(u64).range(1..))]
        max_nodes: u64,
        /// Threads (the root's moves are shared out).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
        /// Directory of tablebases built by `agon ringo tablebase build`
        /// (used when it holds tables of these rules).
        #[arg(long, default_value = TABLEBASES)]
        tablebases: std::path::PathBuf,
    },
    /// Endgame tablebases: build, verify and probe.
    Tablebase {
        #[command(subcommand)]
        cmd: TablebaseCmd,
    },
    /// Two people play at this terminal, or one against the engine (--vs);
    /// --record or --file goes on from a saved game.
    Play {
        #[command(flatten)]
        game: RingoGameArgs,
        /// Play against the engine: engine or engine:LEVEL (1-10, default 5).
        #[arg(long)]
        vs: Option<String>,
        /// Your side against the engine.
        #[arg(long, value_enum, default_value_t = RingoSide::Attackers)]
        side: RingoSide,
    },
    /// Step through a game: its record (--record, --file) or --moves.
    Replay {
        #[command(flatten)]
        game: RingoGameArgs,
        /// Print every step without waiting for commands.
        #[arg(long)]
        all: bool,
    },
}

/// `agon ringo tablebase …`.
#[derive(Subcommand)]
pub(crate) enum TablebaseCmd {
    /// Build every class up to --attackers v --defenders by retrograde
    /// analysis and write them to --dir; prints each class's figures as JSON.
    Build {
        /// Rules: PRESET[,key=value]... (the start count and the repetition
        /// rule do not change the tables).
        #[arg(long, default_value = "classic")]
        rules: String,
        /// Attackers (the fortress included), 2-7.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(2..=7))]
        attackers: u8,
        /// Defenders, 0-4.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(0..=4))]
        defenders: u8,
        /// Where the tables are written (and read, so only missing ones are built).
        #[arg(long, default_value = TABLEBASES)]
        dir: std::path::PathBuf,
        /// Threads.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
    },
    /// Check every table in --dir: each entry against its children's, and a
    /// sample against a plain minimax; prints the report as JSON.
    Verify {
        /// Rules: PRESET[,key=value]...
        #[arg(long, default_value = "classic")]
        rules: String,
        /// Where the tables are.
        #[arg(long, default_value = TABLEBASES)]
        dir: std::path::PathBuf,
        /// Positions a class searched by the minimax.
        #[arg(long, default_value_t = 1000)]
        samples: u64,
        /// The minimax's depth in plies (at most 7: no repetition fits).
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=7))]
        depth: u32,
        /// Threads.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
    },
    /// A position's tablebase entry and the winning line, as JSON.
    Probe {
        #[command(flatten)]
        game: RingoGameArgs,
        /// Where the tables are.
        #[arg(long, default_value = TABLEBASES)]
        dir: std::path::PathBuf,
    },
}
