//! `agon urgammon …`: a record's source and every Urgammon subcommand.

use super::*;
use agon_ai::Level;
use clap::Subcommand;

/// An Urgammon record: as text (`--record`) or from a file (`--file`).
#[derive(clap::Args)]
pub(crate) struct UrgammonRecordArgs {
    /// The record: game tokens on one line, or a match record (header line
    /// first); a last `resign:SIDE` is read too.
    #[arg(long, conflicts_with = "file")]
    pub(crate) record: Option<String>,
    /// The same record from a file, such as the web app's download (`-`: standard input).
    #[arg(long)]
    pub(crate) file: Option<std::path::PathBuf>,
}

#[derive(Subcommand)]
pub(crate) enum UrgammonCmd {
    /// Print the phase, side to act, legal moves and result after a record, as JSON.
    Legal {
        #[command(flatten)]
        record: UrgammonRecordArgs,
    },
    /// Two people play a match at this terminal; the program rolls the dice.
    /// --record or --file goes on from a saved match.
    Play {
        /// RNG seed for the dice, to reproduce a match.
        #[arg(long)]
        seed: Option<u64>,
        /// Points to win the match (a saved match record keeps its own).
        #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(1..=99))]
        to: u32,
        /// What a drawn game does: replay (play on) or end (the match is drawn).
        #[arg(long, value_enum, default_value_t = Draw::Replay)]
        draw: Draw,
        /// Amount per point; the loser pays the point difference times this.
        #[arg(long)]
        stake: Option<String>,
        /// Play against the engine: engine or engine:LEVEL (1-10, default 5).
        #[arg(long)]
        vs: Option<String>,
        /// Your side against the engine.
        #[arg(long, value_enum, default_value_t = UrgammonSide::Light)]
        side: UrgammonSide,
        #[command(flatten)]
        record: UrgammonRecordArgs,
    },
    /// The engine's analysis of the decision after a record, as one JSON object.
    Analyze {
        #[command(flatten)]
        record: UrgammonRecordArgs,
        /// Analyse as this playing level (1-10; 10 searches 2 plies).
        #[arg(long, default_value_t = Level::MAX)]
        level: Level,
        /// Decide for a match to this many points (match-winning chance, not points).
        #[arg(long)]
        match_to: Option<u32>,
        /// The match score before this game: light's points, then dark's, e.g. 3-5.
        #[arg(long)]
        score: Option<String>,
    },
    /// Review a game or a match: every decision's loss and grade, each
    /// side's error rate, rating and luck, light's win chance, as JSON.
    Review {
        #[command(flatten)]
        record: UrgammonRecordArgs,
        /// Review as this playing level (10: the network with its full look-ahead).
        #[arg(long, default_value_t = Level::new(agon_ai::urgammon::review::LEVEL))]
        level: Level,
    },
    /// Play many games of A against B for points and review every one:
    /// each player's error rate, rating, grades and luck.
    ReviewStudy {
        #[command(flatten)]
        study: StudyArgs,
        /// Review level.
        #[arg(long, default_value_t = Level::new(agon_ai::urgammon::review::LEVEL))]
        level: Level,
    },
    /// Play the position out many times: mean points, outcome shares, 95% intervals.
    Rollout {
        #[command(flatten)]
        record: UrgammonRecordArgs,
        /// Games to play out.
        #[arg(long, default_value_t = 1000)]
        games: usize,
        /// The level playing both sides (8: the network at 0 plies, fast and strong).
        #[arg(long, default_value_t = Level::new(8))]
        level: Level,
        /// Play the games for a match to this many points.
        #[arg(long)]
        match_to: Option<u32>,
        /// The match score: light's points, then dark's, e.g. 3-5.
        #[arg(long)]
        score: Option<String>,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Seed for the dice.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Accuracy of the network and the heuristic against rollouts on held-out positions.
    Calibrate {
        /// Held-out positions (one from each of this many self-play games).
        #[arg(long, default_value_t = 500)]
        positions: usize,
        /// Rollout games per position.
        #[arg(long, default_value_t = 400)]
        rollouts: usize,
        /// Positions rolled out at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Seed for the positions and dice (training never uses these games).
        #[arg(long, default_value_t = 2026)]
        seed: u64,
    },
    /// The match equity table: the chance to win a match from each score.
    Met {
        /// Match length.
        #[arg(long, default_value_t = 7)]
        to: u32,
        /// What a drawn game does.
        #[arg(long, value_enum, default_value_t = Draw::Replay)]
        draw: Draw,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Train the evaluation network by TD(λ) self-play (checkpoints, resumable).
    Train {
        /// Games to have played in all (a resumed run counts its earlier games).
        #[arg(long)]
        games: u64,
        /// The weights file, written at every checkpoint.
        #[arg(long)]
        out: std::path::PathBuf,
        /// Continue training the network in --out.
        #[arg(long)]
        resume: bool,
        /// Seed: game N of a run is seeded by (seed, N), so a resumed run plays the same games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// λ of TD(λ).
        #[arg(long, default_value_t = 0.7)]
        lambda: f32,
        /// Learning rate at the start.
        #[arg(long, default_value_t = 0.01)]
        lr: f32,
        /// The learning rate halves after this many games (lr / (1 + games / decay)).
        #[arg(long, default_value_t = 200_000.0)]
        lr_decay: f32,
        /// Games between checkpoints.
        #[arg(long, default_value_t = 5000)]
        checkpoint_every: u64,
        /// Games against greedy at each checkpoint, to watch the progress (0: none).
        #[arg(long, default_value_t = 200)]
        probe: usize,
        /// Append a JSON line per checkpoint to this file.
        #[arg(long)]
        log: Option<std::path::PathBuf>,
    },
    /// Exact endings: every position where each side has one or two pieces
    /// left to bring home.
    Endings {
        #[command(subcommand)]
        cmd: EndingsCmd,
    },
    /// Step through a saved game or match record.
    Replay {
        /// The record file, such as the web app's download (`-`: standard input).
        #[arg(long, alias = "file")]
        record: std::path::PathBuf,
        /// Print every step without waiting for commands.
        #[arg(long)]
        all: bool,
    },
}

/// `agon urgammon endings …`.
#[derive(Subcommand)]
pub(crate) enum EndingsCmd {
    /// Solve the classes (all 64 by default, or --class LIGHTvDARK, with
    /// the smaller classes they reach) and write them to --dir; prints each
    /// class's figures as JSON.
    Build {
        /// Classes to solve, e.g. PCvH (light's pieces left v dark's):
        /// repeat it, or leave it out for every class.
        #[arg(long = "class")]
        classes: Vec<String>,
        /// Where the tables are written (and read, so only missing ones are built).
        #[arg(long, default_value = TABLEBASES)]
        dir: std::path::PathBuf,
        /// Threads.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
    },
    /// The exact value of the position after a record (about to roll, or
    /// every option of a decision), as JSON; --score solves the ending for
    /// that match score.
    Probe {
        /// A position set up by hand (`light=… dark=… roll=… starter=…`, as
        /// the analysis board writes it); --record's tokens then go on from it.
        #[arg(long)]
        setup: Option<String>,
        #[command(flatten)]
        record: UrgammonRecordArgs,
        /// Where the tables are.
        #[arg(long, default_value = TABLEBASES)]
        dir: std::path::PathBuf,
        /// A match to this many points (with --score).
        #[arg(long)]
        match_to: Option<u32>,
        /// The match score before this game: light's points, then dark's, e.g. 3-5.
        #[arg(long)]
        score: Option<String>,
    },
}
