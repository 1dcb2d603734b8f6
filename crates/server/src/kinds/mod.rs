//! One place per game: what the server needs of a game that its rules crate
//! and the session do not already say, behind [`GameKind`]. A third game is
//! one implementation of it (a file beside `ringo.rs` and `urgammon.rs`) and
//! one line in [`of`], besides its `Kind` and `Rules` variants (the
//! session's adapter over the rules crate) and the page's registry
//! (`static/js/games.js`).

mod ringo;
mod urgammon;

pub use ringo::ringo_reply;

use crate::model::Kind;
use crate::session::{Action, Rules};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A record read for import: what the new game is, and where it stands.
pub struct Imported {
    /// The settings text (a Ringo rules string, an Urgammon match header).
    pub settings: String,
    /// A start position other than the rules' own, as text.
    pub start: Option<String>,
    /// The record's tokens.
    pub tokens: Vec<String>,
    /// The seat to act at the record's end, if any.
    pub to_act: Option<u8>,
}

/// Why a record cannot be imported: the English words, and where (the
/// token's index and text) when one token is to blame.
pub struct ImportError {
    /// What is wrong.
    pub message: String,
    /// Which token, from 0, and its text.
    pub at: Option<(usize, String)>,
}

/// A new game's settings as a creation request gives them, the fields of
/// both games read already (each game takes its own).
pub struct SettingsFields<'a> {
    /// Ringo: the rules string (default `classic`).
    pub rules: Option<&'a str>,
    /// Urgammon: the match target, checked to be a whole number 1 to 99.
    pub to: u32,
    /// Urgammon: what a drawn game does.
    pub draw: Option<&'a str>,
    /// Urgammon: the stake per point, as written.
    pub stake: Option<&'a str>,
}

/// Why a new game's settings are refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingsRefusal {
    /// The rules string.
    #[error("{0}")]
    Rules(String),
    /// A match setting (the draw rule).
    #[error("{0}")]
    Match(String),
    /// The stake.
    #[error("{0}")]
    Stake(String),
}

/// What the server needs of one game.
pub trait GameKind: Sync {
    /// A new game's settings text (a Ringo rules string, an Urgammon match
    /// header) from a creation request's fields.
    ///
    /// # Errors
    /// A field is not valid for this game.
    fn settings(&self, fields: &SettingsFields<'_>) -> Result<String, SettingsRefusal>;

    /// The computer's action in a game of these `rules` whose record has
    /// `tokens` tokens, at `level`; a raised `stop` ends a search early.
    fn engine_action(
        &self,
        rules: &Rules,
        level: agon_ai::Level,
        tokens: usize,
        stop: Arc<AtomicBool>,
    ) -> Option<Action>;

    /// A finished game's review as the API's (and the CLI's) JSON, calling
    /// `progress` with the steps done and in all.
    ///
    /// # Errors
    /// The JSON could not be written.
    fn review_json(
        &self,
        rules: &Rules,
        progress: &dyn Fn(usize, usize),
    ) -> serde_json::Result<String>;

    /// How many steps a review of this game takes.
    fn review_steps(&self, rules: &Rules) -> usize;

    /// A record's text (its resignation already split off) as a game to
    /// import.
    ///
    /// # Errors
    /// The record cannot be read.
    fn import(&self, text: &str) -> Result<Imported, ImportError>;

    /// The plies at which a replay stops when it steps a turn at a time,
    /// for a game whose record counts more than one token a turn; `None`
    /// when every token is a turn.
    fn turn_plies(&self, tokens: &[String]) -> Option<Vec<usize>>;
}

/// The game of this kind.
pub fn of(kind: Kind) -> &'static dyn GameKind {
    match kind {
        Kind::Ringo => &ringo::Ringo,
        Kind::Urgammon => &urgammon::Urgammon,
    }
}

/// The seeded generator of the engine's decision after `tokens` record
/// tokens at `level`: the same game and level always give the same decision
/// (levels 1–9), so replies can be checked.
fn decision_rng(tokens: usize, level: agon_ai::Level) -> agon_ai::Rng {
    agon_ai::Rng::new(tokens as u64 ^ 0x5eed_a90e ^ (u64::from(level.get()) << 32))
}
