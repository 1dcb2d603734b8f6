//! What the server needs of one game ([`GameKind`]) and the shapes its
//! methods speak: settings fields, imported records, refusals. Each game's
//! file implements it; `mod.rs` picks the game of a kind.

use crate::engine::analysis::{AnalyzeAnswer, AnalyzeRequest};
use crate::engine::EngineError;

/// A record read for import: what the new game is, and where it stands.
pub struct Imported {
    /// The settings text (a Ringo rules string, an Urgammon match header).
    pub settings: String,
    /// A start position other than the rules' own, as text.
    pub start: Option<String>,
    /// The record's tokens.
    pub tokens: Vec<String>,
    /// The seat to act at the record's end, if any.
    pub to_act: Option<crate::model::Seat>,
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

    /// A record's text (its resignation already split off) as a game to
    /// import.
    ///
    /// # Errors
    /// The record cannot be read.
    fn import(&self, text: &str) -> Result<Imported, ImportError>;

    /// Checks an analysis request's position without analysing it, so a bad
    /// request is refused before any engine work is queued.
    ///
    /// # Errors
    /// The position cannot be read.
    fn check_analysis(&self, req: &AnalyzeRequest) -> Result<(), EngineError>;

    /// The analysis board's answer for a request's position, searched to
    /// `depth` where the game searches.
    ///
    /// # Errors
    /// The position cannot be read.
    fn analyze(&self, req: &AnalyzeRequest, depth: u32) -> Result<AnalyzeAnswer, EngineError>;

    /// Checks a rollout request's position without rolling it out.
    ///
    /// # Errors
    /// The position cannot be read, is over, or the game has no rollouts.
    fn check_rollout(&self, req: &AnalyzeRequest) -> Result<(), EngineError>;

    /// A rollout of `games` games from a request's position, as JSON.
    ///
    /// # Errors
    /// As for [`GameKind::check_rollout`].
    fn rollout(&self, req: &AnalyzeRequest, games: usize) -> Result<String, EngineError>;

    /// The plies at which a replay stops when it steps a turn at a time,
    /// for a game whose record counts more than one token a turn; `None`
    /// when every token is a turn.
    fn turn_plies(&self, tokens: &[String]) -> Option<Vec<usize>>;

    /// The seat that made the game's first move, from its record's tokens
    /// (`None` when the record does not say): the fair-play pause asks who
    /// left a game before it began.
    fn first_mover(&self, tokens: &[String]) -> Option<crate::model::Seat>;

    /// Whether the seats are colours a Swiss pairing balances (C.9–C.13):
    /// not where a round is a pair of games with the seats swapped.
    fn seats_are_colours(&self) -> bool;

    /// Whether a rated game, and a tournament's bout, is a pair of games
    /// with the seats swapped for the second (Ringo: its sides are unequal);
    /// otherwise one game (an Urgammon match) is the whole of it.
    fn plays_pairs(&self) -> bool;

    /// The points a game with `settings` is played to, for a game played
    /// in matches (Urgammon's `to`); none for a game of single games.
    fn match_target(&self, settings: &str) -> Option<u32>;

    /// How many times one finished game with `settings` counts in its
    /// players' rating period (an Urgammon match to 7 points says more
    /// than one to 1; a Ringo game once, its pair rated as a whole).
    fn rating_weight(&self, settings: &str) -> usize;

    /// The game's name as a title ("Ringo"), as in an event's default name.
    fn title(&self) -> &'static str;

    /// The rules a game is played with where nobody chose them (a
    /// tournament's, a pool's): Ringo's most even set; none for a game of
    /// one rule set.
    fn even_rules(&self) -> Option<&'static str>;

    /// The review's measure of `side` (a seat's name) in a game's review
    /// JSON when it is the engine's own, as the review pages show it (Ringo's
    /// accuracy, Urgammon's error rate): the fair-play report of a run of
    /// wins at the engine's level reads it. `None`: a human's play, fewer
    /// than [`ACCURACY_MIN_MOVES`] moves, or a review that does not read.
    fn engine_measure(&self, review: &str, side: &str) -> Option<f64>;

    /// The measure's name in a report ("accuracy", "error rate").
    fn measure_name(&self) -> &'static str;
}

/// The fewest of a side's own moves (Ringo) or non-trivial decisions
/// (Urgammon) in a game for its measure to say anything: a game resigned
/// early proves nothing.
pub const ACCURACY_MIN_MOVES: usize = 10;

/// The seeded generator of the engine's decision after `tokens` record
/// tokens at `level`: the same game and level always give the same decision
/// (levels 1–9), so replies can be checked.
pub(super) fn decision_rng(tokens: usize, level: agon_ai::Level) -> agon_ai::Rng {
    agon_ai::Rng::new(tokens as u64 ^ 0x5eed_a90e ^ (u64::from(level.get()) << 32))
}
