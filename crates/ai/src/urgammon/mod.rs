//! The Urgammon engine: a neural-network evaluation of the nine game outcomes
//! ([`eval`]) trained by TD(λ) self-play ([`train`]), expectimax over the
//! chance and verdict dice with a match equity table ([`search`]), the
//! baselines ([`player`]), and engine-against-engine games and matches
//! ([`tournament`]). The main names are re-exported here.

pub mod calibrate;
pub mod eval;
pub mod player;
pub mod rollout;
pub mod search;
pub mod tournament;
pub mod train;

pub use eval::{Evaluator, Heuristic, Net, Outcomes};
pub use player::{greedy_decision, random_decision, Decision};
pub use rollout::{rollout, MatchContext};
pub use search::{analyze, decide, level_spec, Analysis, MatchTable, Payoff};
pub use tournament::{Spec, Tally};
pub use train::TrainConfig;
