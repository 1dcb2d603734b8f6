//! # Urgammon rules
//!
//! Urgammon is a Royal Game of Ur variant with a 1–4 chance die, a
//! double-or-quit verdict die, pawns, chariots and a hero, and backgammon-style
//! matches. This crate plays every rule of the project's rules page.
//!
//! Dice are inputs: the crate never rolls. A game moves on by record tokens
//! (`start:L-D`, `r1`…`r4`, `v+`/`v-`, moves), so the same record always gives
//! the same game. Untrusted text goes through [`Game::parse`],
//! [`Game::apply_text`] and [`Match::parse`], which report the bad token, its
//! index and why.
//!
//! ```
//! use urgammon::{Game, Phase};
//! let mut game = Game::new();
//! game.apply_text("start:1-4").unwrap(); // light rolled lower and starts with 1
//! assert_eq!(game.state().phase(), Phase::Move);
//! game.apply_text("P-1a").unwrap();
//! assert_eq!(game.state().phase(), Phase::Roll); // dark's turn
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod board;
mod error;
mod game;
mod matchplay;
mod moves;
mod notation;
mod playout;
mod position;
mod result;
mod setup;
mod state;

pub use board::{
    house_at, progress_of, promote, BySide, House, Kind, Side, CHANCE_FACES, PALACE,
    VERDICT_YES_FACES,
};
pub use error::{SettingsError, TokenError};
pub use game::Game;
pub use matchplay::{DrawRule, Match, MatchResult, MatchSettings, Stake};
pub use moves::{Move, MoveList, MAX_MOVES};
pub use notation::{RecordError, RecordReason, TokenText};
pub use playout::playout;
pub use position::{Army, Position};
pub use result::{GameResult, ResultKind};
pub use setup::{parse_setup, setup_text, SetupError};
pub use state::{Phase, State, Token};
