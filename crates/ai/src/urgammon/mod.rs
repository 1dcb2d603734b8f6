//! The Urgammon engine: a neural-network evaluation of the nine game outcomes
//! ([`eval`]) trained by TD(λ) self-play ([`train`]), expectimax over the
//! chance and verdict dice ([`search`]) valued in points or match-winning
//! chances ([`payoff`]), the levels 1–10 ([`levels`]), the
//! baselines ([`player`]), and engine-against-engine games and matches
//! ([`tournament`]). The main names are re-exported here.

pub mod calibrate;
pub mod endings;
pub mod eval;
pub mod levels;
pub mod payoff;
pub mod player;
pub mod puzzles;
pub mod report;
pub mod review;
pub mod rollout;
pub mod search;
pub mod tournament;
pub mod train;

pub use eval::{Evaluator, Heuristic, Net, Outcomes};
pub use levels::{analyze, decide, decide_with, level_spec, Analysis, Brain, LevelSpec};
pub use payoff::{MatchTable, Payoff};
pub use player::{greedy_decision, random_decision, Decision};
pub use rollout::{rollout, MatchContext};
pub use search::{Choice, Search};
pub use tournament::{Spec, Tally};
pub use train::TrainConfig;
