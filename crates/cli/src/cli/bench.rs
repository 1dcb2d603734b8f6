//! `agon bench …`: every benchmark's flags.

use clap::Subcommand;

#[derive(Subcommand)]
pub(crate) enum BenchCmd {
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
    /// The web app under load: N games over the real HTTP API at R moves a
    /// second each, K WebSocket spectators; acknowledgement and push latency.
    Serve(ServeBench),
    /// The lobby and the clocks under load: thousands of lobby sockets
    /// while seeks are made and accepted (push latency), then clocked moves
    /// (the time charged against the thinking time measured).
    Lobby(LobbyBench),
    /// A tournament arena of many simulated players online: the pairing
    /// latency after each bout, the standings read while it runs.
    Arena(ArenaBench),
    /// Sign-ins: the cost of one (Argon2id), and the latency of many at once.
    Signin {
        /// Sign-ins at once, in each concurrent round.
        #[arg(long, default_value_t = 50)]
        concurrent: usize,
        /// Concurrent rounds.
        #[arg(long, default_value_t = 4)]
        rounds: usize,
        /// Sign-ins one after the other, for the cost of one.
        #[arg(long, default_value_t = 20)]
        sequential: usize,
    },
    /// Ringo search: fixed positions to a fixed depth; a deterministic node total and nodes/s.
    RingoSearch {
        /// Search depth.
        #[arg(long, default_value_t = 9)]
        depth: u32,
    },
    /// Urgammon network evaluations per second, and level-10 decision times.
    UrgammonEval {
        /// Runs; the median is reported.
        #[arg(long, default_value_t = 5)]
        runs: usize,
        /// Level-10 decisions to time.
        #[arg(long, default_value_t = 200)]
        decisions: usize,
    },
    /// Random Urgammon games per second.
    Urgammon {
        /// Random games per run.
        #[arg(long, default_value_t = 100_000)]
        games: usize,
        /// Runs; the median is reported.
        #[arg(long, default_value_t = 5)]
        runs: usize,
        /// RNG seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// What to run (the flags of `agon bench serve`).
#[derive(Clone, Debug, clap::Args)]
pub(crate) struct ServeBench {
    /// Games played at once.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) games: u32,
    /// Moves per second in each game (0: as fast as acknowledged, a
    /// throughput test).
    #[arg(long, default_value_t = 1.0)]
    pub(crate) rate: f64,
    /// Seconds of play.
    #[arg(long, default_value_t = 20.0)]
    pub(crate) seconds: f64,
    /// WebSocket spectators, spread over the games.
    #[arg(long, default_value_t = 0)]
    pub(crate) spectators: usize,
    /// A running server to target (started here when absent); repeat for
    /// several instances on one PostgreSQL store: games are created and
    /// moved on them in turn, and each spectator watches on another instance
    /// than the one its game's next move goes to.
    #[arg(long)]
    pub(crate) url: Vec<String>,
    /// Who plays the games: `local` (both seats from this client) or
    /// `engine` (the client plays the attackers, the computer replies: the
    /// engine's throughput, `engine_replies_per_s`).
    #[arg(long, value_enum, default_value_t = BenchOpponent::Local)]
    pub(crate) opponent: BenchOpponent,
    /// The computer's level, with `--opponent engine`.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(1..=10))]
    pub(crate) level: u8,
    /// Games created first and never played, to measure memory with many
    /// stored games.
    #[arg(long, default_value_t = 0)]
    pub(crate) stored: usize,
    /// For the server started here: seconds before an unused game leaves
    /// memory.
    #[arg(long, default_value_t = 600)]
    pub(crate) evict_after_secs: u64,
    /// Sign-ins a second (each an Argon2id verification) sent beside the
    /// games, to see that they do not slow the moves.
    #[arg(long, default_value_t = 0.0)]
    pub(crate) signins_per_s: f64,
    /// Sign-ins kept in flight at once beside the games (each starts when
    /// one ends), to see that a burst of them does not slow the moves.
    #[arg(long, default_value_t = 0)]
    pub(crate) signins_at_once: usize,
}

/// Who plays the benchmark's games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum BenchOpponent {
    /// Both seats from the bench's client.
    Local,
    /// The computer in the defenders' seat.
    Engine,
}

/// What to run (the flags of `agon bench lobby`).
#[derive(Clone, Debug, clap::Args)]
pub(crate) struct LobbyBench {
    /// Lobby sockets held open.
    #[arg(long, default_value_t = 10_000)]
    pub(crate) sockets: usize,
    /// Seeks made (and each accepted a moment later) per second.
    #[arg(long, default_value_t = 50.0)]
    pub(crate) seeks_per_s: f64,
    /// Seconds of seeks.
    #[arg(long, default_value_t = 20.0)]
    pub(crate) seconds: f64,
    /// Clocked moves to time (0: none).
    #[arg(long, default_value_t = 1_000)]
    pub(crate) clocked_moves: usize,
    /// Clocked games played at once.
    #[arg(long, default_value_t = 20)]
    pub(crate) clocked_games: usize,
    /// One socket in this many measures its pushes (each parses every
    /// message; the rest only count them, so the client's own work does
    /// not crowd the server off the machine).
    #[arg(long, default_value_t = 10)]
    pub(crate) sample_every: usize,
    /// A running server (started here when absent).
    #[arg(long)]
    pub(crate) url: Option<String>,
}

/// What to run (the flags of `agon bench arena`).
#[derive(clap::Args, Debug)]
pub(crate) struct ArenaBench {
    /// Players in the arena (each signed up, online and entered).
    #[arg(long, default_value_t = 1_000)]
    pub(crate) players: usize,
    /// Seconds of play.
    #[arg(long, default_value_t = 60.0)]
    pub(crate) seconds: f64,
    /// Each bout's think before its second seat resigns, in milliseconds.
    #[arg(long, default_value_t = 500)]
    pub(crate) think_ms: u64,
}
