//! The Ringo engine: a feature evaluation ([`eval`]) tuned by self-play
//! ([`tune`]), an iterative-deepening PVS search with a transposition table,
//! quiescence and proven results ([`search`]), the baselines ([`player`]),
//! and engine-against-engine matches with Elo statistics ([`tournament`]).
//! The main names are re-exported here.

pub mod balance;
pub mod bench;
pub mod eval;
pub mod player;
pub mod puzzles;
pub mod report;
pub mod review;
pub mod search;
pub mod solve;
pub mod tablebase;
pub mod tournament;
pub mod tune;

pub use eval::{evaluate, Weights, HAND_WEIGHTS, WEIGHTS};
pub use player::{cautious_move, greedy_move, random_move};
pub use search::{level_move, level_spec, Limits, Proven, Report, Searcher};
pub use tournament::{Spec, Tally};
