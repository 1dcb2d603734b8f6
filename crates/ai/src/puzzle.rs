//! Puzzles: positions with one best decision, made by `agon puzzles build`
//! and shipped as data with the web app (`crates/server/puzzles/`).
//!
//! One shape for both games, so the builder, the web app and the tests that
//! check every shipped puzzle read the same file. Each game makes and checks
//! its own ([`crate::ringo::puzzles`] from the endgame tablebases,
//! [`crate::urgammon::puzzles`] from level-10 self-play with review).

use serde::{Deserialize, Serialize};

/// Which game a puzzle is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PuzzleGame {
    /// Ringo.
    Ringo,
    /// Urgammon.
    Urgammon,
}

impl PuzzleGame {
    /// Both games.
    pub const ALL: [PuzzleGame; 2] = [PuzzleGame::Ringo, PuzzleGame::Urgammon];

    /// The game's name in the API and the data files.
    pub const fn name(self) -> &'static str {
        match self {
            PuzzleGame::Ringo => "ringo",
            PuzzleGame::Urgammon => "urgammon",
        }
    }
}

impl std::str::FromStr for PuzzleGame {
    type Err = String;
    fn from_str(s: &str) -> Result<PuzzleGame, String> {
        PuzzleGame::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| format!("'{s}' is not a game: ringo or urgammon"))
    }
}

/// What the solver must find.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Goal {
    /// The only move that wins (every other move lets the win go).
    Win,
    /// The only move that keeps the fastest proven win (others win slower
    /// or not at all).
    Fastest,
    /// The decision that beats every other by a wide margin: Urgammon, at
    /// least [`crate::urgammon::puzzles::MIN_GAP`] in equity; Ringo (from
    /// self-play), at least [`crate::ringo::puzzles::MIN_MARGIN`] in win
    /// chance.
    Best,
}

/// Where a puzzle was found and how it was proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// A position of the Ringo endgame tablebases: exact.
    Tablebase,
    /// A decision of a level-10 self-play game, reviewed.
    SelfPlay,
}

/// One puzzle as shipped.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Puzzle {
    /// Its id, unique over both games: `r-` or `u-` and a number.
    pub id: String,
    /// The game.
    pub game: PuzzleGame,
    /// Ringo: the rules string; Urgammon: `money` (a game for points).
    pub rules: String,
    /// Ringo: the position in the notation of the rules page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// Urgammon: the state at the start of the turn, as a set-up text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<String>,
    /// Urgammon: the turn's tokens so far (the dice), after the set-up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<String>,
    /// The side to act: `attackers`, `defenders`, `light` or `dark`.
    pub to_act: String,
    /// Its themes, the main one first.
    pub themes: Vec<String>,
    /// Its difficulty on the players' rating scale (1500 a middling one).
    pub rating: u32,
    /// What must be found.
    pub goal: Goal,
    /// The answer: one move in notation (Urgammon: a move, or `verdict`).
    pub solution: Vec<String>,
    /// Where it was found.
    pub source: Source,
    /// Ringo: the plies to the win after the solution's move, counted from
    /// the puzzle's position (the solution included).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plies: Option<u16>,
    /// Every option with its value for the decider, best first: Urgammon,
    /// its equity; Ringo from self-play, the win chance after it (0–1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<(String, f64)>,
    /// Urgammon: the options' values are exact (every line played out to
    /// the game's end), not the engine's estimate.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exact: bool,
}

/// A shipped file: one game's puzzles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleSet {
    /// The game.
    pub game: PuzzleGame,
    /// How they were made (the command and its settings), for the record.
    pub built_by: String,
    /// The puzzles.
    pub puzzles: Vec<Puzzle>,
}

/// A difficulty from what a puzzle asks: longer wins and more moves to
/// choose from are harder. Clamped to 600–2600.
pub fn difficulty(base: f64, depth: f64, choices: usize) -> u32 {
    let r = base + depth + 12.0 * choices as f64;
    r.clamp(600.0, 2600.0).round() as u32
}
