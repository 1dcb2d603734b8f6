//! # Computer players
//!
//! One module per game, each with the main names re-exported at its root:
//!
//! - **Ringo** ([`ringo`]): the search engine ([`ringo::search`]: iterative
//!   deepening PVS with a transposition table, quiescence and proven results)
//!   over a feature evaluation ([`ringo::eval`]) tuned by self-play
//!   ([`ringo::tune`]); levels 1–10; and engine-against-engine matches with Elo
//!   statistics ([`ringo::tournament`]).
//! - **Urgammon** ([`urgammon`]): expectimax over the chance and verdict dice
//!   ([`urgammon::search`]) with a neural-network evaluation of the nine game
//!   outcomes ([`urgammon::eval`]) trained by TD(λ) self-play
//!   ([`urgammon::train`]); a match equity table for match play; levels 1–10;
//!   and engine-against-engine games and matches ([`urgammon::tournament`]).
//! - **Baselines** for both games, the yardsticks every engine is measured
//!   against: **random** (a uniformly random legal choice) and **greedy** (one
//!   ply of obvious preferences; in Urgammon: capture, then a rosette, then the
//!   furthest piece, never the verdict die unless forced). Ringo also has
//!   **cautious**: greedy that also avoids moves after which the opponent can
//!   capture, a two-ply and harder yardstick.
//!
//! Every player is deterministic for a given seed.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod dice;
mod fnv;
mod level;
pub mod par;
pub mod puzzle;
pub mod puzzle_check;
pub mod review;
pub mod ringo;
mod rng;
pub mod stats;
pub mod urgammon;

pub use level::{Level, LevelError};
pub use rng::Rng;
pub use stats::share_95;
