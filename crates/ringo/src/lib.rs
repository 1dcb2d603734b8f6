//! # Ringo rules
//!
//! The rules of Ringo, the German castle-siege game, in every rule set of the
//! project's rules page: board geometry, options and presets, positions, legal
//! move generation, the outcome, notation and perft.
//!
//! The crate has no dependencies, no I/O and no randomness. Untrusted text goes
//! through checked parsers ([`Rules`] via `str::parse`, [`Position::parse`],
//! [`Game::play_text`], [`Game::parse_record`]) that return errors naming what is
//! wrong; the unchecked fast paths ([`Position::play_unchecked`],
//! [`Game::play_unchecked`]) exist for search and perft.
//!
//! ```
//! use ringo::{Game, Rules};
//! let rules: Rules = "globe".parse().unwrap();
//! let mut game = Game::new(rules);
//! let moves = game.legal_notations();
//! game.play_text(&moves[0]).unwrap();
//! assert_eq!(game.ply(), 1);
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod board;
mod game;
mod movegen;
mod moves;
mod perft;
mod playout;
mod position;
mod rules;

pub use board::{Bitboard, Cell, Dir};
pub use game::{EndReason, Game, Outcome, RecordError};
pub use movegen::{
    explain_illegal, legal_moves, position_is_terminal, position_winner, pseudo_moves,
};
pub use moves::{Move, MoveError, MoveList, MoveText, MAX_MOVES};
pub use perft::{divide, perft};
pub use playout::{playout, PlayoutResult};
pub use position::{BySide, Position, PositionError, Side};
pub use rules::{
    AttackerCaptures, CaptureKind, NeutralLimit, Preset, Repetition, Rules, RulesError, OPTIONS,
};
