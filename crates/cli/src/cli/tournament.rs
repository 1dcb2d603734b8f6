//! `agon tournament …`, `agon tune …` and the review studies' flags.

use super::*;
use clap::Subcommand;

#[derive(Subcommand)]
pub(crate) enum TournamentCmd {
    /// Ringo: both seats alternately, from varied openings.
    Ringo(RingoArgs),
    /// Urgammon: games (or matches) for points, seats swapped in pairs with shared dice.
    Urgammon {
        /// Player A: level:N, ply:P, blend:P, heuristic:P, noise:X, random or greedy.
        #[arg(long)]
        a: String,
        /// Player B.
        #[arg(long)]
        b: String,
        /// Games (or matches with --match-to) to play.
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Play matches to this many points instead of single games.
        #[arg(long)]
        match_to: Option<u32>,
        /// A network file for A (e.g. a training checkpoint) instead of the trained one.
        #[arg(long)]
        net_a: Option<std::path::PathBuf>,
        /// A network file for B.
        #[arg(long)]
        net_b: Option<std::path::PathBuf>,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Seed for the dice and the players' randomness.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

#[derive(Subcommand)]
pub(crate) enum TuneCmd {
    /// Ringo: self-play positions, a Texel-style fit of the evaluation weights,
    /// and a verification match against the starting weights.
    Ringo {
        /// The method: spsa (on match results) or texel (a fit to game outcomes).
        #[arg(long, value_enum, default_value_t = TuneMethod::Spsa)]
        method: TuneMethod,
        /// Self-play games (texel), or SPSA iterations.
        #[arg(long, default_value_t = 400)]
        games: usize,
        /// Self-play search depth.
        #[arg(long, default_value_t = 2)]
        depth: u32,
        /// Gradient-descent passes.
        #[arg(long, default_value_t = 300)]
        epochs: usize,
        /// Verification games (tuned against starting weights).
        #[arg(long, default_value_t = 100)]
        verify: usize,
        /// Seed for the games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// Who plays a review study, how many games, on how many threads.
#[derive(clap::Args, Debug)]
pub struct StudyArgs {
    /// Player A (as in `agon tournament`).
    #[arg(long, default_value = "level:10")]
    pub a: String,
    /// Player B.
    #[arg(long, default_value = "random")]
    pub b: String,
    /// Games to play and review.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// What `agon tournament ringo` plays: its command-line arguments.
#[derive(clap::Args)]
pub(crate) struct RingoArgs {
    /// Rules: PRESET[,key=value]...
    #[arg(long, default_value = "classic")]
    pub(crate) rules: String,
    /// Player A: level:N, depth:D, nodes:N, time:MS (the search alone, MS milliseconds a move), level10:MS (level 10's whole play, its reading included, at MS milliseconds a move), random, greedy (1 ply) or cautious (greedy that avoids allowing a capture).
    #[arg(long)]
    pub(crate) a: String,
    /// Player B.
    #[arg(long)]
    pub(crate) b: String,
    /// Games to play (an even number plays every opening from both seats).
    #[arg(long, default_value_t = 100)]
    pub(crate) games: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub(crate) threads: usize,
    /// Stop early by SPRT between Elo elo0 and elo1, e.g. 0,50.
    #[arg(long)]
    pub(crate) sprt: Option<String>,
    /// Seed for the openings and the players' randomness.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Write every game to this file as it ends, one JSON object a line:
    /// game, a_attacks, winner, plies and the record (replay it with
    /// `agon ringo show --rules … --moves …`).
    #[arg(long)]
    pub(crate) records: Option<std::path::PathBuf>,
    /// Player A plays only this side (each game from its own opening), to
    /// measure one seat; by default A plays both seats alternately.
    #[arg(long, value_enum)]
    pub(crate) seat: Option<crate::cli::RingoSide>,
    /// Start the games from these unfinished games instead of two random
    /// plies: a file with one game record a line (`RULES MOVES…`, as the
    /// records' `record` field writes it). Game N starts from opening N mod
    /// the count (without --seat, each opening is played from both seats);
    /// level 10 reads the opponent's moves already played.
    #[arg(long)]
    pub(crate) openings: Option<std::path::PathBuf>,
}
